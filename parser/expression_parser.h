// DynamoDB's native expression languages (reference §3): ConditionExpression, FilterExpression,
// KeyConditionExpression, ProjectionExpression and UpdateExpression, parsed into the resolved
// ASTs of core/expression.h. The PEGTL grammar stays inside expression_parser.cpp.
//
// What this layer checks, in this order, for one expression (first problem wins):
//   1. empty (or all whitespace): "The expression can not be empty;"
//   2. longer than 4096 bytes, raw: "Expression size has exceeded the maximum allowed size;
//      expression size: <n>" (an UpdateExpression's without the size)
//   3. syntax: `Syntax error; token: "<tok>", near: "<context>"` (parser/syntax_error.h); this
//      includes nesting deeper than kMaxNestingDepth, reported at the token that opens the level
//      too many
//   4. in source order: a list index above 2^31-1 ("List index is not within the allowable
//      range; index: [<digits>]"), a path of more than 32 elements ("The document path has too
//      many nesting levels; nesting levels: <n>")
//   5. conditions only: "The expression has redundant parentheses;" (two directly nested pairs
//      around a condition or an operand, reference §3.4); reported here rather than left to
//      core/evaluate.h, because dynalite (checked against AWS) reports it before reserved words
//      and placeholders. Condition::redundant_parentheses is set as well, on the condition
//      that holds the parentheses.
//   6. the first literal path element that is a reserved word (parser/reserved_words.h):
//      "Attribute name is a reserved keyword; reserved keyword: <as written>"
//   7. UpdateExpression only: a clause used twice:
//      `The "SET" section can only be used once in an update expression;`
//   8. the first undefined placeholder in source order: "An expression attribute name used in the
//      document path is not defined; attribute name: #x" / "An expression attribute value used
//      in expression is not defined; attribute value: :x"
// Every message is prefixed with expr::ErrorPrefix(kind) ("Invalid <Kind>Expression: ") and
// returned as a ValidationException. Semantic checks (function names and arity, operand types,
// path overlaps, IN list length, operator count) are core/evaluate.h's.
//
// Lexical decisions (reference §3.1, Appendix D):
//  - Keywords (AND OR NOT BETWEEN IN in conditions, SET REMOVE ADD DELETE in updates) are
//    case-insensitive and end at a non-identifier character ("ANDROID" is a name). A keyword of
//    the expression's own language cannot be a literal name there (a syntax error, as in
//    dynalite); the other language's keywords are ordinary (reserved) names.
//  - Whitespace is accepted inside paths (`a . b`, `a [ 1 ]`) and between a function name and
//    its `(`, as moto's AWS-derived tokenizer tests expect.
//  - One or more pairs of parentheses may wrap an operand (`(a) = :v`); an UpdateExpression SET
//    value may also be wrapped as a whole (`SET a = (b + :v)`), once. `a + b + c` and
//    `f(a + b)` are syntax errors.
//  - Function names are any identifier followed by `(`, kept as written (validation rejects
//    unknown names case-sensitively).
#pragma once

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <string_view>

#include "core/attribute_value.h"
#include "core/expression.h"
#include "core/status.h"

namespace keyhole::parser {

constexpr size_t kMaxExpressionBytes = 4096;
// Bound on nested parentheses, NOT operators and function calls, so that a 4 KB input such as
// "((((..." or "NOT NOT ..." cannot exhaust the stack. A level costs about 1-4 KB of stack with
// -O2 and about 5-8 KB with -O0 and AddressSanitizer, so 300 levels stay under 2.4 MB (threads
// get the 8 MB default); a 4 KB input could otherwise open about 4000 levels. DynamoDB has no
// nesting limit of its own, but every nesting level of a valid condition costs an operator
// (AND, OR, NOT, a comparison) and it allows 300 of them, so no expression it accepts nests
// deeper than this.
constexpr int kMaxNestingDepth = 300;

// The placeholder maps of a request. Either pointer may be null (the map was not given).
struct Placeholders {
  const std::map<std::string, std::string>* names = nullptr;      // ExpressionAttributeNames
  const std::map<std::string, AttributeValue>* values = nullptr;  // ExpressionAttributeValues
};

// The placeholders that the expressions parsed so far referenced, accumulated across the
// expressions of one request for the "unused" check.
struct UsedPlaceholders {
  std::set<std::string> names;
  std::set<std::string> values;
};

// The three parsers below are thread-safe. Each remembers the syntax trees of the last 256
// texts it parsed (SDKs send one expression text with new values): a text seen before is only
// resolved against its new placeholders; the result is the same as a first parse's.
//
// Parses a ConditionExpression, FilterExpression or KeyConditionExpression (one grammar,
// reference §3.4) into a resolved Condition: placeholders replaced by the names and values of
// `placeholders` (one `#n` is exactly one path element, even when its value contains dots).
// On success adds the placeholders the expression used to *used (when not null). Errors: the
// ValidationExceptions listed at the top of this file.
// REQUIRES: kind is kCondition, kFilter or kKeyCondition.
Result<expr::Condition> ParseCondition(std::string_view text, expr::Kind kind,
                                       const Placeholders& placeholders, UsedPlaceholders* used);

// Parses an UpdateExpression (reference §3.7); actions in source order. As ParseCondition.
Result<expr::UpdateExpression> ParseUpdate(std::string_view text, const Placeholders& placeholders,
                                           UsedPlaceholders* used);

// Parses a ProjectionExpression (reference §3.6). As ParseCondition.
Result<expr::ProjectionExpression> ParseProjection(std::string_view text,
                                                   const Placeholders& placeholders,
                                                   UsedPlaceholders* used);

// Checks ExpressionAttributeNames/Values of a request before any expression is parsed (reference
// §3.3), in this order: given without any expression ("ExpressionAttributeNames can only be
// specified when using expressions"), empty ("ExpressionAttributeNames must not be empty"), key
// syntax (`ExpressionAttributeNames contains invalid key: Syntax error; key: "<k>"`), values
// ("ExpressionAttributeValues contains invalid value: <ValidateValue's message> for key <k>").
// Names before values at each step. These messages have no "Invalid ...Expression" prefix.
Status ValidatePlaceholderMaps(const expr::ExpressionInput& input);

// The "unused" check once every expression of the request is parsed: "Value provided in
// ExpressionAttributeNames unused in expressions: keys: {#a, #b}" (keys sorted), then the same
// for ExpressionAttributeValues.
Status CheckAllPlaceholdersUsed(const expr::ExpressionInput& input, const UsedPlaceholders& used);

// The request-level parser handed to the storage engine: ValidatePlaceholderMaps, then each
// given expression in the order UpdateExpression, ConditionExpression, KeyConditionExpression,
// FilterExpression, ProjectionExpression (first error wins), then CheckAllPlaceholdersUsed.
// Thread-safe (stateless).
class NativeExpressionParser : public expr::ExpressionParser {
 public:
  Result<expr::ParsedExpressions> Parse(const expr::ExpressionInput& input) const override;
};

// For tests: the number of problems tao::pegtl::analyze() finds in the condition, update and
// projection grammars (0 when they are sound: no left recursion, no infinite loops). Prints the
// problems to stderr when `verbose`.
size_t AnalyzeGrammars(bool verbose = true);

}  // namespace keyhole::parser
