// The HTTP/1.1 server keyhole serve runs on: a small interface in front of GNU libmicrohttpd
// (Debian's libmicrohttpd-dev), which only http.cpp includes. A few event threads (epoll) hold
// every connection, thousands of them, keep-alive or idle; a request that may block (a synced
// write, a large page: HttpOptions::may_block says) runs on a bounded pool of worker threads
// while its connection is suspended, the others on the event thread that read it. Also: a
// request size limit (413 past it, before the body is read), an idle timeout, a time limit on a
// request's arrival (408), gzip and deflate request bodies.
//
// Thread-safety: the handler (and may_block) is called from several threads at once; Stop()
// may be called from any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/status.h"

namespace keyhole::server {

struct HttpRequest {
  std::string method;  // "POST", "GET", ...
  std::string path;    // "/", without the query
  // The query string's parameters, decoded, in order ("?a=1&b" -> {a, 1}, {b, ""}).
  std::vector<std::pair<std::string, std::string>> query;
  std::vector<std::pair<std::string, std::string>> headers;  // as received
  std::string body;  // decoded (a gzip or deflate body arrives inflated here)
  // The body's bytes as they came on the wire, when Content-Encoding changed them (a SigV4
  // signature covers these); nullopt when `body` is the wire's.
  std::optional<std::string> wire_body;
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
  // between requests, or a client that stalls inside one (or sends nothing at all). DynamoDB
  // closes idle connections after about a minute; clients' pools drop theirs sooner, so a
  // client seldom sends a request on a connection the server is closing. Stopping waits at
  // most this long for requests still arriving.
  int idle_timeout_seconds = 60;
  // A request must arrive whole (request line, headers and body) within this long, counted
  // from its first byte, however slowly it comes and whether or not bytes still come; 0: no
  // limit. Past it, the request is answered 408 RequestTimeoutException (which SDKs retry) and
  // its connection closed, within an eighth of the limit (a second at most): over plain HTTP
  // always (a client still sending may see the connection reset before it reads the answer);
  // over HTTPS only when its headers complete after the limit, and a request still arriving
  // (headers or body) is closed unanswered, as no answer can be written into a TLS session
  // from outside libmicrohttpd. A connection that
  // sends nothing at all is idle_timeout's. So a client dribbling a request in holds neither a
  // worker (no request does before it is whole) nor, for long, its buffers. See
  // connection_guard.h.
  int request_timeout_seconds = 60;
  // Connections held at once. Past it, new connections wait in the listen queue (they are
  // accepted as others close), never reset; and when it is reached, the oldest connections
  // holding requests incomplete for a second or more (or nothing at all for ten) are closed to
  // keep a twentieth of it free, said in the log.
  int max_connections = 10000;
  // The server's own events (requests cut at the time limit, room kept at the connection
  // limit), a line each, without a newline, at most a line a second of each kind; null: none.
  // Called from the server's threads.
  std::function<void(std::string_view)> log;
  // Event threads (each holds a share of the connections): 0 for one per core (at most 4).
  int event_threads = 0;
  // Worker threads for requests that may block, started as needed.
  int max_workers = 256;
  // Whether a request may block (run on a worker): null for every request.
  std::function<bool(const HttpRequest&)> may_block;
  // HTTPS: the server's certificate (chain) and private key, PEM text; both empty for plain
  // HTTP. libmicrohttpd's TLS is GnuTLS.
  std::string tls_cert_pem, tls_key_pem;
};

// Response compression as DynamoDB does it (Alternator's suite records it against AWS,
// test_compressed_response.py): gzip, or deflate in its zlib wrapping (RFC 1950), of a body of
// at least kCompressFrom bytes, when the request's Accept-Encoding asks for one.
enum class ContentCoding { kIdentity, kGzip, kDeflate };
inline constexpr size_t kCompressFrom = 4096;
// The coding an Accept-Encoding value picks: the acceptable one (gzip or deflate, named or
// through `*`) with the highest q; on a tie one named beats one `*` brings, the first named
// wins, and gzip before deflate through `*`. q=0 refuses a coding, q past 1 counts as 1, a
// negative one as 0, one that does not parse as 1; only a coding's first q counts, and its
// highest among repeats. Unknown codings, `identity` and malformed entries are ignored, so
// an answer is never refused (no 406): kIdentity when nothing acceptable is left.
ContentCoding ChooseContentCoding(std::string_view accept_encoding);
// `body` compressed with `coding`. REQUIRES: coding != kIdentity.
std::string Compress(std::string_view body, ContentCoding coding);

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
  // Requests cut since Start: past the time limit (408), and at the connection limit.
  struct Cuts {
    uint64_t late = 0, for_room = 0;
  };
  Cuts cuts() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace keyhole::server
