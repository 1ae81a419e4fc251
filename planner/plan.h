// The planner: turns a parsed PartiQL DML statement (parser/partiql.h) into DynamoDB operations
// (core/operations.h), applying design.md's key-addressability rule, and runs such a plan
// through an Executor. The planner never includes storage: it sees schemas through
// SchemaSource and executes through Executor, both implemented by the caller over a Backend
// (api/service.h's BackendSchemas and BackendExecutor: api::Connection and api::Service), or by
// a test.
//
// ==== How statements are planned ====
//
// SELECT (without SCAN), on the table or on the index named in FROM "T"."Index":
//  - GetItem when the WHERE is a single AND of `=` predicates that pin the full primary key of
//    the table and nothing else (not when reading an index).
//  - Query(s) when every OR branch pins the target's partition key with `=` or IN: one Query per
//    (branch, partition value). A sort-key predicate (=, <, <=, >, >=, BETWEEN, begins_with) of
//    a branch becomes the Query's KeyCondition (structured, QueryRequest::key_condition); all
//    other conjuncts of the branch become its FilterExpression (ExpressionInput::parsed).
//    Decision: a WHERE that pins the full key AND has extra conjuncts is a one-item Query with
//    a filter (not GetItem + post-filter), so Count/ScannedCount/capacity are faithful.
//    A conjunct that names a key attribute of the table or of the read index outside the key
//    condition (`sk <> 'x'`, a second sort-key predicate, `pk = ..` on a GSI read) cannot be a
//    Query FilterExpression (DynamoDB refuses key attributes there), so it becomes the Query's
//    post-filter (Plan::post_filters), evaluated by Execute after the read; when the statement
//    projects, the Query also fetches the attributes the post-filter needs and Execute
//    re-projects (Plan::reproject).
//    Decision: `pk IN [..] AND sk = v` (full keys pinned) stays one Query per key rather than
//    a BatchGetItem: that is DynamoDB's own translation (reference §2.5), and the capacity is
//    the same (each one-item read rounds to 4 KB on its own either way).
//    Two reads of the same partition value are refused with DynamoDB's
//    "Overlapping conditions with range keys are not supported in where clause", unless one of
//    their branches tests the sort key negated (`NOT sk = ..`, `sk <> ..`): then, as DynamoDB
//    does, the partition is read once and the OR of the branches is its post-filter.
//  - Otherwise refused (ValidationException) with a message naming the missing key, an index
//    (or the base table) whose partition key the WHERE does pin, and `SCAN SELECT`; or, with
//    PlanOptions::scan_unpinned_selects, planned as SCAN SELECT is, with Plan::implicit_scan
//    saying why and what would serve it (DynamoDB's ExecuteStatement scans there).
// SCAN SELECT: one Scan of the table or index with the whole WHERE as the filter.
// Projection paths become a parsed ProjectionExpression. Reading a GSI whose projection does not
// include a selected attribute is refused: "One or more parameter values were invalid: Global
// secondary index <idx> does not project [a, b]" (top-level names, statement order). An unknown
// index is "The table does not have the specified index".
// ORDER BY (reference §2.6, DynamoDB's messages): only target key attributes; the sort key's
// direction sets ScanIndexForward; several partition values need the partition key in ORDER BY,
// whose direction orders the Queries (by CompareKey). When the sort key is ordered before the
// partition key across several partitions, Plan::sort_merged asks Execute to sort the merged
// items by (sort key, partition key).
//
// INSERT: PutItem with ConditionExpression attribute_not_exists(<pk>); key attributes must be
// present and of the declared type (reference §2.7). Execute maps its
// ConditionalCheckFailedException to DuplicateItemException "Duplicate primary key exists in
// table".
// UPDATE: UpdateItem. The WHERE must be an AND with one `=` on every key attribute (reference
// §2.8 messages); the other conjuncts AND attribute_exists(<pk>) are the ConditionExpression;
// the actions are the UpdateExpression (checked with expr::ValidateUpdate); RETURNING ->
// ReturnValues.
// DELETE: DeleteItem, the same WHERE rules, no attribute_exists added.
// SCAN UPDATE / SCAN DELETE: a Scan of the table (filter: the WHERE, projection: the key) and
// Plan::per_item_write, an UpdateItem / DeleteItem template applied to each item found, guarded
// by the WHERE again (UPDATE also by attribute_exists(<pk>)), so an item changed since the Scan
// is skipped rather than wrongly written. Items are written one by one, each its own operation
// (not one transaction). RETURNING applies per item.
// EXISTS and non-DML statements are refused (they are a transaction's business, or a front end's).
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/backend.h"
#include "core/expression.h"
#include "core/operations.h"
#include "core/schema.h"
#include "core/status.h"
#include "parser/partiql.h"

namespace keyhole::planner {

// Where the planner gets table schemas. Implementations must answer a missing table with
// ResourceNotFoundException (storage::Database::TableSchema does).
class SchemaSource {
 public:
  virtual ~SchemaSource() = default;
  // The schema of `table_name` (shared, not copied), or its ResourceNotFoundException.
  virtual Result<TableSchemaPtr> TableSchema(const std::string& table_name) const = 0;
};

using Operation = std::variant<GetItemRequest, QueryRequest, ScanRequest, PutItemRequest,
                               UpdateItemRequest, DeleteItemRequest>;

// How a planner would have a SELECT that is not key-addressable served instead.
struct ScanAdvice {
  std::string target;  // "\"T\"" or "\"T\".\"I\""
  // "the WHERE does not pin the partition key pk with = or IN", "the statement has no WHERE
  // clause to pin the partition key pk", or the explanation of a name written where a value goes.
  std::string reason;
  // What serves it without a scan, in order: "add pk = <value>", "query the index \"byX\" whose
  // partition key is x", ... (empty after a name-for-value explanation).
  std::vector<std::string> fixes;
  // The index to create, as a statement to copy, when no existing one serves (or "").
  std::string suggestion;
};

// A planned statement: operations to run in order, plus what presentation needs.
struct Plan {
  parser::StatementKind kind = parser::StatementKind::kSelect;
  std::string operation_name;  // "GetItem", "Query", "Scan", "PutItem", "UpdateItem", ...
  std::string table;
  std::optional<std::string> index;  // the index read, if any
  std::vector<Operation> operations;
  // Several Queries whose items are concatenated in operation order (IN / OR branches).
  bool merged = false;
  // Sort the merged items by the target's sort key (descending when sort_descending), then by
  // partition key (descending when partition_descending): ORDER BY <sk> before <pk> across
  // several partitions.
  bool sort_merged = false;
  bool sort_descending = false;
  bool partition_descending = false;
  std::string sort_key_name, partition_key_name;  // the target's key attributes
  std::vector<std::string> more_sort_key_names;   // a multi-attribute key's further sort ones
  // INSERT: a ConditionalCheckFailedException means the key exists -> DuplicateItemException.
  bool duplicate_on_condition_failure = false;
  // Per operation (empty, or one entry per operation; null = none): a condition Execute applies
  // to the operation's items after the read. See "post-filter" above.
  std::vector<std::shared_ptr<const expr::Condition>> post_filters;
  // When set, Execute projects every returned item to these paths (after post-filtering).
  std::optional<std::vector<expr::Path>> reproject;
  // SELECT with a nested path (`a.b`): DynamoDB's ExecuteStatement returns each selected value
  // under the name of the path's last step ({"b": ...}), not inside its enclosing maps. When
  // set, Execute rebuilds every returned item so (paths that end in a list index keep their
  // top-level name). The shell shows the same columns. The operations then fetch the whole
  // top-level attributes the paths start from (a projected list is compacted, so its
  // elements could not be found by index), and Execute checks the paths themselves, as a
  // ProjectionExpression, before it runs them.
  std::optional<std::vector<expr::Path>> leaf_projection;
  // SCAN UPDATE / SCAN DELETE: the write applied to every item operations[0] (a Scan) returns;
  // its key is filled from the item. Only UpdateItemRequest or DeleteItemRequest.
  std::optional<Operation> per_item_write;
  // Attribute names the statement uses where a value usually goes (`x = "Post"`,
  // `begins_with(sk, "POST#")`, `SET a = "hello"`): double quotes (or none) make a name, so
  // these may be strings written with the wrong quotes. A front end can say so when the
  // statement read nothing or failed on a missing attribute.
  std::vector<std::string> names_as_values;
  // SELECT a, b.c, ...: the top-level names of the projection, in the statement's order, once
  // each (empty for SELECT *): the columns a table or CSV shows.
  std::vector<std::string> columns;
  bool explain = false;  // EXPLAIN: the caller shows the plan instead of (or besides) running it
  bool analyze = false;
  // A SELECT planned as a Scan because PlanOptions::scan_unpinned_selects let it, where it
  // would otherwise be refused: why it scans and what would serve it instead.
  std::optional<ScanAdvice> implicit_scan;
};

// What the front end allows beyond the planner's own rules.
struct PlanOptions {
  // Plan a SELECT that pins no partition key as DynamoDB's ExecuteStatement runs it, a Scan of
  // the table or index with the WHERE as its filter (Plan::implicit_scan says so), where the
  // planner otherwise refuses it ("keyhole refuses to scan ..."). `keyhole serve` sets it; the
  // shell does not.
  bool scan_unpinned_selects = false;
};

// Plans one statement (SELECT, INSERT, UPDATE, DELETE, optionally SCAN-prefixed). Errors are
// ValidationExceptions (texts above), or the SchemaSource's error for an unknown table.
// Thread-safe; reads only the schemas it asks `schemas` for.
//
// A SELECT that reads one item by its full primary key (`WHERE pk = v AND sk = w`, in either
// order and either way around) is planned once per statement shape and schema object
// (Statement::shape_id; a few per thread): later statements of that shape take the remembered
// GetItem with their own key values. The result, errors included, is that of planning anew.
Result<Plan> PlanStatement(const parser::Statement& statement, const SchemaSource& schemas,
                           const PlanOptions& options = {});
// PlanStatement without the remembered plans (for tests that compare the two).
Result<Plan> PlanStatementUncached(const parser::Statement& statement, const SchemaSource& schemas,
                                   const PlanOptions& options = {});
// What would serve a Scan of `table` (or of its index `index`) with the filter `filter` as a
// Query: the advice a SELECT with that WHERE gets. For reporting Scan calls.
ScanAdvice AdviseScan(const TableDescription& table, const std::optional<std::string>& index,
                      const std::optional<expr::Condition>& filter);

// How many statements this thread planned from a remembered plan (for tests).
uint64_t RememberedPlanHits();

// Runs operations; implemented by the caller over storage::Database (or a remote endpoint).
class Executor {
 public:
  virtual ~Executor() = default;
  virtual Result<GetItemResponse> GetItem(const GetItemRequest& r) = 0;
  virtual Result<QueryResponse> Query(const QueryRequest& r) = 0;
  virtual Result<ScanResponse> Scan(const ScanRequest& r) = 0;
  virtual Result<PutItemResponse> PutItem(const PutItemRequest& r) = 0;
  virtual Result<UpdateItemResponse> UpdateItem(const UpdateItemRequest& r) = 0;
  virtual Result<DeleteItemResponse> DeleteItem(const DeleteItemRequest& r) = 0;
};

// Where a SELECT continues: the operation to run next and, when that operation stopped at a
// LastEvaluatedKey, its ExclusiveStartKey (none: the operation starts from its beginning).
struct Cursor {
  size_t operation = 0;
  std::optional<Item> exclusive_start_key;
};

struct ExecuteOptions {
  const Cursor* resume = nullptr;  // continue a SELECT where a previous ExecuteResult::next says
  // Limit for the Queries/Scans of a SELECT: the most items one call evaluates, summed over
  // its operations (0: no limit beyond DynamoDB's 1 MB page per operation).
  int64_t limit = 0;
  // Checked before each operation and page; when set, Execute stops with InterruptedException.
  const std::atomic<bool>* cancel = nullptr;
};

// What a statement returned, shaped like ExecuteStatement's response.
struct ExecuteResult {
  std::vector<Item> items;                 // read items, or the RETURNING item of a write
  int64_t count = 0;                       // items returned
  int64_t scanned_count = 0;               // items evaluated (GetItem: 1 when found)
  std::optional<Item> last_evaluated_key;  // the last operation's, when it had one
  double capacity_units = 0;               // summed over all operations
  double read_units = 0, write_units = 0;  // capacity_units by kind (a SCAN UPDATE has both)
  // Per table and index ("T", "T.I"), as core/capacity.h AddUnitsByTarget sums them: the
  // write amplification of a write (the table's unit and each index's).
  std::map<std::string, Capacity> units;
  // A SELECT that stopped before its end: pass as ExecuteOptions::resume to read on.
  std::optional<Cursor> next;
};

// Runs the plan's operations in order (stopping at the first error), merges the items, sums the
// consumed capacity (Plan operations ask for TOTAL), applies sort_merged, and maps INSERT's
// ConditionalCheckFailedException to DuplicateItemException.
// Paging a SELECT: the Queries/Scans run in order from options.resume; a call ends at the
// first operation that stops at a LastEvaluatedKey (1 MB, or options.limit reached), which
// becomes result.next = {that operation, its LastEvaluatedKey}; when the limit runs out
// exactly between operations, next = {the following operation, no key}. Stitching the pages
// returns every item once. A plan with sort_merged (ORDER BY the sort key across partitions)
// reads every page of every operation in one call, since the merge needs all items; options.limit
// does not apply to it.
// With per_item_write: pages through the whole Scan, then writes each item found; an item whose
// condition fails at write time is skipped; count is the number of items written, items the
// RETURNING items, scanned_count the Scan's; the first other error stops (earlier writes stay),
// and so does options.cancel.
Result<ExecuteResult> Execute(const Plan& plan, Executor& executor,
                              const ExecuteOptions& options = {});

// The name a selected path's value is returned under: its last name step (`a.b` -> b); for a
// path ending in a list index, its top-level name (⚠️ DynamoDB's naming there is unverified).
const std::string& LeafName(const expr::Path& p);

}  // namespace keyhole::planner
