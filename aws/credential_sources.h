// The credential chain's sources (credentials.h's order), one file each, and what they share.
// Internal to aws/: credentials.cpp builds the chain with BuildChain (credentials_internal.h).
// A source is used by one CredentialProvider at a time (the provider serializes its loads);
// nothing here is shared between threads except the AWS CLI's cache files, written whole and
// renamed.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "aws/config.h"
#include "aws/credentials_internal.h"
#include "aws/http_client.h"

namespace keyhole::aws::internal {

// What every source reads: the provider's options (settings, environment; not owned, they
// outlive the chain) and its clock.
struct Context {
  const CredentialProvider::Options* options;
  std::function<double()> now;
  const SharedConfig& shared() const { return options->settings->shared; }
  const Environment& env() const { return options->env; }
  std::string region() const { return options->settings->region.value; }
};

// The sources, in the AWS CLI's order (credential_sources.cpp's BuildChain): 1. the
// environment, 2. role_arn (AssumeRole; `visited` are the profiles on the way, for its loop
// check), 3. web identity (`use_env`: AWS_WEB_IDENTITY_TOKEN_FILE and AWS_ROLE_ARN count),
// 4. SSO, 5. the shared credentials file (`credentials_file`) or 7. the config file's keys,
// 6. credential_process, 8. the container endpoint, 9. the EC2 instance metadata service.
std::unique_ptr<CredentialSource> MakeEnvSource(Context ctx);
std::unique_ptr<CredentialSource> MakeAssumeRoleSource(Context ctx, std::string profile,
                                                       std::set<std::string> visited);
std::unique_ptr<CredentialSource> MakeWebIdentitySource(Context ctx, std::string profile,
                                                        bool use_env);
std::unique_ptr<CredentialSource> MakeSsoSource(Context ctx, std::string profile);
std::unique_ptr<CredentialSource> MakeFileKeysSource(Context ctx, std::string profile,
                                                     bool credentials_file);
std::unique_ptr<CredentialSource> MakeProcessSource(Context ctx, std::string profile);
std::unique_ptr<CredentialSource> MakeContainerSource(Context ctx);
std::unique_ptr<CredentialSource> MakeImdsSource(Context ctx);

// The first source of `profile` that has credentials, for a role's source_profile: its
// role_arn (role chaining) unless it holds keys itself; else web identity, SSO, the credentials
// file, credential_process, the config file. nullptr with `*error` set on a loop of profiles.
std::unique_ptr<CredentialSource> SourceFor(const Context& ctx, const std::string& profile,
                                            std::set<std::string> visited, std::string* error);

// "profile dev in ~/.aws/credentials"
std::string InFile(std::string_view profile, const std::string& path);

// Static keys of a profile section: nullopt when it has no aws_access_key_id;
// PartialCredentialsError when it has no secret.
Result<std::optional<Credentials>> StaticKeys(const ConfigSection* section, std::string source,
                                              std::string_view where);

// An HTTP GET or PUT to a metadata service, with its own timeout (no kept connections).
HttpResult MetadataCall(const std::string& method, const std::string& url, Headers headers,
                        int timeout_ms);

// Credentials from a metadata answer (container or instance): AccessKeyId, SecretAccessKey,
// Token, Expiration; CredentialRetrievalError naming `what` when the keys are missing.
Result<Credentials> MetadataCredentials(const json::Value& v, std::string source,
                                        std::string_view what);

// The STS endpoint: a configured one (AWS_ENDPOINT_URL_STS, ...), else the region's, else the
// global one signed for us-east-1. `*region` is the region to sign for.
Result<std::string> StsUrl(const Context& ctx, std::string* region);

// Credentials from an STS answer (AssumeRole or AssumeRoleWithWebIdentity), or its error
// (STS's Code and Message; EndpointConnectionError when it was not reached).
Result<Credentials> StsCredentials(const HttpResult& r, const std::string& url,
                                   std::string_view action, std::string_view role_arn,
                                   std::string source);

// The AWS CLI's JSON file cache (~/.aws/cli/cache/KEY.json), shared with it.
class CliCache {
 public:
  CliCache(const Environment& env, std::string key);
  // Credentials cached and valid for 15 more minutes.
  std::optional<Credentials> Read(double now, std::string source) const;
  // Writes `c` as the AWS CLI does (a file of mode 0600, replaced whole). Best effort: a cache
  // that cannot be written costs a call next time, nothing else.
  void Write(const Credentials& c, std::string_view provider_type = "") const;

 private:
  std::string path_;
};

}  // namespace keyhole::aws::internal
