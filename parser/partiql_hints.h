// Teaching hints for statements the parser refuses (Status::hint): the mistakes a workshop
// sees most, each answered with what PartiQL wants and, where it can be built from the text,
// the statement that works. The error's type and message stay DynamoDB's; the hint is
// keyhole's own and never reaches the wire.
//
// Internal to parser/ (ParseStatement attaches the hint).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "parser/partiql.h"

namespace keyhole::parser {

// The hint for `error`, a refusal of `text` (the whole statement), or "" when none applies:
//  - typographic quotes (‘ ’ “ ”) pasted from slides or documents;
//  - an unterminated 'string', "name" or /* comment (which one, and where it began);
//  - a value without quotes where a value goes (PK = USER, USER-alice, alice@example.com,
//    alice-bob);
//  - `#` outside a string (a value such as USER#1 written without quotes; not a comment);
//  - double quotes around map keys or values in INSERT (they name attributes);
//  - SELECT ... FORM (a misspelt FROM), JOIN or several tables, COUNT(*) and other aggregates,
//    DISTINCT, GROUP BY, LIMIT, INSERT ... (columns) VALUES (...);
//  - a word from another shell given as a statement (exit, quit, help).
std::string ParseHint(std::string_view text, const ParseError& error);

// A string left open in a script makes the quotes after it pair up wrong, and the error
// surfaces statements later (a later string looks unterminated, or the grammar stops). The
// evidence: a 'string' that holds a `;` at the end of one of its lines, a statement's end
// swallowed. Returns the offset of the first such string that begins at or before `offset`
// (the error's), or nullopt. PartiQL strings rarely span lines, so this is the best guess.
std::optional<size_t> SwallowingString(std::string_view text, size_t offset);
// The hint for the string SwallowingString found at `at` (the caret is moved there).
std::string SwallowingStringHint(std::string_view text, size_t at);

}  // namespace keyhole::parser
