// Translation of PartiQL syntax trees (partiql_syntax.h) into values, paths, conditions and
// update actions of the shared AST (core/expression.h), with DynamoDB's refusals.
//
// Errors are thrown as translate::Error and caught by ParseStatement (partiql.cpp), so the first
// problem in translation order wins; nothing throws across the library's interface.
//
// Internal to parser/ (not part of the library's interface).
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/attribute_value.h"
#include "core/expression.h"
#include "parser/partiql.h"
#include "parser/partiql_syntax.h"

namespace keyhole::parser::translate {

using syntax::Node;

// A refusal: DynamoDB's message (or keyhole's) and the byte offset it points at.
struct Error {
  std::string message;
  size_t offset = 0;
};

// The node an expression node stands for once single-child OR/AND/chain/arithmetic levels are
// skipped. Parentheses are kept.
const Node& Unwrap(const Node& n);

// Translates the parts of one statement. `text` is the statement; `parameters` bind the `?`
// nodes, whose begin offsets (source order) are `parameter_offsets`.
//
// The tree may have been parsed from another text of the same lexer::Shape (partiql.cpp's
// cache): then `tree_literal_ends` are the ends of that text's literal tokens and
// `text_literal_ends` those of `text`, and every offset of the tree (node ranges, parameter
// offsets) is in the other text; Text(), the positions put into the AST and Error offsets are
// moved into `text`. Both empty when the tree is `text`'s own.
// REQUIRES: parameter_offsets.size() == parameters.size(); the literal ends of equal length.
// What the arguments refer to must outlive the translator.
class Translator {
 public:
  Translator(std::string_view text, const std::vector<AttributeValue>& parameters,
             const std::vector<size_t>& parameter_offsets,
             std::span<const size_t> tree_literal_ends = {},
             std::span<const size_t> text_literal_ends = {})
      : text_(text),
        parameters_(parameters),
        parameter_offsets_(parameter_offsets),
        tree_literal_ends_(tree_literal_ends),
        text_literal_ends_(text_literal_ends) {}

  // ---- text and positions ----
  // The offset in `text` of a tree offset (the identity when the tree is text's own).
  size_t At(size_t tree_offset) const;
  std::string_view Text(const Node& n) const {
    const size_t begin = At(n.begin);
    return text_.substr(begin, At(n.end) - begin);
  }
  // " at L:C:N": the 1-based line and column of `n` and its length in characters.
  std::string Loc(const Node& n) const;
  // Throws Error{message, At(offset)}; `offset` is a tree offset.
  [[noreturn]] void Fail(std::string message, size_t offset) const;

  // ---- names, values and paths ----
  // The name a kIdent, kQuoted or kName node stands for (quotes removed, `""` unescaped).
  std::string Name(const Node& n) const;
  // A literal value: strings, numbers, TRUE/FALSE/NULL, parameters, lists, sets and maps of
  // them. `where` names the place for messages: "root", "root.x", "root[1]".
  AttributeValue Value(const Node& n, const std::string& where) const;
  // A kPath node as an expr::Path (names, indexes; wildcards and unpivots refused).
  expr::Path BuildPath(const Node& n) const;

  // ---- clauses ----
  // The condition of a kWhere node, translated and checked with expr::ValidateCondition.
  expr::Condition Where(const Node& where) const;
  // Appends the action of a kAssignment node (SET) to *u.
  void Assignment(const Node& assignment, expr::UpdateExpression* u) const;

 private:
  const AttributeValue& Parameter(const Node& n) const;
  Number NumberValue(const Node& n, const std::string& where) const;
  AttributeValue Bag(const Node& n, const std::string& where) const;
  AttributeValue Struct(const Node& n, const std::string& where) const;
  std::string FunctionName(const Node& call) const;  // as written, unquoted

  bool IsCondition(const Node& n) const;
  expr::Condition Condition(const Node& n) const;
  expr::Condition Predicate(const Node& chain) const;
  expr::Condition Tail(const Node& lhs, const Node& tail) const;
  expr::Condition In(const Node& lhs, const Node& tail) const;
  expr::Condition Is(const Node& lhs, const Node& tail) const;
  expr::Condition FunctionCondition(const Node& call) const;
  expr::Operand Operand(const Node& n, std::string_view op) const;

  expr::Operand SetValue(const Node& n) const;
  expr::Operand SetOperand(const Node& n) const;
  void SetFunction(const Node& call, const expr::Path& target, size_t position,
                   expr::UpdateExpression* u) const;

  std::string_view text_;
  const std::vector<AttributeValue>& parameters_;
  const std::vector<size_t>& parameter_offsets_;
  std::span<const size_t> tree_literal_ends_;
  std::span<const size_t> text_literal_ends_;
};

// Builds the Statement a syntax tree root stands for (partiql_statements.cpp): the DML
// statements through `t`, keyhole's own statements directly. Throws Error.
Statement BuildStatement(const Node& root, const Translator& t);

// A quoted token's text ('it''s', "a""b") without its outer quotes, the inner doubled quotes
// undoubled.
std::string Unquote(std::string_view quoted);

}  // namespace keyhole::parser::translate
