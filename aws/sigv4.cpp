// SigV4 (sigv4.h) on OpenSSL's SHA-256 and HMAC (libcrypto).
#include "aws/sigv4.h"

#include <fmt/format.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/params.h>
#include <openssl/sha.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <ctime>
#include <memory>

#include "core/strings.h"

namespace keyhole::aws {
namespace {

char LowerChar(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

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

// A path with its dot segments and empty segments removed, as botocore normalizes it before
// signing (its remove_dot_segments): "/a/./b/../c//" -> "/a/c/".
std::string NormalizedPath(std::string_view path) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (start <= path.size()) {
    size_t slash = path.find('/', start);
    if (slash == std::string_view::npos) slash = path.size();
    const std::string_view segment = path.substr(start, slash - start);
    if (segment == "..") {
      if (!out.empty()) out.pop_back();
    } else if (!segment.empty() && segment != ".") {
      out.push_back(segment);
    }
    start = slash + 1;
  }
  std::string normalized = path.front() == '/' ? "/" : "";
  for (size_t i = 0; i < out.size(); ++i) {
    if (i) normalized += '/';
    normalized.append(out[i]);
  }
  if (path.back() == '/' && !out.empty()) normalized += '/';
  return normalized;
}

// URI-encodes a path as SigV4 does (each byte but unreserved ones and '/'), after removing its
// dot segments.
std::string CanonicalPath(std::string_view given) {
  if (given.empty()) return "/";
  const std::string path = NormalizedPath(given);
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

// The query's parameters sorted by name, then value ("a=1&b=" for "b&a=1").
std::string CanonicalQuery(std::string_view query) {
  if (query.empty()) return "";
  std::vector<std::pair<std::string, std::string>> params;
  while (true) {
    const size_t amp = query.find('&');
    const std::string_view part = query.substr(0, amp);
    if (!part.empty()) {
      const size_t eq = part.find('=');
      params.emplace_back(std::string(part.substr(0, eq)),
                          eq == std::string_view::npos ? "" : std::string(part.substr(eq + 1)));
    }
    if (amp == std::string_view::npos) break;
    query.remove_prefix(amp + 1);
  }
  std::sort(params.begin(), params.end());
  std::string out;
  for (const auto& [name, value] : params) {
    if (!out.empty()) out += '&';
    out += name + "=" + value;
  }
  return out;
}

bool Unsigned(std::string_view lower_name) {
  return lower_name == "user-agent" || lower_name == "expect" ||
         lower_name == "transfer-encoding" || lower_name == "x-amzn-trace-id" ||
         lower_name == "authorization";
}

}  // namespace

bool HeaderNameEquals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return LowerChar(x) == LowerChar(y);
         });
}

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

// OpenSSL 3's one-shot SHA256() and HMAC() look their algorithm up, under a lock, on every
// call; a request signs with three of them. Fetched once here, with a context per thread, they
// take half the time (HMAC a third).
namespace {

struct MdCtxFree {
  void operator()(EVP_MD_CTX* c) const { EVP_MD_CTX_free(c); }
};
struct MacCtxFree {
  void operator()(EVP_MAC_CTX* c) const { EVP_MAC_CTX_free(c); }
};

EVP_MAC_CTX* NewHmacSha256() {
  static EVP_MAC* const mac = EVP_MAC_fetch(nullptr, "HMAC", nullptr);
  if (!mac) return nullptr;
  EVP_MAC_CTX* ctx = EVP_MAC_CTX_new(mac);
  char digest[] = "SHA256";
  const OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest, 0),
                               OSSL_PARAM_END};
  if (ctx && !EVP_MAC_CTX_set_params(ctx, params)) {
    EVP_MAC_CTX_free(ctx);
    return nullptr;
  }
  return ctx;
}

}  // namespace

std::string Sha256Hex(std::string_view data) {
  static EVP_MD* const sha256 = EVP_MD_fetch(nullptr, "SHA256", nullptr);
  thread_local const std::unique_ptr<EVP_MD_CTX, MdCtxFree> ctx(EVP_MD_CTX_new());
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  if (!sha256 || !ctx || !EVP_DigestInit_ex2(ctx.get(), sha256, nullptr) ||
      !EVP_DigestUpdate(ctx.get(), data.data(), data.size()) ||
      !EVP_DigestFinal_ex(ctx.get(), digest, &n)) {
    SHA256(reinterpret_cast<const unsigned char*>(data.data()), data.size(), digest);
    n = SHA256_DIGEST_LENGTH;
  }
  return Hex(digest, n);
}

std::string HmacSha256(std::string_view key, std::string_view data) {
  thread_local const std::unique_ptr<EVP_MAC_CTX, MacCtxFree> ctx(NewHmacSha256());
  unsigned char out[EVP_MAX_MD_SIZE];
  size_t n = 0;
  if (ctx &&
      EVP_MAC_init(ctx.get(), reinterpret_cast<const unsigned char*>(key.data()), key.size(),
                   nullptr) &&
      EVP_MAC_update(ctx.get(), reinterpret_cast<const unsigned char*>(data.data()), data.size()) &&
      EVP_MAC_final(ctx.get(), out, &n, sizeof out)) {
    return std::string(reinterpret_cast<const char*>(out), n);
  }
  unsigned int len = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(data.data()), data.size(), out, &len);
  return std::string(reinterpret_cast<const char*>(out), len);
}

std::string AmzDate(double epoch) {
  std::time_t t = static_cast<std::time_t>(std::floor(epoch));
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%dT%H%M%SZ", &tm);
  return buf;
}

std::optional<double> ParseAmzDate(std::string_view d) {
  if (d.size() != 16 || d[8] != 'T' || d[15] != 'Z') return std::nullopt;
  std::tm tm{};
  std::string s(d);
  const char* end = strptime(s.c_str(), "%Y%m%dT%H%M%SZ", &tm);
  if (!end || *end != '\0') return std::nullopt;
  return static_cast<double>(timegm(&tm));
}

std::string Scope::ToString() const {
  return fmt::format("{}/{}/{}/aws4_request", date, region, service);
}

std::string CanonicalRequest(std::string_view method, std::string_view path, std::string_view query,
                             const Headers& headers, std::string_view signed_headers,
                             std::string_view payload_hash) {
  std::string canonical_headers;
  std::string_view names = signed_headers;
  while (true) {
    const size_t semi = names.find(';');
    const std::string_view name = names.substr(0, semi);
    std::string value;
    bool first = true;
    for (const auto& [k, v] : headers) {  // repeated headers: joined with ','
      if (!HeaderNameEquals(k, name)) continue;
      if (!first) value += ',';
      value += CanonicalValue(v);
      first = false;
    }
    canonical_headers.append(name).append(":").append(value).append("\n");
    if (semi == std::string_view::npos) break;
    names.remove_prefix(semi + 1);
  }
  return fmt::format("{}\n{}\n{}\n{}\n{}\n{}", method, CanonicalPath(path), CanonicalQuery(query),
                     canonical_headers, signed_headers, payload_hash);
}

namespace {

// The signing key of (secret, date, region, service): four HMACs, the same for every request
// of a day. The last one derived is kept per thread.
const std::string& SigningKeyOf(std::string_view secret, const Scope& scope) {
  struct Cached {
    std::string secret, date, region, service, key;
  };
  thread_local Cached cached;
  if (cached.key.empty() || cached.secret != secret || cached.date != scope.date ||
      cached.region != scope.region || cached.service != scope.service) {
    std::string key = HmacSha256("AWS4" + std::string(secret), scope.date);
    key = HmacSha256(key, scope.region);
    key = HmacSha256(key, scope.service);
    cached = {std::string(secret), scope.date, scope.region, scope.service,
              HmacSha256(key, "aws4_request")};
  }
  return cached.key;
}

}  // namespace

std::string Signature(std::string_view secret, const Scope& scope, std::string_view amz_date,
                      std::string_view canonical_request) {
  const std::string to_sign = fmt::format("AWS4-HMAC-SHA256\n{}\n{}\n{}", amz_date,
                                          scope.ToString(), Sha256Hex(canonical_request));
  const std::string signature = HmacSha256(SigningKeyOf(secret, scope), to_sign);
  return Hex(reinterpret_cast<const unsigned char*>(signature.data()), signature.size());
}

void SignRequest(const SigningKey& key, std::string_view region, std::string_view service,
                 double now, std::string_view method, std::string_view path, std::string_view query,
                 std::string_view body, Headers* headers) {
  std::erase_if(*headers, [](const auto& h) {
    return HeaderNameEquals(h.first, "authorization") || HeaderNameEquals(h.first, "x-amz-date") ||
           HeaderNameEquals(h.first, "x-amz-security-token");
  });
  const std::string amz_date = AmzDate(now);
  headers->emplace_back("X-Amz-Date", amz_date);
  if (!key.session_token.empty()) headers->emplace_back("X-Amz-Security-Token", key.session_token);
  std::vector<std::string> names;
  for (const auto& [name, value] : *headers) {
    std::string lower = AsciiLower(name);
    if (!Unsigned(lower)) names.push_back(std::move(lower));
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  std::string signed_headers;
  for (const std::string& name : names) {
    if (!signed_headers.empty()) signed_headers += ';';
    signed_headers += name;
  }
  const Scope scope{amz_date.substr(0, 8), std::string(region), std::string(service)};
  const std::string canonical =
      CanonicalRequest(method, path, query, *headers, signed_headers, Sha256Hex(body));
  headers->emplace_back(
      "Authorization",
      fmt::format("AWS4-HMAC-SHA256 Credential={}/{}, SignedHeaders={}, Signature={}",
                  key.access_key_id, scope.ToString(), signed_headers,
                  Signature(key.secret_access_key, scope, amz_date, canonical)));
}

}  // namespace keyhole::aws
