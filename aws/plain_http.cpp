// PlainHttp (plain_http.h): send, poll and recv on a kept-alive non-blocking socket.
#include "aws/plain_http.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <vector>

#include "core/strings.h"

namespace keyhole::aws::internal {

namespace {

using Clock = std::chrono::steady_clock;

constexpr size_t kMaxHead = 64 * 1024;  // a longer response head is refused
// A longer answer is refused (DynamoDB's are a few MB at most): a server that says or sends
// more cannot make the client run out of memory.
constexpr uint64_t kMaxBody = uint64_t{256} << 20;
constexpr int kSliceMs = 100;  // waits wake this often to see the cancel flag

std::string_view Trim(std::string_view s) { return keyhole::Trim(s, " \t", " \t"); }

bool ParsePort(std::string_view text, uint16_t* out) {
  unsigned v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || v == 0 || v > 65535) return false;
  *out = static_cast<uint16_t>(v);
  return true;
}

void CloseFd(int fd) {
  if (fd >= 0) ::close(fd);
}

// Why an exchange on a connection ended.
enum class End { kDone, kStale, kFailed };

}  // namespace

bool ParsePlainUrl(std::string_view url, PlainTarget* out) {
  constexpr std::string_view kScheme = "http://";
  if (url.size() < kScheme.size() || !HeaderNameEquals(url.substr(0, kScheme.size()), kScheme)) {
    return false;
  }
  url.remove_prefix(kScheme.size());
  const size_t end = url.find_first_of("/?#");
  const std::string_view authority = url.substr(0, end);
  const std::string_view rest = end == std::string_view::npos ? "" : url.substr(end);
  if (rest.find('#') != std::string_view::npos || authority.find('@') != std::string_view::npos) {
    return false;
  }
  PlainTarget t;
  std::string_view port;
  if (authority.starts_with('[')) {
    const size_t close = authority.find(']');
    if (close == std::string_view::npos) return false;
    t.host = std::string(authority.substr(1, close - 1));
    const std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after[0] != ':') return false;
      port = after.substr(1);
    }
    in6_addr a;
    if (::inet_pton(AF_INET6, t.host.c_str(), &a) != 1) return false;
  } else {
    const size_t colon = authority.rfind(':');
    t.host = std::string(authority.substr(0, colon));
    if (colon != std::string_view::npos) port = authority.substr(colon + 1);
    in_addr a;
    if (HeaderNameEquals(t.host, "localhost")) {
      t.host = "localhost";
    } else if (::inet_pton(AF_INET, t.host.c_str(), &a) != 1) {
      return false;
    }
  }
  if (!port.empty() && !ParsePort(port, &t.port)) return false;
  if (port.empty() && authority.ends_with(':')) return false;
  t.target = rest.empty() ? "/" : rest[0] == '?' ? "/" + std::string(rest) : std::string(rest);
  *out = std::move(t);
  return true;
}

bool HttpProxyConfigured() {
  for (const char* name : {"http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"}) {
    const char* v = std::getenv(name);
    if (v && *v) return true;
  }
  return false;
}

int ParseResponseHead(std::string_view bytes, ResponseHead* out) {
  if (bytes.size() >= 5 && !bytes.starts_with("HTTP/")) return -1;
  const size_t end = bytes.find("\r\n\r\n");
  if (end == std::string_view::npos) return bytes.size() > kMaxHead ? -1 : 0;
  if (end + 4 > kMaxHead) return -1;
  ResponseHead h;
  h.head_bytes = end + 4;
  std::string_view head = bytes.substr(0, end + 2);  // each line ends in CRLF
  const size_t eol = head.find("\r\n");
  const std::string_view status = head.substr(0, eol);
  // HTTP/1.x NNN[ reason]
  if (status.size() < 12 || !status.starts_with("HTTP/1.") ||
      (status[7] != '0' && status[7] != '1') || status[8] != ' ' ||
      (status.size() > 12 && status[12] != ' ')) {
    return -1;
  }
  for (int i = 9; i < 12; ++i) {
    if (status[i] < '0' || status[i] > '9') return -1;
    h.status = h.status * 10 + (status[i] - '0');
  }
  if (h.status < 100) return -1;
  h.keep_alive = status[7] == '1';
  head.remove_prefix(eol + 2);
  while (!head.empty()) {
    const size_t line_end = head.find("\r\n");
    const std::string_view line = head.substr(0, line_end);
    head.remove_prefix(line_end + 2);
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0 || line[0] == ' ' || line[0] == '\t') {
      return -1;  // not a header (folded lines are obsolete, and refused)
    }
    const std::string_view name = line.substr(0, colon);
    const std::string_view value = Trim(line.substr(colon + 1));
    if (HeaderNameEquals(name, "content-length")) {
      int64_t n = 0;
      const auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
      if (ec != std::errc() || p != value.data() + value.size() || n < 0 ||
          (h.content_length >= 0 && h.content_length != n)) {
        return -1;
      }
      h.content_length = n;
    } else if (HeaderNameEquals(name, "transfer-encoding")) {
      if (!HeaderNameEquals(value, "chunked")) return -1;  // gzip and the like: not asked for
      h.chunked = true;
    } else if (HeaderNameEquals(name, "connection")) {
      if (HeaderNameEquals(value, "close")) h.keep_alive = false;
      if (HeaderNameEquals(value, "keep-alive")) h.keep_alive = true;
    }
    h.headers.emplace_back(std::string(name), std::string(value));
  }
  if (h.chunked) h.content_length = -1;
  *out = std::move(h);
  return 1;
}

int ChunkedDecoder::Feed(std::string_view more, std::string* body, size_t* used) {
  const size_t given = more.size();
  while (!more.empty()) {
    switch (state_) {
      case State::kData: {
        const size_t n = static_cast<size_t>(std::min<uint64_t>(left_, more.size()));
        body->append(more.data(), n);
        more.remove_prefix(n);
        left_ -= n;
        if (left_ == 0) state_ = State::kDataEnd;
        break;
      }
      case State::kDataEnd:
        pending_.push_back(more[0]);
        more.remove_prefix(1);
        if (pending_.size() == 2) {
          if (pending_ != "\r\n") return -1;
          pending_.clear();
          state_ = State::kSize;
        }
        break;
      case State::kSize:
      case State::kTrailer: {
        const size_t lf = more.find('\n');
        pending_.append(more.substr(0, lf == std::string_view::npos ? more.size() : lf + 1));
        more.remove_prefix(lf == std::string_view::npos ? more.size() : lf + 1);
        if (pending_.size() > 4096) return -1;
        if (lf == std::string_view::npos) break;
        if (!pending_.ends_with("\r\n")) return -1;
        std::string_view line(pending_.data(), pending_.size() - 2);
        if (state_ == State::kTrailer) {
          const bool last = line.empty();
          pending_.clear();
          if (last) {
            *used = given - more.size();
            return 1;
          }
          break;
        }
        line = Trim(line.substr(0, line.find(';')));  // chunk extensions are ignored
        uint64_t size = 0;
        const auto [p, ec] = std::from_chars(line.data(), line.data() + line.size(), size, 16);
        if (line.empty() || ec != std::errc() || p != line.data() + line.size()) return -1;
        pending_.clear();
        left_ = size;
        state_ = size == 0 ? State::kTrailer : State::kData;
        break;
      }
    }
  }
  return 0;
}

struct PlainHttp::Pool {
  std::mutex mutex;
  std::map<std::string, std::vector<int>> idle;  // by "host port"
  ~Pool() {
    for (auto& [key, fds] : idle) {
      for (int fd : fds) CloseFd(fd);
    }
  }
};

PlainHttp::PlainHttp(const HttpClient::Options& options) : options_(options), pool_(new Pool) {}

PlainHttp::~PlainHttp() = default;

namespace {

bool Cancelled(const HttpClient::Options& o) {
  return o.cancel && o.cancel->load(std::memory_order_relaxed);
}

// Connects to host:port within the connect timeout: the socket, or -1 with *result's error set.
int Connect(const PlainTarget& t, const HttpClient::Options& o, HttpResult* result) {
  std::vector<std::string> hosts;
  if (t.host == "localhost") {
    hosts = {"127.0.0.1", "::1"};
  } else {
    hosts = {t.host};
  }
  int last_errno = ECONNREFUSED;
  bool timed_out = false;
  for (const std::string& host : hosts) {
    sockaddr_storage addr{};
    socklen_t len;
    const bool v6 = host.find(':') != std::string::npos;
    if (v6) {
      auto* a = reinterpret_cast<sockaddr_in6*>(&addr);
      a->sin6_family = AF_INET6;
      a->sin6_port = htons(t.port);
      ::inet_pton(AF_INET6, host.c_str(), &a->sin6_addr);
      len = sizeof(sockaddr_in6);
    } else {
      auto* a = reinterpret_cast<sockaddr_in*>(&addr);
      a->sin_family = AF_INET;
      a->sin_port = htons(t.port);
      ::inet_pton(AF_INET, host.c_str(), &a->sin_addr);
      len = sizeof(sockaddr_in);
    }
    const int fd = ::socket(v6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
      last_errno = errno;
      continue;
    }
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    ::setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one);
    int rc = ::connect(fd, reinterpret_cast<sockaddr*>(&addr), len);
    if (rc != 0 && errno == EINPROGRESS) {
      const auto deadline = Clock::now() + std::chrono::milliseconds(o.connect_timeout_ms);
      for (;;) {
        if (Cancelled(o)) {
          CloseFd(fd);
          result->error = TransportError::kInterrupted;
          result->message = "interrupted";
          return -1;
        }
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
        if (left.count() <= 0) break;
        pollfd p{fd, POLLOUT, 0};
        const int n = ::poll(&p, 1, static_cast<int>(std::min<int64_t>(left.count(), kSliceMs)));
        if (n > 0) break;
        if (n < 0 && errno != EINTR) break;
      }
      int err = 0;
      socklen_t err_len = sizeof err;
      pollfd p{fd, POLLOUT, 0};
      if (::poll(&p, 1, 0) <= 0) {
        timed_out = true;
        err = ETIMEDOUT;
      } else if (::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &err_len) != 0) {
        err = errno;
      }
      rc = err == 0 ? 0 : -1;
      errno = err;
    }
    if (rc == 0) return fd;
    last_errno = errno;
    CloseFd(fd);
  }
  result->error = timed_out ? TransportError::kConnectTimeout : TransportError::kConnect;
  result->message = "Failed to connect to " + t.host + " port " + std::to_string(t.port) + ": " +
                    (timed_out ? std::string("Connection timed out") : std::strerror(last_errno));
  return -1;
}

// Waits until fd is ready for `events`, at most `ms`, waking to see the cancel flag: 1 ready,
// 0 timed out, -1 cancelled.
int Wait(int fd, short events, int ms, const HttpClient::Options& o) {
  const auto deadline = Clock::now() + std::chrono::milliseconds(ms);
  for (;;) {
    if (Cancelled(o)) return -1;
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return 0;
    pollfd p{fd, events, 0};
    const int n = ::poll(
        &p, 1,
        o.cancel ? static_cast<int>(std::min<int64_t>(left, kSliceMs)) : static_cast<int>(left));
    if (n > 0) return 1;
    if (n < 0 && errno != EINTR) return 1;  // let send or recv say what is wrong
  }
}

// Sends `wire` and reads one response into *response. kStale: the connection was closed before
// any byte of an answer came (a kept-alive one the server had let go); *keep: whether the
// connection may carry another request.
End Exchange(int fd, std::string_view wire, const HttpClient::Options& o, HttpResult* result,
             bool* keep) {
  *keep = false;
  const auto fail = [&](TransportError e, std::string message) {
    result->error = e;
    result->message = std::move(message);
    return End::kFailed;
  };
  while (!wire.empty()) {
    const ssize_t n = ::send(fd, wire.data(), wire.size(), MSG_NOSIGNAL);
    if (n > 0) {
      wire.remove_prefix(static_cast<size_t>(n));
      continue;
    }
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
      const int w = Wait(fd, POLLOUT, o.read_timeout_ms, o);
      if (w < 0) return fail(TransportError::kInterrupted, "interrupted");
      if (w == 0) {
        return fail(TransportError::kReadTimeout,
                    "no progress for " + std::to_string(o.read_timeout_ms) + " ms");
      }
      continue;
    }
    if (errno == EPIPE || errno == ECONNRESET) return End::kStale;
    return fail(TransportError::kConnectionLost, std::string("send: ") + std::strerror(errno));
  }
  std::string in;
  ResponseHead head;
  bool have_head = false;
  ChunkedDecoder chunks;
  std::string& body = result->response.body;
  size_t body_from = 0;  // where the body starts in `in` (when not chunked)
  char buf[64 * 1024];
  bool received = false;
  for (;;) {
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
      const int w = Wait(fd, POLLIN, o.read_timeout_ms, o);
      if (w < 0) return fail(TransportError::kInterrupted, "interrupted");
      if (w == 0) {
        return fail(TransportError::kReadTimeout,
                    "no data for " + std::to_string(o.read_timeout_ms) + " ms");
      }
      continue;
    }
    if (n < 0 && !received && errno == ECONNRESET) return End::kStale;
    if (n < 0) {
      return fail(TransportError::kConnectionLost, std::string("recv: ") + std::strerror(errno));
    }
    if (n == 0) {  // the server closed the connection
      if (!received) return End::kStale;
      if (have_head && head.content_length < 0 && !head.chunked) {
        body.assign(in, body_from);
        result->response.status = head.status;
        result->response.headers = std::move(head.headers);
        return End::kDone;
      }
      return fail(TransportError::kConnectionLost,
                  "the server closed the connection before the whole response");
    }
    received = true;
    if (in.size() + body.size() > kMaxBody) {
      return fail(TransportError::kOther, "the answer is larger than 256 MB");
    }
    std::string_view more(buf, static_cast<size_t>(n));
    if (!have_head) {
      in.append(more);
      for (;;) {  // interim (1xx) heads are skipped
        const int r = ParseResponseHead(in, &head);
        if (r < 0) return fail(TransportError::kOther, "the answer is not an HTTP/1.x response");
        if (r == 0) break;
        if (head.status >= 200) {
          have_head = true;
          break;
        }
        in.erase(0, head.head_bytes);
      }
      if (!have_head) continue;
      if (head.status == 204 || head.status == 304) head.content_length = 0;
      more = std::string_view(in).substr(head.head_bytes);
      if (!head.chunked) {
        body_from = head.head_bytes;
        if (head.content_length >= 0) {
          if (static_cast<uint64_t>(head.content_length) > kMaxBody) {
            return fail(TransportError::kOther, "the answer is larger than 256 MB");
          }
          body.reserve(static_cast<size_t>(head.content_length));
          body.assign(more.substr(0, static_cast<size_t>(head.content_length)));
          if (more.size() > static_cast<size_t>(head.content_length))
            return fail(TransportError::kOther, "the answer has bytes past its Content-Length");
        }
        more = {};
      }
    } else if (!head.chunked && head.content_length >= 0) {
      if (body.size() + more.size() > static_cast<size_t>(head.content_length)) {
        return fail(TransportError::kOther, "the answer has bytes past its Content-Length");
      }
      body.append(more);
      more = {};
    } else if (!head.chunked) {
      in.append(more);  // read until the server closes
      continue;
    }
    if (head.chunked) {
      size_t used = 0;
      const int r = chunks.Feed(more, &body, &used);
      if (r < 0) return fail(TransportError::kOther, "malformed chunked encoding");
      if (r == 0) continue;
      if (used != more.size()) {
        return fail(TransportError::kOther, "the answer has bytes past its last chunk");
      }
    } else if (head.content_length < 0 || body.size() < static_cast<size_t>(head.content_length)) {
      continue;
    }
    result->response.status = head.status;
    result->response.headers = std::move(head.headers);
    *keep = head.keep_alive;
    return End::kDone;
  }
}

}  // namespace

HttpResult PlainHttp::Send(const HttpRequest& request, const PlainTarget& t) {
  const std::string key = t.host + " " + std::to_string(t.port);
  std::string wire;
  wire.reserve(request.body.size() + 768);
  wire.append(request.method).append(" ").append(t.target).append(" HTTP/1.1\r\n");
  bool host = false, length = false;
  for (const auto& [name, value] : request.headers) {
    host |= HeaderNameEquals(name, "host");
    length |= HeaderNameEquals(name, "content-length");
    wire.append(name).append(": ").append(value).append("\r\n");
  }
  if (!host) {
    const bool v6 = t.host.find(':') != std::string::npos;
    wire.append("Host: ").append(v6 ? "[" + t.host + "]" : t.host);
    if (t.port != 80) wire.append(":").append(std::to_string(t.port));
    wire.append("\r\n");
  }
  if (!length && (request.method != "GET" || !request.body.empty())) {
    wire.append("Content-Length: ").append(std::to_string(request.body.size())).append("\r\n");
  }
  wire.append("\r\n").append(request.body);

  for (int attempt = 0;; ++attempt) {
    HttpResult result;
    int fd = -1;
    bool reused = false;
    {
      std::lock_guard<std::mutex> lock(pool_->mutex);
      std::vector<int>& idle = pool_->idle[key];
      while (fd < 0 && !idle.empty()) {
        fd = idle.back();
        idle.pop_back();
        // A kept connection the server closed (or that has stray bytes) is dropped.
        char c;
        const ssize_t n = ::recv(fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);
        if (n >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) {
          CloseFd(fd);
          fd = -1;
        }
      }
    }
    reused = fd >= 0;
    if (fd < 0) {
      fd = Connect(t, options_, &result);
      if (fd < 0) return result;
    }
    bool keep = false;
    const End end = Exchange(fd, wire, options_, &result, &keep);
    if (end == End::kDone) {
      std::lock_guard<std::mutex> lock(pool_->mutex);
      std::vector<int>& idle = pool_->idle[key];
      if (keep && idle.size() < options_.max_idle) {
        idle.push_back(fd);
        fd = -1;
      }
    }
    CloseFd(fd);
    if (end == End::kStale) {
      // The server let a kept connection go: the request may not be sent again when it must
      // run at most once (it may have been read), as with libcurl.
      if (reused && !request.once && attempt == 0) continue;
      result.error = TransportError::kConnectionLost;
      result.message = "the server closed the connection before answering";
    }
    if (!result.ok()) result.response = HttpResponse();
    return result;
  }
}

}  // namespace keyhole::aws::internal
