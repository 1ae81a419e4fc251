// ValidateCondition: the static checks of condition, filter and key-condition ASTs (contract
// in evaluate.h, rules and texts in reference §1.10 and §3.4).
//
// The tree is flattened once (iteratively, so a deep AST cannot overflow the stack) and then
// checked in passes, one category of error per pass. The order of the categories is [DL]'s,
// whose messages were checked against AWS: operator count and path length, redundant
// parentheses, function names, functions used in the wrong place, operand counts, distinct
// first operand, operand types. Within a category the first node in source order wins.
#include <algorithm>
#include <cstdint>
#include <string_view>
#include <utility>

#include "core/evaluate.h"
#include "core/evaluate_internal.h"

namespace keyhole::expr {

namespace {

using internal::FunctionClass;
using internal::Invalid;
using internal::Node;

// The number of operators DynamoDB counts: comparators, BETWEEN, IN, NOT, and one per AND/OR
// joining two conditions. Function calls are not counted ([SC]: `a < f(f(...))` with 1355
// nested calls is refused for the function name, not the count).
size_t CountOperators(const std::vector<Node>& nodes) {
  size_t count = 0;
  for (const Node& n : nodes) {
    if (n.condition != nullptr) {
      switch (n.condition->kind) {
        case ConditionKind::kAnd:
        case ConditionKind::kOr:
          // A degenerate one-child node (never produced by the parser) still counts as one, so
          // that the depth of any accepted tree stays below the limit.
          count += std::max<size_t>(n.condition->children.size(), 2) - 1;
          break;
        case ConditionKind::kFunction:
          break;
        default:
          ++count;
          break;
      }
    } else if (n.operand->kind == OperandKind::kPlus || n.operand->kind == OperandKind::kMinus) {
      ++count;
    }
  }
  return count;
}

// The operator name DynamoDB shows for a condition node.
std::string OperatorName(const Condition& c) {
  switch (c.kind) {
    case ConditionKind::kCompare:
      return std::string(CompareOpText(c.op));
    case ConditionKind::kBetween:
      return "BETWEEN";
    case ConditionKind::kIn:
      return "IN";
    case ConditionKind::kFunction:
      return c.function;
    case ConditionKind::kAnd:
      return "AND";
    case ConditionKind::kOr:
      return "OR";
    case ConditionKind::kNot:
      return "NOT";
  }
  return "";
}

bool IsOrderingOp(CompareOp op) { return op != CompareOp::kEq && op != CompareOp::kNe; }

// Pass 1: the operator count, then every path's length.
Status CheckLimits(const std::vector<Node>& nodes, Kind kind) {
  const size_t count = CountOperators(nodes);
  if (count > internal::kMaxOperators) {
    return Invalid(kind, "The expression contains too many operators; operator count: " +
                             std::to_string(count));
  }
  for (const Node& n : nodes) {
    if (n.operand != nullptr && n.operand->kind == OperandKind::kPath) {
      KH_RETURN_IF_ERROR(internal::CheckPathLength(n.operand->path, kind));
    }
  }
  return Status::OK();
}

// Pass 2: two directly nested pairs of parentheses (flagged by the parser).
Status CheckParentheses(const Node& n, Kind kind) {
  if (n.condition != nullptr && n.condition->redundant_parentheses) {
    return Invalid(kind, "The expression has redundant parentheses;");
  }
  return Status::OK();
}

// Pass 3: every function name must be a condition function. Arithmetic (an UpdateExpression
// construct the condition grammar cannot produce) is refused the same way as list_append.
Status CheckFunctionName(const Node& n, Kind kind) {
  std::string_view name;
  if (n.condition != nullptr) {
    if (n.condition->kind != ConditionKind::kFunction) return Status::OK();
    name = n.condition->function;
  } else if (n.operand->kind == OperandKind::kFunction) {
    name = n.operand->function;
  } else if (n.operand->kind == OperandKind::kPlus) {
    name = "+";
  } else if (n.operand->kind == OperandKind::kMinus) {
    name = "-";
  } else {
    return Status::OK();
  }
  FunctionClass cls = internal::ClassifyFunction(name);
  if (name == "+" || name == "-") cls = FunctionClass::kUpdate;
  if (cls == FunctionClass::kUnknown) return Invalid(kind, internal::InvalidFunctionName(name));
  if (cls == FunctionClass::kUpdate) {
    return Invalid(kind, "The function is not allowed in a condition expression; function: " +
                             std::string(name));
  }
  return Status::OK();
}

std::string MisusedFunction(std::string_view name) {
  return "The function is not allowed to be used this way in an expression; function: " +
         std::string(name);
}

// Pass 4: size() used as a condition, or a boolean function used as a value (an operand of a
// comparison, BETWEEN, IN, or an argument of a function).
Status CheckFunctionPlace(const Node& n, Kind kind) {
  const std::vector<Operand>* values = nullptr;
  if (n.condition != nullptr) {
    if (n.condition->kind == ConditionKind::kFunction && n.condition->function == "size") {
      return Invalid(kind, MisusedFunction("size"));
    }
    values = &n.condition->operands;
  } else {
    values = &n.operand->args;
  }
  for (const Operand& o : *values) {
    if (o.kind == OperandKind::kFunction &&
        internal::ClassifyFunction(o.function) == FunctionClass::kCondition) {
      return Invalid(kind, MisusedFunction(o.function));
    }
  }
  return Status::OK();
}

// The number of operands a condition node needs: {min, max}.
std::pair<size_t, size_t> ConditionArity(const Condition& c) {
  switch (c.kind) {
    case ConditionKind::kCompare:
      return {2, 2};
    case ConditionKind::kBetween:
      return {3, 3};
    case ConditionKind::kIn:
      return {2, SIZE_MAX};
    case ConditionKind::kFunction: {
      const size_t n = internal::FunctionArity(c.function);
      return {n, n};
    }
    case ConditionKind::kNot:
      return {1, 1};
    case ConditionKind::kAnd:
    case ConditionKind::kOr:
      return {1, SIZE_MAX};
  }
  return {0, SIZE_MAX};
}

// Pass 5: operand counts of functions and operators; IN with at most 100 values.
Status CheckArity(const Node& n, Kind kind) {
  if (n.operand != nullptr) {
    const Operand& o = *n.operand;
    if (o.kind == OperandKind::kFunction && o.args.size() != 1) {  // size, the only one left
      return Invalid(kind, internal::WrongArity(o.function, o.args.size()));
    }
    return Status::OK();
  }
  const Condition& c = *n.condition;
  const bool logical = c.kind == ConditionKind::kAnd || c.kind == ConditionKind::kOr ||
                       c.kind == ConditionKind::kNot;
  const size_t count = logical ? c.children.size() : c.operands.size();
  auto [min, max] = ConditionArity(c);
  if (count < min || count > max)
    return Invalid(kind, internal::WrongArity(OperatorName(c), count));
  if (c.kind == ConditionKind::kIn && !c.unbounded_in && count - 1 > internal::kMaxInListOperands) {
    return Invalid(kind,
                   "The IN operator is provided with too many operands; number of operands: " +
                       std::to_string(count - 1));
  }
  return Status::OK();
}

// Pass 6: with several operands, a first operand that is a path must differ from the others.
Status CheckDistinct(const Node& n, Kind kind) {
  if (n.condition == nullptr || n.condition->operands.size() < 2) return Status::OK();
  const Condition& c = *n.condition;
  const Operand& first = c.operands[0];
  if (first.kind != OperandKind::kPath) return Status::OK();
  for (size_t i = 1; i < c.operands.size(); ++i) {
    const Operand& other = c.operands[i];
    if (other.kind == OperandKind::kPath && other.path == first.path) {
      return Invalid(kind,
                     "The first operand must be distinct from the remaining operands for this "
                     "operator or function; operator: " +
                         OperatorName(c) + ", first operand: " + first.path.Render());
    }
  }
  return Status::OK();
}

// An "Incorrect operand type" error for the first operand whose constant type `bad` refuses.
template <typename Pred>
Status CheckConstantTypes(const std::vector<Operand>& operands, std::string_view function,
                          Kind kind, Pred bad) {
  for (const Operand& o : operands) {
    std::optional<ValueType> t = internal::StaticType(o);
    if (t && bad(*t)) return Invalid(kind, internal::WrongOperandType(function, TypeName(*t)));
  }
  return Status::OK();
}

// attribute_type's second operand: a constant string naming one of the ten types.
Status CheckAttributeTypeName(const Operand& o, Kind kind) {
  std::optional<ValueType> t = internal::StaticType(o);
  if (!t) {
    // [DL]: a path has no static type, and DynamoDB names every type it could have.
    return Invalid(kind,
                   internal::WrongOperandType("attribute_type", "{NS,SS,L,BS,N,M,B,BOOL,NULL,S}"));
  }
  if (*t != ValueType::kS) {
    return Invalid(kind, internal::WrongOperandType("attribute_type", TypeName(*t)));
  }
  ValueType ignored;
  if (!TypeFromName(o.value.s(), &ignored)) {
    return Invalid(kind, "Invalid attribute type name found; type: " + o.value.s() +
                             ", valid types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}");
  }
  return Status::OK();
}

// The operand-type rules of a boolean function.
Status CheckFunctionOperands(const Condition& c, Kind kind) {
  const std::string& f = c.function;
  if (f == "attribute_exists" || f == "attribute_not_exists") {
    if (c.operands[0].kind != OperandKind::kPath) {
      return Invalid(kind,
                     "Operator or function requires a document path; operator or function: " + f);
    }
  } else if (f == "begins_with") {
    return CheckConstantTypes(c.operands, f, kind,
                              [](ValueType t) { return t != ValueType::kS && t != ValueType::kB; });
  } else if (f == "attribute_type") {
    return CheckAttributeTypeName(c.operands[1], kind);
  }
  return Status::OK();
}

// Pass 7: constant operand types. size() of N/BOOL/NULL; begins_with of non-S/B; ordering
// operators and BETWEEN with unordered constants; BETWEEN's constant bounds; path-only
// arguments; attribute_type's type name.
Status CheckTypes(const Node& n, Kind kind) {
  auto unordered = [](ValueType t) { return !internal::IsOrdered(t); };
  if (n.operand != nullptr) {
    const Operand& o = *n.operand;
    if (o.kind != OperandKind::kFunction) return Status::OK();
    return CheckConstantTypes(o.args, o.function, kind, [](ValueType t) {
      return t == ValueType::kN || t == ValueType::kBool || t == ValueType::kNull;
    });
  }
  const Condition& c = *n.condition;
  switch (c.kind) {
    case ConditionKind::kFunction:
      return CheckFunctionOperands(c, kind);
    case ConditionKind::kCompare:
      if (!IsOrderingOp(c.op)) return Status::OK();
      return CheckConstantTypes(c.operands, CompareOpText(c.op), kind, unordered);
    case ConditionKind::kBetween: {
      KH_RETURN_IF_ERROR(CheckConstantTypes(c.operands, "BETWEEN", kind, unordered));
      const Operand& lower = c.operands[1];
      const Operand& upper = c.operands[2];
      if (lower.kind == OperandKind::kValue && upper.kind == OperandKind::kValue) {
        return internal::CheckBetweenBounds(lower.value, upper.value, kind);
      }
      return Status::OK();
    }
    default:
      return Status::OK();
  }
}

}  // namespace

Status ValidateCondition(const Condition& c, Kind kind) {
  const std::vector<Node> nodes = internal::Flatten(c);
  KH_RETURN_IF_ERROR(CheckLimits(nodes, kind));
  using Pass = Status (*)(const Node&, Kind);
  for (Pass pass : {CheckParentheses, CheckFunctionName, CheckFunctionPlace, CheckArity,
                    CheckDistinct, CheckTypes}) {
    for (const Node& n : nodes) KH_RETURN_IF_ERROR(pass(n, kind));
  }
  return Status::OK();
}

}  // namespace keyhole::expr
