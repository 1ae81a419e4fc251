// Session: the shell's statements, dispatched by kind: DML and NEXT on the session's connection
// (api::Connection), DDL in schema_statements.cpp, CALL and the API form on api::Service,
// BEGIN ... COMMIT in transaction_queue.cpp. What is printed is output.cpp's; errors and hints are
// errors.cpp's; scripts are script.cpp's.
#include "shell/session.h"

#include <fmt/format.h>

#include <atomic>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "api/api_json.h"
#include "api/partiql_api.h"
#include "core/json.h"
#include "parser/partiql.h"
#include "planner/plan.h"
#include "shell/commands.h"
#include "shell/session_state.h"

namespace keyhole::shell {

std::atomic<bool> g_interrupted{false};
std::atomic<uint64_t> g_interrupt_epoch{0};
std::atomic<int> g_termination{0};
static_assert(std::atomic<int>::is_always_lock_free, "set from a signal handler");

Session::Session(Backend& backend, LocalControl* local, std::string db_path, Sink& sink)
    : db_(backend),
      db_path_(db_path),
      sink_(sink),
      state_(std::make_unique<State>(backend, local, std::move(db_path), sink, settings_, quit_)) {}

Result<LocalControl*> Session::State::Local(std::string_view what) const {
  if (local) return local;
  if (settings.endpoint.empty()) {
    return Status::Validation(fmt::format("{} needs a local keyhole file", what));
  }
  std::string why = fmt::format("{} is for a keyhole file: this shell is connected to {}", what,
                                settings.endpoint);
  if (what == ".clock") {
    why += ", which keeps its own time";
  } else if (what == ".ttl sweep") {
    why += ", which deletes expired items by itself (DynamoDB: within a few days of expiry)";
  } else if (what == ".check") {
    why += ", which keeps its indexes itself";
  }
  return Status::Validation(why);
}

void Session::SetAsk(std::function<std::optional<std::string>(const std::string&)> ask) {
  state_->ask = std::move(ask);
}

std::optional<std::string> Ask(Session::State& s, const std::string& question) {
  if (!s.ask) return std::nullopt;
  std::optional<std::string> answer = s.ask(question);
  if (answer) {
    const size_t b = answer->find_first_not_of(" \t");
    const size_t e = answer->find_last_not_of(" \t\r\n");
    *answer = b == std::string::npos ? "" : answer->substr(b, e - b + 1);
  }
  return answer;
}

bool Confirm(Session::State& s, std::string_view statement, const std::string& question,
             const std::string& expected, Location at, bool* declined) {
  *declined = false;
  if (s.settings.endpoint.empty() || s.settings.yes || s.settings.read_only) return true;
  if (!s.ask) {
    s.Fail(Status::Validation(fmt::format(
               "{} on {} asks for confirmation, and there is nobody to ask: run keyhole with --yes "
               "to allow it in a script",
               statement, s.settings.endpoint)),
           at);
    return false;
  }
  std::optional<std::string> answer = Ask(s, question);
  if (answer && *answer == expected) return true;
  *declined = true;
  s.Notice(fmt::format("-- {} was not run\n", statement));
  return false;
}

Session::~Session() = default;

bool Session::RunScript(std::string_view text, std::string_view source, int first_line) {
  return state_->RunScript(text, source, first_line);
}

bool Session::RunFile(std::string_view text, const std::string& source) {
  return state_->RunFile(text, source);
}

bool Session::Finish() {
  bool ok = state_->DiscardTransaction("the input ended");
  return state_->CloseRedirect(/*close=*/true, {}) && ok;
}

bool Session::in_transaction() const { return state_->connection().in_transaction(); }

bool Session::interrupted() const { return state_->InterruptReported(); }

bool Session::RunPatterns(std::string_view text, std::string_view source,
                          const CostPlanSettings* plan) {
  return shell::RunPatterns(*state_, text, source, plan);
}

void Session::Interrupt() { g_interrupted.store(true, std::memory_order_relaxed); }
void Session::ClearInterrupt() {
  g_interrupted.store(g_termination.load(std::memory_order_relaxed) != 0,
                      std::memory_order_relaxed);
  g_interrupt_epoch.fetch_add(1, std::memory_order_relaxed);
}
void Session::Terminate(int signal) {
  int none = 0;  // the first signal is the one the process ends by
  g_termination.compare_exchange_strong(none, signal, std::memory_order_relaxed);
  Interrupt();
}
int Session::termination_signal() { return g_termination.load(std::memory_order_relaxed); }
const std::atomic<bool>* Session::interrupt_flag() { return &g_interrupted; }

// ---- State ----

Session::State::State(Backend& db, LocalControl* local, std::string db_path, Sink& sink,
                      Settings& settings, bool& quit)
    : backend(db),
      active(&db),
      local(local),
      active_connection(std::make_unique<api::Connection>(db)),
      db_path(std::move(db_path)),
      sink(&sink),
      settings(settings),
      quit(quit) {}

Session::State::~State() = default;

api::CallContext Session::State::Context() const {
  api::CallContext c;
  c.cancel = &g_interrupted;
  return c;
}

bool ApplyConsistentRead(const Settings& settings, planner::Plan& plan) {
  return settings.consistent && api::ApplyConsistentRead(plan);
}

namespace {

// Runs `plan` on the session's connection (from `start_key`) and prints what it did.
bool RunPlan(Session::State& s, planner::Plan plan, std::optional<Item> start_key, Location at) {
  s.SetConnectionOptions();
  return PrintOutcome(s, s.connection().Execute(std::move(plan), std::move(start_key)), at);
}

bool RunDml(Session::State& s, const parser::Statement& st, Location at) {
  if (st.kind() == parser::StatementKind::kSelect && st.as<parser::SelectStatement>().nearest) {
    return RunVectorSearch(s, st, at);
  }
  s.statement_schemas = &s.connection().schemas();
  struct Reset {
    Session::State& s;
    ~Reset() { s.statement_schemas = nullptr; }
  } reset{s};
  Result<planner::Plan> plan = s.connection().Plan(st, s.statement_text);
  std::optional<Item> start_key = std::move(s.start_key);
  s.start_key.reset();
  if (!plan.ok()) return s.Fail(WithDataHints(s, plan.status(), st), at);
  if (plan->explain) return RunExplain(s, *plan, at);
  const bool scans =
      !plan->operations.empty() && std::holds_alternative<ScanRequest>(plan->operations[0]);
  if (s.settings.read_only && plan->per_item_write) {
    // Its writes would be refused item by item after a read of the whole table: refuse it
    // before anything is read.
    return s.Fail(Status::AccessDenied(fmt::format(
                      "keyhole was started with --readonly: {} was refused before anything was "
                      "read or sent to {}",
                      plan->kind == parser::StatementKind::kDelete ? "SCAN DELETE" : "SCAN UPDATE",
                      s.settings.endpoint.empty() ? s.db_path : s.settings.endpoint)),
                  at);
  }
  bool stale_counts = false;
  if (!s.settings.endpoint.empty() && scans) {
    // On an endpoint, a Scan's size and cost are said before it runs (and a write to every item
    // matched asks first).
    int64_t table_items = -1;
    const std::string size =
        ScanEstimate(s.db(), std::get<ScanRequest>(plan->operations[0]), &table_items);
    if (plan->per_item_write) {
      const std::string what =
          plan->kind == parser::StatementKind::kDelete ? "SCAN DELETE" : "SCAN UPDATE";
      bool declined = false;
      if (!Confirm(
              s, what,
              fmt::format("{} reads all of \"{}\" on {} ({}) and {} every item that "
                          "matches. Type yes to go on: ",
                          what, plan->table, s.settings.endpoint, size,
                          plan->kind == parser::StatementKind::kDelete ? "deletes" : "updates"),
              "yes", at, &declined)) {
        return declined;
      }
    } else {
      // DynamoDB refreshes ItemCount and TableSizeBytes about every six hours: a table written
      // since may hold far more than DescribeTable says.
      stale_counts = table_items == 0;
      s.Notice(fmt::format(
          "-- Scan of {} on {}: {}{}\n", plan->table, s.settings.endpoint, size,
          stale_counts ? " (if DescribeTable's counts are current: DynamoDB refreshes ItemCount "
                         "and TableSizeBytes about every six hours, so a table written since "
                         "may hold more)"
                       : ""));
    }
  }
  if (stale_counts && !start_key) {
    const bool ok = RunPlan(s, std::move(*plan), std::nullopt, at);
    if (ok && s.report.read > 0) {
      s.Notice(fmt::format(
          "-- DescribeTable counted 0 items in {}, but the Scan read {}: its counts are stale, "
          "not the table empty (DynamoDB refreshes them about every six hours)\n",
          s.report.target, s.report.read));
    }
    return ok;
  }
  if (start_key) {
    if (plan->kind != parser::StatementKind::kSelect || plan->operations.size() != 1 ||
        std::holds_alternative<GetItemRequest>(plan->operations[0])) {
      return s.Fail(Status::Validation(".startkey applies to a SELECT that runs one Query or "
                                       "Scan; continue other statements with NEXT"),
                    at);
    }
    return RunPlan(s, std::move(*plan), std::move(start_key), at);
  }
  return RunPlan(s, std::move(*plan), std::nullopt, at);
}

bool RunNext(Session::State& s, Location at) {
  s.SetConnectionOptions();
  s.continuing = true;
  const bool ok = PrintOutcome(s, s.connection().Next(), at);
  s.continuing = false;
  return ok;
}

bool RunParsed(Session::State& s, const parser::Statement& st, Location at) {
  using parser::StatementKind;
  if (s.connection().in_transaction()) {
    switch (st.kind()) {
      case StatementKind::kSelect:
      case StatementKind::kInsert:
      case StatementKind::kUpdate:
      case StatementKind::kDelete:
      case StatementKind::kExists:
      case StatementKind::kBegin:
      case StatementKind::kCommit:
      case StatementKind::kRollback:
        return s.RunTransactionStatement(st, at);
      default:
        return s.Fail(Status::Validation(fmt::format(
                          "{} cannot run inside a transaction: COMMIT or ROLLBACK it first",
                          parser::StatementKindName(st.kind()))),
                      at);
    }
  }
  switch (st.kind()) {
    case StatementKind::kSelect:
    case StatementKind::kInsert:
    case StatementKind::kUpdate:
    case StatementKind::kDelete:
    case StatementKind::kExists:
      return RunDml(s, st, at);
    case StatementKind::kNext:
      return RunNext(s, at);
    case StatementKind::kCreateTable:
      return RunCreate(s, st.as<parser::CreateTableStatement>(), at);
    case StatementKind::kDropTable:
      return RunDropTable(s, st.as<parser::DropTableStatement>(), at);
    case StatementKind::kAlterTable:
      return RunAlter(s, st.as<parser::AlterTableStatement>(), at);
    case StatementKind::kShowTables:
      return RunShowTables(s, at);
    case StatementKind::kDescribe:
      return RunDescribe(s, st.as<parser::DescribeStatement>().table, at);
    case StatementKind::kShowCreateTable:
      return RunShowCreateTable(s, st.as<parser::ShowCreateTableStatement>().table, at);
    case StatementKind::kCall: {
      const auto& c = st.as<parser::CallStatement>();
      if (c.operation == "DeleteTable") {  // asks on an endpoint, as DROP TABLE does
        const json::Value* name = c.body.IsObject() ? c.body.Find("TableName") : nullptr;
        const std::string table = name && name->IsString() ? name->str() : "";
        bool declined = false;
        if (!Confirm(s, "CALL DeleteTable",
                     fmt::format("DeleteTable of \"{}\" on {} deletes the table and every item in "
                                 "it. Type the table's name to go on: ",
                                 table, s.settings.endpoint),
                     table, at, &declined)) {
          return declined;
        }
      }
      return PrintJson(s, s.service().Call(c.operation, c.body, s.Context()), at);
    }
    case StatementKind::kBegin:
    case StatementKind::kCommit:
    case StatementKind::kRollback:
      return s.RunTransactionStatement(st, at);
  }
  return s.Fail(Status::Internal("unknown statement kind"), at);
}

}  // namespace

void Session::State::SetConnectionOptions() {
  api::ConnectionOptions& options = connection().options();
  options.page_size = settings.pagesize;
  options.consistent_reads = settings.consistent;
  options.cancel = &g_interrupted;
}

bool Session::State::RunStatement(std::string_view text, Location at) {
  report = StatementReport();
  timed = false;
  const bool in_transaction = connection().in_transaction();
  bool ok = RunOneStatement(text, at);
  // A statement that failed inside BEGIN ... COMMIT (refused, a syntax error, one that cannot
  // be queued) fails the whole transaction: nothing of it may be written.
  if (!ok && in_transaction && connection().in_transaction()) MarkTransactionFailed(at);
  NoteTime();
  if (collect) collect->push_back(report);
  if (!ok && report.error.starts_with(ErrorName(ErrorCode::kInterrupted)) &&
      g_interrupted.load(std::memory_order_relaxed)) {
    return ok;  // stopped by Ctrl-C: it did not run
  }
  ++statements_run;
  quiet.Count(report, ok);
  return ok;
}

bool Session::State::RunOneStatement(std::string_view text, Location at) {
  if (settings.timer) statement_start = Clock::now();  // read only by .timer's footers
  if (settings.echo && !echo_suppressed) Echo(std::string(text) + ";\n");
  // `<Operation> <JSON>`: the API form, as `CALL <Operation> <JSON>` without the keyword.
  size_t start = text.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos) return true;
  size_t end = text.find_first_of(" \t\r\n{", start);
  std::string_view first =
      text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
  if (api::Service::IsOperation(first)) {
    if (connection().in_transaction()) {  // it would be sent now, outside the transaction
      return Fail(Status::Validation(fmt::format(
                      "{} cannot run inside a transaction: it would be sent now, not with the "
                      "queued statements; COMMIT or ROLLBACK it first",
                      first)),
                  at);
    }
    std::string_view body =
        end == std::string_view::npos ? std::string_view("{}") : text.substr(end);
    Result<json::Value> v = json::Parse(body);
    if (!v.ok()) return Fail(v.status(), at);
    if (collect && v->IsObject() && !v->Find("ReturnConsumedCapacity")) {
      v->Add("ReturnConsumedCapacity", json::Value::String("TOTAL"));  // for the report
    }
    Result<json::Value> response = service().Call(first, *v, Context());
    if (response.ok()) ReportOperation(report, first, *v, *response);
    if (!response.ok() && v->IsObject()) {
      const json::Value* table = v->Find("TableName");
      if (table && table->IsString()) {
        return Fail(NameMissingTable(response.status(), table->str()), at);
      }
    }
    return PrintJson(*this, response, at);
  }
  // A point read of a shape the connection remembers, with new key values: run without parsing
  // or planning again (not inside BEGIN ... COMMIT, which queues it, nor after .startkey).
  if (!connection().in_transaction() && !start_key) {
    SetConnectionOptions();
    if (std::optional<api::StatementOutcome> remembered = connection().RunRemembered(text)) {
      statement_schemas = &connection().schemas();  // the key columns and TTL of its table
      const bool ok = PrintOutcome(*this, std::move(*remembered), at);
      statement_schemas = nullptr;
      return ok;
    }
  }
  parser::ParseResult parsed = parser::ParseStatement(text);
  if (!parsed.ok()) return FailParse(*this, parsed.error(), text, at);
  statement_text = text;
  const bool ok = RunParsed(*this, parsed.statement(), at);
  statement_text = {};
  return ok;
}

}  // namespace keyhole::shell
