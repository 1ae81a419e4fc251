// UpdateExpression: static validation, application to an item, and the touched paths
// (contract in evaluate.h, semantics and texts in reference §1.2 and §3.7).
//
// ApplyUpdate works in three phases so that every path means what it meant in the item as it
// was before the update:
//  1. compute: every SET value, ADD sum and DELETE difference is computed from the original
//     item, in source order (the first runtime error wins);
//  2. write: the new values are stored in ascending path order, so list SETs go in element
//     order, and an index at or past the end appends. Writes never shift list elements;
//  3. remove: REMOVEs (and DELETEs that empty a set) run in descending path order, so removing
//     l[1] cannot move l[3] before it is removed: indexes refer to the original positions.
// Validation guarantees that no two target paths overlap, so the phases cannot interfere.
#include <algorithm>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/evaluate.h"
#include "core/evaluate_internal.h"
#include "core/item.h"

namespace keyhole::expr {

namespace {

using internal::Invalid;
using internal::Node;

constexpr Kind kKind = Kind::kUpdate;

// ---------------------------------------------------------------------------------------------
// Validation

// The long type names of ADD/DELETE messages ([DL]); sets have none because sets are valid.
std::string_view LongTypeName(ValueType t) {
  switch (t) {
    case ValueType::kS:
      return "STRING";
    case ValueType::kN:
      return "NUMBER";
    case ValueType::kB:
      return "BINARY";
    case ValueType::kNull:
      return "NULL";
    case ValueType::kBool:
      return "BOOLEAN";
    case ValueType::kL:
      return "LIST";
    case ValueType::kM:
      return "MAP";
    default:
      return TypeName(t);
  }
}

std::string_view ActionName(UpdateActionKind k) {
  switch (k) {
    case UpdateActionKind::kSet:
      return "SET";
    case UpdateActionKind::kRemove:
      return "REMOVE";
    case UpdateActionKind::kAdd:
      return "ADD";
    case UpdateActionKind::kDelete:
      return "DELETE";
  }
  return "";
}

// The operand nodes of every action's value, in source order.
std::vector<Node> FlattenValues(const UpdateExpression& u) {
  std::vector<Node> nodes;
  for (const UpdateAction& a : u.actions) {
    if (a.kind != UpdateActionKind::kRemove) internal::FlattenOperand(a.value, &nodes);
  }
  return nodes;
}

// Operators and functions ([DG]: "operators or functions", so function calls count here),
// then every path's length.
Status CheckLimits(const UpdateExpression& u, const std::vector<Node>& nodes) {
  size_t count = 0;
  for (const Node& n : nodes) {
    if (n.operand->kind == OperandKind::kFunction || n.operand->kind == OperandKind::kPlus ||
        n.operand->kind == OperandKind::kMinus) {
      ++count;
    }
  }
  if (count > internal::kMaxOperators) {
    return Invalid(kKind, "The expression contains too many operators; operator count: " +
                              std::to_string(count));
  }
  for (const UpdateAction& a : u.actions) {
    KH_RETURN_IF_ERROR(internal::CheckPathLength(a.path, kKind));
  }
  for (const Node& n : nodes) {
    if (n.operand->kind == OperandKind::kPath) {
      KH_RETURN_IF_ERROR(internal::CheckPathLength(n.operand->path, kKind));
    }
  }
  return Status::OK();
}

// Only if_not_exists and list_append exist in SET values.
Status CheckFunctionNames(const std::vector<Node>& nodes) {
  for (const Node& n : nodes) {
    if (n.operand->kind != OperandKind::kFunction) continue;
    const std::string& f = n.operand->function;
    switch (internal::ClassifyFunction(f)) {
      case internal::FunctionClass::kUnknown:
        return Invalid(kKind, internal::InvalidFunctionName(f));
      case internal::FunctionClass::kCondition:
      case internal::FunctionClass::kSize:
        return Invalid(kKind,
                       "The function is not allowed in an update expression; function: " + f);
      case internal::FunctionClass::kUpdate:
        break;
    }
  }
  return Status::OK();
}

// ADD takes a number or a set; DELETE a set. Only constants are checked here.
Status CheckAddDeleteOperands(const UpdateExpression& u) {
  for (const UpdateAction& a : u.actions) {
    if (a.kind != UpdateActionKind::kAdd && a.kind != UpdateActionKind::kDelete) continue;
    if (a.value.kind != OperandKind::kValue) continue;
    const AttributeValue& v = a.value.value;
    if (v.IsSet() || (a.kind == UpdateActionKind::kAdd && v.is(ValueType::kN))) continue;
    return Invalid(kKind, "Incorrect operand type for operator or function; operator: " +
                              std::string(ActionName(a.kind)) +
                              ", operand type: " + std::string(LongTypeName(v.type())));
  }
  return Status::OK();
}

// Arity and operand types of if_not_exists, list_append, + and -.
Status CheckFunction(const Operand& o) {
  std::string name = o.kind == OperandKind::kPlus    ? "+"
                     : o.kind == OperandKind::kMinus ? "-"
                                                     : o.function;
  if (o.args.size() != 2) return Invalid(kKind, internal::WrongArity(name, o.args.size()));
  if (name == "if_not_exists") {
    if (o.args[0].kind != OperandKind::kPath) {
      return Invalid(
          kKind, "Operator or function requires a document path; operator or function: " + name);
    }
    return Status::OK();
  }
  const ValueType wanted = name == "list_append" ? ValueType::kL : ValueType::kN;
  for (const Operand& arg : o.args) {
    // DynamoDB refuses list_append as an argument of list_append (found by a conformance suite;
    // if_not_exists inside list_append is allowed). The wording is its misused-function text.
    if (name == "list_append" && arg.kind == OperandKind::kFunction &&
        arg.function == "list_append") {
      return Invalid(kKind,
                     "The function is not allowed to be used this way in an expression; "
                     "function: list_append");
    }
    if (arg.kind == OperandKind::kValue && arg.value.type() != wanted) {
      return Invalid(kKind, internal::WrongOperandType(name, TypeName(arg.value.type())));
    }
  }
  return Status::OK();
}

Status CheckFunctions(const std::vector<Node>& nodes) {
  for (const Node& n : nodes) {
    if (n.operand->kind == OperandKind::kPath || n.operand->kind == OperandKind::kValue) continue;
    KH_RETURN_IF_ERROR(CheckFunction(*n.operand));
  }
  return Status::OK();
}

// No action may target a key attribute (or anything inside one).
Status CheckKeyTargets(const UpdateExpression& u, const KeySchema& key) {
  for (const UpdateAction& a : u.actions) {
    if (a.path.elements.empty() || a.path.elements[0].is_index) continue;
    const std::string& top = a.path.elements[0].name;
    if (top == key.partition.name || (key.sort && top == key.sort->name)) {
      return Status::Validation(
          "One or more parameter values were invalid: Cannot update attribute " + top +
          ". This attribute is part of the key");
    }
  }
  return Status::OK();
}

// ---------------------------------------------------------------------------------------------
// Application

Status InvalidPath() {
  return Status::Validation(
      "The document path provided in the update expression is invalid for update");
}
Status MissingAttribute() {
  return Status::Validation(
      "The provided expression refers to an attribute that does not exist in the item");
}
constexpr std::string_view kWrongDataType =
    "An operand in the update expression has an incorrect data type";
Status WrongDataType() { return Status::Validation(std::string(kWrongDataType)); }

// The value at the first `n` elements of `path` in *item, or nullptr.
AttributeValue* ResolvePrefix(Item* item, const Path& path, size_t n) {
  Path prefix;
  prefix.elements.assign(path.elements.begin(), path.elements.begin() + n);
  return const_cast<AttributeValue*>(Resolve(*item, prefix));
}

// Orders paths element by element (names bytewise, indexes numerically, a prefix first).
bool PathLess(const Path& a, const Path& b) {
  const size_t n = std::min(a.elements.size(), b.elements.size());
  for (size_t i = 0; i < n; ++i) {
    const PathElement& x = a.elements[i];
    const PathElement& y = b.elements[i];
    if (x.is_index != y.is_index) return y.is_index;
    if (x.is_index ? x.index != y.index : x.name != y.name) {
      return x.is_index ? x.index < y.index : x.name < y.name;
    }
  }
  return a.elements.size() < b.elements.size();
}

// The value of a SET operand computed from the original item.
Result<AttributeValue> EvalValue(const Operand& o, const Item& old);

// list_append(a, b): both lists; a's elements then b's.
Result<AttributeValue> EvalListAppend(const Operand& o, const Item& old) {
  KH_ASSIGN_OR_RETURN(AttributeValue a, EvalValue(o.args[0], old));
  KH_ASSIGN_OR_RETURN(AttributeValue b, EvalValue(o.args[1], old));
  if (!a.is(ValueType::kL) || !b.is(ValueType::kL)) return WrongDataType();
  List out = std::move(a.l());
  out.insert(out.end(), std::make_move_iterator(b.l().begin()),
             std::make_move_iterator(b.l().end()));
  return AttributeValue::L(std::move(out));
}

// a + b or a - b: both numbers; Number's range and precision errors pass through.
Result<AttributeValue> EvalArithmetic(const Operand& o, const Item& old) {
  KH_ASSIGN_OR_RETURN(AttributeValue a, EvalValue(o.args[0], old));
  KH_ASSIGN_OR_RETURN(AttributeValue b, EvalValue(o.args[1], old));
  if (!a.is(ValueType::kN) || !b.is(ValueType::kN)) return WrongDataType();
  Result<Number> r =
      o.kind == OperandKind::kPlus ? Number::Add(a.n(), b.n()) : Number::Subtract(a.n(), b.n());
  if (!r.ok()) return r.status();
  return AttributeValue::N(std::move(r).value());
}

Result<AttributeValue> EvalValue(const Operand& o, const Item& old) {
  switch (o.kind) {
    case OperandKind::kValue:
      return o.value;
    case OperandKind::kPath: {
      const AttributeValue* v = Resolve(old, o.path);
      if (v == nullptr) return MissingAttribute();
      return *v;
    }
    case OperandKind::kPlus:
    case OperandKind::kMinus:
      return EvalArithmetic(o, old);
    case OperandKind::kFunction:
      if (o.function == "list_append") return EvalListAppend(o, old);
      if (o.function == "if_not_exists") {
        const AttributeValue* v =
            o.args[0].kind == OperandKind::kPath ? Resolve(old, o.args[0].path) : nullptr;
        if (v != nullptr) return *v;
        return EvalValue(o.args[1], old);
      }
      break;
  }
  return WrongDataType();
}

// The union of two sets of the same type (members sorted and unique in both).
AttributeValue SetUnion(const AttributeValue& a, const AttributeValue& b) {
  if (a.is(ValueType::kNS)) {
    std::vector<Number> out;
    std::set_union(a.numbers().begin(), a.numbers().end(), b.numbers().begin(), b.numbers().end(),
                   std::back_inserter(out));
    return AttributeValue::NS(std::move(out));
  }
  std::vector<std::string> out;
  std::set_union(a.strings().begin(), a.strings().end(), b.strings().begin(), b.strings().end(),
                 std::back_inserter(out));
  return a.is(ValueType::kSS) ? AttributeValue::SS(std::move(out))
                              : AttributeValue::BS(std::move(out));
}

// a's members that are not in b; nullopt when none is left.
std::optional<AttributeValue> SetDifference(const AttributeValue& a, const AttributeValue& b) {
  if (a.is(ValueType::kNS)) {
    std::vector<Number> out;
    std::set_difference(a.numbers().begin(), a.numbers().end(), b.numbers().begin(),
                        b.numbers().end(), std::back_inserter(out));
    if (out.empty()) return std::nullopt;
    return AttributeValue::NS(std::move(out));
  }
  std::vector<std::string> out;
  std::set_difference(a.strings().begin(), a.strings().end(), b.strings().begin(),
                      b.strings().end(), std::back_inserter(out));
  if (out.empty()) return std::nullopt;
  return a.is(ValueType::kSS) ? AttributeValue::SS(std::move(out))
                              : AttributeValue::BS(std::move(out));
}

// ADD: a missing attribute counts as 0 or the empty set; otherwise the types must agree.
Result<AttributeValue> EvalAdd(const AttributeValue* current, const AttributeValue& value) {
  if (!value.is(ValueType::kN) && !value.IsSet()) return WrongDataType();
  if (current == nullptr) return value;
  if (current->type() != value.type()) return WrongDataType();
  if (value.IsSet()) return SetUnion(*current, value);
  Result<Number> sum = Number::Add(current->n(), value.n());
  if (!sum.ok()) return sum.status();
  return AttributeValue::N(std::move(sum).value());
}

// What an update does to the item, computed before anything changes.
struct Plan {
  std::vector<std::pair<const Path*, AttributeValue>> writes;
  std::vector<const Path*> removals;  // targets that exist in the original item
};

// A REMOVE (or DELETE) of a target that does not exist: a no-op, except that the container
// holding it must exist with the right type when the item exists.
Status CheckMissingTarget(const Item& old, const Path& path, bool existed) {
  if (!existed || path.elements.size() < 2) return Status::OK();
  Path parent;
  parent.elements.assign(path.elements.begin(), path.elements.end() - 1);
  const AttributeValue* container = Resolve(old, parent);
  const ValueType wanted = path.elements.back().is_index ? ValueType::kL : ValueType::kM;
  if (container == nullptr || !container->is(wanted)) return InvalidPath();
  return Status::OK();
}

// Phase 1: compute one action against the original item into *plan.
Status PlanAction(const UpdateAction& a, const Item& old, bool existed, Plan* plan) {
  const AttributeValue* current = Resolve(old, a.path);
  switch (a.kind) {
    case UpdateActionKind::kSet: {
      KH_ASSIGN_OR_RETURN(AttributeValue v, EvalValue(a.value, old));
      // Empty sets and too-deep documents; the target's level is its element count.
      KH_RETURN_IF_ERROR(ValidateValue(v, static_cast<int>(a.path.elements.size())));
      plan->writes.emplace_back(&a.path, std::move(v));
      return Status::OK();
    }
    case UpdateActionKind::kRemove:
      if (current == nullptr) return CheckMissingTarget(old, a.path, existed);
      plan->removals.push_back(&a.path);
      return Status::OK();
    case UpdateActionKind::kAdd: {
      KH_ASSIGN_OR_RETURN(AttributeValue v, EvalValue(a.value, old));
      KH_ASSIGN_OR_RETURN(AttributeValue sum, EvalAdd(current, v));
      plan->writes.emplace_back(&a.path, std::move(sum));
      return Status::OK();
    }
    case UpdateActionKind::kDelete: {
      KH_ASSIGN_OR_RETURN(AttributeValue v, EvalValue(a.value, old));
      if (!v.IsSet()) return WrongDataType();
      if (current == nullptr) return CheckMissingTarget(old, a.path, existed);
      if (current->type() != v.type()) return WrongDataType();
      std::optional<AttributeValue> rest = SetDifference(*current, v);
      if (rest) {
        plan->writes.emplace_back(&a.path, std::move(*rest));
      } else {
        plan->removals.push_back(&a.path);
      }
      return Status::OK();
    }
  }
  return Status::OK();
}

// Phase 2: stores `value` at `path`. The container must exist; an index past the end appends.
Status Write(Item* item, const Path& path, AttributeValue value) {
  const PathElement& last = path.elements.back();
  if (path.elements.size() == 1) {
    (*item)[last.name] = std::move(value);
    return Status::OK();
  }
  AttributeValue* container = ResolvePrefix(item, path, path.elements.size() - 1);
  if (container == nullptr) return InvalidPath();
  if (last.is_index) {
    if (!container->is(ValueType::kL)) return InvalidPath();
    List& list = container->l();
    if (last.index >= 0 && static_cast<uint64_t>(last.index) < list.size()) {
      list[static_cast<size_t>(last.index)] = std::move(value);
    } else {
      list.push_back(std::move(value));
    }
    return Status::OK();
  }
  if (!container->is(ValueType::kM)) return InvalidPath();
  container->m()[last.name] = std::move(value);
  return Status::OK();
}

// Phase 3: removes the value at nested `path`, which exists (descending order keeps it in
// place). Top-level names are erased together by ApplyUpdate.
void Remove(Item* item, const Path& path) {
  const PathElement& last = path.elements.back();
  AttributeValue* container = ResolvePrefix(item, path, path.elements.size() - 1);
  if (container == nullptr) return;
  if (last.is_index && container->is(ValueType::kL)) {
    List& list = container->l();
    if (static_cast<uint64_t>(last.index) < list.size()) list.erase(list.begin() + last.index);
  } else if (!last.is_index && container->is(ValueType::kM)) {
    container->m().erase(last.name);
  }
}

}  // namespace

Status ValidateUpdate(const UpdateExpression& u, const KeySchema& table_key) {
  const std::vector<Node> nodes = FlattenValues(u);
  KH_RETURN_IF_ERROR(CheckLimits(u, nodes));
  KH_RETURN_IF_ERROR(CheckFunctionNames(nodes));
  std::vector<const Path*> targets;
  for (const UpdateAction& a : u.actions) targets.push_back(&a.path);
  KH_RETURN_IF_ERROR(internal::CheckPathsDisjoint(targets, kKind));
  KH_RETURN_IF_ERROR(CheckAddDeleteOperands(u));
  KH_RETURN_IF_ERROR(CheckFunctions(nodes));
  return CheckKeyTargets(u, table_key);
}

// Up to this many top-level attributes are added one at a time; more are merged.
constexpr long kOneByOneLimit = 4;

Status ApplyUpdate(const UpdateExpression& u, bool existed, Item* item, bool legacy) {
  Plan plan;
  for (const UpdateAction& a : u.actions) {
    if (a.path.elements.empty() || a.path.elements[0].is_index) return InvalidPath();
    Status s = PlanAction(a, *item, existed, &plan);
    if (!s.ok()) {
      // Only values of the wrong type fail an AttributeUpdates translation at run time (an
      // ADD or DELETE against the item's type, or an ADD of a list to a non-list).
      if (legacy && s.message() == kWrongDataType) {
        return Status::Validation("Type mismatch for attribute to update");
      }
      return s;
    }
  }
  std::stable_sort(plan.writes.begin(), plan.writes.end(),
                   [](const auto& x, const auto& y) { return PathLess(*x.first, *y.first); });
  auto top_level = [](const Path& p) { return p.elements.size() == 1; };
  // An item is a sorted vector: each top-level attribute added or removed one at a time moves
  // the ones after it, so many additions (AttributeUpdates has no count limit) are merged into
  // the item in one sort, and all top-level removals made in one pass. Targets are disjoint, so
  // the order between top-level and nested ones does not matter.
  const bool merge_writes = std::count_if(plan.writes.begin(), plan.writes.end(), [&](auto& w) {
                              return top_level(*w.first);
                            }) > kOneByOneLimit;
  if (merge_writes) {
    Map::Vector all;
    all.reserve(item->size() + plan.writes.size());
    for (auto& entry : *item) all.push_back(std::move(entry));
    for (auto& [path, value] : plan.writes) {
      if (top_level(*path)) all.emplace_back(path->elements[0].name, std::move(value));
    }
    *item = Map::FromUnsorted(std::move(all), /*keep_last=*/true);  // the writes win
  }
  for (auto& [path, value] : plan.writes) {
    if (merge_writes && top_level(*path)) continue;
    KH_RETURN_IF_ERROR(Write(item, *path, std::move(value)));
  }
  std::vector<std::string_view> removed;  // top-level names
  for (const Path* path : plan.removals) {
    if (top_level(*path)) removed.push_back(path->elements[0].name);
  }
  if (!removed.empty()) {
    std::sort(removed.begin(), removed.end());
    erase_if(*item, [&](const Map::value_type& e) {
      return std::binary_search(removed.begin(), removed.end(), std::string_view(e.first));
    });
  }
  std::stable_sort(plan.removals.begin(), plan.removals.end(),
                   [](const Path* x, const Path* y) { return PathLess(*y, *x); });
  for (const Path* path : plan.removals) {
    if (!top_level(*path)) Remove(item, *path);
  }
  return Status::OK();
}

std::vector<Path> UpdatedPaths(const UpdateExpression& u) {
  std::vector<Path> paths;
  paths.reserve(u.actions.size());
  for (const UpdateAction& a : u.actions) paths.push_back(a.path);
  return paths;
}

}  // namespace keyhole::expr
