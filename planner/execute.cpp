// Execute(): runs a Plan's operations through an Executor and merges their results.
#include <algorithm>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "core/evaluate.h"
#include "planner/plan.h"

namespace keyhole::planner {

namespace {

double Units(const std::optional<ConsumedCapacity>& c) { return c ? c->total.capacity_units : 0; }

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

// SCAN UPDATE / SCAN DELETE: collect the keys of every matching item (all Scan pages), then
// write them one by one; an item whose guard fails at write time is skipped.
Result<ExecuteResult> ExecuteScanWrite(const Plan& plan, Executor& executor) {
  ExecuteResult out;
  ScanRequest scan = std::get<ScanRequest>(plan.operations.at(0));
  std::vector<Item> keys;
  while (true) {
    KH_ASSIGN_OR_RETURN(ScanResponse page, executor.Scan(scan));
    out.capacity_units += Units(page.consumed_capacity);
    out.scanned_count += page.scanned_count;
    for (auto& item : page.items) keys.push_back(std::move(item));
    if (!page.last_evaluated_key) break;
    scan.exclusive_start_key = std::move(page.last_evaluated_key);
  }
  for (auto& key : keys) {
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
            out.capacity_units += Units(r->consumed_capacity);
            ++out.count;
            if (r->attributes) out.items.push_back(std::move(*r->attributes));
            return Status::OK();
          } else {
            return Status::Internal("a per-item write must be UpdateItem or DeleteItem");
          }
        },
        *plan.per_item_write);
    if (!st.ok()) return st;
  }
  return out;
}

}  // namespace

Result<ExecuteResult> Execute(const Plan& plan, Executor& executor) {
  if (plan.per_item_write) return ExecuteScanWrite(plan, executor);
  ExecuteResult out;
  for (size_t i = 0; i < plan.operations.size(); ++i) {
    const Operation& op = plan.operations[i];
    const expr::Condition* post =
        i < plan.post_filters.size() ? plan.post_filters[i].get() : nullptr;
    Status st = std::visit(
        [&](const auto& r) -> Status {
          using T = std::decay_t<decltype(r)>;
          if constexpr (std::is_same_v<T, GetItemRequest>) {
            KH_ASSIGN_OR_RETURN(GetItemResponse g, executor.GetItem(r));
            out.capacity_units += Units(g.consumed_capacity);
            if (g.item) {
              out.items.push_back(std::move(*g.item));
              ++out.count;
              ++out.scanned_count;
            }
          } else if constexpr (std::is_same_v<T, QueryRequest> || std::is_same_v<T, ScanRequest>) {
            Result<ReadResponse> rr = [&] {
              if constexpr (std::is_same_v<T, QueryRequest>) {
                return executor.Query(r);
              } else {
                return executor.Scan(r);
              }
            }();
            if (!rr.ok()) return rr.status();
            ReadResponse& resp = rr.value();
            out.capacity_units += Units(resp.consumed_capacity);
            out.scanned_count += resp.scanned_count;
            if (post) {
              for (auto& item : resp.items) {
                if (!expr::Evaluate(*post, item)) continue;
                out.items.push_back(std::move(item));
                ++out.count;
              }
            } else {
              out.count += resp.count;
              for (auto& item : resp.items) out.items.push_back(std::move(item));
            }
            if (resp.last_evaluated_key) out.last_evaluated_key = resp.last_evaluated_key;
          } else if constexpr (std::is_same_v<T, PutItemRequest>) {
            auto p = executor.PutItem(r);
            if (!p.ok()) {
              if (plan.duplicate_on_condition_failure && p.status().IsConditionFailed()) {
                return Status(ErrorCode::kDuplicateItem, "Duplicate primary key exists in table");
              }
              return p.status();
            }
            out.capacity_units += Units(p->consumed_capacity);
            if (p->attributes) out.items.push_back(std::move(*p->attributes));
          } else {
            // UpdateItem / DeleteItem: RETURNING's item, if any, is Items[0].
            auto w = [&] {
              if constexpr (std::is_same_v<T, UpdateItemRequest>) {
                return executor.UpdateItem(r);
              } else {
                return executor.DeleteItem(r);
              }
            }();
            if (!w.ok()) return w.status();
            out.capacity_units += Units(w->consumed_capacity);
            if (w->attributes) out.items.push_back(std::move(*w->attributes));
          }
          return Status::OK();
        },
        op);
    if (!st.ok()) return st;
  }
  if (plan.sort_merged) {
    std::stable_sort(out.items.begin(), out.items.end(), [&](const Item& a, const Item& b) {
      int c = CompareAttr(a, b, plan.sort_key_name);
      if (c != 0) return plan.sort_descending ? c > 0 : c < 0;
      c = CompareAttr(a, b, plan.partition_key_name);
      return plan.partition_descending ? c > 0 : c < 0;
    });
  }
  if (plan.reproject) {
    for (auto& item : out.items) item = expr::Project(item, *plan.reproject);
  }
  if (plan.kind != parser::StatementKind::kSelect)
    out.count = static_cast<int64_t>(out.items.size());
  return out;
}

}  // namespace keyhole::planner
