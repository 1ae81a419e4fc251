// ConnectionGuard (connection_guard.h).
#include "server/connection_guard.h"

#include <linux/tcp.h>  // struct tcp_info with tcpi_bytes_received (glibc's lacks it)
#include <malloc.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>
#include <cstddef>
#include <optional>
#include <utility>

#include <fmt/format.h>

namespace keyhole::server {

struct ConnectionGuard::Connection {
  int fd = -1;
  Clock::time_point opened;
  Connection* prev = nullptr;  // the guard's list, under its mutex
  Connection* next = nullptr;
  std::mutex mutex;  // guards the members below
  Phase phase = Phase::kIdle;
  Clock::time_point started{};  // kArriving: when the request's first byte was seen
  uint64_t bytes_base = 0;      // bytes the socket had received when the last answer went
  // The last answer went at `answered` and bytes_base is still to be read (by the guard's
  // thread, not the event thread: a TCP_INFO per request cost a sixth of a GetItem's time).
  bool base_due = false;
  Clock::time_point answered{};
  bool served = false;      // a request was answered on it
  bool headers_in = false;  // the current request's headers are in (its body arrives)
};

namespace {

// What the kernel says of a TCP socket: bytes received since it opened, and when the last
// came (to a few milliseconds); nullopt when it does not say.
struct Received {
  uint64_t bytes;
  ConnectionGuard::Clock::time_point last;
};
std::optional<Received> ReceivedOn(int fd) {
  tcp_info info{};
  socklen_t length = sizeof info;
  if (::getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &length) != 0) return std::nullopt;
  if (length < offsetof(tcp_info, tcpi_bytes_received) + sizeof info.tcpi_bytes_received) {
    return std::nullopt;  // a kernel before 4.1
  }
  return Received{
      info.tcpi_bytes_received,
      ConnectionGuard::Clock::now() - std::chrono::milliseconds(info.tcpi_last_data_recv)};
}

std::string LateMessage(int seconds) {
  return fmt::format("The request did not arrive whole within {} second{}", seconds,
                     seconds == 1 ? "" : "s");
}

std::string Seconds(ConnectionGuard::Clock::duration d) {
  return fmt::format("{:.1f} s", std::chrono::duration<double>(d).count());
}

}  // namespace

std::string ConnectionGuard::RequestTimeoutAnswer(std::string_view message) {
  const std::string body = fmt::format(
      R"({{"__type":"com.amazon.coral.service#RequestTimeoutException","message":"{}"}})", message);
  return fmt::format(
      "HTTP/1.1 408 Request Timeout\r\nContent-Type: application/x-amz-json-1.0\r\n"
      "Content-Length: {}\r\nConnection: close\r\n\r\n{}",
      body.size(), body);
}

ConnectionGuard::ConnectionGuard(ConnectionGuardOptions options) : options_(std::move(options)) {
  thread_ = std::thread([this] { Run(); });
}

ConnectionGuard::~ConnectionGuard() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
  while (head_) {  // connections never Closed (a daemon that failed to start)
    Connection* c = head_;
    head_ = c->next;
    delete c;
  }
}

ConnectionGuard::Connection* ConnectionGuard::Opened(int fd) {
  auto* c = new Connection();
  c->fd = fd;
  c->opened = Clock::now();
  bool full = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    c->next = head_;
    if (head_) head_->prev = c;
    head_ = c;
    ++open_;
    peak_since_trim_ = std::max(peak_since_trim_, open_);
    if (open_ >= options_.max_connections) full = full_ = true;
  }
  if (full) wake_.notify_one();
  return c;
}

void ConnectionGuard::RequestLine(Connection* c) {
  std::lock_guard<std::mutex> lock(c->mutex);
  if (c->phase != Phase::kIdle) return;
  c->phase = Phase::kArriving;
  c->started = Clock::now();
}

bool ConnectionGuard::HeadersIn(Connection* c, Clock::time_point* started) {
  std::lock_guard<std::mutex> lock(c->mutex);
  if (c->phase == Phase::kCut) return false;
  if (c->phase != Phase::kArriving) {
    c->phase = Phase::kArriving;
    c->started = Clock::now();
  }
  c->headers_in = true;
  *started = c->started;
  return true;
}

bool ConnectionGuard::Arrived(Connection* c) {
  std::lock_guard<std::mutex> lock(c->mutex);
  if (c->phase == Phase::kCut) return false;
  c->phase = Phase::kAnswering;
  return true;
}

void ConnectionGuard::Answered(Connection* c) {
  std::lock_guard<std::mutex> lock(c->mutex);
  if (c->phase == Phase::kCut) return;
  c->phase = Phase::kIdle;
  c->served = true;
  c->headers_in = false;
  // A request that comes next shows as bytes past the count the guard reads next (Begun).
  c->base_due = true;
  c->answered = Clock::now();
}

bool ConnectionGuard::Begun(Connection* c, Clock::time_point now) {
  const std::optional<Received> r = ReceivedOn(c->fd);
  if (!r) return false;
  if (c->base_due) {
    c->base_due = false;
    c->bytes_base = r->bytes;
    // Bytes that came after the answer are a next request's, begun then.
    if (c->served && r->last > c->answered + std::chrono::milliseconds(10)) {
      c->phase = Phase::kArriving;
      c->started = r->last;
      return true;
    }
    return false;
  }
  if (r->bytes <= c->bytes_base) return false;
  c->phase = Phase::kArriving;
  c->started = now;
  return true;
}

void ConnectionGuard::CutLate(Connection* c) {
  {
    std::lock_guard<std::mutex> lock(c->mutex);
    if (c->phase == Phase::kCut) return;
    Cut(c, LateMessage(options_.request_timeout_seconds));
  }
  std::lock_guard<std::mutex> lock(mutex_);
  ++counts_.cut_late;
  ++late_pending_;
}

void ConnectionGuard::Closed(Connection* c) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (c->prev) c->prev->next = c->next;
    if (c->next) c->next->prev = c->prev;
    if (head_ == c) head_ = c->next;
    --open_;
  }
  delete c;
}

ConnectionGuard::Counts ConnectionGuard::counts() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return counts_;
}

void ConnectionGuard::Cut(Connection* c, std::string_view message) {
  if (!options_.tls && c->phase == Phase::kArriving) {
    // Small enough for any socket's send buffer: written whole or not at all (a client that
    // reads nothing may have filled it; then it gets the close alone).
    const std::string answer = RequestTimeoutAnswer(message);
    [[maybe_unused]] ssize_t sent =
        ::send(c->fd, answer.data(), answer.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
  }
  // Both ways: the client reads the answer and then the end; libmicrohttpd's event thread sees
  // the end of input and closes the connection (and calls Closed).
  ::shutdown(c->fd, SHUT_RDWR);
  c->phase = Phase::kCut;
}

void ConnectionGuard::Log(std::string_view line) const {
  if (options_.log) options_.log(line);
}

void ConnectionGuard::KeepRoom(Clock::time_point now) {
  // Candidates, oldest first: requests incomplete for a second at least (a burst of new
  // clients is not cut), and connections that have sent nothing for ten seconds (a pool that
  // connects and then waits a moment is not cut either).
  struct Candidate {
    Clock::duration age;
    Connection* c;
  };
  std::vector<Candidate> candidates;
  int cut_already = 0;
  for (Connection* c = head_; c; c = c->next) {
    std::lock_guard<std::mutex> lock(c->mutex);
    if (c->phase == Phase::kCut) {
      ++cut_already;
      continue;
    }
    if (c->phase == Phase::kIdle) Begun(c, now);  // (seen here too when there is no limit)
    const bool incomplete = c->phase == Phase::kArriving;
    const bool silent = c->phase == Phase::kIdle && !c->served;  // no byte yet
    if (!incomplete && !silent) continue;
    const Clock::duration age = now - (incomplete ? c->started : c->opened);
    if (age >= std::chrono::seconds(incomplete ? 1 : 10)) candidates.push_back({age, c});
  }
  const int reserve = std::max(1, options_.max_connections / 20);
  const int excess = open_ - cut_already - (options_.max_connections - reserve);
  if (excess <= 0 || candidates.empty()) return;
  const size_t n = std::min(candidates.size(), static_cast<size_t>(excess));
  std::partial_sort(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(n),
                    candidates.end(),
                    [](const Candidate& a, const Candidate& b) { return a.age > b.age; });
  for (size_t i = 0; i < n; ++i) {
    std::lock_guard<std::mutex> lock(candidates[i].c->mutex);
    Cut(candidates[i].c,
        "The server was at its connection limit and closed this request, the "
        "oldest still arriving");
  }
  counts_.cut_for_room += n;
  room_cut_pending_ += n;
  room_oldest_ = std::max(room_oldest_, candidates[0].age);
}

void ConnectionGuard::DueLines(Clock::time_point now, std::vector<std::string>* lines) {
  const int limit = options_.request_timeout_seconds;
  if (late_pending_ > 0 && now - last_late_log_ >= std::chrono::seconds(1)) {
    lines->push_back(fmt::format(
        "{} request{} did not arrive whole within {} s: {} ({} still in {} headers)", late_pending_,
        late_pending_ == 1 ? "" : "s", limit,
        options_.tls ? "closed (over TLS no 408 can be written)" : "answered 408 and closed",
        late_in_headers_pending_, late_pending_ == 1 ? "its" : "their"));
    late_pending_ = late_in_headers_pending_ = 0;
    last_late_log_ = now;
  }
  if (room_cut_pending_ > 0 && now - last_room_log_ >= std::chrono::seconds(1)) {
    lines->push_back(fmt::format(
        "at the connection limit ({}): closed {} incomplete request{} (the oldest arriving for "
        "{}) to keep room for others",
        options_.max_connections, room_cut_pending_, room_cut_pending_ == 1 ? "" : "s",
        Seconds(room_oldest_)));
    room_cut_pending_ = 0;
    room_oldest_ = {};
    last_room_log_ = now;
  }
}

void ConnectionGuard::Run() {
  using std::chrono::milliseconds;
  const int limit = options_.request_timeout_seconds;
  // A few looks per time limit: a request is cut within an eighth of it past the limit (at
  // most a second, at least a tenth).
  const Clock::duration tick =
      limit > 0 ? std::clamp<Clock::duration>(milliseconds(limit * 1000 / 8), milliseconds(100),
                                              milliseconds(1000))
                : milliseconds(1000);
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stopping_) {
    wake_.wait_for(lock, tick, [&] { return stopping_ || full_; });
    if (stopping_) break;
    const Clock::time_point now = Clock::now();
    std::vector<std::string> lines;
    if (limit > 0) {
      uint64_t late = 0, in_headers = 0;
      for (Connection* c = head_; c; c = c->next) {
        std::lock_guard<std::mutex> hold(c->mutex);
        if (c->phase == Phase::kIdle) Begun(c, now);
        if (c->phase == Phase::kArriving && now - c->started >= std::chrono::seconds(limit)) {
          in_headers += c->headers_in ? 0 : 1;
          Cut(c, LateMessage(limit));
          ++late;
        }
      }
      counts_.cut_late += late;
      late_pending_ += late;
      late_in_headers_pending_ += in_headers;
    }
    if (full_ || open_ >= options_.max_connections) KeepRoom(now);
    DueLines(now, &lines);
    full_ = false;
    // Most of a crowd gone: hand the freed connection buffers back to the system.
    bool trim = false;
    if (peak_since_trim_ >= 256 && open_ <= peak_since_trim_ / 4) {
      trim = true;
      peak_since_trim_ = open_;
    }
    lock.unlock();
    for (const std::string& line : lines) Log(line);
    if (trim) ::malloc_trim(0);
    lock.lock();
  }
}

}  // namespace keyhole::server
