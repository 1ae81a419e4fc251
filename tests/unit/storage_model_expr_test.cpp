// Randomized model test of expressions in the storage engine: conditional PutItem/DeleteItem,
// UpdateItem with random UpdateExpressions and ReturnValues, and Query/Scan (table, a GSI and an
// LSI) with random FilterExpressions and ProjectionExpressions, paged by LastEvaluatedKey. The
// table is pk S, sk N; GSI "gsi" (g S, gn N) INCLUDE [a1, doc]; LSI "lsi" (pk, l1 S) INCLUDE
// [s1, tags]; updates move items in and out of both indexes. Every result is compared with a
// small in-memory model that re-implements the semantics of reference §3.4 (conditions), §3.6
// (projections), §3.7 (updates) and §4.1 (counts) for the subset generated here, independently
// of core/evaluate.h (which the engine uses). VerifyIntegrity runs every 200 operations.
//
// The generator stays inside the parts of DynamoDB's behaviour the reference pins down:
//  - constants of ordering operators and BETWEEN are S/N/B, BETWEEN bounds are ordered, size()
//    takes a path, begins_with an S/B constant (everything else would be a static error);
//  - key attributes are never dereferenced, never update targets, and never in a Query filter;
//  - within one update, the attributes one action reads are not written by another action, and
//    all actions on one top-level attribute are of one kind (SET, REMOVE, ADD or DELETE), so
//    the order in which the engine evaluates and applies actions cannot matter;
//  - REMOVE of a nested path only where its parent exists with the right container type, or
//    `a.b` with `a` missing (an error when the item exists, ignored when it does not);
//  - ADD and DELETE on top-level attributes only;
//  - on the GSI, filters and projections name projected attributes only; on the LSI filters do,
//    while projections (and Select ALL_ATTRIBUTES) may name any, read from the table (§4.4).
// When several actions of one update would each fail, the order is unspecified, so any of the
// possible messages is accepted; otherwise messages must match exactly. UPDATED_NEW is not
// compared when the update appended past the end of a list or removed list elements (the
// reference does not say which elements it then names). One request in about 25 carries exactly
// one static error (reference §3.3–3.7) and must fail with its exact message, changing nothing.
//
// Runs are deterministic: a failure names its seed and operation number (SCOPED_TRACE), and
// the request's expressions and the item before it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/ddb_json.h"
#include "core/item.h"
#include "storage_test_util.h"

namespace keyhole::storage {
namespace {

using keyhole::testing::B;
using keyhole::testing::N;
using keyhole::testing::S;
using keyhole::testing::TempDb;

constexpr char kTable[] = "ExprModel";
constexpr char kGsi[] = "gsi";

// Messages (reference §3.4, §3.7, §1.5).
constexpr char kConditionFailed[] = "The conditional request failed";
constexpr char kMissingOperand[] =
    "The provided expression refers to an attribute that does not exist in the item";
constexpr char kWrongType[] = "An operand in the update expression has an incorrect data type";
constexpr char kBadPath[] =
    "The document path provided in the update expression is invalid for update";
constexpr char kEmptyIndexKey[] =
    "One or more parameter values are not valid. The update expression attempted to update a "
    "secondary index key to a value that is not supported. The AttributeValue for a key attribute "
    "cannot contain an empty string value.";
std::string IndexTypeMismatch(const std::string& name, std::string_view expected,
                              std::string_view actual, const std::string& index) {
  return "One or more parameter values were invalid: Type mismatch for Index Key " + name +
         " Expected: " + std::string(expected) + " Actual: " + std::string(actual) +
         " IndexName: " + index;
}

std::string Dump(const Item& item) { return ItemToJsonText(item); }
std::string Dump(const std::optional<Item>& item) { return item ? Dump(*item) : "(none)"; }
std::string Dump(
    const std::map<std::string, AttributeValue>& values) {  // ExpressionAttributeValues
  Item m;
  for (const auto& [k, v] : values) m[k] = v;
  return Dump(m);
}

::testing::AssertionResult SameItem(const std::optional<Item>& expected,
                                    const std::optional<Item>& actual) {
  if (expected == actual) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "\n  expected " << Dump(expected) << "\n  actual   " << Dump(actual);
}

::testing::AssertionResult SameItems(const std::vector<Item>& expected,
                                     const std::vector<Item>& actual) {
  for (size_t i = 0; i < std::max(expected.size(), actual.size()); ++i) {
    if (i >= expected.size() || i >= actual.size() || expected[i] != actual[i]) {
      return ::testing::AssertionFailure()
             << "expected " << expected.size() << " items, got " << actual.size()
             << "; first difference at #" << i << ":\n  expected "
             << (i < expected.size() ? Dump(expected[i]) : "(none)") << "\n  actual   "
             << (i < actual.size() ? Dump(actual[i]) : "(none)");
    }
  }
  return ::testing::AssertionSuccess();
}

std::string Describe(const expr::ExpressionInput& in) {
  std::string s;
  auto add = [&](const char* what, const std::optional<std::string>& text) {
    if (text) s += std::string("\n  ") + what + ": " + *text;
  };
  add("KeyConditionExpression", in.key_condition);
  add("ConditionExpression", in.condition);
  add("FilterExpression", in.filter);
  add("ProjectionExpression", in.projection);
  add("UpdateExpression", in.update);
  if (in.names) {
    s += "\n  ExpressionAttributeNames: {";
    for (const auto& [k, v] : *in.names) s += " " + k + "=" + v;
    s += " }";
  }
  if (in.values) s += "\n  ExpressionAttributeValues: " + Dump(*in.values);
  return s;
}

// ---- document paths, as the model sees them ----

struct Elem {
  std::string name;  // when !is_index
  int64_t index = 0;
  bool is_index = false;
  bool operator==(const Elem&) const = default;
};
using MPath = std::vector<Elem>;

// "doc/m1/z", "lst/[1]/k": elements separated by '/', "[n]" a list index. A name may hold a
// dot ("dot.ted" is one attribute).
MPath P(std::string_view spec) {
  MPath p;
  size_t start = 0;
  while (true) {
    size_t end = spec.find('/', start);
    if (end == std::string_view::npos) end = spec.size();
    std::string_view e = spec.substr(start, end - start);
    if (!e.empty() && e.front() == '[') {
      p.push_back({"", std::stoll(std::string(e.substr(1, e.size() - 2))), true});
    } else {
      p.push_back({std::string(e), 0, false});
    }
    if (end == spec.size()) break;
    start = end + 1;
  }
  return p;
}
std::vector<MPath> Paths(std::initializer_list<std::string_view> specs) {
  std::vector<MPath> v;
  for (std::string_view s : specs) v.push_back(P(s));
  return v;
}

// Reading a path: missing attribute, wrong container type or index past the end is "missing"
// (reference §3.2).
const AttributeValue* Resolve(const Item& item, const MPath& p) {
  auto it = item.find(p[0].name);
  if (it == item.end()) return nullptr;
  const AttributeValue* v = &it->second;
  for (size_t i = 1; i < p.size(); ++i) {
    const Elem& e = p[i];
    if (e.is_index) {
      if (!v->is(ValueType::kL) || e.index >= static_cast<int64_t>(v->l().size())) return nullptr;
      v = &v->l()[e.index];
    } else {
      if (!v->is(ValueType::kM)) return nullptr;
      auto m = v->m().find(e.name);
      if (m == v->m().end()) return nullptr;
      v = &m->second;
    }
  }
  return v;
}

// One path is a prefix of (or equal to) the other.
bool Overlap(const MPath& a, const MPath& b) {
  size_t n = std::min(a.size(), b.size());
  return std::equal(a.begin(), a.begin() + n, b.begin());
}
// At the first difference one has a name and the other an index.
bool Conflict(const MPath& a, const MPath& b) {
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    if (a[i] == b[i]) continue;
    return a[i].is_index != b[i].is_index;
  }
  return false;
}

// ---- projection (reference §3.6): the parts of an item the paths name, lists re-indexed ----

struct PNode {
  bool leaf = false;
  std::map<std::string, PNode> names;
  std::map<int64_t, PNode> indexes;
};

std::optional<AttributeValue> Prune(const AttributeValue& v, const PNode& n) {
  if (n.leaf) return v;
  if (!n.names.empty()) {
    if (!v.is(ValueType::kM)) return std::nullopt;
    Map out;
    for (const auto& [name, child] : n.names) {
      auto it = v.m().find(name);
      if (it == v.m().end()) continue;
      if (std::optional<AttributeValue> p = Prune(it->second, child)) out[name] = *p;
    }
    if (out.empty()) return std::nullopt;
    return AttributeValue::M(std::move(out));
  }
  if (!v.is(ValueType::kL)) return std::nullopt;
  List out;
  for (const auto& [index, child] : n.indexes) {
    if (index >= static_cast<int64_t>(v.l().size())) continue;
    if (std::optional<AttributeValue> p = Prune(v.l()[index], child)) out.push_back(*p);
  }
  if (out.empty()) return std::nullopt;
  return AttributeValue::L(std::move(out));
}

Item ProjectPaths(const Item& item, const std::vector<MPath>& paths) {
  PNode root;
  for (const MPath& p : paths) {
    PNode* n = &root;
    for (const Elem& e : p) n = e.is_index ? &n->indexes[e.index] : &n->names[e.name];
    n->leaf = true;
  }
  Item out;
  for (const auto& [name, child] : root.names) {
    auto it = item.find(name);
    if (it == item.end()) continue;
    if (std::optional<AttributeValue> p = Prune(it->second, child)) out[name] = *p;
  }
  return out;
}

// ---- expression text: names written literally or through #placeholders, values through
// :placeholders; only what is used is sent (unused placeholders are an error) ----

bool NeedsPlaceholder(const std::string& name) {
  // Reserved words among our attribute names (parser/reserved_words.cpp), and names that are
  // not [A-Za-z][A-Za-z0-9_]*.
  if (name == "status") return true;
  if (name.empty() || !std::isalpha(static_cast<unsigned char>(name[0]))) return true;
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return true;
  }
  return false;
}

class ExprText {
 public:
  explicit ExprText(std::mt19937_64* rng) : rng_(rng) {}

  std::string Name(const std::string& name) {
    if (!NeedsPlaceholder(name) && (*rng_)() % 2 == 0) return name;
    auto it = placeholder_of_.find(name);
    if (it != placeholder_of_.end() && (*rng_)() % 4 != 0) return it->second;
    std::string ph = "#n" + std::to_string(names_.size());
    names_[ph] = name;
    placeholder_of_[name] = ph;
    return ph;
  }
  std::string Path(const MPath& p) {
    std::string s;
    for (const Elem& e : p) {
      if (e.is_index) {
        s += "[" + std::to_string(e.index) + "]";
      } else {
        s += (s.empty() ? "" : ".") + Name(e.name);
      }
    }
    return s;
  }
  std::string Value(const AttributeValue& v) {
    std::string ph = ":v" + std::to_string(values_.size());
    values_[ph] = v;
    return ph;
  }
  // Keywords are case-insensitive (reference §3.1).
  std::string Kw(std::string word) {
    if ((*rng_)() % 5 == 0) {
      for (char& c : word) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return word;
  }
  void Fill(expr::ExpressionInput* in) const {
    if (!names_.empty()) in->names = names_;
    if (!values_.empty()) in->values = values_;
  }

 private:
  std::mt19937_64* rng_;
  std::map<std::string, std::string> names_;
  std::map<std::string, std::string> placeholder_of_;
  std::map<std::string, AttributeValue> values_;
};

// ---- conditions (reference §3.4, §1.10) ----

struct COperand {
  enum Kind { kPath, kValue, kSize } kind = kValue;
  MPath path;  // kPath, kSize
  AttributeValue value;
};

struct Cond {
  enum Kind {
    kExists,
    kNotExists,
    kCompare,
    kBetween,
    kIn,
    kBeginsWith,
    kContains,
    kType,
    kAnd,
    kOr,
    kNot
  } kind = kAnd;
  std::string op;  // kCompare
  std::vector<COperand> operands;
  std::vector<Cond> children;
};

std::string Render(const COperand& o, ExprText* t) {
  switch (o.kind) {
    case COperand::kPath:
      return t->Path(o.path);
    case COperand::kValue:
      return t->Value(o.value);
    case COperand::kSize:
      return "size(" + t->Path(o.path) + ")";
  }
  return "";
}

bool IsLogical(const Cond& c) {
  return c.kind == Cond::kAnd || c.kind == Cond::kOr || c.kind == Cond::kNot;
}

std::string Render(const Cond& c, ExprText* t, std::mt19937_64* rng) {
  // A child is parenthesized when precedence needs it (OR inside AND, AND/OR inside NOT), and
  // a primary sometimes. Never two layers directly around one thing.
  auto child = [&](const Cond& ch, bool needs) {
    bool wrap = needs || (!IsLogical(ch) && (*rng)() % 3 == 0);
    std::string s = Render(ch, t, rng);
    return wrap ? "(" + s + ")" : s;
  };
  switch (c.kind) {
    case Cond::kExists:
      return "attribute_exists(" + t->Path(c.operands[0].path) + ")";
    case Cond::kNotExists:
      return "attribute_not_exists(" + t->Path(c.operands[0].path) + ")";
    case Cond::kCompare:
      return Render(c.operands[0], t) + " " + c.op + " " + Render(c.operands[1], t);
    case Cond::kBetween: {
      std::string s = Render(c.operands[0], t) + " " + t->Kw("BETWEEN") + " ";
      s += Render(c.operands[1], t) + " " + t->Kw("AND") + " ";
      return s + Render(c.operands[2], t);
    }
    case Cond::kIn: {
      std::string s = Render(c.operands[0], t) + " " + t->Kw("IN") + " (";
      for (size_t i = 1; i < c.operands.size(); ++i) {
        s += (i > 1 ? ", " : "") + Render(c.operands[i], t);
      }
      return s + ")";
    }
    case Cond::kBeginsWith:
      return "begins_with(" + Render(c.operands[0], t) + ", " + Render(c.operands[1], t) + ")";
    case Cond::kContains:
      return "contains(" + Render(c.operands[0], t) + ", " + Render(c.operands[1], t) + ")";
    case Cond::kType:
      return "attribute_type(" + Render(c.operands[0], t) + ", " + Render(c.operands[1], t) + ")";
    case Cond::kAnd:
    case Cond::kOr: {
      std::string s;
      for (size_t i = 0; i < c.children.size(); ++i) {
        if (i > 0) s += " " + t->Kw(c.kind == Cond::kAnd ? "AND" : "OR") + " ";
        bool needs = c.kind == Cond::kAnd && c.children[i].kind == Cond::kOr;
        s += child(c.children[i], needs);
      }
      return s;
    }
    case Cond::kNot: {
      const Cond& ch = c.children[0];
      return t->Kw("NOT") + " " + child(ch, ch.kind == Cond::kAnd || ch.kind == Cond::kOr);
    }
  }
  return "";
}

// The value of an operand; `no_size` when it is size() of something without a size.
const AttributeValue* OperandValue(const COperand& o, const Item& item, AttributeValue* scratch,
                                   bool* no_size) {
  switch (o.kind) {
    case COperand::kPath:
      return Resolve(item, o.path);
    case COperand::kValue:
      return &o.value;
    case COperand::kSize: {
      const AttributeValue* v = Resolve(item, o.path);
      int64_t n = -1;
      if (v != nullptr) {
        switch (v->type()) {
          case ValueType::kS:  // ASCII only here: characters = bytes
          case ValueType::kB:
            n = static_cast<int64_t>(v->s().size());
            break;
          case ValueType::kSS:
          case ValueType::kBS:
            n = static_cast<int64_t>(v->strings().size());
            break;
          case ValueType::kNS:
            n = static_cast<int64_t>(v->numbers().size());
            break;
          case ValueType::kL:
            n = static_cast<int64_t>(v->l().size());
            break;
          case ValueType::kM:
            n = static_cast<int64_t>(v->m().size());
            break;
          default:
            break;
        }
      }
      if (n < 0) {
        *no_size = true;
        return nullptr;
      }
      *scratch = N(n);
      return scratch;
    }
  }
  return nullptr;
}

bool Ordered(const AttributeValue& v) {
  return v.is(ValueType::kS) || v.is(ValueType::kN) || v.is(ValueType::kB);
}
// <0, 0, >0 for two present values of one ordered type; nullopt otherwise.
std::optional<int> Order(const AttributeValue* a, const AttributeValue* b) {
  if (a == nullptr || b == nullptr || a->type() != b->type() || !Ordered(*a)) return std::nullopt;
  return a->CompareKey(*b);
}

bool Holds(const Cond& c, const Item& item) {
  AttributeValue s0, s1, s2;
  bool no_size = false;
  auto value = [&](size_t i, AttributeValue* scratch) {
    return OperandValue(c.operands[i], item, scratch, &no_size);
  };
  switch (c.kind) {
    case Cond::kExists:
      return Resolve(item, c.operands[0].path) != nullptr;
    case Cond::kNotExists:
      return Resolve(item, c.operands[0].path) == nullptr;
    case Cond::kCompare: {
      const AttributeValue* a = value(0, &s0);
      const AttributeValue* b = value(1, &s1);
      if (no_size) return false;  // size() without a value: every comparison is false
      bool equal = a != nullptr && b != nullptr && *a == *b;
      if (c.op == "=") return equal;
      if (c.op == "<>") return !equal;  // true when either side is missing (§1.10)
      std::optional<int> o = Order(a, b);
      if (!o) return false;
      if (c.op == "<") return *o < 0;
      if (c.op == "<=") return *o <= 0;
      if (c.op == ">") return *o > 0;
      return *o >= 0;
    }
    case Cond::kBetween: {
      const AttributeValue* v = value(0, &s0);
      std::optional<int> lo = Order(v, value(1, &s1));
      std::optional<int> hi = Order(v, value(2, &s2));
      return !no_size && lo && hi && *lo >= 0 && *hi <= 0;
    }
    case Cond::kIn: {
      const AttributeValue* v = value(0, &s0);
      if (v == nullptr) return false;
      for (size_t i = 1; i < c.operands.size(); ++i) {
        if (*v == c.operands[i].value) return true;
      }
      return false;
    }
    case Cond::kBeginsWith: {
      const AttributeValue* a = value(0, &s0);
      const AttributeValue* b = value(1, &s1);
      if (a == nullptr || b == nullptr || a->type() != b->type()) return false;
      if (!a->is(ValueType::kS) && !a->is(ValueType::kB)) return false;
      return a->s().substr(0, b->s().size()) == b->s();
    }
    case Cond::kContains: {
      const AttributeValue* a = value(0, &s0);
      const AttributeValue* b = value(1, &s1);
      if (a == nullptr || b == nullptr) return false;
      switch (a->type()) {
        case ValueType::kS:
        case ValueType::kB:
          return a->type() == b->type() && a->s().find(b->s()) != std::string::npos;
        case ValueType::kSS:
        case ValueType::kBS:
          if (b->type() != (a->is(ValueType::kSS) ? ValueType::kS : ValueType::kB)) return false;
          for (const std::string& m : a->strings()) {
            if (m == b->s()) return true;
          }
          return false;
        case ValueType::kNS:
          if (!b->is(ValueType::kN)) return false;
          for (const Number& m : a->numbers()) {
            if (m == b->n()) return true;
          }
          return false;
        case ValueType::kL:
          for (const AttributeValue& e : a->l()) {
            if (e == *b) return true;
          }
          return false;
        default:
          return false;
      }
    }
    case Cond::kType: {
      const AttributeValue* a = value(0, &s0);
      return a != nullptr && TypeName(a->type()) == c.operands[1].value.s();
    }
    case Cond::kAnd:
      for (const Cond& ch : c.children) {
        if (!Holds(ch, item)) return false;
      }
      return true;
    case Cond::kOr:
      for (const Cond& ch : c.children) {
        if (Holds(ch, item)) return true;
      }
      return false;
    case Cond::kNot:
      return !Holds(c.children[0], item);
  }
  return false;
}

// ---- updates (reference §3.7) ----

struct UOperand {
  enum Kind { kPath, kValue, kIfNotExists, kListAppend } kind = kValue;
  MPath path;                  // kPath, kIfNotExists
  AttributeValue value;        // kValue
  std::vector<UOperand> args;  // kIfNotExists: [default]; kListAppend: [first, second]
};

struct UAction {
  enum Kind { kSet, kRemove, kAdd, kDelete } kind = kSet;
  MPath target;
  UOperand a;          // SET value (or its left side)
  char op = 0;         // SET: 0, '+' or '-'
  UOperand b;          // SET right side of + / -
  AttributeValue arg;  // ADD / DELETE value
  std::string raw;     // when set: the action's text, as written (for static errors)
};

std::string Render(const UOperand& o, ExprText* t) {
  switch (o.kind) {
    case UOperand::kPath:
      return t->Path(o.path);
    case UOperand::kValue:
      return t->Value(o.value);
    case UOperand::kIfNotExists:
      return "if_not_exists(" + t->Path(o.path) + ", " + Render(o.args[0], t) + ")";
    case UOperand::kListAppend:
      return "list_append(" + Render(o.args[0], t) + ", " + Render(o.args[1], t) + ")";
  }
  return "";
}

void ReadPaths(const UOperand& o, std::vector<MPath>* out) {
  if (o.kind == UOperand::kPath || o.kind == UOperand::kIfNotExists) out->push_back(o.path);
  for (const UOperand& a : o.args) ReadPaths(a, out);
}

std::string RenderUpdate(const std::vector<UAction>& actions, ExprText* t, std::mt19937_64* rng) {
  static const char* kWords[] = {"SET", "REMOVE", "ADD", "DELETE"};
  std::vector<std::string> clauses[4];
  for (const UAction& a : actions) {
    if (!a.raw.empty()) {
      clauses[a.kind].push_back(a.raw);
      continue;
    }
    std::string s = t->Path(a.target);
    switch (a.kind) {
      case UAction::kSet:
        s += " = " + Render(a.a, t);
        if (a.op) s += std::string(" ") + a.op + " " + Render(a.b, t);
        break;
      case UAction::kRemove:
        break;
      case UAction::kAdd:
      case UAction::kDelete:
        s += " " + t->Value(a.arg);
        break;
    }
    clauses[a.kind].push_back(s);
  }
  std::vector<int> order = {0, 1, 2, 3};
  std::shuffle(order.begin(), order.end(), *rng);
  std::string text;
  for (int k : order) {
    if (clauses[k].empty()) continue;
    text += (text.empty() ? "" : " ") + t->Kw(kWords[k]) + " ";
    for (size_t i = 0; i < clauses[k].size(); ++i) text += (i ? ", " : "") + clauses[k][i];
  }
  return text;
}

// A value, or the messages evaluating it may fail with.
struct Eval {
  std::optional<AttributeValue> value;
  std::set<std::string> errors;
};

Eval Evaluate(const UOperand& o, const Item& item) {
  Eval e;
  switch (o.kind) {
    case UOperand::kPath:
      if (const AttributeValue* v = Resolve(item, o.path)) {
        e.value = *v;
      } else {
        e.errors.insert(kMissingOperand);
      }
      return e;
    case UOperand::kValue:
      e.value = o.value;
      return e;
    case UOperand::kIfNotExists:
      if (const AttributeValue* v = Resolve(item, o.path)) {
        e.value = *v;
        return e;
      }
      return Evaluate(o.args[0], item);
    case UOperand::kListAppend: {
      Eval x = Evaluate(o.args[0], item), y = Evaluate(o.args[1], item);
      e.errors = x.errors;
      e.errors.insert(y.errors.begin(), y.errors.end());
      for (const Eval* z : {&x, &y}) {
        if (z->value && !z->value->is(ValueType::kL)) e.errors.insert(kWrongType);
      }
      if (!e.errors.empty()) return e;
      List l = x.value->l();
      l.insert(l.end(), y.value->l().begin(), y.value->l().end());
      e.value = AttributeValue::L(std::move(l));
      return e;
    }
  }
  return e;
}

Eval EvaluateSet(const UAction& a, const Item& item) {
  Eval x = Evaluate(a.a, item);
  if (!a.op) return x;
  Eval y = Evaluate(a.b, item);
  Eval e;
  e.errors = x.errors;
  e.errors.insert(y.errors.begin(), y.errors.end());
  for (const Eval* z : {&x, &y}) {
    if (z->value && !z->value->is(ValueType::kN)) e.errors.insert(kWrongType);
  }
  if (!e.errors.empty()) return e;
  Result<Number> r = a.op == '+' ? Number::Add(x.value->n(), y.value->n())
                                 : Number::Subtract(x.value->n(), y.value->n());
  if (!r.ok()) {
    e.errors.insert(r.status().message());
  } else {
    e.value = AttributeValue::N(*r);
  }
  return e;
}

// The container a nested target lives in (its parent), for writing.
AttributeValue* ResolveMutable(Item* item, const MPath& p, size_t len) {
  auto it = item->find(p[0].name);
  if (it == item->end()) return nullptr;
  AttributeValue* v = &it->second;
  for (size_t i = 1; i < len; ++i) {
    const Elem& e = p[i];
    if (e.is_index) {
      if (!v->is(ValueType::kL) || e.index >= static_cast<int64_t>(v->l().size())) return nullptr;
      v = &v->l()[e.index];
    } else {
      if (!v->is(ValueType::kM)) return nullptr;
      auto m = v->m().find(e.name);
      if (m == v->m().end()) return nullptr;
      v = &m->second;
    }
  }
  return v;
}

// Set members as canonical strings (numbers by value), for union and difference.
std::set<std::string> Members(const AttributeValue& v) {
  std::set<std::string> out;
  if (v.is(ValueType::kNS)) {
    for (const Number& n : v.numbers()) out.insert(n.ToString());
  } else {
    out.insert(v.strings().begin(), v.strings().end());
  }
  return out;
}
AttributeValue MakeSet(ValueType t, const std::set<std::string>& members) {
  if (t == ValueType::kNS) {
    std::vector<Number> ns;
    for (const std::string& m : members) ns.push_back(Number::Parse(m).value());
    return AttributeValue::NS(std::move(ns));
  }
  std::vector<std::string> v(members.begin(), members.end());
  return t == ValueType::kSS ? AttributeValue::SS(std::move(v)) : AttributeValue::BS(std::move(v));
}

struct UpdateOutcome {
  std::set<std::string> errors;  // any of these; empty: success
  Item next;
  // UPDATED_NEW of a list element appended past the end or removed (shifting the rest) is not
  // pinned down by the reference; such results are not compared.
  bool updated_new_unspecified = false;
};

// Applies the update to `item` (the existing item, or the key when `existed` is false).
UpdateOutcome ApplyModel(const std::vector<UAction>& actions, const Item& item, bool existed) {
  UpdateOutcome out;
  out.next = item;
  // SET values are computed from the item as it was (the generator keeps reads and other
  // actions' writes apart, so this is also what any application order gives).
  std::vector<std::pair<const UAction*, AttributeValue>> sets;
  for (const UAction& a : actions) {
    if (a.kind != UAction::kSet) continue;
    Eval e = EvaluateSet(a, item);
    out.errors.insert(e.errors.begin(), e.errors.end());
    if (e.value) sets.emplace_back(&a, *e.value);
  }
  // Several SETs of list elements: in element-number order (§3.7).
  std::stable_sort(sets.begin(), sets.end(), [](const auto& x, const auto& y) {
    auto key = [](const UAction* a) {
      return a->target.back().is_index ? a->target.back().index : -1;
    };
    return key(x.first) < key(y.first);
  });
  for (const auto& [a, value] : sets) {
    const MPath& t = a->target;
    if (t.size() == 1) {
      out.next[t[0].name] = value;
      continue;
    }
    AttributeValue* parent = ResolveMutable(&out.next, t, t.size() - 1);
    const Elem& last = t.back();
    if (parent == nullptr || parent->is(ValueType::kL) != last.is_index ||
        (!last.is_index && !parent->is(ValueType::kM))) {
      out.errors.insert(kBadPath);
      continue;
    }
    if (!last.is_index) {
      parent->m()[last.name] = value;
    } else if (last.index < static_cast<int64_t>(parent->l().size())) {
      parent->l()[last.index] = value;
    } else {
      parent->l().push_back(value);  // past the end: appended, no padding
      out.updated_new_unspecified = true;
    }
  }
  // REMOVE: list indexes name original positions, so remove from the highest down.
  std::vector<const UAction*> removes;
  for (const UAction& a : actions) {
    if (a.kind == UAction::kRemove) removes.push_back(&a);
  }
  std::stable_sort(removes.begin(), removes.end(), [](const UAction* x, const UAction* y) {
    auto key = [](const UAction* a) {
      return a->target.back().is_index ? a->target.back().index : -1;
    };
    return key(x) > key(y);
  });
  for (const UAction* a : removes) {
    const MPath& t = a->target;
    if (t.size() == 1) {
      out.next.erase(t[0].name);
      continue;
    }
    AttributeValue* parent = ResolveMutable(&out.next, t, t.size() - 1);
    const Elem& last = t.back();
    if (parent == nullptr) {
      // Only generated as `a.b` with `a` missing: an error on an existing item, ignored when
      // the item does not exist.
      if (existed) out.errors.insert(kBadPath);
      continue;
    }
    if (last.is_index) {
      out.updated_new_unspecified = true;
      if (last.index < static_cast<int64_t>(parent->l().size())) {
        parent->l().erase(parent->l().begin() + last.index);
      }
    } else {
      parent->m().erase(last.name);
    }
  }
  // ADD and DELETE, top-level only.
  for (const UAction& a : actions) {
    if (a.kind != UAction::kAdd && a.kind != UAction::kDelete) continue;
    const std::string& name = a.target[0].name;
    auto it = out.next.find(name);
    if (a.kind == UAction::kAdd) {
      if (it == out.next.end()) {
        out.next[name] = a.arg;  // a missing attribute counts as 0 or the empty set
      } else if (it->second.type() != a.arg.type()) {
        out.errors.insert(kWrongType);
      } else if (a.arg.is(ValueType::kN)) {
        Result<Number> r = Number::Add(it->second.n(), a.arg.n());
        if (r.ok()) {
          it->second = AttributeValue::N(*r);
        } else {
          out.errors.insert(r.status().message());
        }
      } else {
        std::set<std::string> m = Members(it->second), add = Members(a.arg);
        m.insert(add.begin(), add.end());
        it->second = MakeSet(a.arg.type(), m);
      }
    } else {
      if (it == out.next.end()) continue;  // believed a no-op (§3.7)
      if (it->second.type() != a.arg.type()) {
        out.errors.insert(kWrongType);
        continue;
      }
      std::set<std::string> m = Members(it->second);
      for (const std::string& d : Members(a.arg)) m.erase(d);
      if (m.empty()) {
        out.next.erase(it);  // the last member removes the attribute
      } else {
        it->second = MakeSet(a.arg.type(), m);
      }
    }
  }
  if (!out.errors.empty()) return out;
  // Index keys: g S and gn N (gsi), l1 S (lsi) (§1.5). Several wrong: any of the messages.
  struct IndexKey {
    const char* name;
    ValueType type;
    const char* index;
  };
  for (const IndexKey& k :
       {IndexKey{"g", ValueType::kS, "gsi"}, IndexKey{"gn", ValueType::kN, "gsi"},
        IndexKey{"l1", ValueType::kS, "lsi"}}) {
    const ValueType type = k.type;
    auto it = out.next.find(k.name);
    if (it == out.next.end()) continue;
    if (it->second.type() != type) {
      out.errors.insert(
          IndexTypeMismatch(k.name, TypeName(type), TypeName(it->second.type()), k.index));
    } else if (type == ValueType::kS && it->second.s().empty()) {
      out.errors.insert(kEmptyIndexKey);
    }
  }
  return out;
}

// ---- the table ----

// pk S, sk N; GSI "gsi" (g S, gn N) INCLUDE [a1, doc].
using Key = std::pair<std::string, int64_t>;
using Model = std::map<Key, Item>;

Item KeyItem(const Key& k) { return {{"pk", S(k.first)}, {"sk", N(k.second)}}; }
Key KeyOf(const Item& item) {
  int64_t sk = 0;
  EXPECT_TRUE(item.at("sk").n().ToInt64(&sk));
  return {item.at("pk").s(), sk};
}

// The sources a read runs on: the table, GSI "gsi" (g S, gn N) INCLUDE [a1, doc], and LSI
// "lsi" (pk, l1 S) INCLUDE [s1, tags].
enum class Src { kTable, kGsi, kLsi };
std::optional<std::string> IndexName(Src s) {
  if (s == Src::kGsi) return "gsi";
  if (s == Src::kLsi) return "lsi";
  return std::nullopt;
}
// The partition and sort key attributes of a source.
std::pair<std::string, std::string> KeysOf(Src s) {
  if (s == Src::kGsi) return {"g", "gn"};
  if (s == Src::kLsi) return {"pk", "l1"};
  return {"pk", "sk"};
}

// The entry an item has in the source: itself for the table; projected, or none when the item
// lacks the index key (sparse), for an index.
std::optional<Item> Entry(const Item& item, Src src) {
  if (src == Src::kTable) return item;
  const bool gsi = src == Src::kGsi;
  if (!item.count(gsi ? "gn" : "l1") || (gsi && !item.count("g"))) return std::nullopt;
  Item e;
  for (const char* a : gsi ? std::vector<const char*>{"pk", "sk", "g", "gn", "a1", "doc"}
                           : std::vector<const char*>{"pk", "sk", "l1", "s1", "tags"}) {
    auto it = item.find(a);
    if (it != item.end()) e[a] = it->second;
  }
  return e;
}

// LastEvaluatedKey after `entry`: the table key, plus the index key on an index.
Item PositionKey(const Item& entry, Src src) {
  Item k{{"pk", entry.at("pk")}, {"sk", entry.at("sk")}};
  auto [partition, sort] = KeysOf(src);
  k[partition] = entry.at(partition);
  k[sort] = entry.at(sort);
  return k;
}

void SortByKey(std::vector<Item>* items) {
  std::sort(items->begin(), items->end(),
            [](const Item& a, const Item& b) { return KeyOf(a) < KeyOf(b); });
}

// What a run exercised, so that a run that silently stops exercising something fails.
struct Coverage {
  int64_t conditions_true = 0, conditions_false = 0;
  int64_t updates_ok = 0, updates_created = 0, updates_refused = 0;
  int64_t missing_operand = 0, wrong_type = 0, bad_path = 0, index_key_errors = 0;
  int64_t ambiguous_errors = 0, updated_values_compared = 0, gsi_key_changes = 0;
  int64_t pages = 0, filtered_pages = 0, multi_page_reads = 0, projected_items = 0;
  int64_t empty_projections = 0, static_errors = 0, list_element_pairs = 0, lsi_fetches = 0;
};

struct Sources {
  // Paths the condition generator may name.
  std::vector<MPath> write_conditions =
      Paths({"pk",        "sk",          "a1",          "n1",      "s1",      "tags",
             "lst",       "doc",         "status",      "dot.ted", "g",       "gn",
             "l1",        "zz",          "doc/x",       "doc/y",   "doc/m1",  "doc/m1/z",
             "doc/arr",   "doc/arr/[0]", "doc/arr/[1]", "lst/[0]", "lst/[1]", "lst/[3]",
             "lst/[0]/k", "lst/[1]/[0]", "doc/zz",      "zz/q",    "a1/q"});
  // Query filters may not name the queried key schema's attributes (§3.4), but may name the
  // table's key on an index; on an index they name projected attributes only.
  std::vector<MPath> table_query_filter = Paths(
      {"a1",      "n1",          "s1",      "tags",    "lst",     "doc",       "status", "dot.ted",
       "g",       "gn",          "l1",      "zz",      "doc/x",   "doc/y",     "doc/m1", "doc/m1/z",
       "doc/arr", "doc/arr/[0]", "lst/[0]", "lst/[1]", "lst/[3]", "lst/[0]/k", "zz/q",   "a1/q"});
  std::vector<MPath> gsi_query_filter = Paths(
      {"pk", "sk", "a1", "doc", "doc/x", "doc/y", "doc/m1", "doc/m1/z", "doc/arr", "doc/arr/[1]"});
  std::vector<MPath> gsi_scan_filter = Paths(
      {"pk", "sk", "g", "gn", "a1", "doc", "doc/x", "doc/y", "doc/m1/z", "doc/arr", "doc/arr/[0]"});
  std::vector<MPath> lsi_query_filter = Paths({"sk", "s1", "tags"});
  std::vector<MPath> lsi_scan_filter = Paths({"pk", "sk", "l1", "s1", "tags"});
  // ProjectionExpressions. On the LSI non-projected attributes are fetched from the table
  // (reference §4.4); on the GSI that is not pinned down, so only projected ones are named.
  std::vector<MPath> table_projection =
      Paths({"pk",          "sk",      "a1",      "n1",        "s1",        "tags",
             "lst",         "doc",     "status",  "dot.ted",   "g",         "gn",
             "l1",          "zz",      "doc/x",   "doc/m1/z",  "doc/m1",    "doc/arr/[0]",
             "doc/arr/[1]", "lst/[0]", "lst/[2]", "lst/[1]/k", "lst/[0]/k", "doc/zz"});
  std::vector<MPath> gsi_projection = Paths(
      {"pk", "sk", "g", "gn", "a1", "doc", "doc/x", "doc/m1/z", "doc/m1", "doc/arr/[1]", "doc/y"});
  // UpdateExpression targets and operands.
  std::vector<MPath> set_targets = Paths(
      {"a1",        "n1",          "s1",          "tags",     "lst",     "doc",     "status",
       "dot.ted",   "g",           "gn",          "l1",       "zz",      "doc/x",   "doc/y",
       "doc/m1/z",  "doc/arr/[0]", "doc/arr/[5]", "lst/[0]",  "lst/[1]", "lst/[2]", "lst/[7]",
       "lst/[0]/k", "lst/[1]/[0]", "lst/[1]/[3]", "doc/zz/q", "zz/q",    "a1/q",    "n1/[0]"});
  std::vector<MPath> reads =
      Paths({"a1", "n1", "s1", "tags", "lst", "doc", "doc/x", "doc/m1", "lst/[0]", "lst/[2]",
             "status", "dot.ted", "zz", "gn", "l1", "doc/arr/[1]", "lst/[1]/[0]"});
  std::vector<MPath> numbers = Paths({"n1", "gn", "doc/x", "a1", "lst/[0]", "zz", "status"});
  std::vector<MPath> lists = Paths({"lst", "doc/arr", "a1", "zz"});
  std::vector<std::string> top = {"a1",     "n1",      "s1", "tags", "lst", "doc",
                                  "status", "dot.ted", "g",  "gn",   "l1",  "zz"};
};

const std::vector<std::string> kStrings = {"", "a", "ab", "abc", "b", "x"};
const std::vector<std::string> kNumbers = {"-1", "0", "1", "2", "2.5", "10"};
const std::vector<std::string> kSortStrings = {"a", "ab", "b", "bb", "c"};  // l1 (LSI sort key)
const std::vector<std::string> kBinaries = {"", "\x01", "\x01\x02", "\xff"};
// Operands whose sums leave the range or need more than 38 digits (reference §1.2). The model
// takes such outcomes from core/number.h (Number::Add/Subtract); NumberLimits below pins the
// messages to the reference.
const std::vector<std::string> kBigNumbers = {"99999999999999999999999999999999999999",
                                              "9.9999999999999999999999999999999999999E+125",
                                              "1e50", "-9e125", "1e-130"};

class ExprRunner {
 public:
  explicit ExprRunner(uint64_t seed) : rng_(seed) {}

  void Run(int ops) {
    CreateTableRequest c;
    c.table_name = kTable;
    c.attribute_definitions = {{"pk", "S"}, {"sk", "N"}, {"g", "S"}, {"gn", "N"}, {"l1", "S"}};
    c.key_schema = {{"pk", "HASH"}, {"sk", "RANGE"}};
    c.global_secondary_indexes = {
        {kGsi, {{"g", "HASH"}, {"gn", "RANGE"}}, "INCLUDE", std::vector<std::string>{"a1", "doc"}}};
    c.local_secondary_indexes = {{"lsi",
                                  {{"pk", "HASH"}, {"l1", "RANGE"}},
                                  "INCLUDE",
                                  std::vector<std::string>{"s1", "tags"}}};
    auto created = db_->CreateTable(c);
    ASSERT_TRUE(created.ok()) << created.status().ToString();

    for (op_ = 0; op_ < ops; ++op_) {
      SCOPED_TRACE("operation #" + std::to_string(op_));
      int dice = Uniform(100);
      if (dice < 22) {
        Put();
      } else if (dice < 32) {
        Delete();
      } else if (dice < 67) {
        Update();
      } else if (dice < 72) {
        Get();
      } else if (dice < 88) {
        Query();
      } else {
        Scan();
      }
      if (::testing::Test::HasFailure()) return;
      if (op_ % 200 == 199) {
        CheckEverything();
        if (::testing::Test::HasFailure()) return;
      }
    }
    CheckEverything();
    const Coverage& v = cov_;
    for (auto [name, value] :
         {std::pair<const char*, int64_t>{"conditions_true", v.conditions_true},
          {"conditions_false", v.conditions_false},
          {"updates_ok", v.updates_ok},
          {"updates_created", v.updates_created},
          {"updates_refused", v.updates_refused},
          {"missing_operand", v.missing_operand},
          {"wrong_type", v.wrong_type},
          {"bad_path", v.bad_path},
          {"index_key_errors", v.index_key_errors},
          {"updated_values_compared", v.updated_values_compared},
          {"gsi_key_changes", v.gsi_key_changes},
          {"pages", v.pages},
          {"filtered_pages", v.filtered_pages},
          {"multi_page_reads", v.multi_page_reads},
          {"projected_items", v.projected_items},
          {"empty_projections", v.empty_projections},
          {"static_errors", v.static_errors},
          {"list_element_pairs", v.list_element_pairs},
          {"lsi_fetches", v.lsi_fetches}}) {
      ::testing::Test::RecordProperty(name, std::to_string(value));
      EXPECT_GT(value, ops / 500) << "the run hardly exercised " << name;
    }
  }

 private:
  int Uniform(int n) { return static_cast<int>(rng_() % static_cast<uint64_t>(n)); }
  bool OneIn(int n) { return Uniform(n) == 0; }
  template <typename T>
  const T& Pick(const std::vector<T>& v) {
    return v[Uniform(static_cast<int>(v.size()))];
  }

  // ---- values ----

  AttributeValue RandomOfType(ValueType t) {
    if (t == ValueType::kS) return S(Pick(kStrings));
    if (t == ValueType::kN) return N(Pick(kNumbers));
    return B(Pick(kBinaries));
  }
  AttributeValue RandomOrdered() {
    static const ValueType kTypes[] = {ValueType::kS, ValueType::kN, ValueType::kB};
    return RandomOfType(kTypes[Uniform(3)]);
  }
  AttributeValue RandomScalar() {
    switch (Uniform(6)) {
      case 0:
      case 1:
        return S(Pick(kStrings));
      case 2:
      case 3:
        return N(Pick(kNumbers));
      case 4:
        return OneIn(2) ? B(Pick(kBinaries)) : AttributeValue::Null();
      default:
        return AttributeValue::Bool(OneIn(2));
    }
  }
  AttributeValue RandomSet() {
    static const std::vector<std::string> ss = {"a", "ab", "b", "x"};
    static const std::vector<std::string> ns = {"0", "1", "2", "10"};
    static const std::vector<std::string> bs = {"\x01", "\x01\x02", "\xff"};
    int t = Uniform(3);
    const std::vector<std::string>& pool = t == 0 ? ss : t == 1 ? ns : bs;
    std::set<std::string> m;
    int n = 1 + Uniform(3);
    while (static_cast<int>(m.size()) < n) m.insert(Pick(pool));
    return MakeSet(t == 0 ? ValueType::kSS : t == 1 ? ValueType::kNS : ValueType::kBS, m);
  }
  AttributeValue RandomList() {
    List l;
    int n = Uniform(5);
    for (int i = 0; i < n; ++i) {
      int d = Uniform(10);
      if (d < 7) {
        l.push_back(RandomScalar());
      } else if (d < 9) {
        l.push_back(AttributeValue::M({{"k", RandomScalar()}}));
      } else {
        l.push_back(AttributeValue::L({RandomScalar()}));
      }
    }
    return AttributeValue::L(std::move(l));
  }
  AttributeValue RandomDoc() {
    Map m;
    if (Uniform(10) < 7) m["x"] = OneIn(3) ? RandomScalar() : N(Pick(kNumbers));
    if (OneIn(2)) m["y"] = RandomScalar();
    if (OneIn(2)) {
      Map inner;
      if (Uniform(10) < 7) inner["z"] = RandomScalar();
      m["m1"] = AttributeValue::M(std::move(inner));
    }
    if (OneIn(2)) {
      List arr;
      for (int i = Uniform(4); i > 0; --i) arr.push_back(RandomScalar());
      m["arr"] = AttributeValue::L(std::move(arr));
    }
    return AttributeValue::M(std::move(m));
  }
  AttributeValue RandomAny() {
    int d = Uniform(20);
    if (d < 11) return RandomScalar();
    if (d < 13) return RandomList();
    if (d < 15) return OneIn(2) ? RandomDoc() : AttributeValue::M({{"k", RandomScalar()}});
    return RandomSet();
  }

  Key RandomKey() {
    if (!model_.empty() && Uniform(3) != 0) {
      auto it = model_.begin();
      std::advance(it, Uniform(static_cast<int>(model_.size())));
      return it->first;
    }
    return {"p" + std::to_string(Uniform(4)), Uniform(10)};
  }

  Item RandomItem(const Key& key) {
    Item item = KeyItem(key);
    if (Uniform(10) < 7) item["a1"] = RandomScalar();
    int d = Uniform(10);
    if (d < 6) item["n1"] = N(Pick(kNumbers));
    if (d == 6) item["n1"] = RandomScalar();
    if (Uniform(10) < 7) item["s1"] = OneIn(6) ? RandomScalar() : S(Pick(kStrings));
    d = Uniform(10);
    if (d < 6) item["tags"] = RandomSet();
    if (d == 6) item["tags"] = S(Pick(kStrings));
    d = Uniform(20);
    if (d < 13) item["lst"] = RandomList();
    if (d == 13) item["lst"] = S("notalist");
    d = Uniform(20);
    if (d < 14) item["doc"] = RandomDoc();
    if (d == 14) item["doc"] = S("notamap");
    if (Uniform(10) < 3) item["status"] = RandomScalar();
    if (Uniform(10) < 2) item["dot.ted"] = RandomScalar();
    if (Uniform(10) < 7) item["g"] = S("g" + std::to_string(Uniform(3)));
    if (Uniform(10) < 7) item["gn"] = N(Uniform(4));
    if (Uniform(10) < 7) item["l1"] = S(Pick(kSortStrings));
    return item;
  }

  // ---- conditions ----

  COperand PathOp(const MPath& p) { return {COperand::kPath, p, {}}; }
  COperand ValueOp(AttributeValue v) { return {COperand::kValue, {}, std::move(v)}; }
  COperand SizeOp(const MPath& p) { return {COperand::kSize, p, {}}; }

  Cond RandomCond(const std::vector<MPath>& pool, int depth) {
    int d = Uniform(depth > 0 ? 15 : 11);
    Cond c;
    if (d >= 11) {
      int kind = Uniform(3);
      if (kind == 2) {
        c.kind = Cond::kNot;
        c.children.push_back(RandomCond(pool, depth - 1));
      } else {
        c.kind = kind == 0 ? Cond::kAnd : Cond::kOr;
        for (int n = 2 + Uniform(2); n > 0; --n) c.children.push_back(RandomCond(pool, depth - 1));
      }
      return c;
    }
    const MPath& p = Pick(pool);
    switch (d) {
      case 0:
        c.kind = Cond::kExists;
        c.operands = {PathOp(p)};
        return c;
      case 1:
        c.kind = Cond::kNotExists;
        c.operands = {PathOp(p)};
        return c;
      case 2:
      case 3:
      case 4: {
        static const std::vector<std::string> kOps = {"=", "<>", "<", "<=", ">", ">="};
        c.kind = Cond::kCompare;
        c.op = Pick(kOps);
        bool ordering = c.op != "=" && c.op != "<>";
        auto value = [&] { return ordering ? RandomOrdered() : RandomAny(); };
        int form = Uniform(10);
        if (form < 6) {
          c.operands = {PathOp(p), ValueOp(value())};
        } else if (form < 7) {
          c.operands = {ValueOp(value()), PathOp(p)};
        } else if (form < 8) {
          const MPath& q = Pick(pool);
          c.operands = {PathOp(p), q == p ? ValueOp(value()) : PathOp(q)};
        } else {
          c.operands = {SizeOp(p), ValueOp(OneIn(5) ? RandomOrdered() : N(Uniform(5)))};
        }
        return c;
      }
      case 5: {
        c.kind = Cond::kBetween;
        bool size = OneIn(4);
        static const ValueType kTypes[] = {ValueType::kS, ValueType::kN, ValueType::kB};
        ValueType t = size ? ValueType::kN : kTypes[Uniform(3)];
        AttributeValue lo = size ? N(Uniform(4)) : RandomOfType(t);
        AttributeValue hi = size ? N(Uniform(5)) : RandomOfType(t);
        if (lo.CompareKey(hi) > 0) std::swap(lo, hi);
        c.operands = {size ? SizeOp(p) : PathOp(p), ValueOp(lo), ValueOp(hi)};
        return c;
      }
      case 6: {
        c.kind = Cond::kIn;
        bool size = OneIn(4);
        c.operands = {size ? SizeOp(p) : PathOp(p)};
        for (int n = 1 + Uniform(4); n > 0; --n) {
          c.operands.push_back(ValueOp(size && !OneIn(4) ? N(Uniform(5)) : RandomAny()));
        }
        return c;
      }
      case 7:
        c.kind = Cond::kBeginsWith;
        c.operands = {PathOp(p), ValueOp(OneIn(3) ? B(Pick(kBinaries)) : S(Pick(kStrings)))};
        return c;
      case 8:
        c.kind = Cond::kContains;
        c.operands = {PathOp(p), ValueOp(OneIn(3) ? RandomAny() : RandomOrdered())};
        return c;
      case 9: {
        static const std::vector<std::string> kTypes = {"S",  "N",  "B",  "BOOL", "NULL",
                                                        "SS", "NS", "BS", "L",    "M"};
        c.kind = Cond::kType;
        c.operands = {PathOp(p), ValueOp(S(Pick(kTypes)))};
        return c;
      }
      default:
        c.kind = Cond::kCompare;
        c.op = OneIn(2) ? "=" : "<>";
        c.operands = {PathOp(p), ValueOp(RandomAny())};
        return c;
    }
  }

  // A condition built to be true or false about as often on the item `of` (a value the item
  // holds is often the operand).
  Cond WriteCondition(const std::optional<Item>& of) {
    Cond c = RandomCond(sources_.write_conditions, 2);
    if (of && OneIn(2)) {
      // An equality with a value the item holds.
      std::vector<MPath> present;
      for (const MPath& p : sources_.write_conditions) {
        if (Resolve(*of, p) != nullptr) present.push_back(p);
      }
      if (!present.empty()) {
        const MPath& p = Pick(present);
        Cond eq;
        eq.kind = Cond::kCompare;
        eq.op = OneIn(4) ? "<>" : "=";
        eq.operands = {PathOp(p), ValueOp(*Resolve(*of, p))};
        if (OneIn(2)) return eq;
        Cond both;
        both.kind = OneIn(2) ? Cond::kAnd : Cond::kOr;
        both.children = {eq, c};
        return both;
      }
    }
    return c;
  }

  std::optional<Item> Current(const Key& k) {
    auto it = model_.find(k);
    if (it == model_.end()) return std::nullopt;
    return it->second;
  }

  std::optional<Item> Fetch(const Key& k) {
    GetItemRequest g;
    g.table_name = kTable;
    g.key = KeyItem(k);
    g.consistent_read = true;
    auto r = db_->GetItem(g);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? r->item : std::nullopt;
  }

  // A refused write must change nothing.
  void ExpectUnchanged(const Key& k) {
    EXPECT_TRUE(SameItem(Current(k), Fetch(k))) << "a refused write changed the item";
  }

  // Checks a ConditionalCheckFailedException and the item it carries.
  void ExpectConditionFailed(const Status& s, ReturnValues on_failure,
                             const std::optional<Item>& old) {
    EXPECT_EQ(s.code(), ErrorCode::kConditionalCheckFailed) << s.ToString();
    EXPECT_EQ(s.message(), kConditionFailed);
    std::optional<Item> carried;
    if (s.item()) carried = *s.item();
    std::optional<Item> want = on_failure == ReturnValues::kAllOld ? old : std::nullopt;
    EXPECT_TRUE(SameItem(want, carried)) << "ReturnValuesOnConditionCheckFailure";
  }

  // ---- static errors (reference §3.4, §3.7): one per request, so the message is exact ----

  // A condition fragment with exactly one static error, and the message after the
  // "Invalid <Kind>Expression: " prefix.
  std::pair<std::string, std::string> InvalidCondition(ExprText* t) {
    static const std::vector<std::pair<std::string, std::string>> kPaths = {
        {"a1", "[a1]"}, {"n1", "[n1]"}, {"doc/x", "[doc, x]"}, {"lst/[1]", "[lst, [1]]"}};
    const auto& [spec, rendered] = Pick(kPaths);
    // Placeholders are registered only when used (an unused one is an error of its own).
    auto path = [&] { return t->Path(P(spec)); };
    const std::string wrong =
        "Incorrect operand type for operator or function; operator or function: ";
    switch (Uniform(12)) {
      case 9:
        return {"status = " + t->Value(RandomScalar()),
                "Attribute name is a reserved keyword; reserved keyword: status"};
      case 10:
        return {"attribute_exists(#undefined)",
                "An expression attribute name used in the document path is not defined; "
                "attribute name: #undefined"};
      case 11:
        return {path() + " = :undefined",
                "An expression attribute value used in expression is not defined; attribute "
                "value: :undefined"};
      case 0: {
        static const std::vector<std::string> kOps = {"<", "<=", ">", ">="};
        const std::string& op = Pick(kOps);
        static const std::vector<AttributeValue> kUnordered = {
            AttributeValue::Bool(true), AttributeValue::Null(), AttributeValue::L({}),
            AttributeValue::M({}), AttributeValue::SS({"a"})};
        const AttributeValue& v = Pick(kUnordered);
        std::string text = OneIn(2) ? path() + " " + op + " " + t->Value(v)
                                    : t->Value(v) + " " + op + " " + path();
        return {text, wrong + op + ", operand type: " + std::string(TypeName(v.type()))};
      }
      case 1:
        return {"begins_with(" + path() + ", " + t->Value(N(1)) + ")",
                wrong + "begins_with, operand type: N"};
      case 2:
        return {path() + " " + t->Kw("BETWEEN") + " " + t->Value(N(2)) + " AND " + t->Value(N(1)),
                "The BETWEEN operator requires upper bound to be greater than or equal to lower "
                "bound; lower bound operand: AttributeValue: {N:2}, upper bound operand: "
                "AttributeValue: {N:1}"};
      case 3:
        return {path() + " BETWEEN " + t->Value(N(1)) + " AND " + t->Value(S("dog")),
                "The BETWEEN operator requires same data type for lower and upper bounds; lower "
                "bound operand: AttributeValue: {N:1}, upper bound operand: AttributeValue: "
                "{S:dog}"};
      case 4:
        return {"contains(" + path() + ", " + t->Path(P(spec)) + ")",
                "The first operand must be distinct from the remaining operands for this operator "
                "or function; operator: contains, first operand: " +
                    rendered};
      case 5:
        return {"((" + path() + " = " + t->Value(RandomScalar()) + "))",
                "The expression has redundant parentheses;"};
      case 6:
        return {"BEGINS_WITH(" + path() + ", " + t->Value(S("a")) + ")",
                "Invalid function name; function: BEGINS_WITH"};
      case 7:
        return {"size(" + path() + ")",
                "The function is not allowed to be used this way in an expression; function: size"};
      default:
        return {"size(" + t->Value(N(3)) + ") > " + t->Value(N(1)),
                wrong + "size, operand type: N"};
    }
  }

  // `valid` (may be absent) combined with `fragment`.
  std::string Combine(const std::optional<std::string>& valid, const std::string& fragment,
                      ExprText* t) {
    if (!valid) return fragment;
    return OneIn(2) ? *valid + " " + t->Kw("AND") + " " + fragment
                    : fragment + " " + t->Kw("OR") + " " + *valid;
  }

  // Sometimes makes the request's condition invalid; returns the message it must fail with.
  std::optional<std::string> MaybeInvalidCondition(std::optional<std::string>* condition,
                                                   ExprText* t) {
    if (!OneIn(25)) return std::nullopt;
    auto [fragment, message] = InvalidCondition(t);
    *condition = Combine(*condition, fragment, t);
    return "Invalid ConditionExpression: " + message;
  }

  // An update action with exactly one static error, on attributes nothing else touches.
  std::pair<UAction, std::string> InvalidAction(ExprText* t) {
    UAction a;
    a.kind = UAction::kSet;
    auto q9 = [&] { return t->Path(P("q9")); };
    const std::string prefix = "Invalid UpdateExpression: ";
    const std::string wrong = prefix + "Incorrect operand type for operator or function; ";
    switch (Uniform(8)) {
      case 0:
        a.raw = q9() + " = " + t->Path(P("q8")) + " + " + t->Value(S("s"));
        return {a, wrong + "operator or function: +, operand type: S"};
      case 1:
        a.raw = q9() + " = list_append(" + t->Path(P("q8")) + ", " + t->Value(S("s")) + ")";
        return {a, wrong + "operator or function: list_append, operand type: S"};
      case 2: {
        const std::string key = OneIn(2) ? "pk" : "sk";
        a.raw = t->Path(P(key)) + " = " + t->Value(S("k"));
        return {a, "One or more parameter values were invalid: Cannot update attribute " + key +
                       ". This attribute is part of the key"};
      }
      case 3:
        a.kind = UAction::kAdd;
        a.raw = q9() + " " + t->Value(S("s"));
        return {a, wrong + "operator: ADD, operand type: STRING"};
      case 4:
        a.kind = UAction::kDelete;
        a.raw = q9() + " " + t->Value(N(1));
        return {a, wrong + "operator: DELETE, operand type: NUMBER"};
      case 5:
        a.raw = q9() + " = if_not_exists(" + t->Value(N(1)) + ", " + t->Value(N(2)) + ")";
        return {a, prefix +
                       "Operator or function requires a document path; operator or function: "
                       "if_not_exists"};
      case 6:
        a.raw = q9() + " = " + t->Value(N(1)) + ", " + t->Path(P("q9/x")) + " = " + t->Value(N(2));
        return {a, prefix +
                       "Two document paths overlap with each other; must remove or rewrite one of "
                       "these paths; path one: [q9], path two: [q9, x]"};
      default:
        a.kind = UAction::kRemove;
        a.raw = q9() + ", " + t->Path(P("q9/[0]"));
        return {a, prefix +
                       "Two document paths overlap with each other; must remove or rewrite one of "
                       "these paths; path one: [q9], path two: [q9, [0]]"};
    }
  }

  // Checks a request refused by a static error: exact message, nothing changed.
  void ExpectStaticError(const Status& s, const std::string& message, const Key* key) {
    ++cov_.static_errors;
    EXPECT_EQ(s.code(), ErrorCode::kValidation) << s.ToString();
    EXPECT_EQ(s.message(), message);
    if (key) ExpectUnchanged(*key);
  }

  // ---- operations ----

  void Put() {
    PutItemRequest r;
    r.table_name = kTable;
    Key key = RandomKey();
    r.item = RandomItem(key);
    std::optional<Item> old = Current(key);
    ExprText t(&rng_);
    std::optional<Cond> cond;
    if (Uniform(4) != 0) {
      cond = WriteCondition(old);
      r.expressions.condition = Render(*cond, &t, &rng_);
    }
    std::optional<std::string> invalid = MaybeInvalidCondition(&r.expressions.condition, &t);
    t.Fill(&r.expressions);
    if (OneIn(2)) r.return_values = ReturnValues::kAllOld;
    if (OneIn(2)) r.return_values_on_condition_check_failure = ReturnValues::kAllOld;
    SCOPED_TRACE("PutItem " + Dump(r.item) + Describe(r.expressions) +
                 "\n  old item: " + Dump(old));
    bool holds = !cond || Holds(*cond, old ? *old : Item{});
    if (cond) (holds ? cov_.conditions_true : cov_.conditions_false)++;
    auto resp = db_->PutItem(r);
    if (invalid) {
      ASSERT_FALSE(resp.ok()) << "expected " << *invalid;
      ExpectStaticError(resp.status(), *invalid, &key);
      return;
    }
    if (!holds) {
      ASSERT_FALSE(resp.ok()) << "the condition should have failed";
      ExpectConditionFailed(resp.status(), r.return_values_on_condition_check_failure, old);
      ExpectUnchanged(key);
      return;
    }
    ASSERT_TRUE(resp.ok()) << resp.status().ToString();
    std::optional<Item> want = r.return_values == ReturnValues::kAllOld ? old : std::nullopt;
    EXPECT_TRUE(SameItem(want, resp->attributes)) << "ReturnValues";
    model_[key] = r.item;
  }

  void Delete() {
    DeleteItemRequest r;
    r.table_name = kTable;
    Key key = RandomKey();
    r.key = KeyItem(key);
    std::optional<Item> old = Current(key);
    ExprText t(&rng_);
    std::optional<Cond> cond;
    if (Uniform(5) != 0) {
      cond = WriteCondition(old);
      r.expressions.condition = Render(*cond, &t, &rng_);
    }
    std::optional<std::string> invalid = MaybeInvalidCondition(&r.expressions.condition, &t);
    t.Fill(&r.expressions);
    if (OneIn(2)) r.return_values = ReturnValues::kAllOld;
    if (OneIn(2)) r.return_values_on_condition_check_failure = ReturnValues::kAllOld;
    SCOPED_TRACE("DeleteItem " + Dump(r.key) + Describe(r.expressions) +
                 "\n  old item: " + Dump(old));
    bool holds = !cond || Holds(*cond, old ? *old : Item{});
    if (cond) (holds ? cov_.conditions_true : cov_.conditions_false)++;
    auto resp = db_->DeleteItem(r);
    if (invalid) {
      ASSERT_FALSE(resp.ok()) << "expected " << *invalid;
      ExpectStaticError(resp.status(), *invalid, &key);
      return;
    }
    if (!holds) {
      ASSERT_FALSE(resp.ok()) << "the condition should have failed";
      ExpectConditionFailed(resp.status(), r.return_values_on_condition_check_failure, old);
      ExpectUnchanged(key);
      return;
    }
    ASSERT_TRUE(resp.ok()) << resp.status().ToString();
    std::optional<Item> want = r.return_values == ReturnValues::kAllOld ? old : std::nullopt;
    EXPECT_TRUE(SameItem(want, resp->attributes)) << "ReturnValues";
    model_.erase(key);
  }

  // Mostly a path of `pool` whose value on `item` satisfies `good` (so that most updates
  // succeed), sometimes any.
  template <typename Pred>
  MPath PickBiased(const std::vector<MPath>& pool, const Item& item, const Pred& good) {
    if (Uniform(4) != 0) {
      std::vector<MPath> fit;
      for (const MPath& p : pool) {
        if (good(Resolve(item, p))) fit.push_back(p);
      }
      if (!fit.empty()) return Pick(fit);
    }
    return Pick(pool);
  }
  static bool IsNumber(const AttributeValue* v) { return v && v->is(ValueType::kN); }
  static bool IsList(const AttributeValue* v) { return v && v->is(ValueType::kL); }

  // One random update action on `item` (the current item, or the key).
  UAction RandomAction(const Item& item) {
    UAction a;
    int d = Uniform(20);
    if (d < 11) {
      a.kind = UAction::kSet;
      // Mostly targets whose parent exists with the right container type.
      a.target = Pick(sources_.set_targets);
      if (Uniform(4) != 0) {
        std::vector<MPath> fit;
        for (const MPath& p : sources_.set_targets) {
          if (p.size() == 1) {
            fit.push_back(p);
            continue;
          }
          const AttributeValue* parent = Resolve(item, MPath(p.begin(), p.end() - 1));
          if (parent && parent->is(p.back().is_index ? ValueType::kL : ValueType::kM)) {
            fit.push_back(p);
          }
        }
        a.target = Pick(fit);
      }
      const std::string& top = a.target[0].name;
      int form = Uniform(20);
      if (form < 7) {
        a.a.kind = UOperand::kValue;
        if (top == "g" && a.target.size() == 1) {
          int v = Uniform(10);
          a.a.value = v < 8 ? S("g" + std::to_string(Uniform(3))) : v < 9 ? S("") : RandomAny();
        } else if (top == "l1" && a.target.size() == 1) {
          int v = Uniform(10);
          a.a.value = v < 8 ? S(Pick(kSortStrings)) : v < 9 ? S("") : RandomAny();
        } else if (top == "gn" && a.target.size() == 1) {
          a.a.value = Uniform(10) < 8 ? N(Uniform(4)) : RandomAny();
        } else if (top == "lst" && a.target.size() == 1 && OneIn(2)) {
          a.a.value = RandomList();
        } else if (top == "doc" && a.target.size() == 1 && OneIn(2)) {
          a.a.value = RandomDoc();
        } else {
          a.a.value = RandomAny();
        }
      } else if (form < 11) {
        // Arithmetic: a path (often the target itself), a number, or if_not_exists.
        auto number_operand = [&](bool allow_path) {
          UOperand o;
          int k = Uniform(10);
          MPath p = OneIn(2) ? a.target : PickBiased(sources_.numbers, item, IsNumber);
          if (allow_path && k < 5) {
            o.kind = UOperand::kPath;
            o.path = p;
          } else if (allow_path && k < 7) {
            o.kind = UOperand::kIfNotExists;
            o.path = p;
            o.args = {UOperand{UOperand::kValue, {}, N(Pick(kNumbers)), {}}};
          } else {
            o.kind = UOperand::kValue;
            o.value = N(OneIn(12) ? Pick(kBigNumbers) : Pick(kNumbers));
          }
          return o;
        };
        a.op = OneIn(2) ? '+' : '-';
        bool path_first = Uniform(4) != 0;
        a.a = number_operand(path_first);
        a.b = number_operand(!path_first || OneIn(4));
      } else if (form < 14) {
        a.a.kind = UOperand::kIfNotExists;
        a.a.path = OneIn(3) ? Pick(sources_.reads) : a.target;  // missing is fine here
        a.a.args = {UOperand{UOperand::kValue, {}, RandomAny(), {}}};
      } else if (form < 17) {
        UOperand path;
        MPath p = OneIn(3) ? a.target : PickBiased(sources_.lists, item, IsList);
        if (OneIn(3)) {
          path.kind = UOperand::kIfNotExists;
          path.path = p;
          path.args = {UOperand{UOperand::kValue, {}, AttributeValue::L({}), {}}};
        } else {
          path.kind = UOperand::kPath;
          path.path = p;
        }
        UOperand lit{UOperand::kValue, {}, RandomList(), {}};
        a.a.kind = UOperand::kListAppend;
        a.a.args = OneIn(2) ? std::vector<UOperand>{path, lit} : std::vector<UOperand>{lit, path};
      } else {
        a.a.kind = UOperand::kPath;
        a.a.path = PickBiased(sources_.reads, item, [](const AttributeValue* v) { return v; });
      }
      return a;
    }
    if (d < 15) {
      a.kind = UAction::kRemove;
      if (OneIn(2)) {
        a.target = {Elem{Pick(sources_.top)}};
        return a;
      }
      // Nested, only where the reference pins the behaviour down.
      std::vector<MPath> safe;
      const AttributeValue* doc = Resolve(item, P("doc"));
      if (doc == nullptr || doc->is(ValueType::kM)) {
        for (const char* s : {"doc/x", "doc/y", "doc/zz"}) safe.push_back(P(s));
      }
      if (const AttributeValue* m1 = Resolve(item, P("doc/m1")); m1 && m1->is(ValueType::kM)) {
        safe.push_back(P("doc/m1/z"));
      }
      if (const AttributeValue* arr = Resolve(item, P("doc/arr")); arr && arr->is(ValueType::kL)) {
        for (const char* s : {"doc/arr/[0]", "doc/arr/[1]", "doc/arr/[3]"}) safe.push_back(P(s));
      }
      if (const AttributeValue* lst = Resolve(item, P("lst")); lst && lst->is(ValueType::kL)) {
        for (const char* s : {"lst/[0]", "lst/[1]", "lst/[2]", "lst/[4]"}) safe.push_back(P(s));
      }
      if (const AttributeValue* l1 = Resolve(item, P("lst/[1]")); l1 && l1->is(ValueType::kL)) {
        for (const char* s : {"lst/[1]/[0]", "lst/[1]/[1]"}) safe.push_back(P(s));
      }
      if (Resolve(item, P("zz")) == nullptr) safe.push_back(P("zz/q"));
      a.target = safe.empty() ? MPath{Elem{"zz"}} : Pick(safe);
      return a;
    }
    if (d < 18) {
      static const std::vector<std::string> kAddTargets = {
          "n1", "gn", "zz", "tags", "tags", "s1", "a1", "g", "lst", "status", "l1"};
      a.kind = UAction::kAdd;
      a.target = {Elem{Pick(kAddTargets)}};
      a.arg = OneIn(2) ? N(OneIn(12) ? Pick(kBigNumbers) : Pick(kNumbers)) : RandomSet();
      // Mostly a value of the type the attribute holds.
      const AttributeValue* cur = Resolve(item, a.target);
      if (cur && Uniform(4) != 0) {
        if (cur->is(ValueType::kN)) a.arg = N(Pick(kNumbers));
        for (int i = 0; i < 10 && cur->IsSet() && a.arg.type() != cur->type(); ++i) {
          a.arg = RandomSet();
        }
      }
      return a;
    }
    static const std::vector<std::string> kDeleteTargets = {"tags", "tags", "tags", "a1",
                                                            "zz",   "s1",   "lst"};
    a.kind = UAction::kDelete;
    a.target = {Elem{Pick(kDeleteTargets)}};
    a.arg = RandomSet();
    // Mostly members of the set the item holds, so that members go and sets empty.
    const AttributeValue* cur = Resolve(item, a.target);
    if (cur && cur->IsSet() && Uniform(3) != 0) {
      std::set<std::string> m = Members(*cur), pick;
      for (const std::string& s : m) {
        if (OneIn(2)) pick.insert(s);
      }
      if (pick.empty() || OneIn(3)) pick = m;
      a.arg = MakeSet(cur->type(), pick);
    }
    return a;
  }

  // Whether `a` can join `actions` without making the outcome depend on the engine's order.
  static bool Compatible(const std::vector<UAction>& actions, const UAction& a) {
    std::vector<MPath> reads;
    if (a.kind == UAction::kSet) {
      ReadPaths(a.a, &reads);
      if (a.op) ReadPaths(a.b, &reads);
    }
    for (const UAction& b : actions) {
      if (Overlap(a.target, b.target) || Conflict(a.target, b.target)) return false;
      const std::string& top = a.target[0].name;
      if (top == b.target[0].name && a.kind != b.kind) return false;
      for (const MPath& r : reads) {
        if (r[0].name == b.target[0].name) return false;
      }
      std::vector<MPath> other;
      if (b.kind == UAction::kSet) {
        ReadPaths(b.a, &other);
        if (b.op) ReadPaths(b.b, &other);
      }
      for (const MPath& r : other) {
        if (r[0].name == top) return false;
      }
    }
    return true;
  }

  void Update() {
    Key key = RandomKey();
    std::optional<Item> old = Current(key);
    const Item base = old ? *old : KeyItem(key);
    std::vector<UAction> actions;
    for (int n = 1 + Uniform(4), tries = 0; static_cast<int>(actions.size()) < n && tries < 20;
         ++tries) {
      UAction a = RandomAction(base);
      if (!Compatible(actions, a)) continue;
      actions.push_back(a);
      // Often a second element of the same list: several REMOVEs name original positions,
      // several SETs apply in element-number order (§3.7).
      if (a.target.back().is_index && a.kind != UAction::kDelete && OneIn(2)) {
        a.target.back().index = Uniform(6);
        if (a.kind == UAction::kSet)
          a = UAction{
              UAction::kSet, a.target, {UOperand::kValue, {}, RandomScalar(), {}}, 0, {}, {}, ""};
        if (Compatible(actions, a)) actions.push_back(std::move(a));
      }
    }
    UpdateItemRequest r;
    r.table_name = kTable;
    r.key = KeyItem(key);
    ExprText t(&rng_);
    std::optional<Cond> cond;
    bool cond_first = OneIn(2);
    if (Uniform(10) < 3 && cond_first) {
      cond = WriteCondition(old);
      r.expressions.condition = Render(*cond, &t, &rng_);
    }
    std::optional<std::string> invalid;
    std::vector<UAction> with_invalid = actions;
    if (OneIn(25)) {
      auto [action, message] = InvalidAction(&t);
      with_invalid.insert(with_invalid.begin() + Uniform(static_cast<int>(actions.size()) + 1),
                          action);
      invalid = message;
    }
    if (OneIn(40) && !invalid) {
      actions.clear();  // no UpdateExpression: a key-only item when missing (core/operations.h)
    } else {
      r.expressions.update = RenderUpdate(with_invalid, &t, &rng_);
    }
    if (Uniform(10) < 3 && !cond_first) {
      cond = WriteCondition(old);
      r.expressions.condition = Render(*cond, &t, &rng_);
    }
    if (!invalid) invalid = MaybeInvalidCondition(&r.expressions.condition, &t);
    t.Fill(&r.expressions);
    static const ReturnValues kReturn[] = {ReturnValues::kNone, ReturnValues::kAllOld,
                                           ReturnValues::kUpdatedOld, ReturnValues::kAllNew,
                                           ReturnValues::kUpdatedNew};
    r.return_values = kReturn[Uniform(5)];
    if (OneIn(2)) r.return_values_on_condition_check_failure = ReturnValues::kAllOld;
    SCOPED_TRACE("UpdateItem " + Dump(r.key) + Describe(r.expressions) +
                 "\n  old item: " + Dump(old) + "\n  ReturnValues " +
                 std::to_string(static_cast<int>(r.return_values)));
    bool holds = !cond || Holds(*cond, old ? *old : Item{});
    if (cond) (holds ? cov_.conditions_true : cov_.conditions_false)++;
    auto resp = db_->UpdateItem(r);
    if (invalid) {
      ASSERT_FALSE(resp.ok()) << "expected " << *invalid;
      ExpectStaticError(resp.status(), *invalid, &key);
      return;
    }
    if (!holds) {
      ASSERT_FALSE(resp.ok()) << "the condition should have failed";
      ExpectConditionFailed(resp.status(), r.return_values_on_condition_check_failure, old);
      ExpectUnchanged(key);
      return;
    }
    UpdateOutcome out = ApplyModel(actions, base, old.has_value());
    if (!out.errors.empty()) {
      ++cov_.updates_refused;
      cov_.ambiguous_errors += out.errors.size() > 1;
      std::string want;
      for (const std::string& e : out.errors) want += "\n    " + e;
      ASSERT_FALSE(resp.ok()) << "expected one of:" << want
                              << "\n  new item: " << Dump(resp->attributes);
      EXPECT_EQ(resp.status().code(), ErrorCode::kValidation) << resp.status().ToString();
      EXPECT_TRUE(out.errors.count(resp.status().message()))
          << "got " << resp.status().message() << "\n  expected one of:" << want;
      const std::string m = resp.status().message();
      cov_.missing_operand += m == kMissingOperand;
      cov_.wrong_type += m == kWrongType;
      cov_.bad_path += m == kBadPath;
      cov_.index_key_errors += m.find("Index Key") != std::string::npos || m == kEmptyIndexKey;
      ExpectUnchanged(key);
      return;
    }
    ASSERT_TRUE(resp.ok()) << resp.status().ToString() << "\n  expected new item "
                           << Dump(out.next);
    // Only REMOVE actions on a missing item: DynamoDB creates nothing and returns nothing.
    if (!old && !actions.empty() &&
        std::all_of(actions.begin(), actions.end(),
                    [](const UAction& a) { return a.kind == UAction::kRemove; })) {
      ++cov_.updates_ok;
      EXPECT_FALSE(resp->attributes.has_value()) << Dump(resp->attributes);
      ExpectUnchanged(key);
      return;
    }
    ++cov_.updates_ok;
    cov_.updates_created += !old;
    for (size_t i = 0; i < actions.size(); ++i) {
      for (size_t j = i + 1; j < actions.size(); ++j) {
        const MPath &x = actions[i].target, &y = actions[j].target;
        cov_.list_element_pairs += x.size() == y.size() && x.back().is_index && y.back().is_index &&
                                   std::equal(x.begin(), x.end() - 1, y.begin());
      }
    }
    auto gsi_key = [](const Item& i) {
      Item k;
      for (const char* a : {"g", "gn"}) {
        if (i.count(a)) k[a] = i.at(a);
      }
      return k;
    };
    cov_.gsi_key_changes += gsi_key(base) != gsi_key(out.next);
    std::vector<MPath> targets;
    for (const UAction& a : actions) targets.push_back(a.target);
    std::optional<Item> want;
    bool compare = true;
    switch (r.return_values) {
      case ReturnValues::kNone:
        break;
      case ReturnValues::kAllOld:
        want = old;
        break;
      case ReturnValues::kAllNew:
        want = out.next;
        break;
      case ReturnValues::kUpdatedOld:
        if (old) want = ProjectPaths(*old, targets);
        ++cov_.updated_values_compared;
        break;
      case ReturnValues::kUpdatedNew:
        want = ProjectPaths(out.next, targets);
        compare = !out.updated_new_unspecified;
        cov_.updated_values_compared += compare;
        break;
    }
    if (want && want->empty()) want.reset();  // no attributes: none returned
    if (compare) {
      EXPECT_TRUE(SameItem(want, resp->attributes)) << "ReturnValues";
    }
    model_[key] = out.next;
    if (OneIn(4)) {
      EXPECT_TRUE(SameItem(out.next, Fetch(key))) << "stored item";
    }
  }

  // Up to four paths, none overlapping or conflicting with another (which is an error).
  std::vector<MPath> RandomProjection(const std::vector<MPath>& pool) {
    std::vector<MPath> paths;
    for (int n = 1 + Uniform(4); n > 0; --n) {
      const MPath& p = Pick(pool);
      bool ok = true;
      for (const MPath& q : paths) ok = ok && !Overlap(p, q) && !Conflict(p, q);
      if (ok) paths.push_back(p);
    }
    return paths;
  }
  std::string RenderProjection(const std::vector<MPath>& paths, ExprText* t) {
    std::string s;
    for (const MPath& p : paths) s += (s.empty() ? "" : ", ") + t->Path(p);
    return s;
  }

  void Get() {
    GetItemRequest g;
    g.table_name = kTable;
    Key key = RandomKey();
    g.key = KeyItem(key);
    std::vector<MPath> paths = RandomProjection(sources_.table_projection);
    ExprText t(&rng_);
    g.expressions.projection = RenderProjection(paths, &t);
    t.Fill(&g.expressions);
    SCOPED_TRACE("GetItem " + Dump(g.key) + Describe(g.expressions));
    auto r = db_->GetItem(g);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    std::optional<Item> want = Current(key);
    if (want) {
      want = ProjectPaths(*want, paths);  // nothing projected: {} (§3.6)
      cov_.empty_projections += want->empty();
    }
    EXPECT_TRUE(SameItem(want, r->item));
  }

  // Reads everything `req` returns (following LastEvaluatedKey), in the engine's order.
  template <typename Request, typename Call>
  std::vector<Item> ReadAll(Request req, const Call& call) {
    std::vector<Item> all;
    for (int page = 0; page < 100; ++page) {
      auto r = call(req);
      if (!r.ok()) {
        ADD_FAILURE() << r.status().ToString();
        return all;
      }
      all.insert(all.end(), r->items.begin(), r->items.end());
      if (!r->last_evaluated_key) return all;
      req.exclusive_start_key = r->last_evaluated_key;
    }
    ADD_FAILURE() << "LastEvaluatedKey does not advance";
    return all;
  }

  // Runs the filtered/projected/limited `req` page by page against `order` (the source's
  // entries in the order the engine reads them): per page ScannedCount, Count, Items and
  // LastEvaluatedKey (reference §4.1), and all pages together cover `order` exactly once. The
  // filter sees the entry; on the LSI a projection or ALL_ATTRIBUTES reads the table's item.
  template <typename Request, typename Call>
  void CheckPages(Request req, const std::vector<Item>& order, const std::optional<Cond>& filter,
                  const std::optional<std::vector<MPath>>& projection, Src src, const Call& call) {
    const bool fetch = src == Src::kLsi && (projection || req.select == Select::kAllAttributes);
    size_t pos = 0;
    for (size_t page = 0;; ++page) {
      SCOPED_TRACE("page " + std::to_string(page));
      if (page > order.size() + 1) {
        ADD_FAILURE() << "LastEvaluatedKey does not advance";
        return;
      }
      auto r = call(req);
      ASSERT_TRUE(r.ok()) << r.status().ToString();
      const size_t remaining = order.size() - pos;
      const size_t want_scanned = req.limit ? std::min<size_t>(*req.limit, remaining) : remaining;
      ASSERT_EQ(r->scanned_count, static_cast<int64_t>(want_scanned));
      std::vector<Item> want;
      for (size_t i = pos; i < pos + want_scanned; ++i) {
        if (filter && !Holds(*filter, order[i])) continue;
        const Item& base = fetch ? model_.at(KeyOf(order[i])) : order[i];
        want.push_back(projection ? ProjectPaths(base, *projection) : base);
        cov_.projected_items += projection.has_value();
        cov_.lsi_fetches += fetch;
      }
      EXPECT_EQ(r->count, static_cast<int64_t>(want.size()));
      if (req.select == Select::kCount) {
        EXPECT_TRUE(r->items.empty());
      } else {
        EXPECT_TRUE(SameItems(want, std::vector<Item>(r->items.begin(), r->items.end())));
      }
      const bool at_limit = req.limit && want_scanned == static_cast<size_t>(*req.limit);
      EXPECT_EQ(r->last_evaluated_key.has_value(), at_limit);
      if (r->last_evaluated_key && want_scanned > 0) {
        EXPECT_TRUE(
            SameItem(PositionKey(order[pos + want_scanned - 1], src), *r->last_evaluated_key))
            << "LastEvaluatedKey";
      }
      ++cov_.pages;
      cov_.filtered_pages += r->count < r->scanned_count;
      cov_.multi_page_reads += page == 1;
      pos += want_scanned;
      if (::testing::Test::HasFailure() || !r->last_evaluated_key) break;
      req.exclusive_start_key = r->last_evaluated_key;
    }
    EXPECT_EQ(pos, order.size()) << "pages did not cover the source";
  }

  std::optional<int> RandomLimit() {
    int d = Uniform(10);
    if (d < 3) return std::nullopt;
    if (d < 9) return 1 + Uniform(5);
    return 10 + Uniform(20);
  }

  Src RandomSource() {
    int d = Uniform(10);
    return d < 4 ? Src::kTable : d < 7 ? Src::kGsi : Src::kLsi;
  }
  const std::vector<MPath>& ProjectionPool(Src src) {
    return src == Src::kGsi ? sources_.gsi_projection : sources_.table_projection;
  }

  // Filter, projection and Select on a read request. Returns the message the request must fail
  // with when it made the filter invalid: a static error, or (Query) a key attribute of the
  // table or queried index (`keys`).
  template <typename Request>
  std::optional<std::string> RandomFilterAndProjection(
      Request* req, Src src, const std::vector<MPath>& filter_pool,
      const std::vector<std::string>& keys, ExprText* t, std::optional<Cond>* filter,
      std::optional<std::vector<MPath>>* projection) {
    if (Uniform(10) < 8) {
      *filter = RandomCond(filter_pool, 2);
      req->expressions.filter = Render(**filter, t, &rng_);
    }
    std::optional<std::string> invalid;
    if (OneIn(25)) {
      auto [fragment, message] = InvalidCondition(t);
      req->expressions.filter = Combine(req->expressions.filter, fragment, t);
      invalid = "Invalid FilterExpression: " + message;
    } else if (!keys.empty() && OneIn(25)) {
      const std::string& k = Pick(keys);
      std::string fragment = OneIn(2) ? "attribute_exists(" + t->Path(P(k)) + ")"
                                      : t->Path(P(k)) + " = " + t->Value(RandomScalar());
      req->expressions.filter = Combine(req->expressions.filter, fragment, t);
      invalid =
          "Filter Expression can only contain non-primary key attributes: Primary key "
          "attribute: " +
          k;
    }
    int d = Uniform(10);
    if (d < 5) {
      *projection = RandomProjection(ProjectionPool(src));
      req->expressions.projection = RenderProjection(**projection, t);
      if (OneIn(3)) req->select = Select::kSpecificAttributes;
    } else if (d < 6) {
      req->select = Select::kCount;
    } else if (d < 7 && src != Src::kGsi) {  // on the LSI: the table's items (§4.4)
      req->select = Select::kAllAttributes;
    } else if (d < 8 && src != Src::kTable) {
      req->select = Select::kAllProjectedAttributes;
    }
    t->Fill(&req->expressions);
    return invalid;
  }

  void Query() {
    const Src src = RandomSource();
    const auto [partition, sort_key] = KeysOf(src);
    QueryRequest learn;
    learn.table_name = kTable;
    learn.index_name = IndexName(src);
    KeyCondition& kc = learn.key_condition;
    kc.partition_name = partition;
    kc.partition_value =
        S(src == Src::kGsi ? "g" + std::to_string(Uniform(3)) : "p" + std::to_string(Uniform(4)));
    const bool strings = src == Src::kLsi;
    kc.op = static_cast<SortKeyOp>(Uniform(strings ? 8 : 7));  // begins_with: S sort keys only
    if (kc.op != SortKeyOp::kNone) {
      kc.sort_name = sort_key;
      auto operand = [&] {
        if (strings) return S(Pick(kSortStrings));
        return N(Uniform(src == Src::kGsi ? 5 : 11) - 1);
      };
      kc.sort_value = operand();
      kc.sort_value2 = operand();
      if (kc.op == SortKeyOp::kBetween && kc.sort_value.CompareKey(kc.sort_value2) > 0) {
        std::swap(kc.sort_value, kc.sort_value2);
      }
    }
    learn.scan_index_forward = OneIn(2);

    // The model's entries (in key order; the engine's order is checked separately).
    std::vector<Item> want;
    for (const auto& [k, item] : model_) {
      std::optional<Item> e = Entry(item, src);
      if (!e || !(e->at(kc.partition_name) == kc.partition_value)) continue;
      if (kc.op != SortKeyOp::kNone) {
        const AttributeValue& v = e->at(kc.sort_name);
        int c = v.CompareKey(kc.sort_value);
        int c2 = v.CompareKey(kc.sort_value2);
        bool match = kc.op == SortKeyOp::kEq        ? c == 0
                     : kc.op == SortKeyOp::kLt      ? c < 0
                     : kc.op == SortKeyOp::kLe      ? c <= 0
                     : kc.op == SortKeyOp::kGt      ? c > 0
                     : kc.op == SortKeyOp::kGe      ? c >= 0
                     : kc.op == SortKeyOp::kBetween ? c >= 0 && c2 <= 0
                                                    : v.s().starts_with(kc.sort_value.s());
        if (!match) continue;
      }
      want.push_back(*e);
    }
    std::vector<Item> order = ReadAll(learn, [&](const QueryRequest& q) { return db_->Query(q); });
    {
      SCOPED_TRACE("unfiltered Query of " + IndexName(src).value_or("the table"));
      std::vector<Item> got = order;
      SortByKey(&want);
      SortByKey(&got);
      ASSERT_TRUE(SameItems(want, got));
      for (size_t i = 1; i < order.size(); ++i) {
        int c = order[i - 1].at(sort_key).CompareKey(order[i].at(sort_key));
        ASSERT_TRUE(learn.scan_index_forward ? c <= 0 : c >= 0) << "out of order at #" << i;
      }
    }

    // The same query through a KeyConditionExpression, with a filter, projection and limit.
    QueryRequest q;
    q.table_name = kTable;
    q.index_name = learn.index_name;
    q.scan_index_forward = learn.scan_index_forward;
    q.limit = RandomLimit();
    q.consistent_read = src != Src::kGsi && OneIn(2);
    ExprText t(&rng_);
    std::string part = t.Path(P(partition)) + " = " + t.Value(kc.partition_value);
    std::string sort;
    if (kc.op != SortKeyOp::kNone) {
      static const char* kOps[] = {"", "=", "<", "<=", ">", ">="};
      static const char* kFlipped[] = {"", "=", ">", ">=", "<", "<="};
      std::string name = t.Path(P(sort_key));
      if (kc.op == SortKeyOp::kBetween) {
        sort = name + " " + t.Kw("BETWEEN") + " " + t.Value(kc.sort_value) + " " + t.Kw("AND") +
               " " + t.Value(kc.sort_value2);
      } else if (kc.op == SortKeyOp::kBeginsWith) {
        sort = "begins_with(" + name + ", " + t.Value(kc.sort_value) + ")";
      } else if (OneIn(4)) {  // value first flips the operator (§3.5)
        sort = t.Value(kc.sort_value) + " " + kFlipped[static_cast<int>(kc.op)] + " " + name;
      } else {
        sort = name + " " + kOps[static_cast<int>(kc.op)] + " " + t.Value(kc.sort_value);
      }
    }
    q.expressions.key_condition = sort.empty() ? part
                                  : OneIn(4)   ? sort + " " + t.Kw("AND") + " " + part
                                               : part + " " + t.Kw("AND") + " " + sort;
    std::optional<Cond> filter;
    std::optional<std::vector<MPath>> projection;
    const std::vector<MPath>& filter_pool = src == Src::kGsi   ? sources_.gsi_query_filter
                                            : src == Src::kLsi ? sources_.lsi_query_filter
                                                               : sources_.table_query_filter;
    // The queried key schema's attributes (a filter on an index query may name the table's).
    std::vector<std::string> keys;
    if (src == Src::kTable) keys = {"pk", "sk"};
    if (src == Src::kLsi) keys = {"pk", sort_key};
    if (src == Src::kGsi) keys = {partition, sort_key};
    std::optional<std::string> invalid =
        RandomFilterAndProjection(&q, src, filter_pool, keys, &t, &filter, &projection);
    SCOPED_TRACE("Query " + IndexName(src).value_or("table") + " limit " +
                 (q.limit ? std::to_string(*q.limit) : "none") +
                 (q.scan_index_forward ? " forward" : " backward") + " select " +
                 std::to_string(static_cast<int>(q.select)) + Describe(q.expressions));
    if (invalid) {
      auto r = db_->Query(q);
      ASSERT_FALSE(r.ok()) << "expected " << *invalid;
      ExpectStaticError(r.status(), *invalid, nullptr);
      return;
    }
    CheckPages(q, order, filter, projection, src,
               [&](const QueryRequest& x) { return db_->Query(x); });
  }

  void Scan() {
    const Src src = RandomSource();
    ScanRequest learn;
    learn.table_name = kTable;
    learn.index_name = IndexName(src);
    static const int kTotals[] = {1, 2, 3, 5};
    if (OneIn(3)) learn.total_segments = kTotals[Uniform(4)];
    ScanRequest s = learn;
    s.limit = RandomLimit();
    s.consistent_read = src != Src::kGsi && OneIn(2);
    ExprText t(&rng_);
    std::optional<Cond> filter;
    std::optional<std::vector<MPath>> projection;
    const std::vector<MPath>& filter_pool = src == Src::kGsi   ? sources_.gsi_scan_filter
                                            : src == Src::kLsi ? sources_.lsi_scan_filter
                                                               : sources_.write_conditions;
    std::optional<std::string> invalid =
        RandomFilterAndProjection(&s, src, filter_pool, {}, &t, &filter, &projection);
    SCOPED_TRACE("Scan " + IndexName(src).value_or("table") + " limit " +
                 (s.limit ? std::to_string(*s.limit) : "none") + " segments " +
                 std::to_string(s.total_segments.value_or(0)) + " select " +
                 std::to_string(static_cast<int>(s.select)) + Describe(s.expressions));
    if (invalid) {
      if (s.total_segments) s.segment = 0;
      auto r = db_->Scan(s);
      ASSERT_FALSE(r.ok()) << "expected " << *invalid;
      ExpectStaticError(r.status(), *invalid, nullptr);
      return;
    }
    std::vector<Item> all;
    for (int seg = 0; seg < learn.total_segments.value_or(1); ++seg) {
      SCOPED_TRACE("segment " + std::to_string(seg));
      if (learn.total_segments) learn.segment = s.segment = seg;
      std::vector<Item> order = ReadAll(learn, [&](const ScanRequest& x) { return db_->Scan(x); });
      all.insert(all.end(), order.begin(), order.end());
      CheckPages(s, order, filter, projection, src,
                 [&](const ScanRequest& x) { return db_->Scan(x); });
      if (::testing::Test::HasFailure()) return;
    }
    std::vector<Item> want;
    for (const auto& [k, item] : model_) {
      if (std::optional<Item> e = Entry(item, src)) want.push_back(*e);
    }
    SortByKey(&all);
    EXPECT_TRUE(SameItems(want, all)) << "the segments together";
  }

  void CheckEverything() {
    for (Src src : {Src::kTable, Src::kGsi, Src::kLsi}) {
      SCOPED_TRACE("full scan of " + IndexName(src).value_or("the table"));
      ScanRequest s;
      s.table_name = kTable;
      s.index_name = IndexName(src);
      std::vector<Item> got = ReadAll(s, [&](const ScanRequest& x) { return db_->Scan(x); });
      std::vector<Item> want;
      for (const auto& [k, item] : model_) {
        if (std::optional<Item> e = Entry(item, src)) want.push_back(*e);
      }
      SortByKey(&got);
      EXPECT_TRUE(SameItems(want, got));
    }
    Status v = db_->VerifyIntegrity();
    EXPECT_TRUE(v.ok()) << v.ToString();
  }

  std::mt19937_64 rng_;
  Sources sources_;
  TempDb db_;
  Model model_;
  Coverage cov_;
  int op_ = 0;
};

class StorageModelExprTest : public ::testing::TestWithParam<uint64_t> {};

TEST_P(StorageModelExprTest, Randomized) {
  SCOPED_TRACE("seed " + std::to_string(GetParam()));
  ExprRunner(GetParam()).Run(8000);
}

INSTANTIATE_TEST_SUITE_P(Seeds, StorageModelExprTest, ::testing::Values(1, 2, 3, 4, 5, 6),
                         [](const ::testing::TestParamInfo<uint64_t>& info) {
                           return "seed" + std::to_string(info.param);
                         });

// Arithmetic past the limits of a Number (reference §1.2): the model above takes these outcomes
// from Number::Add/Subtract; this pins them, through the engine, to the reference's messages.
TEST(StorageModelExpr, NumberLimits) {
  TempDb db;
  CreateTableRequest c;
  c.table_name = kTable;
  c.attribute_definitions = {{"pk", "S"}, {"sk", "N"}};
  c.key_schema = {{"pk", "HASH"}, {"sk", "RANGE"}};
  ASSERT_TRUE(db->CreateTable(c).ok());
  const Item key{{"pk", S("p")}, {"sk", N(1)}};
  const std::string overflow =
      "Number overflow. Attempting to store a number with magnitude larger than supported range";
  const std::string underflow =
      "Number underflow. Attempting to store a number with magnitude smaller than supported range";
  struct Case {
    std::string start, update, operand, want;  // want: the new value, or the message
  };
  const std::string nines(38, '9');
  for (const Case& k : std::vector<Case>{
           {nines, "SET n = n + :v", "1", "1" + std::string(38, '0')},
           {nines, "SET n = n + :v", "0.5", overflow},  // 39 digits
           {"1e50", "SET n = n + :v", "1", overflow},   // the reference's example
           {"1e50", "ADD n :v", "1", overflow},
           {"9.9999999999999999999999999999999999999E+125", "SET n = :v + n", "1e125", overflow},
           {"-9e125", "SET n = n - :v", "1e125", overflow},
           {"2e-130", "SET n = n - :v", "1.5e-130", underflow},
           {"2e-130", "SET n = n - :v", "1e-130", "1e-130"},
           {"5", "SET n = :v - n", "5", "0"}}) {
    SCOPED_TRACE(k.start + " / " + k.update + " / " + k.operand);
    PutItemRequest put;
    put.table_name = kTable;
    put.item = key;
    put.item["n"] = N(k.start);
    ASSERT_TRUE(db->PutItem(put).ok());
    UpdateItemRequest u;
    u.table_name = kTable;
    u.key = key;
    u.expressions.update = k.update;
    u.expressions.values = std::map<std::string, AttributeValue>{{":v", N(k.operand)}};
    u.return_values = ReturnValues::kUpdatedNew;
    auto r = db->UpdateItem(u);
    GetItemRequest g;
    g.table_name = kTable;
    g.key = key;
    auto stored = db->GetItem(g);
    ASSERT_TRUE(stored.ok() && stored->item.has_value());
    if (k.want == overflow || k.want == underflow) {
      ASSERT_FALSE(r.ok());
      EXPECT_EQ(r.status().code(), ErrorCode::kValidation);
      EXPECT_EQ(r.status().message(), k.want);
      EXPECT_EQ(stored->item->at("n"), N(k.start)) << "a refused update changed the item";
    } else {
      ASSERT_TRUE(r.ok()) << r.status().ToString();
      EXPECT_TRUE(SameItem(Item{{"n", N(k.want)}}, r->attributes));
      EXPECT_EQ(stored->item->at("n"), N(k.want));
    }
  }
}

}  // namespace
}  // namespace keyhole::storage
