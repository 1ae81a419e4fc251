// The credential chain (credentials.h): its sources and the provider that caches and refreshes.
#include "aws/credentials.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <openssl/sha.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "aws/credentials_internal.h"
#include "core/json.h"
#include "core/time.h"
#include "core/utf8.h"

namespace keyhole::aws {

// ---------------------------------------------------------------------------------------------
// Helpers.

std::string Sha1Hex(std::string_view data) {
  unsigned char digest[SHA_DIGEST_LENGTH];
  SHA1(reinterpret_cast<const unsigned char*>(data.data()), data.size(), digest);
  return Hex(digest, sizeof digest);
}

// A string as Python's json.dumps writes it (ensure_ascii: non-ASCII as \uXXXX).
std::string PythonJsonString(std::string_view s) {
  std::string out = "\"";
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      if (c == '"' || c == '\\') {
        out += '\\';
        out += static_cast<char>(c);
      } else if (c == '\n') {
        out += "\\n";
      } else if (c == '\r') {
        out += "\\r";
      } else if (c == '\t') {
        out += "\\t";
      } else if (c < 0x20) {
        out += fmt::format("\\u{:04x}", c);
      } else {
        out += static_cast<char>(c);
      }
      ++i;
      continue;
    }
    // A UTF-8 sequence: its code point as \uXXXX (a surrogate pair above U+FFFF).
    uint32_t cp = utf8::Next(s, &i);
    if (cp >= 0x10000) {
      cp -= 0x10000;
      out += fmt::format("\\u{:04x}\\u{:04x}", 0xD800 + (cp >> 10), 0xDC00 + (cp & 0x3FF));
    } else {
      out += fmt::format("\\u{:04x}", cp);
    }
  }
  return out + "\"";
}

std::string CliCacheKey(const std::vector<std::pair<std::string, std::string>>& args,
                        bool compact) {
  std::vector<std::pair<std::string, std::string>> sorted = args;
  std::sort(sorted.begin(), sorted.end());
  std::string text = "{";
  for (size_t i = 0; i < sorted.size(); ++i) {
    if (i) text += compact ? "," : ", ";
    text += PythonJsonString(sorted[i].first) + (compact ? ":" : ": ") + sorted[i].second;
  }
  text += "}";
  std::string key = Sha1Hex(text);
  for (char& c : key) {
    if (c == ':' || c == '/') c = '_';
  }
  return key;
}

std::string XmlText(std::string_view text, std::string_view tag) {
  const std::string open = fmt::format("<{}>", tag), close = fmt::format("</{}>", tag);
  const size_t b = text.find(open);
  if (b == std::string_view::npos) return "";
  const size_t start = b + open.size();
  const size_t e = text.find(close, start);
  if (e == std::string_view::npos) return "";
  std::string_view raw = text.substr(start, e - start);
  std::string out;
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] != '&') {
      out += raw[i];
      continue;
    }
    static constexpr std::pair<std::string_view, char> kEntities[] = {
        {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}};
    bool matched = false;
    for (const auto& [entity, ch] : kEntities) {
      if (raw.substr(i).starts_with(entity)) {
        out += ch;
        i += entity.size() - 1;
        matched = true;
        break;
      }
    }
    if (!matched) out += '&';
  }
  return out;
}

std::string FormEncode(std::string_view s) {
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += fmt::format("%{:02X}", c);
    }
  }
  return out;
}

std::string JsonString(const json::Value& o, std::string_view name) {
  const json::Value* v = o.Find(name);
  return v && v->IsString() ? v->str() : "";
}

Status NamedError(std::string_view name, std::string message) {
  return Status::Named(std::string(name), std::move(message));
}

std::string TransportFailure(const HttpResult& r, std::string_view url) {
  return fmt::format("{} ({}): {}", url, TransportErrorName(r.error), r.message);
}

// ---------------------------------------------------------------------------------------------
// The provider.

CredentialProvider::CredentialProvider(Options options) : options_(std::move(options)) {}
CredentialProvider::~CredentialProvider() = default;

std::unique_ptr<CredentialProvider> CredentialProvider::Fixed(Credentials credentials) {
  std::unique_ptr<CredentialProvider> p(new CredentialProvider());
  p->built_ = true;
  p->current_ = std::move(credentials);
  return p;
}

double CredentialProvider::Now() const {
  if (options_.now) return options_.now();
  return WallClockNow();
}

void CredentialProvider::Invalidate() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (active_) current_.reset();  // a fixed provider has nothing to find again
}

Result<Credentials> CredentialProvider::Get() {
  std::lock_guard<std::mutex> lock(mutex_);
  constexpr double kAdvisory = 15 * 60, kMandatory = 10 * 60;
  const double now = Now();
  if (current_ && (!current_->expiration || *current_->expiration - now > kAdvisory)) {
    return *current_;
  }
  if (!built_) {
    chain_ = internal::BuildChain(options_, [this] { return Now(); });
    built_ = true;
  }
  if (current_ && !active_) return *current_;  // fixed credentials
  if (current_ && active_) {
    // Within the advisory window: refresh from the same source; on failure keep these until
    // the mandatory window. Credentials that live less than the window (a 15-minute role
    // session) are refreshed at most once a minute until the mandatory window, not on every
    // request.
    if (*current_->expiration - now > kMandatory && now - last_refresh_ < 60) return *current_;
    last_refresh_ = now;
    std::string why_not;
    Result<std::optional<Credentials>> fresh = active_->Load(&why_not);
    if (fresh.ok() && *fresh) {
      current_ = std::move(**fresh);
      return *current_;
    }
    if (*current_->expiration - now > kMandatory) return *current_;
    if (!fresh.ok()) return fresh.status();
    return NamedError("NoCredentialsError",
                      fmt::format("the credentials from {} expire in {:.0f} s and could not be "
                                  "refreshed: {}",
                                  current_->source, *current_->expiration - now, why_not));
  }
  std::vector<std::string> looked;
  for (const std::unique_ptr<CredentialSource>& source : chain_) {
    std::string why_not;
    KH_ASSIGN_OR_RETURN(std::optional<Credentials> found, source->Load(&why_not));
    if (!found) {
      looked.push_back(fmt::format("{} ({})", source->Name(), why_not));
      continue;
    }
    if (found->expiration && *found->expiration <= now) {
      return NamedError(
          "ExpiredTokenException",
          fmt::format("the credentials from {} expired at {}: renew them (for SSO: aws sso login; "
                      "for keys from the environment: set new ones)",
                      found->source, IsoSeconds(*found->expiration)));
    }
    active_ = source.get();
    current_ = std::move(*found);
    return *current_;
  }
  std::string list;
  for (size_t i = 0; i < looked.size(); ++i) {
    list += fmt::format("\n  {}. {}", i + 1, looked[i]);
  }
  return NamedError(
      "NoCredentialsError",
      fmt::format("Unable to locate credentials. keyhole looked where the AWS CLI looks:{}\n"
                  "Set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, run \"aws configure\", or "
                  "name a profile with --profile.",
                  list));
}

}  // namespace keyhole::aws
