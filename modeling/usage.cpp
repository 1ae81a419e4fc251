// RecordingBackend (usage.h): item operations forwarded and, while a log is attached, recorded
// with their capacity per table, index and partition.
#include "modeling/usage.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <memory>
#include <set>
#include <tuple>
#include <utility>

#include "core/capacity.h"
#include "core/item.h"
#include "core/transact_target.h"
#include "core/utf8.h"
#include "core/value_text.h"
#include "modeling/partitions.h"

namespace keyhole::modeling {

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

int64_t RecordingBackend::CountPartition(const std::string& table, const std::string& index,
                                         const Item& values, int limit) {
  QueryRequest q;
  q.table_name = table;
  if (!index.empty()) q.index_name = index;
  q.consistent_read = index.empty();
  q.limit = limit;
  q.select = Select::kCount;
  std::string condition;
  std::map<std::string, std::string> names;
  std::map<std::string, AttributeValue> vals;
  for (const auto& [name, v] : values) {
    const std::string n = fmt::format("#p{}", names.size()), m = fmt::format(":p{}", names.size());
    condition += (condition.empty() ? "" : " AND ") + n + " = " + m;
    names[n] = name;
    vals[m] = v;
  }
  q.expressions.key_condition = condition;
  q.expressions.names = std::move(names);
  q.expressions.values = std::move(vals);
  Result<QueryResponse> r = inner_.Query(q);
  if (!r.ok()) return -1;
  return r->count;
}

void RecordingBackend::RecordWrite(std::string operation, const std::vector<Written>& items,
                                   const std::vector<ConsumedCapacity>& consumed) {
  OperationUse use;
  use.operation = std::move(operation);
  use.write = true;
  for (const ConsumedCapacity& c : consumed) {
    AddUnitsByTarget(c, true, &use.units);
    for (const auto& [index, bytes] : c.vector_indexes) {
      use.vector_write_bytes[Target(c.table_name, index)] += bytes;
    }
  }
  // Each target's units are shared among the partitions the items touch there. A target is
  // (table, index), "" for the table itself: names may hold '.'.
  using TargetKey = std::pair<std::string, std::string>;
  std::map<TargetKey, std::vector<std::string>> touched;  // -> partition per entry
  std::map<TargetKey, double> growth;                     // (table, partition) -> bytes
  // (table, index, partition) -> its key values and the items the write moved into it.
  struct Arrivals {
    Item values;
    int items = 0;
  };
  std::map<std::tuple<std::string, std::string, std::string>, Arrivals> arrived;
  auto note_arrival = [&](const std::string& table, const std::string& index, const KeySchema& key,
                          const Written& w, const std::string& text) {
    if (!w.after || text.empty()) return;
    if (w.before && PartitionKeyText(key, *w.before) == text) return;  // it was there already
    Arrivals& a = arrived[{table, index, text}];
    if (a.items++ > 0) return;
    for (const KeyAttribute* k : key.PartitionAttributes()) {
      if (auto v = w.after->find(k->name); v != w.after->end())
        a.values.emplace(k->name, v->second);
    }
  };
  for (const Written& w : items) {
    use.tables.insert(w.table);
    const Item* sized = w.after ? &*w.after : w.before ? &*w.before : nullptr;
    if (sized && !w.check_only) {
      size_t z = ItemSize(*sized);
      if (w.before && w.after) z = std::max(ItemSize(*w.before), ItemSize(*w.after));
      use.item_sizes.push_back(z);
    }
    Result<TableSchemaPtr> schema = inner_.TableSchema(w.table);
    if (!schema.ok() || !sized) continue;
    const TableDescription& desc = **schema;
    const std::string table_key = PartitionKeyText(desc.key, *sized);
    touched[{w.table, ""}].push_back(table_key);
    if (w.check_only) continue;  // a ConditionCheck reads its item, writes no index
    note_arrival(w.table, "", desc.key, w, table_key);
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
      if (w.after) note_arrival(w.table, idx.name, idx.key, w, PartitionKeyText(idx.key, *w.after));
    }
  }
  // A value is new when its partition holds only the items this write moved into it.
  std::set<std::tuple<std::string, std::string, std::string>> fresh;
  for (const auto& [where, a] : arrived) {
    const auto& [table, index, text] = where;
    if (a.values.empty()) continue;
    if (CountPartition(table, index, a.values, a.items + 1) == a.items) fresh.insert(where);
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
    for (const std::string& k : keys) {
      PartitionUse p{where, k, 0, share};
      p.new_value = fresh.contains({table, local ? "" : index, k});
      use.partitions.push_back(std::move(p));
    }
  }
  for (const auto& [where, bytes] : growth) {
    if (bytes == 0) continue;
    PartitionUse p{where.first, where.second, 0, 0, bytes};
    p.new_value = fresh.contains({where.first, "", where.second});
    use.partitions.push_back(std::move(p));
  }
  log_->push_back(std::move(use));
}

std::vector<size_t> RecordingBackend::KeyedSizes(
    const std::vector<std::pair<std::string, Item>>& keys, const std::vector<const Item*>& returned,
    bool projected) {
  std::vector<size_t> sizes;
  if (!projected) {
    for (const Item* item : returned) sizes.push_back(ItemSize(*item));
    return sizes;
  }
  for (const auto& [table, key] : keys) {
    if (std::optional<Item> whole = Fetch(table, key)) sizes.push_back(ItemSize(*whole));
  }
  return sizes;
}

void RecordingBackend::RecordKeyedRead(std::string operation,
                                       const std::vector<std::pair<std::string, Item>>& keys,
                                       const std::vector<const Item*>& returned,
                                       const std::vector<ConsumedCapacity>& consumed,
                                       bool projected) {
  OperationUse use;
  use.operation = std::move(operation);
  for (const ConsumedCapacity& c : consumed) AddUnitsByTarget(c, false, &use.units);
  use.item_sizes = KeyedSizes(keys, returned, projected);
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

// Whether a read returns its items in part (a projection, as an expression or legacy parameter).
bool Projected(const expr::ExpressionInput& e) {
  return e.projection || (e.parsed && e.parsed->projection) || e.legacy;
}

// Whether `text` holds the placeholder `name` ("#n", ":v") as a whole token.
bool Mentions(const std::string& text, const std::string& name) {
  for (size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1)) {
    const size_t end = at + name.size();
    if (end == text.size() ||
        !(std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_')) {
      return true;
    }
  }
  return false;
}

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
    std::optional<TransactTarget> target = TargetOf(t, inner_);
    if (!target) continue;
    items.push_back({target->table, Fetch(target->table, target->key), std::nullopt,
                     t.condition_check.has_value()});
    keys.emplace_back(target->table, std::move(target->key));
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
        RecordKeyedRead("GetItem", {{r.table_name, r.key}}, returned, consumed,
                        Projected(r.expressions));
      });
}

Result<BatchGetItemResponse> RecordingBackend::BatchGetItem(const BatchGetItemRequest& r) {
  if (!log_) return inner_.BatchGetItem(r);
  return Recorded(
      r, kIndexes, [&](const BatchGetItemRequest& q) { return inner_.BatchGetItem(q); },
      [&](const BatchGetItemResponse& out) {
        std::vector<std::pair<std::string, Item>> keys;
        bool projected = false;
        for (const auto& [table, ka] : r.request_items) {
          for (const Item& k : ka.keys) keys.emplace_back(table, k);
          projected |= Projected(ka.expressions);
        }
        std::vector<const Item*> returned;
        for (const auto& [table, items] : out.responses) {
          for (const Item& i : items) returned.push_back(&i);
        }
        RecordKeyedRead("BatchGetItem", keys, returned, out.consumed_capacity, projected);
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
        bool projected = false;
        for (const TransactGetItem& t : r.transact_items) {
          keys.emplace_back(t.get.table_name, t.get.key);
          projected |= Projected(t.get.expressions);
        }
        std::vector<const Item*> returned;
        for (const std::optional<Item>& i : out.responses) {
          if (i) returned.push_back(&*i);
        }
        RecordKeyedRead("TransactGetItems", keys, returned, out.consumed_capacity, projected);
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
  use.item_sizes = ReadSizes(r, *out);
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

std::vector<size_t> RecordingBackend::ReadSizes(const QueryRequest& r, const QueryResponse& out) {
  std::vector<size_t> sizes;
  for (const Item& i : out.items) sizes.push_back(ItemSize(i));
  const expr::ExpressionInput& e = r.expressions;
  const bool narrowed = e.filter || e.projection ||
                        (e.parsed && (e.parsed->filter || e.parsed->projection)) ||
                        r.select == Select::kCount || r.select == Select::kSpecificAttributes;
  if (!narrowed || e.legacy) return sizes;
  QueryRequest whole = r;
  whole.select = Select::kUnset;
  whole.return_consumed_capacity = ReturnConsumedCapacity::kNone;
  whole.expressions.filter.reset();
  whole.expressions.projection.reset();
  if (e.parsed) {
    auto parsed = std::make_shared<expr::ParsedExpressions>(*e.parsed);
    parsed->filter.reset();
    parsed->projection.reset();
    whole.expressions.parsed = std::move(parsed);
  } else {
    // Placeholders only the filter or projection used would now be refused as unused.
    const std::string key = e.key_condition.value_or("");
    if (whole.expressions.names) {
      std::erase_if(*whole.expressions.names,
                    [&](const auto& n) { return !Mentions(key, n.first); });
      if (whole.expressions.names->empty()) whole.expressions.names.reset();
    }
    if (whole.expressions.values) {
      std::erase_if(*whole.expressions.values,
                    [&](const auto& v) { return !Mentions(key, v.first); });
      if (whole.expressions.values->empty()) whole.expressions.values.reset();
    }
  }
  Result<QueryResponse> again = inner_.Query(whole);
  if (!again.ok()) return sizes;  // what was returned is the best left
  sizes.clear();
  for (const Item& i : again->items) sizes.push_back(ItemSize(i));
  return sizes;
}

Result<SearchVectorsResponse> RecordingBackend::SearchVectors(const SearchVectorsRequest& r) {
  if (!log_) return inner_.SearchVectors(r);
  SearchVectorsRequest request = r;
  request.return_consumed_capacity = ReturnConsumedCapacity::kTotal;
  Result<SearchVectorsResponse> out = inner_.SearchVectors(request);
  if (!out.ok()) return out;
  OperationUse use;
  use.operation = "SearchVectors";
  use.tables.insert(r.table_name);
  use.vector_search_bytes[Target(r.table_name, r.index_name)] =
      static_cast<double>(out->search_request_bytes.value_or(0));
  for (const SearchResult& hit : out->results) use.item_sizes.push_back(ItemSize(hit.item));
  log_->push_back(std::move(use));
  if (r.return_consumed_capacity == ReturnConsumedCapacity::kNone) {
    out->search_request_bytes.reset();
  }
  return out;
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

}  // namespace keyhole::modeling
