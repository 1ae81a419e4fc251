// PartiQL word classes (contract in partiql_words.h).
#include "parser/partiql_words.h"

#include "core/strings.h"
#include "parser/partiql.h"
#include "parser/suggest.h"

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace keyhole::parser::words {
namespace {

bool InSet(std::string_view word, std::initializer_list<std::string_view> set) {
  const std::string lower = AsciiLower(word);
  return std::find(set.begin(), set.end(), lower) != set.end();
}

}  // namespace

// PartiQL's keywords: SQL-92's and PartiQL's own, as partiql-lang-kotlin's lexer lists them
// (LexerConstants.kt: SQL92_KEYWORDS + SQLPP_KEYWORDS). They are not plain identifiers.
bool IsKeywordWord(std::string_view word) {
  static constexpr std::string_view kKeywords[] = {
      "absolute", "action", "add", "all", "allocate", "alter", "and", "any", "are", "as", "asc",
      "assertion", "at", "authorization", "avg", "begin", "between", "bit", "bit_length", "by",
      "cascade", "cascaded", "case", "cast", "catalog", "char", "character", "character_length",
      "char_length", "check", "close", "coalesce", "collate", "collation", "column", "commit",
      "connect", "connection", "constraint", "constraints", "continue", "convert", "corresponding",
      "count", "create", "cross", "current", "current_date", "current_time", "current_timestamp",
      "current_user", "cursor", "date", "deallocate", "dec", "decimal", "declare", "default",
      "deferrable", "deferred", "delete", "desc", "describe", "descriptor", "diagnostics",
      "disconnect", "distinct", "domain", "double", "drop", "else", "end", "escape", "except",
      "exception", "exec", "execute", "exists", "external", "extract", "date_add", "date_diff",
      "false", "fetch", "first", "float", "for", "foreign", "found", "from", "full", "get",
      "global", "go", "goto", "grant", "group", "having", "identity", "immediate", "in",
      "indicator", "initially", "inner", "input", "insensitive", "insert", "int", "integer",
      "intersect", "interval", "into", "is", "isolation", "join", "key", "language", "last", "left",
      "level", "like", "local", "lower", "match", "max", "min", "module", "names", "national",
      "natural", "nchar", "next", "no", "not", "null", "nullif", "numeric", "octet_length", "of",
      "on", "only", "open", "option", "or", "order", "outer", "output", "overlaps", "pad",
      "partial", "position", "precision", "prepare", "preserve", "primary", "prior", "privileges",
      "procedure", "public", "read", "real", "references", "relative", "restrict", "revoke",
      "right", "rollback", "rows", "schema", "scroll", "section", "select", "session",
      "session_user", "set", "size", "smallint", "some", "space", "sql", "sqlcode", "sqlerror",
      "sqlstate", "substring", "sum", "system_user", "table", "temporary", "then", "time",
      "timestamp", "to", "transaction", "translate", "translation", "trim", "true", "union",
      "unique", "unknown", "update", "upper", "usage", "user", "using", "value", "values",
      "varchar", "varying", "view", "when", "whenever", "where", "with", "work", "write", "zone",
      // PartiQL's additions
      "can_cast", "can_lossless_cast", "missing", "pivot", "unpivot", "limit", "offset", "tuple",
      "remove", "index", "let", "integer2", "int2", "integer4", "int4", "integer8", "int8",
      "bigint", "conflict", "do", "nothing", "returning", "modified", "new", "old", "bool",
      "boolean", "string", "symbol", "clob", "blob", "struct", "list", "sexp", "bag"};
  // Sorted once; a word is lowered into a buffer (no keyword is longer than it) and looked up.
  static const std::vector<std::string_view> kSorted = [] {
    std::vector<std::string_view> v(std::begin(kKeywords), std::end(kKeywords));
    std::sort(v.begin(), v.end());
    return v;
  }();
  char lower[24];
  if (word.size() > sizeof lower) return false;
  for (size_t i = 0; i < word.size(); ++i)
    lower[i] = static_cast<char>(std::tolower(static_cast<unsigned char>(word[i])));
  return std::binary_search(kSorted.begin(), kSorted.end(), std::string_view(lower, word.size()));
}
bool IsIdentifierWord(std::string_view word) { return !IsKeywordWord(word); }

// Keywords that may name a function when a `(` follows (partiql-lang-kotlin's
// FUNCTION_NAME_KEYWORDS): `size(a)` is a call, `size` alone an unexpected keyword.
bool IsFunctionKeyword(std::string_view word) {
  return InSet(word, {"exists", "count", "avg", "max", "min", "sum", "substring", "char_length",
                      "character_length", "octet_length", "bit_length", "upper", "lower", "size",
                      "sexp", "list", "bag"});
}

// Binary operators spelled as words; found where an operand should be: "Unexpected operator".
bool IsOperatorWord(std::string_view word) {
  return InSet(word, {"and", "or", "is", "in", "like", "between", "union", "except", "intersect"});
}

// PartiQL's one-word type names (after IS); DOUBLE PRECISION and CHARACTER VARYING are rules.
bool IsTypeWord(std::string_view word) {
  return InSet(word, {"missing",  "null",      "bool",     "boolean", "smallint", "int2",
                      "integer2", "int4",      "integer4", "int8",    "integer8", "bigint",
                      "int",      "integer",   "float",    "real",    "decimal",  "dec",
                      "numeric",  "timestamp", "date",     "time",    "char",     "character",
                      "varchar",  "string",    "symbol",   "clob",    "blob",     "struct",
                      "tuple",    "list",      "sexp",     "bag",     "any",      "es_any"});
}

// keyhole's DDL words.
bool IsKeyTypeWord(std::string_view word) {
  return InSet(word, {"s", "n", "b", "string", "number", "binary"});
}
bool IsKeyRoleWord(std::string_view word) { return InSet(word, {"hash", "range"}); }
bool IsStreamViewWord(std::string_view word) {
  return InSet(word, {"keys_only", "new_image", "old_image", "new_and_old_images"});
}

bool IsMisspeltFrom(std::string_view word) {
  return word.size() >= 3 && IsIdentifierWord(word) && AsciiLower(word) != "from" &&
         EditDistance(word, "FROM", /*ignore_case=*/true) <= 2;
}

}  // namespace keyhole::parser::words

namespace keyhole::parser {

std::string NameInStatement(std::string_view name) {
  bool plain = !name.empty() && words::IsIdentStart(name[0]) && words::IsIdentifierWord(name);
  for (char c : name) plain = plain && words::IsIdentChar(c);
  if (plain) return std::string(name);
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace keyhole::parser
