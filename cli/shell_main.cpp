// The shell's command line and its run (shell_main.h).
#include "cli/shell_main.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <iterator>
#include <string_view>

#include "shell/repl.h"
#include "shell/session.h"

namespace keyhole::cli {

namespace {

constexpr char kUsage[] =
    "usage: keyhole [FILE] [-f SCRIPT]... [-c STATEMENT]... [--patterns FILE]... [--bail]\n"
    "               [--plan [--scale N] [--prices FILE] [--region R]]\n"
    "               [--import-model MODEL.json]... [--draw TABLE[.INDEX] [-o FILE]]...\n"
    "               [--echo] [--mode MODE] [--readonly] [--yes]\n"
    "               [--version]\n"
    "       keyhole --endpoint URL | --region R | --profile P [options as above]\n"
    "               [--ca-bundle FILE] [--max-attempts N] [--connect-timeout S]\n"
    "               [--read-timeout S]\n"
    "       keyhole serve FILE [--host ADDRESS] [--port PORT] ...  (keyhole serve --help)\n"
    "  FILE          the database (default keyhole.kh, created when missing)\n"
    "  -f SCRIPT     run the statements and dot-commands of SCRIPT (- for standard input)\n"
    "  -c STATEMENT  run STATEMENT (a trailing ';' is optional)\n"
    "  --patterns F  run the named access patterns of F (.patterns): exit 1 on a Scan or refusal\n"
    "  --plan        after each --patterns, the plan of their rates ('-- rate: N/s'): units per\n"
    "                second, cost per month, hot partitions (.plan); with --scale N (the file\n"
    "                holds 1/N of the items), --prices FILE, and --region R for the prices\n"
    "  --import-model MODEL.json  create the tables and items of a NoSQL Workbench data model\n"
    "  --draw TABLE[.INDEX] [-o FILE]  a picture of it: FILE.html (the default, TABLE.html) or\n"
    "                FILE.svg (.draw)\n"
    "  --bail        stop at the first failing statement\n"
    "  --echo        print each statement and dot-command before running it\n"
    "  --mode MODE   box, table, line, json, ddb or csv (default: box on a terminal, else ddb)\n"
    "  --readonly    refuse every write and table change (a file: open it for reads only)\n"
    "  --yes         on an endpoint, run DROP TABLE, SCAN UPDATE and SCAN DELETE without asking\n"
    "  --version     print keyhole's version\n"
    "On an endpoint instead of a file (Amazon DynamoDB or a compatible one):\n"
    "  --endpoint URL  http(s)://HOST[:PORT] (else AWS_ENDPOINT_URL_DYNAMODB, AWS_ENDPOINT_URL,\n"
    "                  the profile's endpoint_url, or DynamoDB's endpoint in the region)\n"
    "  --region R      the region (else AWS_REGION, AWS_DEFAULT_REGION, the profile's region)\n"
    "  --profile P     the AWS profile for credentials and settings (else AWS_PROFILE)\n"
    "  --ca-bundle F   trust the certificates in F (else AWS_CA_BUNDLE; the system's store)\n"
    "  --max-attempts N  attempts per request, retries included (default 3)\n"
    "  --connect-timeout S, --read-timeout S  seconds (defaults 10 and 60)\n"
    "Credentials come from where the AWS CLI finds them, in its order. Without a FILE,\n"
    "AWS_ENDPOINT_URL_DYNAMODB or AWS_ENDPOINT_URL also opens the shell on that endpoint.\n"
    "Without -f/-c: an interactive prompt on a terminal, else a script on standard input.\n"
    "In csv, json and ddb modes standard output carries only data; footers and notices go to\n"
    "standard error.\n";

// `word` as one argument of a dot-command: in single quotes, or double ones when it holds a
// single quote (the dot-command splitter has no escapes).
std::string QuotedWord(const std::string& word) {
  return word.find('\'') == std::string::npos ? "'" + word + "'" : "\"" + word + "\"";
}

int BadUsage(const std::string& message) {
  std::fprintf(stderr, "keyhole: %s\n%s", message.c_str(), kUsage);
  return 2;
}

std::string HistoryPath() {
  if (const char* p = std::getenv("KEYHOLE_HISTORY")) return p;
  if (const char* home = std::getenv("HOME")) return std::string(home) + "/.keyhole_history";
  return "";
}

// Ctrl-C while a script runs: the running statement stops at its next page or operation and
// the script ends with one line saying where. A second Ctrl-C ends the process
// (SA_RESETHAND restores the default action).
void OnSigint(int) { shell::Session::Interrupt(); }

// SIGTERM or SIGHUP (`timeout`, a CI runner, a closed terminal): the running statement stops
// as for Ctrl-C, saying what it discarded, no more input is read, and EndProcess ends the
// process by the signal. A second one ends it at once (SA_RESETHAND).
void OnTerminate(int sig) { shell::Session::Terminate(sig); }

// Catches SIGTERM and SIGHUP unless they are ignored (nohup, `trap '' TERM`: they stay so) or
// one already came. `restart`: system calls they interrupt resume (SA_RESTART), as statements
// need; without it, a blocked open() or read() of a script (a FIFO, a pipe) returns EINTR.
void CatchTerminationSignals(bool restart = true) {
  if (shell::Session::termination_signal() != 0) return;
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
  const int sig = shell::Session::termination_signal();
  if (sig == 0) return code;
  std::fflush(stdout);
  std::fprintf(stderr, "keyhole: stopped by %s\n", sig == SIGTERM ? "SIGTERM" : "SIGHUP");
  std::signal(sig, SIG_DFL);
  std::raise(sig);
  return 128 + sig;
}

// A number of seconds from 0.001 to 3600.
bool ParseSeconds(const std::string& text, double* out) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0' || !(v >= 0.001 && v <= 3600)) return false;
  *out = v;
  return true;
}

}  // namespace

int ParseShellArgs(int argc, char** argv, ShellArgs* out) {
  ShellArgs& a = *out;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool takes_value = arg == "-f" || arg == "-c" || arg == "--patterns" ||
                             arg == "--import-model" || arg == "--draw" || arg == "-o" ||
                             arg == "--mode" || arg == "--endpoint" || arg == "--region" ||
                             arg == "--profile" || arg == "--ca-bundle" ||
                             arg == "--max-attempts" || arg == "--connect-timeout" ||
                             arg == "--read-timeout" || arg == "--scale" || arg == "--prices";
    if (takes_value && i + 1 >= argc) {
      const char* what = arg == "-f"               ? "a script file"
                         : arg == "-c"             ? "a statement"
                         : arg == "--patterns"     ? "a patterns file"
                         : arg == "--import-model" ? "a NoSQL Workbench model file"
                         : arg == "--draw"         ? "a table (TABLE or TABLE.INDEX)"
                         : arg == "-o"             ? "a file (FILE.html or FILE.svg)"
                         : arg == "--mode"         ? "a mode (box, table, line, json, ddb or csv)"
                         : arg == "--endpoint"     ? "a URL (http://HOST:PORT or https://HOST)"
                         : arg == "--region"       ? "a region (us-east-1, ...)"
                         : arg == "--profile"      ? "a profile name"
                         : arg == "--ca-bundle"    ? "a PEM file of certificates"
                         : arg == "--prices"       ? "a prices file (JSON)"
                                                   : "a number";
      return BadUsage(arg + " needs " + what);
    }
    if (arg == "-f" || arg == "-c") {
      a.actions.emplace_back(arg[1], argv[++i]);
    } else if (arg == "--patterns") {
      a.actions.emplace_back('p', argv[++i]);
    } else if (arg == "--draw") {  // TABLE or TABLE.INDEX: .draw tells them apart
      a.actions.emplace_back('c', ".draw " + QuotedWord(argv[++i]));
    } else if (arg == "-o") {
      if (a.actions.empty() || !a.actions.back().second.starts_with(".draw ")) {
        return BadUsage("-o names the file of a --draw before it");
      }
      a.actions.back().second += " TO " + QuotedWord(argv[++i]);
    } else if (arg == "--import-model") {
      std::string quoted = argv[++i];
      a.actions.emplace_back('c', ".import-model " + QuotedWord(quoted));
    } else if (arg == "--plan") {
      a.plan = true;
    } else if (arg == "--scale") {
      char* end = nullptr;
      a.plan_options.scale = std::strtod(argv[++i], &end);
      if (*end != '\0' || end == argv[i] || !(a.plan_options.scale >= 1) ||
          !std::isfinite(a.plan_options.scale)) {
        return BadUsage(std::string("bad --scale '") + argv[i] +
                        "' (N of at least 1: the file holds 1/N of the items)");
      }
    } else if (arg == "--prices") {
      a.plan_options.prices_path = argv[++i];
    } else if (arg == "--bail") {
      a.bail = true;
    } else if (arg == "--echo") {
      a.echo = true;
    } else if (arg == "--readonly") {
      a.read_only = true;
    } else if (arg == "--yes") {
      a.yes = true;
    } else if (arg == "--mode") {
      a.mode = shell::ParseOutputMode(argv[++i]);
      if (!a.mode) return BadUsage(std::string("unknown mode '") + argv[i] + "'");
    } else if (arg == "--endpoint") {
      a.endpoint = argv[++i];
      if (a.endpoint.empty()) return BadUsage("--endpoint needs a URL");
    } else if (arg == "--region") {
      a.region = argv[++i];
      if (a.region.empty()) return BadUsage("--region needs a region");
    } else if (arg == "--profile") {
      a.profile = argv[++i];
      if (a.profile.empty()) return BadUsage("--profile needs a profile name");
    } else if (arg == "--ca-bundle") {
      a.ca_bundle = argv[++i];
    } else if (arg == "--max-attempts") {
      char* end = nullptr;
      const long n = std::strtol(argv[++i], &end, 10);
      if (*end != '\0' || end == argv[i] || n < 1 || n > 100) {
        return BadUsage(std::string("bad --max-attempts '") + argv[i] + "' (1 to 100)");
      }
      a.max_attempts = static_cast<int>(n);
    } else if (arg == "--connect-timeout" || arg == "--read-timeout") {
      double& target = arg == "--connect-timeout" ? a.connect_timeout : a.read_timeout;
      if (!ParseSeconds(argv[++i], &target)) {
        return BadUsage("bad " + arg + " '" + argv[i] + "' (seconds, up to 3600)");
      }
    } else if (arg == "-h" || arg == "--help") {
      std::printf("%s", kUsage);
      return 0;
    } else if (arg == "--version" || arg == "-V") {
      std::printf("keyhole %s\n", KEYHOLE_VERSION);
      return 0;
    } else if (!arg.empty() && arg[0] != '-' && !a.have_path) {
      a.path = arg;
      a.have_path = true;
    } else {
      return BadUsage("unexpected argument '" + arg + "'");
    }
  }
  if (a.plan || a.plan_options.scale != 1 || !a.plan_options.prices_path.empty()) {
    const bool patterns =
        std::ranges::any_of(a.actions, [](const auto& x) { return x.first == 'p'; });
    if (!a.plan) return BadUsage("--scale and --prices are for --plan");
    if (!patterns) return BadUsage("--plan needs --patterns FILE: the patterns and their rates");
    // On a file, --region chooses the prices; on an endpoint it is also the endpoint's.
    a.plan_options.region = a.region;
    if (a.have_path) a.region.clear();
  }
  const bool endpoint_flags = !a.endpoint.empty() || !a.region.empty() || !a.profile.empty();
  if (a.have_path && endpoint_flags) {
    return BadUsage("give a FILE or an endpoint (--endpoint, --region, --profile), not both");
  }
  if (!endpoint_flags &&
      (!a.ca_bundle.empty() || a.max_attempts || a.connect_timeout || a.read_timeout) &&
      !WantsEndpoint(a)) {
    return BadUsage(
        "--ca-bundle, --max-attempts and the timeouts are for an endpoint (--endpoint, --region "
        "or --profile)");
  }
  return -1;
}

bool WantsEndpoint(const ShellArgs& a) {
  if (!a.endpoint.empty() || !a.region.empty() || !a.profile.empty()) return true;
  if (a.have_path) return false;
  for (const char* var : {"AWS_ENDPOINT_URL_DYNAMODB", "AWS_ENDPOINT_URL"}) {
    const char* v = std::getenv(var);
    if (v && *v) return true;
  }
  return false;
}

const std::atomic<bool>* InterruptFlag() { return shell::Session::interrupt_flag(); }

int RunShell(const ShellArgs& a, Backend& backend, LocalControl* local, const Where& where) {
  using shell::OutputMode;
  const bool interactive = a.actions.empty() && ::isatty(0);
  shell::StdioSink sink;
  shell::Session session(backend, local, where.name, sink);
  shell::Settings& settings = session.settings();
  settings.mode = a.mode ? *a.mode : (::isatty(1) ? OutputMode::kBox : OutputMode::kDdb);
  settings.bail = a.bail;
  settings.echo = a.echo;
  settings.terminal = interactive && ::isatty(1);
  settings.endpoint = where.endpoint;
  settings.yes = a.yes;
  settings.read_only = a.read_only;
  if (interactive) {
    shell::ReplOptions repl;
    repl.banner = "keyhole " KEYHOLE_VERSION " — " + where.banner +
                  "\nStatements end with ';'. .help lists the commands.\n";
    repl.history_path = HistoryPath();
    repl.prompt_name = where.prompt_name;
    CatchTerminationSignals();
    return EndProcess(shell::RunRepl(session, repl));
  }
  if (!where.note.empty()) std::fprintf(stderr, "%s\n", where.note.c_str());

  struct sigaction on_sigint {};
  on_sigint.sa_handler = OnSigint;
  sigemptyset(&on_sigint.sa_mask);
  on_sigint.sa_flags = SA_RESTART | SA_RESETHAND;
  sigaction(SIGINT, &on_sigint, nullptr);

  bool ok = true;
  std::string stdin_script;
  // A script on standard input. Until it is read, nothing ran: SIGTERM's default action, which
  // ends the wait for its end, loses nothing.
  const auto read_stdin = [&] {
    stdin_script.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  };
  if (a.actions.empty()) read_stdin();
  CatchTerminationSignals();
  if (a.actions.empty()) ok = session.RunFile(stdin_script, "stdin");
  int statement_args = 0;
  for (const auto& [kind, arg] : a.actions) {
    if (session.quit_requested() || (!ok && a.bail) || session.interrupted()) break;
    if (kind == 'c') {  // errors say which -c: "at -c #2 line 1"
      ok &= session.RunScript(arg, "-c #" + std::to_string(++statement_args));
      continue;
    }
    std::string script;
    bool read = true;
    int read_error = 0;
    if (arg == "-") {  // -f -: standard input
      read_stdin();
      script = std::move(stdin_script);
    } else {
      CatchTerminationSignals(/*restart=*/false);  // a script that never comes (a FIFO) is left
      read = shell::ReadWholeFile(arg, &script);
      read_error = errno;
      CatchTerminationSignals();
    }
    if (!read) {
      if (shell::Session::termination_signal() == 0) {
        std::fprintf(stderr, "keyhole: cannot read %s: %s\n", arg.c_str(),
                     std::strerror(read_error));
      }
      ok = false;
      break;
    }
    const std::string name = arg == "-" ? "stdin" : arg;
    ok &= kind == 'p' ? session.RunPatterns(script, name, a.plan ? &a.plan_options : nullptr)
                      : session.RunFile(script, name);
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

}  // namespace keyhole::cli
