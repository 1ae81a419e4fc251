// Strict RFC 8259 reader and compact writer (see json.h).
//
// The reader is a recursive descent over [begin, end) that never reads past `end` (the text
// need not be NUL-terminated and may contain NUL bytes). Each container level costs one
// ParseArray/ParseObject frame, and `max_depth` bounds their number, so hostile input cannot
// exhaust the stack. Errors record the byte where they were found; line and column are only
// computed then, so the fast path counts nothing.
//
// Error positions: line is 1 + the number of '\n' before the error; column is 1 + the number of
// characters (UTF-8 sequences, i.e. bytes that are not continuation bytes) between the start of
// that line and the error. An unterminated string is reported at its opening quote, a malformed
// escape at its backslash, a bad number at its first character.
#include "core/json.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "core/utf8.h"

namespace keyhole::json {

namespace {
constexpr std::string_view kDepthError = "nesting exceeds the maximum depth of ";
}  // namespace

// ---------------------------------------------------------------------------------------------
// Value

Value Value::Bool(bool b) {
  Value v;
  v.kind_ = Kind::kBool;
  v.bool_ = b;
  return v;
}

Value Value::Number(std::string text) {
  Value v;
  v.kind_ = Kind::kNumber;
  v.str_ = std::move(text);
  return v;
}

Value Value::Int(int64_t i) { return Number(std::to_string(i)); }

Value Value::String(std::string s) {
  Value v;
  v.kind_ = Kind::kString;
  v.str_ = std::move(s);
  return v;
}

Value Value::MakeArray(Array a) {
  Value v;
  v.kind_ = Kind::kArray;
  v.array_ = std::move(a);
  return v;
}

Value Value::Raw(std::string text) {
  Value v;
  v.kind_ = Kind::kRaw;
  v.str_ = std::move(text);
  return v;
}

Value Value::MakeObject(Object o) {
  Value v;
  v.kind_ = Kind::kObject;
  v.object_ = std::move(o);
  return v;
}

const Value* Value::Find(std::string_view key) const {
  for (const Member& m : object_) {
    if (m.first == key) return &m.second;
  }
  return nullptr;
}

void Value::Add(std::string key, Value v) { object_.emplace_back(std::move(key), std::move(v)); }

void Value::Push(Value v) { array_.push_back(std::move(v)); }

// ---------------------------------------------------------------------------------------------
// Reader

namespace {

// Bytes a string may contain without further thought: printable ASCII except '"' and '\\'.
struct PlainTable {
  bool plain[256];
  constexpr PlainTable() : plain() {
    for (int c = 0x20; c < 0x80; ++c) plain[c] = c != '"' && c != '\\';
  }
};
constexpr PlainTable kPlain;

inline bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Length of the well-formed UTF-8 sequence at p, or 0. REQUIRES: p < end.
inline int Utf8Length(const unsigned char* p, const unsigned char* end) {
  return static_cast<int>(utf8::SequenceLength(
      std::string_view(reinterpret_cast<const char*>(p), static_cast<size_t>(end - p))));
}

inline void AppendUtf8(uint32_t cp, std::string* out) { utf8::Append(cp, out); }

constexpr char kUpperHex[] = "0123456789ABCDEF";

// Four upper-case hex digits: 0x1F -> "001F". REQUIRES: v <= 0xFFFF.
std::string HexText(uint32_t v) {
  std::string s(4, '0');
  for (int i = 3; i >= 0; --i, v >>= 4) s[i] = kUpperHex[v & 0xF];
  return s;
}

// Names the character at p for an "unexpected ..." message. REQUIRES: p < end.
std::string Describe(const char* p, const char* end) {
  const auto c = static_cast<unsigned char>(*p);
  if (c < 0x20 || c == 0x7F) return "control character U+" + HexText(c);
  if (c < 0x80) return std::string("character '") + static_cast<char>(c) + "'";
  const auto* u = reinterpret_cast<const unsigned char*>(p);
  const int n = Utf8Length(u, reinterpret_cast<const unsigned char*>(end));
  if (n == 0) {
    return std::string("byte 0x") + kUpperHex[c >> 4] + kUpperHex[c & 0xF] + " (invalid UTF-8)";
  }
  return "character '" + std::string(p, n) + "'";
}

// Value of a hex digit, or -1.
inline int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

class Parser {
 public:
  Parser(std::string_view text, int max_depth)
      : begin_(text.data()),
        p_(text.data()),
        end_(text.data() + text.size()),
        max_depth_(max_depth) {}

  // For TextReader: one construct at the start of the text, and how far it went.
  size_t consumed() const { return static_cast<size_t>(p_ - begin_); }
  bool String(std::string* out) { return p_ < end_ && *p_ == '"' && ParseString(out); }
  bool AnyValue(Value* out) { return ParseValue(out, 0); }

  Result<Value> Run() {
    if (end_ - p_ >= 3 && std::memcmp(p_, "\xEF\xBB\xBF", 3) == 0) {
      Fail(p_, "byte order mark (U+FEFF) is not allowed");
      return Error();
    }
    Value v;
    SkipWhitespace();
    if (!ParseValue(&v, 0)) return Error();
    SkipWhitespace();
    if (p_ != end_) {
      Fail(p_, "unexpected " + Describe(p_, end_) + " after the JSON value");
      return Error();
    }
    return v;
  }

 private:
  bool Fail(const char* at, std::string what) {
    err_at_ = at;
    err_ = std::move(what);
    return false;
  }

  Status Error() const {
    int line = 1;
    const char* line_start = begin_;
    for (const char* q = begin_; q < err_at_; ++q) {
      if (*q == '\n') {
        ++line;
        line_start = q + 1;
      }
    }
    int column = 1;
    for (const char* q = line_start; q < err_at_; ++q) {
      if ((static_cast<unsigned char>(*q) & 0xC0) != 0x80) ++column;
    }
    return Status::Validation("Invalid JSON: " + err_ + " at line " + std::to_string(line) +
                              ", column " + std::to_string(column));
  }

  void SkipWhitespace() {
    while (p_ < end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
  }

  // Parses the value starting at p_ (whitespace already skipped). `depth` is the number of
  // containers around it.
  bool ParseValue(Value* out, int depth) {
    if (p_ == end_) return Fail(p_, "unexpected end of input");
    switch (*p_) {
      case '{':
        return ParseObject(out, depth + 1);
      case '[':
        return ParseArray(out, depth + 1);
      case '"': {
        std::string s;
        if (!ParseString(&s)) return false;
        *out = Value::String(std::move(s));
        return true;
      }
      case 't':
        return ParseLiteral("true", Value::Bool(true), out);
      case 'f':
        return ParseLiteral("false", Value::Bool(false), out);
      case 'n':
        return ParseLiteral("null", Value(), out);
      default:
        if (*p_ == '-' || IsDigit(*p_)) return ParseNumber(out);
        return Fail(p_, "unexpected " + Describe(p_, end_));
    }
  }

  bool ParseLiteral(std::string_view word, Value v, Value* out) {
    if (static_cast<size_t>(end_ - p_) < word.size() ||
        std::memcmp(p_, word.data(), word.size()) != 0) {
      return Fail(p_, "invalid literal (expected '" + std::string(word) + "')");
    }
    p_ += word.size();
    *out = std::move(v);
    return true;
  }

  // number = [ minus ] int [ frac ] [ exp ]; int = zero / ( digit1-9 *DIGIT )
  bool ParseNumber(Value* out) {
    const char* start = p_;
    if (*p_ == '-') ++p_;
    if (p_ == end_ || !IsDigit(*p_)) {
      return Fail(start, "invalid number (expected a digit after '-')");
    }
    if (*p_ == '0') {
      ++p_;
      if (p_ < end_ && IsDigit(*p_)) {
        return Fail(start, "invalid number (leading zeros are not allowed)");
      }
    } else {
      while (p_ < end_ && IsDigit(*p_)) ++p_;
    }
    if (p_ < end_ && *p_ == '.') {
      ++p_;
      if (p_ == end_ || !IsDigit(*p_)) {
        return Fail(start, "invalid number (expected a digit after '.')");
      }
      while (p_ < end_ && IsDigit(*p_)) ++p_;
    }
    if (p_ < end_ && (*p_ == 'e' || *p_ == 'E')) {
      ++p_;
      if (p_ < end_ && (*p_ == '+' || *p_ == '-')) ++p_;
      if (p_ == end_ || !IsDigit(*p_)) {
        return Fail(start, "invalid number (expected a digit in the exponent)");
      }
      while (p_ < end_ && IsDigit(*p_)) ++p_;
    }
    *out = Value::Number(std::string(start, p_));
    return true;
  }

  // REQUIRES: *p_ == '"'. Appends the decoded string to *out.
  bool ParseString(std::string* out) {
    const char* open = p_++;
    const auto* uend = reinterpret_cast<const unsigned char*>(end_);
    for (;;) {
      // A run of bytes copied verbatim: printable ASCII and well-formed UTF-8.
      const char* run = p_;
      while (p_ < end_) {
        const auto c = static_cast<unsigned char>(*p_);
        if (kPlain.plain[c]) {
          ++p_;
        } else if (c >= 0x80) {
          const int n = Utf8Length(reinterpret_cast<const unsigned char*>(p_), uend);
          if (n == 0) break;
          p_ += n;
        } else {
          break;
        }
      }
      out->append(run, p_);
      if (p_ == end_) return Fail(open, "unterminated string");
      const auto c = static_cast<unsigned char>(*p_);
      if (c == '"') {
        ++p_;
        return true;
      }
      if (c == '\\') {
        if (!ParseEscape(open, out)) return false;
      } else if (c < 0x20) {
        return Fail(p_, "unescaped control character U+" + HexText(c) + " in string");
      } else {
        return Fail(p_, "invalid UTF-8 in string");
      }
    }
  }

  // REQUIRES: *p_ == '\\'.
  bool ParseEscape(const char* open, std::string* out) {
    const char* esc = p_++;
    if (p_ == end_) return Fail(open, "unterminated string");
    const char c = *p_++;
    switch (c) {
      case '"':
      case '\\':
      case '/':
        out->push_back(c);
        return true;
      case 'b':
        out->push_back('\b');
        return true;
      case 'f':
        out->push_back('\f');
        return true;
      case 'n':
        out->push_back('\n');
        return true;
      case 'r':
        out->push_back('\r');
        return true;
      case 't':
        out->push_back('\t');
        return true;
      case 'u':
        break;
      default:
        if (c > 0x20 && c < 0x7F)
          return Fail(esc, std::string("invalid escape sequence '\\") + c + "'");
        return Fail(
            esc, "invalid escape sequence (backslash followed by " + Describe(p_ - 1, end_) + ")");
    }
    uint32_t cp;
    if (!Hex4(&cp)) return Fail(esc, "invalid \\u escape (expected four hex digits)");
    if (cp >= 0xDC00 && cp <= 0xDFFF) {
      return Fail(esc, "unpaired surrogate \\u" + HexText(cp) + " in string");
    }
    if (cp >= 0xD800 && cp <= 0xDBFF) {
      uint32_t low;
      if (end_ - p_ < 2 || p_[0] != '\\' || p_[1] != 'u') {
        return Fail(esc, "unpaired surrogate \\u" + HexText(cp) + " in string");
      }
      p_ += 2;
      if (!Hex4(&low)) return Fail(p_ - 2, "invalid \\u escape (expected four hex digits)");
      if (low < 0xDC00 || low > 0xDFFF) {
        return Fail(esc, "unpaired surrogate \\u" + HexText(cp) + " in string");
      }
      cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
    }
    AppendUtf8(cp, out);
    return true;
  }

  bool Hex4(uint32_t* out) {
    if (end_ - p_ < 4) return false;
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
      const int h = HexValue(p_[i]);
      if (h < 0) return false;
      v = (v << 4) | static_cast<uint32_t>(h);
    }
    p_ += 4;
    *out = v;
    return true;
  }

  bool TooDeep(int depth) {
    if (depth <= max_depth_) return false;
    return !Fail(p_, std::string(kDepthError) + std::to_string(max_depth_));
  }

  // REQUIRES: *p_ == '['. `depth` counts this array.
  bool ParseArray(Value* out, int depth) {
    if (TooDeep(depth)) return false;
    ++p_;
    Value::Array items;
    SkipWhitespace();
    if (p_ < end_ && *p_ == ']') {
      ++p_;
      *out = Value::MakeArray(std::move(items));
      return true;
    }
    for (;;) {
      items.emplace_back();
      if (!ParseValue(&items.back(), depth)) return false;
      SkipWhitespace();
      if (p_ == end_) return Fail(p_, "unexpected end of input (expected ',' or ']')");
      if (*p_ == ']') {
        ++p_;
        break;
      }
      if (*p_ != ',') return Fail(p_, "expected ',' or ']' but found " + Describe(p_, end_));
      const char* comma = p_++;
      SkipWhitespace();
      if (p_ < end_ && *p_ == ']') return Fail(comma, "trailing comma in array");
    }
    *out = Value::MakeArray(std::move(items));
    return true;
  }

  // REQUIRES: *p_ == '{'. `depth` counts this object.
  bool ParseObject(Value* out, int depth) {
    if (TooDeep(depth)) return false;
    ++p_;
    Value::Object members;
    SkipWhitespace();
    if (p_ < end_ && *p_ == '}') {
      ++p_;
      *out = Value::MakeObject(std::move(members));
      return true;
    }
    for (;;) {
      if (p_ == end_) return Fail(p_, "unexpected end of input (expected a member name)");
      if (*p_ != '"') {
        return Fail(p_, "expected a member name in double quotes but found " + Describe(p_, end_));
      }
      members.emplace_back(std::string(), Value());  // clang rejects emplace_back() here
      Value::Member& m = members.back();
      if (!ParseString(&m.first)) return false;
      SkipWhitespace();
      if (p_ == end_) return Fail(p_, "unexpected end of input (expected ':')");
      if (*p_ != ':') return Fail(p_, "expected ':' but found " + Describe(p_, end_));
      ++p_;
      SkipWhitespace();
      if (!ParseValue(&m.second, depth)) return false;
      SkipWhitespace();
      if (p_ == end_) return Fail(p_, "unexpected end of input (expected ',' or '}')");
      if (*p_ == '}') {
        ++p_;
        break;
      }
      if (*p_ != ',') return Fail(p_, "expected ',' or '}' but found " + Describe(p_, end_));
      const char* comma = p_++;
      SkipWhitespace();
      if (p_ < end_ && *p_ == '}') return Fail(comma, "trailing comma in object");
    }
    *out = Value::MakeObject(std::move(members));
    return true;
  }

  const char* const begin_;
  const char* p_;
  const char* const end_;
  const int max_depth_;
  const char* err_at_ = nullptr;
  std::string err_;
};

// ---------------------------------------------------------------------------------------------
// Writer

// Bytes that must be escaped in a string literal: '"', '\\' and C0 controls.
struct EscapeTable {
  bool escape[256];
  constexpr EscapeTable() : escape() {
    for (int c = 0; c < 0x20; ++c) escape[c] = true;
    escape[static_cast<int>('"')] = true;
    escape[static_cast<int>('\\')] = true;
  }
};
constexpr EscapeTable kEscape;

// Whether any of the eight bytes of `x` is one kEscape escapes (a C0 control, '"' or '\\'),
// with the word tricks of "Bit Twiddling Hacks" (haszero, hasless): exact, no false positives.
constexpr bool AnyToEscape(uint64_t x) {
  constexpr uint64_t kOnes = 0x0101010101010101ULL, kHighs = 0x8080808080808080ULL;
  auto has_zero = [](uint64_t v) { return ((v - kOnes) & ~v & kHighs) != 0; };
  const bool control = ((x - kOnes * 0x20) & ~x & kHighs) != 0;  // a byte below 0x20
  return control || has_zero(x ^ (kOnes * '"')) || has_zero(x ^ (kOnes * '\\'));
}

void AppendValue(const Value& v, std::string* out) {
  switch (v.kind()) {
    case Kind::kNull:
      out->append("null");
      return;
    case Kind::kBool:
      out->append(v.boolean() ? "true" : "false");
      return;
    case Kind::kNumber:
      out->append(v.number_text());
      return;
    case Kind::kString:
      AppendQuoted(v.str(), out);
      return;
    case Kind::kRaw:
      out->append(v.str());
      return;
    case Kind::kArray: {
      out->push_back('[');
      bool first = true;
      for (const Value& e : v.array()) {
        if (!first) out->push_back(',');
        first = false;
        AppendValue(e, out);
      }
      out->push_back(']');
      return;
    }
    case Kind::kObject: {
      out->push_back('{');
      bool first = true;
      for (const Value::Member& m : v.object()) {
        if (!first) out->push_back(',');
        first = false;
        AppendQuoted(m.first, out);
        out->push_back(':');
        AppendValue(m.second, out);
      }
      out->push_back('}');
      return;
    }
  }
}

}  // namespace

Result<Value> Parse(std::string_view text, int max_depth) { return Parser(text, max_depth).Run(); }

// ---------------------------------------------------------------------------------------------
// TextReader

char TextReader::Peek() {
  while (pos_ < text_.size()) {
    const char c = text_[pos_];
    if (c != ' ' && c != '\n' && c != '\r' && c != '\t') return c;
    ++pos_;
  }
  return '\0';
}

bool TextReader::Consume(char c) {
  if (Peek() != c || pos_ == text_.size()) return false;
  ++pos_;
  return true;
}

bool TextReader::AtEnd() {
  Peek();
  return pos_ == text_.size();
}

bool TextReader::ReadString(std::string* out) {
  if (Peek() != '"') return false;
  // The usual string, printable ASCII up to the closing quote, is taken at once.
  const char* begin = text_.data() + pos_ + 1;
  const char* end = text_.data() + text_.size();
  const char* q = begin;
  while (q < end && kPlain.plain[static_cast<unsigned char>(*q)]) ++q;
  if (q < end && *q == '"') {
    out->assign(begin, q);
    pos_ = static_cast<size_t>(q + 1 - text_.data());
    return true;
  }
  out->clear();
  Parser p(text_.substr(pos_), 0);
  if (!p.String(out)) return false;
  pos_ += p.consumed();
  return true;
}

bool TextReader::ReadBool(bool* out) {
  const char c = Peek();
  const std::string_view rest = text_.substr(pos_);
  if (c == 't' && rest.starts_with("true")) {
    pos_ += 4;
    *out = true;
    return true;
  }
  if (c == 'f' && rest.starts_with("false")) {
    pos_ += 5;
    *out = false;
    return true;
  }
  return false;
}

bool TextReader::ReadValue(Value* out, int max_depth) {
  Peek();  // past whitespace: the parser fails at the end of the text by itself
  Parser p(text_.substr(pos_), max_depth);
  if (!p.AnyValue(out)) return false;
  pos_ += p.consumed();
  return true;
}

std::string ToValidUtf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const auto* end = p + text.size();
  while (p < end) {
    const int n = *p < 0x80 ? 1 : Utf8Length(p, end);
    if (n > 0) {
      out.append(reinterpret_cast<const char*>(p), static_cast<size_t>(n));
      p += n;
    } else {
      out += "\xEF\xBF\xBD";  // U+FFFD
      ++p;
    }
  }
  return out;
}

bool IsDepthError(const Status& s) {
  return s.IsValidation() && s.message().find(kDepthError) != std::string::npos;
}

std::string Write(const Value& v) {
  std::string out;
  AppendValue(v, &out);
  return out;
}

namespace {

// `v` on one line with a space after each ',' and ':'.
void AppendSpaced(const Value& v, std::string* out) {
  if (v.kind() == Kind::kArray) {
    out->push_back('[');
    for (size_t i = 0; i < v.array().size(); ++i) {
      if (i) out->append(", ");
      AppendSpaced(v.array()[i], out);
    }
    out->push_back(']');
  } else if (v.kind() == Kind::kObject) {
    out->push_back('{');
    for (size_t i = 0; i < v.object().size(); ++i) {
      if (i) out->append(", ");
      AppendQuoted(v.object()[i].first, out);
      out->append(": ");
      AppendSpaced(v.object()[i].second, out);
    }
    out->push_back('}');
  } else {
    AppendValue(v, out);
  }
}

// `trailing`: the characters that follow `v` on its line (a ',' between members).
void AppendIndented(const Value& v, size_t indent, size_t width, std::string* out,
                    size_t trailing = 0) {
  const bool container = v.kind() == Kind::kArray || v.kind() == Kind::kObject;
  std::string line;
  AppendSpaced(v, &line);
  const size_t column = out->size() - std::min(out->size(), out->rfind('\n') + 1);
  if (!container || column + line.size() + trailing <= width ||
      (v.kind() == Kind::kArray ? v.array().empty() : v.object().empty())) {
    out->append(line);
    return;
  }
  const std::string pad(indent + 2, ' ');
  const bool array = v.kind() == Kind::kArray;
  out->append(array ? "[\n" : "{\n");
  const size_t n = array ? v.array().size() : v.object().size();
  for (size_t i = 0; i < n; ++i) {
    out->append(pad);
    if (!array) {
      AppendQuoted(v.object()[i].first, out);
      out->append(": ");
    }
    AppendIndented(array ? v.array()[i] : v.object()[i].second, indent + 2, width, out,
                   i + 1 < n ? 1 : 0);
    out->append(i + 1 < n ? ",\n" : "\n");
  }
  out->append(indent, ' ');
  out->push_back(array ? ']' : '}');
}

}  // namespace

std::string WriteIndented(const Value& v, size_t width) {
  std::string out;
  AppendIndented(v, 0, width, &out);
  out.push_back('\n');
  return out;
}

void AppendQuoted(std::string_view s, std::string* out) {
  out->push_back('"');
  const char* p = s.data();
  const char* end = p + s.size();
  while (p < end) {
    const char* run = p;
    // Eight bytes at a time while none needs escaping (most text), then byte by byte.
    for (uint64_t word; end - p >= 8; p += 8) {
      std::memcpy(&word, p, 8);
      if (AnyToEscape(word)) break;
    }
    while (p < end && !kEscape.escape[static_cast<unsigned char>(*p)]) ++p;
    out->append(run, p);
    if (p == end) break;
    const auto c = static_cast<unsigned char>(*p++);
    switch (c) {
      case '"':
        out->append("\\\"");
        break;
      case '\\':
        out->append("\\\\");
        break;
      case '\b':
        out->append("\\b");
        break;
      case '\f':
        out->append("\\f");
        break;
      case '\n':
        out->append("\\n");
        break;
      case '\r':
        out->append("\\r");
        break;
      case '\t':
        out->append("\\t");
        break;
      default: {
        const char esc[6] = {
            '\\', 'u', '0', '0', "0123456789abcdef"[c >> 4], "0123456789abcdef"[c & 0xF]};
        out->append(esc, 6);
      }
    }
  }
  out->push_back('"');
}

}  // namespace keyhole::json
