// Response encoders of api/api_json.h, and the list of operations it speaks.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "api/api_json.h"
#include "core/ddb_json.h"
#include "core/item_codec.h"

namespace keyhole {

namespace {

// A capacity figure as DynamoDB writes it: a JSON number with a fraction ("1.0", "0.5").
json::Value Units(double units) {
  if (units == std::floor(units) && std::fabs(units) < 1e15) {
    return json::Value::Number(fmt::format("{:.1f}", units));
  }
  return json::Value::Number(fmt::format("{}", units));
}

// Adds CapacityUnits and, when non-zero, ReadCapacityUnits and WriteCapacityUnits to `o`.
void AddCapacity(const Capacity& c, json::Value* o) {
  o->Add("CapacityUnits", Units(c.capacity_units));
  if (c.read_units != 0) o->Add("ReadCapacityUnits", Units(c.read_units));
  if (c.write_units != 0) o->Add("WriteCapacityUnits", Units(c.write_units));
}

// {"<index>": {"CapacityUnits": ..}, ...}
json::Value IndexCapacities(const std::map<std::string, Capacity>& indexes) {
  json::Value o = json::Value::MakeObject();
  for (const auto& [name, c] : indexes) {
    json::Value entry = json::Value::MakeObject();
    AddCapacity(c, &entry);
    o.Add(name, std::move(entry));
  }
  return o;
}

// A TableDescription as the API returns it: TableToJson without the catalog-only members.
json::Value DescriptionJson(const TableDescription& t) {
  json::Value o = TableToJson(t);
  auto& members = o.object();
  std::erase_if(members, [](const json::Value::Member& m) {
    return m.first.starts_with("Keyhole");  // KeyholeTableId, KeyholeTimeToLive, KeyholeTags, ..
  });
  return o;
}

// {"<member>": description}
json::Value Wrap(std::string_view member, const TableDescription& t) {
  json::Value o = json::Value::MakeObject();
  o.Add(std::string(member), DescriptionJson(t));
  return o;
}

// The shape shared by PutItem, GetItem and DeleteItem: an optional item under `member`, then
// ConsumedCapacity.
json::Value ItemResponse(std::string_view member, const std::optional<Item>& item,
                         const std::optional<ConsumedCapacity>& capacity,
                         const std::optional<ItemCollectionMetrics>& metrics = std::nullopt) {
  json::Value o = json::Value::MakeObject();
  if (item) o.Add(std::string(member), ItemToJson(*item));
  if (capacity) o.Add("ConsumedCapacity", ConsumedCapacityToJson(*capacity));
  if (metrics) o.Add("ItemCollectionMetrics", ItemCollectionMetricsToJson(*metrics));
  return o;
}

// Query and Scan.
json::Value ReadResponseJson(const ReadResponse& r, Select select) {
  json::Value o = json::Value::MakeObject();
  if (select != Select::kCount) {
    json::Value::Array items;
    items.reserve(r.items.size());
    for (size_t i = 0; i < r.items.size(); ++i) {
      // An item still in its stored encoding is written as text from it, not built as a tree.
      std::string text;
      const std::string_view encoded = r.items.Encoded(i);
      if (!encoded.empty() && AppendItemJsonText(encoded, &text)) {
        items.push_back(json::Value::Raw(std::move(text)));
      } else {
        items.push_back(ItemToJson(r.items[i]));
      }
    }
    o.Add("Items", json::Value::MakeArray(std::move(items)));
  }
  o.Add("Count", json::Value::Int(r.count));
  o.Add("ScannedCount", json::Value::Int(r.scanned_count));
  if (r.last_evaluated_key) o.Add("LastEvaluatedKey", ItemToJson(*r.last_evaluated_key));
  if (r.consumed_capacity) o.Add("ConsumedCapacity", ConsumedCapacityToJson(*r.consumed_capacity));
  return o;
}

}  // namespace

bool IsKnownOperation(std::string_view name) {
  static constexpr std::string_view kOperations[] = {
#define KH_BACKEND_OPERATION(Name) #Name,
#include "core/operations.def"
  };
  for (std::string_view op : kOperations) {
    if (op == name) return true;
  }
  return false;
}

json::Value ConsumedCapacityToJson(const ConsumedCapacity& c) {
  json::Value o = json::Value::MakeObject();
  o.Add("TableName", json::Value::String(c.table_name));
  AddCapacity(c.total, &o);
  bool indexes =
      c.table.capacity_units != 0 || !c.global_indexes.empty() || !c.local_indexes.empty();
  if (indexes) {
    json::Value table = json::Value::MakeObject();
    AddCapacity(c.table, &table);
    o.Add("Table", std::move(table));
    if (!c.local_indexes.empty()) o.Add("LocalSecondaryIndexes", IndexCapacities(c.local_indexes));
    if (!c.global_indexes.empty()) {
      o.Add("GlobalSecondaryIndexes", IndexCapacities(c.global_indexes));
    }
  }
  if (!c.vector_indexes.empty()) {
    json::Value vectors = json::Value::MakeObject();
    for (const auto& [name, bytes] : c.vector_indexes) {
      json::Value entry = json::Value::MakeObject();
      entry.Add("VectorWriteRequestBytes", Units(bytes));
      vectors.Add(name, std::move(entry));
    }
    o.Add("VectorIndexes", std::move(vectors));
  }
  return o;
}

json::Value CreateTableResponseToJson(const CreateTableResponse& r) {
  // WarmThroughput only where the request gave one (DynamoDB's answer; findings 032, 033).
  json::Value d = DescriptionJson(r.table_description);
  auto drop_warm = [](json::Value* o) {
    std::erase_if(o->object(),
                  [](const json::Value::Member& m) { return m.first == "WarmThroughput"; });
  };
  if (!r.describe_warm_throughput) drop_warm(&d);
  for (auto& [member, gsis] : d.object()) {
    if (member != "GlobalSecondaryIndexes") continue;
    for (json::Value& g : gsis.array()) {
      const json::Value* name = g.Find("IndexName");
      if (!name || std::ranges::find(r.indexes_with_warm_throughput, name->str()) ==
                       r.indexes_with_warm_throughput.end()) {
        drop_warm(&g);
      }
    }
  }
  json::Value o = json::Value::MakeObject();
  o.Add("TableDescription", std::move(d));
  return o;
}

json::Value DeleteTableResponseToJson(const DeleteTableResponse& r) {
  // DynamoDB's DeleteTable describes the table without its schema: no AttributeDefinitions,
  // KeySchema, CreationDateTime, indexes or stream members (the AWS CLI's delete-table example;
  // TableArn, TableId, BillingModeSummary and SSEDescription as DynamoDB's current answers carry
  // them).
  static constexpr std::string_view kKept[] = {
      "TableName", "TableStatus", "ProvisionedThroughput", "TableSizeBytes", "ItemCount",
      "TableArn",  "TableId",     "BillingModeSummary",    "SSEDescription"};
  json::Value d = DescriptionJson(r.table_description);
  std::erase_if(d.object(), [](const json::Value::Member& m) {
    return std::find(std::begin(kKept), std::end(kKept), m.first) == std::end(kKept);
  });
  json::Value o = json::Value::MakeObject();
  o.Add("TableDescription", std::move(d));
  return o;
}

json::Value DescribeTableResponseToJson(const DescribeTableResponse& r) {
  return Wrap("Table", r.table);
}

json::Value ListTablesResponseToJson(const ListTablesResponse& r) {
  json::Value o = json::Value::MakeObject();
  json::Value names = json::Value::MakeArray();
  for (const std::string& n : r.table_names) names.Push(json::Value::String(n));
  o.Add("TableNames", std::move(names));
  if (r.last_evaluated_table_name) {
    o.Add("LastEvaluatedTableName", json::Value::String(*r.last_evaluated_table_name));
  }
  return o;
}

json::Value UpdateTableResponseToJson(const UpdateTableResponse& r) {
  return Wrap("TableDescription", r.table_description);
}

json::Value ItemCollectionMetricsToJson(const ItemCollectionMetrics& m) {
  json::Value o = json::Value::MakeObject();
  o.Add("ItemCollectionKey", ItemToJson(m.item_collection_key));
  json::Value range = json::Value::MakeArray();
  range.Push(Units(m.size_estimate_lower_gb));
  range.Push(Units(m.size_estimate_upper_gb));
  o.Add("SizeEstimateRangeGB", std::move(range));
  return o;
}

void AddCollectionMetricsMap(const std::map<std::string, std::vector<ItemCollectionMetrics>>& m,
                             json::Value* o) {
  if (m.empty()) return;
  json::Value tables = json::Value::MakeObject();
  for (const auto& [name, list] : m) {
    json::Value entries = json::Value::MakeArray();
    for (const ItemCollectionMetrics& e : list) entries.Push(ItemCollectionMetricsToJson(e));
    tables.Add(name, std::move(entries));
  }
  o->Add("ItemCollectionMetrics", std::move(tables));
}

json::Value PutItemResponseToJson(const PutItemResponse& r) {
  return ItemResponse("Attributes", r.attributes, r.consumed_capacity, r.item_collection_metrics);
}

json::Value GetItemResponseToJson(const GetItemResponse& r) {
  return ItemResponse("Item", r.item, r.consumed_capacity);
}

json::Value DeleteItemResponseToJson(const DeleteItemResponse& r) {
  return ItemResponse("Attributes", r.attributes, r.consumed_capacity, r.item_collection_metrics);
}

json::Value UpdateItemResponseToJson(const UpdateItemResponse& r) {
  return ItemResponse("Attributes", r.attributes, r.consumed_capacity, r.item_collection_metrics);
}

json::Value SearchVectorsResponseToJson(const SearchVectorsResponse& r) {
  json::Value o = json::Value::MakeObject();
  json::Value results = json::Value::MakeArray();
  for (const SearchResult& result : r.results) {
    json::Value e = json::Value::MakeObject();
    e.Add("Item", ItemToJson(result.item));
    e.Add("Score", json::Value::Number(fmt::format("{}", result.score)));
    results.Push(std::move(e));
  }
  o.Add("SearchResults", std::move(results));
  if (r.search_request_bytes) {
    json::Value c = json::Value::MakeObject();
    c.Add("VectorSearchRequestBytes", json::Value::Int(*r.search_request_bytes));
    o.Add("ConsumedCapacity", std::move(c));
  }
  return o;
}

json::Value QueryResponseToJson(const QueryResponse& r, Select select) {
  return ReadResponseJson(r, select);
}

json::Value ScanResponseToJson(const ScanResponse& r, Select select) {
  return ReadResponseJson(r, select);
}

}  // namespace keyhole
