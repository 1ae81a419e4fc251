// The time limit on a request's arrival, and room at the connection limit, for HttpServer
// (http.h): a thread that looks at every open connection a few times a second.
//
// - A request must arrive whole (request line, headers and body) within request_timeout,
//   counted from its first byte, whatever the trickle and whether or not bytes still come: a
//   request still arriving past it is answered 408 RequestTimeoutException (over plain HTTP;
//   over TLS it is closed unanswered, the guard cannot write into a TLS session) and its
//   connection shut down. The first byte of a request is seen from the kernel's count of bytes
//   received on the socket (TCP_INFO), so a request line dribbled in counts too; a connection
//   that sends nothing is idle, and idle_timeout's (libmicrohttpd's) to close.
// - At max_connections, new connections wait in the listen queue. Whenever the count reaches
//   it, the connections holding requests incomplete for a second or more (and those that have
//   never sent a byte, for ten seconds or more) are closed, oldest first, down to max_connections
//   minus a reserve (a twentieth, at least one), so that slow or silent clients cannot keep normal
//   ones out; the log says so, a line a second at most.
// - Once most of a crowd of connections has gone, freed memory is handed back to the system
//   (malloc_trim): libmicrohttpd's 32 KB connection buffers come from malloc's heap, which
//   otherwise keeps them.
//
// The HttpServer tells the guard what each connection does (Opened ... Closed) from its event
// threads; a connection's socket is shut down by the guard only while it is registered, and
// Closed() is called before libmicrohttpd closes the descriptor, so a reused descriptor is never
// touched.
//
// Thread-safety: every member may be called from any thread; a Connection* is valid from
// Opened() until Closed() returns.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace keyhole::server {

struct ConnectionGuardOptions {
  int request_timeout_seconds = 60;  // 0: no time limit (room is still kept)
  int max_connections = 10000;
  bool tls = false;  // no 408 can be written into a TLS session: cut connections are closed
  // One line, without its newline, for the server's log (standard error); null: none.
  std::function<void(std::string_view)> log;
};

class ConnectionGuard {
 public:
  using Clock = std::chrono::steady_clock;
  struct Connection;  // owned by the guard

  explicit ConnectionGuard(ConnectionGuardOptions options);
  ~ConnectionGuard();  // stops the thread; every connection must have been Closed()
  ConnectionGuard(const ConnectionGuard&) = delete;
  ConnectionGuard& operator=(const ConnectionGuard&) = delete;

  // A connection accepted on socket `fd`.
  Connection* Opened(int fd);
  // Its request line was read (before its headers are in).
  void RequestLine(Connection* c);
  // Its headers are in: false when the guard has already cut it (close it). *started: when the
  // request's first byte came.
  bool HeadersIn(Connection* c, Clock::time_point* started);
  // Its request arrived whole and is being answered: false when the guard has already cut it.
  bool Arrived(Connection* c);
  // Its answer was sent (or the request ended otherwise): the connection is idle again.
  void Answered(Connection* c);
  // A request found late by the server itself while its body arrived: answered 408 (plain
  // HTTP) and shut down, as the guard does; the caller then closes it.
  void CutLate(Connection* c);
  // It is closing: called before its descriptor is closed. `c` is freed.
  void Closed(Connection* c);

  // Counts since the start (for tests and the stop line).
  struct Counts {
    uint64_t cut_late = 0;      // requests answered 408 (or closed) past the time limit
    uint64_t cut_for_room = 0;  // incomplete requests closed at the connection limit
  };
  Counts counts() const;

  // The 408 answer's bytes, as written on the socket: `message` in DynamoDB's error shape.
  static std::string RequestTimeoutAnswer(std::string_view message);

 private:
  enum class Phase { kIdle, kArriving, kAnswering, kCut };
  void Run();
  // Writes the 408 (plain HTTP) and shuts the socket down. REQUIRES: c->mutex held.
  void Cut(Connection* c, std::string_view message);
  // Closes the oldest incomplete requests when at the limit. REQUIRES: mutex_ held.
  void KeepRoom(Clock::time_point now);
  // The log's lines due at `now`. REQUIRES: mutex_ held.
  void DueLines(Clock::time_point now, std::vector<std::string>* lines);
  void Log(std::string_view line) const;
  // For an idle connection: whether a request has begun arriving on it (then it is marked
  // so). REQUIRES: c->mutex held.
  bool Begun(Connection* c, Clock::time_point now);

  const ConnectionGuardOptions options_;
  mutable std::mutex mutex_;  // guards the members below and the list of connections
  Connection* head_ = nullptr;
  int open_ = 0;
  int peak_since_trim_ = 0;
  Counts counts_;
  bool full_ = false;  // a connection was opened at the limit: keep room now
  bool stopping_ = false;
  // What the log has yet to say (a line a second at most of each kind).
  uint64_t late_pending_ = 0, late_in_headers_pending_ = 0, room_cut_pending_ = 0;
  Clock::duration room_oldest_{};
  Clock::time_point last_late_log_{}, last_room_log_{};
  std::condition_variable wake_;
  std::thread thread_;
};

}  // namespace keyhole::server
