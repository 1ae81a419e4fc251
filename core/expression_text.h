// Renders resolved expression ASTs (core/expression.h) back to DynamoDB's native expression text,
// with placeholders: the inverse of parser/expression_parser.h, used to show the exact API
// request a plan would send (EXPLAIN) and to encode requests whose expressions were built as
// ASTs (ExpressionInput::parsed).
//
// Every name goes through a `#n<k>` placeholder (so reserved words and names with dots need no
// care) and every value through a `:v<k>` placeholder. One Placeholders accumulator is shared by
// all expressions of a request, so that the request carries a single pair of
// ExpressionAttributeNames/Values maps. NativeExpressionParser parses the rendered text back to
// the same AST (positions and redundant_parentheses aside), with two normalisations: nested
// AND/OR/NOT children are parenthesised, and an UpdateExpression's actions are grouped by clause
// (SET, REMOVE, ADD, DELETE, each in its first appearance order).
#pragma once

#include <map>
#include <string>
#include <utility>

#include "core/attribute_value.h"
#include "core/expression.h"
#include "core/operations.h"

namespace keyhole::expr {

// The placeholder maps being built for one request.
class Placeholders {
 public:
  Placeholders() = default;
  // Starts from maps a request already has: their keys are never reused for other
  // names/values, and an existing name placeholder is reused for the same name.
  Placeholders(std::map<std::string, std::string> names,
               std::map<std::string, AttributeValue> values)
      : names_(std::move(names)), values_(std::move(values)) {}

  // The placeholder of attribute name `name` ("#n0", ...): the same one for the same name.
  std::string Name(const std::string& name);
  // A new placeholder (":v0", ...) for `value`.
  std::string Value(const AttributeValue& value);

  const std::map<std::string, std::string>& names() const { return names_; }
  const std::map<std::string, AttributeValue>& values() const { return values_; }

 private:
  std::map<std::string, std::string> names_;
  std::map<std::string, AttributeValue> values_;
  int next_name_ = 0;
  int next_value_ = 0;
};

// `#n0.#n1[2]`.
std::string RenderPath(const Path& path, Placeholders* p);
// A path, `:v0`, `f(a, b)`, `a + b`, `a - b`.
std::string RenderOperand(const Operand& operand, Placeholders* p);
// A ConditionExpression, FilterExpression or KeyConditionExpression.
std::string RenderCondition(const Condition& condition, Placeholders* p);
// An UpdateExpression: `SET a = b, c = d REMOVE e ADD f :v DELETE g :w`.
std::string RenderUpdate(const UpdateExpression& update, Placeholders* p);
// A ProjectionExpression: `a, b.c`.
std::string RenderProjection(const ProjectionExpression& projection, Placeholders* p);
// A structured key condition as a KeyConditionExpression: `#pk = :v` with `AND #sk < :v`,
// `AND #sk BETWEEN :a AND :b` or `AND begins_with(#sk, :v)`.
std::string RenderKeyCondition(const KeyCondition& key, Placeholders* p);

}  // namespace keyhole::expr
