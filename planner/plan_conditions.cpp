// WHERE analysis for the planner: OR branches, AND conjuncts, key predicates.
#include <utility>

#include "core/require.h"
#include "planner/plan_internal.h"

namespace keyhole::planner::internal {

namespace {

void Flatten(const expr::Condition& c, expr::ConditionKind kind,
             std::vector<const expr::Condition*>* out) {
  if (c.kind == kind) {
    for (const auto& child : c.children) Flatten(child, kind, out);
  } else {
    out->push_back(&c);
  }
}

void OperandNames(const expr::Operand& o, std::vector<std::string>* out) {
  if (o.kind == expr::OperandKind::kPath && !o.path.elements.empty()) {
    out->push_back(o.path.elements.front().name);
  }
  for (const auto& a : o.args) OperandNames(a, out);
}

bool IsValue(const expr::Operand& o) { return o.kind == expr::OperandKind::kValue; }

}  // namespace

std::vector<const expr::Condition*> OrBranches(const expr::Condition& c) {
  std::vector<const expr::Condition*> out;
  Flatten(c, expr::ConditionKind::kOr, &out);
  return out;
}

std::vector<const expr::Condition*> AndConjuncts(const expr::Condition& c) {
  std::vector<const expr::Condition*> out;
  Flatten(c, expr::ConditionKind::kAnd, &out);
  return out;
}

std::optional<std::string> TopName(const expr::Operand& o) {
  if (o.kind != expr::OperandKind::kPath || o.path.elements.size() != 1 ||
      o.path.elements[0].is_index) {
    return std::nullopt;
  }
  return o.path.elements[0].name;
}

void MentionedNames(const expr::Condition& c, std::vector<std::string>* out) {
  for (const auto& o : c.operands) OperandNames(o, out);
  for (const auto& child : c.children) MentionedNames(child, out);
}

std::optional<AttributeValue> EqualityValue(const expr::Condition& c, const std::string& name) {
  if (c.kind != expr::ConditionKind::kCompare || c.op != expr::CompareOp::kEq ||
      c.operands.size() != 2) {
    return std::nullopt;
  }
  for (int i = 0; i < 2; ++i) {
    const auto& path = c.operands[i];
    const auto& value = c.operands[1 - i];
    if (TopName(path) == name && IsValue(value)) return value.value;
  }
  return std::nullopt;
}

std::optional<std::vector<AttributeValue>> PinnedValues(const expr::Condition& c,
                                                        const std::string& name) {
  if (auto v = EqualityValue(c, name)) return std::vector<AttributeValue>{*v};
  if (c.kind != expr::ConditionKind::kIn || c.operands.size() < 2 ||
      TopName(c.operands[0]) != name) {
    return std::nullopt;
  }
  std::vector<AttributeValue> values;
  for (size_t i = 1; i < c.operands.size(); ++i) {
    if (!IsValue(c.operands[i])) return std::nullopt;
    values.push_back(c.operands[i].value);
  }
  return values;
}

bool SortKeyPredicate(const expr::Condition& c, const std::string& name, KeyCondition* kc) {
  using expr::CompareOp;
  if (c.kind == expr::ConditionKind::kCompare && c.operands.size() == 2) {
    if (c.op == CompareOp::kNe) return false;
    bool flipped;
    if (TopName(c.operands[0]) == name && IsValue(c.operands[1])) {
      flipped = false;
    } else if (TopName(c.operands[1]) == name && IsValue(c.operands[0])) {
      flipped = true;  // `5 < sk` is `sk > 5`
    } else {
      return false;
    }
    SortKeyOp op = SortKeyOp::kEq;
    switch (c.op) {
      case CompareOp::kEq:
        op = SortKeyOp::kEq;
        break;
      case CompareOp::kLt:
        op = flipped ? SortKeyOp::kGt : SortKeyOp::kLt;
        break;
      case CompareOp::kLe:
        op = flipped ? SortKeyOp::kGe : SortKeyOp::kLe;
        break;
      case CompareOp::kGt:
        op = flipped ? SortKeyOp::kLt : SortKeyOp::kGt;
        break;
      case CompareOp::kGe:
        op = flipped ? SortKeyOp::kLe : SortKeyOp::kGe;
        break;
      case CompareOp::kNe:
        return false;
    }
    kc->sort_name = name;
    kc->op = op;
    kc->sort_value = c.operands[flipped ? 0 : 1].value;
    return true;
  }
  if (c.kind == expr::ConditionKind::kBetween && c.operands.size() == 3 &&
      TopName(c.operands[0]) == name && IsValue(c.operands[1]) && IsValue(c.operands[2])) {
    kc->sort_name = name;
    kc->op = SortKeyOp::kBetween;
    kc->sort_value = c.operands[1].value;
    kc->sort_value2 = c.operands[2].value;
    return true;
  }
  if (c.kind == expr::ConditionKind::kFunction && c.function == "begins_with" &&
      c.operands.size() == 2 && TopName(c.operands[0]) == name && IsValue(c.operands[1])) {
    kc->sort_name = name;
    kc->op = SortKeyOp::kBeginsWith;
    kc->sort_value = c.operands[1].value;
    return true;
  }
  return false;
}

expr::Condition AndOf(std::vector<expr::Condition> parts) {
  KH_REQUIRE(!parts.empty());
  if (parts.size() == 1) return std::move(parts.front());
  expr::Condition c;
  c.kind = expr::ConditionKind::kAnd;
  c.children = std::move(parts);
  return c;
}

expr::Condition PathFunction(const std::string& function, const std::string& name) {
  expr::Condition c;
  c.kind = expr::ConditionKind::kFunction;
  c.function = function;
  expr::Path p;
  p.elements.push_back(expr::PathElement{name, 0, false});
  c.operands.push_back(expr::Operand::MakePath(std::move(p)));
  return c;
}

}  // namespace keyhole::planner::internal
