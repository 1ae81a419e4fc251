// RecordingBackend (usage.h): item operations forwarded and, while a log is attached, recorded
// with their capacity per table, index and partition.
#include "shell/usage.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <utility>

#include "core/capacity.h"
#include "core/item.h"
#include "shell/partitions.h"
#include "shell/render.h"

namespace keyhole::shell {

namespace {

// Gives the caller the capacity it asked for: none, the total, or all of it.
void Trim(std::optional<ConsumedCapacity>& c, ReturnConsumedCapacity asked) {
  if (!c) return;
  if (asked == ReturnConsumedCapacity::kNone) {
    c.reset();
  } else if (asked == ReturnConsumedCapacity::kTotal) {
    c->table = {};
    c->global_indexes.clear();
    c->local_indexes.clear();
  }
}
void Trim(std::vector<ConsumedCapacity>& cs, ReturnConsumedCapacity asked) {
  if (asked == ReturnConsumedCapacity::kNone) cs.clear();
  for (ConsumedCapacity& c : cs) {
    std::optional<ConsumedCapacity> one = std::move(c);
    Trim(one, asked);
    c = std::move(*one);
  }
}

// The per-target capacity a Consumed belongs to.
std::string Target(const std::string& table, const std::string& index = "") {
  return index.empty() ? table : table + "." + index;
}

}  // namespace

std::string UnitsText(const std::map<std::string, Capacity>& units, const std::string& table,
                      std::string_view unit) {
  std::string out;
  bool broken_down = false;
  std::vector<std::string> kinds;
  for (bool write : {false, true}) {
    double total = 0;
    std::string parts;
    int n = 0;
    for (const auto& [target, c] : units) {
      const double u = write ? c.write_units : c.read_units;
      if (u <= 0) continue;
      total += u;
      ++n;
      std::string name = target == table                   ? "table"
                         : target.starts_with(table + ".") ? target.substr(table.size() + 1)
                                                           : target;
      parts += fmt::format("{}{} {:g}", parts.empty() ? "" : ", ", name, u);
    }
    if (n == 0) continue;
    std::string text = CapacityText(total, write ? "WCU" : "RCU");
    if (n > 1) {
      text += ": " + parts;
      broken_down = true;
    }
    kinds.push_back(std::move(text));
  }
  if (kinds.empty()) return CapacityText(0, unit);
  for (const std::string& k : kinds) out += (out.empty() ? "" : broken_down ? "; " : ", ") + k;
  return out;
}

std::optional<Item> RecordingBackend::KeyOf(const std::string& table, const Item& item) {
  Result<TableSchemaPtr> schema = inner_.TableSchema(table);
  if (!schema.ok()) return std::nullopt;
  Item key;
  for (const KeyAttribute* a : (*schema)->key.Attributes()) {
    auto it = item.find(a->name);
    if (it == item.end()) return std::nullopt;
    key.emplace(a->name, it->second);
  }
  return key;
}

std::optional<Item> RecordingBackend::Fetch(const std::string& table, const Item& key) {
  GetItemRequest get;
  get.table_name = table;
  get.key = key;
  get.consistent_read = true;
  Result<GetItemResponse> r = inner_.GetItem(get);
  if (!r.ok()) return std::nullopt;
  return std::move(r->item);
}

void RecordingBackend::RecordWrite(std::string operation, const std::vector<Written>& items,
                                   const std::vector<ConsumedCapacity>& consumed) {
  OperationUse use;
  use.operation = std::move(operation);
  use.write = true;
  for (const ConsumedCapacity& c : consumed) AddUnitsByTarget(c, true, &use.units);
  // Each target's units are shared among the partitions the items touch there. A target is
  // (table, index), "" for the table itself: names may hold '.'.
  using TargetKey = std::pair<std::string, std::string>;
  std::map<TargetKey, std::vector<std::string>> touched;  // -> partition per entry
  std::map<TargetKey, double> growth;                     // (table, partition) -> bytes
  for (const Written& w : items) {
    use.tables.insert(w.table);
    const Item* sized = w.after ? &*w.after : w.before ? &*w.before : nullptr;
    if (sized && !w.check_only) use.item_sizes.push_back(ItemSize(*sized));
    Result<TableSchemaPtr> schema = inner_.TableSchema(w.table);
    if (!schema.ok() || !sized) continue;
    const TableDescription& desc = **schema;
    const std::string table_key = PartitionKeyText(desc.key, *sized);
    touched[{w.table, ""}].push_back(table_key);
    if (w.check_only) continue;  // a ConditionCheck reads its item, writes no index
    // The item collection's bytes: the item's, and its projection into each LSI.
    auto collection_bytes = [&](const std::optional<Item>& item) {
      if (!item) return 0.0;
      double bytes = static_cast<double>(ItemSize(*item));
      for (const IndexDescription& idx : desc.indexes) {
        if (idx.kind == IndexKind::kLocal && InIndex(idx, *item)) {
          bytes += static_cast<double>(ItemSize(ProjectItem(idx, desc.key, *item)));
        }
      }
      return bytes;
    };
    growth[{w.table, table_key}] += collection_bytes(w.after) - collection_bytes(w.before);
    for (const IndexDescription& idx : desc.indexes) {
      if (idx.kind == IndexKind::kLocal) {  // an LSI lives in its table's partitions
        touched[{w.table, idx.name}].push_back(table_key);
        continue;
      }
      std::set<std::string> keys;
      for (const std::optional<Item>* i : {&w.before, &w.after}) {
        if (!*i) continue;
        if (std::string k = PartitionKeyText(idx.key, **i); !k.empty()) keys.insert(k);
      }
      for (const std::string& k : keys) touched[{w.table, idx.name}].push_back(k);
    }
  }
  for (const auto& [target, keys] : touched) {
    const auto& [table, index] = target;
    auto u = use.units.find(index.empty() ? table : Target(table, index));
    if (u == use.units.end() || keys.empty()) continue;
    bool local = false;
    if (Result<TableSchemaPtr> schema = inner_.TableSchema(table); schema.ok() && !index.empty()) {
      for (const IndexDescription& idx : (*schema)->indexes) {
        local |= idx.name == index && idx.kind == IndexKind::kLocal;
      }
    }
    const std::string where = index.empty() || local ? table : Target(table, index);
    const double share = u->second.write_units / static_cast<double>(keys.size());
    for (const std::string& k : keys) use.partitions.push_back({where, k, 0, share});
  }
  for (const auto& [where, bytes] : growth) {
    if (bytes != 0) use.partitions.push_back({where.first, where.second, 0, 0, bytes});
  }
  log_->push_back(std::move(use));
}

void RecordingBackend::RecordKeyedRead(std::string operation,
                                       const std::vector<std::pair<std::string, Item>>& keys,
                                       const std::vector<const Item*>& returned,
                                       const std::vector<ConsumedCapacity>& consumed) {
  OperationUse use;
  use.operation = std::move(operation);
  for (const ConsumedCapacity& c : consumed) AddUnitsByTarget(c, false, &use.units);
  for (const Item* item : returned) use.item_sizes.push_back(ItemSize(*item));
  std::map<std::string, int> per_table;
  for (const auto& [table, key] : keys) {
    ++per_table[table];
    use.tables.insert(table);
  }
  for (const auto& [table, key] : keys) {
    Result<TableSchemaPtr> schema = inner_.TableSchema(table);
    auto u = use.units.find(table);
    if (!schema.ok() || u == use.units.end()) continue;
    use.partitions.push_back(
        {table, PartitionKeyText((*schema)->key, key), u->second.read_units / per_table[table], 0});
  }
  log_->push_back(std::move(use));
}

namespace {

// Sends a copy of `r` that asks for `ask` (the per-index breakdown, or TOTAL where that is all
// the operation takes) through `call`, hands a response to `record`, and gives the caller the
// capacity it asked for.
template <class Request, class Call, class Record>
auto Recorded(const Request& r, ReturnConsumedCapacity ask, Call call, Record record) {
  Request request = r;
  request.return_consumed_capacity = ask;
  auto out = call(request);
  if (out.ok()) {
    record(*out);
    Trim(out->consumed_capacity, r.return_consumed_capacity);
  }
  return out;
}

constexpr ReturnConsumedCapacity kIndexes = ReturnConsumedCapacity::kIndexes;

}  // namespace

void RecordingBackend::FetchAfter(std::vector<Written>& items,
                                  const std::vector<std::pair<std::string, Item>>& keys) {
  for (size_t i = 0; i < items.size(); ++i) {
    items[i].after = items[i].check_only ? items[i].before : Fetch(keys[i].first, keys[i].second);
    // Deleting no item still costs a write on its partition.
    if (!items[i].before && !items[i].after) items[i].before = keys[i].second;
  }
}

Result<PutItemResponse> RecordingBackend::PutItem(const PutItemRequest& r) {
  if (!log_) return inner_.PutItem(r);
  std::optional<Item> key = KeyOf(r.table_name, r.item);
  Written w{r.table_name, key ? Fetch(r.table_name, *key) : std::nullopt, r.item};
  return Recorded(
      r, kIndexes, [&](const PutItemRequest& q) { return inner_.PutItem(q); },
      [&](const PutItemResponse& out) {
        if (out.consumed_capacity) RecordWrite("PutItem", {w}, {*out.consumed_capacity});
      });
}

Result<UpdateItemResponse> RecordingBackend::UpdateItem(const UpdateItemRequest& r) {
  if (!log_) return inner_.UpdateItem(r);
  std::vector<Written> w{{r.table_name, Fetch(r.table_name, r.key), std::nullopt}};
  return Recorded(
      r, kIndexes, [&](const UpdateItemRequest& q) { return inner_.UpdateItem(q); },
      [&](const UpdateItemResponse& out) {
        FetchAfter(w, {{r.table_name, r.key}});
        if (out.consumed_capacity) RecordWrite("UpdateItem", w, {*out.consumed_capacity});
      });
}

Result<DeleteItemResponse> RecordingBackend::DeleteItem(const DeleteItemRequest& r) {
  if (!log_) return inner_.DeleteItem(r);
  std::vector<Written> w{{r.table_name, Fetch(r.table_name, r.key), std::nullopt}};
  return Recorded(
      r, kIndexes, [&](const DeleteItemRequest& q) { return inner_.DeleteItem(q); },
      [&](const DeleteItemResponse& out) {
        FetchAfter(w, {{r.table_name, r.key}});
        if (out.consumed_capacity) RecordWrite("DeleteItem", w, {*out.consumed_capacity});
      });
}

Result<BatchWriteItemResponse> RecordingBackend::BatchWriteItem(const BatchWriteItemRequest& r) {
  if (!log_) return inner_.BatchWriteItem(r);
  std::vector<Written> items;
  std::vector<std::pair<std::string, Item>> keys;
  for (const auto& [table, writes] : r.request_items) {
    for (const WriteRequest& w : writes) {
      std::optional<Item> key =
          w.put_request ? KeyOf(table, w.put_request->item)
                        : std::optional<Item>(w.delete_request ? w.delete_request->key : Item{});
      if (!key) continue;
      items.push_back({table, Fetch(table, *key), std::nullopt});
      keys.emplace_back(table, std::move(*key));
    }
  }
  return Recorded(
      r, kIndexes, [&](const BatchWriteItemRequest& q) { return inner_.BatchWriteItem(q); },
      [&](const BatchWriteItemResponse& out) {
        FetchAfter(items, keys);
        RecordWrite("BatchWriteItem", items, out.consumed_capacity);
      });
}

Result<TransactWriteItemsResponse> RecordingBackend::TransactWriteItems(
    const TransactWriteItemsRequest& r) {
  if (!log_) return inner_.TransactWriteItems(r);
  std::vector<Written> items;
  std::vector<std::pair<std::string, Item>> keys;
  for (const TransactWriteItem& t : r.transact_items) {
    std::string table;
    std::optional<Item> key;
    if (t.put) {
      table = t.put->table_name;
      key = KeyOf(table, t.put->item);
    } else if (t.update) {
      table = t.update->table_name;
      key = t.update->key;
    } else if (t.delete_) {
      table = t.delete_->table_name;
      key = t.delete_->key;
    } else if (t.condition_check) {
      table = t.condition_check->table_name;
      key = t.condition_check->key;
    }
    if (!key) continue;
    items.push_back({table, Fetch(table, *key), std::nullopt, t.condition_check.has_value()});
    keys.emplace_back(table, std::move(*key));
  }
  return Recorded(
      r, kIndexes, [&](const TransactWriteItemsRequest& q) { return inner_.TransactWriteItems(q); },
      [&](const TransactWriteItemsResponse& out) {
        FetchAfter(items, keys);
        RecordWrite("TransactWriteItems", items, out.consumed_capacity);
      });
}

Result<GetItemResponse> RecordingBackend::GetItem(const GetItemRequest& r) {
  if (!log_) return inner_.GetItem(r);
  return Recorded(
      r, kIndexes, [&](const GetItemRequest& q) { return inner_.GetItem(q); },
      [&](const GetItemResponse& out) {
        std::vector<const Item*> returned;
        if (out.item) returned.push_back(&*out.item);
        std::vector<ConsumedCapacity> consumed;
        if (out.consumed_capacity) consumed.push_back(*out.consumed_capacity);
        RecordKeyedRead("GetItem", {{r.table_name, r.key}}, returned, consumed);
      });
}

Result<BatchGetItemResponse> RecordingBackend::BatchGetItem(const BatchGetItemRequest& r) {
  if (!log_) return inner_.BatchGetItem(r);
  return Recorded(
      r, kIndexes, [&](const BatchGetItemRequest& q) { return inner_.BatchGetItem(q); },
      [&](const BatchGetItemResponse& out) {
        std::vector<std::pair<std::string, Item>> keys;
        for (const auto& [table, ka] : r.request_items) {
          for (const Item& k : ka.keys) keys.emplace_back(table, k);
        }
        std::vector<const Item*> returned;
        for (const auto& [table, items] : out.responses) {
          for (const Item& i : items) returned.push_back(&i);
        }
        RecordKeyedRead("BatchGetItem", keys, returned, out.consumed_capacity);
      });
}

Result<TransactGetItemsResponse> RecordingBackend::TransactGetItems(
    const TransactGetItemsRequest& r) {
  if (!log_) return inner_.TransactGetItems(r);
  // TransactGetItems takes TOTAL or NONE only (it reads tables, never indexes).
  return Recorded(
      r, ReturnConsumedCapacity::kTotal,
      [&](const TransactGetItemsRequest& q) { return inner_.TransactGetItems(q); },
      [&](const TransactGetItemsResponse& out) {
        std::vector<std::pair<std::string, Item>> keys;
        for (const TransactGetItem& t : r.transact_items) {
          keys.emplace_back(t.get.table_name, t.get.key);
        }
        std::vector<const Item*> returned;
        for (const std::optional<Item>& i : out.responses) {
          if (i) returned.push_back(&*i);
        }
        RecordKeyedRead("TransactGetItems", keys, returned, out.consumed_capacity);
      });
}

Result<QueryResponse> RecordingBackend::Query(const QueryRequest& r) {
  if (!log_) return inner_.Query(r);
  return Recorded(
      r, kIndexes, [&](const QueryRequest& q) { return inner_.Query(q); },
      [&](const QueryResponse& out) { RecordQuery(r, out); });
}

void RecordingBackend::RecordQuery(const QueryRequest& r, const QueryResponse& response) {
  const QueryResponse* out = &response;
  OperationUse use;
  use.operation = "Query";
  use.tables.insert(r.table_name);
  if (out->consumed_capacity) AddUnitsByTarget(*out->consumed_capacity, false, &use.units);
  for (const Item& i : out->items) use.item_sizes.push_back(ItemSize(i));
  std::string target = r.index_name ? Target(r.table_name, *r.index_name) : r.table_name;
  double units = 0;
  for (const auto& [t, c] : use.units) units += c.read_units;
  // The partition it names: the structured condition, or the partition key of what it returned.
  // An LSI lives in its table's partitions: its reads count there.
  Result<TableSchemaPtr> schema = inner_.TableSchema(r.table_name);
  const KeySchema* ks = schema.ok() ? &(*schema)->key : nullptr;
  if (schema.ok() && r.index_name) {
    for (const IndexDescription& idx : (*schema)->indexes) {
      if (idx.name != *r.index_name) continue;
      ks = &idx.key;
      if (idx.kind == IndexKind::kLocal) target = r.table_name;
    }
  }
  std::string key;
  if (!r.key_condition.partition_name.empty()) {
    key = KeyValueText(r.key_condition.partition_value);
    for (const auto& [name, v] : r.key_condition.more_partition) key += ", " + KeyValueText(v);
  } else if (ks) {
    for (const Item& i : out->items) {
      if (key = PartitionKeyText(*ks, i); !key.empty()) break;
    }
  }
  if (!key.empty()) use.partitions.push_back({target, key, units, 0});
  log_->push_back(std::move(use));
}

Result<ScanResponse> RecordingBackend::Scan(const ScanRequest& r) {
  if (!log_) return inner_.Scan(r);
  return Recorded(
      r, kIndexes, [&](const ScanRequest& q) { return inner_.Scan(q); },
      [&](const ScanResponse& out) {
        OperationUse use;
        use.operation = "Scan";
        use.scan = true;
        use.tables.insert(r.table_name);
        use.scan_target = r.index_name ? Target(r.table_name, *r.index_name) : r.table_name;
        if (out.consumed_capacity) {
          AddUnitsByTarget(*out.consumed_capacity, false, &use.units);
        }
        for (const Item& i : out.items) use.item_sizes.push_back(ItemSize(i));
        log_->push_back(std::move(use));
      });
}

}  // namespace keyhole::shell
