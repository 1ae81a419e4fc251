// SigV4 verification (sigv4.h) on aws/'s canonical request and signature.
#include "server/sigv4.h"

#include <fmt/format.h>

#include <algorithm>

#include <optional>
#include <vector>

#include "aws/sigv4.h"

namespace keyhole::server {
namespace {

std::vector<std::string> Split(std::string_view s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    size_t end = s.find(sep, start);
    out.emplace_back(s.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return out;
}

std::string Trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return "";
  size_t e = s.find_last_not_of(" \t");
  return std::string(s.substr(b, e - b + 1));
}

}  // namespace

std::string SignRequest(const HttpRequest& request, std::string_view secret, std::string_view date,
                        std::string_view region, std::string_view amz_date,
                        std::string_view signed_headers) {
  const std::string canonical =
      aws::CanonicalRequest(request.method, request.path, "", request.headers, signed_headers,
                            aws::Sha256Hex(request.wire_body ? *request.wire_body : request.body));
  return aws::Signature(secret, {std::string(date), std::string(region), "dynamodb"}, amz_date,
                        canonical);
}

SignatureCheck VerifySignature(const HttpRequest& request,
                               const std::map<std::string, std::string>& secrets, double now) {
  const std::string_view auth = request.Header("Authorization");
  if (auth.empty() || !auth.starts_with("AWS4-")) {
    return {"MissingAuthenticationTokenException", "Request is missing Authentication Token"};
  }
  auto incomplete = [&](std::string_view what) {
    return SignatureCheck{"IncompleteSignatureException",
                          fmt::format("Authorization header requires '{}' parameter. "
                                      "Authorization={}",
                                      what, auth)};
  };
  if (!auth.starts_with("AWS4-HMAC-SHA256 ")) {
    return {"IncompleteSignatureException",
            fmt::format("Unsupported AWS 'algorithm': '{}'", auth.substr(0, auth.find(' ')))};
  }
  std::string credential, signed_headers, signature;
  // Parameters separated by commas, spaces, or both (clients and proxies differ).
  std::string parameters(auth.substr(std::string_view("AWS4-HMAC-SHA256 ").size()));
  std::replace(parameters.begin(), parameters.end(), ' ', ',');
  for (const std::string& part : Split(parameters, ',')) {
    std::string p = Trim(part);
    size_t eq = p.find('=');
    if (eq == std::string::npos) continue;
    std::string name = p.substr(0, eq), value = p.substr(eq + 1);
    if (name == "Credential") credential = value;
    if (name == "SignedHeaders") signed_headers = value;
    if (name == "Signature") signature = value;
  }
  if (credential.empty()) return incomplete("Credential");
  if (signed_headers.empty()) return incomplete("SignedHeaders");
  if (signature.empty()) return incomplete("Signature");
  std::vector<std::string> scope = Split(credential, '/');
  if (scope.size() != 5 || scope[4] != "aws4_request") {
    return {"IncompleteSignatureException",
            fmt::format("Credential should be scoped to a valid region. Authorization={}", auth)};
  }
  const std::string_view amz_date = request.Header("X-Amz-Date");
  std::optional<double> signed_at = aws::ParseAmzDate(amz_date);
  if (!signed_at) {
    return {"IncompleteSignatureException",
            fmt::format("Authorization header requires existence of either a 'X-Amz-Date' or a "
                        "'Date' header. Authorization={}",
                        auth)};
  }
  if (scope[3] != "dynamodb") {
    return {"InvalidSignatureException",
            "Credential should be scoped to correct service: 'dynamodb'. "};
  }
  auto secret = secrets.find(scope[0]);
  if (secret == secrets.end()) {
    return {"UnrecognizedClientException",
            "The security token included in the request is invalid."};
  }
  constexpr double kWindow = 15 * 60;
  if (*signed_at < now - kWindow) {
    return {"InvalidSignatureException",
            fmt::format("Signature expired: {} is now earlier than {} ({} - 15 min.)", amz_date,
                        aws::AmzDate(now - kWindow), aws::AmzDate(now))};
  }
  if (*signed_at > now + kWindow) {
    return {"InvalidSignatureException",
            fmt::format("Signature not yet current: {} is still later than {} ({} + 15 min.)",
                        amz_date, aws::AmzDate(now + kWindow), aws::AmzDate(now))};
  }
  const std::string expected =
      SignRequest(request, secret->second, scope[1], scope[2], amz_date, signed_headers);
  if (expected != signature) {
    return {"InvalidSignatureException",
            "The request signature we calculated does not match the signature you provided. "
            "Check your AWS Secret Access Key and signing method. Consult the service "
            "documentation for details."};
  }
  return {};
}

}  // namespace keyhole::server
