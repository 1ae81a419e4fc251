// SELECT ... ORDER BY: key attributes only, as DynamoDB's PartiQL allows (reference §2.6), over
// the reads the WHERE pins.
#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <string>

#include "planner/plan_select_internal.h"

namespace keyhole::planner::internal {

namespace {

// Whether every read pins sort attribute `name` with `=` (a multi-attribute key's prefix).
bool PinnedSort(const std::vector<Read>& reads, const std::string& name) {
  return !reads.empty() && std::ranges::all_of(reads, [&](const Read& r) {
    for (const auto& [pinned, value] : r.kc.sort_prefix) {
      if (pinned == name) return true;
    }
    return r.kc.op == SortKeyOp::kEq && r.kc.sort_name == name;
  });
}

}  // namespace

Status PlanOrderBy(SelectPlanning& p, std::vector<Read>& reads, bool* forward_out) {
  const parser::SelectStatement& s = p.s;
  const TableDescription& table = p.table;
  const Target& t = p.t;
  Plan& plan = p.plan;
  const std::string& pk = t.key->partition.name;
  const std::vector<const KeyAttribute*> sorts = t.key->SortAttributes();
  // ORDER BY: key attributes only; the partition key when there are several partitions.
  bool forward = true;
  int pk_pos = -1, sk_pos = -1;
  std::set<std::string> ordered_sorts;  // sort attributes ORDER BY named so far
  for (size_t i = 0; i < s.order_by.size(); ++i) {
    const auto& o = s.order_by[i];
    auto is_sort = [&](const KeyAttribute* a) { return a->name == o.name; };
    if (o.name == pk) {
      pk_pos = static_cast<int>(i);
    } else if (std::ranges::any_of(t.key->more_partition,
                                   [&](const KeyAttribute& a) { return a.name == o.name; })) {
      // A further partition attribute of a multi-attribute key: pinned to one value, so it
      // orders nothing.
    } else if (std::ranges::any_of(sorts, is_sort)) {
      // A later sort attribute orders the results only when every one before it is ordered
      // first or pinned with `=` (the index is sorted by them in turn).
      for (const KeyAttribute* before : sorts) {
        if (before->name == o.name) break;
        if (!ordered_sorts.count(before->name) && !PinnedSort(reads, before->name)) {
          std::string names;
          for (const KeyAttribute* a : sorts) names += (names.empty() ? "" : ", ") + a->name;
          return Status::Validation("ORDER BY " + o.name + " needs " + before->name +
                                    " ordered before it or pinned with =")
              .WithHint("the index is sorted by " + names + " in turn");
        }
      }
      ordered_sorts.insert(o.name);
      // One direction for a key's sort attributes: the index stores one order.
      if (sk_pos >= 0 && forward == o.descending) {
        return Status::Validation(
                   "ORDER BY must give the sort key attributes of a multi-attribute key one "
                   "direction")
            .WithHint("an index is read in its one order, forward or backward");
      }
      if (sk_pos < 0) sk_pos = static_cast<int>(i);
      forward = !o.descending;
    } else {
      std::string sort_names;
      for (const KeyAttribute* a : sorts) sort_names += (sort_names.empty() ? "" : ", ") + a->name;
      return Status::Validation("Variable reference " + o.name +
                                " in ORDER BY clause must be part of the primary key")
          .WithHint(
              sorts.empty()
                  ? fmt::format("{} has no sort key: an item collection holds one item, and "
                                "nothing orders it. To read items in {} order, make {} the sort "
                                "key of an index (ALTER TABLE ... ADD GLOBAL INDEX) and query "
                                "that",
                                t.index ? t.index->name : table.name, o.name, o.name)
                  : fmt::format("DynamoDB returns an item collection in the order of its sort "
                                "key only: ORDER BY {} [DESC]. To read items in {} order, make "
                                "{} the sort key of an index (ALTER TABLE ... ADD GLOBAL INDEX, "
                                "or a LOCAL INDEX at CREATE TABLE) and query that",
                                sort_names, o.name, o.name));
    }
  }
  if (reads.size() > 1 && !s.order_by.empty() && pk_pos < 0) {
    return Status::Validation(
        "Must have hash key in ORDER BY clause when more than one hash key condition specified "
        "in WHERE clause.");
  }
  if (pk_pos >= 0) {
    bool desc = s.order_by[pk_pos].descending;
    std::stable_sort(reads.begin(), reads.end(), [desc](const Read& a, const Read& b) {
      int c = a.kc.partition_value.CompareKey(b.kc.partition_value);
      return desc ? c > 0 : c < 0;
    });
  }
  if (reads.size() > 1 && sk_pos >= 0 && sk_pos < pk_pos) {
    plan.sort_merged = true;
    plan.sort_descending = !forward;
    plan.partition_descending = s.order_by[pk_pos].descending;
  }

  *forward_out = forward;
  return Status::OK();
}

}  // namespace keyhole::planner::internal
