// PlainHttp: HTTP/1.1 over plain TCP to an IP address or localhost, with kept-alive
// connections, for HttpClient (http_client.h) on http:// URLs where no proxy applies.
//
// On loopback, libcurl's easy interface costs about as much client CPU as all the rest of a
// GetItem: seven system calls where send, poll and recv do, and ~10 µs of bookkeeping. A local
// endpoint (keyhole serve, DynamoDB Local) is where keyhole's scripts and tests send most of
// their requests. Everything else (names to resolve, HTTPS, proxies) stays with libcurl.
//
// Thread-safety: Send may be called from many threads at once; idle connections are pooled
// under a mutex, each used by one request at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "aws/http_client.h"

namespace keyhole::aws::internal {

// Where a plain request goes: http://HOST[:PORT][/PATH[?QUERY]] with HOST an IPv4 address, an
// [IPv6] address or localhost.
struct PlainTarget {
  std::string host;  // without brackets
  uint16_t port = 80;
  std::string target;  // the path and query ("/" when the URL has none)
};
// Parses `url` into *out; false for anything else (then libcurl takes the request).
bool ParsePlainUrl(std::string_view url, PlainTarget* out);

// The head of a response, from the bytes received so far.
struct ResponseHead {
  int status = 0;
  Headers headers;
  size_t head_bytes = 0;        // through the blank line
  int64_t content_length = -1;  // -1: none given
  bool chunked = false;
  bool keep_alive = true;  // the connection may carry another request
};
// 1 when `bytes` starts with a whole head (*out set), 0 when more bytes are needed, -1 when it
// is not HTTP/1.x. An interim (1xx) head is returned like any other.
int ParseResponseHead(std::string_view bytes, ResponseHead* out);

// A chunked body read as it arrives: Feed the bytes after the head, in order.
class ChunkedDecoder {
 public:
  // Appends what `more` completes to *body. 1 when the last chunk (and trailers) ended, with
  // *used the bytes of `more` taken; 0 when more bytes are needed; -1 when malformed.
  int Feed(std::string_view more, std::string* body, size_t* used);

 private:
  std::string pending_;  // bytes of a chunk-size line or trailer not yet whole
  uint64_t left_ = 0;    // data bytes left in the current chunk
  enum class State { kSize, kData, kDataEnd, kTrailer } state_ = State::kSize;
};

class PlainHttp {
 public:
  explicit PlainHttp(const HttpClient::Options& options);
  ~PlainHttp();
  PlainHttp(const PlainHttp&) = delete;
  PlainHttp& operator=(const PlainHttp&) = delete;

  HttpResult Send(const HttpRequest& request, const PlainTarget& target);

 private:
  struct Pool;
  const HttpClient::Options& options_;
  std::unique_ptr<Pool> pool_;
};

// Whether a proxy variable for http:// URLs (http_proxy, HTTP_PROXY as the AWS CLI reads it,
// all_proxy, ALL_PROXY) is set; then every http:// request goes through libcurl, which honours
// it (http_client.cpp hands it HTTP_PROXY) and no_proxy.
bool HttpProxyConfigured();

}  // namespace keyhole::aws::internal
