// Helpers for storage tests that fork: a temporary directory, child processes, pipes.
//
// LMDB's rule: an environment must not be used across fork(). Tests open a Database only in a
// child after it was forked, and in the parent only while no child is running (or after
// closing it again before the next fork). A child never returns into GoogleTest: it reports
// through its exit code and stderr, and leaves with _exit.
#pragma once

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <exception>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace keyhole::forktest {

// A directory from mkdtemp under $TMPDIR (or /tmp), removed with its contents at destruction.
class TempDir {
 public:
  explicit TempDir(const std::string& tag) {
    const char* base = getenv("TMPDIR");
    std::string tmpl = std::string(base && *base ? base : "/tmp") + "/keyhole-" + tag + "-XXXXXX";
    if (::mkdtemp(tmpl.data()) != nullptr) path_ = tmpl;
  }
  ~TempDir() {
    if (path_.empty()) return;
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  bool ok() const { return !path_.empty(); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Runs `body` in a forked child and returns the child's pid (-1 when fork failed). The child
// exits with body's return value (99 when it throws) without returning to the caller.
inline pid_t ForkChild(const std::function<int()>& body) {
  fflush(nullptr);  // nothing buffered may be written twice
  pid_t pid = ::fork();
  if (pid != 0) return pid;
  int rc = 99;
  try {
    rc = body();
  } catch (const std::exception& e) {
    fprintf(stderr, "child %d: exception: %s\n", static_cast<int>(::getpid()), e.what());
  } catch (...) {
    fprintf(stderr, "child %d: unknown exception\n", static_cast<int>(::getpid()));
  }
  ::_exit(rc);
}

// Waits for `pid`; returns its wait status.
inline int WaitChild(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

inline std::string DescribeStatus(int status) {
  if (WIFEXITED(status)) return "exited with " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return "killed by signal " + std::to_string(WTERMSIG(status));
  return "status " + std::to_string(status);
}

// Writes all of [data, data+n) to fd; false on error.
inline bool WriteAll(int fd, const void* data, size_t n) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

// Reads what is available on fd into *out, waiting at most timeout_ms (0: do not wait).
// Returns false at end of file (the writers closed it) or on error.
inline bool ReadSome(int fd, int timeout_ms, std::string* out) {
  pollfd p{fd, POLLIN, 0};
  int r = ::poll(&p, 1, timeout_ms);
  if (r < 0) return errno == EINTR;
  if (r == 0) return true;
  char buf[4096];
  ssize_t n = ::read(fd, buf, sizeof buf);
  if (n < 0) return errno == EINTR || errno == EAGAIN;
  if (n == 0) return false;
  out->append(buf, static_cast<size_t>(n));
  return true;
}

// Reads fd to end of file into *out.
inline void ReadToEnd(int fd, std::string* out) {
  while (ReadSome(fd, -1, out)) {
  }
}

// A pipe whose ends are closed at destruction unless closed before.
class Pipe {
 public:
  Pipe() {
    if (::pipe(fds_) != 0) fds_[0] = fds_[1] = -1;
  }
  ~Pipe() {
    CloseRead();
    CloseWrite();
  }
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;
  bool ok() const { return fds_[0] >= 0; }
  int read_fd() const { return fds_[0]; }
  int write_fd() const { return fds_[1]; }
  void CloseRead() { Close(&fds_[0]); }
  void CloseWrite() { Close(&fds_[1]); }

 private:
  static void Close(int* fd) {
    if (*fd >= 0) ::close(*fd);
    *fd = -1;
  }
  int fds_[2];
};

// Blocks until the write end of `go` is closed by everyone: a start line for several children.
inline void AwaitStart(Pipe* go) {
  go->CloseWrite();
  std::string ignored;
  ReadToEnd(go->read_fd(), &ignored);
}

}  // namespace keyhole::forktest
