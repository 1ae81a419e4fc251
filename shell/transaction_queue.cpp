// BEGIN; ...; COMMIT; in the shell: DML statements between BEGIN and COMMIT are queued, then
// planned together (planner/plan_transaction.h) and sent as one TransactWriteItems or
// TransactGetItems (all or nothing). ROLLBACK discards the queue; nothing was sent.
// A cancelled transaction prints DynamoDB's TransactionCanceledException and its
// CancellationReasons (Session::State::Fail).
// An INSERT whose key exists fails its attribute_not_exists condition: ConditionalCheckFailed
// (DynamoDB's code inside ExecuteTransaction's reasons for this case is not verified).
#include <fmt/format.h>

#include <map>

#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "core/ddb_json.h"
#include "planner/plan_transaction.h"
#include "shell/render.h"
#include "shell/session_state.h"

namespace keyhole::shell {

namespace {

double Total(const std::vector<ConsumedCapacity>& c) {
  double units = 0;
  for (const ConsumedCapacity& t : c) units += t.total.capacity_units;
  return units;
}

// The tables a response consumed capacity on, joined with ", ".
std::string Tables(const std::vector<ConsumedCapacity>& c) {
  std::string out;
  for (const ConsumedCapacity& t : c) out += (out.empty() ? "" : ", ") + t.table_name;
  return out;
}

// BEGIN BATCH ... COMMIT: one BatchExecuteStatement (1..25 statements, not atomic). Each
// statement's error is printed with its index; the COMMIT fails when any statement did.
bool PrintBatch(Session::State& s, const std::vector<parser::Statement>& statements,
                BatchExecuteStatementResponse* r, Location at) {
  std::vector<Item> items;
  std::string table, errors;
  size_t failed = 0;
  for (size_t i = 0; i < r->responses.size(); ++i) {
    BatchStatementResult& one = r->responses[i];
    if (one.error_code) {
      ++failed;
      std::string error =
          fmt::format("Statements[{}]: {}: {}{}", i, *one.error_code, one.error_message,
                      one.error_item ? " " + ItemToJsonText(*one.error_item) : "");
      if (s.report.error.empty()) s.report.error = error;
      errors += "Error: " + error + "\n";
      continue;
    }
    if (one.table_name) table = *one.table_name;
    if (one.item) items.push_back(std::move(*one.item));
  }
  if (!items.empty()) PrintItems(s, items, table, std::nullopt);
  bool reads = !statements.empty() && statements[0].kind() == parser::StatementKind::kSelect;
  s.report.operation = reads ? "BatchGetItem" : "BatchWriteItem";  // as DynamoDB serves it
  s.report.target = table;
  s.report.returned = s.report.read = static_cast<int64_t>(items.size());
  s.report.capacity = Total(r->consumed_capacity);
  s.report.units = reads ? "RCU" : "WCU";
  // What was really sent: on a file, keyhole's BatchExecuteStatement; on an endpoint, the
  // statements one by one, as the operations they plan to.
  std::map<std::string, int> sent;
  for (const BatchStatementResult& one : r->responses) {
    if (!one.operation.empty()) ++sent[one.operation];
  }
  std::string ops;
  for (const auto& [op, n] : sent) ops += fmt::format("{}{} {}", ops.empty() ? "" : ", ", n, op);
  if (ops.empty()) ops = "nothing";
  s.Notice(fmt::format(
      "-- {} of {} statements succeeded · {} · {}\n", statements.size() - failed, statements.size(),
      s.settings.endpoint.empty()
          ? fmt::format("BatchExecuteStatement ({})", ops)
          : fmt::format("sent to {} one by one as {} (not as one BatchExecuteStatement)",
                        s.settings.endpoint, ops),
      CapacityText(Total(r->consumed_capacity), "capacity units")));
  if (failed == 0) return true;
  s.sink->Err(errors +
              (at.source.empty() ? "" : fmt::format("  at {} line {}\n", at.source, at.line)));
  return false;
}

}  // namespace

void Session::State::MarkTransactionFailed(Location at) {
  if (connection().failure()) return;  // the first failure is the one COMMIT names, said once
  const size_t n = connection().queued();
  const bool batch = connection().transaction_is_batch();
  const char* what = batch ? "batch" : "transaction";
  std::string where = at.source.empty() ? fmt::format("line {}", at.line)
                                        : fmt::format("{} line {}", at.source, at.line);
  if (AtPrompt(at)) where = "entered at the prompt";
  connection().MarkFailed(fmt::format(
      "the statement after {} ({}) failed: {}",
      n == 0 ? std::string("BEGIN")
             : fmt::format("{}[{}]", batch ? "Statements" : "TransactStatements", n - 1),
      where, report.error.empty() ? std::string("it did not run") : report.error));
  // Said in the error block (not a notice that .quiet or a machine mode would move), so that
  // nobody commits the rest believing only this statement was left out.
  sink->Err(
      AtPrompt(at)
          ? fmt::format("  hint: this statement was not queued, and the {} is marked failed: "
                        "COMMIT; would write nothing. Enter the statement again, fixed, to queue "
                        "it in its place, or ROLLBACK; to discard the {}\n",
                        what,
                        n == 0 ? std::string("transaction")
                               : Count(static_cast<int64_t>(n), "queued statement"))
          : fmt::format("  hint: this statement was not queued, and the {} is marked failed: its "
                        "COMMIT; will write nothing{} (ROLLBACK; ends it)\n",
                        what,
                        n == 0 ? std::string()
                               : fmt::format(" of the {}",
                                             Count(static_cast<int64_t>(n), "queued statement"))));
}

bool Session::State::DiscardTransaction(std::string_view why) {
  if (!connection().in_transaction()) return true;
  const bool batch = connection().transaction_is_batch();
  const size_t n = connection().Rollback();
  std::string where = transaction_source.empty() ? std::string()
                                                 : fmt::format(" at {} line {}", transaction_source,
                                                               transaction_begun.line);
  sink->Err(fmt::format(
      "Error: {}: the {}{} was not committed; its {} queued statement{} {} discarded, nothing "
      "was sent (end it with COMMIT; or ROLLBACK;)\n",
      why, batch ? "BEGIN BATCH" : "BEGIN", where, n, n == 1 ? "" : "s", n == 1 ? "was" : "were"));
  return false;
}

bool Session::State::RunTransactionStatement(const parser::Statement& st, Location at) {
  using parser::StatementKind;
  switch (st.kind()) {
    case StatementKind::kBegin: {
      const bool batch = st.as<parser::BeginStatement>().batch;
      if (Status begun = connection().Begin(batch); !begun.ok()) return Fail(begun, at);
      transaction_begun = at;
      transaction_source = std::string(at.source);
      transaction_depth = read_depth;
      Notice(batch ? "-- batch started: statements are queued until COMMIT\n"
                   : "-- transaction started: statements are queued until COMMIT\n");
      return true;
    }
    case StatementKind::kRollback:
      if (!connection().in_transaction()) {
        return Fail(Status::Validation("ROLLBACK without BEGIN"), at);
      }
      Notice(fmt::format("-- rolled back: {} discarded, nothing was sent\n",
                         Count(static_cast<int64_t>(connection().Rollback()), "statement")));
      return true;
    case StatementKind::kCommit:
      break;
    default: {  // a statement inside BEGIN ... COMMIT: checked with those queued before it
      // A refused statement is not queued, and fails the transaction (RunStatement marks it).
      if (Status refused = connection().Queue(st); !refused.ok()) return Fail(refused, at);
      const bool replaces = connection().failure().has_value() && AtPrompt(at);
      if (replaces) connection().ClearFailure();
      Notice(fmt::format("-- queued as {}[{}]{}\n",
                         connection().transaction_is_batch() ? "Statements" : "TransactStatements",
                         connection().queued() - 1,
                         replaces ? " in place of the failed statement: COMMIT; can run the "
                                    "transaction again"
                                  : ""));
      return true;
    }
  }
  SetConnectionOptions();
  api::CommitOutcome r = connection().Commit();
  if (!r.ok()) return Fail(r.status, at);
  const std::vector<parser::Statement>& statements = r.statements;
  if (statements.empty()) {  // DynamoDB refuses an empty ExecuteTransaction; nothing to send
    Notice("-- nothing to commit: no statement was queued since BEGIN\n");
    return true;
  }
  if (r.batch) return PrintBatch(*this, statements, &*r.batch_response, at);
  api::TransactionOutcome& t = *r.transaction;
  if (t.reads) {
    std::vector<Item> items;
    for (auto& item : t.responses) {
      if (item) items.push_back(std::move(*item));
    }
    PrintItems(*this, items, t.first_table, std::nullopt);
    report.operation = "TransactGetItems";
    report.target = t.first_table;
    report.read = static_cast<int64_t>(statements.size());
    report.returned = static_cast<int64_t>(items.size());
    report.capacity = Total(t.consumed_capacity);
    report.units = "RCU";
    Notice(fmt::format("-- {} returned of {} reads · TransactGetItems · {}\n", items.size(),
                       statements.size(), CapacityText(Total(t.consumed_capacity), "RCU")));
    return true;
  }
  report.operation = "TransactWriteItems";
  report.target = Tables(t.consumed_capacity);
  report.capacity = Total(t.consumed_capacity);
  report.units = "WCU";
  Notice(fmt::format("-- committed {} · TransactWriteItems · {:g} WCU\n",
                     Count(static_cast<int64_t>(statements.size()), "statement"),
                     Total(t.consumed_capacity)));
  return true;
}

}  // namespace keyhole::shell
