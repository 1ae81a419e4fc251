// PartiQL lexical checks, positions and script splitting (contracts in partiql_lexer.h and
// partiql.h). No PEGTL: these are single passes over the text.
#include "parser/partiql_lexer.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/utf8.h"
#include "parser/partiql.h"
#include "parser/partiql_words.h"

namespace keyhole::parser {
namespace lexer {
namespace {

// Eight bytes of text at once (scripts and statements are mostly ASCII).
constexpr uint64_t kHighBits = 0x8080808080808080u;
constexpr uint64_t kOnes = 0x0101010101010101u;
uint64_t Load8(const char* p) {
  uint64_t w;
  std::memcpy(&w, p, 8);
  return w;
}
// Whether one of w's bytes is zero.
bool HasZeroByte(uint64_t w) { return ((w - kOnes) & ~w & kHighBits) != 0; }

constexpr size_t kNone = std::string_view::npos;

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
using words::IsIdentChar;
using words::IsIdentStart;
char Upper(char c) { return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c; }

bool AtComment(std::string_view text, size_t i) {
  if (i + 1 >= text.size()) return false;
  const char a = text[i], b = text[i + 1];
  return (a == '-' && b == '-') || (a == '/' && b == '*');
}

// REQUIRES: AtComment(text, i). The offset past the comment; kNone for an unterminated /*.
size_t SkipComment(std::string_view text, size_t i) {
  if (text[i] == '-') {
    const size_t nl = text.find('\n', i);
    return nl == kNone ? text.size() : nl + 1;
  }
  const size_t close = text.find("*/", i + 2);
  return close == kNone ? kNone : close + 2;
}

// REQUIRES: text[i] == quote. A run quoted with `quote`, where a doubled quote stands for one.
// The offset past the closing quote; kNone when unterminated.
size_t SkipQuoted(std::string_view text, size_t i, char quote) {
  for (size_t j = i + 1; j < text.size(); ++j) {
    if (text[j] != quote) continue;
    if (j + 1 < text.size() && text[j + 1] == quote) {
      ++j;
      continue;
    }
    return j + 1;
  }
  return kNone;
}

// REQUIRES: text[i] == '"'. A JSON string with backslash escapes; kNone when unterminated.
size_t SkipJsonString(std::string_view text, size_t i) {
  for (size_t j = i + 1; j < text.size(); ++j) {
    if (text[j] == '\\') {
      ++j;
    } else if (text[j] == '"') {
      return j + 1;
    }
  }
  return kNone;
}

// REQUIRES: a digit at i, or '.' followed by a digit. The offset past the number; kNone when the
// exponent has no digits or its value does not fit in a 32-bit int.
size_t SkipNumber(std::string_view text, size_t i) {
  const size_t n = text.size();
  while (i < n && IsDigit(text[i])) ++i;
  if (i < n && text[i] == '.') {
    ++i;
    while (i < n && IsDigit(text[i])) ++i;
  }
  if (i < n && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool negative = false;
    if (i < n && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';
    if (i >= n || !IsDigit(text[i])) return kNone;
    const int64_t limit = negative ? int64_t{INT32_MAX} + 1 : int64_t{INT32_MAX};
    int64_t value = 0;
    for (; i < n && IsDigit(text[i]); ++i) {
      value = value * 10 + (text[i] - '0');
      if (value > limit) return kNone;
    }
  }
  return i;
}

// The length of the operator or punctuation token at i, or 0 when none starts there.
// Two characters: <= >= <> != || << >>. One: < > = + - * / % @ ( ) [ ] { } , . : ; ?
size_t OperatorLength(std::string_view text, size_t i) {
  const char c = text[i];
  const char d = i + 1 < text.size() ? text[i + 1] : '\0';
  switch (c) {
    case '<':
      return d == '=' || d == '>' || d == '<' ? 2 : 1;
    case '>':
      return d == '=' || d == '>' ? 2 : 1;
    case '!':
      return d == '=' ? 2 : 0;
    case '|':
      return d == '|' ? 2 : 0;
    case '=':
    case '+':
    case '-':
    case '*':
    case '/':
    case '%':
    case '@':
    case '(':
    case ')':
    case '[':
    case ']':
    case '{':
    case '}':
    case ',':
    case '.':
    case ':':
    case ';':
    case '?':
      return 1;
    default:
      return 0;
  }
}

}  // namespace

size_t SkipSpace(std::string_view text, size_t i) {
  while (i < text.size()) {
    if (IsSpace(text[i])) {
      ++i;
    } else if (AtComment(text, i)) {
      const size_t next = SkipComment(text, i);
      if (next == kNone) return i;
      i = next;
    } else {
      break;
    }
  }
  return i;
}

bool FirstWordIs(std::string_view text, std::string_view word) {
  size_t i = SkipSpace(text, 0);
  for (char w : word) {
    if (i >= text.size() || Upper(text[i]) != w) return false;
    ++i;
  }
  return i >= text.size() || !IsIdentChar(text[i]);
}

bool StartsApiCall(std::string_view text) {
  if (FirstWordIs(text, "CALL")) return true;
  // `<Operation> {json}`: a word of letters, then (after blanks) the JSON body's `{`. No PartiQL
  // statement starts that way.
  size_t i = SkipSpace(text, 0), word = i;
  while (i < text.size() &&
         ((text[i] >= 'A' && text[i] <= 'Z') || (text[i] >= 'a' && text[i] <= 'z')))
    ++i;
  if (i == word) return false;
  while (i < text.size() &&
         (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
    ++i;
  return i < text.size() && text[i] == '{';
}

namespace {

enum class TokenKind { kString, kNumber, kOther };  // 'strings', numbers, everything else

// Walks the tokens of `text` (whitespace and comments are not tokens), calling
// on_token(begin, end, kind) for each: returns the offset of the first lexical error, or kNone
// when there is none.
template <typename OnToken>
size_t WalkTokens(std::string_view text, const OnToken& on_token) {
  const size_t n = text.size();
  size_t i = 0;
  while (i < n) {
    const char c = text[i];
    size_t next = kNone;
    TokenKind kind = TokenKind::kOther;
    bool token = true;
    if (IsSpace(c)) {
      next = i + 1;
      token = false;
    } else if (AtComment(text, i)) {
      next = SkipComment(text, i);
      token = false;
    } else if (c == '\'' || c == '"') {
      next = SkipQuoted(text, i, c);
      if (c == '\'') kind = TokenKind::kString;
    } else if (IsDigit(c) || (c == '.' && i + 1 < n && IsDigit(text[i + 1]))) {
      next = SkipNumber(text, i);
      kind = TokenKind::kNumber;
    } else if (IsIdentStart(c)) {
      next = i + 1;
      while (next < n && IsIdentChar(text[next])) ++next;
    } else if (const size_t len = OperatorLength(text, i); len > 0) {
      next = i + len;
    }
    if (next == kNone) return i;
    if (token) on_token(i, next, kind);
    i = next;
  }
  return kNone;
}

size_t Tokenize(std::string_view text, std::vector<size_t>* ends) {
  return WalkTokens(text, [&](size_t, size_t end, TokenKind) {
    if (ends != nullptr) ends->push_back(end);
  });
}

}  // namespace

std::optional<size_t> FindLexicalError(std::string_view text) {
  const size_t error = Tokenize(text, nullptr);
  if (error == kNone) return std::nullopt;
  return error;
}

std::optional<size_t> FindLexicalError(std::string_view text, std::vector<size_t>* ends) {
  ends->clear();
  const size_t error = Tokenize(text, ends);
  if (error == kNone) return std::nullopt;
  ends->clear();
  return error;
}

bool ShapeOf(std::string_view text, Shape* shape) {
  shape->key.clear();
  shape->literal_ends.clear();
  shape->literal_starts.clear();
  size_t copied = 0;  // text[copied, ...) is not yet in the key
  auto flush = [&](size_t to) {
    std::string_view chunk = text.substr(copied, to - copied);
    for (size_t at; (at = chunk.find('\x01')) != kNone; chunk.remove_prefix(at + 1)) {
      shape->key.append(chunk.substr(0, at + 1));
      shape->key += '\x01';
    }
    shape->key.append(chunk);
  };
  const size_t error = WalkTokens(text, [&](size_t begin, size_t end, TokenKind kind) {
    if (kind == TokenKind::kOther) return;
    flush(begin);
    if (kind == TokenKind::kString) {
      shape->key += "\x01S";
    } else {
      shape->key += "\x01N";
      for (size_t j = begin; j < end; ++j) shape->key += IsDigit(text[j]) ? '0' : text[j];
      shape->key += '\x01';
    }
    shape->literal_ends.push_back(end);
    shape->literal_starts.push_back(begin);
    copied = end;
  });
  if (error != kNone) return false;
  flush(text.size());
  return true;
}

std::vector<size_t> TokenEnds(std::string_view text) {
  std::vector<size_t> ends;
  Tokenize(text, &ends);
  return ends;
}

}  // namespace lexer

// ---- positions ----

namespace {

// Computes positions for increasing offsets of one text in a single pass overall.
// Moves *pos (a position in `text`) forward to offset `to`, counting lines and characters.
// REQUIRES: pos->offset <= to <= text.size().
void AdvancePosition(std::string_view text, size_t to, SourcePosition* pos) {
  for (; pos->offset < to; ++pos->offset) {
    // Eight ASCII bytes without a newline: eight columns.
    while (to - pos->offset >= 8) {
      const uint64_t w = lexer::Load8(text.data() + pos->offset);
      if ((w & lexer::kHighBits) != 0 || lexer::HasZeroByte(w ^ (lexer::kOnes * '\n'))) break;
      pos->offset += 8;
      pos->column += 8;
    }
    if (pos->offset == to) break;
    const auto byte = static_cast<unsigned char>(text[pos->offset]);
    if (byte == '\n') {
      ++pos->line;
      pos->column = 1;
    } else if ((byte & 0xC0) != 0x80) {
      ++pos->column;
    }
  }
}

class PositionTracker {
 public:
  explicit PositionTracker(std::string_view text) : text_(text) {}
  // REQUIRES: offsets passed in non-decreasing order.
  SourcePosition At(size_t offset) {
    AdvancePosition(text_, std::min(offset, text_.size()), &pos_);
    return pos_;
  }

 private:
  std::string_view text_;
  SourcePosition pos_;
};

// A scan of a script: its statements, and whether it ends inside nothing unfinished.
struct ScriptScan {
  std::vector<ScriptStatement> statements;
  bool complete = true;
};

// Whether `c` may begin a comment, a string, a name or a JSON nesting, or end a statement.
bool MayEndOrOpen(char c) {
  switch (c) {
    case '-':
    case '/':
    case '"':
    case '\'':
    case '{':
    case '[':
    case '}':
    case ']':
    case ';':
      return true;
    default:
      return false;
  }
}

// The end of the statement starting at `start` (the offset of its `;`, or the end of the
// script), skipping semicolons inside strings, identifiers, comments and CALL's JSON body.
// *terminated is true when a `;` ends it.
size_t StatementEnd(std::string_view script, size_t start, bool* terminated) {
  using lexer::kNone;
  const bool call = lexer::StartsApiCall(script.substr(start));
  int depth = 0;  // JSON nesting, CALL only
  size_t i = start;
  *terminated = false;
  while (i < script.size()) {
    const char c = script[i];
    size_t next = i + 1;
    if (!MayEndOrOpen(c)) {  // most characters: nothing starts or ends here
      i = next;
      continue;
    }
    if (lexer::AtComment(script, i)) {
      next = lexer::SkipComment(script, i);
    } else if (c == '"') {
      next = call ? lexer::SkipJsonString(script, i) : lexer::SkipQuoted(script, i, '"');
    } else if (c == '\'' && !call) {
      next = lexer::SkipQuoted(script, i, '\'');
    } else if (call && (c == '{' || c == '[')) {
      ++depth;
    } else if (call && (c == '}' || c == ']') && depth > 0) {
      --depth;
    } else if (c == ';' && depth == 0) {
      *terminated = true;
      return i;
    }
    if (next == kNone) return script.size();
    i = next;
  }
  return i;
}

ScriptScan ScanScript(std::string_view script) {
  ScriptScan scan;
  PositionTracker positions(script);
  size_t i = 0;
  while (true) {
    // Leading whitespace, comments and empty statements.
    while (true) {
      i = lexer::SkipSpace(script, i);
      if (i < script.size() && script[i] == ';') {
        ++i;
        continue;
      }
      break;
    }
    if (i >= script.size()) break;
    if (lexer::AtComment(script, i)) {  // an unterminated /* ...: a statement to the end,
      ScriptStatement st;               // whose parse says the comment is never closed
      st.text = std::string(script.substr(i));
      st.terminated = false;
      st.start = positions.At(i);
      scan.statements.push_back(std::move(st));
      scan.complete = false;
      break;
    }
    ScriptStatement st;
    const size_t end = StatementEnd(script, i, &st.terminated);
    size_t trimmed = end;
    while (trimmed > i && lexer::IsSpace(script[trimmed - 1])) --trimmed;
    st.text = std::string(script.substr(i, trimmed - i));
    st.start = positions.At(i);
    scan.statements.push_back(std::move(st));
    if (!scan.statements.back().terminated) {
      scan.complete = false;
      break;
    }
    i = end + 1;
  }
  return scan;
}

}  // namespace

SourcePosition PositionOf(std::string_view text, size_t offset) {
  return PositionTracker(text).At(offset);
}

std::vector<ScriptStatement> SplitScript(std::string_view script) {
  return ScanScript(script).statements;
}

ScriptWalker::ScriptWalker(std::string_view script, bool dot_commands)
    : script_(script), dot_commands_(dot_commands) {}

SourcePosition ScriptWalker::Advance(size_t to) {
  AdvancePosition(script_, to, &at_);
  return at_;
}

std::optional<ScriptPiece> ScriptWalker::Next() {
  // Whitespace, complete comments and empty statements.
  size_t i = pos_;
  while (true) {
    i = lexer::SkipSpace(script_, i);
    if (i < script_.size() && script_[i] == ';') {
      ++i;
      continue;
    }
    break;
  }
  if (i >= script_.size()) {
    pos_ = script_.size();
    return std::nullopt;
  }
  ScriptPiece piece;
  const size_t line_start = script_.rfind('\n', i == 0 ? 0 : i - 1);
  const size_t from = line_start == std::string_view::npos || i == 0 ? 0 : line_start + 1;
  const bool first_on_line =
      script_.substr(from, i - from).find_first_not_of(" \t\r") == std::string_view::npos;
  if (dot_commands_ && script_[i] == '.' && first_on_line) {
    size_t eol = script_.find('\n', i);
    if (eol == std::string_view::npos) eol = script_.size();
    size_t end = eol;
    while (end > i && lexer::IsSpace(script_[end - 1])) --end;
    piece.dot_command = true;
    piece.text = script_.substr(i, end - i);
    piece.start = Advance(i);
    pos_ = eol;
    return piece;
  }
  size_t end = 0;
  if (lexer::AtComment(script_, i)) {  // an unterminated /* ...: to the end
    end = script_.size();
    piece.terminated = false;
  } else {
    end = StatementEnd(script_, i, &piece.terminated);
  }
  size_t trimmed = end;
  while (trimmed > i && lexer::IsSpace(script_[trimmed - 1])) --trimmed;
  piece.text = script_.substr(i, trimmed - i);
  piece.start = Advance(i);
  pos_ = piece.terminated ? end + 1 : script_.size();
  return piece;
}

bool IsComplete(std::string_view buffer) { return ScanScript(buffer).complete; }

}  // namespace keyhole::parser
