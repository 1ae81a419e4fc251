// BEGIN; ...; COMMIT; in the shell: DML statements between BEGIN and COMMIT are queued, then
// planned together (planner/transaction.h) and sent as one TransactWriteItems or
// TransactGetItems (all or nothing). ROLLBACK discards the queue; nothing was sent.
// A cancelled transaction prints DynamoDB's TransactionCanceledException and its
// CancellationReasons (Session::State::Fail).
// An INSERT whose key exists fails its attribute_not_exists condition: ConditionalCheckFailed
// (DynamoDB's code inside ExecuteTransaction's reasons for this case is not verified).
#include <fmt/format.h>

#include <string>
#include <variant>
#include <vector>

#include "planner/transaction.h"
#include "shell/session_state.h"

namespace keyhole::shell {

namespace {

double Total(const std::vector<ConsumedCapacity>& c) {
  double units = 0;
  for (const ConsumedCapacity& t : c) units += t.total.capacity_units;
  return units;
}

}  // namespace

bool Session::State::RunTransactionStatement(const parser::Statement& st, Location at) {
  using parser::StatementKind;
  switch (st.kind()) {
    case StatementKind::kBegin:
      if (transaction) {
        return Fail(Status::Validation("a transaction is already open: COMMIT or ROLLBACK it"), at);
      }
      transaction.emplace();
      Out("-- transaction started: statements are queued until COMMIT\n");
      return true;
    case StatementKind::kRollback:
      if (!transaction) return Fail(Status::Validation("ROLLBACK without BEGIN"), at);
      Out(fmt::format("-- rolled back: {} statements discarded, nothing was sent\n",
                      transaction->size()));
      transaction.reset();
      return true;
    case StatementKind::kCommit:
      break;
    default: {  // a statement inside BEGIN ... COMMIT
      transaction->push_back(st);
      Out(fmt::format("-- queued as TransactStatements[{}]\n", transaction->size() - 1));
      return true;
    }
  }
  if (!transaction) return Fail(Status::Validation("COMMIT without BEGIN"), at);
  std::vector<parser::Statement> statements = std::move(*transaction);
  transaction.reset();
  Schemas schemas(db);
  Result<planner::TransactionPlan> plan = planner::PlanTransaction(statements, schemas);
  if (!plan.ok()) return Fail(plan.status(), at);
  if (const auto* gets = std::get_if<TransactGetItemsRequest>(&plan->request)) {
    Result<TransactGetItemsResponse> r = db.TransactGetItems(*gets);
    if (!r.ok()) return Fail(r.status(), at);
    std::vector<Item> items;
    for (auto& item : r->responses) {
      if (item) items.push_back(std::move(*item));
    }
    const std::string& table = gets->transact_items.at(0).get.table_name;
    PrintItems(items, table, std::nullopt);
    Out(fmt::format("-- {} returned of {} reads · TransactGetItems · {:g} RCU\n", items.size(),
                    statements.size(), Total(r->consumed_capacity)));
    return true;
  }
  const auto& writes = std::get<TransactWriteItemsRequest>(plan->request);
  Result<TransactWriteItemsResponse> r = db.TransactWriteItems(writes);
  if (!r.ok()) return Fail(r.status(), at);
  Out(fmt::format("-- committed {} statements · TransactWriteItems · {:g} WCU\n", statements.size(),
                  Total(r->consumed_capacity)));
  return true;
}

}  // namespace keyhole::shell
