// api::Service (service.h): the operation dispatcher and DynamoDB's PartiQL operations.
#include "api/service.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <variant>
#include <vector>

#include "api/api_json.h"
#include "api/api_json_decode.h"
#include "api/connection.h"
#include "core/ddb_json.h"
#include "parser/expression_parser.h"

namespace keyhole::api {

namespace {

// A single-item write's errors from parsing its expressions (the engine's, after the decoder's)
// in DynamoDB's "1 validation error detected: " envelope where its current layer puts them: the
// ConditionExpression's own problems and the expression maps' (the Parity Suite's putItem,
// updateItem and deleteItem envelope captures, October 2026). The UpdateExpression's and the
// unused-placeholder errors stay bare, and so does a request read in the older form (api_json
// Reading: no `map_member`, or nested 128 JSON levels or more).
Result<json::Value> InWriteEnvelope(const json::Value& body, std::string_view map_member,
                                    Result<json::Value> result) {
  if (result.ok() || !result.status().IsValidation()) return result;
  const std::string& m = result.status().message();
  constexpr std::string_view kEnveloped[] = {"Invalid ConditionExpression: ",
                                             "ExpressionAttributeNames must not be empty",
                                             "ExpressionAttributeValues must not be empty",
                                             "ExpressionAttributeNames contains invalid",
                                             "ExpressionAttributeValues contains invalid",
                                             "ExpressionAttributeNames can only be",
                                             "ExpressionAttributeValues can only be"};
  if (std::none_of(std::begin(kEnveloped), std::end(kEnveloped),
                   [&](std::string_view p) { return m.starts_with(p); })) {
    return result;
  }
  const json::Value* map = body.IsObject() ? body.Find(map_member) : nullptr;
  if (!map || map->IsNull() || api_json::NestedDeeperThan(body, 127)) return result;
  return api_json::Enveloped(result.status());
}

// The schemas of the PartiQL operations: a missing table is DynamoDB's bare "Requested
// resource not found" there (partiqlGrammar.test.ts, October 2026), where the control plane
// names it.
class PartiqlSchemas : public planner::SchemaSource {
 public:
  explicit PartiqlSchemas(Backend& backend) : backend_(backend) {}
  Result<TableSchemaPtr> TableSchema(const std::string& name) const override {
    Result<TableSchemaPtr> t = backend_.TableSchema(name);
    if (!t.ok() && t.status().code() == ErrorCode::kResourceNotFound) {
      return Status::NotFound("Requested resource not found");
    }
    return t;
  }

 private:
  Backend& backend_;
};

using parser::StatementKind;

bool IsDml(StatementKind k) {
  return k == StatementKind::kSelect || k == StatementKind::kInsert ||
         k == StatementKind::kUpdate || k == StatementKind::kDelete || k == StatementKind::kExists;
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

// DynamoDB's PartiQL does not read a GSI whose key has several HASH or several RANGE attributes
// (text recorded against AWS, October 2026: it names tables but follows the index; it comes
// after the parse and ahead of every planning check, and in a batch fails only its statement).
// keyhole's shell language reads such an index with a Query; ExecuteStatement does as DynamoDB.
Status RefuseMultiAttributeIndexRead(const parser::Statement& st,
                                     const planner::SchemaSource& schemas) {
  if (st.kind() != StatementKind::kSelect) return Status::OK();
  const auto& select = st.as<parser::SelectStatement>();
  if (!select.index) return Status::OK();
  Result<TableSchemaPtr> table = schemas.TableSchema(select.table);
  if (!table.ok()) return Status::OK();  // the planner reports it
  const IndexDescription* index = (*table)->FindIndex(*select.index);
  if (index == nullptr || !index->key.IsMultiAttribute()) return Status::OK();
  return Status::Validation(
      "PartiQL statements cannot be executed on tables with multi-attribute HASH keys or "
      "multi-attribute RANGE keys.");
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

// The Code of a BatchStatementError for `s`: DynamoDB's exception name without "Exception".
std::string ErrorCodeOf(const Status& s) {
  if (s.code() == ErrorCode::kValidation) return "ValidationError";
  std::string name(s.name());
  const std::string suffix = "Exception";
  if (name.size() > suffix.size() && name.ends_with(suffix))
    name.resize(name.size() - suffix.size());
  return name;
}

}  // namespace

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

std::span<const std::string_view> Service::Operations() {
  static constexpr std::string_view kOperations[] = {
#define KH_BACKEND_OPERATION(Name) #Name,
#define KH_PARTIQL_OPERATION(Name) #Name,
#define KH_CONTROL_OPERATION(Name) #Name,
#include "core/operations.def"
  };
  return kOperations;
}

bool Service::IsOperation(std::string_view name) {
  // Operation names are CamelCase: a word with no lowercase letter (a statement's SELECT, asked
  // by the shell before every statement) is none, without hashing it.
  if (name.find_first_of("abcdefghijklmnopqrstuvwxyz") == std::string_view::npos) return false;
  return FindHandler(name) != nullptr;
}

template <typename Request, typename Response, auto Decode, auto Execute, auto Encode>
Result<json::Value> Service::CallBackend(std::string_view, const json::Value& body,
                                         const CallContext&) {
  auto run = [&]() -> Result<json::Value> {
    KH_ASSIGN_OR_RETURN(Request request, Decode(body));
    if constexpr (std::is_same_v<Request, QueryRequest>) {
      // The legacy KeyConditions, bound to the table's key schema.
      if (!request.key_conditions.empty()) {
        KH_ASSIGN_OR_RETURN(TableSchemaPtr t, backend_.TableSchema(request.table_name));
        KH_RETURN_IF_ERROR(BindKeyConditions(*t, &request));
      }
    }
    KH_ASSIGN_OR_RETURN(Response response, (backend_.*Execute)(request));
    if constexpr (std::is_same_v<Request, ScanRequest>) {
      if (options_.scans) ObserveScan(request, response.scanned_count);
    }
    if constexpr (std::is_same_v<Response, ReadResponse>) {
      return Encode(response, request.select);  // Count, or the items
    } else {
      return Encode(response);
    }
  };
  // The single-item writes' expression errors, in DynamoDB's envelope.
  if constexpr (std::is_same_v<Request, PutItemRequest>) {
    return InWriteEnvelope(body, "Item", run());
  } else if constexpr (std::is_same_v<Request, DeleteItemRequest> ||
                       std::is_same_v<Request, UpdateItemRequest>) {
    return InWriteEnvelope(body, "Key", run());
  } else {
    return run();
  }
}

template <typename Request, typename Response, auto Decode, auto Execute, auto Encode>
Result<json::Value> Service::CallPartiql(std::string_view, const json::Value& body,
                                         const CallContext& context) {
  KH_ASSIGN_OR_RETURN(Request request, Decode(body));
  KH_ASSIGN_OR_RETURN(Response response, (this->*Execute)(request, context));
  return Encode(response);
}

Result<json::Value> Service::CallControlPlane(std::string_view op, const json::Value& body,
                                              const CallContext& context) {
  return CallControl(op, body, backend_, context);
}

const Service::Handler* Service::FindHandler(std::string_view op) {
  static const std::unordered_map<std::string_view, Handler> kHandlers = {
#define KH_BACKEND_OPERATION(Name)                                                     \
  {#Name, &Service::CallBackend<Name##Request, Name##Response, &Name##RequestFromJson, \
                                &Backend::Name, &Name##ResponseToJson>},
#define KH_PARTIQL_OPERATION(Name)                                                     \
  {#Name, &Service::CallPartiql<Name##Request, Name##Response, &Name##RequestFromJson, \
                                &Service::Name, &Name##ResponseToJson>},
#define KH_CONTROL_OPERATION(Name) {#Name, &Service::CallControlPlane},
#include "core/operations.def"
  };
  auto found = kHandlers.find(op);
  return found == kHandlers.end() ? nullptr : &found->second;
}

Result<json::Value> Service::Call(std::string_view op, const json::Value& body,
                                  const CallContext& context) {
  const Handler* handler = FindHandler(op);
  if (!handler) return Status::Validation(fmt::format("Unknown operation: {}", op));
  std::optional<api_json::UnknownMembersIgnored> lenient;
  if (context.ignore_unknown_members) lenient.emplace();
  return (this->**handler)(op, body, context);
}

void Service::ObserveScan(const ScanRequest& r, int64_t scanned_count) {
  std::string statement = fmt::format("Scan \"{}\"", r.table_name);
  if (r.index_name) statement += fmt::format(".\"{}\"", *r.index_name);
  const expr::ExpressionInput& in = r.expressions;
  if (in.filter) statement += " FilterExpression: " + *in.filter;
  // What would serve it: the advice for its filter, resolved against its placeholders (a
  // filter that does not parse, or a legacy ScanFilter, is advised on as if it had none).
  std::optional<expr::Condition> filter;
  if (in.filter) {
    parser::Placeholders placeholders{in.names ? &*in.names : nullptr,
                                      in.values ? &*in.values : nullptr};
    Result<expr::Condition> c =
        parser::ParseCondition(*in.filter, expr::Kind::kFilter, placeholders, nullptr);
    if (c.ok()) filter = std::move(*c);
  } else if (in.parsed && in.parsed->filter) {
    filter = *in.parsed->filter;
  }
  std::optional<planner::ScanAdvice> advice;
  if (Result<TableSchemaPtr> t = backend_.TableSchema(r.table_name); t.ok()) {
    advice = planner::AdviseScan(**t, r.index_name, filter);
  }
  ScanEvent event;
  event.operation = "Scan";
  event.statement = statement;
  event.table = r.table_name;
  if (r.index_name) event.index = *r.index_name;
  event.advice = advice ? &*advice : nullptr;
  event.scanned_count = scanned_count;
  options_.scans->Scanned(event);
}

Result<ExecuteStatementResponse> Service::ExecuteStatement(const ExecuteStatementRequest& r,
                                                           const CallContext& context) {
  KH_ASSIGN_OR_RETURN(parser::Statement st, ParseApiStatement(r.statement, r.parameters));
  PartiqlSchemas schemas(backend_);
  KH_RETURN_IF_ERROR(RefuseMultiAttributeIndexRead(st, schemas));
  // The statement runs on a connection of its own, as the shell's do (api/connection.h), with
  // nothing added for people and DynamoDB's paging: Limit, and NextToken's cursor.
  ConnectionOptions connection_options;
  connection_options.plan.scan_unpinned_selects = options_.scan_unpinned_selects;
  connection_options.explain = false;
  connection_options.page_size = r.limit.value_or(0);
  connection_options.cancel = context.cancel;
  Connection connection(backend_, connection_options);
  Result<planner::Plan> planned = connection.Plan(st);
  if (!planned.ok() && planned.status().code() == ErrorCode::kResourceNotFound) {
    return Status::NotFound("Requested resource not found");  // as PartiqlSchemas says it
  }
  KH_ASSIGN_OR_RETURN(planner::Plan plan, std::move(planned));
  if (r.consistent_read && plan.index) {
    // ExecuteStatement's own words for a GSI (indexReads.test.ts, eu-west-1, 2026-09-02),
    // where Query and Scan say "Consistent reads are not supported on global secondary indexes".
    KH_ASSIGN_OR_RETURN(TableSchemaPtr table, backend_.TableSchema(plan.table));
    const IndexDescription* index = table->FindIndex(*plan.index);
    if (index && index->kind == IndexKind::kGlobal) {
      return Status::Validation(
          "Strongly consistent read is not supported on Global Secondary Indexes");
    }
  }
  ApplyOptions(&plan, r.consistent_read, r.return_values_on_condition_check_failure);
  std::string fingerprint = Fingerprint(r);
  std::optional<planner::Cursor> resume;
  if (r.next_token) {
    KH_ASSIGN_OR_RETURN(resume, DecodeNextToken(*r.next_token, fingerprint));
    if (resume->operation >= plan.operations.size()) return Status::Validation("Invalid NextToken");
  }
  StatementOutcome outcome =
      resume ? connection.Execute(std::move(plan), *resume) : connection.Execute(std::move(plan));
  if (!outcome.ok()) return outcome.status;
  const planner::Plan& ran = *outcome.plan;
  planner::ExecuteResult& result = outcome.result;
  if (options_.scans && ran.operation_name == "Scan") {
    ScanEvent event;
    event.operation = "ExecuteStatement";
    event.statement = r.statement;
    event.table = ran.table;
    if (ran.index) event.index = *ran.index;
    event.advice = ran.implicit_scan ? &*ran.implicit_scan : nullptr;
    event.scanned_count = result.scanned_count;
    options_.scans->Scanned(event);
  }
  ExecuteStatementResponse out;
  out.items = std::move(result.items);
  if (result.next) {
    out.next_token = EncodeNextToken(fingerprint, *result.next);
    out.last_evaluated_key = result.last_evaluated_key;
  }
  out.consumed_capacity = Capacity(r.return_consumed_capacity, ran.table, result.capacity_units);
  return out;
}

Result<BatchExecuteStatementResponse> Service::BatchExecuteStatement(
    const BatchExecuteStatementRequest& r, const CallContext& context) {
  std::vector<Result<parser::Statement>> parsed;
  for (const PartiqlStatement& s : r.statements) {
    parsed.push_back(s.parameter_error.ok() ? ParseApiStatement(s.statement, s.parameters)
                                            : Result<parser::Statement>(s.parameter_error));
  }
  return ExecuteBatch(parsed, r.statements, r.return_consumed_capacity, context);
}

Result<ExecuteTransactionResponse> Service::ExecuteTransaction(const ExecuteTransactionRequest& r,
                                                               const CallContext& context) {
  std::vector<parser::Statement> statements;
  std::vector<ReturnValues> on_failure;
  for (size_t i = 0; i < r.transact_statements.size(); ++i) {
    const PartiqlStatement& s = r.transact_statements[i];
    Result<parser::Statement> st = ParseApiStatement(s.statement, s.parameters);
    if (!st.ok()) {
      return Status::Validation(
          fmt::format("Validation failed in TransactStatements[{}]: {}", i, st.status().message()));
    }
    statements.push_back(std::move(*st));
    on_failure.push_back(s.return_values_on_condition_check_failure);
  }
  KH_ASSIGN_OR_RETURN(
      TransactionOutcome outcome,
      RunTransaction(statements, on_failure, r.client_request_token, r.return_consumed_capacity));
  ExecuteTransactionResponse out;
  out.responses = std::move(outcome.responses);
  out.consumed_capacity = std::move(outcome.consumed_capacity);
  return out;
}

Result<TransactionOutcome> Service::RunTransaction(const std::vector<parser::Statement>& statements,
                                                   const std::vector<ReturnValues>& on_failure,
                                                   const std::optional<std::string>& token,
                                                   ReturnConsumedCapacity rcc) {
  PartiqlSchemas schemas(backend_);
  KH_ASSIGN_OR_RETURN(planner::TransactionPlan plan, planner::PlanTransaction(statements, schemas));
  TransactionOutcome out;
  if (auto* gets = std::get_if<TransactGetItemsRequest>(&plan.request)) {
    gets->return_consumed_capacity = rcc;
    out.reads = true;
    out.first_table = gets->transact_items.at(0).get.table_name;
    KH_ASSIGN_OR_RETURN(TransactGetItemsResponse resp, backend_.TransactGetItems(*gets));
    out.responses = std::move(resp.responses);
    out.consumed_capacity = std::move(resp.consumed_capacity);
    return out;
  }
  auto& writes = std::get<TransactWriteItemsRequest>(plan.request);
  writes.client_request_token = token;
  writes.return_consumed_capacity = rcc;
  for (size_t i = 0; i < writes.transact_items.size() && i < on_failure.size(); ++i) {
    TransactWriteItem& w = writes.transact_items[i];
    if (w.put) w.put->return_values_on_condition_check_failure = on_failure[i];
    if (w.update) w.update->return_values_on_condition_check_failure = on_failure[i];
    if (w.delete_) w.delete_->return_values_on_condition_check_failure = on_failure[i];
    if (w.condition_check)
      w.condition_check->return_values_on_condition_check_failure = on_failure[i];
  }
  if (!writes.transact_items.empty()) {
    const TransactWriteItem& w = writes.transact_items[0];
    out.first_table = w.put       ? w.put->table_name
                      : w.update  ? w.update->table_name
                      : w.delete_ ? w.delete_->table_name
                                  : w.condition_check->table_name;
  }
  KH_ASSIGN_OR_RETURN(TransactWriteItemsResponse resp, backend_.TransactWriteItems(writes));
  out.consumed_capacity = std::move(resp.consumed_capacity);
  return out;
}

Result<BatchExecuteStatementResponse> Service::ExecuteBatch(
    const std::vector<Result<parser::Statement>>& statements,
    const std::vector<PartiqlStatement>& options, ReturnConsumedCapacity return_consumed_capacity,
    const CallContext& context) {
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
  PartiqlSchemas schemas(backend_);
  BackendExecutor engine(backend_);
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
    Status refused = RefuseMultiAttributeIndexRead(*st, schemas);
    planner::PlanOptions plan_options;
    plan_options.scan_unpinned_selects = options_.scan_unpinned_selects;
    Result<planner::Plan> plan = refused.ok() ? planner::PlanStatement(*st, schemas, plan_options)
                                              : Result<planner::Plan>(refused);
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
    planner::ExecuteOptions run;
    run.cancel = context.cancel;
    result.operation = plan->operation_name;
    Result<planner::ExecuteResult> done = planner::Execute(*plan, engine, run);
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

}  // namespace keyhole::api
