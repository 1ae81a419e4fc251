// PlanTransaction: BEGIN ... COMMIT statements -> TransactWriteItems / TransactGetItems
// (transaction.h).
#include <fmt/format.h>

#include <memory>
#include <utility>

#include "planner/plan_internal.h"
#include "planner/plan_transaction.h"

namespace keyhole::planner {

namespace {

using parser::StatementKind;

Status InStatement(size_t i, const Status& s) {
  if (s.code() != ErrorCode::kValidation) return s;
  return Status::Validation(
      fmt::format("Validation failed in TransactStatements[{}]: {}", i, s.message()));
}

Status InStatement(size_t i, std::string message) {
  return InStatement(i, Status::Validation(std::move(message)));
}

bool HasReturning(const parser::Statement& st) {
  if (st.kind() == StatementKind::kUpdate) {
    return st.as<parser::UpdateStatement>().returning != ReturnValues::kNone;
  }
  if (st.kind() == StatementKind::kDelete) {
    return st.as<parser::DeleteStatement>().returning != ReturnValues::kNone;
  }
  return false;
}

// EXISTS(SELECT ...) -> ConditionCheck.
Result<ConditionCheck> PlanExists(const parser::ExistsStatement& e, const SchemaSource& schemas) {
  const parser::SelectStatement& s = e.select;
  if (s.index) return Status::Validation("Operations on indices are not supported in transactions");
  KH_ASSIGN_OR_RETURN(TableSchemaPtr schema, schemas.TableSchema(s.table));
  const TableDescription& table = *schema;
  constexpr const char* kSingleRead =
      "EXISTS() must contain a single item read with additional condition";
  // `=` on every key attribute pins the item; every other conjunct (including functions of the
  // key attributes, such as attribute_exists(pk)) is the condition.
  Item key;
  std::vector<expr::Condition> rest;
  if (!s.where) return Status::Validation(kSingleRead);
  for (const expr::Condition* c : internal::AndConjuncts(*s.where)) {
    bool pinned = false;
    for (const KeyAttribute* k :
         {&table.key.partition, table.key.sort ? &*table.key.sort : nullptr}) {
      if (!k || key.count(k->name)) continue;
      std::optional<AttributeValue> v = internal::EqualityValue(*c, k->name);
      if (!v) continue;
      if (v->type() != k->type) {
        return Status::Validation(
            "Key attribute's data type should match its data type in table's schema: Key " +
            k->name);
      }
      key[k->name] = std::move(*v);
      pinned = true;
      break;
    }
    if (!pinned) rest.push_back(*c);
  }
  bool full =
      key.count(table.key.partition.name) && (!table.key.sort || key.count(table.key.sort->name));
  if (!full || rest.empty()) return Status::Validation(kSingleRead);
  ConditionCheck check;
  check.table_name = s.table;
  check.key = std::move(key);
  auto parsed = std::make_shared<expr::ParsedExpressions>();
  parsed->condition = std::make_shared<expr::Condition>(internal::AndOf(std::move(rest)));
  check.expressions.parsed = std::move(parsed);
  return check;
}

}  // namespace

Result<TransactionPlan> PlanTransaction(const std::vector<parser::Statement>& statements,
                                        const SchemaSource& schemas) {
  if (statements.empty()) {
    return Status::Validation(
        "1 validation error detected: Value '[]' at 'transactStatements' failed to satisfy "
        "constraint: Member must have length greater than or equal to 1");
  }
  if (statements.size() > 100) {
    return Status::Validation(
        "1 validation error detected: Value at 'transactStatements' failed to satisfy "
        "constraint: Member must have length less than or equal to 100");
  }
  const bool reads = statements[0].kind() == StatementKind::kSelect;
  TransactWriteItemsRequest writes;
  writes.return_consumed_capacity = ReturnConsumedCapacity::kIndexes;
  TransactGetItemsRequest gets;
  gets.return_consumed_capacity = ReturnConsumedCapacity::kIndexes;
  TransactionPlan out;
  for (size_t i = 0; i < statements.size(); ++i) {
    const parser::Statement& st = statements[i];
    StatementKind kind = st.kind();
    bool dml = kind == StatementKind::kSelect || kind == StatementKind::kInsert ||
               kind == StatementKind::kUpdate || kind == StatementKind::kDelete ||
               kind == StatementKind::kExists;
    if (!dml || st.scan || st.explain) {
      return InStatement(i, fmt::format("{}{} cannot be part of a transaction",
                                        st.explain ? "EXPLAIN "
                                        : st.scan  ? "SCAN "
                                                   : "",
                                        parser::StatementKindName(kind)));
    }
    if ((kind == StatementKind::kSelect) != reads) {
      return InStatement(i,
                         "a transaction's statements must be all reads (SELECT) or all writes "
                         "(INSERT, UPDATE, DELETE, EXISTS)");
    }
    if (HasReturning(st)) {
      return Status::Validation("RETURNING clause is not supported in ExecuteTransaction.");
    }
    if (kind == StatementKind::kExists) {
      Result<ConditionCheck> check = PlanExists(st.as<parser::ExistsStatement>(), schemas);
      if (!check.ok()) return InStatement(i, check.status());
      TransactWriteItem item;
      item.condition_check = std::move(*check);
      writes.transact_items.push_back(std::move(item));
      continue;
    }
    if (kind == StatementKind::kSelect && st.as<parser::SelectStatement>().index) {
      return Status::Validation("Reads on indices are not supported within transactions.");
    }
    Result<Plan> plan = PlanStatement(st, schemas);
    if (!plan.ok()) return InStatement(i, plan.status());
    const Operation& op = plan->operations.at(0);
    if (reads) {
      const auto* get = std::get_if<GetItemRequest>(&op);
      if (!get || plan->operations.size() != 1) {
        return InStatement(i,
                           "Select statements within ExecuteTransaction must specify the primary "
                           "key in the where clause.");
      }
      TransactGetItem item;
      item.get = *get;
      item.get.return_consumed_capacity = ReturnConsumedCapacity::kNone;
      if (plan->leaf_projection) {
        // TransactGetItems returns items as GetItem projects them (nothing reads leaves out of
        // them): the statement's own paths, not the whole attributes Execute would read from.
        auto parsed = std::make_shared<expr::ParsedExpressions>();
        auto projection = std::make_shared<expr::ProjectionExpression>();
        projection->paths = *plan->leaf_projection;
        parsed->projection = std::move(projection);
        item.get.expressions.parsed = std::move(parsed);
      }
      gets.transact_items.push_back(std::move(item));
      continue;
    }
    TransactWriteItem item;
    if (const auto* put = std::get_if<PutItemRequest>(&op)) {
      item.put = *put;
      item.put->return_consumed_capacity = ReturnConsumedCapacity::kNone;
    } else if (const auto* update = std::get_if<UpdateItemRequest>(&op)) {
      item.update = *update;
      item.update->return_consumed_capacity = ReturnConsumedCapacity::kNone;
    } else {
      item.delete_ = std::get<DeleteItemRequest>(op);
      item.delete_->return_consumed_capacity = ReturnConsumedCapacity::kNone;
    }
    writes.transact_items.push_back(std::move(item));
  }
  if (reads) {
    out.request = std::move(gets);
  } else {
    out.request = std::move(writes);
  }
  return out;
}

}  // namespace keyhole::planner
