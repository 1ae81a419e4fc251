// Redirect: the file .output FILE and .once FILE send a session's results to instead of its
// sink. It owns the open file (closed by Finish(true) or the destructor) and keeps the errno of
// the first write that failed, so that nothing written to it is lost without a word. One
// session, one thread.
#pragma once

#include <cerrno>
#include <cstdio>
#include <string>
#include <string_view>
#include <utility>

#include "core/require.h"

namespace keyhole::shell {

class Redirect {
 public:
  Redirect() = default;
  Redirect(Redirect&& other) noexcept { *this = std::move(other); }
  Redirect& operator=(Redirect&& other) noexcept {
    std::swap(file_, other.file_);
    std::swap(path_, other.path_);
    std::swap(error_, other.error_);
    std::swap(once_, other.once_);
    return *this;
  }
  ~Redirect() {
    if (file_) std::fclose(file_);
  }

  // Opens `path` for writing, replacing what it held; `once`: to be closed when the running
  // statement ends. REQUIRES: !active(). Returns 0, or the OS's errno when it cannot.
  int Open(const std::string& path, bool once) {
    KH_REQUIRE(!active());
    file_ = std::fopen(path.c_str(), "w");
    if (!file_) return errno;
    path_ = path;
    once_ = once;
    error_ = 0;
    return 0;
  }
  bool active() const { return file_ != nullptr; }
  bool once() const { return once_; }
  const std::string& path() const { return path_; }

  void Write(std::string_view text) {
    if (std::fwrite(text.data(), 1, text.size(), file_) != text.size() && !error_) error_ = errno;
  }
  // Flushes, and with `close` closes, the file. Returns the errno of the first failure since the
  // last Finish (a write, the flush or the close), 0 when there was none or no file is open.
  int Finish(bool close) {
    if (!file_) return 0;
    int error = error_;
    if (!error && std::fflush(file_) != 0) error = errno;
    if (close) {
      if (std::fclose(file_) != 0 && !error) error = errno;
      file_ = nullptr;
      once_ = false;
    }
    error_ = 0;
    return error;
  }

 private:
  std::FILE* file_ = nullptr;
  std::string path_;
  int error_ = 0;  // the first failed write's errno
  bool once_ = false;
};

}  // namespace keyhole::shell
