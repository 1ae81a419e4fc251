// SELECT -> GetItem / Query(s) / Scan, or a refusal (design.md's key-addressability rule;
// reference §2.5 and §2.6). See plan.h for the rules, plan_select_internal.h for the pieces.
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <utility>

#include "planner/plan_select_internal.h"

namespace keyhole::planner::internal {

namespace {

using parser::SelectStatement;

// Refuses selecting attributes a GSI does not project (reference §2.5, §4.4).
Status CheckGsiProjection(const SelectStatement& s, const TableDescription& table,
                          const Target& t) {
  if (!t.index || s.select_all) return Status::OK();
  std::vector<std::string> names;
  for (const auto& p : s.projection) names.push_back(p.elements.front().name);
  Status st = CheckGsiProjects(*t.index, table.key, names);
  if (st.ok()) return st;
  const Projection& p = t.index->projection;
  std::string held = p.type == ProjectionType::kKeysOnly
                         ? "only its keys and the table's (PROJECTION KEYS_ONLY)"
                         : fmt::format("its keys, the table's and {} (PROJECTION INCLUDE)",
                                       fmt::join(p.non_key_attributes, ", "));
  return st.WithHint(fmt::format(
      "the index {} holds {}. Read the other attributes from the table, by the keys the index "
      "returns (GetItem, BatchGetItem), or give the index them: DROP INDEX, then ADD GLOBAL "
      "INDEX again with PROJECTION INCLUDE (...) or ALL (each write then copies them too)",
      t.index->name, held));
}

}  // namespace

std::shared_ptr<expr::ParsedExpressions> SelectPlanning::ParsedBase() const {
  auto p = std::make_shared<expr::ParsedExpressions>();
  if (!s.select_all) {
    auto proj = std::make_shared<expr::ProjectionExpression>();
    proj->paths = fetch_paths;
    p->projection = proj;
  }
  return p;
}

Result<Plan> PlanSelect(const parser::Statement& st, const TableDescription& table,
                        const PlanOptions& options) {
  const auto& s = st.as<SelectStatement>();
  if (s.nearest) {
    return Status::Validation(
               "ORDER BY VECTOR_DISTANCE(...) is keyhole's vector search: DynamoDB's PartiQL has "
               "none")
        .WithHint(
            "the keyhole shell runs it as SearchVectors; through the API, call "
            "SearchVectors");
  }
  Target t{&table.key, nullptr};
  if (s.index) {
    t.index = table.FindIndex(*s.index);
    if (!t.index) {
      std::string names;
      for (const auto& idx : table.indexes) names += (names.empty() ? "" : ", ") + idx.name;
      return Status::Validation("The table does not have the specified index")
          .WithHint(fmt::format("{} has no index named {}; {}", table.name, *s.index,
                                names.empty()
                                    ? "it has no secondary indexes"
                                    : "its indexes are " + names + " (names are case-sensitive)"));
    }
    t.key = &t.index->key;
  }
  KH_RETURN_IF_ERROR(CheckGsiProjection(s, table, t));
  const std::string& pk = t.key->partition.name;
  const std::string sk = t.key->sort ? t.key->sort->name : "";

  Plan plan;
  plan.kind = parser::StatementKind::kSelect;
  plan.table = s.table;
  plan.index = s.index;
  plan.partition_key_name = pk;
  plan.sort_key_name = sk;
  for (const KeyAttribute& a : t.key->more_sort) plan.more_sort_key_names.push_back(a.name);
  plan.explain = st.explain;
  plan.analyze = st.analyze;
  for (const expr::Path& p : s.projection) {
    const std::string& name = LeafName(p);
    if (std::find(plan.columns.begin(), plan.columns.end(), name) == plan.columns.end()) {
      plan.columns.push_back(name);
    }
    if (p.elements.size() > 1 && !s.select_all) plan.leaf_projection = s.projection;
  }

  // With a nested path (leaf_projection), the operations fetch the whole top-level attributes
  // the paths start from, and Execute reads each leaf out of them: a projected item's lists
  // are compacted (`a[1]` -> {"a":[element 1]}), where the leaf must be element 1 of the
  // item's list. The capacity is the same (DynamoDB charges for the whole item). Execute
  // checks the statement's paths as DynamoDB checks a ProjectionExpression before it runs an
  // operation, where the operation's own check came before.
  std::vector<expr::Path> fetch_paths = s.projection;
  if (plan.leaf_projection) {
    fetch_paths.clear();
    for (const expr::Path& p : s.projection) {
      const std::string& name = p.elements.front().name;
      const bool listed =
          std::any_of(fetch_paths.begin(), fetch_paths.end(),
                      [&](const expr::Path& f) { return f.elements[0].name == name; });
      if (!listed) fetch_paths.push_back(expr::Path{{expr::PathElement{name, 0, false}}});
    }
  }
  SelectPlanning planning{s, table, t, std::move(plan), std::move(fetch_paths)};

  // ORDER BY checks that do not depend on the access path (reference §2.6).
  if (!s.order_by.empty() && !s.where) {
    return Status::Validation(
        "Must have WHERE clause in the statement when using ORDER BY clause.");
  }
  if (st.scan) return PlanScan(planning, std::nullopt);
  if (!s.where) return PlanUnpinned(planning, options);

  KH_ASSIGN_OR_RETURN(std::optional<std::vector<Read>> pinned, KeyReads(planning));
  if (!pinned) return PlanUnpinned(planning, options);
  std::vector<Read> reads = std::move(*pinned);
  bool forward = true;
  KH_RETURN_IF_ERROR(PlanOrderBy(planning, reads, &forward));

  // GetItem: the full primary key of the table, and nothing else.
  if (reads.size() == 1 && !t.index && reads[0].filter.empty() && reads[0].post_filter.empty() &&
      (!table.key.sort || reads[0].kc.op == SortKeyOp::kEq)) {
    GetItemRequest g;
    g.table_name = s.table;
    g.key[pk] = std::move(reads[0].kc.partition_value);
    if (table.key.sort) g.key[sk] = std::move(reads[0].kc.sort_value);
    g.return_consumed_capacity = ReturnConsumedCapacity::kIndexes;
    auto e = planning.ParsedBase();
    if (e->projection) g.expressions.parsed = e;
    planning.plan.operation_name = "GetItem";
    planning.plan.operations.push_back(std::move(g));
    return std::move(planning.plan);
  }

  return PlanQueries(planning, std::move(reads), forward);
}

}  // namespace keyhole::planner::internal

namespace keyhole::planner {

ScanAdvice AdviseScan(const TableDescription& table, const std::optional<std::string>& index,
                      const std::optional<expr::Condition>& filter) {
  internal::Target t{&table.key, nullptr};
  if (index) {
    t.index = table.FindIndex(*index);
    if (t.index) t.key = &t.index->key;
  }
  parser::SelectStatement s;
  s.table = table.name;
  if (t.index) s.index = index;
  s.where = filter;
  return internal::Advice(s, table, t);
}

}  // namespace keyhole::planner
