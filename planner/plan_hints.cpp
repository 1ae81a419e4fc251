// The planner's teaching texts (plan_internal.h): a key compared with an attribute name where
// a quoted value was meant, a key value of the wrong type, and the index that would serve a
// refused SELECT.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <set>

#include "core/strings.h"

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

// `name = <path>` or `<path> = name` (or `name IN (..., <path>, ...)`) among the conjuncts of
// every OR branch: the path.
const expr::Path* ComparedWithPath(const expr::Condition& where, const std::string& name,
                                   bool* in_list) {
  auto single = [](const expr::Operand& o) {
    return o.kind == expr::OperandKind::kPath && o.path.elements.size() == 1 &&
           !o.path.elements[0].is_index;
  };
  for (const auto* branch : OrBranches(where)) {
    for (const auto* c : AndConjuncts(*branch)) {
      if (c->kind == expr::ConditionKind::kIn && !c->operands.empty() &&
          TopName(c->operands[0]) == name) {
        for (size_t i = 1; i < c->operands.size(); ++i) {
          if (single(c->operands[i])) {
            *in_list = true;
            return &c->operands[i].path;
          }
        }
      }
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

// A table or index name as the hints write it: always in double quotes (inner ones doubled).
std::string DoubleQuoted(const std::string& name) {
  std::string out = "\"";
  for (char c : name) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

char KeyTypeLetter(const AttributeValue& v) {
  return v.is(ValueType::kS) ? 'S' : v.is(ValueType::kN) ? 'N' : v.is(ValueType::kB) ? 'B' : 0;
}

}  // namespace

std::optional<std::string> PathForValue(const std::optional<expr::Condition>& where,
                                        const std::vector<std::string>& key_names) {
  if (!where) return std::nullopt;
  for (const std::string& key : key_names) {
    bool in_list = false;
    const expr::Path* path = ComparedWithPath(*where, key, &in_list);
    if (!path) continue;
    const std::string& word = path->elements[0].name;
    std::string value = "'";
    for (char c : word) value += c == '\'' ? std::string("''") : std::string(1, c);
    value += "'";
    return fmt::format(
        "\"{}\" is read as an attribute name, not a value: in PartiQL double quotes (or none) "
        "name attributes and single quotes make strings. Write {}",
        word,
        in_list ? "the values in single quotes: " + parser::NameInStatement(key) + " IN [" + value +
                      ", ...]"
                : parser::NameInStatement(key) + " = " + value);
  }
  return std::nullopt;
}

std::string KeyTypeHint(const KeyAttribute& key, const AttributeValue& given, bool in_map) {
  // WHERE PK = '1', or the map entry 'PK': '1' of an INSERT.
  const std::string lhs = in_map ? Literal(AttributeValue::S(key.name)) + ": "
                                 : parser::NameInStatement(key.name) + " = ";
  std::string fix;
  if (key.type == ValueType::kS && given.is(ValueType::kN)) {
    fix = fmt::format(": quote it, {}'{}'", lhs, given.n().ToString());
  } else if (key.type == ValueType::kN && given.is(ValueType::kS)) {
    fix = Number::Parse(given.s()).ok()
              ? fmt::format(": write the number without quotes, {}{}", lhs, given.s())
              : fmt::format(": '{}' is not a number", given.s());
  }
  return fmt::format("{} is {} in the key schema; the statement gives {}{}", key.name,
                     TypeWords(key.type), TypeWords(given.type()), fix);
}

namespace {

// A range or begins_with key condition on `kc.sort_name`, as PartiQL ("" when a value has no
// literal form).
std::string RangeText(const KeyCondition& kc) {
  const std::string name = parser::NameInStatement(kc.sort_name);
  const std::string v = Literal(kc.sort_value);
  if (v.empty()) return "";
  switch (kc.op) {
    case SortKeyOp::kLt:
      return name + " < " + v;
    case SortKeyOp::kLe:
      return name + " <= " + v;
    case SortKeyOp::kGt:
      return name + " > " + v;
    case SortKeyOp::kGe:
      return name + " >= " + v;
    case SortKeyOp::kBetween: {
      const std::string v2 = Literal(kc.sort_value2);
      return v2.empty() ? "" : name + " BETWEEN " + v + " AND " + v2;
    }
    case SortKeyOp::kBeginsWith:
      return "begins_with(" + name + ", " + v + ")";
    default:
      return "";
  }
}

// The sort key of the table, or of the index the statement reads (`index`, else null), pinned
// with = (or IN) in every branch: the inverted index, that key schema swapped.
std::string InvertedIndexSuggestion(const TableDescription& table, const IndexDescription* index,
                                    const std::vector<const expr::Condition*>& branches) {
  const KeySchema& key = index ? index->key : table.key;
  if (!key.sort || key.IsMultiAttribute()) return "";
  const KeyAttribute& sk = *key.sort;
  const KeyAttribute& pk = key.partition;
  std::optional<AttributeValue> value;
  for (const auto* b : branches) {
    std::optional<std::vector<AttributeValue>> pinned;
    for (const auto* c : AndConjuncts(*b)) {
      if (!pinned) pinned = PinnedValues(*c, sk.name);
    }
    if (!pinned || pinned->empty()) return "";
    if (!value) value = (*pinned)[0];
  }
  const std::string literal = Literal(*value);
  const std::string name = index ? index->name + "inverted" : "inverted";
  return fmt::format(
      "no key or index has {0} as its partition key. The classic answer is an inverted index, "
      "{7}'s keys swapped: ALTER TABLE {1} ADD GLOBAL INDEX {8} ({2} {3}, {4} {5}); then "
      "SELECT ... FROM {1}.{8} WHERE {2} = {6} reads every item with that sort key, in {4} "
      "order. It costs writes: {9} has {0}, so every put, update or delete {10}also writes the "
      "index (PROJECTION KEYS_ONLY keeps that small), and a value most items share lands in "
      "one partition of it",
      sk.name, DoubleQuoted(table.name), parser::NameInStatement(sk.name), TypeName(sk.type),
      parser::NameInStatement(pk.name), TypeName(pk.type), literal.empty() ? "<value>" : literal,
      index ? "the index " + index->name : "the table", DoubleQuoted(name),
      index ? "every item in " + index->name : std::string("every item"), index ? "of one " : "");
}

// A WHERE of one branch with a range or begins_with on one attribute that no index keys (or on
// the table's sort key): no index serves a range across the table; what does.
std::string RangeSuggestion(const TableDescription& table,
                            const std::vector<const expr::Condition*>& branches,
                            const std::set<std::string>& index_keys) {
  if (branches.size() != 1) return "";
  for (const auto* c : AndConjuncts(*branches[0])) {
    std::vector<std::string> names;
    MentionedNames(*c, &names);
    if (names.size() != 1 || names[0] == table.key.partition.name || index_keys.count(names[0])) {
      continue;
    }
    KeyCondition kc;
    if (!SortKeyPredicate(*c, names[0], &kc) || kc.op == SortKeyOp::kEq) continue;
    const char type = KeyTypeLetter(kc.sort_value);
    const std::string range = RangeText(kc);
    if (!type || range.empty()) continue;
    const std::string index = IndexName(names[0]);
    return fmt::format(
        "no index serves a range over the whole table: indexes are read one partition-key "
        "value at a time. If the items you want share a value (an entity type, say), an index "
        "with it as partition key and {0} as sort key serves this as a Query: ALTER TABLE "
        "\"{1}\" ADD GLOBAL INDEX \"{2}\" (entityType S, {3} {4}); then SELECT ... FROM "
        "\"{1}\".\"{2}\" WHERE entityType = <value> AND {5}. Only items that have both are in "
        "it (a sparse index); each of their writes also writes it, all to one partition. "
        "Otherwise SCAN SELECT reads the whole table",
        names[0], table.name, index, parser::NameInStatement(names[0]), type, range);
  }
  return "";
}

// A non-key attribute pinned with = (or IN) in every branch: an index with it as partition key.
std::string EqualitySuggestion(const parser::SelectStatement& s, const TableDescription& table) {
  std::set<std::string> keys = {table.key.partition.name};
  if (table.key.sort) keys.insert(table.key.sort->name);
  for (const auto& idx : table.indexes) {
    for (const std::string& name : idx.key.Names()) keys.insert(name);
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
        "pattern: ALTER TABLE \"{1}\" ADD GLOBAL INDEX \"{2}\" ({5} {3}); then SELECT ... FROM "
        "\"{1}\".\"{2}\" WHERE {5} = {4}. It costs writes: every put, update or delete of an "
        "item that has {0} also writes the index (1 WCU per KB of what it projects; PROJECTION "
        "KEYS_ONLY or INCLUDE (...) keeps that small)",
        attr, table.name, index, type, literal.empty() ? "<value>" : literal,
        parser::NameInStatement(attr));
  }
  return "";
}

}  // namespace

namespace {

// The attributes a condition tests (the first operand of each comparison, BETWEEN, IN and
// function), each once, in order; with whether begins_with tests it.
void CollectTested(const expr::Condition& c, std::vector<std::pair<std::string, bool>>* out) {
  const bool tests = c.kind == expr::ConditionKind::kCompare ||
                     c.kind == expr::ConditionKind::kBetween ||
                     c.kind == expr::ConditionKind::kIn || c.kind == expr::ConditionKind::kFunction;
  if (tests && !c.operands.empty() && c.operands[0].kind == expr::OperandKind::kPath &&
      !c.operands[0].path.elements.empty() && !c.operands[0].path.elements[0].is_index) {
    const std::string& name = c.operands[0].path.elements[0].name;
    const bool begins = c.kind == expr::ConditionKind::kFunction && c.function == "begins_with";
    auto it = std::ranges::find_if(*out, [&](const auto& e) { return e.first == name; });
    if (it == out->end()) {
      out->emplace_back(name, begins);
    } else {
      it->second = it->second || begins;
    }
  }
  for (const expr::Condition& child : c.children) CollectTested(child, out);
}

bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
  return AsciiEqualIgnoringCase(a, b);
}

// A WHERE naming a key attribute in another case (pk for PK), or testing a partition key with
// begins_with: the hint that says so, else "".
std::string KeyNameHint(const parser::SelectStatement& s, const TableDescription& table) {
  std::vector<std::string> keys = table.key.Names();
  std::vector<std::string> partitions = {table.key.partition.name};
  for (const auto& idx : table.indexes) {
    for (const std::string& name : idx.key.Names()) {
      if (std::ranges::find(keys, name) == keys.end()) keys.push_back(name);
    }
    partitions.push_back(idx.key.partition.name);
  }
  std::vector<std::pair<std::string, bool>> tested;
  CollectTested(*s.where, &tested);
  for (const auto& [name, begins] : tested) {
    if (std::ranges::find(keys, name) != keys.end()) continue;
    for (const std::string& key : keys) {
      if (EqualsIgnoringCase(name, key)) {
        return fmt::format("did you mean {}? Attribute names are case-sensitive: {} is not {}", key,
                           name, key);
      }
    }
  }
  for (const auto& [name, begins] : tested) {
    if (!begins || std::ranges::find(partitions, name) == partitions.end()) continue;
    return fmt::format(
        "begins_with narrows a sort key only: a Query needs the whole partition key with = "
        "({} = <value>); within that item collection begins_with on the sort key picks a "
        "range. To find items by a prefix of {}, give an index a partition key that holds the "
        "prefix (ALTER TABLE ... ADD GLOBAL INDEX)",
        parser::NameInStatement(name), name);
  }
  return "";
}

}  // namespace

std::string IndexSuggestion(const parser::SelectStatement& s, const TableDescription& table,
                            const IndexDescription* index) {
  if (!s.where) return "";
  if (std::string names = KeyNameHint(s, table); !names.empty()) return names;
  std::set<std::string> index_keys;
  for (const auto& idx : table.indexes) {
    for (const std::string& name : idx.key.Names()) index_keys.insert(name);
  }
  const auto branches = OrBranches(*s.where);
  if (std::string inverted = InvertedIndexSuggestion(table, index, branches); !inverted.empty()) {
    return inverted;
  }
  if (index) return "";  // the rest propose indexes of the table's items as a whole
  if (std::string equality = EqualitySuggestion(s, table); !equality.empty()) return equality;
  return RangeSuggestion(table, branches, index_keys);
}

namespace {

void CollectValueNames(const expr::Condition& c, std::vector<std::string>* out) {
  auto add = [&](const expr::Operand& o) {
    if (o.kind == expr::OperandKind::kPath && o.path.elements.size() == 1 &&
        !o.path.elements[0].is_index &&
        std::find(out->begin(), out->end(), o.path.elements[0].name) == out->end()) {
      out->push_back(o.path.elements[0].name);
    }
  };
  switch (c.kind) {
    case expr::ConditionKind::kCompare:
    case expr::ConditionKind::kBetween:
    case expr::ConditionKind::kIn:
      // The first operand is the attribute tested; the others are where values go.
      if (c.operands.size() >= 2 && c.operands[0].kind == expr::OperandKind::kPath) {
        for (size_t i = 1; i < c.operands.size(); ++i) add(c.operands[i]);
      }
      break;
    case expr::ConditionKind::kFunction:
      if ((c.function == "begins_with" || c.function == "contains") && c.operands.size() == 2) {
        add(c.operands[1]);
      }
      break;
    default:
      for (const expr::Condition& child : c.children) CollectValueNames(child, out);
  }
}

}  // namespace

std::string KeyUpdateHint(const parser::UpdateStatement& s, const TableDescription& table,
                          const Item& key) {
  std::vector<const KeyAttribute*> keys = {&table.key.partition};
  if (table.key.sort) keys.push_back(&*table.key.sort);
  std::string where, item;
  for (const KeyAttribute* k : keys) {
    auto old = key.find(k->name);
    std::string value = old == key.end() ? "" : Literal(old->second);
    if (value.empty()) value = "<value>";
    where += fmt::format("{}{} = {}", where.empty() ? "" : " AND ",
                         parser::NameInStatement(k->name), value);
    std::string now = value;
    for (const expr::UpdateAction& a : s.update.actions) {
      if (a.kind == expr::UpdateActionKind::kSet && a.path.elements.size() == 1 &&
          a.path.elements[0].name == k->name) {
        now = a.value.kind == expr::OperandKind::kValue ? Literal(a.value.value) : "";
        if (now.empty()) now = "<new value>";
      }
    }
    item +=
        fmt::format("{}{}: {}", item.empty() ? "" : ", ", Literal(AttributeValue::S(k->name)), now);
  }
  const std::string t = DoubleQuoted(table.name);
  return fmt::format(
      "a key attribute cannot change: under another key it is another item. Move it with a "
      "delete and a put in one transaction: read it (SELECT * FROM {0} WHERE {1}), then BEGIN; "
      "DELETE FROM {0} WHERE {1}; INSERT INTO {0} VALUE {{{2}, <its other attributes>}}; "
      "COMMIT; (the INSERT fails, and so the whole transaction, if the new key is taken)",
      t, where, item);
}

std::vector<std::string> NamesWhereValuesGo(const parser::Statement& st) {
  std::vector<std::string> out;
  const std::optional<expr::Condition>* where = nullptr;
  if (st.kind() == parser::StatementKind::kSelect) {
    where = &st.as<parser::SelectStatement>().where;
  } else if (st.kind() == parser::StatementKind::kUpdate) {
    const auto& u = st.as<parser::UpdateStatement>();
    where = &u.where;
    for (const expr::UpdateAction& a : u.update.actions) {
      if (a.kind == expr::UpdateActionKind::kSet && a.value.kind == expr::OperandKind::kPath &&
          a.value.path.elements.size() == 1 && !a.value.path.elements[0].is_index &&
          std::find(out.begin(), out.end(), a.value.path.elements[0].name) == out.end()) {
        out.push_back(a.value.path.elements[0].name);
      }
    }
  } else if (st.kind() == parser::StatementKind::kDelete) {
    where = &st.as<parser::DeleteStatement>().where;
  }
  if (where && *where) CollectValueNames(**where, &out);
  return out;
}

}  // namespace keyhole::planner::internal
