// keyhole: the shell's command line (design.md "The shell's contract").
//
//   keyhole [FILE] [-f SCRIPT]... [-c STATEMENT]... [--patterns FILE]... [--bail] [--echo]
//           [--mode MODE] [--readonly] [--version]
//
// With -f / -c the statements run in the order given and keyhole exits; without them, a REPL
// when standard input is a terminal, else a script read from standard input. The exit status
// is 1 when any statement failed (or a transaction was left open), 2 for a bad command line,
// 130 when Ctrl-C stopped a script.
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <iterator>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cli/malloc_tuning.h"
#include "parser/expression_parser.h"
#include "shell/repl.h"
#include "shell/session.h"
#include "storage/database.h"

namespace {

constexpr char kUsage[] =
    "usage: keyhole [FILE] [-f SCRIPT]... [-c STATEMENT]... [--patterns FILE]... [--bail]\n"
    "               [--echo] [--mode MODE] [--readonly] [--version]\n"
    "       keyhole serve FILE [--host ADDRESS] [--port PORT] ...  (keyhole serve --help)\n"
    "  FILE          the database (default keyhole.kh, created when missing)\n"
    "  -f SCRIPT     run the statements and dot-commands of SCRIPT\n"
    "  -c STATEMENT  run STATEMENT (a trailing ';' is optional)\n"
    "  --patterns F  run the named access patterns of F (.patterns): exit 1 on a Scan or refusal\n"
    "  --bail        stop at the first failing statement\n"
    "  --echo        print each statement and dot-command before running it\n"
    "  --mode MODE   box, table, line, json, ddb or csv (default: box on a terminal, else ddb)\n"
    "  --readonly    open FILE for reads only (as when FILE is not writable)\n"
    "  --version     print keyhole's version\n"
    "Without -f/-c: an interactive prompt on a terminal, else a script on standard input.\n"
    "In csv, json and ddb modes standard output carries only data; footers and notices go to\n"
    "standard error.\n";

std::string HistoryPath() {
  if (const char* p = std::getenv("KEYHOLE_HISTORY")) return p;
  if (const char* home = std::getenv("HOME")) return std::string(home) + "/.keyhole_history";
  return "";
}

// Ctrl-C while a script runs: the running statement stops at its next page or operation and
// the script ends with one line saying where. A second Ctrl-C ends the process
// (SA_RESETHAND restores the default action).
void OnSigint(int) { keyhole::shell::Session::Interrupt(); }

// SIGTERM or SIGHUP (`timeout`, a CI runner, a closed terminal): the running statement stops
// as for Ctrl-C, saying what it discarded, no more input is read, and EndProcess ends the
// process by the signal. A second one ends it at once (SA_RESETHAND).
void OnTerminate(int sig) { keyhole::shell::Session::Terminate(sig); }

// Catches SIGTERM and SIGHUP unless they are ignored (nohup, `trap '' TERM`: they stay so) or
// one already came. `restart`: system calls they interrupt resume (SA_RESTART), as statements
// need; without it, a blocked open() or read() of a script (a FIFO, a pipe) returns EINTR.
void CatchTerminationSignals(bool restart = true) {
  if (keyhole::shell::Session::termination_signal() != 0) return;
  for (int sig : {SIGTERM, SIGHUP}) {
    struct sigaction old {};
    if (sigaction(sig, nullptr, &old) != 0 || old.sa_handler == SIG_IGN) continue;
    struct sigaction on_terminate {};
    on_terminate.sa_handler = OnTerminate;
    sigemptyset(&on_terminate.sa_mask);
    on_terminate.sa_flags = (restart ? SA_RESTART : 0) | SA_RESETHAND;
    sigaction(sig, &on_terminate, nullptr);
  }
}

// The process's end once its work stopped: `code`, or, after SIGTERM or SIGHUP, one line that
// says so and the signal's own default action (so a parent sees the signal, as without us).
int EndProcess(int code) {
  const int sig = keyhole::shell::Session::termination_signal();
  if (sig == 0) return code;
  std::fflush(stdout);
  std::fprintf(stderr, "keyhole: stopped by %s\n", sig == SIGTERM ? "SIGTERM" : "SIGHUP");
  std::signal(sig, SIG_DFL);
  std::raise(sig);
  return 128 + sig;
}

// What keeps `path` from being opened or created, found before LMDB is asked (LMDB reports
// the OS's error without the culprit: a missing directory, a file used as one). OK when nothing
// is known to be wrong. The OS's words come first; what they mean follows in parentheses.
keyhole::Status OpenProblem(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) == 0) return keyhole::Status::OK();
  const int error = errno;
  const std::string os = path + ": " + std::strerror(error);
  if (error == ENOENT) {
    const size_t slash = path.find_last_of('/');
    const std::string dir = slash == std::string::npos ? "."
                            : slash == 0               ? "/"
                                                       : path.substr(0, slash);
    struct stat ds;
    if (::stat(dir.c_str(), &ds) != 0 && errno == ENOENT) {
      return keyhole::Status::NotFound(os + " (the directory " + dir +
                                       " does not exist: create it first, or give another path)");
    }
    return keyhole::Status::OK();  // a new database
  }
  if (error == ENOTDIR) {
    // The first leading part of the path that exists and is not a directory.
    for (size_t slash = path.find('/', 1); slash != std::string::npos;
         slash = path.find('/', slash + 1)) {
      const std::string part = path.substr(0, slash);
      struct stat ps;
      if (::stat(part.c_str(), &ps) == 0 && !S_ISDIR(ps.st_mode)) {
        return keyhole::Status::NotFound(os + " (" + part + " is a file, not a directory)");
      }
    }
    return keyhole::Status::NotFound(os);
  }
  if (error == EACCES || error == EPERM) return keyhole::Status::AccessDenied(os);
  if (error == ENAMETOOLONG || error == ELOOP) return keyhole::Status::Validation(os);
  return keyhole::Status::OK();
}

// Whether the start of `path` reads like a script (a ';' in its first 4 KB).
bool LooksLikeScript(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  char head[4096];
  const size_t n = std::fread(head, 1, sizeof head, f);
  std::fclose(f);
  return std::memchr(head, ';', n) != nullptr;
}

// `keyhole serve ...`: runs keyhole-serve, from this executable's directory, in this process's
// place (same PID, same arguments). Returns only when it cannot be run.
int ExecServe(char** argv) {
  std::string self(4096, '\0');
  const ssize_t n = ::readlink("/proc/self/exe", self.data(), self.size() - 1);
  self.resize(n > 0 ? static_cast<size_t>(n) : 0);
  const size_t slash = self.rfind('/');
  const std::string serve =
      (slash == std::string::npos ? std::string(".") : self.substr(0, slash)) + "/keyhole-serve";
  ::execv(serve.c_str(), argv);
  std::fprintf(stderr,
               "keyhole: serve: cannot run %s: %s (keyhole-serve is built beside keyhole)\n",
               serve.c_str(), std::strerror(errno));
  return 2;
}

int BadUsage(const std::string& message) {
  std::fprintf(stderr, "keyhole: %s\n%s", message.c_str(), kUsage);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  keyhole::TuneMalloc();
  if (argc > 1 && std::string_view(argv[1]) == "serve") return ExecServe(argv);
  using keyhole::shell::OutputMode;
  std::string path = "keyhole.kh";
  // ('f', file), ('c', statement) or ('p', patterns file), in command-line order
  std::vector<std::pair<char, std::string>> actions;
  bool bail = false, echo = false, have_path = false, read_only = false;
  std::optional<OutputMode> mode;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    const bool takes_value = a == "-f" || a == "-c" || a == "--patterns" || a == "--mode";
    if (takes_value && i + 1 >= argc) {
      const char* what = a == "-f"           ? "a script file"
                         : a == "-c"         ? "a statement"
                         : a == "--patterns" ? "a patterns file"
                                             : "a mode (box, table, line, json, ddb or csv)";
      return BadUsage(a + " needs " + what);
    }
    if (a == "-f" || a == "-c") {
      actions.emplace_back(a[1], argv[++i]);
    } else if (a == "--patterns") {
      actions.emplace_back('p', argv[++i]);
    } else if (a == "--bail") {
      bail = true;
    } else if (a == "--echo") {
      echo = true;
    } else if (a == "--readonly") {
      read_only = true;
    } else if (a == "--mode") {
      mode = keyhole::shell::ParseOutputMode(argv[++i]);
      if (!mode) return BadUsage(std::string("unknown mode '") + argv[i] + "'");
    } else if (a == "-h" || a == "--help") {
      std::printf("%s", kUsage);
      return 0;
    } else if (a == "--version" || a == "-V") {
      std::printf("keyhole %s\n", KEYHOLE_VERSION);
      return 0;
    } else if (!a.empty() && a[0] != '-' && !have_path) {
      path = a;
      have_path = true;
    } else {
      return BadUsage("unexpected argument '" + a + "'");
    }
  }

  // Open the database: a new file (or an empty one, as sqlite3 takes it) is said to be new; a
  // file this user may not write opens read-only, as sqlite3 does.
  if (keyhole::Status problem = OpenProblem(path); !problem.ok()) {
    std::fprintf(stderr, "keyhole: %s\n", problem.ToString().c_str());
    return 1;
  }
  struct stat st;
  const bool missing = ::stat(path.c_str(), &st) != 0 && errno == ENOENT;
  const bool is_new = missing || (S_ISREG(st.st_mode) && st.st_size == 0);
  if (!missing && !read_only && S_ISREG(st.st_mode) && ::access(path.c_str(), W_OK) != 0) {
    read_only = true;
  }
  static const keyhole::parser::NativeExpressionParser parser;
  keyhole::storage::Database::Options options;
  options.expression_parser = &parser;
  options.read_only = read_only;
  auto db = keyhole::storage::Database::Open(path, options);
  if (!db.ok()) {
    const keyhole::Status& s = db.status();
    std::string message = s.message();
    if (s.code() == keyhole::ErrorCode::kDatabaseFormat &&
        message.find("text file") != std::string::npos && LooksLikeScript(path)) {
      message += "; to run it as a script: keyhole DB -f " + path;
    }
    std::fprintf(stderr, "keyhole: %s: %s\n", std::string(s.name()).c_str(), message.c_str());
    return 1;
  }
  std::string opened;
  if (is_new) opened = "a new, empty database";
  if (read_only) opened = "read-only: writes are refused";

  const bool interactive = actions.empty() && ::isatty(0);
  keyhole::shell::StdioSink sink;
  keyhole::shell::Session session(**db, db->get(), path, sink);
  keyhole::shell::Settings& settings = session.settings();
  settings.mode = mode ? *mode : (::isatty(1) ? OutputMode::kBox : OutputMode::kDdb);
  settings.bail = bail;
  settings.echo = echo;
  settings.terminal = interactive && ::isatty(1);
  if (interactive) {
    keyhole::shell::ReplOptions repl;
    repl.banner = "keyhole " KEYHOLE_VERSION " — " + path +
                  (opened.empty() ? "" : " (" + opened + ")") +
                  "\nStatements end with ';'. .help lists the commands.\n";
    repl.history_path = HistoryPath();
    CatchTerminationSignals();
    return EndProcess(keyhole::shell::RunRepl(session, repl));
  }
  if (!opened.empty()) std::fprintf(stderr, "-- %s: %s\n", path.c_str(), opened.c_str());

  struct sigaction on_sigint {};
  on_sigint.sa_handler = OnSigint;
  sigemptyset(&on_sigint.sa_mask);
  on_sigint.sa_flags = SA_RESTART | SA_RESETHAND;
  sigaction(SIGINT, &on_sigint, nullptr);

  bool ok = true;
  std::string stdin_script;
  // A script on standard input. Until it is read, nothing ran: SIGTERM's default action, which
  // ends the wait for its end, loses nothing.
  if (actions.empty()) {
    stdin_script.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  }
  CatchTerminationSignals();
  if (actions.empty()) ok = session.RunFile(stdin_script, "stdin");
  int statement_args = 0;
  for (const auto& [kind, arg] : actions) {
    if (session.quit_requested() || (!ok && bail) || session.interrupted()) break;
    if (kind == 'c') {  // errors say which -c: "at -c #2 line 1"
      ok &= session.RunScript(arg, "-c #" + std::to_string(++statement_args));
      continue;
    }
    std::string script;
    CatchTerminationSignals(/*restart=*/false);  // a script that never comes (a FIFO) is left
    const bool read = keyhole::shell::ReadWholeFile(arg, &script);
    const int read_error = errno;
    CatchTerminationSignals();
    if (!read) {
      if (keyhole::shell::Session::termination_signal() == 0) {
        std::fprintf(stderr, "keyhole: cannot read %s: %s\n", arg.c_str(),
                     std::strerror(read_error));
      }
      ok = false;
      break;
    }
    ok &= kind == 'p' ? session.RunPatterns(script, arg) : session.RunFile(script, arg);
  }
  ok &= session.Finish();
  // Output that could not be written (a full disk, a closed pipe's reader gone) is lost data.
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    std::fprintf(stderr, "keyhole: writing standard output: %s\n", std::strerror(errno));
    return EndProcess(1);
  }
  if (session.interrupted()) return EndProcess(130);
  return EndProcess(ok ? 0 : 1);
}
