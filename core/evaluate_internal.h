// Helpers shared by the files that implement core/evaluate.h (evaluate.cpp,
// condition_validate.cpp, key_condition.cpp, projection.cpp, update.cpp). Private to core:
// nothing outside those files includes this header.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/attribute_value.h"
#include "core/expression.h"
#include "core/status.h"

namespace keyhole::expr::internal {

// At most 300 operators in one expression (reference §3.4, §3.7).
constexpr size_t kMaxOperators = 300;
// At most 32 elements in a document path (reference §1.8).
constexpr size_t kMaxPathElements = 32;
// At most 100 operands in the list of IN (reference §3.4).
constexpr size_t kMaxInListOperands = 100;

// ValidationException with ErrorPrefix(kind) + detail.
Status Invalid(Kind kind, std::string_view detail);

// The message details DynamoDB uses for several checks (without the kind prefix).
std::string WrongArity(std::string_view function, size_t operands);
std::string WrongOperandType(std::string_view function, std::string_view type);
std::string InvalidFunctionName(std::string_view function);

// What a function name is, as written (names are case-sensitive).
enum class FunctionClass {
  kUnknown,    // rejected: "Invalid function name; function: <f>"
  kCondition,  // attribute_exists, attribute_not_exists, attribute_type, begins_with, contains
  kSize,       // size: the only function that yields a value in a condition
  kUpdate,     // if_not_exists, list_append: SET values only
};
FunctionClass ClassifyFunction(std::string_view name);
// The number of arguments a known function takes. REQUIRES: ClassifyFunction != kUnknown.
size_t FunctionArity(std::string_view name);

// One node of an expression tree: exactly one pointer is set.
struct Node {
  const Condition* condition = nullptr;
  const Operand* operand = nullptr;
};
// The nodes of a condition (its sub-conditions, operands and function arguments) in pre-order,
// which is source order for everything but the operator of a binary node. Iterative, so any
// depth is safe.
std::vector<Node> Flatten(const Condition& root);
// Appends the nodes of an operand tree in pre-order; iterative.
void FlattenOperand(const Operand& root, std::vector<Node>* out);

// "The document path has too many nesting levels; nesting levels: <n>" past 32 elements.
Status CheckPathLength(const Path& path, Kind kind);
// The first pair (earlier, later) of overlapping paths, else the first conflicting pair:
// "Two document paths overlap with each other; ..." / "... conflict with each other; ...".
Status CheckPathsDisjoint(const std::vector<const Path*>& paths, Kind kind);

// N, S and B: the only types with an order (reference §1.10).
inline bool IsOrdered(ValueType t) {
  return t == ValueType::kN || t == ValueType::kS || t == ValueType::kB;
}
// The type a constant operand is known to have before any item is read: a value's own type,
// N for size(); nullopt for paths and other functions.
std::optional<ValueType> StaticType(const Operand& o);
// BETWEEN with two constant bounds: same type, lower <= upper, else DynamoDB's messages
// ("...; lower bound operand: AttributeValue: {N:2}, upper bound operand: AttributeValue:
// {N:1}"). Bounds of an unordered type are left to the operand-type check.
Status CheckBetweenBounds(const AttributeValue& lower, const AttributeValue& upper, Kind kind);

}  // namespace keyhole::expr::internal
