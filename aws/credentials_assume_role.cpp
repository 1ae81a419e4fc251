// 2. role_arn with source_profile or credential_source: STS AssumeRole (role chaining).
#include <fmt/format.h>

#include <set>
#include <string>

#include "aws/credential_sources.h"
#include "core/strings.h"

namespace keyhole::aws::internal {

namespace {

// 2. role_arn with source_profile or credential_source: STS AssumeRole.
class AssumeRoleSource : public CredentialSource {
 public:
  AssumeRoleSource(Context ctx, std::string profile, std::set<std::string> visited)
      : ctx_(std::move(ctx)), profile_(std::move(profile)), visited_(std::move(visited)) {}
  std::string Name() const override { return fmt::format("role_arn of profile {}", profile_); }
  Result<std::optional<Credentials>> Load(std::string* why_not) override {
    const ConfigSection p = ctx_.shared().Profile(profile_);
    const std::string* role_arn = p.Find("role_arn");
    if (!role_arn || role_arn->empty() || p.Find("web_identity_token_file")) {
      *why_not = "no role_arn";
      return std::optional<Credentials>();
    }
    const std::string* source_profile = p.Find("source_profile");
    const std::string* credential_source = p.Find("credential_source");
    if (source_profile && credential_source) {
      return NamedError("InvalidConfigError",
                        fmt::format("The profile \"{}\" contains both source_profile and "
                                    "credential_source.",
                                    profile_));
    }
    if (!source_profile && !credential_source) {
      return NamedError("PartialCredentialsError",
                        fmt::format("Partial credentials found in assume-role (profile {}), "
                                    "missing: source_profile or credential_source",
                                    profile_));
    }
    // The credentials that sign the AssumeRole call.
    std::unique_ptr<CredentialSource> source;
    std::string source_name;
    if (credential_source) {
      const std::string kind = AsciiLower(*credential_source);
      if (kind == "environment") {
        source = MakeEnvSource(ctx_);
      } else if (kind == "ec2instancemetadata") {
        source = MakeImdsSource(ctx_);
      } else if (kind == "ecscontainer") {
        source = MakeContainerSource(ctx_);
      } else {
        return NamedError("InvalidConfigError",
                          fmt::format("The credential source \"{}\" referenced in profile \"{}\" "
                                      "is not valid.",
                                      *credential_source, profile_));
      }
      source_name = fmt::format("credential_source {}", *credential_source);
    } else {
      if (!ctx_.shared().HasProfile(*source_profile)) {
        return NamedError("InvalidConfigError",
                          fmt::format("The source_profile \"{}\" referenced in the profile \"{}\" "
                                      "does not exist.",
                                      *source_profile, profile_));
      }
      std::string error;
      source = SourceFor(ctx_, *source_profile, visited_, &error);
      if (!error.empty()) return NamedError("InfiniteLoopConfigError", error);
      source_name = fmt::format("source_profile {}", *source_profile);
    }
    std::string source_why;
    KH_ASSIGN_OR_RETURN(std::optional<Credentials> signer,
                        source ? source->Load(&source_why)
                               : Result<std::optional<Credentials>>(std::optional<Credentials>()));
    if (!signer) {
      if (credential_source) {
        return NamedError("CredentialRetrievalError",
                          fmt::format("No credentials found in credential_source referenced in "
                                      "profile {}",
                                      profile_));
      }
      return NamedError(
          "InvalidConfigError",
          fmt::format("The source profile \"{}\" must have credentials.", *source_profile));
    }
    // The AWS CLI's cache key: the call's arguments.
    std::vector<std::pair<std::string, std::string>> args = {
        {"RoleArn", PythonJsonString(*role_arn)}};
    std::string session = fmt::format("botocore-session-{}", static_cast<long>(ctx_.now()));
    if (const std::string* n = p.Find("role_session_name")) {
      session = *n;
      args.emplace_back("RoleSessionName", PythonJsonString(*n));
    }
    const std::string* external_id = p.Find("external_id");
    if (external_id) args.emplace_back("ExternalId", PythonJsonString(*external_id));
    const std::string* mfa = p.Find("mfa_serial");
    if (mfa) args.emplace_back("SerialNumber", PythonJsonString(*mfa));
    std::optional<long> duration;
    if (const std::string* d = p.Find("duration_seconds")) {
      char* end = nullptr;
      const long n = std::strtol(d->c_str(), &end, 10);
      if (!d->empty() && *end == '\0') {
        duration = n;
        args.emplace_back("DurationSeconds", std::to_string(n));
      }
    }
    const std::string description =
        fmt::format("role {} (profile {}, through {})", *role_arn, profile_, source_name);
    CliCache cache(ctx_.env(), CliCacheKey(args));
    if (std::optional<Credentials> cached = cache.Read(ctx_.now(), description)) {
      return std::optional<Credentials>(std::move(*cached));
    }
    if (mfa) {
      return NamedError("CredentialRetrievalError",
                        fmt::format("profile {} needs an MFA code (mfa_serial {}), which keyhole "
                                    "does not ask for: run an aws command with --profile {} "
                                    "first (keyhole uses the credentials it caches)",
                                    profile_, *mfa, profile_));
    }
    std::string region;
    KH_ASSIGN_OR_RETURN(std::string url, StsUrl(ctx_, &region));
    std::string body =
        fmt::format("Action=AssumeRole&Version=2011-06-15&RoleArn={}&RoleSessionName={}",
                    FormEncode(*role_arn), FormEncode(session));
    if (external_id) body += "&ExternalId=" + FormEncode(*external_id);
    if (duration) body += fmt::format("&DurationSeconds={}", *duration);
    KH_ASSIGN_OR_RETURN(Endpoint e, ParseEndpoint(url));
    HttpRequest request;
    request.url = url;
    request.body = body;
    request.headers = {{"Host", e.HostHeader()},
                       {"Content-Type", "application/x-www-form-urlencoded; charset=utf-8"}};
    SignRequest(signer->signing_key(), region, "sts", ctx_.now(), "POST", e.path, "", body,
                &request.headers);
    HttpResult r = ctx_.options->http->Send(request);
    KH_ASSIGN_OR_RETURN(Credentials c,
                        StsCredentials(r, url, "AssumeRole", *role_arn, description));
    cache.Write(c);
    return std::optional<Credentials>(std::move(c));
  }

 private:
  Context ctx_;
  std::string profile_;
  std::set<std::string> visited_;
};

}  // namespace

std::unique_ptr<CredentialSource> MakeAssumeRoleSource(Context ctx, std::string profile,
                                                       std::set<std::string> visited) {
  return std::make_unique<AssumeRoleSource>(std::move(ctx), std::move(profile), std::move(visited));
}

}  // namespace keyhole::aws::internal
