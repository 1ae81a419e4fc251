// The expression AST's small helpers: names, message prefixes, path rendering, factories
// (contract in expression.h).
#include "core/expression.h"

#include <utility>

namespace keyhole::expr {

std::string_view KindName(Kind k) {
  switch (k) {
    case Kind::kCondition:
      return "ConditionExpression";
    case Kind::kFilter:
      return "FilterExpression";
    case Kind::kKeyCondition:
      return "KeyConditionExpression";
    case Kind::kProjection:
      return "ProjectionExpression";
    case Kind::kUpdate:
      return "UpdateExpression";
    case Kind::kSearchCondition:
      return "SearchConditionExpression";
  }
  return "Expression";
}

std::string ErrorPrefix(Kind k) {
  std::string prefix = "Invalid ";
  prefix += KindName(k);
  prefix += ": ";
  return prefix;
}

// A name is shown as written; an index as "[n]"; elements are joined by ", ".
std::string Path::Render() const {
  std::string out = "[";
  for (size_t i = 0; i < elements.size(); ++i) {
    if (i > 0) out += ", ";
    const PathElement& e = elements[i];
    if (e.is_index) {
      out += "[";
      out += std::to_string(e.index);
      out += "]";
    } else {
      out += e.name;
    }
  }
  out += "]";
  return out;
}

Operand Operand::MakePath(Path p, size_t pos) {
  Operand o;
  o.kind = OperandKind::kPath;
  o.path = std::move(p);
  o.position = pos;
  return o;
}

Operand Operand::MakeValue(AttributeValue v, size_t pos) {
  Operand o;
  o.kind = OperandKind::kValue;
  o.value = std::move(v);
  o.position = pos;
  return o;
}

std::string_view CompareOpText(CompareOp op) {
  switch (op) {
    case CompareOp::kEq:
      return "=";
    case CompareOp::kNe:
      return "<>";
    case CompareOp::kLt:
      return "<";
    case CompareOp::kLe:
      return "<=";
    case CompareOp::kGt:
      return ">";
    case CompareOp::kGe:
      return ">=";
  }
  return "=";
}

}  // namespace keyhole::expr
