// ExecuteStatement, BatchExecuteStatement and ExecuteTransaction as API operations (CALL
// ExecuteStatement {...}, or `ExecuteStatement {...}`), so that examples written for
// `aws dynamodb execute-statement` run as they are. The statements go through the planner, so
// keyhole's key-addressability rule holds here too: a SELECT that would scan is refused unless
// its text says SCAN (DynamoDB would scan silently).
//
// NextToken is keyhole's own opaque token: base64 of {"h": <fingerprint of the statement and
// parameters>, "o": <operation>, "k": <LastEvaluatedKey>}. A token that does not decode is
// "Invalid NextToken"; one made for another statement is "NextToken does not match request"
// (reference §2.5).
#include <fmt/format.h>

#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "api/api_json.h"
#include "core/ddb_json.h"
#include "api/partiql_api.h"
#include "parser/partiql.h"
#include "planner/plan.h"
#include "planner/transaction.h"
#include "shell/api_call.h"
#include "shell/session_state.h"

namespace keyhole::shell {

namespace {

using parser::StatementKind;

bool IsDml(StatementKind k) {
  return k == StatementKind::kSelect || k == StatementKind::kInsert ||
         k == StatementKind::kUpdate || k == StatementKind::kDelete || k == StatementKind::kExists;
}

// Parses a statement of a PartiQL operation: PartiQL DML only (keyhole's own statements and
// EXPLAIN are the shell's, not the API's).
Result<parser::Statement> ParseApiStatement(const std::string& text,
                                            const std::vector<AttributeValue>& parameters) {
  parser::ParseResult parsed = parser::ParseStatement(text, parameters);
  if (!parsed.ok()) return parsed.error().status;
  parser::Statement st = parsed.statement();
  if (!IsDml(st.kind()) || st.explain) {
    return Status::Validation(fmt::format(
        "{} is a keyhole statement, not PartiQL: run it directly instead of through the API",
        st.explain ? "EXPLAIN" : parser::StatementKindName(st.kind())));
  }
  return st;
}

// ConsistentRead on the plan's reads; ReturnValuesOnConditionCheckFailure on its writes.
void ApplyOptions(planner::Plan* plan, bool consistent, ReturnValues on_failure) {
  for (planner::Operation& op : plan->operations) {
    std::visit(
        [&](auto& r) {
          using T = std::decay_t<decltype(r)>;
          if constexpr (std::is_same_v<T, GetItemRequest> || std::is_same_v<T, QueryRequest> ||
                        std::is_same_v<T, ScanRequest>) {
            r.consistent_read = r.consistent_read || consistent;
          } else {
            r.return_values_on_condition_check_failure = on_failure;
          }
        },
        op);
  }
}

std::string Fingerprint(const ExecuteStatementRequest& r) {
  std::string text = r.statement;
  for (const AttributeValue& p : r.parameters) text += "\x1f" + ValueToJsonText(p);
  uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a: stable across builds, unlike std::hash
  for (unsigned char c : text) h = (h ^ c) * 0x100000001b3ULL;
  return fmt::format("{:016x}", h);
}

std::string EncodeNextToken(const std::string& fingerprint, const planner::Cursor& c) {
  json::Value token = json::Value::MakeObject();
  token.Add("h", json::Value::String(fingerprint));
  token.Add("o", json::Value::Int(static_cast<int64_t>(c.operation)));
  if (c.exclusive_start_key) token.Add("k", ItemToJson(*c.exclusive_start_key));
  return Base64Encode(json::Write(token));
}

Result<planner::Cursor> DecodeNextToken(const std::string& token, const std::string& fingerprint) {
  const Status invalid = Status::Validation("Invalid NextToken");
  std::string text;
  if (!Base64Decode(token, &text)) return invalid;
  Result<json::Value> v = json::Parse(text, 64);
  if (!v.ok() || !v->IsObject()) return invalid;
  const json::Value* h = v->Find("h");
  const json::Value* o = v->Find("o");
  const json::Value* k = v->Find("k");
  if (!h || !h->IsString() || !o || !o->IsNumber()) return invalid;
  if (h->str() != fingerprint) return Status::Validation("NextToken does not match request");
  planner::Cursor c;
  c.operation = std::strtoull(o->number_text().c_str(), nullptr, 10);
  if (k) {
    Result<Item> key = ItemFromJson(*k);
    if (!key.ok()) return invalid;
    c.exclusive_start_key = std::move(*key);
  }
  return c;
}

std::optional<ConsumedCapacity> Capacity(ReturnConsumedCapacity rcc, const std::string& table,
                                         double units) {
  if (rcc == ReturnConsumedCapacity::kNone) return std::nullopt;
  ConsumedCapacity c;
  c.table_name = table;
  c.total.capacity_units = units;
  return c;
}

Result<ExecuteStatementResponse> ExecuteStatement(storage::Database& db,
                                                  const ExecuteStatementRequest& r) {
  KH_ASSIGN_OR_RETURN(parser::Statement st, ParseApiStatement(r.statement, r.parameters));
  Schemas schemas(db);
  KH_ASSIGN_OR_RETURN(planner::Plan plan, planner::PlanStatement(st, schemas));
  ApplyOptions(&plan, r.consistent_read, r.return_values_on_condition_check_failure);
  std::string fingerprint = Fingerprint(r);
  std::optional<planner::Cursor> resume;
  if (r.next_token) {
    KH_ASSIGN_OR_RETURN(resume, DecodeNextToken(*r.next_token, fingerprint));
    if (resume->operation >= plan.operations.size()) return Status::Validation("Invalid NextToken");
  }
  Engine engine(db);
  planner::ExecuteOptions options;
  options.resume = resume ? &*resume : nullptr;
  options.limit = r.limit.value_or(0);
  options.cancel = &g_interrupted;
  KH_ASSIGN_OR_RETURN(planner::ExecuteResult result, planner::Execute(plan, engine, options));
  ExecuteStatementResponse out;
  out.items = std::move(result.items);
  if (result.next) {
    out.next_token = EncodeNextToken(fingerprint, *result.next);
    out.last_evaluated_key = result.last_evaluated_key;
  }
  out.consumed_capacity = Capacity(r.return_consumed_capacity, plan.table, result.capacity_units);
  return out;
}

// The Code of a BatchStatementError for `s`: DynamoDB's exception name without "Exception".
std::string ErrorCodeOf(const Status& s) {
  if (s.code() == ErrorCode::kValidation) return "ValidationError";
  std::string name(ErrorName(s.code()));
  const std::string suffix = "Exception";
  if (name.size() > suffix.size() && name.ends_with(suffix))
    name.resize(name.size() - suffix.size());
  return name;
}

Result<BatchExecuteStatementResponse> BatchExecuteStatement(storage::Database& db,
                                                            const BatchExecuteStatementRequest& r) {
  std::vector<Result<parser::Statement>> parsed;
  for (const PartiqlStatement& s : r.statements) {
    parsed.push_back(ParseApiStatement(s.statement, s.parameters));
  }
  return ExecuteBatch(db, parsed, r.statements, r.return_consumed_capacity);
}

Result<ExecuteTransactionResponse> ExecuteTransaction(storage::Database& db,
                                                      const ExecuteTransactionRequest& r) {
  std::vector<parser::Statement> statements;
  for (size_t i = 0; i < r.transact_statements.size(); ++i) {
    const PartiqlStatement& s = r.transact_statements[i];
    Result<parser::Statement> st = ParseApiStatement(s.statement, s.parameters);
    if (!st.ok()) {
      return Status::Validation(
          fmt::format("Validation failed in TransactStatements[{}]: {}", i, st.status().message()));
    }
    statements.push_back(std::move(*st));
  }
  Schemas schemas(db);
  KH_ASSIGN_OR_RETURN(planner::TransactionPlan plan, planner::PlanTransaction(statements, schemas));
  ExecuteTransactionResponse out;
  if (auto* gets = std::get_if<TransactGetItemsRequest>(&plan.request)) {
    KH_ASSIGN_OR_RETURN(TransactGetItemsResponse resp, db.TransactGetItems(*gets));
    out.responses = std::move(resp.responses);
    if (r.return_consumed_capacity != ReturnConsumedCapacity::kNone) {
      out.consumed_capacity = std::move(resp.consumed_capacity);
    }
    return out;
  }
  auto& writes = std::get<TransactWriteItemsRequest>(plan.request);
  writes.client_request_token = r.client_request_token;
  for (size_t i = 0; i < writes.transact_items.size(); ++i) {
    ReturnValues on_failure = r.transact_statements[i].return_values_on_condition_check_failure;
    TransactWriteItem& w = writes.transact_items[i];
    if (w.put) w.put->return_values_on_condition_check_failure = on_failure;
    if (w.update) w.update->return_values_on_condition_check_failure = on_failure;
    if (w.delete_) w.delete_->return_values_on_condition_check_failure = on_failure;
    if (w.condition_check) w.condition_check->return_values_on_condition_check_failure = on_failure;
  }
  KH_ASSIGN_OR_RETURN(TransactWriteItemsResponse resp, db.TransactWriteItems(writes));
  if (r.return_consumed_capacity != ReturnConsumedCapacity::kNone) {
    out.consumed_capacity = std::move(resp.consumed_capacity);
  }
  return out;
}

}  // namespace

Result<BatchExecuteStatementResponse> ExecuteBatch(
    storage::Database& db, const std::vector<Result<parser::Statement>>& statements,
    const std::vector<PartiqlStatement>& options, ReturnConsumedCapacity return_consumed_capacity) {
  // All reads or all writes, checked before anything runs.
  std::optional<bool> reads;
  for (const Result<parser::Statement>& st : statements) {
    if (!st.ok()) continue;
    bool read = st->kind() == StatementKind::kSelect;
    if (reads && *reads != read) {
      return Status::Validation(
          "BatchExecuteStatement takes all reads (SELECT) or all writes (INSERT, UPDATE, "
          "DELETE), not both");
    }
    reads = read;
  }
  BatchExecuteStatementResponse out;
  Schemas schemas(db);
  Engine engine(db);
  std::map<std::string, double> units;  // per table
  for (size_t i = 0; i < statements.size(); ++i) {
    const Result<parser::Statement>& st = statements[i];
    BatchStatementResult result;
    auto fail = [&](const Status& status) {
      result.error_code = ErrorCodeOf(status);
      result.error_message = status.message();
      if (status.item()) result.error_item = *status.item();
    };
    if (!st.ok()) {
      fail(st.status());
      out.responses.push_back(std::move(result));
      continue;
    }
    bool read = st->kind() == StatementKind::kSelect;
    Result<planner::Plan> plan = planner::PlanStatement(*st, schemas);
    if (plan.ok() && read &&
        (plan->operations.size() != 1 ||
         !std::holds_alternative<GetItemRequest>(plan->operations[0]))) {
      plan = Status::Validation(
          "Select statements within BatchExecuteStatement must specify the primary key in the "
          "where clause.");
    }
    if (plan.ok() && (st->scan || st->kind() == StatementKind::kExists)) {
      plan = Status::Validation(fmt::format("{}{} cannot be part of BatchExecuteStatement",
                                            st->scan ? "SCAN " : "",
                                            parser::StatementKindName(st->kind())));
    }
    if (!plan.ok()) {
      fail(plan.status());
      out.responses.push_back(std::move(result));
      continue;
    }
    const PartiqlStatement* o = i < options.size() ? &options[i] : nullptr;
    ApplyOptions(&*plan, o && o->consistent_read,
                 o ? o->return_values_on_condition_check_failure : ReturnValues::kNone);
    Result<planner::ExecuteResult> done = planner::Execute(*plan, engine);
    if (!done.ok()) {
      fail(done.status());
    } else {
      units[plan->table] += done->capacity_units;
      if (read) {
        result.table_name = plan->table;
        if (!done->items.empty()) result.item = std::move(done->items[0]);
      }
    }
    out.responses.push_back(std::move(result));
  }
  if (return_consumed_capacity != ReturnConsumedCapacity::kNone) {
    for (const auto& [table, u] : units) {
      out.consumed_capacity.push_back(*Capacity(return_consumed_capacity, table, u));
    }
  }
  return out;
}

Result<json::Value> CallPartiqlOperation(storage::Database& db, std::string_view op,
                                         const json::Value& body) {
  if (op == "ExecuteStatement") {
    KH_ASSIGN_OR_RETURN(ExecuteStatementRequest r, ExecuteStatementRequestFromJson(body));
    KH_ASSIGN_OR_RETURN(ExecuteStatementResponse resp, ExecuteStatement(db, r));
    return ExecuteStatementResponseToJson(resp);
  }
  if (op == "BatchExecuteStatement") {
    KH_ASSIGN_OR_RETURN(BatchExecuteStatementRequest r, BatchExecuteStatementRequestFromJson(body));
    KH_ASSIGN_OR_RETURN(BatchExecuteStatementResponse resp, BatchExecuteStatement(db, r));
    return BatchExecuteStatementResponseToJson(resp);
  }
  KH_ASSIGN_OR_RETURN(ExecuteTransactionRequest r, ExecuteTransactionRequestFromJson(body));
  KH_ASSIGN_OR_RETURN(ExecuteTransactionResponse resp, ExecuteTransaction(db, r));
  return ExecuteTransactionResponseToJson(resp);
}

}  // namespace keyhole::shell
