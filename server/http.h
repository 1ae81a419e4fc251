// The HTTP/1.1 server keyhole serve runs on: a small interface in front of GNU libmicrohttpd
// (Debian's libmicrohttpd-dev), which only http.cpp includes. Keep-alive, a thread per open
// connection (up to max_connections), a request size limit (413 past it, before the body is
// read), an idle timeout, gzip and deflate request bodies.
//
// Thread-safety: the handler is called from several worker threads at once; Stop() may be called
// from any thread.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/status.h"

namespace keyhole::server {

struct HttpRequest {
  std::string method;                                        // "POST", "GET", ...
  std::string path;                                          // "/"
  std::vector<std::pair<std::string, std::string>> headers;  // as received
  std::string body;
  // The first header named `name` (case-insensitive), or "" when there is none.
  std::string_view Header(std::string_view name) const;
  bool HasHeader(std::string_view name) const;
};

struct HttpResponse {
  int status = 200;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  std::string content_type = "application/x-amz-json-1.0";
};

struct HttpOptions {
  std::string host = "127.0.0.1";            // an address or a name getaddrinfo resolves
  int port = 8000;                           // 0: a free port the OS picks
  size_t max_body_bytes = size_t{16} << 20;  // 16 MiB, DynamoDB's request limit: 413 past it
  // A connection on which nothing arrives for this long is closed: a keep-alive connection
  // between requests, or a client that stalls inside one (or sends nothing at all). Stopping
  // waits at most this long for the requests in flight.
  int idle_timeout_seconds = 5;
  // Connections served at once, each on its own thread; past it, a new connection is closed
  // at once (clients retry).
  int max_connections = 256;
  // HTTPS: the server's certificate (chain) and private key, PEM text; both empty for plain
  // HTTP. libmicrohttpd's TLS is GnuTLS.
  std::string tls_cert_pem, tls_key_pem;
};

class HttpServer {
 public:
  using Handler = std::function<HttpResponse(const HttpRequest&)>;
  HttpServer(HttpOptions options, Handler handler);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds the listening socket. Returns the port bound (options.port, or the one the OS picked
  // for 0); InternalServerError naming the address when it cannot bind.
  Result<int> Bind();
  // Starts serving on its own threads: InternalServerError when the HTTP library cannot (a TLS
  // certificate and key that do not load or do not match, say). REQUIRES: Bind() succeeded.
  Status Start();
  // Serves until Stop() (starting first when Start was not called): requests in flight finish
  // first. REQUIRES: Bind() succeeded.
  void Serve();
  // Stops accepting; Serve() returns once the requests in flight are answered.
  void Stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace keyhole::server
