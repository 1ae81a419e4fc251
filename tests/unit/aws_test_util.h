// What the aws/ tests share: a temporary HOME with files in it, an Environment of their own,
// and a loopback HTTP stand-in (cpp-httplib's server) for STS, SSO and the metadata services.
#pragma once

#include <httplib.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <thread>

#include "aws/config.h"

namespace keyhole::aws::testing {

// A temporary directory, removed with everything in it.
class TempHome {
 public:
  TempHome() {
    char tmpl[] = "/tmp/keyhole-aws-test-XXXXXX";
    dir_ = ::mkdtemp(tmpl);
  }
  ~TempHome() { std::filesystem::remove_all(dir_); }
  const std::string& dir() const { return dir_; }
  // Writes `text` to dir()/relative (directories made), with `mode`; returns the full path.
  std::string Write(const std::string& relative, const std::string& text, int mode = 0600) {
    const std::string path = dir_ + "/" + relative;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    std::ofstream(path, std::ios::binary) << text;
    ::chmod(path.c_str(), mode);
    return path;
  }
  bool Exists(const std::string& relative) const {
    return std::filesystem::exists(dir_ + "/" + relative);
  }

 private:
  std::string dir_;
};

// An environment of exactly `vars` (HOME among them, usually).
inline Environment EnvOf(std::map<std::string, std::string> vars) {
  return Environment{[vars = std::move(vars)](std::string_view name) -> std::optional<std::string> {
    auto it = vars.find(std::string(name));
    if (it == vars.end()) return std::nullopt;
    return it->second;
  }};
}

// A cpp-httplib server on a free loopback port, served on its own thread until destroyed.
class StandIn {
 public:
  httplib::Server server;
  StandIn() = default;
  ~StandIn() { Stop(); }
  // Call after the handlers are registered.
  void Start() {
    port_ = server.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server.listen_after_bind(); });
  }
  void Stop() {
    if (thread_.joinable()) {
      server.stop();
      thread_.join();
    }
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }

 private:
  int port_ = 0;
  std::thread thread_;
};

}  // namespace keyhole::aws::testing
