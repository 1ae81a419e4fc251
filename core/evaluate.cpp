// Paths, the shared helpers of evaluate_internal.h, condition evaluation and the Query filter
// key check (contract in evaluate.h, semantics in reference §1.10 and §3.4).
//
// The other parts of evaluate.h live beside this file: condition_validate.cpp
// (ValidateCondition), key_condition.cpp (ToKeyCondition), projection.cpp and update.cpp.
#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/ddb_json.h"
#include "core/evaluate.h"
#include "core/evaluate_internal.h"
#include "core/utf8.h"

namespace keyhole::expr {

// ---------------------------------------------------------------------------------------------
// Paths

const AttributeValue* Resolve(const Item& item, const Path& path) {
  if (path.elements.empty() || path.elements[0].is_index) return nullptr;
  auto top = item.find(path.elements[0].name);
  if (top == item.end()) return nullptr;
  const AttributeValue* v = &top->second;
  for (size_t i = 1; i < path.elements.size(); ++i) {
    const PathElement& e = path.elements[i];
    if (e.is_index) {
      if (!v->is(ValueType::kL) || e.index < 0 || static_cast<uint64_t>(e.index) >= v->l().size()) {
        return nullptr;
      }
      v = &v->l()[static_cast<size_t>(e.index)];
    } else {
      if (!v->is(ValueType::kM)) return nullptr;
      auto it = v->m().find(e.name);
      if (it == v->m().end()) return nullptr;
      v = &it->second;
    }
  }
  return v;
}

bool PathsOverlap(const Path& a, const Path& b) {
  const size_t n = std::min(a.elements.size(), b.elements.size());
  return std::equal(a.elements.begin(), a.elements.begin() + n, b.elements.begin());
}

bool PathsConflict(const Path& a, const Path& b) {
  const size_t n = std::min(a.elements.size(), b.elements.size());
  for (size_t i = 0; i < n; ++i) {
    if (a.elements[i] == b.elements[i]) continue;
    return a.elements[i].is_index != b.elements[i].is_index;
  }
  return false;
}

namespace internal {

// ---------------------------------------------------------------------------------------------
// Shared helpers

Status Invalid(Kind kind, std::string_view detail) {
  std::string message = ErrorPrefix(kind);
  message += detail;
  return Status::Validation(std::move(message));
}

std::string WrongArity(std::string_view function, size_t operands) {
  std::string s = "Incorrect number of operands for operator or function; operator or function: ";
  s += function;
  s += ", number of operands: ";
  s += std::to_string(operands);
  return s;
}

std::string WrongOperandType(std::string_view function, std::string_view type) {
  std::string s = "Incorrect operand type for operator or function; operator or function: ";
  s += function;
  s += ", operand type: ";
  s += type;
  return s;
}

std::string InvalidFunctionName(std::string_view function) {
  std::string s = "Invalid function name; function: ";
  s += function;
  return s;
}

FunctionClass ClassifyFunction(std::string_view name) {
  if (name == "attribute_exists" || name == "attribute_not_exists" || name == "attribute_type" ||
      name == "begins_with" || name == "contains") {
    return FunctionClass::kCondition;
  }
  if (name == "size") return FunctionClass::kSize;
  if (name == "if_not_exists" || name == "list_append") return FunctionClass::kUpdate;
  return FunctionClass::kUnknown;
}

size_t FunctionArity(std::string_view name) {
  if (name == "attribute_exists" || name == "attribute_not_exists" || name == "size") return 1;
  return 2;
}

void FlattenOperand(const Operand& root, std::vector<Node>* out) {
  std::vector<const Operand*> stack = {&root};
  while (!stack.empty()) {
    const Operand* o = stack.back();
    stack.pop_back();
    out->push_back(Node{nullptr, o});
    for (auto it = o->args.rbegin(); it != o->args.rend(); ++it) stack.push_back(&*it);
  }
}

std::vector<Node> Flatten(const Condition& root) {
  std::vector<Node> out;
  out.reserve(16);  // a WHERE of a few predicates, without regrowing
  std::vector<Node> stack;
  stack.reserve(16);
  stack.push_back(Node{&root, nullptr});
  while (!stack.empty()) {
    Node n = stack.back();
    stack.pop_back();
    out.push_back(n);
    if (n.condition != nullptr) {
      const Condition& c = *n.condition;
      for (auto it = c.children.rbegin(); it != c.children.rend(); ++it) {
        stack.push_back(Node{&*it, nullptr});
      }
      for (auto it = c.operands.rbegin(); it != c.operands.rend(); ++it) {
        stack.push_back(Node{nullptr, &*it});
      }
    } else {
      for (auto it = n.operand->args.rbegin(); it != n.operand->args.rend(); ++it) {
        stack.push_back(Node{nullptr, &*it});
      }
    }
  }
  return out;
}

Status CheckPathLength(const Path& path, Kind kind) {
  if (path.elements.size() <= kMaxPathElements) return Status::OK();
  return Invalid(kind, "The document path has too many nesting levels; nesting levels: " +
                           std::to_string(path.elements.size()));
}

namespace {

// "...; must remove or rewrite one of these paths; path one: [a], path two: [a, b]".
Status PathPairError(Kind kind, std::string_view what, const Path& one, const Path& two) {
  std::string detail = "Two document paths ";
  detail += what;
  detail += " with each other; must remove or rewrite one of these paths; path one: ";
  detail += one.Render();
  detail += ", path two: ";
  detail += two.Render();
  return Invalid(kind, detail);
}

// "AttributeValue: {N:2}": how BETWEEN messages show a bound. Binary shows as base64, the
// form the client sent.
std::string RenderBound(const AttributeValue& v) {
  std::string out = "AttributeValue: {";
  out += TypeName(v.type());
  out += ":";
  switch (v.type()) {
    case ValueType::kS:
      out += v.s();
      break;
    case ValueType::kN:
      out += v.n().ToString();
      break;
    case ValueType::kB:
      out += Base64Encode(v.s());
      break;
    default:
      out += ValueToJsonText(v);
      break;
  }
  out += "}";
  return out;
}

}  // namespace

// Overlap is reported before conflict, each for the first pair in order, as [DL] does.
Status CheckPathsDisjoint(const std::vector<const Path*>& paths, Kind kind) {
  // Distinct top-level names can neither overlap nor conflict: answered without comparing every
  // pair, since a legacy AttributeUpdates (api/api_json_legacy.cpp) may name many thousands.
  std::set<std::string_view> names;
  bool flat = true;
  for (const Path* p : paths) {
    flat = p->elements.size() == 1 && !p->elements[0].is_index &&
           names.insert(p->elements[0].name).second;
    if (!flat) break;
  }
  if (flat) return Status::OK();
  for (size_t j = 1; j < paths.size(); ++j) {
    for (size_t i = 0; i < j; ++i) {
      if (PathsOverlap(*paths[i], *paths[j])) {
        return PathPairError(kind, "overlap", *paths[i], *paths[j]);
      }
    }
  }
  for (size_t j = 1; j < paths.size(); ++j) {
    for (size_t i = 0; i < j; ++i) {
      if (PathsConflict(*paths[i], *paths[j])) {
        return PathPairError(kind, "conflict", *paths[i], *paths[j]);
      }
    }
  }
  return Status::OK();
}

std::optional<ValueType> StaticType(const Operand& o) {
  if (o.kind == OperandKind::kValue) return o.value.type();
  if (o.kind == OperandKind::kFunction && o.function == "size") return ValueType::kN;
  return std::nullopt;
}

Status CheckBetweenBounds(const AttributeValue& lower, const AttributeValue& upper, Kind kind) {
  if (!IsOrdered(lower.type()) || !IsOrdered(upper.type())) return Status::OK();
  std::string_view problem;
  if (lower.type() != upper.type()) {
    problem = "requires same data type for lower and upper bounds";
  } else if (lower.CompareKey(upper) > 0) {
    problem = "requires upper bound to be greater than or equal to lower bound";
  } else {
    return Status::OK();
  }
  std::string detail = "The BETWEEN operator ";
  detail += problem;
  detail += "; lower bound operand: ";
  detail += RenderBound(lower);
  detail += ", upper bound operand: ";
  detail += RenderBound(upper);
  return Invalid(kind, detail);
}

}  // namespace internal

// ---------------------------------------------------------------------------------------------
// Evaluation

namespace {

// The number of Unicode characters of UTF-8 text: bytes that do not continue a sequence.
//
// Decision (reference §3.4 leaves it open): size() of a string counts characters, as the
// Developer Guide says ("the length of the string"), not UTF-8 bytes. We count code points;
// DynamoDB Local counts UTF-16 code units, which agrees except for characters outside the
// Basic Multilingual Plane (an emoji is 1 here, 2 there).
int64_t CharacterCount(const std::string& s) {
  return static_cast<int64_t>(utf8::CountCharacters(s));
}

// size(v): S characters, B bytes, set members, list elements, map entries; nullopt for N,
// BOOL and NULL, which have no size.
std::optional<int64_t> SizeOf(const AttributeValue& v) {
  switch (v.type()) {
    case ValueType::kS:
      return CharacterCount(v.s());
    case ValueType::kB:
      return static_cast<int64_t>(v.s().size());
    case ValueType::kSS:
    case ValueType::kBS:
      return static_cast<int64_t>(v.strings().size());
    case ValueType::kNS:
      return static_cast<int64_t>(v.numbers().size());
    case ValueType::kL:
      return static_cast<int64_t>(v.l().size());
    case ValueType::kM:
      return static_cast<int64_t>(v.m().size());
    default:
      return std::nullopt;
  }
}

// The value of an operand on `item`, or nullptr when it has none (a path that does not
// resolve, size() of a value without a size, a function that yields no value here). A computed
// value is stored in *scratch and the result points at it.
const AttributeValue* OperandValue(const Operand& o, const Item& item, AttributeValue* scratch) {
  switch (o.kind) {
    case OperandKind::kPath:
      return Resolve(item, o.path);
    case OperandKind::kValue:
      return &o.value;
    case OperandKind::kFunction: {
      if (o.function != "size" || o.args.size() != 1) return nullptr;
      AttributeValue inner;
      const AttributeValue* arg = OperandValue(o.args[0], item, &inner);
      if (arg == nullptr) return nullptr;
      std::optional<int64_t> size = SizeOf(*arg);
      if (!size) return nullptr;
      *scratch = AttributeValue::N(Number::FromInt(*size));
      return scratch;
    }
    case OperandKind::kPlus:
    case OperandKind::kMinus:
      return nullptr;  // not part of the condition language
  }
  return nullptr;
}

// Both present, the same ordered type; then the three-way comparison.
std::optional<int> CompareOrdered(const AttributeValue* a, const AttributeValue* b) {
  if (a == nullptr || b == nullptr || a->type() != b->type() || !internal::IsOrdered(a->type())) {
    return std::nullopt;
  }
  return a->CompareKey(*b);
}

// `=` is true when both are present and deeply equal; `<>` is its complement; ordering
// operators need the same ordered type (reference §1.10).
bool EvalCompare(CompareOp op, const AttributeValue* a, const AttributeValue* b) {
  if (op == CompareOp::kEq || op == CompareOp::kNe) {
    const bool equal = a != nullptr && b != nullptr && *a == *b;
    return op == CompareOp::kEq ? equal : !equal;
  }
  std::optional<int> c = CompareOrdered(a, b);
  if (!c) return false;
  switch (op) {
    case CompareOp::kLt:
      return *c < 0;
    case CompareOp::kLe:
      return *c <= 0;
    case CompareOp::kGt:
      return *c > 0;
    case CompareOp::kGe:
      return *c >= 0;
    default:
      return false;
  }
}

// A comparison. size() of a value without a size (N, BOOL, NULL, missing) is "no value", and
// any comparison using it is false (reference §3.4), `<>` included, unlike a missing path,
// which makes `<>` true (§1.10).
bool EvalComparison(const Condition& c, const Item& item) {
  if (c.operands.size() != 2) return false;
  AttributeValue s0, s1;
  const AttributeValue* a = OperandValue(c.operands[0], item, &s0);
  const AttributeValue* b = OperandValue(c.operands[1], item, &s1);
  auto no_size = [](const Operand& o, const AttributeValue* v) {
    return o.kind == OperandKind::kFunction && v == nullptr;
  };
  if (no_size(c.operands[0], a) || no_size(c.operands[1], b)) return false;
  return EvalCompare(c.op, a, b);
}

// A bytewise substring test for S in S or B in B.
bool HasSubstring(const AttributeValue& haystack, const AttributeValue& needle) {
  return haystack.s().find(needle.s()) != std::string::npos;
}

// contains(a, b): S or B substring, set membership with the element type, list element equal
// to b. Other combinations are false.
bool EvalContains(const AttributeValue* a, const AttributeValue* b) {
  if (a == nullptr || b == nullptr) return false;
  switch (a->type()) {
    case ValueType::kS:
    case ValueType::kB:
      return b->type() == a->type() && HasSubstring(*a, *b);
    case ValueType::kSS:
    case ValueType::kBS: {
      const ValueType member = a->is(ValueType::kSS) ? ValueType::kS : ValueType::kB;
      return b->is(member) && std::binary_search(a->strings().begin(), a->strings().end(), b->s());
    }
    case ValueType::kNS:
      return b->is(ValueType::kN) &&
             std::binary_search(a->numbers().begin(), a->numbers().end(), b->n());
    case ValueType::kL:
      return std::find(a->l().begin(), a->l().end(), *b) != a->l().end();
    default:
      return false;
  }
}

// begins_with(a, b): both S or both B, and a starts with b.
bool EvalBeginsWith(const AttributeValue* a, const AttributeValue* b) {
  if (a == nullptr || b == nullptr || a->type() != b->type()) return false;
  if (!a->is(ValueType::kS) && !a->is(ValueType::kB)) return false;
  return a->s().starts_with(b->s());
}

// attribute_type(path, :t): the value exists and its type is named by the string :t.
bool EvalAttributeType(const AttributeValue* a, const AttributeValue* t) {
  if (a == nullptr || t == nullptr || !t->is(ValueType::kS)) return false;
  ValueType wanted;
  return TypeFromName(t->s(), &wanted) && a->type() == wanted;
}

// A boolean function; unknown names (refused by validation) are false.
bool EvalFunction(const Condition& c, const Item& item) {
  const std::string& f = c.function;
  const size_t n = c.operands.size();
  AttributeValue scratch0, scratch1;
  const AttributeValue* a = n > 0 ? OperandValue(c.operands[0], item, &scratch0) : nullptr;
  const AttributeValue* b = n > 1 ? OperandValue(c.operands[1], item, &scratch1) : nullptr;
  if (f == "attribute_exists") return a != nullptr;
  if (f == "attribute_not_exists") return n > 0 && a == nullptr;
  if (f == "attribute_type") return EvalAttributeType(a, b);
  if (f == "begins_with") return EvalBeginsWith(a, b);
  if (f == "contains") return EvalContains(a, b);
  return false;
}

// x BETWEEN lo AND hi: all present, one ordered type, lo <= x <= hi.
bool EvalBetween(const Condition& c, const Item& item) {
  if (c.operands.size() != 3) return false;
  AttributeValue s0, s1, s2;
  const AttributeValue* x = OperandValue(c.operands[0], item, &s0);
  const AttributeValue* lo = OperandValue(c.operands[1], item, &s1);
  const AttributeValue* hi = OperandValue(c.operands[2], item, &s2);
  std::optional<int> above_lo = CompareOrdered(x, lo);
  std::optional<int> below_hi = CompareOrdered(x, hi);
  return above_lo && below_hi && *above_lo >= 0 && *below_hi <= 0;
}

// x IN (v1, v2, ...): x present and equal to one of them (types may be mixed).
bool EvalIn(const Condition& c, const Item& item) {
  if (c.operands.empty()) return false;
  AttributeValue s0;
  const AttributeValue* x = OperandValue(c.operands[0], item, &s0);
  if (x == nullptr) return false;
  for (size_t i = 1; i < c.operands.size(); ++i) {
    AttributeValue si;
    const AttributeValue* v = OperandValue(c.operands[i], item, &si);
    if (v != nullptr && *v == *x) return true;
  }
  return false;
}

}  // namespace

bool Evaluate(const Condition& c, const Item& item) {
  switch (c.kind) {
    case ConditionKind::kAnd:
      return std::all_of(c.children.begin(), c.children.end(),
                         [&](const Condition& child) { return Evaluate(child, item); });
    case ConditionKind::kOr:
      return std::any_of(c.children.begin(), c.children.end(),
                         [&](const Condition& child) { return Evaluate(child, item); });
    case ConditionKind::kNot:
      return c.children.size() == 1 && !Evaluate(c.children[0], item);
    case ConditionKind::kCompare:
      return EvalComparison(c, item);
    case ConditionKind::kBetween:
      return EvalBetween(c, item);
    case ConditionKind::kIn:
      return EvalIn(c, item);
    case ConditionKind::kFunction:
      return EvalFunction(c, item);
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Query filters

Status CheckFilterAvoidsKeys(const Condition& filter, const std::vector<std::string>& key_names,
                             bool legacy) {
  for (const internal::Node& n : internal::Flatten(filter)) {
    if (n.operand == nullptr || n.operand->kind != OperandKind::kPath) continue;
    const Path& p = n.operand->path;
    if (p.elements.empty() || p.elements[0].is_index) continue;
    const std::string& top = p.elements[0].name;
    if (std::find(key_names.begin(), key_names.end(), top) != key_names.end()) {
      return Status::Validation(std::string(legacy ? "QueryFilter" : "Filter Expression") +
                                " can only contain non-primary key attributes: Primary key "
                                "attribute: " +
                                top);
    }
  }
  return Status::OK();
}

Status CheckKeyPaths(const std::vector<const Path*>& paths, const TableDescription& table) {
  std::set<std::string_view> nested;
  for (const Path* p : paths) {
    if (p->elements.size() > 1 && !p->elements[0].is_index) nested.insert(p->elements[0].name);
  }
  if (nested.empty()) return Status::OK();
  constexpr std::string_view kScalars =
      "Key attributes must be scalars; list random access '[]' and map lookup '.' are not "
      "allowed: ";
  for (const std::string& k : table.key.Names()) {
    if (nested.count(k)) return Status::Validation(std::string(kScalars) + "Key: " + k);
  }
  for (const IndexDescription& index : table.indexes) {
    for (const std::string& k : index.key.Names()) {
      if (nested.count(k)) return Status::Validation(std::string(kScalars) + "IndexKey: " + k);
    }
  }
  return Status::OK();
}

void AppendPaths(const Condition& c, std::vector<const Path*>* out) {
  for (const internal::Node& n : internal::Flatten(c)) {
    if (n.operand && n.operand->kind == OperandKind::kPath) out->push_back(&n.operand->path);
  }
}

void AppendPaths(const ProjectionExpression& p, std::vector<const Path*>* out) {
  for (const Path& path : p.paths) out->push_back(&path);
}

void AppendPaths(const UpdateExpression& u, std::vector<const Path*>* out) {
  std::vector<internal::Node> nodes;
  for (const UpdateAction& a : u.actions) {
    out->push_back(&a.path);
    if (a.kind != UpdateActionKind::kRemove) internal::FlattenOperand(a.value, &nodes);
  }
  for (const internal::Node& n : nodes) {
    if (n.operand && n.operand->kind == OperandKind::kPath) out->push_back(&n.operand->path);
  }
}

}  // namespace keyhole::expr
