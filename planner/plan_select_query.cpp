// SELECT as Queries: the key conditions a WHERE pins, one read per partition value of every OR
// branch (reference §2.5), and the Query requests that read them.
#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <utility>

#include "core/evaluate.h"
#include "planner/plan_select_internal.h"

namespace keyhole::planner::internal {

namespace {

Status CheckKeyType(const AttributeValue& v, const KeyAttribute& k) {
  if (v.type() == k.type) return Status::OK();
  return Status::Validation(
             "Key attribute's data type should match its data type in table's schema: Key " +
             k.name)
      .WithHint(KeyTypeHint(k, v));
}

// Whether `c` tests sort attribute `name` negated: `NOT sk = ..`, `NOT begins_with(sk, ..)`,
// `sk <> ..`.
bool NegatesSortKey(const expr::Condition& c, const std::string& name) {
  auto mentions = [&](const expr::Condition& x) {
    for (const expr::Operand& o : x.operands) {
      if (o.kind == expr::OperandKind::kPath && !o.path.elements.empty() &&
          o.path.elements[0].name == name) {
        return true;
      }
    }
    return false;
  };
  if (c.kind == expr::ConditionKind::kNot && c.children.size() == 1) {
    const expr::Condition& inner = c.children[0];
    if (inner.kind == expr::ConditionKind::kNot) return false;
    return mentions(inner);
  }
  return c.kind == expr::ConditionKind::kCompare && c.op == expr::CompareOp::kNe && mentions(c);
}

// Several OR branches on one partition value. DynamoDB refuses them ("Overlapping conditions
// with range keys are not supported in where clause") unless one of them tests the sort key
// negated (`NOT sk = ..`, `sk <> ..`): then it reads the partition once and keeps each item
// that one of the branches selects (the Parity Suite's whereOverlap.test.ts and
// partiqlGrammar.test.ts, eu-west-2 and us-east-1, October 2026). The merged read has no sort
// key condition and the OR of the branches' other conjuncts as its post-filter (none when a
// branch is the bare partition).
Status MergeOverlappingReads(const std::string& pk, const std::vector<const KeyAttribute*>& sorts,
                             std::vector<Read>* reads) {
  bool repeated = false;
  for (size_t i = 0; i < reads->size() && !repeated; ++i) {
    for (size_t j = 0; j < i && !repeated; ++j) {
      repeated = (*reads)[i].kc.partition_value == (*reads)[j].kc.partition_value;
    }
  }
  if (!repeated) return Status::OK();
  std::vector<Read> merged;
  std::vector<bool> done(reads->size(), false);
  for (size_t i = 0; i < reads->size(); ++i) {
    if (done[i]) continue;
    std::vector<size_t> group = {i};
    for (size_t j = i + 1; j < reads->size(); ++j) {
      if (!done[j] && (*reads)[j].kc.partition_value == (*reads)[i].kc.partition_value) {
        group.push_back(j);
      }
    }
    if (group.size() == 1) {
      merged.push_back(std::move((*reads)[i]));
      done[i] = true;
      continue;
    }
    bool negated = false;
    for (size_t g : group) {
      for (const auto* c : AndConjuncts(*(*reads)[g].branch)) {
        for (const KeyAttribute* a : sorts) negated = negated || NegatesSortKey(*c, a->name);
      }
    }
    if (!negated) {
      return Status::Validation(
          "Overlapping conditions with range keys are not supported in where clause");
    }
    Read one;
    one.kc.partition_name = pk;
    one.kc.partition_value = (*reads)[i].kc.partition_value;
    std::vector<expr::Condition> alternatives;
    bool everything = false;
    for (size_t g : group) {
      std::vector<expr::Condition> rest;
      for (const auto* c : AndConjuncts(*(*reads)[g].branch)) {
        if (c != (*reads)[g].pin) rest.push_back(*c);
      }
      everything = everything || rest.empty();
      if (!rest.empty()) alternatives.push_back(AndOf(std::move(rest)));
      done[g] = true;
    }
    if (!everything) {
      if (alternatives.size() == 1) {
        one.post_filter.push_back(std::move(alternatives[0]));
      } else {
        expr::Condition any;
        any.kind = expr::ConditionKind::kOr;
        any.children = std::move(alternatives);
        one.post_filter.push_back(std::move(any));
      }
    }
    merged.push_back(std::move(one));
  }
  *reads = std::move(merged);
  return Status::OK();
}

bool MentionsAny(const expr::Condition& c, const std::set<std::string>& names) {
  std::vector<std::string> mentioned;
  MentionedNames(c, &mentioned);
  for (const auto& m : mentioned) {
    if (names.count(m)) return true;
  }
  return false;
}

}  // namespace

Result<std::optional<std::vector<Read>>> KeyReads(SelectPlanning& p) {
  const parser::SelectStatement& s = p.s;
  const TableDescription& table = p.table;
  const Target& t = p.t;
  const std::string& pk = t.key->partition.name;
  const std::optional<std::vector<Read>> unpinned;
  // Key attributes may not appear in a Query's FilterExpression: the names, once a conjunct is
  // left over for a filter (a key-addressed read often has none).
  std::set<std::string> key_names;
  auto mentions_key = [&](const expr::Condition& c) {
    if (key_names.empty()) {
      key_names.insert(table.key.partition.name);
      if (table.key.sort) key_names.insert(table.key.sort->name);
      for (const std::string& name : t.key->Names()) key_names.insert(name);
    }
    return MentionsAny(c, key_names);
  };
  const std::vector<const KeyAttribute*> sorts = t.key->SortAttributes();

  // Every OR branch must pin the partition key; its sort-key predicate is the key condition.
  std::vector<Read> reads;
  for (const auto* branch : OrBranches(*s.where)) {
    auto conjuncts = AndConjuncts(*branch);
    std::optional<std::vector<AttributeValue>> values;
    const expr::Condition* pin = nullptr;
    for (const auto* c : conjuncts) {
      if ((values = PinnedValues(*c, pk))) {
        pin = c;
        break;
      }
    }
    if (!pin) {
      if (!s.order_by.empty()) {
        return Status::Validation(
            "Must have at least one non-optional hash key condition in WHERE clause when using "
            "ORDER BY clause.");
      }
      return unpinned;
    }
    Read base;
    std::vector<const expr::Condition*> used{pin};  // the conjuncts the key condition took
    auto is_used = [&](const expr::Condition* c) {
      return std::find(used.begin(), used.end(), c) != used.end();
    };
    // A multi-attribute key: every further partition attribute pinned with one `=`.
    for (const KeyAttribute& a : t.key->more_partition) {
      const expr::Condition* found = nullptr;
      for (const auto* c : conjuncts) {
        std::optional<AttributeValue> v = is_used(c) ? std::nullopt : EqualityValue(*c, a.name);
        if (!v) continue;
        KH_RETURN_IF_ERROR(CheckKeyType(*v, a));
        base.kc.more_partition.emplace_back(a.name, *v);
        found = c;
        break;
      }
      if (!found) return unpinned;
      used.push_back(found);
    }
    // The sort attributes left to right: equalities, then at most one other predicate. The
    // last one found is the key condition's `op`; the equalities before it its sort_prefix.
    bool have_sort = false;
    for (const KeyAttribute* a : sorts) {
      KeyCondition found_kc;
      const expr::Condition* found = nullptr;
      for (const auto* c : conjuncts) {
        if (!is_used(c) && SortKeyPredicate(*c, a->name, &found_kc)) {
          found = c;
          break;
        }
      }
      if (!found) break;
      used.push_back(found);
      if (have_sort) base.kc.sort_prefix.emplace_back(base.kc.sort_name, base.kc.sort_value);
      have_sort = true;
      KH_RETURN_IF_ERROR(CheckKeyType(found_kc.sort_value, *a));
      if (found_kc.op == SortKeyOp::kBetween) {
        KH_RETURN_IF_ERROR(CheckKeyType(found_kc.sort_value2, *a));
      }
      base.kc.sort_name = found_kc.sort_name;
      base.kc.op = found_kc.op;
      base.kc.sort_value = found_kc.sort_value;
      base.kc.sort_value2 = found_kc.sort_value2;
      if (found_kc.op != SortKeyOp::kEq) break;
    }
    for (const auto* c : conjuncts) {
      if (is_used(c)) continue;
      if (mentions_key(*c)) {
        KH_RETURN_IF_ERROR(expr::ValidateCondition(*c, expr::Kind::kFilter));
        base.post_filter.push_back(*c);
      } else {
        base.filter.push_back(*c);
      }
    }
    base.branch = branch;
    base.pin = pin;
    for (size_t i = 0; i < values->size(); ++i) {
      const AttributeValue& v = (*values)[i];
      KH_RETURN_IF_ERROR(CheckKeyType(v, t.key->partition));
      Read r = i + 1 < values->size() ? base : std::move(base);
      r.kc.partition_name = pk;
      r.kc.partition_value = std::move((*values)[i]);
      reads.push_back(std::move(r));
    }
  }

  KH_RETURN_IF_ERROR(MergeOverlappingReads(pk, sorts, &reads));
  return std::optional<std::vector<Read>>(std::move(reads));
}

Plan PlanQueries(SelectPlanning& p, std::vector<Read> reads, bool forward) {
  const parser::SelectStatement& s = p.s;
  Plan& plan = p.plan;
  const std::string& pk = p.t.key->partition.name;
  const std::string sk = p.t.key->sort ? p.t.key->sort->name : "";
  bool any_post =
      std::any_of(reads.begin(), reads.end(), [](const Read& r) { return !r.post_filter.empty(); });
  // A post-filter, and sorting merged items, need attributes the statement may not select:
  // fetch them too, then re-project.
  std::vector<expr::Path> fetched = p.fetch_paths;
  const bool fetch_more = (any_post || plan.sort_merged) && !s.select_all;
  if (fetch_more) {
    // (With leaf_projection, Execute's leaves are the statement's paths already.)
    if (!plan.leaf_projection) plan.reproject = s.projection;
    std::vector<std::string> needed;
    for (const auto& r : reads) {
      for (const auto& c : r.post_filter) MentionedNames(c, &needed);
    }
    if (plan.sort_merged) {
      needed.push_back(pk);
      needed.push_back(sk);
    }
    for (const auto& name : needed) {
      bool covered = std::any_of(fetched.begin(), fetched.end(), [&](const expr::Path& p) {
        return p.elements.size() == 1 && p.elements[0].name == name;
      });
      if (covered) continue;
      // Drop paths inside `name` (they would overlap), then fetch all of `name`.
      std::erase_if(fetched, [&](const expr::Path& p) { return p.elements.front().name == name; });
      expr::Path path;
      path.elements.push_back(expr::PathElement{name, 0, false});
      fetched.push_back(std::move(path));
    }
  }
  for (auto& read : reads) {
    if (any_post) {
      plan.post_filters.push_back(
          read.post_filter.empty()
              ? nullptr
              : std::make_shared<expr::Condition>(AndOf(std::move(read.post_filter))));
    }
    QueryRequest q;
    q.table_name = s.table;
    q.index_name = s.index;
    q.key_condition = std::move(read.kc);
    q.scan_index_forward = forward;
    q.return_consumed_capacity = ReturnConsumedCapacity::kIndexes;
    auto e = p.ParsedBase();
    if (fetch_more) {
      auto proj = std::make_shared<expr::ProjectionExpression>();
      proj->paths = fetched;
      e->projection = proj;
    }
    if (!read.filter.empty()) {
      e->filter = std::make_shared<expr::Condition>(AndOf(std::move(read.filter)));
    }
    if (e->filter || e->projection) q.expressions.parsed = e;
    plan.operations.push_back(std::move(q));
  }
  plan.operation_name = "Query";
  plan.merged = plan.operations.size() > 1;
  return std::move(plan);
}

}  // namespace keyhole::planner::internal
