// SigV4 (sigv4.h) on OpenSSL's SHA-256 and HMAC (libcrypto, a dependency of cpp-httplib).
#include "server/sigv4.h"

#include <fmt/format.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <ctime>
#include <optional>
#include <vector>

namespace keyhole::server {
namespace {

std::string Hex(const unsigned char* data, size_t n) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(n * 2);
  for (size_t i = 0; i < n; ++i) {
    out += kDigits[data[i] >> 4];
    out += kDigits[data[i] & 0xF];
  }
  return out;
}

std::string Sha256Hex(std::string_view data) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(data.data()), data.size(), digest);
  return Hex(digest, sizeof digest);
}

std::string Hmac(std::string_view key, std::string_view data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(data.data()), data.size(), out, &len);
  return std::string(reinterpret_cast<const char*>(out), len);
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// A header value as SigV4 canonicalizes it: trimmed, inner runs of blanks as one space.
std::string CanonicalValue(std::string_view v) {
  std::string out;
  bool space = false;
  for (char c : v) {
    if (c == ' ' || c == '\t') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

// URI-encodes a path as SigV4 does (each segment, '/' kept).
std::string CanonicalPath(std::string_view path) {
  if (path.empty()) return "/";
  std::string out;
  for (unsigned char c : path) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~' || c == '/') {
      out += static_cast<char>(c);
    } else {
      out += fmt::format("%{:02X}", c);
    }
  }
  return out;
}

// "20240101T120000Z" -> epoch seconds; nullopt when malformed.
std::optional<double> ParseAmzDate(std::string_view d) {
  if (d.size() != 16 || d[8] != 'T' || d[15] != 'Z') return std::nullopt;
  std::tm tm{};
  std::string s(d);
  if (!strptime(s.c_str(), "%Y%m%dT%H%M%SZ", &tm)) return std::nullopt;
  return static_cast<double>(timegm(&tm));
}

std::string AmzDate(double epoch) {
  std::time_t t = static_cast<std::time_t>(std::floor(epoch));
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%dT%H%M%SZ", &tm);
  return buf;
}

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
  std::string canonical_headers;
  for (const std::string& name : Split(signed_headers, ';')) {
    std::string value;
    for (const auto& [k, v] : request.headers) {  // repeated headers: joined with ','
      if (Lower(k) != name) continue;
      value += (value.empty() ? "" : ",") + CanonicalValue(v);
    }
    canonical_headers += name + ":" + value + "\n";
  }
  const std::string canonical_request =
      fmt::format("{}\n{}\n\n{}\n{}\n{}", request.method, CanonicalPath(request.path),
                  canonical_headers, signed_headers, Sha256Hex(request.body));
  const std::string scope = fmt::format("{}/{}/dynamodb/aws4_request", date, region);
  const std::string to_sign =
      fmt::format("AWS4-HMAC-SHA256\n{}\n{}\n{}", amz_date, scope, Sha256Hex(canonical_request));
  std::string key = Hmac("AWS4" + std::string(secret), date);
  key = Hmac(key, region);
  key = Hmac(key, "dynamodb");
  key = Hmac(key, "aws4_request");
  const std::string signature = Hmac(key, to_sign);
  return Hex(reinterpret_cast<const unsigned char*>(signature.data()), signature.size());
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
  for (const std::string& part :
       Split(auth.substr(std::string_view("AWS4-HMAC-SHA256 ").size()), ',')) {
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
  std::optional<double> signed_at = ParseAmzDate(amz_date);
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
                        AmzDate(now - kWindow), AmzDate(now))};
  }
  if (*signed_at > now + kWindow) {
    return {"InvalidSignatureException",
            fmt::format("Signature not yet current: {} is still later than {} ({} + 15 min.)",
                        amz_date, AmzDate(now + kWindow), AmzDate(now))};
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
