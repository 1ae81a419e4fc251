// ToKeyCondition: a KeyConditionExpression AST to the structured KeyCondition of a Query
// (contract in evaluate.h, shapes and texts in reference §3.5).
//
// DynamoDB parses a key condition with the condition grammar and then checks its shape. The
// clauses (the leaves of the top-level AND) are checked left to right, each completely
// (operator, operands, operand types), so the first problem met is the one reported; only then
// are the clauses counted and matched against the key schema.
#include <string>
#include <string_view>
#include <vector>

#include "core/evaluate.h"
#include "core/evaluate_internal.h"

namespace keyhole::expr {

namespace {

using internal::Invalid;

constexpr Kind kKind = Kind::kKeyCondition;

// One clause in structured form: `name op value [value2]`.
struct Clause {
  std::string name;
  SortKeyOp op = SortKeyOp::kNone;
  const AttributeValue* value = nullptr;
  const AttributeValue* value2 = nullptr;  // BETWEEN's upper bound
};

Status InvalidOperator(std::string_view op) {
  return Status::Validation("Invalid operator used in KeyConditionExpression: " + std::string(op));
}

Status TooManyConditions(size_t conditions, size_t key_attributes) {
  return Status::Validation("The number of query conditions (" + std::to_string(conditions) +
                            ") exceeds the number of key attributes defined in the schema (" +
                            std::to_string(key_attributes) + ")");
}

Status NestedOperations() {
  return Status::Validation("KeyConditionExpressions cannot contain nested operations");
}

Status InvalidClause(std::string_view detail) {
  return Status::Validation("Invalid condition in KeyConditionExpression: " + std::string(detail));
}

// The sort-key operator of `op` with the key on the left; `flipped` when it was on the right
// (`:v < sk` is `sk > :v`).
SortKeyOp ToSortKeyOp(CompareOp op, bool flipped) {
  switch (op) {
    case CompareOp::kLt:
      return flipped ? SortKeyOp::kGt : SortKeyOp::kLt;
    case CompareOp::kLe:
      return flipped ? SortKeyOp::kGe : SortKeyOp::kLe;
    case CompareOp::kGt:
      return flipped ? SortKeyOp::kLt : SortKeyOp::kGt;
    case CompareOp::kGe:
      return flipped ? SortKeyOp::kLe : SortKeyOp::kGe;
    default:
      return SortKeyOp::kEq;
  }
}

// The clause's operator: OR, NOT, IN, <> and functions other than begins_with are refused.
Status CheckClauseOperator(const Condition& c) {
  if (c.redundant_parentheses) return Invalid(kKind, "The expression has redundant parentheses;");
  switch (c.kind) {
    case ConditionKind::kOr:
      return InvalidOperator("OR");
    case ConditionKind::kNot:
      return InvalidOperator("NOT");
    case ConditionKind::kIn:
      return InvalidOperator("IN");
    case ConditionKind::kCompare:
      if (c.op == CompareOp::kNe) return InvalidOperator("<>");
      if (c.operands.size() != 2) {
        return Invalid(kKind, internal::WrongArity(CompareOpText(c.op), c.operands.size()));
      }
      return Status::OK();
    case ConditionKind::kBetween:
      if (c.operands.size() != 3) {
        return Invalid(kKind, internal::WrongArity("BETWEEN", c.operands.size()));
      }
      return Status::OK();
    case ConditionKind::kFunction:
      break;
    default:
      return Status::OK();
  }
  switch (internal::ClassifyFunction(c.function)) {
    case internal::FunctionClass::kUnknown:
      return Invalid(kKind, internal::InvalidFunctionName(c.function));
    case internal::FunctionClass::kUpdate:
      return Invalid(
          kKind, "The function is not allowed in a condition expression; function: " + c.function);
    case internal::FunctionClass::kSize:
      return NestedOperations();
    case internal::FunctionClass::kCondition:
      if (c.function != "begins_with") return InvalidOperator(c.function);
      if (c.operands.size() != 2) {
        return Invalid(kKind, internal::WrongArity(c.function, c.operands.size()));
      }
      return Status::OK();
  }
  return Status::OK();
}

// The operands: constants and exactly one top-level attribute name. Returns the index of the
// operand holding the name in *key_index.
Status CheckClauseOperands(const Condition& c, size_t* key_index) {
  size_t paths = 0;
  for (size_t i = 0; i < c.operands.size(); ++i) {
    const Operand& o = c.operands[i];
    if (o.kind == OperandKind::kFunction &&
        internal::ClassifyFunction(o.function) == internal::FunctionClass::kUnknown) {
      return Invalid(kKind, internal::InvalidFunctionName(o.function));
    }
    if (o.kind != OperandKind::kPath && o.kind != OperandKind::kValue) return NestedOperations();
    if (o.kind == OperandKind::kPath) {
      if (o.path.elements.size() != 1) {
        return Status::Validation(
            "KeyConditionExpressions cannot have conditions on nested attributes");
      }
      ++paths;
      *key_index = i;
    }
  }
  if (paths > 1) return InvalidClause("Multiple attribute names used in one condition");
  if (paths == 0) return InvalidClause("No key attribute specified");
  const bool key_first_only =
      c.kind == ConditionKind::kBetween || c.kind == ConditionKind::kFunction;
  if (key_first_only && *key_index != 0) {
    const std::string op = c.kind == ConditionKind::kBetween ? "BETWEEN" : c.function;
    return InvalidClause(op + " operator must have the key attribute as its first operand");
  }
  return Status::OK();
}

// Constant types: begins_with takes S or B; ordering operators and BETWEEN take ordered types;
// BETWEEN's bounds must agree and be in order.
Status CheckClauseTypes(const Condition& c) {
  std::string op;
  bool (*bad)(ValueType) = nullptr;
  if (c.kind == ConditionKind::kFunction) {
    op = c.function;
    bad = [](ValueType t) { return t != ValueType::kS && t != ValueType::kB; };
  } else if (c.kind == ConditionKind::kBetween) {
    op = "BETWEEN";
    bad = [](ValueType t) { return !internal::IsOrdered(t); };
  } else if (c.op != CompareOp::kEq) {
    op = std::string(CompareOpText(c.op));
    bad = [](ValueType t) { return !internal::IsOrdered(t); };
  } else {
    return Status::OK();
  }
  for (const Operand& o : c.operands) {
    if (o.kind == OperandKind::kValue && bad(o.value.type())) {
      return Invalid(kKind, internal::WrongOperandType(op, TypeName(o.value.type())));
    }
  }
  if (c.kind == ConditionKind::kBetween) {
    return internal::CheckBetweenBounds(c.operands[1].value, c.operands[2].value, kKind);
  }
  return Status::OK();
}

// Checks one leaf of the top-level AND completely and describes it in *out.
Status ParseClause(const Condition& c, Clause* out) {
  KH_RETURN_IF_ERROR(CheckClauseOperator(c));
  size_t key_index = 0;
  KH_RETURN_IF_ERROR(CheckClauseOperands(c, &key_index));
  KH_RETURN_IF_ERROR(CheckClauseTypes(c));
  out->name = c.operands[key_index].path.elements[0].name;
  if (c.kind == ConditionKind::kBetween) {
    out->op = SortKeyOp::kBetween;
    out->value = &c.operands[1].value;
    out->value2 = &c.operands[2].value;
  } else if (c.kind == ConditionKind::kFunction) {
    out->op = SortKeyOp::kBeginsWith;
    out->value = &c.operands[1].value;
  } else {
    out->op = ToSortKeyOp(c.op, key_index == 1);
    out->value = &c.operands[1 - key_index].value;
  }
  return Status::OK();
}

// The leaves of the top-level AND, checked in source order. Iterative: any depth is safe.
Status ParseClauses(const Condition& root, std::vector<Clause>* out) {
  std::vector<const Condition*> stack = {&root};
  while (!stack.empty()) {
    const Condition* c = stack.back();
    stack.pop_back();
    if (c->kind == ConditionKind::kAnd) {
      if (c->redundant_parentheses) {
        return Invalid(kKind, "The expression has redundant parentheses;");
      }
      for (auto it = c->children.rbegin(); it != c->children.rend(); ++it) stack.push_back(&*it);
      continue;
    }
    Clause clause;
    KH_RETURN_IF_ERROR(ParseClause(*c, &clause));
    out->push_back(std::move(clause));
  }
  return Status::OK();
}

// A clause's constants against the key attribute's declared type, then non-empty S/B.
Status CheckKeyValues(const Clause& clause, const KeyAttribute& key) {
  for (const AttributeValue* v : {clause.value, clause.value2}) {
    if (v == nullptr) continue;
    if (v->type() != key.type) {
      return Status::Validation(
          "One or more parameter values were invalid: Condition parameter type does not match "
          "schema type");
    }
  }
  for (const AttributeValue* v : {clause.value, clause.value2}) {
    if (v == nullptr || v->is(ValueType::kN) || !v->s().empty()) continue;
    return Status::Validation(
        std::string("One or more parameter values are not valid. The AttributeValue for a key "
                    "attribute cannot contain an empty ") +
        (v->is(ValueType::kS) ? "string" : "binary") + " value. Key: " + key.name);
  }
  return Status::OK();
}

// Count, one condition per key, the partition key present with `=`, the other clause on the
// sort key, and value types.
Result<KeyCondition> MatchSchema(const std::vector<Clause>& clauses, const KeySchema& key,
                                 bool global_index) {
  const size_t key_count = key.sort ? 2 : 1;
  if (global_index) {
    // On a GSI, a condition on an attribute that is not one of the index's keys is refused with
    // this text (found by a conformance suite against DynamoDB; tables keep "missed key schema
    // element").
    for (const Clause& c : clauses) {
      if (c.name != key.partition.name && !(key.sort && c.name == key.sort->name)) {
        return Status::Validation("Query key condition not supported");
      }
    }
  }
  // Two clauses on one attribute come before the count (`pk = :p AND sk > :a AND sk < :b`:
  // queryKeyConditionOperands.test.ts, eu-west-2, October 2026).
  for (size_t i = 0; i < clauses.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (clauses[i].name == clauses[j].name) {
        return Invalid(kKind, "KeyConditionExpressions must only contain one condition per key");
      }
    }
  }
  if (clauses.size() > key_count) {
    return TooManyConditions(clauses.size(), key_count);
  }
  const Clause* partition = nullptr;
  const Clause* sort = nullptr;
  for (const Clause& c : clauses) (c.name == key.partition.name ? partition : sort) = &c;
  if (partition == nullptr) {
    return Status::Validation("Query condition missed key schema element: " + key.partition.name);
  }
  if (sort != nullptr && sort->name != key.sort->name) {
    return Status::Validation("Query condition missed key schema element: " + key.sort->name);
  }
  if (partition->op != SortKeyOp::kEq)
    return Status::Validation("Query key condition not supported");
  KH_RETURN_IF_ERROR(CheckKeyValues(*partition, key.partition));
  if (sort != nullptr) KH_RETURN_IF_ERROR(CheckKeyValues(*sort, *key.sort));

  KeyCondition out;
  out.partition_name = partition->name;
  out.partition_value = *partition->value;
  if (sort != nullptr) {
    out.sort_name = sort->name;
    out.op = sort->op;
    out.sort_value = *sort->value;
    if (sort->value2 != nullptr) out.sort_value2 = *sort->value2;
  }
  return out;
}

// The clauses as KeyConditionTerms, for MultiAttributeKeyCondition.
Result<KeyCondition> MatchMultiSchema(const std::vector<Clause>& clauses, const KeySchema& key) {
  std::vector<KeyConditionTerm> terms;
  for (const Clause& c : clauses) {
    KeyConditionTerm t{c.name, c.op, {*c.value}};
    if (c.value2 != nullptr) t.values.push_back(*c.value2);
    terms.push_back(std::move(t));
  }
  return MultiAttributeKeyCondition(terms, key);
}

}  // namespace

Result<KeyCondition> MultiAttributeKeyCondition(const std::vector<KeyConditionTerm>& terms,
                                                const KeySchema& key) {
  for (const KeyConditionTerm& t : terms) {
    if (!key.Has(t.name)) return Status::Validation("Query key condition not supported");
  }
  const size_t key_count = key.Attributes().size();
  if (terms.size() > key_count) {
    return TooManyConditions(terms.size(), key_count);
  }
  for (size_t i = 0; i < terms.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (terms[i].name == terms[j].name) {
        return Invalid(kKind, "KeyConditionExpressions must only contain one condition per key");
      }
    }
  }
  auto find = [&](const std::string& name) -> const KeyConditionTerm* {
    for (const KeyConditionTerm& t : terms)
      if (t.name == name) return &t;
    return nullptr;
  };
  auto check_values = [](const KeyConditionTerm& t, const KeyAttribute& a) {
    Clause c{t.name, t.op, &t.values.at(0), t.values.size() > 1 ? &t.values[1] : nullptr};
    return CheckKeyValues(c, a);
  };
  KeyCondition out;
  // Every partition attribute needs an equality. DynamoDB's texts for a missing one or another
  // operator are not recorded; these are its single-key texts.
  for (const KeyAttribute* a : key.PartitionAttributes()) {
    const KeyConditionTerm* t = find(a->name);
    if (t == nullptr) {
      return Status::Validation("Query condition missed key schema element: " + a->name);
    }
    if (t->op != SortKeyOp::kEq) return Status::Validation("Query key condition not supported");
    KH_RETURN_IF_ERROR(check_values(*t, *a));
    if (a == &key.partition) {
      out.partition_name = a->name;
      out.partition_value = t->values[0];
    } else {
      out.more_partition.emplace_back(a->name, t->values[0]);
    }
  }
  // The sort attributes: every one before the last constrained one needs an equality (DynamoDB's
  // text, recorded against AWS for a gap, a skipped first attribute, and a range condition
  // before the last; with several such attributes keyhole lists them all, comma-separated).
  const std::vector<const KeyAttribute*> sorts = key.SortAttributes();
  int last = -1;
  for (size_t i = 0; i < sorts.size(); ++i)
    if (find(sorts[i]->name) != nullptr) last = static_cast<int>(i);
  std::string unequal;
  for (int i = 0; i < last; ++i) {
    const KeyConditionTerm* t = find(sorts[i]->name);
    if (t == nullptr || t->op != SortKeyOp::kEq) {
      unequal += (unequal.empty() ? "" : ", ") + sorts[i]->name;
    }
  }
  if (!unequal.empty()) {
    return Status::Validation("RANGE key attributes " + unequal +
                              " must have equality conditions specified in the query because a "
                              "condition is present on key attribute " +
                              sorts[last]->name);
  }
  for (int i = 0; i <= last; ++i) {
    const KeyConditionTerm& t = *find(sorts[i]->name);
    KH_RETURN_IF_ERROR(check_values(t, *sorts[i]));
    if (i < last) {
      out.sort_prefix.emplace_back(t.name, t.values[0]);
      continue;
    }
    out.sort_name = t.name;
    out.op = t.op;
    out.sort_value = t.values[0];
    if (t.values.size() > 1) out.sort_value2 = t.values[1];
  }
  return out;
}

Status CheckKeyConditionShape(const Condition& c) {
  std::vector<Clause> clauses;
  return ParseClauses(c, &clauses);
}

Result<KeyCondition> ToKeyCondition(const Condition& c, const KeySchema& key, bool global_index) {
  std::vector<Clause> clauses;
  KH_RETURN_IF_ERROR(ParseClauses(c, &clauses));
  if (key.IsMultiAttribute()) return MatchMultiSchema(clauses, key);
  return MatchSchema(clauses, key, global_index);
}

}  // namespace keyhole::expr
