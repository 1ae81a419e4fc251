// 9. The EC2 instance metadata service (IMDSv2 with its token, then v1 where allowed).
#include <fmt/format.h>

#include <string>

#include "aws/credential_sources.h"
#include "core/strings.h"

namespace keyhole::aws::internal {

namespace {

// 9. The EC2 instance metadata service.
class ImdsSource : public CredentialSource {
 public:
  explicit ImdsSource(Context ctx) : ctx_(std::move(ctx)) {}
  std::string Name() const override { return "the EC2 instance metadata service"; }
  Result<std::optional<Credentials>> Load(std::string* why_not) override {
    const Environment& env = ctx_.env();
    if (auto d = env.NonEmpty("AWS_EC2_METADATA_DISABLED"); d && AsciiLower(*d) == "true") {
      *why_not = "AWS_EC2_METADATA_DISABLED is true";
      return std::optional<Credentials>();
    }
    const ConfigSection profile = ctx_.shared().Profile(ctx_.options->settings->profile.value);
    const auto setting = [&](std::string_view var, std::string_view key) -> std::string {
      if (auto v = env.NonEmpty(var)) return *v;
      if (const std::string* p = profile.Find(key)) return *p;
      return "";
    };
    std::string base =
        setting("AWS_EC2_METADATA_SERVICE_ENDPOINT", "ec2_metadata_service_endpoint");
    if (base.empty()) {
      const std::string mode = AsciiLower(
          setting("AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE", "ec2_metadata_service_endpoint_mode"));
      base = mode == "ipv6" ? "http://[fd00:ec2::254]" : "http://169.254.169.254";
    }
    while (!base.empty() && base.back() == '/') base.pop_back();
    int timeout_ms = 1000, attempts = 1;
    if (std::string t = setting("AWS_METADATA_SERVICE_TIMEOUT", "metadata_service_timeout");
        !t.empty()) {
      timeout_ms = std::max(1, static_cast<int>(std::atof(t.c_str()) * 1000));
    }
    if (std::string a =
            setting("AWS_METADATA_SERVICE_NUM_ATTEMPTS", "metadata_service_num_attempts");
        !a.empty()) {
      attempts = std::max(1, std::atoi(a.c_str()));
    }
    const bool v1_disabled =
        AsciiLower(setting("AWS_EC2_METADATA_V1_DISABLED", "ec2_metadata_v1_disabled")) == "true";
    // IMDSv2's token; refused (403, 404, 405) or timed out: IMDSv1.
    std::string token;
    std::string unreachable;
    for (int i = 0; i < attempts; ++i) {
      HttpResult r = MetadataCall("PUT", base + "/latest/api/token",
                                  {{"x-aws-ec2-metadata-token-ttl-seconds", "21600"}}, timeout_ms);
      if (!r.ok()) {
        unreachable = TransportFailure(r, base);
        if (r.error == TransportError::kReadTimeout) break;
        continue;
      }
      unreachable.clear();
      if (r.response.status == 200) token = r.response.body;
      if (r.response.status == 400) {
        *why_not = fmt::format("{} refused a token (HTTP 400)", base);
        return std::optional<Credentials>();
      }
      break;
    }
    if (!unreachable.empty() && token.empty()) {
      *why_not = fmt::format("no answer from {}", unreachable);
      return std::optional<Credentials>();
    }
    if (token.empty() && v1_disabled) {
      return NamedError("MetadataRetrievalError",
                        "Unable to retrieve token for use in IMDSv2 call and IMDSv1 has been "
                        "disabled");
    }
    Headers headers;
    if (!token.empty()) headers.emplace_back("x-aws-ec2-metadata-token", token);
    const std::string roles_url = base + "/latest/meta-data/iam/security-credentials/";
    std::string role;
    for (int i = 0; i < attempts && role.empty(); ++i) {
      HttpResult r = MetadataCall("GET", roles_url, headers, timeout_ms);
      if (r.ok() && r.response.status == 200) role = r.response.body;
    }
    while (!role.empty() && (role.back() == '\n' || role.back() == '\r')) role.pop_back();
    if (role.empty()) {
      *why_not = fmt::format("{} has no IAM role", base);
      return std::optional<Credentials>();
    }
    for (int i = 0; i < attempts; ++i) {
      HttpResult r = MetadataCall("GET", roles_url + role, headers, timeout_ms);
      if (!r.ok() || r.response.status != 200) continue;
      Result<json::Value> v = json::Parse(r.response.body);
      if (!v.ok() || !v->IsObject()) continue;
      if (JsonString(*v, "AccessKeyId").empty()) break;
      KH_ASSIGN_OR_RETURN(Credentials c,
                          MetadataCredentials(*v, fmt::format("instance metadata (role {})", role),
                                              "the instance metadata service"));
      return std::optional<Credentials>(std::move(c));
    }
    *why_not = fmt::format("{} gave no credentials for role {}", base, role);
    return std::optional<Credentials>();
  }

 private:
  Context ctx_;
};

}  // namespace

std::unique_ptr<CredentialSource> MakeImdsSource(Context ctx) {
  return std::make_unique<ImdsSource>(std::move(ctx));
}

}  // namespace keyhole::aws::internal
