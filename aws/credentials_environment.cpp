// 1. The environment: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN.
#include <fmt/format.h>

#include <string>

#include "aws/credential_sources.h"

namespace keyhole::aws::internal {

namespace {

// 1. The environment.
class EnvSource : public CredentialSource {
 public:
  explicit EnvSource(Context ctx) : ctx_(std::move(ctx)) {}
  std::string Name() const override { return "the environment"; }
  Result<std::optional<Credentials>> Load(std::string* why_not) override {
    const Environment& env = ctx_.env();
    std::optional<std::string> key = env.NonEmpty("AWS_ACCESS_KEY_ID");
    if (!key) {
      *why_not = "AWS_ACCESS_KEY_ID is not set";
      return std::optional<Credentials>();
    }
    std::optional<std::string> secret = env.NonEmpty("AWS_SECRET_ACCESS_KEY");
    if (!secret) {
      return NamedError("PartialCredentialsError",
                        "Partial credentials found in env, missing: AWS_SECRET_ACCESS_KEY");
    }
    Credentials c;
    c.access_key_id = *key;
    c.secret_access_key = *secret;
    c.session_token =
        env.NonEmpty("AWS_SECURITY_TOKEN").value_or(env.NonEmpty("AWS_SESSION_TOKEN").value_or(""));
    c.account_id = env.NonEmpty("AWS_ACCOUNT_ID").value_or("");
    if (std::optional<std::string> exp = env.NonEmpty("AWS_CREDENTIAL_EXPIRATION")) {
      c.expiration = ParseIso8601(*exp);
      if (!c.expiration) {
        return NamedError(
            "InvalidConfigError",
            fmt::format("AWS_CREDENTIAL_EXPIRATION '{}' is not an ISO 8601 time", *exp));
      }
    }
    c.source = "the environment (AWS_ACCESS_KEY_ID)";
    return std::optional<Credentials>(std::move(c));
  }

 private:
  Context ctx_;
};

}  // namespace

std::unique_ptr<CredentialSource> MakeEnvSource(Context ctx) {
  return std::make_unique<EnvSource>(std::move(ctx));
}

}  // namespace keyhole::aws::internal
