// OpenEndpoint (endpoint.h).
#include "cli/open_endpoint.h"

#include "aws/credentials.h"
#include "aws/endpoint.h"

namespace keyhole::cli {
namespace {

bool IsAwsHost(const std::string& host) {
  return host.ends_with(".amazonaws.com") || host.ends_with(".amazonaws.com.cn") ||
         host.ends_with(".api.aws");
}

}  // namespace

Result<std::unique_ptr<Endpoint>> OpenEndpoint(const EndpointFlags& flags) {
  const aws::Environment env = aws::Environment::Process();
  aws::ClientFlags client;
  client.profile = flags.profile;
  client.region = flags.region;
  client.endpoint_url = flags.endpoint;
  client.ca_bundle = flags.ca_bundle;
  client.max_attempts = flags.max_attempts;
  auto out = std::make_unique<Endpoint>();
  KH_ASSIGN_OR_RETURN(out->settings, aws::ResolveClientSettings(client, env));
  aws::ClientSettings& settings = out->settings;
  // The region: configured, else us-east-1 for signing a request to a given endpoint (as
  // local servers expect); DynamoDB itself needs one.
  std::string region = settings.region.value, region_source = settings.region.source;
  if (region.empty()) {
    if (!settings.endpoint) {
      return Status::Named("NoRegionError",
                           "You must specify a region: --region R, AWS_REGION, or region in the "
                           "profile (aws configure set region R)");
    }
    region = "us-east-1";
    region_source = "the default for a given endpoint";
  }
  const aws::Endpoint endpoint =
      settings.endpoint ? *settings.endpoint : aws::RegionalEndpoint(region);
  out->url = endpoint.Url();
  out->region = region;
  out->region_source = region_source;

  aws::HttpClient::Options http;
  http.ca_bundle = settings.ca_bundle.value;
  if (flags.connect_timeout > 0)
    http.connect_timeout_ms = static_cast<int>(flags.connect_timeout * 1000);
  if (flags.read_timeout > 0) http.read_timeout_ms = static_cast<int>(flags.read_timeout * 1000);
  http.cancel = flags.cancel;
  out->credential_http = std::make_unique<aws::HttpClient>(http);
  aws::CredentialProvider::Options c;
  c.settings = &out->settings;
  c.env = env;
  c.http = out->credential_http.get();
  std::shared_ptr<aws::CredentialProvider> credentials =
      std::make_shared<aws::CredentialProvider>(c);
  Result<aws::Credentials> found = credentials->Get();
  if (found.ok()) {
    out->credentials_source = found->source;
  } else if (found.status().name() == "NoCredentialsError" && !IsAwsHost(endpoint.host)) {
    aws::Credentials placeholder;
    placeholder.access_key_id = "keyhole";
    placeholder.secret_access_key = "keyhole";
    placeholder.source = "placeholder keys (no AWS credentials are configured)";
    out->credentials_source = placeholder.source;
    credentials = aws::CredentialProvider::Fixed(placeholder);
  } else {
    return found.status();
  }

  remote::RemoteBackend::Options o;
  o.endpoint = out->url;
  o.region = region;
  o.credentials = credentials;
  o.credentials_source = out->credentials_source;
  o.region_source = region_source;
  o.http = http;
  // Every connection a copy keeps busy stays open between its requests (8 parts of 32
  // BatchWriteItems in flight by default): with fewer kept, most requests opened a new
  // connection (a TLS handshake, against DynamoDB).
  o.http.max_idle = 1024;
  o.max_attempts = settings.max_attempts;
  o.user_agent = "keyhole/" KEYHOLE_VERSION;
  KH_ASSIGN_OR_RETURN(out->remote, remote::RemoteBackend::Create(o));
  out->backend = out->remote.get();
  if (flags.read_only) {
    out->read_only = std::make_unique<ReadOnlyBackend>(*out->remote, out->url);
    out->backend = out->read_only.get();
  }
  return out;
}

}  // namespace keyhole::cli
