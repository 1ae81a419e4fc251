// CollectPartitions and .partitions TABLE [INDEX] (partitions.h).
#include "modeling/partitions.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <utility>

#include "core/capacity.h"
#include "core/item.h"
#include "core/item_codec.h"
#include "core/utf8.h"
#include "core/value_text.h"
#include "modeling/model.h"

namespace keyhole::modeling {

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
  // One string value: cut as .model cuts it (modeling/model.h SplitKeyValue), so 'tenant-1' and
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

}  // namespace keyhole::modeling
