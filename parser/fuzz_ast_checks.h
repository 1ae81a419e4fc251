// Shared by the libFuzzer drivers (fuzz_expression.cpp, fuzz_partiql.cpp): aborts with a
// message when a parsed expression AST breaks the invariants core/expression.h promises —
// positions inside the text, paths of 1..32 elements (a name first, indexes in int32 range, no
// empty names), and the shape of every condition and operand node. Fuzz-only: not part of any
// library.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "core/expression.h"

namespace keyhole::fuzz {

inline void Check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "invariant violated: %s\n", what);
    std::abort();
  }
}

inline void CheckPath(const expr::Path& p) {
  Check(!p.elements.empty() && p.elements.size() <= 32, "path length");
  Check(!p.elements[0].is_index, "path starts with a name");
  for (const expr::PathElement& e : p.elements) {
    Check(!e.is_index || (e.index >= 0 && e.index <= INT32_MAX), "index range");
    Check(e.is_index || !e.name.empty(), "empty path element");
  }
}

// `size` is the length of the source text; `functions_have_args`: native expressions have no
// zero-argument functions (PartiQL's grammar may produce one, rejected later by validation).
inline void CheckOperand(const expr::Operand& o, size_t size, bool functions_have_args) {
  using expr::OperandKind;
  Check(o.position < size, "operand position");
  switch (o.kind) {
    case OperandKind::kPath:
      CheckPath(o.path);
      break;
    case OperandKind::kFunction:
      Check(!o.function.empty() && (!functions_have_args || !o.args.empty()), "function call");
      break;
    case OperandKind::kPlus:
    case OperandKind::kMinus:
      Check(o.args.size() == 2, "arithmetic operands");
      break;
    case OperandKind::kValue:
      break;
  }
  for (const expr::Operand& a : o.args) CheckOperand(a, size, functions_have_args);
}

inline void CheckCondition(const expr::Condition& c, size_t size, bool functions_have_args) {
  using expr::ConditionKind;
  Check(c.position < size, "condition position");
  switch (c.kind) {
    case ConditionKind::kCompare:
      Check(c.operands.size() == 2 && c.children.empty(), "comparison");
      break;
    case ConditionKind::kBetween:
      Check(c.operands.size() == 3 && c.children.empty(), "between");
      break;
    case ConditionKind::kIn:
      Check(c.operands.size() >= 2 && c.children.empty(), "in");
      break;
    case ConditionKind::kFunction:
      Check(!c.function.empty() && !c.operands.empty(), "function condition");
      break;
    case ConditionKind::kAnd:
    case ConditionKind::kOr:
      Check(c.children.size() >= 2 && c.operands.empty(), "and/or");
      break;
    case ConditionKind::kNot:
      Check(c.children.size() == 1 && c.operands.empty(), "not");
      break;
  }
  Check(!c.redundant_parentheses, "redundant parentheses accepted");
  for (const expr::Operand& o : c.operands) CheckOperand(o, size, functions_have_args);
  for (const expr::Condition& child : c.children) CheckCondition(child, size, functions_have_args);
}

}  // namespace keyhole::fuzz
