// Hand-written lexical helpers for PartiQL text: the lexical pre-check that DynamoDB's lexer
// performs before parsing (so that `#` or an unterminated comment anywhere in a statement is
// reported before any syntax error), and the scanning primitives shared with script splitting.
//
// Internal to parser/ (not part of the library's interface).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace keyhole::parser::lexer {

// The byte offset of the first lexical error in `text`, or nullopt. Lexical errors: a
// character that starts no PartiQL token (`#`, `!` not followed by `=`, a lone `|`, `&`, `^`,
// `~`, `\`, a backtick, any non-ASCII byte outside strings, identifiers and comments), an
// unterminated 'string', "identifier" or /* comment, and a number whose exponent has no digits
// or does not fit in a 32-bit int. The offset is the start of the offending token.
// Tokens: whitespace [ \t\n\r\f\v], -- and /* */ comments, 'strings' and "identifiers" with
// doubled-quote escapes, numbers (digits [. digits*] | . digits) ([eE] [+-]? digits)?, words
// [A-Za-z_$][A-Za-z0-9_$]*, the operators <= >= <> != || << >> and the single characters
// < > = + - * / % @ ( ) [ ] { } , . : ; ?
std::optional<size_t> FindLexicalError(std::string_view text);
// FindLexicalError and, when there is none, TokenEnds (into *ends), in one pass.
std::optional<size_t> FindLexicalError(std::string_view text, std::vector<size_t>* ends);

// A statement text with the content of its literal tokens taken out, so that texts that differ
// only in their literals have the same key: each 'string' becomes the bytes 0x01 'S', each
// number 0x01 'N', the number with every digit replaced by '0' (its length and the places of
// its '.', 'e' and sign kept), and 0x01; any other 0x01 byte is doubled. Everything else
// (keywords, names, operators, whitespace, comments) is kept as written. Two texts with the same
// key differ only inside literal tokens, and numbers of the same length, so a syntax tree of
// one serves the other once its offsets are moved by the change in the strings' lengths.
struct Shape {
  std::string key;
  std::vector<size_t> literal_ends;    // the end offset of each literal token, in order
  std::vector<size_t> literal_starts;  // and its first byte's
};
// Computes *shape for `text`; false (with *shape unspecified) when `text` has a lexical error.
bool ShapeOf(std::string_view text, Shape* shape);

// The end offsets of the tokens of `text` (whitespace and comments are not tokens), in order.
// REQUIRES: !FindLexicalError(text).
std::vector<size_t> TokenEnds(std::string_view text);

// True when the first token of `text` (after whitespace and comments) is the word `word`,
// compared case-insensitively (ASCII). `word` is upper case.
bool FirstWordIs(std::string_view text, std::string_view word);
// Whether `text` is a raw API call whose body is JSON: `CALL ...`, or the shell's API form
// `<Operation> {json}` (a word of letters, then `{`). Its `;` and quotes follow JSON's rules.
bool StartsApiCall(std::string_view text);

// The offset just past whitespace and complete comments starting at `i`; stops at an
// unterminated comment (whose start it returns) or at the end.
size_t SkipSpace(std::string_view text, size_t i);

}  // namespace keyhole::parser::lexer
