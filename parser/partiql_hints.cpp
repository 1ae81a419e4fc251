// ParseHint (partiql_hints.h): recognizes a refused statement's likely mistake from the
// error's message and position and from the words of the text. Plain string scanning; no PEGTL.
#include "parser/partiql_hints.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/strings.h"
#include "core/utf8.h"
#include "parser/partiql_syntax.h"
#include "parser/partiql_words.h"
#include "parser/suggest.h"

namespace keyhole::parser {
namespace {

// A word of the statement outside strings, quoted names and comments, upper-cased.
struct Word {
  std::string upper;
  size_t offset = 0;
};

bool IsWordChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$';
}

std::string Upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::vector<Word> Words(std::string_view text) {
  std::vector<Word> out;
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '\'' || c == '"') {
      size_t close = text.find(c, i + 1);
      i = close == std::string_view::npos ? text.size() : close + 1;
    } else if (text.substr(i, 2) == "--") {
      size_t nl = text.find('\n', i);
      i = nl == std::string_view::npos ? text.size() : nl + 1;
    } else if (text.substr(i, 2) == "/*") {
      size_t close = text.find("*/", i + 2);
      i = close == std::string_view::npos ? text.size() : close + 2;
    } else if (IsWordChar(c)) {
      size_t end = i;
      while (end < text.size() && IsWordChar(text[end])) ++end;
      out.push_back({Upper(text.substr(i, end - i)), i});
      i = end;
    } else {
      ++i;
    }
  }
  return out;
}

bool Has(const std::vector<Word>& words, std::string_view w) {
  return std::any_of(words.begin(), words.end(), [&](const Word& x) { return x.upper == w; });
}

// The word followed (after blanks) by '(' among `names`, or "".
std::string CalledFunction(std::string_view text, const std::vector<Word>& words,
                           std::initializer_list<std::string_view> names) {
  for (const Word& w : words) {
    if (std::find(names.begin(), names.end(), w.upper) == names.end()) continue;
    size_t after = text.find_first_not_of(" \t\r\n", w.offset + w.upper.size());
    if (after != std::string_view::npos && text[after] == '(') return w.upper;
  }
  return "";
}

// The word of `text` that starts at `offset` (letters, digits, _ and $), or "".
std::string_view WordAt(std::string_view text, size_t offset) {
  size_t end = offset;
  while (end < text.size() && IsWordChar(text[end])) ++end;
  return text.substr(offset, end - offset);
}

// A short excerpt of `text` from `offset` (at most 20 characters, then "...").
std::string Excerpt(std::string_view text, size_t offset) {
  std::string_view rest = text.substr(offset);
  rest = rest.substr(0, rest.find('\n'));
  if (rest.size() <= 20) return std::string(rest);
  return std::string(rest.substr(0, utf8::Boundary(rest, 20))) + "...";
}

// `text` with every "double-quoted" run after `from` turned into a 'single-quoted' string.
std::string SingleQuoted(std::string_view text, size_t from) {
  std::string out(text.substr(0, from));
  for (size_t i = from; i < text.size(); ++i) {
    if (text[i] == '\'') {  // copy a single-quoted string as it is
      size_t close = text.find('\'', i + 1);
      if (close == std::string_view::npos) close = text.size() - 1;
      out.append(text.substr(i, close - i + 1));
      i = close;
    } else if (text[i] == '"') {
      size_t close = text.find('"', i + 1);
      if (close == std::string_view::npos) return std::string(text);
      std::string inner(text.substr(i + 1, close - i - 1));
      out += '\'';
      for (char c : inner) out += c == '\'' ? std::string("''") : std::string(1, c);
      out += '\'';
      i = close;
    } else {
      out += text[i];
    }
  }
  return out;
}

// How `before` (a statement up to some token) ends, outside strings, names and comments: its
// last significant character, its last word (upper-cased) and the brackets still open ('{',
// '[', '(' for a call or group, 'i' for IN's parentheses).
struct Context {
  char last = 0;
  std::string word;
  std::vector<char> open;
};

Context ContextOf(std::string_view before) {
  Context c;
  for (size_t i = 0; i < before.size();) {
    const char ch = before[i];
    if (ch == '\'' || ch == '"') {
      size_t close = before.find(ch, i + 1);
      i = close == std::string_view::npos ? before.size() : close + 1;
      c.last = ch;
      c.word.clear();
    } else if (before.substr(i, 2) == "--") {
      size_t nl = before.find('\n', i);
      i = nl == std::string_view::npos ? before.size() : nl + 1;
    } else if (before.substr(i, 2) == "/*") {
      size_t close = before.find("*/", i + 2);
      i = close == std::string_view::npos ? before.size() : close + 2;
    } else if (IsWordChar(ch)) {
      size_t end = i;
      while (end < before.size() && IsWordChar(before[end])) ++end;
      c.word = Upper(before.substr(i, end - i));
      c.last = before[end - 1];
      i = end;
    } else {
      if (ch == '{' || ch == '[') c.open.push_back(ch);
      if (ch == '(') c.open.push_back(c.word == "IN" ? 'i' : '(');
      if ((ch == '}' || ch == ']' || ch == ')') && !c.open.empty()) c.open.pop_back();
      if (ch != ' ' && ch != '\t' && ch != '\r' && ch != '\n') {
        c.last = ch;
        c.word.clear();
      }
      ++i;
    }
  }
  return c;
}

// Whether a value goes right after `before`: after = < > : or BETWEEN, at the start of a map
// or list, after a comma inside one, inside IN (...), or after a comma in a call
// (begins_with(SK, 'POST#')). The attribute compared, tables and indexes are names.
bool ValueGoesAfter(std::string_view before) {
  const Context c = ContextOf(before);
  switch (c.last) {
    case '=':
    case '<':
    case '>':
    case ':':
    case '{':
    case '[':
      return true;
    case '(':
      return !c.open.empty() && c.open.back() == 'i';
    case ',':
      return !c.open.empty();
    default:
      return c.word == "BETWEEN";
  }
}

// `text` with typographic quotes made straight. ‘…’ becomes a 'string'; “…” becomes a 'string'
// where a value goes (after = < > :, inside a map or list, after a comma in a function call or
// IN (...), after BETWEEN) and a "name" elsewhere (tables, indexes, the attribute compared).
std::string StraightQuotes(std::string_view text) {
  static constexpr std::string_view kSingle[] = {"\u2018", "\u2019"};
  static constexpr std::string_view kDouble[] = {"\u201C", "\u201D"};
  auto at_quote = [&](size_t i, const std::string_view(&quotes)[2]) -> size_t {
    for (std::string_view q : quotes) {
      if (text.substr(i).starts_with(q)) return q.size();
    }
    return 0;
  };
  std::string out;
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '\'' || c == '"') {  // a straight string or name: as it is
      size_t close = text.find(c, i + 1);
      close = close == std::string_view::npos ? text.size() : close + 1;
      out.append(text.substr(i, close - i));
      i = close;
    } else if (size_t n = at_quote(i, kSingle)) {
      out += '\'';
      i += n;
    } else if (size_t n = at_quote(i, kDouble)) {
      // The run up to the next double quote of either kind (or the end of the line).
      size_t end = i + n, close = 0;
      while (end < text.size() && text[end] != '\n' && text[end] != '"' &&
             !(close = at_quote(end, kDouble))) {
        ++end;
      }
      if (end < text.size() && text[end] == '"') close = 1;
      const std::string_view inner = text.substr(i + n, end - i - n);
      if (ValueGoesAfter(out)) {
        out += '\'';
        for (char ch : inner) out += ch == '\'' ? std::string("''") : std::string(1, ch);
        out += '\'';
      } else {
        out += '"';
        out.append(inner);
        out += '"';
      }
      i = end + close;
    } else {
      out += c;
      ++i;
    }
  }
  return out;
}

// The unquoted value around `at` where a value goes (USER, USER-alice, alice@example.com,
// USER#alice): "X looks like a value: ...", or "" when the word there is not in a value's place.
std::string UnquotedValueHint(std::string_view text, size_t at) {
  auto back = [](char c) { return IsWordChar(c) || c == '#' || c == '-' || c == '.' || c == '@'; };
  auto forward = [&](char c) { return back(c) || c == ':' || c == '+' || c == '/'; };
  size_t begin = at, end = at;
  while (begin > 0 && back(text[begin - 1])) --begin;
  while (end < text.size() && forward(text[end])) ++end;
  if (begin == end || !IsWordChar(text[begin]) || !ValueGoesAfter(text.substr(0, begin))) return "";
  const std::string_view value = text.substr(begin, end - begin);
  std::string_view word = WordAt(text, begin);
  std::string reserved;
  if (word.size() == value.size()) {
    // USER alone: a keyword where a value goes.
    if (std::string upper = Upper(word); words::IsKeywordWord(upper)) {
      reserved = fmt::format(" ({} alone is a PartiQL keyword)", upper);
    }
  }
  return fmt::format("{} looks like a value: strings take single quotes, '{}'{}", value, value,
                     reserved);
}

// `text` with the bare words used as map keys ({PK: 'x'}) in single quotes.
std::string QuotedMapKeys(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '\'' || c == '"') {
      size_t close = text.find(c, i + 1);
      close = close == std::string_view::npos ? text.size() : close + 1;
      out.append(text.substr(i, close - i));
      i = close;
      continue;
    }
    if (IsWordChar(c)) {
      std::string_view word = WordAt(text, i);
      size_t after = text.find_first_not_of(" \t\r\n", i + word.size());
      const Context context = ContextOf(out);
      if (after != std::string_view::npos && text[after] == ':' && !context.open.empty() &&
          context.open.back() == '{' && (context.last == '{' || context.last == ',')) {
        out += "'" + std::string(word) + "'";
      } else {
        out.append(word);
      }
      i += word.size();
      continue;
    }
    out += c;
    ++i;
  }
  return out;
}

std::string Trimmed(std::string_view s) { return std::string(Trim(s, " \t\r\n", " \t\r\n;")); }

// The comma-separated items of `s` (commas inside quotes do not split), trimmed.
std::vector<std::string> SplitItems(std::string_view s) {
  std::vector<std::string> out;
  std::string cur;
  char quote = 0;
  for (char c : s) {
    if (quote) {
      quote = c == quote ? 0 : quote;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == ',') {
      out.push_back(Trimmed(cur));
      cur.clear();
      continue;
    }
    cur += c;
  }
  out.push_back(Trimmed(cur));
  return out;
}

// INSERT INTO "T" (a, b) VALUES (1, 'x') -> INSERT INTO "T" VALUE {'a': 1, 'b': 'x'}, or ""
// when the text does not have that shape.
std::string InsertValueForm(std::string_view text) {
  const std::string upper = Upper(text);
  size_t values = upper.find("VALUES");
  size_t open_cols = text.find('(');
  if (values == std::string::npos || open_cols == std::string_view::npos || open_cols > values) {
    return "";
  }
  size_t close_cols = text.find(')', open_cols);
  size_t open_vals = text.find('(', values);
  size_t close_vals = text.rfind(')');
  if (close_cols == std::string_view::npos || close_cols > values ||
      open_vals == std::string_view::npos || close_vals == std::string_view::npos ||
      close_vals < open_vals) {
    return "";
  }
  std::vector<std::string> cols =
      SplitItems(text.substr(open_cols + 1, close_cols - open_cols - 1));
  std::vector<std::string> vals =
      SplitItems(text.substr(open_vals + 1, close_vals - open_vals - 1));
  if (cols.size() != vals.size() || cols.empty()) return "";
  std::string map;
  for (size_t i = 0; i < cols.size(); ++i) {
    std::string name = cols[i];
    if (name.size() >= 2 && name.front() == '"' && name.back() == '"') {
      name = name.substr(1, name.size() - 2);
    }
    std::string value = vals[i];
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
      value = "'" + value.substr(1, value.size() - 2) + "'";
    }
    map += fmt::format("{}'{}': {}", i ? ", " : "", name, value);
  }
  return Trimmed(text.substr(0, open_cols)) + " VALUE {" + map + "}";
}

// For a string, name or comment opened at `at` and never closed: which, and how to close it.
std::string OpenedHint(std::string_view text, size_t at) {
  if (text[at] == '\'') {
    return fmt::format(
        "the string opened at the caret ('{}) is never closed: end it with ' (write '' for a "
        "quote inside it)",
        Excerpt(text, at + 1));
  }
  if (text[at] == '"') {
    return fmt::format(
        "the name opened at the caret (\"{}) is never closed: end it with \" (and note that "
        "double quotes name tables and attributes; strings take single quotes)",
        Excerpt(text, at + 1));
  }
  if (text.substr(at).starts_with("/*"))
    return "the comment opened at the caret is never closed with */";
  return "";
}

// The offset where the 'string' whose closing quote is at `close` began, reading `text` from
// its start ('' inside a string is one quote; "names" and comments are skipped).
std::optional<size_t> StringClosedAt(std::string_view text, size_t close) {
  size_t i = 0;
  while (i < text.size() && i <= close) {
    const char c = text[i];
    if (c == '\'' || c == '"') {
      size_t j = i + 1;
      while (j < text.size()) {
        if (text[j] == c && j + 1 < text.size() && text[j + 1] == c) {
          j += 2;
          continue;
        }
        if (text[j] == c) break;
        ++j;
      }
      if (c == '\'' && j == close) return i;
      i = j + 1;
    } else if (text.substr(i, 2) == "--") {
      size_t nl = text.find('\n', i);
      i = nl == std::string_view::npos ? text.size() : nl + 1;
    } else if (text.substr(i, 2) == "/*") {
      size_t end = text.find("*/", i + 2);
      i = end == std::string_view::npos ? text.size() : end + 2;
    } else {
      ++i;
    }
  }
  return std::nullopt;
}

constexpr char kJoin[] =
    "DynamoDB reads one table or index per statement: there are no joins. Store the items you "
    "read together in one item collection (the same partition key, told apart by the sort key) "
    "and read them all with one Query: SELECT * FROM \"T\" WHERE PK = 'USER#1'";
constexpr char kCount[] =
    "DynamoDB has no {}(): the footer under every result counts for you (N returned, N read), "
    "and the API's Select COUNT returns only the count, e.g. Query {{\"TableName\": \"T\", "
    "\"KeyConditionExpression\": \"PK = :pk\", \"ExpressionAttributeValues\": {{\":pk\": "
    "{{\"S\": \"USER#1\"}}}}, \"Select\": \"COUNT\"}}. A total kept up to date is an item of its "
    "own, updated with ADD in the same transaction as the writes it counts";
constexpr char kAggregate[] =
    "DynamoDB has no {}() or other aggregates: read the items and compute it, or keep the "
    "aggregate in an item of its own, updated in the same transaction as each write it sums up "
    "(ADD for a total or a count; for a maximum, SET best = v guarded by best < v). When the "
    "attribute is a sort key (of the table or an index), ORDER BY it (DESC for the greatest) "
    "with .pagesize 1 reads just that item";
constexpr char kDistinct[] =
    "DynamoDB has no DISTINCT: model each distinct value as an item of its own, or as the "
    "partition key of an index, and read those";
constexpr char kGroupBy[] =
    "DynamoDB has no GROUP BY: items that belong together share a partition key (an item "
    "collection, or an index's partition key) and one Query reads the group";
constexpr char kLimit[] =
    "DynamoDB's PartiQL has no LIMIT clause: .pagesize N makes each page evaluate at most N "
    "items (the API's Limit), and NEXT; reads the next page";
constexpr char kOffset[] =
    "DynamoDB has no OFFSET: a read cannot skip items without reading them. Pages continue from "
    "where the last one stopped (its LastEvaluatedKey): .pagesize N sets the page size, NEXT; "
    "reads the next page, and .startkey {key} starts from a key you kept";

}  // namespace

std::optional<size_t> SwallowingString(std::string_view text, size_t offset) {
  for (size_t i = 0; i < text.size() && i <= offset;) {
    const char c = text[i];
    if (c == '\'' || c == '"') {
      size_t j = i + 1;
      while (j < text.size() && !(text[j] == c && !(j + 1 < text.size() && text[j + 1] == c))) {
        j += text[j] == c ? 2 : 1;
      }
      if (c == '\'') {
        const std::string_view inner = text.substr(i + 1, std::min(j, text.size()) - i - 1);
        for (size_t semi = inner.find(';'); semi != std::string_view::npos;
             semi = inner.find(';', semi + 1)) {
          size_t next = inner.find_first_not_of(" \t\r", semi + 1);
          if (next != std::string_view::npos && inner[next] == '\n') return i;
        }
      }
      i = j + 1;
    } else if (text.substr(i, 2) == "--") {
      size_t nl = text.find('\n', i);
      i = nl == std::string_view::npos ? text.size() : nl + 1;
    } else if (text.substr(i, 2) == "/*") {
      size_t end = text.find("*/", i + 2);
      i = end == std::string_view::npos ? text.size() : end + 2;
    } else {
      ++i;
    }
  }
  return std::nullopt;
}

std::string SwallowingStringHint(std::string_view text, size_t at) {
  return fmt::format(
      "the string opened at the caret ('{}) goes on past the end of its line, taking the ; "
      "there with it: its closing ' is probably missing, and the quotes after it pair up wrong",
      Excerpt(text, at + 1));
}

std::string ParseHint(std::string_view text, const ParseError& error) {
  const std::string& message = error.status.message();
  const size_t at = std::min(error.position.offset, text.size());
  const std::vector<Word> words = Words(text);
  const std::string first = words.empty() ? "" : words[0].upper;
  if (const std::string t = Trimmed(text); t == "\\q" || t == "\\quit") {
    return "use .quit (or Ctrl-D) to leave keyhole; at the prompt \\q, exit and quit do too";
  }

  if (message ==
          "Unknown statement; expected SELECT, INSERT, UPDATE, DELETE or EXISTS, or one of "
          "keyhole's: CREATE TABLE, DROP TABLE, ALTER TABLE, SHOW TABLES, SHOW CREATE "
          "TABLE, DESCRIBE, EXPLAIN, SCAN, BEGIN, COMMIT, ROLLBACK, CALL, NEXT" ||
      message.starts_with(std::string(syntax::kEnvelope))) {
    if (words.size() == 1 && (first == "EXIT" || first == "QUIT" || first == "BYE")) {
      return "use .quit (or Ctrl-D) to leave keyhole";
    }
    if (words.size() == 1 && first == "HELP") {
      return ".help lists the commands; .help SELECT (or INSERT, CREATE TABLE, ...) shows a "
             "statement's syntax";
    }
  }

  // A statement keyword at the start of a later line: the statement before it had no ';'.
  if (at > 0 && at < text.size()) {
    static const std::set<std::string> kStarts = {
        "SELECT",  "INSERT", "UPDATE", "DELETE", "CREATE",   "DROP", "ALTER", "SHOW",  "DESCRIBE",
        "EXPLAIN", "SCAN",   "BEGIN",  "COMMIT", "ROLLBACK", "CALL", "NEXT",  "EXISTS"};
    const size_t line_start = text.rfind('\n', at - 1);
    const bool first_on_line =
        line_start != std::string_view::npos &&
        text.substr(line_start + 1, at - line_start - 1).find_first_not_of(" \t\r") ==
            std::string_view::npos;
    auto word = std::ranges::find_if(words, [&](const Word& w) { return w.offset == at; });
    if (first_on_line && word != words.end() && word != words.begin() &&
        kStarts.contains(word->upper)) {
      std::string before = Trimmed(text.substr(0, line_start));
      if (const size_t nl = before.find('\n'); nl != std::string::npos) {
        before = Trimmed(before.substr(0, nl)) + " ...";
      }
      return fmt::format(
          "did the statement before this line end without ';'? {} runs until a ';', so {} "
          "became part of it",
          before, word->upper);
    }
  }

  // SQL's CREATE TABLE (column types, PRIMARY KEY): DynamoDB declares key attributes only.
  if (first == "CREATE" && words.size() > 4 && words[1].upper == "TABLE") {
    static const std::set<std::string> kSqlWords = {
        "STRING",  "VARCHAR", "CHAR",    "TEXT",    "INT",   "INTEGER",
        "BIGINT",  "NUMBER",  "NUMERIC", "DECIMAL", "FLOAT", "DOUBLE",
        "BOOLEAN", "PRIMARY", "SERIAL",  "UUID",    "DATE"};
    static const std::set<std::string> kNumeric = {
        "INT", "INTEGER", "BIGINT", "NUMBER", "NUMERIC", "DECIMAL", "FLOAT", "DOUBLE", "SERIAL"};
    for (size_t i = 3; i < words.size(); ++i) {
      if (!kSqlWords.contains(words[i].upper)) continue;
      const Word& name = words[i - 1];
      const std::string column(text.substr(name.offset, name.upper.size()));
      const std::string table(text.substr(words[2].offset, words[2].upper.size()));
      return fmt::format(
          "DynamoDB declares only the key: each key attribute with its type (S string, N "
          "number, B binary) and role (HASH partition key, RANGE sort key); items carry any "
          "other attributes undeclared. CREATE TABLE \"{}\" ({} {} HASH)",
          table, column, kNumeric.contains(words[i].upper) ? "N" : "S");
    }
  }

  // A statement made too long by a string, name or comment left open (the caret is at it).
  if (message.starts_with("1 validation error detected: Value at 'statement'") &&
      at < text.size()) {
    std::string open = OpenedHint(text, at);
    if (!open.empty()) return open + "; everything after it became part of this statement";
  }

  // Lexical errors: the bare envelope, at the offending character.
  if (message == syntax::kEnvelope && at < text.size()) {
    const std::string_view rest = text.substr(at);
    for (std::string_view curly : {"\u2018", "\u2019", "\u201C", "\u201D"}) {
      if (!rest.starts_with(curly)) continue;
      const std::string fixed = StraightQuotes(text);
      return fmt::format(
          "{} is a typographic quote (pasted from slides or a document?): PartiQL takes straight "
          "quotes, ' for strings and \" for names: {}",
          curly, Trimmed(fixed));
    }
    if (std::string open = OpenedHint(text, at); !open.empty()) return open;
    if (rest[0] == '#') {
      if (std::string hint = UnquotedValueHint(text, at); !hint.empty()) {
        // `'USER#a; ... = 'USER#b'`: the quote before the word may close a string opened earlier.
        size_t begin = at;
        while (begin > 0 && (IsWordChar(text[begin - 1]) || text[begin - 1] == '#')) --begin;
        if (begin > 0 && text[begin - 1] == '\'') {
          if (std::optional<size_t> opened = StringClosedAt(text, begin - 1)) {
            std::string value(text.substr(begin, WordAt(text, begin).size()));
            return fmt::format(
                "the quote just before {} closes a string that began earlier, '{}: a closing ' "
                "is missing there",
                value, Excerpt(text, *opened + 1));
          }
        }
        return hint;
      }
      size_t begin = at;
      while (begin > 0 && (IsWordChar(text[begin - 1]) || text[begin - 1] == '#')) --begin;
      size_t end = at;
      while (end < text.size() && (IsWordChar(text[end]) || text[end] == '#' || text[end] == '-' ||
                                   text[end] == ':' || text[end] == '.')) {
        ++end;
      }
      if (begin < at) {
        std::string value(text.substr(begin, end - begin));
        if (begin > 0 && text[begin - 1] == '\'') {
          // `'USER#a; ... = 'USER#b'`: the quote before the word closes a string opened earlier.
          if (std::optional<size_t> opened = StringClosedAt(text, begin - 1)) {
            return fmt::format(
                "the quote just before {} closes a string that began earlier, '{}: a closing ' "
                "is missing there",
                value, Excerpt(text, *opened + 1));
          }
        }
        return fmt::format("{} looks like a value: strings take single quotes, '{}'", value, value);
      }
      return "# is not a comment in PartiQL: comments are -- to the end of the line, or "
             "/* ... */";
    }
    return "";
  }

  // A value without quotes where the grammar stops: a reserved word (PK = USER, PK =
  // USER-alice), a character that cannot follow a name (PK = alice@example.com), or a dash read
  // as a minus between two names (PK = alice-bob).
  if ((message == std::string(syntax::kEnvelope) + "Unexpected keyword" ||
       message == std::string(syntax::kEnvelope) + "Unexpected token after expression" ||
       message == "Unsupported operator in WHERE clause. Operator: -") &&
      at < text.size()) {
    if (std::string hint = UnquotedValueHint(text, at); !hint.empty()) return hint;
  }

  if (message.starts_with("Unsupported data type: ") && at < text.size() && IsWordChar(text[at])) {
    // {'PK': zed}: a bare word is an attribute name.
    std::string_view word = WordAt(text, at);
    std::string fixed(text);
    fixed.replace(at, word.size(), "'" + std::string(word) + "'");
    return fmt::format("{} is read as an attribute name; a string value takes single quotes: {}",
                       word, Trimmed(fixed));
  }
  if (message.starts_with("Tuple keys must be of type String") ||
      message.starts_with("Unsupported data type: \"")) {
    size_t from = first == "INSERT" ? Upper(text).find("VALUE") : 0;
    if (from == std::string::npos) from = 0;
    const std::string single = SingleQuoted(text, from);
    return fmt::format("{}; map keys and string values take single quotes: {}",
                       single != text ? "double quotes name attributes (and tables)"
                                      : "a map key without quotes is read as an attribute name",
                       Trimmed(QuotedMapKeys(single)));
  }

  if (first == "INSERT" && Has(words, "VALUES")) {
    std::string fixed = InsertValueForm(text);
    return "DynamoDB's PartiQL inserts one item, written as a map after VALUE: " +
           (fixed.empty() ? std::string("INSERT INTO \"T\" VALUE {'PK': 'USER#1', 'SK': 'PROFILE'}")
                          : fixed);
  }

  if (first == "SELECT" || first == "SCAN" || first == "EXPLAIN") {
    std::string aggregate = CalledFunction(text, words, {"COUNT", "SUM", "AVG", "MIN", "MAX"});
    if (aggregate == "COUNT") return fmt::format(kCount, aggregate);
    if (!aggregate.empty()) return fmt::format(kAggregate, aggregate);
    if (message == "Only select from a single table or index is supported." && at < text.size() &&
        text[at] == '\'') {
      // FROM 'Social': single quotes make a string.
      std::string_view rest = text.substr(at + 1);
      std::string name(rest.substr(0, rest.find('\'')));
      return fmt::format(
          "table names take double quotes (or none); single quotes make a string: FROM \"{}\"",
          name);
    }
    if (Has(words, "JOIN") || message == "Only select from a single table or index is supported.") {
      return kJoin;
    }
    if (message.find("DISTINCT") != std::string::npos) return kDistinct;
    if (message == "Unsupported clause: GROUP BY" || message == "Unsupported clause: HAVING") {
      return kGroupBy;
    }
    if (message == "Unsupported clause: LIMIT") return kLimit;
    if (message == "Unsupported clause: OFFSET") return kOffset;
    if (message == "Aliasing is not supported" ||
        message == std::string(syntax::kEnvelope) + "Expected FROM") {
      std::string_view word = WordAt(text, at);
      if (!word.empty() && Upper(word) != "FROM" && EditDistance(Upper(word), "FROM") <= 2) {
        return fmt::format("{}: did you mean FROM?", word);
      }
      if (message == "Aliasing is not supported") {
        return "PartiQL for DynamoDB has no aliases: name tables and attributes as they are, "
               "SELECT a, b FROM \"T\" WHERE ...";
      }
    }
  }
  return "";
}

}  // namespace keyhole::parser
