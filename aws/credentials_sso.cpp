// 4. SSO: the AWS CLI's token cache, then the portal's GetRoleCredentials.
#include <fmt/format.h>

#include <string>

#include "aws/credential_sources.h"

namespace keyhole::aws::internal {

namespace {

// 4. SSO: the AWS CLI's token cache, then GetRoleCredentials.
class SsoSource : public CredentialSource {
 public:
  SsoSource(Context ctx, std::string profile)
      : ctx_(std::move(ctx)), profile_(std::move(profile)) {}
  std::string Name() const override { return fmt::format("SSO of profile {}", profile_); }
  Result<std::optional<Credentials>> Load(std::string* why_not) override {
    const ConfigSection p = ctx_.shared().Profile(profile_);
    const std::string* account = p.Find("sso_account_id");
    const std::string* role = p.Find("sso_role_name");
    if (!account && !role) {
      *why_not = "no sso_account_id or sso_role_name";
      return std::optional<Credentials>();
    }
    std::string start_url, sso_region, session_name;
    if (const std::string* s = p.Find("sso_session")) {
      auto it = ctx_.shared().sso_sessions.find(*s);
      if (it == ctx_.shared().sso_sessions.end()) {
        return NamedError("InvalidConfigError",
                          fmt::format("The specified sso-session does not exist: \"{}\"", *s));
      }
      session_name = *s;
      if (const std::string* u = it->second.Find("sso_start_url")) start_url = *u;
      if (const std::string* r = it->second.Find("sso_region")) sso_region = *r;
    } else {
      if (const std::string* u = p.Find("sso_start_url")) start_url = *u;
      if (const std::string* r = p.Find("sso_region")) sso_region = *r;
    }
    std::vector<std::string> missing;
    if (start_url.empty()) missing.push_back("sso_start_url");
    if (sso_region.empty()) missing.push_back("sso_region");
    if (!account) missing.push_back("sso_account_id");
    if (!role) missing.push_back("sso_role_name");
    if (!missing.empty()) {
      std::string list;
      for (const std::string& m : missing) list += (list.empty() ? "" : ", ") + m;
      return NamedError("InvalidConfigError",
                        fmt::format("The profile \"{}\" is configured to use SSO but is missing "
                                    "required configuration: {}",
                                    profile_, list));
    }
    const std::string login = fmt::format(
        "To refresh this SSO session run aws sso login with the corresponding profile (aws sso "
        "login --profile {}).",
        profile_);
    const std::string description =
        fmt::format("SSO role {} in account {} (profile {})", *role, *account, profile_);
    // The role credentials the AWS CLI cached.
    json::Value key_args = json::Value::MakeObject();
    std::vector<std::pair<std::string, std::string>> args = {
        {"accountId", PythonJsonString(*account)}, {"roleName", PythonJsonString(*role)}};
    if (!session_name.empty()) {
      args.emplace_back("sessionName", PythonJsonString(session_name));
    } else {
      args.emplace_back("startUrl", PythonJsonString(start_url));
    }
    CliCache cache(ctx_.env(), CliCacheKey(args, /*compact=*/true));
    if (std::optional<Credentials> cached = cache.Read(ctx_.now(), description)) {
      return std::optional<Credentials>(std::move(*cached));
    }
    // The token `aws sso login` cached.
    const std::string token_path =
        fmt::format("{}/.aws/sso/cache/{}.json", ctx_.env().Home(),
                    Sha1Hex(session_name.empty() ? start_url : session_name));
    std::string text;
    if (!ReadWholeFile(token_path, &text)) {
      return NamedError(
          "SSOTokenLoadError",
          fmt::format("Error loading SSO Token: Token for {} does not exist (no {}). "
                      "{}",
                      session_name.empty() ? start_url : session_name, token_path, login));
    }
    Result<json::Value> token = json::Parse(text);
    std::string access_token;
    std::optional<double> expires;
    if (token.ok() && token->IsObject()) {
      access_token = JsonString(*token, "accessToken");
      expires = ParseIso8601(JsonString(*token, "expiresAt"));
    }
    if (access_token.empty() || !expires) {
      return NamedError("SSOTokenLoadError",
                        fmt::format("Error loading SSO Token: Token for {} is invalid. {}",
                                    session_name.empty() ? start_url : session_name, login));
    }
    if (*expires <= ctx_.now()) {
      return NamedError("UnauthorizedSSOTokenError",
                        "The SSO session associated with this profile has expired or is otherwise "
                        "invalid. " +
                            login);
    }
    KH_ASSIGN_OR_RETURN(std::optional<Endpoint> configured,
                        ConfiguredServiceEndpoint(*ctx_.options->settings, ctx_.env(), "SSO"));
    const std::string base = configured
                                 ? configured->Url()
                                 : fmt::format("https://portal.sso.{}.amazonaws.com/", sso_region);
    HttpRequest request;
    request.method = "GET";
    request.url =
        fmt::format("{}{}federation/credentials?role_name={}&account_id={}", base,
                    base.ends_with('/') ? "" : "/", FormEncode(*role), FormEncode(*account));
    request.headers = {{"x-amz-sso_bearer_token", access_token}};
    HttpResult r = ctx_.options->http->Send(request);
    if (!r.ok()) {
      return NamedError("EndpointConnectionError",
                        fmt::format("SSO GetRoleCredentials: {}", TransportFailure(r, base)));
    }
    if (r.response.status == 401 || r.response.status == 403) {
      return NamedError("UnauthorizedSSOTokenError",
                        "The SSO session associated with this profile has expired or is otherwise "
                        "invalid. " +
                            login);
    }
    Result<json::Value> v = json::Parse(r.response.body);
    const json::Value* rc = v.ok() && v->IsObject() ? v->Find("roleCredentials") : nullptr;
    if (r.response.status != 200 || !rc || !rc->IsObject()) {
      return NamedError("CredentialRetrievalError",
                        fmt::format("SSO GetRoleCredentials for role {} in account {} answered "
                                    "HTTP {}",
                                    *role, *account, r.response.status));
    }
    Credentials c;
    c.access_key_id = JsonString(*rc, "accessKeyId");
    c.secret_access_key = JsonString(*rc, "secretAccessKey");
    c.session_token = JsonString(*rc, "sessionToken");
    c.account_id = *account;
    if (const json::Value* e = rc->Find("expiration"); e && e->IsNumber()) {
      c.expiration = std::atof(e->number_text().c_str()) / 1000;
    }
    c.source = description;
    cache.Write(c, "sso");
    return std::optional<Credentials>(std::move(c));
  }

 private:
  Context ctx_;
  std::string profile_;
};

}  // namespace

std::unique_ptr<CredentialSource> MakeSsoSource(Context ctx, std::string profile) {
  return std::make_unique<SsoSource>(std::move(ctx), std::move(profile));
}

}  // namespace keyhole::aws::internal
