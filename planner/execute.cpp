// Execute(): runs a Plan's operations through an Executor and merges their results.
#include <fmt/format.h>

#include <algorithm>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "core/capacity.h"
#include "core/evaluate.h"
#include "planner/plan.h"

namespace keyhole::planner {

namespace {

// Adds one operation's consumed capacity to `out`'s sums.
void Charge(ExecuteResult& out, const std::optional<ConsumedCapacity>& c, bool write) {
  if (!c) return;
  out.capacity_units += c->total.capacity_units;
  if (out.units.empty()) {  // the first operation's (a point read's only): no map to merge
    AddUnitsByTarget(*c, write, &out.units);
    for (const auto& [target, u] : out.units) {
      out.read_units += u.read_units;
      out.write_units += u.write_units;
    }
    return;
  }
  std::map<std::string, Capacity> units;
  AddUnitsByTarget(*c, write, &units);
  for (const auto& [target, u] : units) {
    Capacity& into = out.units[target];
    into.capacity_units += u.capacity_units;
    into.read_units += u.read_units;
    into.write_units += u.write_units;
    out.read_units += u.read_units;
    out.write_units += u.write_units;
  }
}

// <0, 0, >0 comparing attribute `name` of two items; items lacking it (or of another type) sort
// first.
int CompareAttr(const Item& a, const Item& b, const std::string& name) {
  auto ia = a.find(name), ib = b.find(name);
  bool ha = ia != a.end() && ia->second.IsScalarKeyType();
  bool hb = ib != b.end() && ib->second.IsScalarKeyType();
  if (!ha || !hb) return static_cast<int>(ha) - static_cast<int>(hb);
  if (ia->second.type() != ib->second.type()) {
    return static_cast<int>(ia->second.type()) - static_cast<int>(ib->second.type());
  }
  return ia->second.CompareKey(ib->second);
}

Status CheckCancel(const ExecuteOptions& options) {
  if (options.cancel && options.cancel->load(std::memory_order_relaxed)) {
    return Status(ErrorCode::kInterrupted, "Interrupted");
  }
  return Status::OK();
}

// One page of the Query or Scan `op`, from `start_key`, evaluating at most `limit` items
// (0: no limit).
Result<ReadResponse> ReadPage(Executor& executor, const Operation& op,
                              const std::optional<Item>& start_key, int64_t limit) {
  auto page = [&](auto request) -> Result<ReadResponse> {
    if (start_key) request.exclusive_start_key = start_key;
    if (limit > 0 && (!request.limit || *request.limit > limit)) {
      request.limit = static_cast<int>(std::min<int64_t>(limit, 1 << 30));
    }
    if constexpr (std::is_same_v<decltype(request), QueryRequest>) {
      return executor.Query(request);
    } else {
      return executor.Scan(request);
    }
  };
  if (const auto* q = std::get_if<QueryRequest>(&op)) return page(*q);
  return page(std::get<ScanRequest>(op));
}

// A SELECT's reads (see Execute in plan.h for the paging rules).
Result<ExecuteResult> ExecuteRead(const Plan& plan, Executor& executor,
                                  const ExecuteOptions& options) {
  ExecuteResult out;
  Cursor at = options.resume ? *options.resume : Cursor{};
  const bool all_pages = plan.sort_merged;
  int64_t budget = all_pages ? 0 : options.limit;
  for (; at.operation < plan.operations.size(); ++at.operation, at.exclusive_start_key.reset()) {
    const Operation& op = plan.operations[at.operation];
    KH_RETURN_IF_ERROR(CheckCancel(options));
    if (const auto* g = std::get_if<GetItemRequest>(&op)) {
      KH_ASSIGN_OR_RETURN(GetItemResponse r, executor.GetItem(*g));
      Charge(out, r.consumed_capacity, false);
      if (r.item) {
        out.items.push_back(std::move(*r.item));
        ++out.count;
        ++out.scanned_count;
      }
      continue;
    }
    const size_t i = at.operation;
    const expr::Condition* post =
        i < plan.post_filters.size() ? plan.post_filters[i].get() : nullptr;
    while (true) {
      KH_RETURN_IF_ERROR(CheckCancel(options));
      KH_ASSIGN_OR_RETURN(ReadResponse page,
                          ReadPage(executor, op, at.exclusive_start_key,
                                   options.limit > 0 && !all_pages ? budget : 0));
      Charge(out, page.consumed_capacity, false);
      out.scanned_count += page.scanned_count;
      for (auto& item : page.items) {
        if (post && !expr::Evaluate(*post, item)) continue;
        out.items.push_back(std::move(item));
        ++out.count;
      }
      if (!all_pages) {
        out.last_evaluated_key = page.last_evaluated_key;
        if (options.limit > 0) budget -= page.scanned_count;
        if (page.last_evaluated_key) {
          out.next = Cursor{i, std::move(page.last_evaluated_key)};
          return out;
        }
        if (options.limit > 0 && budget <= 0 && i + 1 < plan.operations.size()) {
          out.next = Cursor{i + 1, std::nullopt};
          return out;
        }
        break;
      }
      if (!page.last_evaluated_key) break;
      at.exclusive_start_key = std::move(page.last_evaluated_key);
    }
  }
  return out;
}

// SCAN UPDATE / SCAN DELETE: collect the keys of every matching item (all Scan pages), then
// write them one by one; an item whose guard fails at write time is skipped.
Result<ExecuteResult> ExecuteScanWrite(const Plan& plan, Executor& executor,
                                       const ExecuteOptions& options) {
  ExecuteResult out;
  ScanRequest scan = std::get<ScanRequest>(plan.operations.at(0));
  std::vector<Item> keys;
  while (true) {
    KH_RETURN_IF_ERROR(CheckCancel(options));
    KH_ASSIGN_OR_RETURN(ScanResponse page, executor.Scan(scan));
    Charge(out, page.consumed_capacity, false);
    out.scanned_count += page.scanned_count;
    for (auto& item : page.items) keys.push_back(std::move(item));
    if (!page.last_evaluated_key) break;
    scan.exclusive_start_key = std::move(page.last_evaluated_key);
  }
  // A stop part way (Ctrl-C, or an error) says how far the writes went: each was its own
  // operation, and those done stay done.
  auto stopped = [&](const Status& st) {
    return Status(
        st.code(),
        fmt::format("{} ({} of the {} matching items had been {})", st.message(), out.count,
                    keys.size(),
                    std::holds_alternative<DeleteItemRequest>(*plan.per_item_write) ? "deleted"
                                                                                    : "updated"));
  };
  for (auto& key : keys) {
    if (Status st = CheckCancel(options); !st.ok()) return stopped(st);
    Status st = std::visit(
        [&](const auto& templ) -> Status {
          using T = std::decay_t<decltype(templ)>;
          if constexpr (std::is_same_v<T, UpdateItemRequest> ||
                        std::is_same_v<T, DeleteItemRequest>) {
            T w = templ;
            w.key = std::move(key);
            auto r = [&] {
              if constexpr (std::is_same_v<T, UpdateItemRequest>) {
                return executor.UpdateItem(w);
              } else {
                return executor.DeleteItem(w);
              }
            }();
            if (!r.ok()) return r.status().IsConditionFailed() ? Status::OK() : r.status();
            Charge(out, r->consumed_capacity, true);
            ++out.count;
            if (r->attributes) out.items.push_back(std::move(*r->attributes));
            return Status::OK();
          } else {
            return Status::Internal("a per-item write must be UpdateItem or DeleteItem");
          }
        },
        *plan.per_item_write);
    if (!st.ok()) return stopped(st);
  }
  return out;
}

}  // namespace

const std::string& LeafName(const expr::Path& p) {
  const expr::PathElement& last = p.elements.back();
  return last.is_index ? p.elements.front().name : last.name;
}

Result<ExecuteResult> Execute(const Plan& plan, Executor& executor, const ExecuteOptions& options) {
  if (plan.per_item_write) return ExecuteScanWrite(plan, executor, options);
  ExecuteResult out;
  if (plan.kind == parser::StatementKind::kSelect) {
    if (plan.leaf_projection) {
      // The operations fetch whole top-level attributes (plan.h): the statement's own paths
      // are checked here, where the operations' ProjectionExpression would have been.
      expr::ProjectionExpression paths;
      paths.paths = *plan.leaf_projection;
      KH_RETURN_IF_ERROR(expr::ValidateProjection(paths));
    }
    KH_ASSIGN_OR_RETURN(out, ExecuteRead(plan, executor, options));
  } else {
    for (const Operation& op : plan.operations) {
      KH_RETURN_IF_ERROR(CheckCancel(options));
      Status st = std::visit(
          [&](const auto& r) -> Status {
            using T = std::decay_t<decltype(r)>;
            if constexpr (std::is_same_v<T, PutItemRequest>) {
              auto p = executor.PutItem(r);
              if (!p.ok()) {
                if (plan.duplicate_on_condition_failure && p.status().IsConditionFailed()) {
                  return Status(ErrorCode::kDuplicateItem, "Duplicate primary key exists in table")
                      .WithHint(
                          "INSERT adds a new item only, and an item with this key exists. "
                          "UPDATE changes it (SET ..., REMOVE ...); the API's PutItem "
                          "replaces it whole");
                }
                return p.status();
              }
              Charge(out, p->consumed_capacity, true);
              if (p->attributes) out.items.push_back(std::move(*p->attributes));
            } else if constexpr (std::is_same_v<T, UpdateItemRequest> ||
                                 std::is_same_v<T, DeleteItemRequest>) {
              // RETURNING's item, if any, is Items[0].
              auto w = [&] {
                if constexpr (std::is_same_v<T, UpdateItemRequest>) {
                  return executor.UpdateItem(r);
                } else {
                  return executor.DeleteItem(r);
                }
              }();
              if (!w.ok()) return w.status();
              Charge(out, w->consumed_capacity, true);
              if (w->attributes) out.items.push_back(std::move(*w->attributes));
            } else {
              return Status::Internal("a write plan holds only PutItem, UpdateItem, DeleteItem");
            }
            return Status::OK();
          },
          op);
      if (!st.ok()) return st;
    }
    out.count = static_cast<int64_t>(out.items.size());
  }
  if (plan.sort_merged) {
    std::stable_sort(out.items.begin(), out.items.end(), [&](const Item& a, const Item& b) {
      int c = CompareAttr(a, b, plan.sort_key_name);
      for (size_t i = 0; c == 0 && i < plan.more_sort_key_names.size(); ++i) {
        c = CompareAttr(a, b, plan.more_sort_key_names[i]);
      }
      if (c != 0) return plan.sort_descending ? c > 0 : c < 0;
      c = CompareAttr(a, b, plan.partition_key_name);
      return plan.partition_descending ? c > 0 : c < 0;
    });
  }
  if (plan.reproject) {
    for (auto& item : out.items) item = expr::Project(item, *plan.reproject);
  }
  if (plan.leaf_projection) {
    for (auto& item : out.items) {
      Item::Vector leaves;  // in the statement's order; sorted once below
      for (const expr::Path& p : *plan.leaf_projection) {
        if (const AttributeValue* v = expr::Resolve(item, p)) leaves.emplace_back(LeafName(p), *v);
      }
      item = Item::FromUnsorted(std::move(leaves), /*keep_last=*/true);  // a later path wins
    }
  }
  return out;
}

}  // namespace keyhole::planner
