// PartiQL's word classes: which words are keywords, function-name keywords, operator words and
// type names (partiql-lang-kotlin's lexer tables), and keyhole's DDL words. Used by the grammar
// (partiql_grammar.cpp) and the lexer. All comparisons are ASCII case-insensitive.
//
// Internal to parser/ (not part of the library's interface).
#pragma once

#include <string_view>

namespace keyhole::parser::words {

// [A-Za-z_$] and [A-Za-z0-9_$]: the characters of a plain identifier (inline: the lexers call
// them for every character of a word).
inline bool IsIdentStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
}
inline bool IsIdentChar(char c) { return IsIdentStart(c) || (c >= '0' && c <= '9'); }

// PartiQL's keywords: SQL-92's and PartiQL's own (LexerConstants.kt: SQL92_KEYWORDS +
// SQLPP_KEYWORDS). A keyword is not a plain identifier.
bool IsKeywordWord(std::string_view word);
// !IsKeywordWord(word).
bool IsIdentifierWord(std::string_view word);
// Keywords that name a function when `(` follows (FUNCTION_NAME_KEYWORDS): size, count, ...
bool IsFunctionKeyword(std::string_view word);
// Binary operators spelled as words: AND OR IS IN LIKE BETWEEN UNION EXCEPT INTERSECT.
bool IsOperatorWord(std::string_view word);
// PartiQL's one-word type names (after IS).
bool IsTypeWord(std::string_view word);
// keyhole's DDL: key types (S N B STRING NUMBER BINARY), key roles (HASH RANGE), stream views.
bool IsKeyTypeWord(std::string_view word);
bool IsKeyRoleWord(std::string_view word);
bool IsStreamViewWord(std::string_view word);
// A plain identifier within two edits of FROM but not FROM (FORM, FRM, FOM, ...): after a
// SELECT's projection it is a misspelt FROM rather than an alias.
bool IsMisspeltFrom(std::string_view word);

}  // namespace keyhole::parser::words
