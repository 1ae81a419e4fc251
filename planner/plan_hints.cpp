// The planner's teaching texts (plan_internal.h): a key compared with an attribute name where
// a quoted value was meant, a key value of the wrong type, and the index that would serve a
// refused SELECT.
#include <fmt/format.h>

#include <cctype>
#include <set>

#include "planner/plan_internal.h"

namespace keyhole::planner::internal {

namespace {

// A value as a PartiQL literal, for statements shown in hints ("" for other types).
std::string Literal(const AttributeValue& v) {
  if (v.is(ValueType::kN)) return v.n().ToString();
  if (!v.is(ValueType::kS)) return "";
  std::string out = "'";
  for (char c : v.s()) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

std::string TypeWords(ValueType t) {
  switch (t) {
    case ValueType::kS:
      return "a string (S)";
    case ValueType::kN:
      return "a number (N)";
    case ValueType::kB:
      return "binary (B)";
    default:
      return std::string(TypeName(t));
  }
}

// `name = <path>` or `<path> = name` among the conjuncts of every OR branch: the path.
const expr::Path* ComparedWithPath(const expr::Condition& where, const std::string& name) {
  for (const auto* branch : OrBranches(where)) {
    for (const auto* c : AndConjuncts(*branch)) {
      if (c->kind != expr::ConditionKind::kCompare || c->op != expr::CompareOp::kEq ||
          c->operands.size() != 2) {
        continue;
      }
      for (int side = 0; side < 2; ++side) {
        const expr::Operand& a = c->operands[side];
        const expr::Operand& b = c->operands[1 - side];
        if (TopName(a) == name && a.path.elements.size() == 1 &&
            b.kind == expr::OperandKind::kPath && b.path.elements.size() == 1 &&
            !b.path.elements[0].is_index) {
          return &b.path;
        }
      }
    }
  }
  return nullptr;
}

std::string IndexName(const std::string& attribute) {
  std::string name = "by";
  bool upper = true;
  for (char c : attribute) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      name += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
      upper = false;
    } else if (c == '_' || c == '-' || c == '.') {
      upper = true;
    }
  }
  return name.size() >= 3 ? name : "byValue";
}

char KeyTypeLetter(const AttributeValue& v) {
  return v.is(ValueType::kS) ? 'S' : v.is(ValueType::kN) ? 'N' : v.is(ValueType::kB) ? 'B' : 0;
}

}  // namespace

std::optional<std::string> PathForValue(const std::optional<expr::Condition>& where,
                                        const std::vector<std::string>& key_names) {
  if (!where) return std::nullopt;
  for (const std::string& key : key_names) {
    const expr::Path* path = ComparedWithPath(*where, key);
    if (!path) continue;
    const std::string& word = path->elements[0].name;
    std::string value = "'";
    for (char c : word) value += c == '\'' ? std::string("''") : std::string(1, c);
    value += "'";
    return fmt::format(
        "\"{}\" is read as an attribute name, not a value: in PartiQL double quotes (or none) "
        "name attributes and single quotes make strings. Write {} = {}",
        word, key, value);
  }
  return std::nullopt;
}

std::string KeyTypeHint(const KeyAttribute& key, const AttributeValue& given) {
  std::string fix;
  if (key.type == ValueType::kS && given.is(ValueType::kN)) {
    fix = fmt::format(": quote it, {} = '{}'", key.name, given.n().ToString());
  } else if (key.type == ValueType::kN && given.is(ValueType::kS)) {
    fix = fmt::format(": write the number without quotes, {} = {}", key.name, given.s());
  }
  return fmt::format("{} is {} in the key schema; the statement gives {}{}", key.name,
                     TypeWords(key.type), TypeWords(given.type()), fix);
}

std::string IndexSuggestion(const parser::SelectStatement& s, const TableDescription& table) {
  if (!s.where) return "";
  std::set<std::string> keys = {table.key.partition.name};
  if (table.key.sort) keys.insert(table.key.sort->name);
  for (const auto& idx : table.indexes) {
    keys.insert(idx.key.partition.name);
    if (idx.key.sort) keys.insert(idx.key.sort->name);
  }
  // The attribute every OR branch pins with = (one value, or IN): the index's partition key.
  auto branches = OrBranches(*s.where);
  for (const auto* c : AndConjuncts(*branches[0])) {
    std::vector<std::string> names;
    MentionedNames(*c, &names);
    if (names.size() != 1 || keys.count(names[0])) continue;
    const std::string& attr = names[0];
    std::optional<std::vector<AttributeValue>> values = PinnedValues(*c, attr);
    if (!values || values->empty()) continue;
    const char type = KeyTypeLetter((*values)[0]);
    if (!type) continue;
    bool everywhere = true;
    for (const auto* b : branches) {
      bool pinned = false;
      for (const auto* d : AndConjuncts(*b)) pinned = pinned || PinnedValues(*d, attr).has_value();
      everywhere = everywhere && pinned;
    }
    if (!everywhere) continue;
    const std::string index = IndexName(attr);
    const std::string literal = Literal((*values)[0]);
    return fmt::format(
        "no key or index has {0} as its partition key. An index that does serves this access "
        "pattern: ALTER TABLE \"{1}\" ADD GLOBAL INDEX \"{2}\" ({0} {3}); then SELECT ... FROM "
        "\"{1}\".\"{2}\" WHERE {0} = {4}. It costs writes: every put, update or delete of an "
        "item that has {0} also writes the index (1 WCU per KB of what it projects; PROJECTION "
        "KEYS_ONLY or INCLUDE (...) keeps that small)",
        attr, table.name, index, type, literal.empty() ? "<value>" : literal);
  }
  return "";
}

}  // namespace keyhole::planner::internal
