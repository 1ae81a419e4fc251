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
#include <iostream>
#include <iterator>
#include <string>

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

// Runs every complete statement of `buffer`; returns false if one failed.
bool RunScript(keyhole::storage::Database& db, const std::string& buffer) {
  bool ok = true;
  for (const auto& st : keyhole::parser::SplitScript(buffer)) {
    if (!st.terminated) {
      std::fflush(stdout);
      std::fprintf(stderr, "Error: incomplete statement at end of input (missing ';')\n");
      return false;
    }
    ok &= keyhole::shell::RunStatement(db, st.text, st.start.line);
  }
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  keyhole::TuneMalloc();
  std::string path = argc > 1 ? argv[1] : "keyhole.kh";
  static const keyhole::parser::NativeExpressionParser parser;
  keyhole::storage::Database::Options options;
  options.expression_parser = &parser;
  auto db = keyhole::storage::Database::Open(path, options);
  if (!db.ok()) {
    std::fprintf(stderr, "keyhole: %s\n", db.status().ToString().c_str());
    return 1;
  }
  if (!::isatty(0)) {  // a script on standard input
    std::string script{std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>()};
    return RunScript(**db, script) ? 0 : 1;
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
      failed |= !RunScript(**db, pending);
      pending.clear();
    }
  }
  return failed ? 1 : 0;
}
