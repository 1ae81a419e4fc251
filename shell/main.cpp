// keyhole: the shell.
//
// Until the REPL of issue 4 lands, this is a minimal prompt: it opens the database and runs
// PartiQL statements (planned into DynamoDB operations; a statement that is not key-addressable
// is refused unless it says SCAN), keyhole's CREATE TABLE / DROP TABLE / SHOW TABLES / DESCRIBE /
// CALL, and DynamoDB API operations written as `<Operation> <request JSON>;`. Statements end
// with `;` and may span lines; input comes from the terminal or standard input. Exit status 1
// when a statement failed.
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "parser/expression_parser.h"
#include "parser/partiql.h"
#include "shell/malloc_tuning.h"
#include "shell/run_statement.h"
#include "storage/database.h"

namespace {

constexpr char kHelp[] =
    "Statements end with ';' and may span lines:\n"
    "  PartiQL      SELECT / INSERT / UPDATE / DELETE (SCAN SELECT ... to read a whole table)\n"
    "  keyhole      CREATE TABLE \"T\" (pk S HASH, sk N RANGE) [GLOBAL INDEX ...]; DROP TABLE;\n"
    "               SHOW TABLES; DESCRIBE \"T\"; CALL <Operation> {request JSON}\n"
    "  API          <Operation> {request JSON}   e.g. PutItem {\"TableName\": ..., \"Item\": ...}\n"
    "  .tables  .help  .quit\n"
    "The full REPL (line editing, output modes, EXPLAIN, NEXT, transactions) is not built yet.\n";

// Runs every statement of `buffer`; returns false if one failed (stopping at it with --bail).
bool RunScript(keyhole::storage::Database& db, const std::string& buffer, bool bail) {
  bool ok = true;
  // A last statement without its ';' still runs (an unterminated string or comment in it is
  // reported by the parser).
  for (const auto& st : keyhole::parser::SplitScript(buffer)) {
    ok &= keyhole::shell::RunStatement(db, st.text, st.start.line);
    if (!ok && bail) break;
  }
  return ok;
}

constexpr char kUsage[] =
    "usage: keyhole [FILE] [-f SCRIPT]... [-c STATEMENT]... [--bail]\n"
    "  FILE          the database (default keyhole.kh, created when missing)\n"
    "  -f SCRIPT     run the statements of SCRIPT\n"
    "  -c STATEMENT  run STATEMENT (a trailing ';' is optional)\n"
    "  --bail        stop at the first failing statement\n"
    "Without -f/-c: an interactive prompt on a terminal, else a script on standard input.\n";

}  // namespace

int main(int argc, char** argv) {
  keyhole::TuneMalloc();
  std::string path = "keyhole.kh";
  std::vector<std::pair<char, std::string>> actions;  // ('f', file) or ('c', statement)
  bool bail = false, have_path = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if ((a == "-f" || a == "-c") && i + 1 < argc) {
      actions.emplace_back(a[1], argv[++i]);
    } else if (a == "--bail") {
      bail = true;
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
  if (!actions.empty()) {
    bool ok = true;
    for (const auto& [kind, arg] : actions) {
      std::string script = arg;
      if (kind == 'f') {
        std::ifstream in(arg);
        if (!in) {
          std::fprintf(stderr, "keyhole: cannot read %s\n", arg.c_str());
          return 1;
        }
        script.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
      }
      ok &= RunScript(**db, script, bail);
      if (!ok && bail) break;
    }
    return ok ? 0 : 1;
  }
  if (!::isatty(0)) {  // a script on standard input
    std::string script{std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>()};
    return RunScript(**db, script, bail) ? 0 : 1;
  }
  std::printf("keyhole 0.1 — %s\n%s", path.c_str(), kHelp);
  bool failed = false;
  std::string pending, line;
  while (true) {
    std::printf(pending.empty() ? "keyhole> " : "   ...> ");
    std::fflush(stdout);
    if (!std::getline(std::cin, line)) break;
    if (pending.empty()) {
      std::string t = line.substr(0, line.find_last_not_of(" \t\r") + 1);
      if (t == ".quit" || t == ".exit") break;
      if (t == ".help") {
        std::printf("%s", kHelp);
        continue;
      }
      if (t == ".tables") {
        failed |= !keyhole::shell::RunStatement(**db, "SHOW TABLES");
        continue;
      }
    }
    pending += line + "\n";
    if (keyhole::parser::IsComplete(pending)) {
      failed |= !RunScript(**db, pending, false);
      pending.clear();
    }
  }
  return failed ? 1 : 0;
}
