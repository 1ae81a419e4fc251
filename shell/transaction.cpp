// BEGIN; ...; COMMIT; in the shell: DML statements between BEGIN and COMMIT are queued, then
// planned together (planner/transaction.h) and sent as one TransactWriteItems or
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
#include "planner/transaction.h"
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

// The item a transaction's write acts on: its table and key, as text for comparing.
std::string ItemOf(const TransactWriteItem& w, const Session::State& s, std::string* shown) {
  std::string table;
  Item key;
  if (w.put) {
    table = w.put->table_name;
    Result<TableSchemaPtr> t = s.db.TableSchema(table);
    if (!t.ok()) return "";
    for (const std::string& name : (*t)->key.Names()) {
      if (auto it = w.put->item.find(name); it != w.put->item.end()) key.emplace(name, it->second);
    }
  } else if (w.update) {
    table = w.update->table_name;
    key = w.update->key;
  } else if (w.delete_) {
    table = w.delete_->table_name;
    key = w.delete_->key;
  } else if (w.condition_check) {
    table = w.condition_check->table_name;
    key = w.condition_check->key;
  }
  *shown = "";
  for (const auto& [name, value] : key) {
    std::string literal = FormatCell(value);
    if (value.is(ValueType::kS)) {  // as a statement writes it
      literal = "'";
      for (char c : value.s()) literal += c == '\'' ? std::string("''") : std::string(1, c);
      literal += "'";
    }
    *shown += fmt::format("{}{} = {}", shown->empty() ? "" : ", ", name, literal);
  }
  *shown += " in " + table;
  return table + "\n" + ItemToJsonText(key);
}

// For DynamoDB's "multiple operations on one item": which statements those are.
std::string SameItemHint(const std::vector<parser::Statement>& statements, Session::State& s) {
  Schemas schemas(s.db);
  Result<planner::TransactionPlan> plan = planner::PlanTransaction(statements, schemas);
  if (!plan.ok() || plan->reads()) return "";
  const auto& items = std::get<TransactWriteItemsRequest>(plan->request).transact_items;
  std::vector<std::string> seen;
  for (size_t i = 0; i < items.size(); ++i) {
    std::string shown;
    seen.push_back(ItemOf(items[i], s, &shown));
    for (size_t j = 0; j < i; ++j) {
      if (seen[j].empty() || seen[j] != seen[i]) continue;
      return fmt::format(
          "TransactStatements[{}] and [{}] both act on the item {}; a transaction acts on an "
          "item once: merge them (one UPDATE can SET and REMOVE several attributes)",
          j, i, shown);
    }
  }
  return "";
}

}  // namespace

// BEGIN BATCH ... COMMIT: one BatchExecuteStatement (1..25 statements, not atomic). Each
// statement's error is printed with its index; the COMMIT fails when any statement did.
bool Session::State::CommitBatch(const std::vector<parser::Statement>& statements, Location at) {
  if (statements.empty() || statements.size() > 25) {
    return Fail(
        Status::Validation(fmt::format(
            "1 validation error detected: Value at 'statements' failed to satisfy "
            "constraint: Member must have length {}",
            statements.empty() ? "greater than or equal to 1" : "less than or equal to 25")),
        at);
  }
  std::vector<Result<parser::Statement>> parsed(statements.begin(), statements.end());
  Result<BatchExecuteStatementResponse> r =
      service.ExecuteBatch(parsed, {}, ReturnConsumedCapacity::kTotal, Context());
  if (!r.ok()) return Fail(r.status(), at);
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
      if (report.error.empty()) report.error = error;
      errors += "Error: " + error + "\n";
      continue;
    }
    if (one.table_name) table = *one.table_name;
    if (one.item) items.push_back(std::move(*one.item));
  }
  if (!items.empty()) PrintItems(items, table, std::nullopt);
  bool reads = !statements.empty() && statements[0].kind() == parser::StatementKind::kSelect;
  report.operation = reads ? "BatchGetItem" : "BatchWriteItem";  // as DynamoDB serves it
  report.target = table;
  report.returned = report.read = static_cast<int64_t>(items.size());
  report.capacity = Total(r->consumed_capacity);
  report.units = reads ? "RCU" : "WCU";
  // What was really sent: on a file, keyhole's BatchExecuteStatement; on an endpoint, the
  // statements one by one, as the operations they plan to.
  std::map<std::string, int> sent;
  for (const BatchStatementResult& one : r->responses) {
    if (!one.operation.empty()) ++sent[one.operation];
  }
  std::string ops;
  for (const auto& [op, n] : sent) ops += fmt::format("{}{} {}", ops.empty() ? "" : ", ", n, op);
  if (ops.empty()) ops = "nothing";
  Notice(fmt::format(
      "-- {} of {} statements succeeded · {} · {}\n", statements.size() - failed, statements.size(),
      settings.endpoint.empty()
          ? fmt::format("BatchExecuteStatement ({})", ops)
          : fmt::format("sent to {} one by one as {} (not as one BatchExecuteStatement)",
                        settings.endpoint, ops),
      CapacityText(Total(r->consumed_capacity), "capacity units")));
  if (failed == 0) return true;
  sink->Err(errors +
            (at.source.empty() ? "" : fmt::format("  at {} line {}\n", at.source, at.line)));
  return false;
}

Status Session::State::CheckQueued(const parser::Statement& st) {
  if (!transaction->empty()) {
    const bool reads = transaction->front().kind() == parser::StatementKind::kSelect;
    if ((st.kind() == parser::StatementKind::kSelect) != reads) {
      return Status::Validation(fmt::format(
          "a {} takes all reads (SELECT) or all writes (INSERT, UPDATE, DELETE{}), not both: "
          "this one has {} queued",
          transaction_is_batch ? "batch (BatchExecuteStatement)"
                               : "transaction (ExecuteTransaction)",
          transaction_is_batch ? "" : ", EXISTS", reads ? "reads" : "writes"));
    }
  }
  if (transaction_is_batch) return Status::OK();
  // The transaction so far with this statement, planned as COMMIT will plan it: a statement
  // DynamoDB would refuse is refused now, before it is queued.
  std::vector<parser::Statement> statements = *transaction;
  statements.push_back(st);
  Result<planner::TransactionPlan> plan = planner::PlanTransaction(statements, Schemas(db));
  return plan.status();
}

void Session::State::MarkTransactionFailed(Location at) {
  if (transaction_failure) return;  // the first failure is the one COMMIT names, said once
  const size_t n = transaction->size();
  const char* what = transaction_is_batch ? "batch" : "transaction";
  std::string where = at.source.empty() ? fmt::format("line {}", at.line)
                                        : fmt::format("{} line {}", at.source, at.line);
  if (AtPrompt(at)) where = "entered at the prompt";
  transaction_failure = fmt::format(
      "the statement after {} ({}) failed: {}",
      n == 0 ? std::string("BEGIN")
             : fmt::format("{}[{}]", transaction_is_batch ? "Statements" : "TransactStatements",
                           n - 1),
      where, report.error.empty() ? std::string("it did not run") : report.error);
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
  if (!transaction) return true;
  size_t n = transaction->size();
  std::string where = transaction_source.empty() ? std::string()
                                                 : fmt::format(" at {} line {}", transaction_source,
                                                               transaction_begun.line);
  sink->Err(fmt::format(
      "Error: {}: the {}{} was not committed; its {} queued statement{} {} discarded, nothing "
      "was sent (end it with COMMIT; or ROLLBACK;)\n",
      why, transaction_is_batch ? "BEGIN BATCH" : "BEGIN", where, n, n == 1 ? "" : "s",
      n == 1 ? "was" : "were"));
  transaction.reset();
  transaction_failure.reset();
  return false;
}

bool Session::State::RunTransactionStatement(const parser::Statement& st, Location at) {
  using parser::StatementKind;
  switch (st.kind()) {
    case StatementKind::kBegin:
      if (transaction) {
        return Fail(Status::Validation("a transaction is already open: COMMIT or ROLLBACK it"), at);
      }
      transaction.emplace();
      transaction_failure.reset();
      transaction_is_batch = st.as<parser::BeginStatement>().batch;
      transaction_begun = at;
      transaction_source = std::string(at.source);
      transaction_depth = read_depth;
      Notice(transaction_is_batch ? "-- batch started: statements are queued until COMMIT\n"
                                  : "-- transaction started: statements are queued until COMMIT\n");
      return true;
    case StatementKind::kRollback:
      if (!transaction) return Fail(Status::Validation("ROLLBACK without BEGIN"), at);
      Notice(fmt::format("-- rolled back: {} discarded, nothing was sent\n",
                         Count(static_cast<int64_t>(transaction->size()), "statement")));
      transaction.reset();
      transaction_failure.reset();
      return true;
    case StatementKind::kCommit:
      break;
    default: {  // a statement inside BEGIN ... COMMIT: checked with those queued before it
      // A refused statement is not queued, and fails the transaction (RunStatement marks it).
      if (Status refused = CheckQueued(st); !refused.ok()) return Fail(refused, at);
      transaction->push_back(st);
      const bool replaces = transaction_failure.has_value() && AtPrompt(at);
      if (replaces) transaction_failure.reset();
      Notice(fmt::format("-- queued as {}[{}]{}\n",
                         transaction_is_batch ? "Statements" : "TransactStatements",
                         transaction->size() - 1,
                         replaces ? " in place of the failed statement: COMMIT; can run the "
                                    "transaction again"
                                  : ""));
      return true;
    }
  }
  if (!transaction) return Fail(Status::Validation("COMMIT without BEGIN"), at);
  std::vector<parser::Statement> statements = std::move(*transaction);
  transaction.reset();
  if (std::optional<std::string> failure = std::exchange(transaction_failure, std::nullopt)) {
    const size_t n = statements.size();
    return Fail(Status::Validation(
                    fmt::format("the {} was not committed: {}; nothing was sent, and its {} queued "
                                "statement{} {} discarded",
                                transaction_is_batch ? "batch" : "transaction", *failure, n,
                                n == 1 ? "" : "s", n == 1 ? "was" : "were")),
                at);
  }
  if (statements.empty()) {  // DynamoDB refuses an empty ExecuteTransaction; nothing to send
    Notice("-- nothing to commit: no statement was queued since BEGIN\n");
    return true;
  }
  if (transaction_is_batch) return CommitBatch(statements, at);
  // One implementation of PartiQL transactions, shared with ExecuteTransaction (api::Service).
  Result<api::TransactionOutcome> r =
      service.RunTransaction(statements, {}, std::nullopt, ReturnConsumedCapacity::kTotal);
  if (!r.ok()) {
    Status failed = r.status();
    if (failed.message() == "Transaction request cannot include multiple operations on one item") {
      if (std::string hint = SameItemHint(statements, *this); !hint.empty()) {
        failed.WithHint(hint);
      }
    }
    return Fail(failed, at);
  }
  if (r->reads) {
    std::vector<Item> items;
    for (auto& item : r->responses) {
      if (item) items.push_back(std::move(*item));
    }
    PrintItems(items, r->first_table, std::nullopt);
    report.operation = "TransactGetItems";
    report.target = r->first_table;
    report.read = static_cast<int64_t>(statements.size());
    report.returned = static_cast<int64_t>(items.size());
    report.capacity = Total(r->consumed_capacity);
    report.units = "RCU";
    Notice(fmt::format("-- {} returned of {} reads · TransactGetItems · {}\n", items.size(),
                       statements.size(), CapacityText(Total(r->consumed_capacity), "RCU")));
    return true;
  }
  report.operation = "TransactWriteItems";
  report.target = Tables(r->consumed_capacity);
  report.capacity = Total(r->consumed_capacity);
  report.units = "WCU";
  Notice(fmt::format("-- committed {} · TransactWriteItems · {:g} WCU\n",
                     Count(static_cast<int64_t>(statements.size()), "statement"),
                     Total(r->consumed_capacity)));
  return true;
}

}  // namespace keyhole::shell
