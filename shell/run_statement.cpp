#include "shell/run_statement.h"

#include <fmt/format.h>

#include <cstdio>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/api_json.h"
#include "core/ddb_json.h"
#include "parser/partiql.h"
#include "planner/plan.h"
#include "shell/api_call.h"

namespace keyhole::shell {

namespace {

// The planner's view of the catalog.
class Schemas : public planner::SchemaSource {
 public:
  explicit Schemas(storage::Database& db) : db_(db) {}
  Result<TableDescription> TableSchema(const std::string& name) const override {
    Result<TableDescription> t = db_.TableSchema(name);
    if (!t.ok() && t.status().IsNotFound()) {
      return Status::NotFound(
          fmt::format("Requested resource not found: Table: {} not found", name));
    }
    return t;
  }

 private:
  storage::Database& db_;
};

// The planner's operations, executed by the engine.
class Engine : public planner::Executor {
 public:
  explicit Engine(storage::Database& db) : db_(db) {}
  Result<GetItemResponse> GetItem(const GetItemRequest& r) override { return db_.GetItem(r); }
  Result<QueryResponse> Query(const QueryRequest& r) override { return db_.Query(r); }
  Result<ScanResponse> Scan(const ScanRequest& r) override { return db_.Scan(r); }
  Result<PutItemResponse> PutItem(const PutItemRequest& r) override { return db_.PutItem(r); }
  Result<UpdateItemResponse> UpdateItem(const UpdateItemRequest& r) override {
    return db_.UpdateItem(r);
  }
  Result<DeleteItemResponse> DeleteItem(const DeleteItemRequest& r) override {
    return db_.DeleteItem(r);
  }

 private:
  storage::Database& db_;
};

// Errors go to stderr; stdout is flushed first so that a script's output keeps its order.
bool Fail(const Status& s) {
  std::fflush(stdout);
  std::fprintf(stderr, "Error: %s\n", s.ToString().c_str());
  return false;
}

// A parse error with the offending line and a caret under its column.
bool FailParse(const parser::ParseError& e, std::string_view text, int first_line) {
  std::fflush(stdout);
  std::fprintf(stderr, "Error: %s\n", e.status.ToString().c_str());
  size_t begin = 0;
  for (int l = 1; l < e.position.line && begin != std::string_view::npos; ++l) {
    begin = text.find('\n', begin);
    if (begin != std::string_view::npos) ++begin;
  }
  if (begin == std::string_view::npos) return false;
  std::string_view rest = text.substr(begin);
  std::string_view source_line = rest.substr(0, rest.find('\n'));
  std::fprintf(stderr, "  at line %d, column %d:\n  %.*s\n  %*s^\n",
               first_line + e.position.line - 1, e.position.column,
               static_cast<int>(source_line.size()), source_line.data(), e.position.column - 1, "");
  return false;
}

bool PrintJson(const Result<json::Value>& r) {
  if (!r.ok()) return Fail(r.status());
  std::printf("%s\n", json::Write(*r).c_str());
  return true;
}

// One planned operation for EXPLAIN: its name, target, request body and estimated capacity.
struct ExplainedOperation {
  std::string name, target;
  json::Value request;
  const char* estimate = "";
  bool write = false;
};

ExplainedOperation Explain(const planner::Operation& op) {
  // Estimates are lower bounds: reads cost 0.5 RCU per 4 KB eventually consistent (1 RCU
  // strongly consistent), writes 1 WCU per 1 KB plus one write per affected index.
  constexpr const char* kItemRead = "at least 0.5 RCU";
  constexpr const char* kPageRead = "at least 0.5 RCU (1 MB page at most 128 RCU)";
  constexpr const char* kWrite = "at least 1 WCU (+ index writes)";
  auto target = [](const std::string& table, const std::optional<std::string>& index) {
    return index ? table + "." + *index : table;
  };
  if (const auto* r = std::get_if<GetItemRequest>(&op)) {
    return {"GetItem", r->table_name, GetItemRequestToJson(*r), kItemRead};
  }
  if (const auto* r = std::get_if<QueryRequest>(&op)) {
    return {"Query", target(r->table_name, r->index_name), QueryRequestToJson(*r), kPageRead};
  }
  if (const auto* r = std::get_if<ScanRequest>(&op)) {
    return {"Scan", target(r->table_name, r->index_name), ScanRequestToJson(*r), kPageRead};
  }
  if (const auto* r = std::get_if<PutItemRequest>(&op)) {
    return {"PutItem", r->table_name, PutItemRequestToJson(*r), kWrite, true};
  }
  if (const auto* r = std::get_if<UpdateItemRequest>(&op)) {
    return {"UpdateItem", r->table_name, UpdateItemRequestToJson(*r), kWrite, true};
  }
  const auto& r = std::get<DeleteItemRequest>(op);
  return {"DeleteItem", r.table_name, DeleteItemRequestToJson(r), kWrite, true};
}

// EXPLAIN: prints each operation's request and estimated capacity without running anything.
// EXPLAIN ANALYZE: the same, then runs the plan (reads only) and prints what it actually did.
bool RunExplain(storage::Database& db, const planner::Plan& plan) {
  std::vector<ExplainedOperation> ops;
  for (const planner::Operation& op : plan.operations) ops.push_back(Explain(op));
  bool writes = false;
  for (const ExplainedOperation& e : ops) writes = writes || e.write;
  if (plan.per_item_write) writes = true;
  if (plan.analyze && writes) {
    return Fail(Status::Validation(
        "EXPLAIN ANALYZE runs the statement and is only supported for reads; use EXPLAIN"));
  }
  for (const ExplainedOperation& e : ops) {
    std::printf("-- %s on %s\n%s\n-- estimated: %s\n", e.name.c_str(), e.target.c_str(),
                json::Write(e.request).c_str(), e.estimate);
  }
  if (plan.per_item_write) {
    ExplainedOperation e = Explain(*plan.per_item_write);
    std::printf(
        "-- then for each item found: %s on %s (Key from the item)\n%s\n"
        "-- estimated: %s per item\n",
        e.name.c_str(), e.target.c_str(), json::Write(e.request).c_str(), e.estimate);
  }
  if (!plan.analyze) return true;
  Engine engine(db);
  Result<planner::ExecuteResult> r = planner::Execute(plan, engine);
  if (!r.ok()) return Fail(r.status());
  std::printf("-- actual: %lld returned, %lld read, %g capacity units\n",
              static_cast<long long>(r->count), static_cast<long long>(r->scanned_count),
              r->capacity_units);
  return true;
}

bool RunDml(storage::Database& db, const parser::Statement& st) {
  Schemas schemas(db);
  Result<planner::Plan> plan = planner::PlanStatement(st, schemas);
  if (!plan.ok()) return Fail(plan.status());
  if (plan->explain) return RunExplain(db, *plan);
  Engine engine(db);
  Result<planner::ExecuteResult> r = planner::Execute(*plan, engine);
  if (!r.ok()) return Fail(r.status());
  for (const Item& item : r->items) std::printf("%s\n", ItemToJsonText(item).c_str());
  std::string target = plan->table + (plan->index ? "." + *plan->index : "");
  std::printf("-- %lld returned, %lld read · %s on %s · %g capacity units\n",
              static_cast<long long>(r->count), static_cast<long long>(r->scanned_count),
              plan->operation_name.c_str(), target.c_str(), r->capacity_units);
  if (r->last_evaluated_key) {
    std::printf("-- more results: LastEvaluatedKey %s\n",
                ItemToJsonText(*r->last_evaluated_key).c_str());
  }
  return true;
}

bool RunCreate(storage::Database& db, const parser::CreateTableStatement& s) {
  if (s.ttl_attribute || s.stream_view_type) {
    return Fail(Status::Validation("TTL and STREAM are not supported by this shell yet"));
  }
  Result<CreateTableResponse> r = db.CreateTable(parser::ToCreateTableRequest(s));
  if (!r.ok() && !(s.if_not_exists && r.status().code() == ErrorCode::kResourceInUse))
    return Fail(r.status());
  std::printf("-- table %s created\n", s.table.c_str());
  return true;
}

bool RunParsed(storage::Database& db, const parser::Statement& st) {
  using parser::StatementKind;
  switch (st.kind()) {
    case StatementKind::kSelect:
    case StatementKind::kInsert:
    case StatementKind::kUpdate:
    case StatementKind::kDelete:
      return RunDml(db, st);
    case StatementKind::kCreateTable:
      return RunCreate(db, st.as<parser::CreateTableStatement>());
    case StatementKind::kDropTable: {
      const auto& s = st.as<parser::DropTableStatement>();
      Result<DeleteTableResponse> r = db.DeleteTable({s.table});
      if (!r.ok() && !(s.if_exists && r.status().IsNotFound())) return Fail(r.status());
      std::printf("-- table %s dropped\n", s.table.c_str());
      return true;
    }
    case StatementKind::kShowTables:
      return PrintJson(CallOperation(db, "ListTables", json::Value::MakeObject()));
    case StatementKind::kDescribe: {
      json::Value body = json::Value::MakeObject();
      body.Add("TableName", json::Value::String(st.as<parser::DescribeStatement>().table));
      return PrintJson(CallOperation(db, "DescribeTable", body));
    }
    case StatementKind::kCall: {
      const auto& c = st.as<parser::CallStatement>();
      return PrintJson(CallOperation(db, c.operation, c.body));
    }
    default:
      return Fail(Status::Validation(fmt::format("{} is not supported by this shell yet",
                                                 parser::StatementKindName(st.kind()))));
  }
}

}  // namespace

bool RunStatement(storage::Database& db, std::string_view text, int line) {
  // `<Operation> <JSON>`: the API form, as `CALL <Operation> <JSON>` without the keyword.
  size_t start = text.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos) return true;
  size_t end = text.find_first_of(" \t\r\n{", start);
  std::string_view first =
      text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
  if (IsKnownOperation(first)) {
    std::string_view body =
        end == std::string_view::npos ? std::string_view("{}") : text.substr(end);
    Result<json::Value> v = json::Parse(body);
    if (!v.ok()) return Fail(v.status());
    return PrintJson(CallOperation(db, first, *v));
  }
  parser::ParseResult parsed = parser::ParseStatement(text);
  if (!parsed.ok()) return FailParse(parsed.error(), text, line);
  return RunParsed(db, parsed.statement());
}

}  // namespace keyhole::shell
