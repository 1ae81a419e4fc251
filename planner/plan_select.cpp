// SELECT -> GetItem / Query(s) / Scan, or a refusal (design.md's key-addressability rule;
// reference §2.5 and §2.6). See plan.h for the rules.
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <set>
#include <utility>

#include "core/evaluate.h"
#include "planner/plan_internal.h"

namespace keyhole::planner::internal {

namespace {

using parser::SelectStatement;

// What is read: the table or one of its indexes.
struct Target {
  const KeySchema* key = nullptr;
  const IndexDescription* index = nullptr;  // null: the base table
};

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

Status CheckKeyType(const AttributeValue& v, const KeyAttribute& k) {
  if (v.type() == k.type) return Status::OK();
  return Status::Validation(
             "Key attribute's data type should match its data type in table's schema: Key " +
             k.name)
      .WithHint(KeyTypeHint(k, v));
}

// One Query of the plan before it becomes a request.
struct Read {
  KeyCondition kc;
  std::vector<expr::Condition> filter;       // the FilterExpression's conjuncts
  std::vector<expr::Condition> post_filter;  // conjuncts naming key attributes
  const expr::Condition* branch = nullptr;   // the OR branch it reads
  const expr::Condition* pin = nullptr;      // the branch's conjunct pinning the partition
};

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

// Whether every read pins sort attribute `name` with `=` (a multi-attribute key's prefix).
bool PinnedSort(const std::vector<Read>& reads, const std::string& name) {
  return !reads.empty() && std::ranges::all_of(reads, [&](const Read& r) {
    for (const auto& [pinned, value] : r.kc.sort_prefix) {
      if (pinned == name) return true;
    }
    return r.kc.op == SortKeyOp::kEq && r.kc.sort_name == name;
  });
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
  auto parsed_base = [&] {
    auto p = std::make_shared<expr::ParsedExpressions>();
    if (!s.select_all) {
      auto proj = std::make_shared<expr::ProjectionExpression>();
      proj->paths = fetch_paths;
      p->projection = proj;
    }
    return p;
  };

  // ORDER BY checks that do not depend on the access path (reference §2.6).
  if (!s.order_by.empty()) {
    if (!s.where) {
      return Status::Validation(
          "Must have WHERE clause in the statement when using ORDER BY clause.");
    }
  }

  // A Scan of the target with the WHERE as its filter: SCAN SELECT, or (advice) a SELECT the
  // options let scan.
  auto scan = [&](std::optional<ScanAdvice> advice) -> Result<Plan> {
    if (!s.order_by.empty()) {
      return Status::Validation(
          "Must have at least one non-optional hash key condition in WHERE clause when using "
          "ORDER BY clause.");
    }
    ScanRequest r;
    r.table_name = s.table;
    r.index_name = s.index;
    r.return_consumed_capacity = ReturnConsumedCapacity::kIndexes;
    auto p = parsed_base();
    if (s.where) p->filter = std::make_shared<expr::Condition>(*s.where);
    if (p->filter || p->projection) r.expressions.parsed = p;
    plan.operation_name = "Scan";
    plan.operations.push_back(std::move(r));
    plan.implicit_scan = std::move(advice);
    return plan;
  };
  // A SELECT that pins no partition key: refused, or scanned when the options say so.
  auto unpinned = [&]() -> Result<Plan> {
    ScanAdvice advice = Advice(s, table, t);
    if (!options.scan_unpinned_selects) return Refusal(advice, t.index != nullptr);
    return scan(std::move(advice));
  };
  if (st.scan) return scan(std::nullopt);

  if (!s.where) return unpinned();

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
      return unpinned();
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
      if (!found) return unpinned();
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

  // GetItem: the full primary key of the table, and nothing else.
  if (reads.size() == 1 && !t.index && reads[0].filter.empty() && reads[0].post_filter.empty() &&
      (!table.key.sort || reads[0].kc.op == SortKeyOp::kEq)) {
    GetItemRequest g;
    g.table_name = s.table;
    g.key[pk] = std::move(reads[0].kc.partition_value);
    if (table.key.sort) g.key[sk] = std::move(reads[0].kc.sort_value);
    g.return_consumed_capacity = ReturnConsumedCapacity::kIndexes;
    auto p = parsed_base();
    if (p->projection) g.expressions.parsed = p;
    plan.operation_name = "GetItem";
    plan.operations.push_back(std::move(g));
    return plan;
  }

  bool any_post =
      std::any_of(reads.begin(), reads.end(), [](const Read& r) { return !r.post_filter.empty(); });
  // A post-filter, and sorting merged items, need attributes the statement may not select:
  // fetch them too, then re-project.
  std::vector<expr::Path> fetched = fetch_paths;
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
    auto p = parsed_base();
    if (fetch_more) {
      auto proj = std::make_shared<expr::ProjectionExpression>();
      proj->paths = fetched;
      p->projection = proj;
    }
    if (!read.filter.empty()) {
      p->filter = std::make_shared<expr::Condition>(AndOf(std::move(read.filter)));
    }
    if (p->filter || p->projection) q.expressions.parsed = p;
    plan.operations.push_back(std::move(q));
  }
  plan.operation_name = "Query";
  plan.merged = plan.operations.size() > 1;
  return plan;
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
