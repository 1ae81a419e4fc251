// keyhole: the shell.
//
// Until the PartiQL language and the REPL land (issues 3 and 4), this is a minimal prompt that
// says so honestly: it opens the database and runs DynamoDB API operations written as
//   <Operation> <request JSON>;
// e.g.  PutItem {"TableName": "App", "Item": {"pk": {"S": "a"}}};
// reading from the terminal or from standard input. Exit status 1 when a statement failed.
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <string>

#include "core/json.h"
#include "parser/expression_parser.h"
#include "shell/malloc_tuning.h"
#include "shell/api_call.h"
#include "storage/database.h"

namespace {

constexpr char kHelp[] =
    "keyhole's PartiQL shell is not built yet. This prompt runs DynamoDB API operations:\n"
    "  <Operation> <request JSON>;     CreateTable, DeleteTable, DescribeTable, ListTables,\n"
    "                                  UpdateTable, PutItem, GetItem, DeleteItem, UpdateItem,\n"
    "                                  Query, Scan (with DynamoDB's expression parameters)\n"
    "  .tables   list tables      .help   this text      .quit   leave\n"
    "A statement may span lines; it ends with ';'.\n";

bool RunStatement(keyhole::storage::Database& db, const std::string& text) {
  size_t start = text.find_first_not_of(" \t\r\n");
  size_t space = text.find_first_of(" \t\r\n{", start);
  std::string op = text.substr(start, space == std::string::npos ? std::string::npos : space - start);
  std::string body = space == std::string::npos ? "{}" : text.substr(space);
  auto json = keyhole::json::Parse(body);
  if (!json.ok()) {
    std::fprintf(stderr, "Error: %s\n", json.status().ToString().c_str());
    return false;
  }
  auto resp = keyhole::shell::CallOperation(db, op, *json);
  if (!resp.ok()) {
    std::fprintf(stderr, "Error: %s\n", resp.status().ToString().c_str());
    return false;
  }
  std::printf("%s\n", keyhole::json::Write(*resp).c_str());
  return true;
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
  bool interactive = ::isatty(0);
  if (interactive) std::printf("keyhole 0.1 — %s\n%s", path.c_str(), kHelp);
  bool failed = false;
  std::string pending, line;
  while (true) {
    if (interactive) std::printf(pending.empty() ? "keyhole> " : "   ...> "), std::fflush(stdout);
    if (!std::getline(std::cin, line)) break;
    if (pending.empty()) {
      std::string t = line.substr(0, line.find_last_not_of(" \t\r") + 1);
      if (t == ".quit" || t == ".exit") break;
      if (t == ".help") { std::printf("%s", kHelp); continue; }
      if (t == ".tables") { failed |= !RunStatement(**db, "ListTables {}"); continue; }
      if (t.find_first_not_of(" \t") == std::string::npos) continue;
    }
    pending += line + "\n";
    size_t end = pending.find_last_not_of(" \t\r\n");
    if (end != std::string::npos && pending[end] == ';') {
      pending.resize(end);
      failed |= !RunStatement(**db, pending);
      pending.clear();
    }
  }
  if (!pending.empty()) {
    std::fprintf(stderr, "Error: incomplete statement at end of input (missing ';')\n");
    failed = true;
  }
  return failed ? 1 : 0;
}
