// api::Connection: one front end's session of PartiQL statements on a Backend — what a shell
// prompt, a script, an agent's tool calls or a browser tab hold. It plans a DML statement
// (planner/plan.h: a SELECT that is not key-addressable is refused unless it says SCAN), runs
// it page by page, keeps what NEXT continues, and returns what happened as data
// (StatementOutcome): the plan, the items, where the next page starts, what it read and
// consumed, and the error with its hint. It prints nothing; each front end renders an outcome
// its own way (the shell: rows and a footer line).
//
// What a Connection adds to the planner and a Backend, so that every front end says the same:
// - A failed condition of a one-item UPDATE or DELETE says which part of the WHERE did not hold
//   (no item has the key, or it exists and the rest was false): one GetItem after the failure.
// - A statement that names attributes where values usually go (`x = "Post"`) says they may be
//   strings written with the wrong quotes, when it matched nothing or failed on a missing
//   attribute (StatementOutcome::nothing_matched, the error's hint).
// - A DELETE of a key no item has says so (StatementOutcome::missing_deletes): the delete asks
//   for the old item, which changes neither the write nor its capacity.
//
// Ownership: the Backend (and options.cancel) outlive the Connection.
// Thread-safety: a Connection is used by one thread at a time (it holds the last SELECT and
// the statement's schemas); many Connections may share one Backend as far as the Backend allows
// (storage::Database: from any number of threads).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/partiql_api.h"
#include "api/service.h"
#include "core/backend.h"
#include "core/status.h"
#include "parser/partiql.h"
#include "planner/plan.h"

namespace keyhole::api {

// What one statement did, as a footer says it (the shell's footer, .patterns' report, an agent's
// result): filled by the Connection for the statements it runs, and by a front end for the ones
// it runs itself (DDL, API calls).
struct StatementReport {
  std::string operation;  // "GetItem", "Query", "Query ×2", "Scan", "TransactWriteItems", ...
  std::string target;     // "App", "App.byEmail", or "" (no table)
  int64_t read = 0;       // items read (ScannedCount)
  int64_t returned = 0;   // items returned
  bool more = false;      // stopped at a LastEvaluatedKey
  double capacity = 0;    // units consumed
  std::string units;      // "RCU", "WCU", "capacity units", or "" when nothing was consumed
  double read_units = 0, write_units = 0;  // `capacity` by kind, when the statement knows them
  std::string error;     // the first error it reported ("ValidationException: ..."), or ""
  bool refused = false;  // that error is the planner refusing a statement that is not
                         // key-addressable
  // Records `status` as the statement's error when it is the first (refused when it is the
  // planner's "keyhole refuses ..." ValidationException).
  void NoteError(const Status& status);
};

struct ConnectionOptions {
  // Items a SELECT's page evaluates, summed over its Queries and Scans (each read's Limit);
  // 0: only DynamoDB's 1 MB page per read.
  int64_t page_size = 0;
  // A SELECT's reads ask for ConsistentRead (StatementOutcome::consistent says when it applied).
  bool consistent_reads = false;
  // Checked before each operation and page: when set, the statement stops with
  // InterruptedException (the shell's Ctrl-C). Null: never.
  const std::atomic<bool>* cancel = nullptr;
  // The planner's options (PlanOptions::scan_unpinned_selects: DynamoDB's own rule, a Scan).
  planner::PlanOptions plan;
  // What the connection adds for people (the file comment): a failed condition explained, the
  // DELETE of a missing key noticed. Off for the wire (api::Service's ExecuteStatement), where
  // DynamoDB sends neither and nothing may be read or asked for besides the statement's own.
  bool explain = true;
};

// What one statement did.
struct StatementOutcome {
  Status status;  // OK, or the error (with its hint); then nothing below but `plan` is set
  // The statement as planned (null when it did not plan); NEXT's outcome shares its SELECT's.
  std::shared_ptr<const planner::Plan> plan;
  planner::ExecuteResult result;  // items, counts, capacity, the next page's cursor
  bool consistent = false;        // the reads asked for ConsistentRead
  int64_t missing_deletes = 0;    // a DELETE whose key no item had (nothing deleted)
  // A SELECT that matched nothing and names attributes where values go: what they may be
  // (`"x" is read as attribute name ...; if you meant a string, write 'x'`), or "".
  std::string nothing_matched;
  StatementReport report;  // as a footer says it; report.error is status's text on failure
  // Run(text) of a statement that did not parse: where the parser stopped.
  std::optional<parser::SourcePosition> parse_error_at;

  bool ok() const { return status.ok(); }
  // The target read or written: "App" or "App.byEmail" ("" when it did not plan).
  std::string target() const;
};

// What COMMIT did (Connection::Commit).
struct CommitOutcome {
  // OK, or why nothing (or, for a batch, not every statement) was written: "COMMIT without
  // BEGIN"; the transaction marked failed ("the transaction was not committed: <why>; nothing
  // was sent, ..."); the whole request's error (TransactionCanceledException with its reasons;
  // "multiple operations on one item" with a hint naming the two statements).
  Status status;
  bool batch = false;                             // BEGIN BATCH: one BatchExecuteStatement
  std::vector<parser::Statement> statements;      // what was queued (the queue is empty now)
  std::optional<TransactionOutcome> transaction;  // a transaction that was sent
  std::optional<BatchExecuteStatementResponse> batch_response;  // a batch that was sent: each
                                                                // statement's error in it
  bool ok() const { return status.ok(); }
};

class Connection {
 public:
  // `backend` must outlive the Connection.
  explicit Connection(Backend& backend, ConnectionOptions options = {});

  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  Backend& backend() { return backend_; }
  ConnectionOptions& options() { return options_; }
  const ConnectionOptions& options() const { return options_; }

  // Plans a DML statement (SELECT, INSERT, UPDATE, DELETE, with SCAN or EXPLAIN) with this
  // connection's options; the planner's errors as it gives them (the refusal's ScanAdvice in
  // the hint). Starts a new statement: the schemas read are those of this statement.
  Result<planner::Plan> Plan(const parser::Statement& statement);
  // Plan(statement), where `text` is the statement's text without parameters: when it plans to
  // a point read (a GetItem whose key values are the text's literals), the connection remembers
  // it by the text's shape, for RunRemembered.
  Result<planner::Plan> Plan(const parser::Statement& statement, std::string_view text);
  // What Run(text) returns, without parsing and planning again, when `text` has the shape of a
  // point read Plan(statement, text) remembered and differs from it only in its key values (its
  // other literals as written), on the same schema; nullopt otherwise (then parse and run it).
  // The statements of a script or a prompt that read one item after another take this path.
  std::optional<StatementOutcome> RunRemembered(std::string_view text);

  // Runs a planned statement: a SELECT's first page (from `start_key`, the ExclusiveStartKey of
  // a SELECT of one Query or Scan: ValidationException for any other), a write. An EXPLAIN plan
  // runs as its statement (the front end shows the plan). A SELECT that succeeds becomes the
  // one NEXT continues; one that fails leaves the previous one (and a failed NEXT, say
  // interrupted, can be repeated).
  StatementOutcome Execute(planner::Plan plan, std::optional<Item> start_key = std::nullopt);

  // Execute from `resume`, a cursor an earlier outcome of the same plan gave (result.next) and
  // the front end kept (ExecuteStatement's NextToken carries one). A SELECT only.
  StatementOutcome Execute(planner::Plan plan, const planner::Cursor& resume);

  // Plan then Execute. `statement` must be DML (Plan's kinds), else ValidationException.
  StatementOutcome Run(const parser::Statement& statement);
  // Parses `text` (its `?` bound to `parameters`) as one statement and runs it: DML, or NEXT;
  // another statement is ValidationException "<KIND> is not run by a connection". A parse
  // error is the outcome's status, its place in the text in parse_error_at.
  StatementOutcome Run(std::string_view text, const std::vector<AttributeValue>& parameters = {});

  // The next page of the last SELECT. ValidationException "NEXT continues the previous
  // SELECT; there is none" / "NEXT: the previous SELECT has no more pages".
  StatementOutcome Next();
  // Whether NEXT has a page to read.
  bool has_next() const { return last_plan_ && next_.has_value(); }
  // The last SELECT's plan, or null.
  const planner::Plan* last_plan() const { return last_plan_.get(); }
  // After DROP TABLE `table`: the last SELECT, when it read it, is forgotten.
  void ForgetTable(std::string_view table);

  // ---- BEGIN ... COMMIT and BEGIN BATCH ... COMMIT ----
  // Statements between Begin and Commit are queued, checked as they come, and sent together by
  // Commit: a transaction as one ExecuteTransaction (TransactGetItems or TransactWriteItems:
  // all or nothing), a batch as one BatchExecuteStatement (each statement on its own).

  // Opens a transaction (`batch`: a batch). ValidationException when one is open.
  Status Begin(bool batch);
  bool in_transaction() const { return queue_.has_value(); }
  bool transaction_is_batch() const { return batch_; }
  size_t queued() const { return queue_ ? queue_->size() : 0; }
  // Queues a DML statement. Refused, and not queued: a read among writes or a write among
  // reads; in a transaction (not a batch), a statement with which the queued ones would not plan
  // as one (planner/plan_transaction.h: DynamoDB's rules and messages). A refusal does not mark
  // the transaction failed: the front end decides (MarkFailed). REQUIRES: in_transaction().
  Status Queue(const parser::Statement& statement);
  // Marks the open transaction failed (the first mark is kept, `why` says which statement and
  // its error): Commit then sends nothing. A front end marks it when a statement meant for it
  // failed, queued or not (a syntax error, a refusal). ClearFailure forgets the mark (at a
  // prompt, the fixed statement queued in the failed one's place).
  void MarkFailed(std::string why);
  const std::optional<std::string>& failure() const { return failure_; }
  void ClearFailure() { failure_.reset(); }
  // Ends the open transaction without sending anything; the number of statements discarded.
  size_t Rollback();
  // Ends the open transaction and sends it (nothing when no statement was queued, or when it
  // was marked failed): see CommitOutcome. The queue is empty afterwards, whatever happened.
  CommitOutcome Commit();

  // The schemas of the running (or last) statement, each read once per statement (one
  // snapshot of the catalog a statement; a front end renders the statement's key columns and
  // TTL with it). Valid until the next Plan or Run.
  const planner::SchemaSource& schemas() const { return schemas_; }

 private:
  // The planner's view of the catalog for one statement: each table's schema read once.
  class StatementSchemas : public planner::SchemaSource {
   public:
    explicit StatementSchemas(Backend& backend) : backend_(backend) {}
    Result<TableSchemaPtr> TableSchema(const std::string& name) const override;
    void Clear() { seen_.clear(); }

   private:
    Backend& backend_;
    mutable std::vector<std::pair<std::string, TableSchemaPtr>> seen_;
  };

  // A point read remembered by its text's shape (Plan(statement, text)).
  struct RememberedRead {
    std::string shape;                  // parser::StatementLiterals::shape; empty: none
    std::vector<std::string> literals;  // the text's literal tokens, as written
    // Which literal gives which key attribute's value.
    std::vector<std::pair<size_t, const KeyAttribute*>> slots;  // into *schema
    TableSchemaPtr schema;  // planned on this very schema (held: no later one has its address)
    // The plan: operations[0] is the GetItemRequest, whose key RunRemembered sets to each run's
    // values, in place while no outcome but NEXT's last_plan_ holds it (else on a copy).
    std::shared_ptr<planner::Plan> plan;
  };
  void Remember(std::string_view text, const TableSchemaPtr& schema, const planner::Plan& plan);
  static constexpr size_t kRememberedReads = 8;

  StatementOutcome ExecutePlan(std::shared_ptr<const planner::Plan> plan,
                               const planner::Cursor* resume, bool consistent);
  Status ExplainConditionFailure(const planner::Plan& plan, Status status);

  Backend& backend_;
  ConnectionOptions options_;
  StatementSchemas schemas_;
  std::shared_ptr<const planner::Plan> last_plan_;
  std::optional<planner::Cursor> next_;
  // Made at the first point read remembered (a connection of one statement, as
  // ExecuteStatement's, never needs them).
  std::unique_ptr<std::array<RememberedRead, kRememberedReads>> remembered_;
  std::optional<std::vector<parser::Statement>> queue_;  // BEGIN ... COMMIT's statements
  bool batch_ = false;
  std::optional<std::string> failure_;
};

// "x" is an attribute name in PartiQL: for a statement that read nothing, or failed on a
// missing attribute, what the names `plan` uses where values usually go may be ("\"x\" is
// read as attribute name (double quotes, or none, name attributes); if you meant a string,
// write 'x'"), or "" when there are none.
std::string NamesAsValuesNote(const planner::Plan& plan);

// Sets every read of a SELECT plan to ConsistentRead; false (and nothing changed) for a plan
// that is not a SELECT.
bool ApplyConsistentRead(planner::Plan& plan);

}  // namespace keyhole::api
