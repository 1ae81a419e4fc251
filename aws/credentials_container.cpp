// 8. Container credentials: ECS's and EKS Pod Identity's endpoint.
#include <fmt/format.h>

#include <string>
#include <thread>

#include "aws/credential_sources.h"

namespace keyhole::aws::internal {

namespace {

// 8. Container credentials (ECS, EKS Pod Identity).
class ContainerSource : public CredentialSource {
 public:
  explicit ContainerSource(Context ctx) : ctx_(std::move(ctx)) {}
  std::string Name() const override { return "the container credentials endpoint"; }
  Result<std::optional<Credentials>> Load(std::string* why_not) override {
    const Environment& env = ctx_.env();
    std::string url;
    if (auto rel = env.NonEmpty("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI")) {
      url = "http://169.254.170.2" + *rel;
    } else if (auto full = env.NonEmpty("AWS_CONTAINER_CREDENTIALS_FULL_URI")) {
      Result<Endpoint> e = ParseEndpoint(full->substr(0, full->find_first_of("?#")));
      const bool allowed =
          e.ok() && (e->scheme == "https" || e->loopback() || e->host == "169.254.170.2" ||
                     e->host == "169.254.170.23" || e->host == "[fd00:ec2::23]");
      if (!allowed) {
        return NamedError(
            "CredentialRetrievalError",
            fmt::format("Unsupported host in AWS_CONTAINER_CREDENTIALS_FULL_URI '{}'. Can only "
                        "retrieve metadata from a loopback address or one of these hosts: "
                        "169.254.170.2, 169.254.170.23, fd00:ec2::23, localhost",
                        *full));
      }
      url = *full;
    } else {
      *why_not = "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI and _FULL_URI are not set";
      return std::optional<Credentials>();
    }
    Headers headers = {{"Accept", "application/json"}};
    std::string token;
    if (auto file = env.NonEmpty("AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE")) {
      if (!ReadWholeFile(*file, &token)) {
        return NamedError("CredentialRetrievalError",
                          fmt::format("cannot read AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE {}: {}",
                                      *file, std::strerror(errno)));
      }
    } else if (auto t = env.NonEmpty("AWS_CONTAINER_AUTHORIZATION_TOKEN")) {
      token = *t;
    }
    if (!token.empty()) {
      if (token.find_first_of("\r\n") != std::string::npos) {
        return NamedError("CredentialRetrievalError",
                          "the container authorization token is not a legal header value");
      }
      headers.emplace_back("Authorization", token);
    }
    std::string last;
    for (int attempt = 1; attempt <= 3; ++attempt) {
      if (attempt > 1) std::this_thread::sleep_for(std::chrono::seconds(1));
      HttpResult r = MetadataCall("GET", url, headers, 2000);
      if (!r.ok()) {
        last = TransportFailure(r, url);
        continue;
      }
      if (r.response.status != 200) {
        last = fmt::format("Received non 200 response {} from container metadata: {}",
                           r.response.status, r.response.body.substr(0, 200));
        continue;
      }
      Result<json::Value> v = json::Parse(r.response.body);
      if (!v.ok() || !v->IsObject()) {
        last = "the container metadata answer is not JSON";
        continue;
      }
      KH_ASSIGN_OR_RETURN(Credentials c,
                          MetadataCredentials(*v, fmt::format("container credentials ({})", url),
                                              "the container credentials endpoint"));
      return std::optional<Credentials>(std::move(c));
    }
    return NamedError("CredentialRetrievalError",
                      "Error when retrieving credentials from container-role: " + last);
  }

 private:
  Context ctx_;
};

}  // namespace

std::unique_ptr<CredentialSource> MakeContainerSource(Context ctx) {
  return std::make_unique<ContainerSource>(std::move(ctx));
}

}  // namespace keyhole::aws::internal
