// 3. Web identity: STS AssumeRoleWithWebIdentity with a token read from a file.
#include <fmt/format.h>

#include <string>

#include "aws/credential_sources.h"

namespace keyhole::aws::internal {

namespace {

// 3. Web identity: STS AssumeRoleWithWebIdentity with a token from a file.
class WebIdentitySource : public CredentialSource {
 public:
  WebIdentitySource(Context ctx, std::string profile, bool use_env)
      : ctx_(std::move(ctx)), profile_(std::move(profile)), use_env_(use_env) {}
  std::string Name() const override { return "web identity (AWS_WEB_IDENTITY_TOKEN_FILE)"; }
  Result<std::optional<Credentials>> Load(std::string* why_not) override {
    const ConfigSection p = ctx_.shared().Profile(profile_);
    const auto setting = [&](std::string_view var, std::string_view key) -> std::string {
      if (use_env_) {
        if (auto v = ctx_.env().NonEmpty(var)) return *v;
      }
      if (const std::string* s = p.Find(key)) return *s;
      return "";
    };
    const std::string token_file =
        ExpandHome(setting("AWS_WEB_IDENTITY_TOKEN_FILE", "web_identity_token_file"), ctx_.env());
    if (token_file.empty()) {
      *why_not = "AWS_WEB_IDENTITY_TOKEN_FILE is not set";
      return std::optional<Credentials>();
    }
    const std::string role_arn = setting("AWS_ROLE_ARN", "role_arn");
    if (role_arn.empty()) {
      return NamedError("InvalidConfigError",
                        "The provided profile or the current environment is configured to assume "
                        "role with web identity but has no role ARN configured. Ensure that the "
                        "profile has the role_arn configuration set or the AWS_ROLE_ARN env var "
                        "is set.");
    }
    std::string session = setting("AWS_ROLE_SESSION_NAME", "role_session_name");
    std::vector<std::pair<std::string, std::string>> args = {
        {"RoleArn", PythonJsonString(role_arn)}};
    if (!session.empty()) args.emplace_back("RoleSessionName", PythonJsonString(session));
    if (session.empty())
      session = fmt::format("botocore-session-{}", static_cast<long>(ctx_.now()));
    const std::string description =
        fmt::format("web identity role {} (token {})", role_arn, token_file);
    CliCache cache(ctx_.env(), CliCacheKey(args));
    if (std::optional<Credentials> cached = cache.Read(ctx_.now(), description)) {
      return std::optional<Credentials>(std::move(*cached));
    }
    std::string token;
    if (!ReadWholeFile(token_file, &token)) {
      return NamedError("CredentialRetrievalError",
                        fmt::format("cannot read the web identity token file {}: {}", token_file,
                                    std::strerror(errno)));
    }
    std::string region;
    KH_ASSIGN_OR_RETURN(std::string url, StsUrl(ctx_, &region));
    HttpRequest request;
    request.url = url;
    request.body = fmt::format(
        "Action=AssumeRoleWithWebIdentity&Version=2011-06-15&RoleArn={}&RoleSessionName={}"
        "&WebIdentityToken={}",
        FormEncode(role_arn), FormEncode(session), FormEncode(token));
    request.headers = {{"Content-Type", "application/x-www-form-urlencoded; charset=utf-8"}};
    HttpResult r = ctx_.options->http->Send(request);
    KH_ASSIGN_OR_RETURN(Credentials c,
                        StsCredentials(r, url, "AssumeRoleWithWebIdentity", role_arn, description));
    cache.Write(c);
    return std::optional<Credentials>(std::move(c));
  }

 private:
  Context ctx_;
  std::string profile_;
  bool use_env_;
};

}  // namespace

std::unique_ptr<CredentialSource> MakeWebIdentitySource(Context ctx, std::string profile,
                                                        bool use_env) {
  return std::make_unique<WebIdentitySource>(std::move(ctx), std::move(profile), use_env);
}

}  // namespace keyhole::aws::internal
