// CollectPartitions and .partitions TABLE [INDEX] (partitions.h).
#include "shell/partitions.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <utility>

#include "core/item.h"
#include "core/item_codec.h"
#include "shell/model.h"
#include "shell/render.h"
#include "shell/session_state.h"

namespace keyhole::shell {

std::string KeyValueText(const AttributeValue& v) {
  std::string cell = FormatCell(AttributeValue::L({v}));
  return cell.substr(1, cell.size() - 2);
}

std::string PartitionKeyText(const KeySchema& key, const Item& item) {
  std::string out;
  for (const KeyAttribute* a : key.PartitionAttributes()) {
    auto it = item.find(a->name);
    if (it == item.end()) return "";
    out += (out.empty() ? "" : ", ") + KeyValueText(it->second);
  }
  return out;
}

AttributeValue KeyCell(const std::string& key) {
  if (key.size() >= 2 && key.front() == '\'' && key.back() == '\'') {
    std::string inner;
    for (size_t i = 1; i + 1 < key.size(); ++i) {
      if (key[i] == '\'' && key[i + 1] == '\'') {
        inner += '\'';
        ++i;
      } else if (key[i] == '\'') {
        return AttributeValue::S(key);  // 'a', 'b': several values
      } else {
        inner += key[i];
      }
    }
    return AttributeValue::S(inner);
  }
  if (Result<Number> n = Number::Parse(key); n.ok()) return AttributeValue::N(*n);
  return AttributeValue::S(key);
}

std::string KeyClass(const std::string& key) {
  if (key.starts_with("b'")) return "<binary>";
  if (key.empty() || key[0] != '\'') return "<number>";
  // One string value: cut as .model cuts it (shell/model.h SplitKeyValue), so 'tenant-1' and
  // 'project-1' are two entities, as 'USER#a' and 'ORG#b' are.
  if (key.size() >= 2 && key.back() == '\'' && key.find("', ") == std::string::npos) {
    const std::string inner = key.substr(1, key.size() - 2);
    KeySegments cut = SplitKeyValue(inner);
    if (cut.parts.size() > 1) return "'" + cut.parts[0] + cut.separators[0];
  }
  size_t sep = key.find_first_of("#|/");
  if (sep != std::string::npos) return key.substr(0, sep + 1);
  if (std::ranges::any_of(key,
                          [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
    return "<id>";  // u123, a UUID, an order number
  }
  return key;  // a word: a constant such as ALL_POSTS, or a status
}

namespace {

// Whether `item` has exactly the partition key values in `last` (the same attributes).
bool SamePartition(const KeySchema& key, const Item& item, const Item& last) {
  for (const KeyAttribute* a : key.PartitionAttributes()) {
    auto x = item.find(a->name);
    auto y = last.find(a->name);
    if ((x == item.end()) != (y == last.end())) return false;
    if (x != item.end() && !(x->second == y->second)) return false;
  }
  return true;
}

}  // namespace

Result<PartitionStats> CollectPartitions(Backend& db, const std::string& table,
                                         const std::optional<std::string>& index,
                                         const std::atomic<bool>* cancel) {
  KH_ASSIGN_OR_RETURN(TableSchemaPtr schema, db.TableSchema(table));
  const KeySchema* key = &schema->key;
  if (index) {
    key = nullptr;
    for (const IndexDescription& idx : schema->indexes) {
      if (idx.name == *index) key = &idx.key;
    }
    if (!key) {
      return Status::Validation(fmt::format("table {} has no index {}", table, *index));
    }
  }
  PartitionStats out;
  out.target = index ? table + "." + *index : table;
  ScanRequest scan;
  scan.table_name = table;
  scan.index_name = index;
  scan.return_consumed_capacity = ReturnConsumedCapacity::kTotal;
  std::map<std::string, PartitionStat> per_key;
  std::vector<std::string> partition_names;
  for (const KeyAttribute* a : key->PartitionAttributes()) partition_names.push_back(a->name);
  PartitionStat* last = nullptr;  // the partition of the item before
  Item last_key;
  while (true) {
    if (cancel && cancel->load(std::memory_order_relaxed)) {
      return Status(ErrorCode::kInterrupted,
                    fmt::format("Interrupted after {} items of {}", out.items, out.target));
    }
    KH_ASSIGN_OR_RETURN(ScanResponse page, db.Scan(scan));
    if (page.consumed_capacity) out.read_units += page.consumed_capacity->total.capacity_units;
    // From each item's stored encoding where the page holds it: its size, and only its
    // partition key attributes decoded. Items of one partition come together, so the text of
    // the last key is reused while the key stays the same.
    for (size_t i = 0; i < page.items.size(); ++i) {
      const std::string_view encoded = page.items.Encoded(i);
      Item decoded;
      const Item* item = nullptr;
      size_t size = 0;
      if (!encoded.empty()) {
        Result<Item> attrs = DecodeItemAttributes(encoded, partition_names);
        if (attrs.ok()) {
          decoded = std::move(*attrs);
          item = &decoded;
          size = EncodedItemSize(encoded);
        }
      }
      if (!item) {
        item = &std::as_const(page.items)[i];
        size = ItemSize(*item);
      }
      if (!last || !SamePartition(*key, *item, last_key)) {
        last_key.clear();
        for (const std::string& n : partition_names) {
          if (auto a = item->find(n); a != item->end()) last_key.emplace(n, a->second);
        }
        std::string k = PartitionKeyText(*key, *item);
        last = &per_key[k];
        last->key = std::move(k);
      }
      ++last->items;
      last->bytes += static_cast<int64_t>(size);
      ++out.items;
      out.bytes += static_cast<int64_t>(size);
      out.sizes.push_back(size);
    }
    if (!page.last_evaluated_key) break;
    scan.exclusive_start_key = std::move(page.last_evaluated_key);
  }
  for (auto& [k, p] : per_key) out.partitions.push_back(std::move(p));
  std::stable_sort(out.partitions.begin(), out.partitions.end(),
                   [](const PartitionStat& a, const PartitionStat& b) {
                     return a.bytes != b.bytes ? a.bytes > b.bytes : a.items > b.items;
                   });
  for (size_t i = 0; i < out.partitions.size(); ++i) out.position[out.partitions[i].key] = i;
  std::sort(out.sizes.begin(), out.sizes.end());
  return out;
}

namespace {

std::string Percent(double part, double whole) {
  if (whole <= 0) return "0%";
  double p = 100 * part / whole;
  return p >= 10 || p == 0 ? fmt::format("{:.0f}%", p) : fmt::format("{:.1f}%", p);
}

size_t Quantile(const std::vector<size_t>& sorted, double q) {
  if (sorted.empty()) return 0;
  size_t i = static_cast<size_t>(std::ceil(q * static_cast<double>(sorted.size()))) - 1;
  return sorted[std::min(i, sorted.size() - 1)];
}

}  // namespace

// .partitions TABLE [INDEX]: the partition key values by size, the share of the largest 1%, and
// the item sizes.
bool RunPartitions(Session::State& s, const std::vector<std::string>& args, Location at) {
  if (args.empty() || args.size() > 2) {
    return s.Fail(Status::Validation("usage: .partitions TABLE [INDEX]"), at);
  }
  std::string table = args[0];
  std::optional<std::string> index;
  if (args.size() == 2) index = args[1];
  // TABLE.INDEX, as --plan names it, when there is no table of that name.
  if (!index && !s.db.TableSchema(table).ok()) {
    for (size_t dot = table.rfind('.'); dot != std::string::npos && dot > 0;
         dot = table.rfind('.', dot - 1)) {
      if (s.db.TableSchema(table.substr(0, dot)).ok()) {
        index = table.substr(dot + 1);
        table = table.substr(0, dot);
        break;
      }
    }
  }
  const std::string target = index ? table + "." + *index : table;
  bool declined = false;
  if (!s.Confirm(".partitions",
                 fmt::format(".partitions reads every item of {} (a Scan, billed "
                             "by the endpoint). Type the table's name to go on: ",
                             target),
                 table, at, &declined)) {
    return declined;
  }
  Result<PartitionStats> stats = CollectPartitions(s.db, table, index, &g_interrupted);
  if (!stats.ok()) return s.Fail(stats.status(), at);
  const bool machine = IsMachineMode(s.settings.mode);
  std::vector<Item> rows;
  const size_t shown =
      machine ? stats->partitions.size() : std::min<size_t>(10, stats->partitions.size());
  for (size_t i = 0; i < shown; ++i) {
    const PartitionStat& p = stats->partitions[i];
    Item row;
    row["partition"] = KeyCell(p.key);
    row["items"] = AttributeValue::N(Number::FromInt(p.items));
    row["bytes"] = AttributeValue::N(Number::FromInt(p.bytes));
    if (machine) {
      row["bytes_share"] = AttributeValue::N(
          Number::Parse(fmt::format("{:.6g}", stats->bytes > 0
                                                  ? static_cast<double>(p.bytes) /
                                                        static_cast<double>(stats->bytes)
                                                  : 0))
              .value());
    } else {
      row["of bytes"] = AttributeValue::S(
          Percent(static_cast<double>(p.bytes), static_cast<double>(stats->bytes)));
    }
    rows.push_back(std::move(row));
  }
  RenderOptions options;
  options.mode = s.settings.mode;
  options.headers = s.settings.headers;
  options.key_columns = {"partition", "items", "bytes", "of bytes", "bytes_share"};
  s.Out(RenderItems(rows, options));
  const size_t n = stats->partitions.size();
  std::string summary =
      fmt::format("-- {}: {} partition key value{}, {} item{}, {} bytes", target, n,
                  n == 1 ? "" : "s", stats->items, stats->items == 1 ? "" : "s", stats->bytes);
  if (!machine && n > shown) summary += fmt::format(" · the largest {} shown", shown);
  summary += "\n";
  if (n > 0) {
    const size_t top = std::max<size_t>(1, n / 100);
    int64_t top_items = 0, top_bytes = 0;
    std::vector<const PartitionStat*> by_items;
    for (const PartitionStat& p : stats->partitions) by_items.push_back(&p);
    std::stable_sort(
        by_items.begin(), by_items.end(),
        [](const PartitionStat* a, const PartitionStat* b) { return a->items > b->items; });
    for (size_t i = 0; i < top; ++i) {
      top_bytes += stats->partitions[i].bytes;
      top_items += by_items[i]->items;
    }
    summary += fmt::format(
        "-- {} hold{} {} of the items and {} of the bytes; the most items under one value: {} "
        "({})\n",
        n >= 100 ? fmt::format("the largest 1% ({} values)", top)
                 : fmt::format("the largest value (of {})", n),
        n >= 100 ? "" : "s",
        Percent(static_cast<double>(top_items), static_cast<double>(stats->items)),
        Percent(static_cast<double>(top_bytes), static_cast<double>(stats->bytes)),
        by_items[0]->key, by_items[0]->items);
    const std::vector<size_t>& z = stats->sizes;
    summary += fmt::format(
        "-- item sizes in bytes: smallest {}, median {}, 90th percentile {}, 99th {}, largest {}\n",
        z.front(), Quantile(z, 0.5), Quantile(z, 0.9), Quantile(z, 0.99), z.back());
  }
  summary += fmt::format("-- {} · read with a Scan: {}\n",
                         "a partition key value is an item collection: DynamoDB serves each from "
                         "one physical partition (3,000 RCU and 1,000 WCU per second)",
                         CapacityText(stats->read_units, "RCU"));
  s.Notice(summary);
  return true;
}

}  // namespace keyhole::shell
