// EXPLAIN [ANALYZE]: the operations a statement becomes, each as the exact DynamoDB API request
// it sends, what keyhole does between them (post-filters, merge sorts, per-item writes), and
// the capacity each will consume, estimated from the item sizes involved:
//  - PutItem: exact for the item written (ceil(size / 1 KB) WCU) plus, for each index holding
//    it, ceil(size of its projection / 1 KB), named per index ("3 WCU: table 1, GSI1 1, GSI2
//    1"); more only if it replaces a larger item (INSERT never does).
//  - GetItem, UpdateItem, DeleteItem: from the average size of the table's items, sampled from
//    the first items in storage order (reference §5: 4 KB per read unit, 1 KB per write unit).
//  - Query: a lower bound (the first 4 KB), the items per read unit at the sampled size, and
//    the most one 1 MB page can cost.
//  - Scan: the whole table's (or index's) size, in 1 MB pages (it reads every item).
// EXPLAIN never runs a write. EXPLAIN ANALYZE runs reads and prints what they really did.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "api/api_json.h"
#include "core/capacity.h"
#include "core/expression_text.h"
#include "core/item.h"
#include "shell/render.h"
#include "shell/session_state.h"

namespace keyhole::shell {

namespace {

constexpr int kSampleItems = 25;

// The average DynamoDB size of the items of `table` (or of its `index`: the projected items),
// from up to 25 items in storage order; 0 when there are none or the table cannot be read.
size_t SampleItemBytes(Backend& db, const std::string& table,
                       const std::optional<std::string>& index) {
  ScanRequest scan;
  scan.table_name = table;
  scan.index_name = index;
  scan.limit = kSampleItems;
  Result<ScanResponse> r = db.Scan(scan);
  if (!r.ok() || r->items.empty()) return 0;
  size_t total = 0;
  for (const Item& item : r->items) total += ItemSize(item);
  return total / r->items.size();
}

std::string Rcu(double units) { return fmt::format("{:g} RCU", units); }

// Whole write units (core/capacity.h), for sums with index writes.
int64_t WriteUnits(size_t bytes) { return static_cast<int64_t>(keyhole::WriteUnits(bytes)); }

std::string AverageText(size_t bytes) {
  return bytes == 0 ? "no items to sample" : fmt::format("items here average {} bytes", bytes);
}

// The write units of putting `item` (`bytes` big) into `table`, per table and index, as the
// footer says them: "3 WCU: table 1, GSI1 1, GSI2 1". An LSI or GSI holding the item writes
// its projection of it, rounded up on its own.
std::string PutUnits(const TableDescription& table, const Item& item, size_t bytes) {
  int64_t total = WriteUnits(bytes);
  std::string parts = fmt::format("table {}", total);
  for (const IndexDescription& idx : table.indexes) {
    if (!InIndex(idx, item)) continue;
    const int64_t units = WriteUnits(ItemSize(ProjectItem(idx, table.key, item)));
    total += units;
    parts += fmt::format(", {} {}", idx.name, units);
  }
  if (parts.find(',') == std::string::npos) return fmt::format("{} WCU", total);
  return fmt::format("{} WCU: {}", total, parts);
}

// "indexes: GSI1, byDate" ("" when it has none): GSIs and LSIs, both written with the item.
std::string IndexNames(const TableDescription& table) {
  std::string names;
  for (const IndexDescription& idx : table.indexes) names += (names.empty() ? "" : ", ") + idx.name;
  return names.empty()
             ? ""
             : fmt::format("{}: {}", table.indexes.size() == 1 ? "index" : "indexes", names);
}

std::string ReadPageEstimate(size_t average, bool consistent) {
  double first = ReadUnits(1, consistent);
  std::string per = average == 0 ? ""
                                 : fmt::format(", about {} items per {}",
                                               std::max<size_t>(1, 4096 / average), Rcu(first));
  return fmt::format("at least {} ({}{}); a 1 MB page at most {}", Rcu(first), AverageText(average),
                     per, Rcu(ReadUnits(1 << 20, consistent)));
}

// One planned operation for EXPLAIN: its name, target, request body and estimated capacity.
struct ExplainedOperation {
  std::string name, target;
  json::Value request;
  std::string estimate;
  bool write = false;
};

ExplainedOperation Explain(Backend& db, const planner::Operation& op) {
  auto target = [](const std::string& table, const std::optional<std::string>& index) {
    return index ? table + "." + *index : table;
  };
  if (const auto* r = std::get_if<GetItemRequest>(&op)) {
    size_t avg = SampleItemBytes(db, r->table_name, std::nullopt);
    std::string estimate =
        fmt::format("{} ({})", Rcu(ReadUnits(avg, r->consistent_read)), AverageText(avg));
    return {"GetItem", r->table_name, GetItemRequestToJson(*r), estimate};
  }
  if (const auto* r = std::get_if<QueryRequest>(&op)) {
    size_t avg = SampleItemBytes(db, r->table_name, r->index_name);
    return {"Query", target(r->table_name, r->index_name), QueryRequestToJson(*r),
            ReadPageEstimate(avg, r->consistent_read)};
  }
  if (const auto* r = std::get_if<ScanRequest>(&op)) {
    return {"Scan", target(r->table_name, r->index_name), ScanRequestToJson(*r),
            ScanEstimate(db, *r)};
  }
  std::string table = std::visit([](const auto& w) { return w.table_name; }, op);
  Result<TableSchemaPtr> desc = db.TableSchema(table);
  const std::string gsis = desc.ok() ? IndexNames(**desc) : "";
  if (const auto* r = std::get_if<PutItemRequest>(&op)) {
    size_t size = ItemSize(r->item);
    std::string units =
        desc.ok() ? PutUnits(**desc, r->item, size) : fmt::format("{} WCU", WriteUnits(size));
    return {"PutItem", r->table_name, PutItemRequestToJson(*r),
            fmt::format("{} (a {}-byte item)", units, size), true};
  }
  size_t avg = SampleItemBytes(db, table, std::nullopt);
  std::string base = fmt::format("about {} WCU ({})", WriteUnits(avg), AverageText(avg));
  if (const auto* r = std::get_if<UpdateItemRequest>(&op)) {
    if (!gsis.empty()) {
      base += fmt::format(" + 1 per index whose projection it changes, 2 if it moves the item ({})",
                          gsis);
    }
    return {"UpdateItem", r->table_name, UpdateItemRequestToJson(*r), base, true};
  }
  const auto& r = std::get<DeleteItemRequest>(op);
  if (!gsis.empty()) base += fmt::format(" + 1 per index holding the item ({})", gsis);
  return {"DeleteItem", r.table_name, DeleteItemRequestToJson(r), base, true};
}

// A condition as PartiQL-like text with names and values in place of placeholders:
// `sk <> 'PROFILE'`.
std::string ReadableCondition(const expr::Condition& condition) {
  expr::Placeholders p;
  std::string text = expr::RenderCondition(condition, &p);
  const std::map<std::string, std::string>& names = p.names();  // placeholder -> name
  std::string out;
  for (size_t i = 0; i < text.size();) {
    size_t j = i + 1;
    if ((text[i] == '#' || text[i] == ':') && j < text.size() &&
        std::isalpha(static_cast<unsigned char>(text[j]))) {
      ++j;
      while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) ++j;
      std::string token = text.substr(i, j - i);
      if (auto n = names.find(token); text[i] == '#' && n != names.end()) {
        out += n->second;
      } else if (auto v = p.values().find(token); v != p.values().end()) {
        std::string literal = FormatCell(AttributeValue::L({v->second}));  // strings quoted
        out += literal.substr(1, literal.size() - 2);
      } else {
        out += token;
      }
      i = j;
    } else {
      out += text[i++];
    }
  }
  return out;
}

}  // namespace

// A Scan reads every item of the table (or index) whatever its filter: the estimate is the
// whole table's size (DescribeTable's exact TableSizeBytes and ItemCount), read in 1 MB pages.
std::string ScanEstimate(Backend& db, const ScanRequest& r, int64_t* table_items) {
  Result<DescribeTableResponse> d = db.DescribeTable({r.table_name});
  if (table_items) *table_items = d.ok() ? d->table.item_count : -1;
  if (!d.ok()) return ReadPageEstimate(0, r.consistent_read);
  int64_t bytes = d->table.size_bytes, items = d->table.item_count;
  std::string what = "table";
  if (r.index_name) {
    what = "index";
    for (const IndexDescription& idx : d->table.indexes) {
      if (idx.name == *r.index_name) {
        bytes = idx.size_bytes;
        items = idx.item_count;
      }
    }
  }
  constexpr int64_t kPage = int64_t{1} << 20;
  const int64_t pages = std::max<int64_t>(1, (bytes + kPage - 1) / kPage);
  double units = 0;  // each page rounds up on its own
  for (int64_t p = 0; p < pages; ++p) {
    units += ReadUnits(static_cast<size_t>(std::min(kPage, bytes - p * kPage)), r.consistent_read);
  }
  std::string limit =
      r.limit ? fmt::format("; with Limit {} a page reads at most {} items", *r.limit, *r.limit)
              : "";
  const bool filtered =
      (r.expressions.parsed && r.expressions.parsed->filter) || r.expressions.filter.has_value();
  return fmt::format(
      "about {} to read the whole {} ({} item{}, {} bytes, {} page{} of up to 1 MB){}{}",
      Rcu(units), what, items, items == 1 ? "" : "s", bytes, pages, pages == 1 ? "" : "s", limit,
      filtered ? "; the filter does not lower it (it applies after the read)" : "");
}

bool RunExplain(Session::State& s, const planner::Plan& given, Location at) {
  planner::Plan plan = given;
  ApplyConsistentRead(s.settings, plan);  // the request as RunPlan sends it
  std::vector<ExplainedOperation> ops;
  for (planner::Operation op : plan.operations) {
    // The request as RunPlan sends it: .pagesize becomes each read's Limit.
    if (s.settings.pagesize > 0 && !plan.sort_merged) {
      int limit = static_cast<int>(std::min<int64_t>(s.settings.pagesize, 1 << 30));
      if (auto* q = std::get_if<QueryRequest>(&op)) q->limit = limit;
      if (auto* r = std::get_if<ScanRequest>(&op)) r->limit = limit;
    }
    ops.push_back(Explain(s.db(), op));
  }
  bool writes = plan.per_item_write.has_value();
  for (const ExplainedOperation& e : ops) writes = writes || e.write;
  if (plan.analyze && writes) {
    return s.Fail(Status::Validation("EXPLAIN ANALYZE runs the statement and is only supported "
                                     "for reads; use EXPLAIN"),
                  at);
  }
  for (size_t i = 0; i < ops.size(); ++i) {
    const ExplainedOperation& e = ops[i];
    s.Notice(fmt::format("-- {} on {}\n", e.name, e.target));
    s.Out(json::Write(e.request) + "\n");
    if (i < plan.post_filters.size() && plan.post_filters[i]) {
      s.Notice(fmt::format("-- then keyhole filters the items: {}\n",
                           ReadableCondition(*plan.post_filters[i])));
    }
    s.Notice(fmt::format("-- estimated: {}\n", e.estimate));
  }
  if (ops.size() > 1) {
    std::map<std::string, int> counts;
    for (const ExplainedOperation& e : ops) ++counts[e.name];
    std::string fan;
    for (const auto& [name, n] : counts) {
      fan +=
          fmt::format("{}{}{}", fan.empty() ? "" : ", ", name, n > 1 ? fmt::format(" ×{}", n) : "");
    }
    s.Notice(
        fmt::format("-- in all: {} ({} requests, each charged on its own)\n", fan, ops.size()));
  }
  if (plan.sort_merged) s.Notice("-- then keyhole sorts the merged items (ORDER BY)\n");
  if (plan.leaf_projection) {
    std::string paths;
    for (const expr::Path& p : *plan.leaf_projection) {
      if (!paths.empty()) paths += ", ";
      for (const expr::PathElement& e : p.elements) {
        paths +=
            e.is_index ? fmt::format("[{}]", e.index) : (&e == &p.elements[0] ? "" : ".") + e.name;
      }
    }
    s.Notice(fmt::format("-- then keyhole reads {} out of each item\n", paths));
  }
  if (plan.per_item_write) {
    ExplainedOperation e = Explain(s.db(), *plan.per_item_write);
    s.Notice(fmt::format("-- then for each item found: {} on {} (Key from the item)\n", e.name,
                         e.target));
    s.Out(json::Write(e.request) + "\n");
    s.Notice(fmt::format("-- estimated: {} per item\n", e.estimate));
  }
  if (!plan.analyze) return true;
  api::BackendExecutor executor(s.db());
  planner::ExecuteOptions options;
  options.cancel = &g_interrupted;
  Result<planner::ExecuteResult> r = planner::Execute(plan, executor, options);
  if (!r.ok()) return s.Fail(r.status(), at);
  s.Notice(fmt::format("-- actual: {} returned, {} read, {}\n", r->count, r->scanned_count,
                       Rcu(r->capacity_units)));
  return true;
}

}  // namespace keyhole::shell
