// UpdateStatementCharge (evaluate.h): what DynamoDB charges an UpdateItem's statement against
// the 400 KB ceiling, clause by clause (the Parity Suite's itemSizeBySurface.test.ts, bisected
// against eu-west-2 on 2026-08-19 and 2026-10-09, 80 probes).
#include <algorithm>
#include <string>

#include "core/evaluate.h"
#include "core/item.h"

namespace keyhole::expr {
namespace {

constexpr size_t kUpdateCost = 3;       // the update itself
constexpr size_t kWritingClause = 19;   // SET or ADD
constexpr size_t kRemovingClause = 1;   // REMOVE or DELETE
constexpr size_t kPathElement = 14;     // each element of a path read as an operand
constexpr size_t kLaterTargetStep = 4;  // each element after a target's first
constexpr size_t kPlus = 34, kMinus = 37, kIfNotExists = 39, kListAppend = 37;

size_t ElementBytes(const PathElement& e) {
  return e.is_index ? std::to_string(e.index).size() : e.name.size();
}

// A target path: its first name, then 4 and the element for each later element.
size_t TargetCost(const Path& p) {
  size_t cost = 0;
  for (size_t i = 0; i < p.elements.size(); ++i) {
    cost += (i == 0 ? 0 : kLaterTargetStep) + ElementBytes(p.elements[i]);
  }
  return cost;
}

// An operand: a path 1 plus 14 and the element for each element (the value it reads is free);
// a value its size, at every use; arithmetic and the functions a fixed cost plus their operands.
size_t OperandCost(const Operand& o) {
  switch (o.kind) {
    case OperandKind::kPath: {
      size_t cost = 1;
      for (const PathElement& e : o.path.elements) cost += kPathElement + ElementBytes(e);
      return cost;
    }
    case OperandKind::kValue:
      return ValueSize(o.value);
    case OperandKind::kPlus:
    case OperandKind::kMinus: {
      size_t cost = o.kind == OperandKind::kPlus ? kPlus : kMinus;
      for (const Operand& a : o.args) cost += OperandCost(a);
      return cost;
    }
    case OperandKind::kFunction: {
      size_t cost = o.function == "if_not_exists" ? kIfNotExists
                    : o.function == "list_append" ? kListAppend
                                                  : 0;
      for (const Operand& a : o.args) cost += OperandCost(a);
      return cost;
    }
  }
  return 0;
}

// What an ADD adds: a set's members not already in the set at `path`; any other value in full.
size_t AddedBytes(const UpdateAction& a, const Item* current) {
  const AttributeValue& v = a.value.value;
  if (!v.IsSet() || !current) return ValueSize(v);
  const AttributeValue* now = Resolve(*current, a.path);
  if (!now || now->type() != v.type()) return ValueSize(v);
  size_t bytes = 0;
  if (v.type() == ValueType::kNS) {
    for (const Number& n : v.numbers()) {
      if (!std::binary_search(now->numbers().begin(), now->numbers().end(), n)) {
        bytes += n.SizeBytes();
      }
    }
  } else {
    for (const std::string& s : v.strings()) {
      if (!std::binary_search(now->strings().begin(), now->strings().end(), s)) bytes += s.size();
    }
  }
  return bytes;
}

}  // namespace

size_t UpdateStatementCharge(const UpdateExpression& u, const Item* current) {
  size_t charge = kUpdateCost;
  for (const UpdateAction& a : u.actions) {
    switch (a.kind) {
      case UpdateActionKind::kSet:
        charge += kWritingClause + TargetCost(a.path) + OperandCost(a.value);
        break;
      case UpdateActionKind::kAdd:
        charge += kWritingClause + TargetCost(a.path) + AddedBytes(a, current);
        break;
      case UpdateActionKind::kRemove:
      case UpdateActionKind::kDelete:
        charge += kRemovingClause + TargetCost(a.path);
        break;
    }
  }
  return charge;
}

}  // namespace keyhole::expr
