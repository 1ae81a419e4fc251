// The "Syntax error; token: ..., near: ..." text of DynamoDB's native expression parser.
//
// DynamoDB lexes an expression before parsing it and reports the first token the grammar
// cannot accept, plus a little context. This file reproduces that lexer (reference §3.1) and
// the context rule that moto's `raise_unexpected_token` reproduces from AWS:
//
//   near := [token before, when whitespace separates it] + previous token (or whitespace)
//         + offending token (nothing at the end) + next token (or whitespace)
//         + [token after that whitespace]
//
// Tokens (whitespace is kept as tokens of its own so that it appears in `near` as written):
//   whitespace  [ \t\r\n]+          name   [A-Za-z][A-Za-z0-9_]*      number [0-9]+
//   #ref  '#'[A-Za-z0-9_]*          :ref   ':'[A-Za-z0-9_]*           <= >= <>
//   one UTF-8 character (any other byte sequence), e.g. "_" in "_123" is a token of its own,
//   which gives AWS's `token: "_", near: "SET _123"`.
//
// Internal to parser/ (not part of the library's interface).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace keyhole::parser {

// `Syntax error; token: "<tok>", near: "<context>"` for a parse of `text` that could not go past
// byte `offset`: the offending token is the one that contains `offset` (the token after it when
// `offset` is in whitespace), or `<EOF>` when there is none.
// REQUIRES: offset <= text.size().
std::string SyntaxErrorText(std::string_view text, size_t offset);

}  // namespace keyhole::parser
