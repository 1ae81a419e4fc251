// keyhole: the shell's command line (design.md "The shell's contract").
//
//   keyhole [FILE] [-f SCRIPT]... [-c STATEMENT]... [--patterns FILE]... [--bail] [--echo]
//           [--mode MODE]
//
// With -f / -c the statements run in the order given and keyhole exits; without them, a REPL
// when standard input is a terminal, else a script read from standard input. The exit status
// is 1 when any statement failed, 2 for a bad command line.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "parser/expression_parser.h"
#include "shell/malloc_tuning.h"
#include "shell/repl.h"
#include "shell/session.h"
#include "storage/database.h"

namespace {

constexpr char kUsage[] =
    "usage: keyhole [FILE] [-f SCRIPT]... [-c STATEMENT]... [--patterns FILE]... [--bail]\n"
    "               [--echo] [--mode MODE]\n"
    "  FILE          the database (default keyhole.kh, created when missing)\n"
    "  -f SCRIPT     run the statements and dot-commands of SCRIPT\n"
    "  -c STATEMENT  run STATEMENT (a trailing ';' is optional)\n"
    "  --patterns F  run the named access patterns of F (.patterns): exit 1 on a Scan or refusal\n"
    "  --bail        stop at the first failing statement\n"
    "  --echo        print each statement before running it\n"
    "  --mode MODE   box, table, line, json, ddb or csv (default: box on a terminal, else ddb)\n"
    "Without -f/-c: an interactive prompt on a terminal, else a script on standard input.\n";

std::string HistoryPath() {
  if (const char* p = std::getenv("KEYHOLE_HISTORY")) return p;
  if (const char* home = std::getenv("HOME")) return std::string(home) + "/.keyhole_history";
  return "";
}

}  // namespace

int main(int argc, char** argv) {
  keyhole::TuneMalloc();
  using keyhole::shell::OutputMode;
  std::string path = "keyhole.kh";
  // ('f', file), ('c', statement) or ('p', patterns file), in command-line order
  std::vector<std::pair<char, std::string>> actions;
  bool bail = false, echo = false, have_path = false;
  std::optional<OutputMode> mode;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if ((a == "-f" || a == "-c") && i + 1 < argc) {
      actions.emplace_back(a[1], argv[++i]);
    } else if (a == "--patterns" && i + 1 < argc) {
      actions.emplace_back('p', argv[++i]);
    } else if (a == "--bail") {
      bail = true;
    } else if (a == "--echo") {
      echo = true;
    } else if (a == "--mode" && i + 1 < argc) {
      mode = keyhole::shell::ParseOutputMode(argv[++i]);
      if (!mode) {
        std::fprintf(stderr, "keyhole: unknown mode '%s'\n%s", argv[i], kUsage);
        return 2;
      }
    } else if (a == "-h" || a == "--help") {
      std::printf("%s", kUsage);
      return 0;
    } else if (!a.empty() && a[0] != '-' && !have_path) {
      path = a;
      have_path = true;
    } else {
      std::fprintf(stderr, "keyhole: unexpected argument '%s'\n%s", a.c_str(), kUsage);
      return 2;
    }
  }
  static const keyhole::parser::NativeExpressionParser parser;
  keyhole::storage::Database::Options options;
  options.expression_parser = &parser;
  auto db = keyhole::storage::Database::Open(path, options);
  if (!db.ok()) {
    std::fprintf(stderr, "keyhole: %s\n", db.status().ToString().c_str());
    return 1;
  }
  const bool interactive = actions.empty() && ::isatty(0);
  keyhole::shell::StdioSink sink;
  keyhole::shell::Session session(**db, path, sink);
  keyhole::shell::Settings& settings = session.settings();
  settings.mode = mode ? *mode : (::isatty(1) ? OutputMode::kBox : OutputMode::kDdb);
  settings.bail = bail;
  settings.echo = echo;
  if (interactive) {
    keyhole::shell::ReplOptions repl;
    repl.banner =
        "keyhole 0.1 — " + path + "\nStatements end with ';'. .help lists the commands.\n";
    repl.history_path = HistoryPath();
    return keyhole::shell::RunRepl(session, repl);
  }
  bool ok = true;
  if (actions.empty()) {  // a script on standard input
    std::string script{std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>()};
    ok = session.RunScript(script, "stdin");
  }
  for (const auto& [kind, arg] : actions) {
    if (session.quit_requested() || (!ok && bail)) break;
    if (kind == 'c') {
      ok &= session.RunScript(arg, "");
      continue;
    }
    std::ifstream in(arg);
    if (!in) {
      std::fprintf(stderr, "keyhole: cannot read %s\n", arg.c_str());
      return 1;
    }
    std::string script{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    ok &= kind == 'p' ? session.RunPatterns(script, arg) : session.RunScript(script, arg);
  }
  return ok ? 0 : 1;
}
