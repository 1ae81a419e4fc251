// Endpoints (endpoint.h).
#include "aws/endpoint.h"

#include <fmt/format.h>

#include <cctype>
#include <cstdlib>

#include "core/strings.h"

namespace keyhole::aws {

std::string Endpoint::HostHeader() const {
  const int own = scheme == "https" ? 443 : 80;
  return port == 0 || port == own ? host : fmt::format("{}:{}", host, port);
}

std::string Endpoint::Url() const { return fmt::format("{}://{}{}", scheme, HostHeader(), path); }

bool Endpoint::loopback() const {
  return host == "localhost" || host.starts_with("127.") || host == "[::1]";
}

Result<Endpoint> ParseEndpoint(std::string_view url) {
  const auto invalid = [&](std::string_view why) {
    return Status::Validation(
        fmt::format("endpoint '{}' is not a URL keyhole can use ({}): give "
                    "http://HOST[:PORT] or https://HOST[:PORT]",
                    url, why));
  };
  Endpoint e;
  std::string_view rest = url;
  if (rest.starts_with("https://")) {
    e.scheme = "https";
    rest.remove_prefix(8);
  } else if (rest.starts_with("http://")) {
    e.scheme = "http";
    rest.remove_prefix(7);
  } else {
    return invalid("it does not start with http:// or https://");
  }
  if (rest.find_first_of("?#") != std::string_view::npos) return invalid("a query or fragment");
  const size_t slash = rest.find('/');
  std::string_view authority = rest.substr(0, slash);
  e.path = slash == std::string_view::npos ? "/" : std::string(rest.substr(slash));
  if (authority.find('@') != std::string_view::npos) {
    return invalid("user information in the URL; credentials come from the AWS configuration");
  }
  if (authority.empty()) return invalid("no host");
  std::string_view port;
  if (authority.front() == '[') {
    const size_t close = authority.find(']');
    if (close == std::string_view::npos) return invalid("an unclosed '[' in the host");
    e.host = std::string(authority.substr(0, close + 1));
    std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') return invalid("text after the IPv6 address");
      port = after.substr(1);
    }
  } else {
    const size_t colon = authority.rfind(':');
    e.host = std::string(authority.substr(0, colon));
    if (colon != std::string_view::npos) port = authority.substr(colon + 1);
    if (colon != std::string_view::npos && port.empty()) return invalid("an empty port");
  }
  if (e.host.empty() || e.host == "[]") return invalid("no host");
  // ':' belongs to an IPv6 address only, in its brackets (the fuzz target found "http://:.:80/"
  // read as host ":.", which printed back as a URL without a host).
  const bool bracketed = e.host.front() == '[';
  for (char c : bracketed ? std::string_view(e.host).substr(1, e.host.size() - 2)
                          : std::string_view(e.host)) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (c == ':' && !bracketed) return invalid("a ':' in the host (an IPv6 address goes in [])");
    if (!(std::isalnum(u) || c == '-' || c == '.' || c == '_' || c == ':')) {
      return invalid(fmt::format("the character '{}' in the host", c));
    }
  }
  e.host = AsciiLower(e.host);
  if (!port.empty()) {
    if (port.size() > 5 || port.find_first_not_of("0123456789") != std::string_view::npos) {
      return invalid("a bad port");
    }
    const int p = std::atoi(std::string(port).c_str());
    if (p < 1 || p > 65535) return invalid("a port outside 1..65535");
    e.port = p;
  }
  return e;
}

Endpoint RegionalEndpoint(std::string_view region, std::string_view service) {
  if (region == "local") return Endpoint{"http", "localhost", 8000, "/"};
  const std::string_view suffix = region.starts_with("cn-") ? "amazonaws.com.cn" : "amazonaws.com";
  const std::string host = service == "streams"
                               ? fmt::format("streams.dynamodb.{}.{}", region, suffix)
                               : fmt::format("dynamodb.{}.{}", region, suffix);
  return Endpoint{"https", host, 0, "/"};
}

bool ValidRegionName(std::string_view region) {
  if (region.empty() || region.size() > 63) return false;
  if (region.front() == '-' || region.back() == '-') return false;
  bool digits_only = true;
  for (char c : region) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (!(std::isalnum(u) || c == '-')) return false;
    if (!std::isdigit(u)) digits_only = false;
  }
  return !digits_only;
}

}  // namespace keyhole::aws
