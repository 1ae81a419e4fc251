// Internal to planner/: the pieces PlanSelect (plan_select.cpp) is made of, one file per access
// path, as DuckDB keeps one binder file per statement: plan_select_scan.cpp (a Scan, or the
// refusal of one), plan_select_query.cpp (the key conditions a WHERE pins, and the Query requests
// that read them), plan_select_order.cpp (ORDER BY over those reads). plan_select.cpp resolves
// the target, plans a GetItem where the reads allow one, and orders the steps.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "planner/plan_internal.h"

namespace keyhole::planner::internal {

// What is read: the table or one of its indexes.
struct Target {
  const KeySchema* key = nullptr;
  const IndexDescription* index = nullptr;  // null: the base table
};

// One Query of the plan before it becomes a request.
struct Read {
  KeyCondition kc;
  std::vector<expr::Condition> filter;       // the FilterExpression's conjuncts
  std::vector<expr::Condition> post_filter;  // conjuncts naming key attributes
  const expr::Condition* branch = nullptr;   // the OR branch it reads
  const expr::Condition* pin = nullptr;      // the branch's conjunct pinning the partition
};

// A SELECT being planned: the statement and its table (both outlive it), the target, the plan
// filled so far, and the paths every request fetches (the projection's, or with a nested path
// its top-level attributes: Execute reads the leaves out of them).
struct SelectPlanning {
  const parser::SelectStatement& s;
  const TableDescription& table;
  Target t;
  Plan plan;
  std::vector<expr::Path> fetch_paths;

  // A request's parsed expressions: the projection of fetch_paths (none for SELECT *).
  std::shared_ptr<expr::ParsedExpressions> ParsedBase() const;
};

// ---- plan_select_scan.cpp ----

// Why a SELECT on `t` is not key-addressable, and what would serve it: the partition attribute
// not pinned, the indexes (or the base table) whose partition key the WHERE does pin, and the
// index to create when none does.
ScanAdvice Advice(const parser::SelectStatement& s, const TableDescription& table, const Target& t);
// A Scan of the target with the WHERE as its filter (SCAN SELECT, or `advice`: a SELECT the
// options let scan); ORDER BY refused, as DynamoDB refuses it without a hash key condition.
Result<Plan> PlanScan(SelectPlanning& p, std::optional<ScanAdvice> advice);
// A SELECT that pins no partition key: refused, naming what would serve it, or scanned when
// `options.scan_unpinned_selects`.
Result<Plan> PlanUnpinned(SelectPlanning& p, const PlanOptions& options);

// ---- plan_select_query.cpp ----

// The reads the WHERE pins: one per partition value of every OR branch, with its key condition
// (the partition attributes, the sort attributes' equalities and one further predicate), its
// filter and its post-filter (conjuncts naming key attributes, which a FilterExpression may
// not), overlapping branches merged as DynamoDB merges them. nullopt when a branch pins no
// partition key (PlanUnpinned decides); DynamoDB's errors for a key of the wrong type.
// REQUIRES: p.s.where.
Result<std::optional<std::vector<Read>>> KeyReads(SelectPlanning& p);
// One Query per read (`forward`: ScanIndexForward), fetching what post-filters and a merged
// sort need besides the projection (then re-projected by Execute).
Plan PlanQueries(SelectPlanning& p, std::vector<Read> reads, bool forward);

// ---- plan_select_order.cpp ----

// ORDER BY over `reads`: key attributes only (DynamoDB's messages, with advice to index the
// attribute otherwise), the partition key first when several partitions are read. Sorts the
// reads by partition, sets the plan's merge order, and `*forward` (false: descending).
Status PlanOrderBy(SelectPlanning& p, std::vector<Read>& reads, bool* forward);

}  // namespace keyhole::planner::internal
