#include "parser/syntax_error.h"

#include <algorithm>
#include <vector>

#include "core/require.h"
#include "core/utf8.h"

namespace keyhole::parser {
namespace {

struct Token {
  size_t begin = 0;
  size_t end = 0;
  bool whitespace = false;
};

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
bool IsAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsIdChar(char c) { return IsAlpha(c) || IsDigit(c) || c == '_'; }

// The length of the UTF-8 character starting at text[i]; 1 for a stray or truncated byte.
size_t Utf8Length(std::string_view text, size_t i) {
  return std::max<size_t>(1, utf8::SequenceLength(text.substr(i)));
}

std::vector<Token> Tokenize(std::string_view text) {
  std::vector<Token> tokens;
  size_t i = 0;
  while (i < text.size()) {
    Token t{i, i + 1, false};
    const char c = text[i];
    auto extend = [&](auto pred) {
      while (t.end < text.size() && pred(text[t.end])) ++t.end;
    };
    if (IsSpace(c)) {
      t.whitespace = true;
      extend(IsSpace);
    } else if (IsAlpha(c)) {
      extend(IsIdChar);
    } else if (IsDigit(c)) {
      extend(IsDigit);
    } else if (c == '#' || c == ':') {
      extend(IsIdChar);
    } else if ((c == '<' || c == '>') && i + 1 < text.size() &&
               (text[i + 1] == '=' || (c == '<' && text[i + 1] == '>'))) {
      t.end = i + 2;
    } else {
      t.end = i + Utf8Length(text, i);
    }
    tokens.push_back(t);
    i = t.end;
  }
  return tokens;
}

}  // namespace

std::string SyntaxErrorText(std::string_view text, size_t offset) {
  KH_REQUIRE(offset <= text.size());
  const std::vector<Token> tokens = Tokenize(text);
  size_t i = 0;  // index of the offending token; tokens.size() means <EOF>
  while (i < tokens.size() && tokens[i].end <= offset) ++i;
  if (i < tokens.size() && tokens[i].whitespace) ++i;
  const bool at_end = i == tokens.size();
  auto str = [&](size_t k) {
    return text.substr(tokens[k].begin, tokens[k].end - tokens[k].begin);
  };

  std::string near;
  if (i > 1 && tokens[i - 1].whitespace) near += str(i - 2);
  if (i > 0) near += str(i - 1);
  if (!at_end) {
    near += str(i);
    if (i + 1 < tokens.size()) {
      near += str(i + 1);
      if (tokens[i + 1].whitespace && i + 2 < tokens.size()) near += str(i + 2);
    }
  }
  std::string out = "Syntax error; token: \"";
  out += at_end ? std::string_view("<EOF>") : str(i);
  out += "\", near: \"";
  out += near;
  out += "\"";
  return out;
}

}  // namespace keyhole::parser
