// INSERT / UPDATE / DELETE -> PutItem / UpdateItem / DeleteItem (reference §2.7-2.9).
#include <fmt/format.h>

#include <memory>
#include <type_traits>
#include <utility>
#include <variant>

#include "core/evaluate.h"
#include "planner/plan_internal.h"

namespace keyhole::planner::internal {

namespace {

constexpr const char* kMandatoryEquality =
    "Where clause does not contain a mandatory equality on all key attributes";

Status TypeMismatch(const KeyAttribute& key, const AttributeValue& given, bool in_map = false) {
  return Status::Validation(
             "Key attribute's data type should match its data type in table's schema: Key " +
             key.name)
      .WithHint(KeyTypeHint(key, given, in_map));
}

// Whether `c` is a predicate directly on the top-level attribute `name` (its first operand).
bool PredicateOn(const expr::Condition& c, const std::string& name) {
  if (c.kind == expr::ConditionKind::kNot && c.children.size() == 1) {
    return PredicateOn(c.children[0], name);
  }
  // attribute_exists(pk) and attribute_not_exists(pk) test the item, not the key: DynamoDB
  // takes them as the write's condition (whereFunctions.test.ts, eu-west-2, October 2026).
  if (c.kind == expr::ConditionKind::kFunction &&
      (c.function == "attribute_exists" || c.function == "attribute_not_exists")) {
    return false;
  }
  if (c.operands.empty()) return false;
  for (const auto& o : c.operands) {
    if (TopName(o) == name) return true;
  }
  return false;
}

Plan WritePlan(const parser::Statement& st, parser::StatementKind kind, const std::string& table,
               const char* operation) {
  Plan plan;
  plan.kind = kind;
  plan.operation_name = operation;
  plan.table = table;
  plan.explain = st.explain;
  plan.analyze = st.analyze;
  return plan;
}

// SCAN UPDATE / SCAN DELETE: a Scan returning the keys of matching items, and `write` (its
// condition set here) as the per-item template.
Plan ScanWritePlan(const parser::Statement& st, parser::StatementKind kind,
                   const std::string& table_name, const TableDescription& table,
                   const std::optional<expr::Condition>& where, bool add_exists, Operation write,
                   const char* operation) {
  Plan plan = WritePlan(st, kind, table_name, operation);
  plan.partition_key_name = table.key.partition.name;
  if (table.key.sort) plan.sort_key_name = table.key.sort->name;
  ScanRequest scan;
  scan.table_name = table_name;
  scan.return_consumed_capacity = ReturnConsumedCapacity::kIndexes;
  auto sp = std::make_shared<expr::ParsedExpressions>();
  auto proj = std::make_shared<expr::ProjectionExpression>();
  for (const auto& name : {plan.partition_key_name, plan.sort_key_name}) {
    if (name.empty()) continue;
    expr::Path path;
    path.elements.push_back(expr::PathElement{name, 0, false});
    proj->paths.push_back(std::move(path));
  }
  sp->projection = proj;
  if (where) sp->filter = std::make_shared<expr::Condition>(*where);
  scan.expressions.parsed = sp;
  plan.operations.push_back(std::move(scan));

  std::vector<expr::Condition> guard;
  if (where) guard.push_back(*where);
  if (add_exists) guard.push_back(PathFunction("attribute_exists", table.key.partition.name));
  std::visit(
      [&](auto& w) {
        using T = std::decay_t<decltype(w)>;
        if constexpr (std::is_same_v<T, UpdateItemRequest> ||
                      std::is_same_v<T, DeleteItemRequest>) {
          auto p = w.expressions.parsed
                       ? std::make_shared<expr::ParsedExpressions>(*w.expressions.parsed)
                       : std::make_shared<expr::ParsedExpressions>();
          if (!guard.empty()) {
            p->condition = std::make_shared<expr::Condition>(AndOf(std::move(guard)));
          }
          if (p->condition || p->update) w.expressions.parsed = p;
        }
      },
      write);
  plan.per_item_write = std::move(write);
  return plan;
}

}  // namespace

namespace {

Result<KeyedWhere> SplitKeyedWhereImpl(const std::optional<expr::Condition>& where,
                                       const KeySchema& schema);

}  // namespace

Result<KeyedWhere> SplitKeyedWhere(const std::optional<expr::Condition>& where,
                                   const KeySchema& schema) {
  Result<KeyedWhere> out = SplitKeyedWhereImpl(where, schema);
  if (out.ok() || !out.status().hint().empty()) return out;
  // `PK = "USER#1"` fails one rule or another; the hint says what was meant.
  std::vector<std::string> names = {schema.partition.name};
  if (schema.sort) names.push_back(schema.sort->name);
  std::optional<std::string> quoted = PathForValue(where, names);
  if (!quoted) return out;
  Status status = out.status();
  return status.WithHint(*quoted);
}

namespace {

Result<KeyedWhere> SplitKeyedWhereImpl(const std::optional<expr::Condition>& where,
                                       const KeySchema& schema) {
  if (!where) return Status::Validation(kMandatoryEquality);
  std::vector<const KeyAttribute*> keys = {&schema.partition};
  if (schema.sort) keys.push_back(&*schema.sort);
  KeyedWhere out;
  bool sort_other = false;  // a non-equality predicate on the sort key
  for (const auto* c : AndConjuncts(*where)) {
    bool used = false;
    for (const auto* k : keys) {
      auto v = EqualityValue(*c, k->name);
      if (!v) continue;
      if (out.key.count(k->name)) {
        return Status::Validation("Multiple conditions on same key " + k->name +
                                  ". Only single item Update/Insert/Delete are supported");
      }
      if (!v->IsScalarKeyType()) {
        return Status::Validation("Key value must be of type S, N, or B. Key name: " + k->name +
                                  ", Key type: " + std::string(TypeName(v->type())));
      }
      if (v->type() != k->type) return TypeMismatch(*k, *v);
      out.key[k->name] = *v;
      used = true;
      break;
    }
    if (used) continue;
    if (PredicateOn(*c, schema.partition.name)) {
      return Status::Validation("Only single equality condition should be present on hash key " +
                                schema.partition.name);
    }
    if (schema.sort && PredicateOn(*c, schema.sort->name)) sort_other = true;
    out.rest.push_back(*c);
  }
  for (const auto* k : keys) {
    if (out.key.count(k->name)) continue;
    Status missing = Status::Validation(kMandatoryEquality);
    std::vector<std::string> names;
    std::string all;
    for (const auto* key : keys) {
      names.push_back(key->name);
      all += fmt::format("{}{} = <value>", all.empty() ? "" : " AND ",
                         parser::NameInStatement(key->name));
    }
    std::optional<std::string> quoted = PathForValue(where, names);
    missing.WithHint(quoted ? *quoted
                            : fmt::format("a single-item UPDATE or DELETE names the whole primary "
                                          "key: WHERE {} (SCAN UPDATE / SCAN DELETE write every "
                                          "item that matches)",
                                          all));
    return missing;
  }
  if (sort_other) {
    return Status::Validation("Multiple conditions on same key " + schema.sort->name +
                              ". Only single item Update/Insert/Delete are supported");
  }
  return out;
}

}  // namespace

Result<Plan> PlanInsert(const parser::InsertStatement& s, const TableDescription& table) {
  std::vector<const KeyAttribute*> keys = {&table.key.partition};
  if (table.key.sort) keys.push_back(&*table.key.sort);
  for (const auto* k : keys) {
    auto it = s.item.find(k->name);
    if (it == s.item.end()) {
      return Status::Validation("Key attribute should be present in the item: Key " + k->name);
    }
    if (it->second.type() != k->type) return TypeMismatch(*k, it->second, /*in_map=*/true);
  }
  PutItemRequest r;
  r.table_name = s.table;
  r.item = s.item;
  r.return_consumed_capacity = ReturnConsumedCapacity::kIndexes;
  auto p = std::make_shared<expr::ParsedExpressions>();
  p->condition = std::make_shared<expr::Condition>(
      PathFunction("attribute_not_exists", table.key.partition.name));
  r.expressions.parsed = p;
  Plan plan;
  plan.kind = parser::StatementKind::kInsert;
  plan.operation_name = "PutItem";
  plan.table = s.table;
  plan.duplicate_on_condition_failure = true;
  plan.operations.push_back(std::move(r));
  return plan;
}

Result<Plan> PlanUpdate(const parser::Statement& st, const TableDescription& table) {
  const auto& s = st.as<parser::UpdateStatement>();
  if (st.scan) {
    KH_RETURN_IF_ERROR(expr::ValidateUpdate(s.update, table.key));
    UpdateItemRequest w;
    w.table_name = s.table;
    w.return_values = s.returning;
    w.return_consumed_capacity = ReturnConsumedCapacity::kIndexes;
    auto p = std::make_shared<expr::ParsedExpressions>();
    p->update = std::make_shared<expr::UpdateExpression>(s.update);
    w.expressions.parsed = p;
    return ScanWritePlan(st, parser::StatementKind::kUpdate, s.table, table, s.where, true,
                         std::move(w), "UpdateItem");
  }
  KH_ASSIGN_OR_RETURN(KeyedWhere kw, SplitKeyedWhere(s.where, table.key));
  if (Status st = expr::ValidateUpdate(s.update, table.key); !st.ok()) {
    if (st.message().find("This attribute is part of the key") != std::string::npos) {
      st.WithHint(KeyUpdateHint(s, table, kw.key));
    }
    return st;
  }
  UpdateItemRequest r;
  r.table_name = s.table;
  r.key = std::move(kw.key);
  r.return_values = s.returning;
  r.return_consumed_capacity = ReturnConsumedCapacity::kIndexes;
  auto p = std::make_shared<expr::ParsedExpressions>();
  p->update = std::make_shared<expr::UpdateExpression>(s.update);
  kw.rest.push_back(PathFunction("attribute_exists", table.key.partition.name));
  p->condition = std::make_shared<expr::Condition>(AndOf(std::move(kw.rest)));
  r.expressions.parsed = p;
  Plan plan = WritePlan(st, parser::StatementKind::kUpdate, s.table, "UpdateItem");
  plan.operations.push_back(std::move(r));
  return plan;
}

Result<Plan> PlanDelete(const parser::Statement& st, const TableDescription& table) {
  const auto& s = st.as<parser::DeleteStatement>();
  if (st.scan) {
    DeleteItemRequest w;
    w.table_name = s.table;
    w.return_values = s.returning;
    w.return_consumed_capacity = ReturnConsumedCapacity::kIndexes;
    return ScanWritePlan(st, parser::StatementKind::kDelete, s.table, table, s.where, false,
                         std::move(w), "DeleteItem");
  }
  KH_ASSIGN_OR_RETURN(KeyedWhere kw, SplitKeyedWhere(s.where, table.key));
  DeleteItemRequest r;
  r.table_name = s.table;
  r.key = std::move(kw.key);
  r.return_values = s.returning;
  r.return_consumed_capacity = ReturnConsumedCapacity::kIndexes;
  if (!kw.rest.empty()) {
    auto p = std::make_shared<expr::ParsedExpressions>();
    p->condition = std::make_shared<expr::Condition>(AndOf(std::move(kw.rest)));
    r.expressions.parsed = p;
  }
  Plan plan = WritePlan(st, parser::StatementKind::kDelete, s.table, "DeleteItem");
  plan.operations.push_back(std::move(r));
  return plan;
}

}  // namespace keyhole::planner::internal
