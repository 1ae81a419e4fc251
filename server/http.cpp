// HttpServer (http.h) on GNU libmicrohttpd (Debian's libmicrohttpd-dev): the only translation
// unit that includes microhttpd.h.
//
// Why libmicrohttpd: measured on this machine in one run, answering a fixed 150-byte body over a
// keep-alive connection costs the server about 25 µs of CPU per request with libmicrohttpd
// 0.9.75 and about 90 µs with cpp-httplib 0.11.4 (regex routing, several polls, getpeername and
// getsockname per request); keyhole's whole GetItem is a few µs. bench/server_bench.cpp shows the
// floor beside keyhole's figures.
//
// Mode: event threads on epoll (MHD_USE_EPOLL with a thread pool), so that thousands of open
// connections cost memory, not threads. A request that may block (HttpOptions::may_block) is
// handed to a WorkerPool with its connection suspended (MHD_suspend_connection) and resumed
// when its response is ready; the rest are answered on the event thread, without a hand-off.
#include "server/http.h"

#include <sys/resource.h>

#include <arpa/inet.h>
#include <fmt/format.h>
#include <microhttpd.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
#include <thread>

#include "aws/content_coding.h"
#include "aws/sigv4.h"
#include "core/strings.h"
#include "server/connection_guard.h"
#include "server/worker_pool.h"

namespace keyhole::server {

namespace {

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return AsciiEqualIgnoringCase(a, b);
}

constexpr size_t kMaxHeaderBytes = 16 * 1024;

// What libmicrohttpd keeps for one request while its body arrives.
struct RequestState {
  HttpRequest request;
  // When the request's first byte came (ConnectionGuard's), for request_timeout_seconds.
  std::chrono::steady_clock::time_point started;
  bool too_large = false;  // the body passed max_body_bytes: answered 413
  // Set by a worker before it resumes the connection: the answer to queue.
  std::optional<HttpResponse> response;
  bool suspended = false;  // counted in Impl::suspended until answered or ended
};

MHD_Result CollectHeader(void* cls, MHD_ValueKind, const char* key, const char* value) {
  auto* headers = static_cast<std::vector<std::pair<std::string, std::string>>*>(cls);
  headers->emplace_back(key, value ? value : "");
  return MHD_YES;
}

MHD_Result Queue(MHD_Connection* connection, const HttpResponse& out) {
  MHD_Response* r = MHD_create_response_from_buffer(
      out.body.size(), const_cast<char*>(out.body.data()), MHD_RESPMEM_MUST_COPY);
  if (!r) return MHD_NO;
  if (!out.content_type.empty()) {
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, out.content_type.c_str());
  }
  for (const auto& [k, v] : out.headers) MHD_add_response_header(r, k.c_str(), v.c_str());
  MHD_Result ret = MHD_queue_response(connection, static_cast<unsigned>(out.status), r);
  MHD_destroy_response(r);
  return ret;
}

HttpResponse TooLarge() {  // DynamoDB: 413 with an empty body (reference §7.3)
  HttpResponse r;
  r.status = 413;
  r.content_type.clear();
  return r;
}

// A request that did not arrive whole in time: 408, in the JSON shape DynamoDB's errors have,
// with a code the SDKs' standard retry mode counts as transient (RequestTimeoutException).
HttpResponse RequestTimeout(int seconds) {
  HttpResponse r;
  r.status = 408;
  r.headers.emplace_back("Connection", "close");
  r.body = fmt::format(R"({{"__type":"com.amazon.coral.service#RequestTimeoutException",)"
                       R"("message":"The request did not arrive whole within {} second{}"}})",
                       seconds, seconds == 1 ? "" : "s");
  return r;
}

HttpResponse InternalError() {
  HttpResponse r;
  r.status = 500;
  r.body = R"({"__type":"com.amazonaws.dynamodb.v20120810#InternalServerError",)"
           R"("message":"Internal server error"})";
  return r;
}

std::string_view TrimSpaces(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// A token as RFC 9110 spells one (no quotes, separators or spaces).
bool IsToken(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c <= ' ' || c >= 0x7F || std::strchr("\"(),/:;<=>?@[\\]{}", c)) return false;
  }
  return true;
}

// The q of an entry's parameters ("q=0.5;..."), read as DynamoDB reads it (ScyllaDB
// Alternator's test_compressed_response.py, run against AWS): the first parameter that holds
// "q=" anywhere ("nq=0" counts, "q =0" does not) and whose value, trimmed, is a number,
// clamped to [0, 1]; 1 when there is none.
double Quality(std::string_view params) {
  while (!params.empty()) {
    const size_t semi = params.find(';');
    std::string_view p = params.substr(0, semi);
    params = semi == std::string_view::npos ? std::string_view() : params.substr(semi + 1);
    const size_t q_at = p.find("q=");
    if (q_at == std::string_view::npos) continue;
    const std::string value(TrimSpaces(p.substr(q_at + 2)));
    char* end = nullptr;
    const double q = std::strtod(value.c_str(), &end);
    if (value.empty() || end != value.c_str() + value.size() || !std::isfinite(q)) continue;
    return std::clamp(q, 0.0, 1.0);
  }
  return 1.0;
}

}  // namespace

ContentCoding ChooseContentCoding(std::string_view accept) {
  struct Choice {
    double q = -1;  // -1: not named
    size_t at = 0;  // the entry that first named it
  } gzip, deflate, star;
  size_t at = 0;
  while (!accept.empty()) {
    const size_t comma = accept.find(',');
    const std::string_view entry = accept.substr(0, comma);
    accept = comma == std::string_view::npos ? std::string_view() : accept.substr(comma + 1);
    ++at;
    const size_t semi = entry.find(';');
    const std::string_view token = TrimSpaces(entry.substr(0, semi));
    if (!IsToken(token)) continue;
    const double q = Quality(semi == std::string_view::npos ? "" : entry.substr(semi + 1));
    Choice* c = aws::HeaderNameEquals(token, "gzip")      ? &gzip
                : aws::HeaderNameEquals(token, "deflate") ? &deflate
                : token == "*"                            ? &star
                                                          : nullptr;
    if (!c) continue;
    if (c->q < 0) c->at = at;
    c->q = std::max(c->q, q);
  }
  // What `*` brings to a coding the header does not name.
  const auto effective = [&](const Choice& c) {
    if (c.q >= 0) return c;
    Choice from_star = star;
    from_star.at = SIZE_MAX;
    return from_star.q >= 0 ? from_star : Choice{};
  };
  const Choice g = effective(gzip), d = effective(deflate);
  if (g.q <= 0 && d.q <= 0) return ContentCoding::kIdentity;
  if (g.q != d.q) return g.q > d.q ? ContentCoding::kGzip : ContentCoding::kDeflate;
  return g.at <= d.at ? ContentCoding::kGzip : ContentCoding::kDeflate;
}

std::string Compress(std::string_view body, ContentCoding coding) {
  z_stream z{};
  // windowBits 15 + 16: a gzip wrapper; 15: zlib's (what HTTP's "deflate" names).
  deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED,
               coding == ContentCoding::kGzip ? MAX_WBITS + 16 : MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&z, static_cast<uLong>(body.size())), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(body.data()));
  z.avail_in = static_cast<uInt>(body.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

namespace {

// Raises the soft limit on open files toward the hard one, to hold `connections` sockets (and
// the files the database keeps open). Left as it is when not allowed.
void RaiseOpenFilesLimit(int connections) {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) return;
  const rlim_t wanted = static_cast<rlim_t>(connections) + 64;
  if (limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur < wanted) {
    limit.rlim_cur = limit.rlim_max == RLIM_INFINITY ? wanted : std::min(wanted, limit.rlim_max);
    ::setrlimit(RLIMIT_NOFILE, &limit);
  }
}

}  // namespace

std::string_view HttpRequest::Header(std::string_view name) const {
  for (const auto& [k, v] : headers) {
    if (EqualsIgnoreCase(k, name)) return v;
  }
  return {};
}

bool HttpRequest::HasHeader(std::string_view name) const {
  return std::any_of(headers.begin(), headers.end(),
                     [&](const auto& h) { return EqualsIgnoreCase(h.first, name); });
}

struct HttpServer::Impl {
  HttpOptions options;
  Handler handler;
  int listen_fd = -1;
  MHD_Daemon* daemon = nullptr;
  std::mutex mutex;
  std::condition_variable stopped;  // Serve waits on it for Stop()
  std::condition_variable drained;  // Stop waits on it for the requests in flight
  bool stopping = false;
  int in_flight = 0;  // requests begun and not yet answered (guarded by mutex)
  // Connections suspended for a worker and not yet resumed and answered (guarded by mutex):
  // libmicrohttpd aborts if stopped with one.
  int suspended = 0;
  std::unique_ptr<WorkerPool> workers;

  // Counts a connection about to be suspended; false once stopping (the request is then
  // answered on the event thread: no connection may be suspended when the daemon stops).
  bool WillSuspend() {
    std::lock_guard<std::mutex> lock(mutex);
    if (stopping) return false;
    ++suspended;
    return true;
  }

  // A suspended request is answered, or ended (its client gone).
  void Resumed(RequestState* state) {
    if (!state->suspended) return;
    state->suspended = false;
    std::lock_guard<std::mutex> lock(mutex);
    if (--suspended == 0 && stopping) drained.notify_all();
  }

  // Open connections (MHD_OPTION_NOTIFY_CONNECTION).
  std::atomic<int> connections{0};
  // Set by Stop: a connection accepted from then on is closed at once. (Not
  // MHD_quiesce_daemon: in libmicrohttpd 0.9.75 with epoll threads it races the event threads,
  // which take the listening socket out of their epoll sets themselves once quiesced, and
  // aborts the process when they were first: "Failed to remove listen FD from epoll set",
  // seen once under load in a fresh-Debian run.)
  std::atomic<bool> refuse_new{false};
  static MHD_Result OnAccept(void* cls, const sockaddr*, socklen_t) {
    return static_cast<Impl*>(cls)->refuse_new.load() ? MHD_NO : MHD_YES;
  }
  // Whether another client is connected beside the caller's.
  bool Busy() const { return connections.load(std::memory_order_relaxed) > 1; }
  // Each connection's ConnectionGuard record is its socket context, made when it opens and
  // dropped when it closes (before libmicrohttpd closes its socket).
  std::unique_ptr<ConnectionGuard> guard;
  ConnectionGuard::Counts cut_counts;  // the guard's, once it is gone (under mutex)
  static void OnConnection(void* cls, MHD_Connection* connection, void** socket_context,
                           MHD_ConnectionNotificationCode code) {
    Impl* impl = static_cast<Impl*>(cls);
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
      impl->connections.fetch_add(1, std::memory_order_relaxed);
      const MHD_ConnectionInfo* info =
          MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
      *socket_context = info ? impl->guard->Opened(info->connect_fd) : nullptr;
      return;
    }
    impl->connections.fetch_sub(1, std::memory_order_relaxed);
    if (*socket_context)
      impl->guard->Closed(static_cast<ConnectionGuard::Connection*>(*socket_context));
    *socket_context = nullptr;
  }
  static ConnectionGuard::Connection* GuardOf(MHD_Connection* connection) {
    const MHD_ConnectionInfo* info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info ? static_cast<ConnectionGuard::Connection*>(info->socket_context) : nullptr;
  }

  // The request line is in (MHD_OPTION_URI_LOG_CALLBACK: on the connection's event thread):
  // the guard's time limit runs from here if it had not seen the request's first bytes.
  static void* OnUri(void* cls, const char*, MHD_Connection* connection) {
    if (ConnectionGuard::Connection* c = GuardOf(connection)) {
      static_cast<Impl*>(cls)->guard->RequestLine(c);
    }
    return nullptr;
  }
  int TimeLimit() const { return options.request_timeout_seconds; }
  // Whether a request still arriving at `now` is past the time limit.
  bool Late(const RequestState& state, std::chrono::steady_clock::time_point now) const {
    return options.request_timeout_seconds > 0 &&
           now - state.started > std::chrono::seconds(options.request_timeout_seconds);
  }

  HttpResponse Answer(const HttpRequest& request) {
    try {
      return handler(request);
    } catch (const std::exception&) {
      return InternalError();
    }
  }

  // libmicrohttpd's access handler: called once when the headers are in, then with each piece
  // of the body, then once more with none left (when the response is queued).
  static MHD_Result OnRequest(void* cls, MHD_Connection* connection, const char* url,
                              const char* method, const char* /*version*/, const char* upload_data,
                              size_t* upload_data_size, void** state_slot) {
    Impl* impl = static_cast<Impl*>(cls);
    auto* state = static_cast<RequestState*>(*state_slot);
    ConnectionGuard::Connection* guarded = GuardOf(connection);
    if (!state) {
      const auto now = std::chrono::steady_clock::now();
      state = new RequestState();
      state->started = now;
      *state_slot = state;
      // Cut by the guard meanwhile (past the time limit, or at the connection limit): closed.
      if (guarded && !impl->guard->HeadersIn(guarded, &state->started)) return MHD_NO;
      // From here on, an answer queued on this connection is the server's own: the guard
      // leaves it alone.
      auto answer = [&](const HttpResponse& r) {
        if (guarded && !impl->guard->Arrived(guarded)) return MHD_NO;
        return Queue(connection, r);
      };
      {
        std::lock_guard<std::mutex> lock(impl->mutex);
        ++impl->in_flight;
      }
      state->request.method = method;
      state->request.path = url;
      MHD_get_connection_values(connection, MHD_HEADER_KIND, &CollectHeader,
                                &state->request.headers);
      MHD_get_connection_values(connection, MHD_GET_ARGUMENT_KIND, &CollectHeader,
                                &state->request.query);
      // Headers past 16 KB, or a request line past 16 KB: a plain 400, as DynamoDB answers
      // (Alternator's test_too_large_request_headers and test_too_large_request_line;
      // libmicrohttpd itself answers 431 past the 32 KB it holds a connection's headers in).
      size_t header_bytes = 0;
      for (const auto& [k, v] : state->request.headers) header_bytes += k.size() + v.size() + 4;
      size_t line_bytes = state->request.method.size() + state->request.path.size() + 11;
      for (const auto& [k, v] : state->request.query) line_bytes += k.size() + v.size() + 2;
      if (header_bytes > kMaxHeaderBytes || line_bytes > kMaxHeaderBytes) {
        state->too_large = true;
        HttpResponse r;
        r.status = 400;
        r.content_type.clear();
        return answer(r);
      }
      // A Content-Length past the limit is answered before the body is read (and the
      // connection closed, its body unread).
      const char* length =
          MHD_lookup_connection_value(connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
      if (length && std::strtoull(length, nullptr, 10) > impl->options.max_body_bytes) {
        state->too_large = true;
        return answer(TooLarge());
      }
      if (impl->Late(*state, now)) return answer(RequestTimeout(impl->TimeLimit()));
      return MHD_YES;
    }
    if (*upload_data_size != 0) {
      // A body still arriving past the time limit: answered 408 by the guard, on the socket
      // (libmicrohttpd 0.9.75 takes no answer while a body is being read: MHD_queue_response
      // refuses one until the body's end), and closed, the rest unread.
      if (impl->Late(*state, std::chrono::steady_clock::now())) {
        if (guarded) impl->guard->CutLate(guarded);
        return MHD_NO;
      }
      if (!state->too_large) {
        if (state->request.body.size() + *upload_data_size > impl->options.max_body_bytes) {
          state->too_large = true;  // a chunked body past the limit: dropped as it arrives
          std::string().swap(state->request.body);
        } else {
          state->request.body.append(upload_data, *upload_data_size);
        }
      }
      *upload_data_size = 0;
      return MHD_YES;
    }
    // The request is whole (unless the guard cut it just now): the guard leaves it be.
    if (guarded && !impl->guard->Arrived(guarded)) return MHD_NO;
    if (state->too_large) return Queue(connection, TooLarge());
    if (state->response) {  // resumed by its worker
      impl->Resumed(state);
      return Queue(connection, *state->response);
    }
    const std::string_view encoding = state->request.Header("Content-Encoding");
    if (!encoding.empty() && !EqualsIgnoreCase(encoding, "identity")) {
      const bool gzip = EqualsIgnoreCase(encoding, "gzip");
      const bool deflate = EqualsIgnoreCase(encoding, "deflate");
      std::string plain;
      bool too_large = false;
      bool ok = (gzip || deflate) && aws::Inflate(state->request.body, false,
                                                  impl->options.max_body_bytes, &plain, &too_large);
      if (!ok && deflate && !too_large) {
        plain.clear();
        ok = aws::Inflate(state->request.body, true, impl->options.max_body_bytes, &plain,
                          &too_large);
      }
      if (too_large) return Queue(connection, TooLarge());
      // DynamoDB answers another encoding, or a body that does not inflate, with
      // InternalServerError (reference §7.3).
      if (!ok) return Queue(connection, InternalError());
      state->request.wire_body = std::move(state->request.body);
      state->request.body = std::move(plain);
    }
    if (impl->options.may_block && impl->Busy() && impl->options.may_block(state->request) &&
        impl->WillSuspend()) {
      // Answered on a worker; the event thread goes on with other connections meanwhile, and
      // libmicrohttpd calls here again once the worker resumes this one. (The only client's
      // request is answered here: the hand-off costs about ten system calls and two thread
      // switches, and there is no other request to delay or to share a group commit with.)
      state->suspended = true;
      MHD_suspend_connection(connection);
      impl->workers->Submit([impl, connection, state] {
        state->response = impl->Answer(state->request);
        MHD_resume_connection(connection);
      });
      return MHD_YES;
    }
    return Queue(connection, impl->Answer(state->request));
  }

  // Called when a request ends: answered, or its connection closed first.
  static void OnCompleted(void* cls, MHD_Connection* connection, void** state_slot,
                          MHD_RequestTerminationCode) {
    Impl* impl = static_cast<Impl*>(cls);
    if (ConnectionGuard::Connection* c = GuardOf(connection)) impl->guard->Answered(c);
    auto* state = static_cast<RequestState*>(*state_slot);
    if (!state) return;
    impl->Resumed(state);
    delete state;
    *state_slot = nullptr;
    std::lock_guard<std::mutex> lock(impl->mutex);
    // Only a Stop() waiting for the last one is woken: not a thread per request.
    if (--impl->in_flight == 0 && impl->stopping) impl->drained.notify_all();
  }

  static void IgnoreLog(void*, const char*, va_list) {}
};

HttpServer::HttpServer(HttpOptions options, Handler handler) : impl_(std::make_unique<Impl>()) {
  impl_->options = std::move(options);
  impl_->handler = std::move(handler);
}

HttpServer::~HttpServer() {
  Stop();
  if (impl_->listen_fd >= 0) ::close(impl_->listen_fd);
}

Result<int> HttpServer::Bind() {
  const HttpOptions& o = impl_->options;
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* found = nullptr;
  const std::string port = std::to_string(o.port);
  if (int rc = ::getaddrinfo(o.host.c_str(), port.c_str(), &hints, &found); rc != 0) {
    return Status::Internal(fmt::format("cannot listen on {}: {}", o.host, gai_strerror(rc)));
  }
  std::string error = "no address";
  for (addrinfo* a = found; a; a = a->ai_next) {
    int fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) continue;
    int on = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    if (::bind(fd, a->ai_addr, a->ai_addrlen) == 0 && ::listen(fd, 511) == 0) {
      impl_->listen_fd = fd;
      break;
    }
    error = std::strerror(errno);
    ::close(fd);
  }
  ::freeaddrinfo(found);
  if (impl_->listen_fd < 0) {
    return Status::Internal(fmt::format("cannot listen on {}:{}: {}", o.host, o.port, error));
  }
  sockaddr_storage bound{};
  socklen_t length = sizeof bound;
  ::getsockname(impl_->listen_fd, reinterpret_cast<sockaddr*>(&bound), &length);
  const int bound_port = bound.ss_family == AF_INET6
                             ? ntohs(reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port)
                             : ntohs(reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
  return bound_port;
}

Status HttpServer::Start() {
  Impl& impl = *impl_;
  std::lock_guard<std::mutex> lock(impl.mutex);
  if (impl.daemon) return Status::OK();
  if (impl.stopping || impl.listen_fd < 0) {
    return Status::Internal("the server is stopped, or was not bound");
  }
  const bool tls = !impl.options.tls_cert_pem.empty() || !impl.options.tls_key_pem.empty();
  unsigned flags =
      MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_TURBO;
  if (tls) {
    if (MHD_is_feature_supported(MHD_FEATURE_TLS) != MHD_YES) {
      return Status::Internal("this libmicrohttpd was built without TLS: HTTPS is not available");
    }
    flags |= MHD_USE_TLS;
  }
  // The connection's memory pool holds the request line and headers (and the read buffer):
  // past it, the request is refused (431) and the connection closed. libmicrohttpd clears the
  // pool for every request, so it is kept at its default size, above DynamoDB's ~16 KB of
  // headers.
  const size_t header_memory = 32 * 1024;
  RaiseOpenFilesLimit(impl.options.max_connections);
  int event_threads = impl.options.event_threads;
  if (event_threads <= 0) {
    event_threads = static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 4u));
  }
  // Each event thread holds an equal share of max_connections.
  event_threads = std::min(event_threads, std::max(1, impl.options.max_connections));
  impl.workers = std::make_unique<WorkerPool>(impl.options.max_workers);
  ConnectionGuardOptions guard;
  guard.request_timeout_seconds = impl.options.request_timeout_seconds;
  guard.max_connections = impl.options.max_connections;
  guard.tls = tls;
  guard.log = impl.options.log;
  impl.guard = std::make_unique<ConnectionGuard>(std::move(guard));
  std::vector<MHD_OptionItem> options = {
      {MHD_OPTION_LISTEN_SOCKET, impl.listen_fd, nullptr},
      {MHD_OPTION_NOTIFY_COMPLETED, reinterpret_cast<intptr_t>(&Impl::OnCompleted), &impl},
      {MHD_OPTION_NOTIFY_CONNECTION, reinterpret_cast<intptr_t>(&Impl::OnConnection), &impl},
      {MHD_OPTION_URI_LOG_CALLBACK, reinterpret_cast<intptr_t>(&Impl::OnUri), &impl},
      {MHD_OPTION_CONNECTION_TIMEOUT, impl.options.idle_timeout_seconds, nullptr},
      {MHD_OPTION_CONNECTION_LIMIT, impl.options.max_connections, nullptr},
      {MHD_OPTION_CONNECTION_MEMORY_LIMIT, static_cast<intptr_t>(header_memory), nullptr},
      {MHD_OPTION_EXTERNAL_LOGGER, reinterpret_cast<intptr_t>(&Impl::IgnoreLog), nullptr},
      {MHD_OPTION_THREAD_POOL_SIZE, event_threads, nullptr},
  };
  if (tls) {
    options.push_back(
        {MHD_OPTION_HTTPS_MEM_CERT, 0, const_cast<char*>(impl.options.tls_cert_pem.c_str())});
    options.push_back(
        {MHD_OPTION_HTTPS_MEM_KEY, 0, const_cast<char*>(impl.options.tls_key_pem.c_str())});
  }
  options.push_back({MHD_OPTION_END, 0, nullptr});
  impl.daemon = MHD_start_daemon(flags, 0, &Impl::OnAccept, &impl, &Impl::OnRequest, &impl,
                                 MHD_OPTION_ARRAY, options.data(), MHD_OPTION_END);
  if (!impl.daemon) {
    return Status::Internal(
        tls ? "cannot start HTTPS: the certificate or the key is not valid PEM, or they do not "
              "belong together"
            : "cannot start the HTTP server");
  }
  return Status::OK();
}

HttpServer::Cuts HttpServer::cuts() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  const ConnectionGuard::Counts c = impl_->guard ? impl_->guard->counts() : impl_->cut_counts;
  return {c.cut_late, c.cut_for_room};
}

void HttpServer::Serve() {
  Impl& impl = *impl_;
  if (!Start().ok()) return;
  std::unique_lock<std::mutex> lock(impl.mutex);
  impl.stopped.wait(lock, [&] { return impl.stopping; });
}

void HttpServer::Stop() {
  Impl& impl = *impl_;
  MHD_Daemon* daemon = nullptr;
  {
    std::lock_guard<std::mutex> lock(impl.mutex);
    if (impl.stopping) return;
    impl.stopping = true;
    daemon = impl.daemon;
    impl.daemon = nullptr;
  }
  if (daemon) {
    // No new connections; the requests in flight are answered (up to the idle timeout), then
    // the idle keep-alive connections are closed.
    impl.refuse_new = true;
    {
      std::unique_lock<std::mutex> lock(impl.mutex);
      impl.drained.wait_for(lock, std::chrono::seconds(impl.options.idle_timeout_seconds + 1),
                            [&] { return impl.in_flight == 0; });
    }
    // A suspended connection must be resumed (and its answer queued) before the daemon stops:
    // the requests on workers finish whatever the wait above gave up on.
    if (impl.workers) impl.workers->Drain();
    {
      std::unique_lock<std::mutex> lock(impl.mutex);
      impl.drained.wait(lock, [&] { return impl.suspended == 0; });
    }
    MHD_stop_daemon(daemon);  // it closes the listening socket, which it was given
    std::lock_guard<std::mutex> lock(impl.mutex);
    impl.listen_fd = -1;
    if (impl.guard) impl.cut_counts = impl.guard->counts();
    impl.guard.reset();  // every connection is closed
  }
  impl.stopped.notify_all();
}

}  // namespace keyhole::server
