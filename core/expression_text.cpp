#include "core/expression_text.h"

#include <string>
#include <vector>

namespace keyhole::expr {

std::string Placeholders::Name(const std::string& name) {
  for (const auto& [key, value] : names_) {
    if (value == name) return key;
  }
  std::string key;
  do {
    key = "#n" + std::to_string(next_name_++);
  } while (names_.count(key) != 0);
  names_.emplace(key, name);
  return key;
}

std::string Placeholders::Value(const AttributeValue& value) {
  std::string key;
  do {
    key = ":v" + std::to_string(next_value_++);
  } while (values_.count(key) != 0);
  values_.emplace(key, value);
  return key;
}

std::string RenderPath(const Path& path, Placeholders* p) {
  std::string out;
  for (const PathElement& e : path.elements) {
    if (e.is_index) {
      out += "[" + std::to_string(e.index) + "]";
    } else {
      if (!out.empty()) out += ".";
      out += p->Name(e.name);
    }
  }
  return out;
}

namespace {

std::string RenderArgs(const std::vector<Operand>& args, size_t first, Placeholders* p) {
  std::string out;
  for (size_t i = first; i < args.size(); ++i) {
    if (i > first) out += ", ";
    out += RenderOperand(args[i], p);
  }
  return out;
}

// A child of AND/OR/NOT: parenthesised when it is itself AND/OR/NOT, so that the structure
// survives a re-parse whatever the parser does with precedence and flattening.
std::string RenderChild(const Condition& c, Placeholders* p) {
  if (c.kind == ConditionKind::kAnd || c.kind == ConditionKind::kOr ||
      c.kind == ConditionKind::kNot) {
    return "(" + RenderCondition(c, p) + ")";
  }
  return RenderCondition(c, p);
}

}  // namespace

std::string RenderOperand(const Operand& o, Placeholders* p) {
  switch (o.kind) {
    case OperandKind::kPath:
      return RenderPath(o.path, p);
    case OperandKind::kValue:
      return p->Value(o.value);
    case OperandKind::kFunction:
      return o.function + "(" + RenderArgs(o.args, 0, p) + ")";
    case OperandKind::kPlus:
    case OperandKind::kMinus: {
      std::string lhs = o.args.size() > 0 ? RenderOperand(o.args[0], p) : "";
      std::string rhs = o.args.size() > 1 ? RenderOperand(o.args[1], p) : "";
      return lhs + (o.kind == OperandKind::kPlus ? " + " : " - ") + rhs;
    }
  }
  return "";
}

std::string RenderCondition(const Condition& c, Placeholders* p) {
  switch (c.kind) {
    case ConditionKind::kCompare: {
      std::string lhs = RenderOperand(c.operands.at(0), p);
      return lhs + " " + std::string(CompareOpText(c.op)) + " " +
             RenderOperand(c.operands.at(1), p);
    }
    case ConditionKind::kBetween: {
      std::string a = RenderOperand(c.operands.at(0), p);
      std::string b = RenderOperand(c.operands.at(1), p);
      return a + " BETWEEN " + b + " AND " + RenderOperand(c.operands.at(2), p);
    }
    case ConditionKind::kIn: {
      std::string a = RenderOperand(c.operands.at(0), p);
      return a + " IN (" + RenderArgs(c.operands, 1, p) + ")";
    }
    case ConditionKind::kFunction:
      return c.function + "(" + RenderArgs(c.operands, 0, p) + ")";
    case ConditionKind::kAnd:
    case ConditionKind::kOr: {
      std::string out;
      for (size_t i = 0; i < c.children.size(); ++i) {
        if (i > 0) out += c.kind == ConditionKind::kAnd ? " AND " : " OR ";
        out += RenderChild(c.children[i], p);
      }
      return out;
    }
    case ConditionKind::kNot:
      return "NOT " + RenderChild(c.children.at(0), p);
  }
  return "";
}

std::string RenderUpdate(const UpdateExpression& update, Placeholders* p) {
  // Clauses in the order of their first action; actions in source order within a clause.
  std::vector<UpdateActionKind> order;
  for (const UpdateAction& a : update.actions) {
    bool seen = false;
    for (UpdateActionKind k : order) seen = seen || k == a.kind;
    if (!seen) order.push_back(a.kind);
  }
  std::string out;
  for (UpdateActionKind kind : order) {
    if (!out.empty()) out += " ";
    switch (kind) {
      case UpdateActionKind::kSet:
        out += "SET ";
        break;
      case UpdateActionKind::kRemove:
        out += "REMOVE ";
        break;
      case UpdateActionKind::kAdd:
        out += "ADD ";
        break;
      case UpdateActionKind::kDelete:
        out += "DELETE ";
        break;
    }
    bool first = true;
    for (const UpdateAction& a : update.actions) {
      if (a.kind != kind) continue;
      if (!first) out += ", ";
      first = false;
      out += RenderPath(a.path, p);
      if (kind == UpdateActionKind::kSet) {
        out += " = " + RenderOperand(a.value, p);
      } else if (kind != UpdateActionKind::kRemove) {
        out += " " + RenderOperand(a.value, p);
      }
    }
  }
  return out;
}

std::string RenderProjection(const ProjectionExpression& projection, Placeholders* p) {
  std::string out;
  for (const Path& path : projection.paths) {
    if (!out.empty()) out += ", ";
    out += RenderPath(path, p);
  }
  return out;
}

std::string RenderKeyCondition(const KeyCondition& key, Placeholders* p) {
  std::string out = p->Name(key.partition_name) + " = " + p->Value(key.partition_value);
  for (const auto& [name, v] : key.more_partition)
    out += " AND " + p->Name(name) + " = " + p->Value(v);
  if (key.op == SortKeyOp::kNone) return out;
  for (const auto& [name, v] : key.sort_prefix)
    out += " AND " + p->Name(name) + " = " + p->Value(v);
  std::string sk = p->Name(key.sort_name);
  out += " AND ";
  switch (key.op) {
    case SortKeyOp::kNone:
      break;
    case SortKeyOp::kEq:
      out += sk + " = " + p->Value(key.sort_value);
      break;
    case SortKeyOp::kLt:
      out += sk + " < " + p->Value(key.sort_value);
      break;
    case SortKeyOp::kLe:
      out += sk + " <= " + p->Value(key.sort_value);
      break;
    case SortKeyOp::kGt:
      out += sk + " > " + p->Value(key.sort_value);
      break;
    case SortKeyOp::kGe:
      out += sk + " >= " + p->Value(key.sort_value);
      break;
    case SortKeyOp::kBetween: {
      std::string lo = p->Value(key.sort_value);
      out += sk + " BETWEEN " + lo + " AND " + p->Value(key.sort_value2);
      break;
    }
    case SortKeyOp::kBeginsWith:
      out += "begins_with(" + sk + ", " + p->Value(key.sort_value) + ")";
      break;
  }
  return out;
}

}  // namespace keyhole::expr
