// The credential chain (credentials.h) in the AWS CLI's order, and what its sources share: the
// profile's static keys, metadata and STS answers, the AWS CLI's cache. Each source is its own
// file (credentials_<source>.cpp), as aws-c-auth keeps one per provider.
#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <set>

#include "aws/credential_sources.h"
#include "core/strings.h"
#include "core/time.h"

namespace keyhole::aws::internal {

// "profile dev in ~/.aws/credentials"
std::string InFile(std::string_view profile, const std::string& path) {
  return fmt::format("profile {} in {}", profile, path);
}

// Static keys of a profile section: nullopt when it has no aws_access_key_id.
Result<std::optional<Credentials>> StaticKeys(const ConfigSection* section, std::string source,
                                              std::string_view where) {
  const std::string* key = section ? section->Find("aws_access_key_id") : nullptr;
  if (!key || key->empty()) return std::optional<Credentials>();
  const std::string* secret = section->Find("aws_secret_access_key");
  if (!secret || secret->empty()) {
    return NamedError(
        "PartialCredentialsError",
        fmt::format("Partial credentials found in {}, missing: aws_secret_access_key", where));
  }
  Credentials c;
  c.access_key_id = *key;
  c.secret_access_key = *secret;
  if (const std::string* t = section->Find("aws_security_token"); t && !t->empty()) {
    c.session_token = *t;
  } else if (const std::string* s = section->Find("aws_session_token")) {
    c.session_token = *s;
  }
  if (const std::string* a = section->Find("aws_account_id")) c.account_id = *a;
  c.source = std::move(source);
  return std::optional<Credentials>(std::move(c));
}

// An HTTP GET or PUT to a metadata service, with its own timeout.
HttpResult MetadataCall(const std::string& method, const std::string& url, Headers headers,
                        int timeout_ms) {
  HttpClient::Options o;
  o.connect_timeout_ms = timeout_ms;
  o.read_timeout_ms = timeout_ms;
  o.max_idle = 0;
  HttpClient client(o);
  HttpRequest r;
  r.method = method;
  r.url = url;
  r.headers = std::move(headers);
  return client.Send(r);
}

// Credentials from a metadata answer (container or instance): AccessKeyId, SecretAccessKey,
// Token, Expiration.
Result<Credentials> MetadataCredentials(const json::Value& v, std::string source,
                                        std::string_view what) {
  Credentials c;
  c.access_key_id = JsonString(v, "AccessKeyId");
  c.secret_access_key = JsonString(v, "SecretAccessKey");
  c.session_token = JsonString(v, "Token");
  c.account_id = JsonString(v, "AccountId");
  if (c.access_key_id.empty() || c.secret_access_key.empty()) {
    return NamedError("CredentialRetrievalError",
                      fmt::format("{} answered without AccessKeyId and SecretAccessKey", what));
  }
  if (std::string exp = JsonString(v, "Expiration"); !exp.empty()) c.expiration = ParseIso8601(exp);
  c.source = std::move(source);
  return c;
}

// The STS endpoint: a configured one (AWS_ENDPOINT_URL_STS, ...), else the region's, else the
// global one signed for us-east-1. `*region` is the region to sign for.
Result<std::string> StsUrl(const Context& ctx, std::string* region) {
  KH_ASSIGN_OR_RETURN(std::optional<Endpoint> configured,
                      ConfiguredServiceEndpoint(*ctx.options->settings, ctx.env(), "STS"));
  *region = ctx.region().empty() ? "us-east-1" : ctx.region();
  if (configured) return configured->Url();
  if (ctx.region().empty()) return std::string("https://sts.amazonaws.com/");
  const std::string_view suffix =
      ctx.region().starts_with("cn-") ? "amazonaws.com.cn" : "amazonaws.com";
  return fmt::format("https://sts.{}.{}/", ctx.region(), suffix);
}

// Credentials from an STS answer (AssumeRole or AssumeRoleWithWebIdentity), or its error.
Result<Credentials> StsCredentials(const HttpResult& r, const std::string& url,
                                   std::string_view action, std::string_view role_arn,
                                   std::string source) {
  if (!r.ok()) {
    return NamedError("EndpointConnectionError",
                      fmt::format("STS {} for {}: {}", action, role_arn, TransportFailure(r, url)));
  }
  const std::string& body = r.response.body;
  if (r.response.status != 200) {
    const std::string code = XmlText(body, "Code");
    const std::string message = XmlText(body, "Message");
    return Status::Named(
        code.empty() ? "STSError" : code,
        fmt::format("STS {} for {} failed (HTTP {}): {}", action, role_arn, r.response.status,
                    message.empty() ? body.substr(0, 200) : message),
        r.response.status);
  }
  const std::string creds = XmlText(body, "Credentials");
  Credentials c;
  c.access_key_id = XmlText(creds, "AccessKeyId");
  c.secret_access_key = XmlText(creds, "SecretAccessKey");
  c.session_token = XmlText(creds, "SessionToken");
  c.expiration = ParseIso8601(XmlText(creds, "Expiration"));
  if (c.access_key_id.empty() || c.secret_access_key.empty()) {
    return NamedError("CredentialRetrievalError",
                      fmt::format("STS {} for {}: the answer from {} holds no credentials", action,
                                  role_arn, url));
  }
  // arn:aws:sts::123456789012:assumed-role/R/S: the account is the fifth field.
  const std::string arn = XmlText(body, "Arn");
  size_t start = 0;
  for (int field = 0; field < 4 && start != std::string::npos; ++field) {
    start = arn.find(':', start);
    if (start != std::string::npos) ++start;
  }
  if (start != std::string::npos) c.account_id = arn.substr(start, arn.find(':', start) - start);
  c.source = std::move(source);
  return c;
}

CliCache::CliCache(const Environment& env, std::string key)
    : path_(fmt::format("{}/.aws/cli/cache/{}.json", env.Home(), key)) {}

std::optional<Credentials> CliCache::Read(double now, std::string source) const {
  std::string text;
  if (!ReadWholeFile(path_, &text)) return std::nullopt;
  Result<json::Value> v = json::Parse(text);
  if (!v.ok() || !v->IsObject()) return std::nullopt;
  const json::Value* c = v->Find("Credentials");
  if (!c || !c->IsObject()) return std::nullopt;
  Credentials out;
  out.access_key_id = JsonString(*c, "AccessKeyId");
  out.secret_access_key = JsonString(*c, "SecretAccessKey");
  out.session_token = JsonString(*c, "SessionToken");
  out.account_id = JsonString(*c, "AccountId");
  out.expiration = ParseIso8601(JsonString(*c, "Expiration"));
  if (out.access_key_id.empty() || !out.expiration || *out.expiration - now < 15 * 60) {
    return std::nullopt;
  }
  out.source = std::move(source) + " (cached in " + path_ + ")";
  return out;
}

void CliCache::Write(const Credentials& c, std::string_view provider_type) const {
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path_).parent_path(), ec);
  json::Value creds = json::Value::MakeObject();
  creds.Add("AccessKeyId", json::Value::String(c.access_key_id));
  creds.Add("SecretAccessKey", json::Value::String(c.secret_access_key));
  creds.Add("SessionToken", json::Value::String(c.session_token));
  creds.Add("Expiration", json::Value::String(c.expiration ? IsoSeconds(*c.expiration) : ""));
  if (!c.account_id.empty()) creds.Add("AccountId", json::Value::String(c.account_id));
  json::Value o = json::Value::MakeObject();
  if (!provider_type.empty())
    o.Add("ProviderType", json::Value::String(std::string(provider_type)));
  o.Add("Credentials", std::move(creds));
  static std::atomic<int> counter{0};
  const std::string tmp = path_ + fmt::format(".tmp{}-{}", getpid(), counter++);
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd < 0) return;
  const std::string text = json::Write(o);
  const bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ::close(fd);
  if (!written || std::rename(tmp.c_str(), path_.c_str()) != 0) std::remove(tmp.c_str());
}

namespace {

// The first source of `profile` that has credentials, for a source_profile: its role_arn
// (role chaining) unless it holds keys itself; else web identity, SSO, the credentials file,
// credential_process, the config file. `*error` is set on a loop of profiles.
class FirstOf : public CredentialSource {
 public:
  explicit FirstOf(std::vector<std::unique_ptr<CredentialSource>> sources)
      : sources_(std::move(sources)) {}
  std::string Name() const override { return sources_.empty() ? "" : sources_[0]->Name(); }
  Result<std::optional<Credentials>> Load(std::string* why_not) override {
    for (const auto& s : sources_) {
      std::string why;
      KH_ASSIGN_OR_RETURN(std::optional<Credentials> c, s->Load(&why));
      if (c) return c;
      *why_not += (why_not->empty() ? "" : "; ") + why;
    }
    return std::optional<Credentials>();
  }

 private:
  std::vector<std::unique_ptr<CredentialSource>> sources_;
};

}  // namespace

std::unique_ptr<CredentialSource> SourceFor(const Context& ctx, const std::string& profile,
                                            std::set<std::string> visited, std::string* error) {
  const ConfigSection p = ctx.shared().Profile(profile);
  const bool has_keys = p.Find("aws_access_key_id") != nullptr;
  std::vector<std::unique_ptr<CredentialSource>> sources;
  if (p.Find("role_arn") && !has_keys) {
    if (visited.count(profile)) {
      *error = fmt::format(
          "Infinite loop in credential configuration detected. Attempting to load "
          "from profile {} which has already been visited.",
          profile);
      return nullptr;
    }
    visited.insert(profile);
    sources.push_back(MakeAssumeRoleSource(ctx, profile, visited));
  } else {
    sources.push_back(MakeWebIdentitySource(ctx, profile, false));
    sources.push_back(MakeSsoSource(ctx, profile));
    sources.push_back(MakeFileKeysSource(ctx, profile, true));
    sources.push_back(MakeProcessSource(ctx, profile));
    sources.push_back(MakeFileKeysSource(ctx, profile, false));
  }
  return std::make_unique<FirstOf>(std::move(sources));
}

std::vector<std::unique_ptr<CredentialSource>> BuildChain(
    const CredentialProvider::Options& options, std::function<double()> now) {
  Context ctx{&options, std::move(now)};
  const ClientSettings& s = *options.settings;
  const std::string& profile = s.profile.value;
  std::vector<std::unique_ptr<CredentialSource>> chain;
  if (!s.profile_explicit) chain.push_back(MakeEnvSource(ctx));
  chain.push_back(MakeAssumeRoleSource(ctx, profile, std::set<std::string>{profile}));
  chain.push_back(MakeWebIdentitySource(ctx, profile, !s.profile_explicit));
  chain.push_back(MakeSsoSource(ctx, profile));
  chain.push_back(MakeFileKeysSource(ctx, profile, true));
  chain.push_back(MakeProcessSource(ctx, profile));
  chain.push_back(MakeFileKeysSource(ctx, profile, false));
  chain.push_back(MakeContainerSource(ctx));
  chain.push_back(MakeImdsSource(ctx));
  return chain;
}

}  // namespace keyhole::aws::internal
