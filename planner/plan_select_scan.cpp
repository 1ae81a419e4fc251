// SELECT as a Scan: SCAN SELECT, or a SELECT that pins no partition key, refused with what would
// serve it (design.md's key-addressability rule) unless the options let it scan.
#include <fmt/format.h>

#include <string>
#include <utility>

#include "planner/plan_select_internal.h"

namespace keyhole::planner::internal {

namespace {

using parser::SelectStatement;

std::string Quoted(const std::string& s) { return "\"" + s + "\""; }

// Whether every OR branch pins `name` with = or IN (with `=` only: `equality_only`).
bool PinnedEverywhere(const std::vector<const expr::Condition*>& branches, const std::string& name,
                      bool equality_only = false) {
  for (const auto* b : branches) {
    bool pinned = false;
    for (const auto* c : AndConjuncts(*b)) {
      pinned = pinned || (equality_only ? EqualityValue(*c, name).has_value()
                                        : PinnedValues(*c, name).has_value());
    }
    if (!pinned) return false;
  }
  return true;
}

// The refusal of a SELECT that is not key-addressable and has no SCAN prefix: what is missing,
// which table or index would serve, and SCAN.
Status Refusal(const ScanAdvice& advice, bool index) {
  if (advice.fixes.empty()) return Status::Validation(advice.reason);
  std::string fix = "A" + advice.fixes[0].substr(1) + ", ";
  for (size_t i = 1; i < advice.fixes.size(); ++i) fix += advice.fixes[i] + ", ";
  fix += std::string("or write SCAN SELECT ... to read the whole ") + (index ? "index" : "table") +
         ".";
  Status refusal = Status::Validation("keyhole refuses to scan " + advice.target + ": " +
                                      advice.reason + ". " + fix);
  if (!advice.suggestion.empty()) refusal.WithHint(advice.suggestion);
  return refusal;
}

}  // namespace

// Why a SELECT on `t` is not key-addressable, and what would serve it: the partition attribute
// not pinned, the indexes (or the base table) whose partition key the WHERE does pin, and the
// index to create when none does.
ScanAdvice Advice(const SelectStatement& s, const TableDescription& table, const Target& t) {
  ScanAdvice advice;
  advice.target = Quoted(s.table) + (t.index ? "." + Quoted(t.index->name) : "");
  // The partition attribute not pinned (a multi-attribute key's first one that is not).
  std::string pk = t.key->partition.name;
  if (s.where && t.key->IsMultiAttribute()) {
    const auto branches = OrBranches(*s.where);
    for (const KeyAttribute* a : t.key->PartitionAttributes()) {
      // The first partition attribute may take IN; the others only `=`.
      if (!PinnedEverywhere(branches, a->name, a != &t.key->partition)) {
        pk = a->name;
        break;
      }
    }
  }
  std::vector<std::string> key_names = {pk, table.key.partition.name};
  for (const auto& idx : table.indexes) key_names.push_back(idx.key.partition.name);
  if (std::optional<std::string> quoted = PathForValue(s.where, key_names)) {
    advice.reason = std::move(*quoted);
    return advice;
  }
  std::string of_index = t.index ? " of index " + Quoted(t.index->name) : "";
  if (!s.where) {
    advice.reason = "the statement has no WHERE clause to pin the partition key " + pk + of_index;
    advice.fixes.push_back("add WHERE " + parser::NameInStatement(pk) + " = <value>");
    return advice;
  }
  advice.fixes.push_back("add " + parser::NameInStatement(pk) + " = <value>");
  advice.reason = "the WHERE does not pin the partition key " + pk + of_index +
                  (pk == t.key->partition.name ? " with = or IN" : " with =");
  auto branches = OrBranches(*s.where);
  if (t.index && PinnedEverywhere(branches, table.key.partition.name)) {
    advice.fixes.push_back("query the table " + Quoted(table.name) + " whose partition key is " +
                           table.key.partition.name);
  }
  for (const auto& idx : table.indexes) {
    if (t.index && t.index->name == idx.name) continue;
    std::string names;
    bool pinned = true;
    for (const KeyAttribute* a : idx.key.PartitionAttributes()) {
      pinned = pinned && PinnedEverywhere(branches, a->name);
      names += (names.empty() ? "" : ", ") + a->name;
    }
    if (pinned) {
      advice.fixes.push_back("query the index " + Quoted(idx.name) + " whose partition key is " +
                             (idx.key.more_partition.empty() ? names : "(" + names + ")"));
    }
  }
  if (advice.fixes.size() == 1) advice.suggestion = IndexSuggestion(s, table, t.index);
  return advice;
}

Result<Plan> PlanScan(SelectPlanning& p, std::optional<ScanAdvice> advice) {
  const SelectStatement& s = p.s;
  if (!s.order_by.empty()) {
    return Status::Validation(
        "Must have at least one non-optional hash key condition in WHERE clause when using "
        "ORDER BY clause.");
  }
  ScanRequest r;
  r.table_name = s.table;
  r.index_name = s.index;
  r.return_consumed_capacity = ReturnConsumedCapacity::kIndexes;
  auto e = p.ParsedBase();
  if (s.where) e->filter = std::make_shared<expr::Condition>(*s.where);
  if (e->filter || e->projection) r.expressions.parsed = e;
  p.plan.operation_name = "Scan";
  p.plan.operations.push_back(std::move(r));
  p.plan.implicit_scan = std::move(advice);
  return std::move(p.plan);
}

Result<Plan> PlanUnpinned(SelectPlanning& p, const PlanOptions& options) {
  ScanAdvice advice = Advice(p.s, p.table, p.t);
  if (!options.scan_unpinned_selects) return Refusal(advice, p.t.index != nullptr);
  return PlanScan(p, std::move(advice));
}

}  // namespace keyhole::planner::internal
