#include "shell/terminal.h"

#include <signal.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace keyhole::shell {
namespace {

winsize Size() {
  winsize ws{};
  if (::ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) != 0) ws = winsize{};
  return ws;
}

// Whether `program` (no slash) is an executable on PATH, or a path to one.
bool OnPath(const std::string& program) {
  if (program.find('/') != std::string::npos) return ::access(program.c_str(), X_OK) == 0;
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    std::string dir = dirs.substr(start, end - start);
    if (dir.empty()) dir = ".";
    if (::access((dir + "/" + program).c_str(), X_OK) == 0) return true;
    start = end + 1;
  }
  return false;
}

}  // namespace

size_t TerminalColumns() { return Size().ws_col; }
size_t TerminalRows() { return Size().ws_row; }

std::string PagerCommand() {
  if (const char* pager = std::getenv("PAGER")) {
    std::string command = pager;
    std::string program = command.substr(0, command.find_first_of(" \t"));
    return !program.empty() && OnPath(program) ? command : "";
  }
  if (OnPath("less")) return "less -FRX";
  if (OnPath("more")) return "more";
  return "";
}

bool Page(std::string_view text) {
  const std::string command = PagerCommand();
  if (command.empty()) return false;
  std::fflush(stdout);
  std::FILE* pager = ::popen(command.c_str(), "w");
  if (!pager) return false;
  // A pager quit before reading everything closes the pipe: ignore SIGPIPE while writing.
  struct sigaction ignore {
  }, old{};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  ::sigaction(SIGPIPE, &ignore, &old);
  std::fwrite(text.data(), 1, text.size(), pager);
  ::pclose(pager);
  ::sigaction(SIGPIPE, &old, nullptr);
  return true;
}

}  // namespace keyhole::shell
