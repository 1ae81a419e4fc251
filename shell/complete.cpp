// Session::Complete: tab completion candidates from where the cursor is (session.h).
//
//  - A dot-command name at the start of a line; then its arguments: file names for the files
//    .read, .patterns, .output, .once, .import and .export take, table names where a table is
//    expected, the words a switch or .mode takes.
//  - In a statement, what fits after the word before the cursor: statement keywords at the
//    start, table names after FROM / INTO / UPDATE / TABLE, the clauses that follow a table,
//    attribute names (and the condition functions) where a WHERE, SET or projection wants one,
//    the operators after an attribute, AND / OR / ORDER after a value.
//  - Attribute names of the table the statement names: its key and index key attributes, the
//    names in up to kSampleItems of its items, and those seen in this session's results.
#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "shell/session_state.h"

namespace keyhole::shell {
namespace {

constexpr int kSampleItems = 100;

bool StartsWithIgnoreCase(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(s[i])) !=
        std::tolower(static_cast<unsigned char>(prefix[i]))) {
      return false;
    }
  }
  return true;
}

std::string Upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

// A token of the statement before the cursor.
struct Token {
  enum Kind { kWord, kName, kString, kNumber, kPunct } kind;
  std::string text;  // words upper-cased; names without their quotes
};

std::vector<Token> Tokens(std::string_view s) {
  std::vector<Token> out;
  size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == '\'' || c == '"') {
      size_t close = s.find(c, i + 1);
      size_t end = close == std::string_view::npos ? s.size() : close;
      out.push_back(
          {c == '"' ? Token::kName : Token::kString, std::string(s.substr(i + 1, end - i - 1))});
      i = close == std::string_view::npos ? s.size() : close + 1;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t end = i;
      while (end < s.size() && (std::isalnum(static_cast<unsigned char>(s[end])) || s[end] == '.'))
        ++end;
      out.push_back({Token::kNumber, std::string(s.substr(i, end - i))});
      i = end;
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$') {
      size_t end = i;
      while (end < s.size() &&
             (std::isalnum(static_cast<unsigned char>(s[end])) || s[end] == '_' || s[end] == '$')) {
        ++end;
      }
      out.push_back({Token::kWord, Upper(s.substr(i, end - i))});
      i = end;
    } else {
      out.push_back({Token::kPunct, std::string(1, c)});
      ++i;
    }
  }
  return out;
}

const std::set<std::string>& Keywords() {
  static const std::set<std::string> k = {
      "ADD",      "ALL",        "ALTER",   "ANALYZE",   "AND",       "AS",          "ASC",
      "BATCH",    "BEGIN",      "BETWEEN", "BILLING",   "BY",        "CALL",        "COMMIT",
      "CREATE",   "DELETE",     "DESC",    "DESCRIBE",  "DISABLE",   "DROP",        "EXISTS",
      "EXPLAIN",  "FALSE",      "FROM",    "GLOBAL",    "IF",        "IN",          "INCLUDE",
      "INDEX",    "INSERT",     "INTO",    "IS",        "KEYS_ONLY", "LOCAL",       "MISSING",
      "MODIFIED", "NEW",        "NEXT",    "NOT",       "NULL",      "OLD",         "OR",
      "ORDER",    "PROJECTION", "REMOVE",  "RETURNING", "ROLLBACK",  "SCAN",        "SELECT",
      "SET",      "SHOW",       "STREAM",  "TABLE",     "TABLES",    "TRANSACTION", "TRUE",
      "TTL",      "UPDATE",     "VALUE",   "WHERE"};
  return k;
}

constexpr std::string_view kStatementStarts[] = {
    "SELECT", "INSERT",   "UPDATE", "DELETE", "EXISTS", "SCAN", "EXPLAIN",  "NEXT", "BEGIN",
    "COMMIT", "ROLLBACK", "CREATE", "DROP",   "ALTER",  "SHOW", "DESCRIBE", "CALL"};
constexpr std::string_view kConditionWords[] = {
    "NOT", "attribute_exists", "attribute_not_exists", "attribute_type", "begins_with", "contains",
    "size"};

// What a position wants besides keywords.
struct Wants {
  std::vector<std::string_view> keywords;
  bool tables = false;
  bool attributes = false;
  bool condition_words = false;  // NOT and the condition functions
};

// The statement's first keyword (after EXPLAIN [ANALYZE] and SCAN).
std::string StatementKind(const std::vector<Token>& tokens) {
  for (const Token& t : tokens) {
    if (t.kind != Token::kWord) return "";
    if (t.text == "EXPLAIN" || t.text == "ANALYZE" || t.text == "SCAN") continue;
    return t.text;
  }
  return "";
}

Wants WhatFits(const std::vector<Token>& tokens) {
  Wants w;
  if (tokens.empty()) {
    w.keywords.assign(std::begin(kStatementStarts), std::end(kStatementStarts));
    return w;
  }
  const Token& prev = tokens.back();
  const std::string kind = StatementKind(tokens);
  auto keyword = [&](const Token& t) { return t.kind == Token::kWord && Keywords().count(t.text); };
  if (keyword(prev)) {
    const std::string& k = prev.text;
    if (k == "EXPLAIN")
      w.keywords = {"ANALYZE", "SELECT", "INSERT", "UPDATE", "DELETE", "SCAN"};
    else if (k == "ANALYZE")
      w.keywords = {"SELECT", "SCAN"};
    else if (k == "SCAN")
      w.keywords = {"SELECT", "UPDATE", "DELETE"};
    else if (k == "SELECT")
      w.attributes = true, w.keywords = {"FROM"};
    else if (k == "FROM" || k == "INTO" || k == "DESCRIBE")
      w.tables = true;
    else if (k == "UPDATE")
      w.tables = true;
    else if (k == "TABLE")
      w.tables = true, w.keywords = {"IF"};
    else if (k == "INSERT")
      w.keywords = {"INTO"};
    else if (k == "DELETE")
      w.keywords = {"FROM"};
    else if (k == "CREATE" || k == "DROP" || k == "ALTER")
      w.keywords = {"TABLE"};
    else if (k == "SHOW")
      w.keywords = {"TABLES", "CREATE"};
    else if (k == "BEGIN")
      w.keywords = {"BATCH", "TRANSACTION"};
    else if (k == "ORDER")
      w.keywords = {"BY"};
    else if (k == "BY")
      w.attributes = true;
    else if (k == "WHERE" || k == "AND" || k == "OR" || k == "NOT") {
      w.attributes = true;
      w.condition_words = true;
    } else if (k == "SET" || k == "REMOVE")
      w.attributes = true;
    else if (k == "ADD")
      w.keywords = {"GLOBAL"};
    else if (k == "GLOBAL" || k == "LOCAL")
      w.keywords = {"INDEX"};
    else if (k == "PROJECTION")
      w.keywords = {"ALL", "KEYS_ONLY", "INCLUDE"};
    else if (k == "RETURNING")
      w.keywords = {"ALL", "MODIFIED"};
    else if (k == "ALL" || k == "MODIFIED")
      w.keywords = {"OLD", "NEW"};
    else if (k == "IS")
      w.keywords = {"NOT", "MISSING", "NULL"};
    else if (k == "IF")
      w.keywords = {"NOT", "EXISTS"};
    else if (k == "BILLING")
      w.keywords = {"PAY_PER_REQUEST", "PROVISIONED"};
    else if (k == "STREAM")
      w.keywords = {"KEYS_ONLY", "NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES"};
    else if (k == "DISABLE")
      w.keywords = {"TTL", "STREAM"};
    return w;
  }
  // A name: a table right after FROM / INTO / UPDATE / TABLE, else an attribute.
  if (prev.kind == Token::kName || prev.kind == Token::kWord) {
    const Token* before = tokens.size() >= 2 ? &tokens[tokens.size() - 2] : nullptr;
    if (before && before->kind == Token::kPunct && before->text == "." && tokens.size() >= 3) {
      before = tokens.size() >= 4 ? &tokens[tokens.size() - 4] : nullptr;  // "T"."Index"
    }
    const bool after_table = before && before->kind == Token::kWord &&
                             (before->text == "FROM" || before->text == "INTO" ||
                              before->text == "UPDATE" || before->text == "TABLE");
    if (after_table) {
      if (kind == "SELECT" || kind == "EXISTS")
        w.keywords = {"WHERE", "ORDER"};
      else if (kind == "DELETE")
        w.keywords = {"WHERE", "RETURNING"};
      else if (kind == "INSERT")
        w.keywords = {"VALUE"};
      else if (kind == "UPDATE")
        w.keywords = {"SET", "REMOVE", "WHERE"};
      else if (kind == "ALTER")
        w.keywords = {"ADD", "DROP", "SET", "DISABLE"};
      return w;
    }
    if (before && before->kind == Token::kWord && before->text == "SELECT") {
      w.keywords = {"FROM"};
      return w;
    }
    w.keywords = {"BETWEEN", "IN", "IS", "NOT", "AND", "OR", "ASC", "DESC", "FROM"};
    return w;
  }
  if (prev.kind == Token::kString || prev.kind == Token::kNumber ||
      (prev.kind == Token::kPunct && (prev.text == ")" || prev.text == "]" || prev.text == "}"))) {
    w.keywords = {"AND", "OR", "ORDER", "RETURNING", "WHERE", "SET", "REMOVE"};
    return w;
  }
  if (prev.kind == Token::kPunct && prev.text == "*") {
    w.keywords = {"FROM"};
    return w;
  }
  if (prev.kind == Token::kPunct && (prev.text == "(" || prev.text == ",")) {
    w.attributes = true;
    w.condition_words = prev.text == "(";
  }
  return w;
}

// Files and directories whose path starts with `word` ("samples/so" -> "samples/social/").
std::vector<std::string> FileCandidates(std::string_view word) {
  std::string dir, prefix(word);
  size_t slash = word.rfind('/');
  if (slash != std::string_view::npos) {
    dir = std::string(word.substr(0, slash + 1));
    prefix = std::string(word.substr(slash + 1));
  }
  std::vector<std::string> out;
  DIR* d = ::opendir(dir.empty() ? "." : dir.c_str());
  if (!d) return out;
  while (const dirent* e = ::readdir(d)) {
    std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    if (name[0] == '.' && (prefix.empty() || prefix[0] != '.')) continue;
    if (!name.starts_with(prefix)) continue;
    struct stat st;
    bool is_dir = ::stat((dir + name).c_str(), &st) == 0 && S_ISDIR(st.st_mode);
    out.push_back(dir + name + (is_dir ? "/" : ""));
  }
  ::closedir(d);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

std::vector<std::string> Session::Complete(std::string_view line, std::string_view word) {
  State& s = *state_;
  std::vector<std::string> out;
  auto offer = [&](std::string_view candidate) {
    if (StartsWithIgnoreCase(candidate, word) &&
        std::find(out.begin(), out.end(), candidate) == out.end()) {
      out.emplace_back(candidate);
    }
  };
  std::string_view before = line.substr(0, line.size() - std::min(line.size(), word.size()));
  const size_t first = line.find_first_not_of(" \t\r\n");
  Result<ListTablesResponse> listed = db_.ListTables({});
  const std::vector<std::string> tables =
      listed.ok() ? listed->table_names : std::vector<std::string>{};

  // Dot-commands and their arguments.
  if (first != std::string_view::npos && line[first] == '.') {
    if (before.find_first_not_of(" \t") == std::string_view::npos) {
      for (const std::string& c : DotCommandNames()) offer(c);
      return out;
    }
    std::vector<std::string> words = SplitWords(before);
    const std::string command = words.empty() ? "" : words[0];
    const size_t position = words.size();  // 1 = the first argument
    auto files = [&] { return FileCandidates(word); };
    if (command == ".read" || command == ".patterns" || command == ".output" ||
        command == ".once" ||
        (command == ".plan" && (position == 1 || words.back() == "--prices")) ||
        (command == ".import" && position == 1) || (command == ".export" && position == 3)) {
      return files();
    }
    if ((command == ".import" && position == 3) || (command == ".export" && position == 1) ||
        ((command == ".schema" || command == ".collection" || command == ".model" ||
          command == ".stream" || command == ".partitions") &&
         position == 1) ||
        (command == ".ttl" && position == 2)) {
      for (const std::string& t : tables) offer(t);
      return out;
    }
    if (command == ".import" && position == 2) offer("INTO");
    if (command == ".export" && position == 2) offer("TO");
    if (command == ".mode") {
      for (std::string_view m : {"box", "table", "line", "json", "ddb", "csv"}) offer(m);
    }
    if (command == ".expanded") {
      offer("auto");
      offer("off");
    }
    if (command == ".ttl") offer("sweep");
    if (command == ".help") {
      for (const std::string& c : DotCommandNames()) offer(c);
    }
    for (std::string_view sw : {".headers", ".timer", ".bail", ".echo", ".quiet", ".pager"}) {
      if (command == sw) {
        offer("on");
        offer("off");
      }
    }
    return out;
  }

  // A quoted name: a table, or after `"T".` one of T's indexes.
  const bool quoted = !word.empty() && word[0] == '"';
  if (quoted) {
    size_t dot = word.find("\".");
    if (dot != std::string_view::npos) {
      std::string table(word.substr(1, dot - 1));
      Result<TableSchemaPtr> t = db_.TableSchema(table);
      if (t.ok()) {
        for (const IndexDescription& idx : (*t)->indexes)
          offer("\"" + table + "\".\"" + idx.name + "\"");
      }
      return out;
    }
    for (const std::string& n : tables) offer("\"" + n + "\"");
    return out;
  }

  const std::vector<Token> tokens = Tokens(before);
  Wants wants = WhatFits(tokens);
  if (wants.tables) {
    for (const std::string& n : tables) offer(n);
  }
  if (wants.attributes) {
    // The tables the statement names (all of them when it names none yet).
    std::set<std::string> named;
    for (const Token& t : tokens) {
      if ((t.kind == Token::kName || t.kind == Token::kWord) &&
          std::find(tables.begin(), tables.end(), t.text) != tables.end()) {
        named.insert(t.text);
      }
    }
    for (const std::string& n : tables) {
      if (line.find(n) != std::string_view::npos) named.insert(n);
    }
    if (named.empty()) named.insert(tables.begin(), tables.end());
    std::set<std::string> attrs;
    for (const std::string& n : named) {
      Result<TableSchemaPtr> t = db_.TableSchema(n);
      if (t.ok()) {
        auto add_key = [&](const KeySchema& k) {
          attrs.insert(k.partition.name);
          if (k.sort) attrs.insert(k.sort->name);
        };
        add_key((*t)->key);
        for (const IndexDescription& idx : (*t)->indexes) add_key(idx.key);
      }
      ScanRequest sample;  // what the table holds
      sample.table_name = n;
      sample.limit = kSampleItems;
      Result<ScanResponse> items = db_.Scan(sample);
      if (items.ok()) {
        for (const Item& item : items->items) {
          for (const auto& [name, value] : item) attrs.insert(name);
        }
      }
      auto seen = s.attributes.find(n);
      if (seen != s.attributes.end())
        attrs.insert(seen->second.all.begin(), seen->second.all.end());
    }
    for (const std::string& a : attrs) offer(a);
  }
  if (!word.empty() || !wants.keywords.empty()) {
    for (std::string_view k : wants.keywords) offer(k);
  }
  if (wants.condition_words && !word.empty()) {
    for (std::string_view k : kConditionWords) offer(k);
  }
  if (tokens.empty() && !word.empty()) {  // `GetItem {...}`: an API operation by its name
    for (std::string_view op : api::Service::Operations()) offer(op);
  }
  return out;
}

}  // namespace keyhole::shell
