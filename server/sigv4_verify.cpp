// SigV4 verification (sigv4_verify.h) on aws/'s canonical request and signature.
#include "server/sigv4_verify.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <ctime>

#include <optional>
#include <vector>

#include "aws/endpoint.h"
#include "aws/sigv4.h"
#include "core/strings.h"

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

std::string Trim(std::string_view s) { return std::string(keyhole::Trim(s, " \t", " \t")); }

// SigV4's encoding of a query parameter's name or value: every byte but A-Za-z0-9-_.~ as %XX.
std::string UriEncode(std::string_view s) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

// The query string as signed: its parameters encoded (but X-Amz-Signature, in a presigned
// request); CanonicalRequest sorts them.
std::string SignedQuery(const HttpRequest& request, bool presigned) {
  std::string out;
  for (const auto& [name, value] : request.query) {
    if (presigned && name == "X-Amz-Signature") continue;
    out += (out.empty() ? "" : "&") + UriEncode(name) + "=" + UriEncode(value);
  }
  return out;
}

std::string_view QueryValue(const HttpRequest& request, std::string_view name) {
  for (const auto& [k, v] : request.query) {
    if (k == name) return v;
  }
  return {};
}

bool HasQuery(const HttpRequest& request, std::string_view name) {
  for (const auto& [k, v] : request.query) {
    if (k == name) return true;
  }
  return false;
}

// An HTTP date ("Sun, 09 Jun 2013 09:52:04 GMT") as epoch seconds.
std::optional<double> ParseHttpDate(std::string_view text) {
  std::tm tm{};
  const std::string s(text);
  const char* end = strptime(s.c_str(), "%a, %d %b %Y %H:%M:%S GMT", &tm);
  if (!end || *end != '\0') return std::nullopt;
  return static_cast<double>(timegm(&tm));
}

constexpr std::string_view kUnsignedPayload = "UNSIGNED-PAYLOAD";

// The signature over the query as signed (`presigned`: without X-Amz-Signature) and the body's
// SHA-256, or UNSIGNED-PAYLOAD when `unsigned_payload`.
std::string Sign(const HttpRequest& request, std::string_view secret, std::string_view date,
                 std::string_view region, std::string_view amz_date,
                 std::string_view signed_headers, bool presigned, bool unsigned_payload) {
  const std::string canonical = aws::CanonicalRequest(
      request.method, request.path, SignedQuery(request, presigned), request.headers,
      signed_headers,
      unsigned_payload ? std::string(kUnsignedPayload)
                       : aws::Sha256Hex(request.wire_body ? *request.wire_body : request.body));
  return aws::Signature(secret, {std::string(date), std::string(region), "dynamodb"}, amz_date,
                        canonical);
}

}  // namespace

std::string SignRequest(const HttpRequest& request, std::string_view secret, std::string_view date,
                        std::string_view region, std::string_view amz_date,
                        std::string_view signed_headers) {
  return Sign(request, secret, date, region, amz_date, signed_headers, false, false);
}

std::string PresignedSignature(const HttpRequest& request, std::string_view secret,
                               std::string_view date, std::string_view region,
                               std::string_view amz_date, std::string_view signed_headers) {
  return Sign(request, secret, date, region, amz_date, signed_headers, true, true);
}

SignatureCheck VerifySignature(const HttpRequest& request,
                               const std::map<std::string, std::string>& secrets, double now) {
  // DynamoDB's order of checks and its texts, as dynalite records them (index.js, whose
  // tests ran against AWS): where the signature is, what is missing, the date, Host among
  // the signed headers, the algorithm, the credential's shape, its scope, the key, the
  // signature.
  const std::string_view auth = request.Header("Authorization");
  const bool presigned = HasQuery(request, "X-Amz-Algorithm");
  if (!auth.empty() && presigned) {
    return {"InvalidSignatureException",
            "Found both 'X-Amz-Algorithm' as a query-string param and 'Authorization' as HTTP "
            "header."};
  }
  if ((auth.empty() && !presigned) || (!auth.empty() && !Trim(auth).starts_with("AWS4-"))) {
    return {"MissingAuthenticationTokenException", "Request is missing Authentication Token"};
  }
  std::string algorithm, credential, signed_headers, signature, amz_date;
  std::string missing;
  if (!presigned) {
    // The algorithm, then parameters separated by commas, spaces, or both.
    const std::string header = Trim(auth);
    algorithm = header.substr(0, header.find_first_of(", "));
    std::string parameters = header.substr(algorithm.size());
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
    for (const auto& [name, value] :
         {std::pair{"Credential", &credential}, std::pair{"Signature", &signature},
          std::pair{"SignedHeaders", &signed_headers}}) {
      if (value->empty()) {
        missing += fmt::format("Authorization header requires '{}' parameter. ", name);
      }
    }
    amz_date = std::string(request.Header("X-Amz-Date"));
    if (amz_date.empty() && !request.HasHeader("Date")) {
      missing +=
          "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' "
          "header. ";
    }
    if (!missing.empty()) {
      return {"IncompleteSignatureException", missing + "Authorization=" + std::string(auth)};
    }
  } else {
    for (const char* name : {"X-Amz-Algorithm", "X-Amz-Credential", "X-Amz-Signature",
                             "X-Amz-SignedHeaders", "X-Amz-Date"}) {
      if (QueryValue(request, name).empty()) {
        missing += fmt::format("AWS query-string parameters must include '{}'. ", name);
      }
    }
    if (!missing.empty()) {
      return {"IncompleteSignatureException", missing + "Re-examine the query-string parameters."};
    }
    algorithm = QueryValue(request, "X-Amz-Algorithm");
    credential = QueryValue(request, "X-Amz-Credential");
    signed_headers = QueryValue(request, "X-Amz-SignedHeaders");
    signature = QueryValue(request, "X-Amz-Signature");
    amz_date = QueryValue(request, "X-Amz-Date");
  }
  // The date: X-Amz-Date, else the Date header.
  std::optional<double> signed_at;
  if (!amz_date.empty()) {
    signed_at = aws::ParseAmzDate(amz_date);
    if (!signed_at) {
      return {"IncompleteSignatureException",
              fmt::format("Date must be in ISO-8601 'basic format'. Got '{}'. See "
                          "http://en.wikipedia.org/wiki/ISO_8601",
                          amz_date)};
    }
  } else {
    const std::string_view date = request.Header("Date");
    signed_at = ParseHttpDate(date);
    if (!signed_at) {
      return {"IncompleteSignatureException",
              fmt::format("Date must be in ISO-8601 'basic format'. Got '{}'. See "
                          "http://en.wikipedia.org/wiki/ISO_8601",
                          date)};
    }
    amz_date = aws::AmzDate(*signed_at);
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
  bool host_signed = false;
  for (const std::string& h : Split(signed_headers, ';')) {
    host_signed = host_signed || aws::HeaderNameEquals(h, "host");
  }
  if (!host_signed) {
    return {"InvalidSignatureException",
            "'Host' must be a 'SignedHeader' in the AWS Authorization."};
  }
  if (algorithm != "AWS4-HMAC-SHA256") {
    return {"IncompleteSignatureException",
            fmt::format("Unsupported AWS 'algorithm': '{}' (only AWS4-HMAC-SHA256 for now). ",
                        algorithm)};
  }
  std::string trimmed = credential;
  while (!trimmed.empty() && trimmed.back() == '/') trimmed.pop_back();
  std::vector<std::string> scope = Split(trimmed, '/');
  if (scope.size() != 5) {
    return {"IncompleteSignatureException",
            fmt::format("Credential must have exactly 5 slash-delimited elements, e.g. "
                        "keyid/date/region/service/term, got '{}'",
                        trimmed)};
  }
  std::string wrong;
  if (!aws::ValidRegionName(scope[2])) {
    wrong += fmt::format("Credential should be scoped to a valid region, not '{}'. ", scope[2]);
  }
  if (scope[3] != "dynamodb")
    wrong += "Credential should be scoped to correct service: 'dynamodb'. ";
  if (scope[4] != "aws4_request") {
    wrong += fmt::format(
        "Credential should be scoped with a valid terminator: 'aws4_request', not '{}'. ",
        scope[4]);
  }
  if (scope[1] != amz_date.substr(0, 8)) {
    wrong += fmt::format(
        "Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from "
        "HTTP: '{}' != '{}', from '{}'.",
        scope[1], amz_date.substr(0, 8), amz_date);
  }
  if (!wrong.empty()) return {"InvalidSignatureException", wrong};
  auto secret = secrets.find(scope[0]);
  if (secret == secrets.end()) {
    return {"UnrecognizedClientException",
            "The security token included in the request is invalid."};
  }
  // A presigned request's payload is signed as its body's SHA-256 (botocore's SigV4QueryAuth)
  // or as UNSIGNED-PAYLOAD (the S3 convention other signers follow): either is accepted.
  const bool matches = Sign(request, secret->second, scope[1], scope[2], amz_date, signed_headers,
                            presigned, false) == signature ||
                       (presigned && Sign(request, secret->second, scope[1], scope[2], amz_date,
                                          signed_headers, true, true) == signature);
  if (!matches) {
    return {"InvalidSignatureException",
            "The request signature we calculated does not match the signature you provided. "
            "Check your AWS Secret Access Key and signing method. Consult the service "
            "documentation for details."};
  }
  return {};
}

}  // namespace keyhole::server
