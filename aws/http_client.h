// aws::HttpClient: HTTP/1.1 and HTTPS requests on libcurl (Debian's libcurl4-openssl-dev), the
// one HTTP client of keyhole's AWS calls (DynamoDB through remote/, and aws/'s own calls to
// STS, SSO and the instance and container metadata services).
//
// libcurl rather than cpp-httplib (the issue allowed either): it reads HTTPS_PROXY, HTTP_PROXY
// and NO_PROXY as the AWS CLI does, tunnels HTTPS through a proxy with CONNECT, verifies
// against the system's CA store or a bundle (AWS_CA_BUNDLE), and keeps connections alive per
// handle; cpp-httplib ignores NO_PROXY and holds one connection per client object.
//
// A request to http:// and an IP address or localhost, where no proxy variable applies, goes
// over plain_http.h's sockets instead: on loopback libcurl cost as much CPU as the rest of a
// request (Options::always_libcurl turns that off).
//
// Thread-safety: Send may be called from many threads at once. Each call takes an idle libcurl
// handle (with its open connection) from a pool, or makes one; the pool keeps up to
// Options::max_idle handles.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <string_view>

#include "aws/sigv4.h"

namespace keyhole::aws {

struct HttpRequest {
  std::string method = "POST";
  std::string url;  // http:// or https://, with the path and any query
  Headers headers;  // sent as given (a Host header given here is the one sent)
  std::string body;
  // Never sent twice by the HTTP library. libcurl sends a request again, on a new connection,
  // when a reused connection dies before any answer, which may be after the server applied
  // it; for a request that is not safe to apply twice it must fail (kConnectionLost) instead.
  bool once = false;
};

struct HttpResponse {
  int status = 0;
  Headers headers;
  std::string body;
  // The first header named `name` (case-insensitive), or "" when there is none.
  std::string_view Header(std::string_view name) const;
};

// Why no HTTP response came back.
enum class TransportError {
  kNone,
  kResolve,         // the host (or the proxy) has no address: DNS
  kConnect,         // refused or unreachable
  kTls,             // the TLS handshake failed, or the certificate was not trusted
  kConnectTimeout,  // no connection within the connect timeout
  kReadTimeout,     // the response stalled past the read timeout
  kConnectionLost,  // reset or closed before a whole response arrived
  kInterrupted,     // the caller's cancel flag was set (Ctrl-C)
  kOther,
};

struct HttpResult {
  TransportError error = TransportError::kNone;
  std::string message;    // libcurl's words when error != kNone
  HttpResponse response;  // when error == kNone
  bool ok() const { return error == TransportError::kNone; }
};

class HttpClient {
 public:
  struct Options {
    int connect_timeout_ms = 10000;
    // A response that sends nothing for this long fails with kReadTimeout.
    int read_timeout_ms = 60000;
    // PEM file of the certificates to trust (AWS_CA_BUNDLE, --ca-bundle); "" for the system's
    // store.
    std::string ca_bundle;
    // Handles (and their open connections) kept between calls.
    size_t max_idle = 32;
    // Set (by a signal handler, say) to stop requests in flight: they end with kInterrupted.
    const std::atomic<bool>* cancel = nullptr;
    // Every request through libcurl, plain http:// to an address too.
    bool always_libcurl = false;
  };
  explicit HttpClient(Options options);
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  HttpResult Send(const HttpRequest& request);

  const Options& options() const { return options_; }

 private:
  struct Pool;
  Options options_;
  std::unique_ptr<Pool> pool_;
};

// The name of a transport error for messages ("cannot connect", ...).
std::string_view TransportErrorName(TransportError e);

}  // namespace keyhole::aws
