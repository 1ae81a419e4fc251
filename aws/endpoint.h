// Endpoints: a URL given by the user (--endpoint, AWS_ENDPOINT_URL_DYNAMODB, ...) taken apart,
// and DynamoDB's own endpoint for a region, as botocore's endpoint rules build it.
//
// Thread-safety: pure functions and plain values.
#pragma once

#include <string>
#include <string_view>

#include "core/status.h"

namespace keyhole::aws {

struct Endpoint {
  std::string scheme;  // "http" or "https"
  std::string host;    // a name, an IPv4 address, or an IPv6 address in brackets
  int port = 0;        // 0: the scheme's own (80, 443)
  std::string path;    // "/" when the URL has none

  // "host" or "host:port" (the port only when it is not the scheme's own): the Host header and
  // what SigV4 signs.
  std::string HostHeader() const;
  // scheme://host[:port]path
  std::string Url() const;
  bool loopback() const;  // localhost, 127.x.y.z or [::1]
};

// Parses http[s]://HOST[:PORT][/PATH]. ValidationException naming the URL when it is not one
// (another scheme, no host, a bad port, a query or fragment, user information).
Result<Endpoint> ParseEndpoint(std::string_view url);

// DynamoDB's endpoint in `region`: https://dynamodb.REGION.amazonaws.com (.amazonaws.com.cn
// for cn-* regions); "local" is http://localhost:8000, as in botocore. `service` "streams"
// gives DynamoDB Streams' host (streams.dynamodb.REGION...).
Endpoint RegionalEndpoint(std::string_view region, std::string_view service = "dynamodb");

// Whether `region` has the shape of a region name (botocore's check: letters, digits and '-',
// at most 63, not all digits, no '-' at either end).
bool ValidRegionName(std::string_view region);

}  // namespace keyhole::aws
