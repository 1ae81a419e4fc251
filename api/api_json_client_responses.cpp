// Response decoders of api/api_json_client.h for the item, read, batch and transaction
// operations: the inverses of api_json_responses.cpp's and api_json_batches.cpp's encoders.
#include <algorithm>
#include <optional>
#include <string>
#include <utility>

#include "api/api_json_client.h"
#include "api/api_json_client_read.h"
#include "core/ddb_json.h"

namespace keyhole {

namespace {

using api_json_client::Child;
using api_json_client::DoubleAt;
using api_json_client::Element;
using api_json_client::Find;
using api_json_client::ItemAt;
using api_json_client::Malformed;
using api_json_client::NeedObject;
using api_json_client::ReadBool;
using api_json_client::ReadCapacity;
using api_json_client::ReadCapacityList;
using api_json_client::ReadInt;
using api_json_client::ReadItem;
using api_json_client::ReadString;

// {"ItemCollectionKey": {...}, "SizeEstimateRangeGB": [lower, upper]}.
Result<ItemCollectionMetrics> CollectionMetricsAt(const json::Value& v, const std::string& at) {
  KH_RETURN_IF_ERROR(NeedObject(v, at));
  ItemCollectionMetrics m;
  std::optional<Item> key;
  KH_RETURN_IF_ERROR(ReadItem(v, "ItemCollectionKey", at, &key));
  if (key) m.item_collection_key = std::move(*key);
  KH_ASSIGN_OR_RETURN(const json::Value* range,
                      Find(v, "SizeEstimateRangeGB", json::Kind::kArray, at));
  if (range) {
    const std::string range_at = Child(at, "SizeEstimateRangeGB");
    if (range->array().size() != 2) return Malformed(range_at, "does not hold two numbers");
    KH_ASSIGN_OR_RETURN(m.size_estimate_lower_gb,
                        DoubleAt(range->array()[0], Element(range_at, 0)));
    KH_ASSIGN_OR_RETURN(m.size_estimate_upper_gb,
                        DoubleAt(range->array()[1], Element(range_at, 1)));
  }
  return m;
}

// BatchWriteItem's and TransactWriteItems' {"ItemCollectionMetrics": {"T": [...]}}.
Status ReadCollectionMetricsMap(const json::Value& v,
                                std::map<std::string, std::vector<ItemCollectionMetrics>>* out) {
  KH_ASSIGN_OR_RETURN(const json::Value* m,
                      Find(v, "ItemCollectionMetrics", json::Kind::kObject, ""));
  if (!m) return Status::OK();
  for (const auto& [table, list] : m->object()) {
    const std::string at = Child("ItemCollectionMetrics", table);
    if (!list.IsArray()) return Malformed(at, "is not a list");
    std::vector<ItemCollectionMetrics>& entries = (*out)[table];
    for (size_t i = 0; i < list.array().size(); ++i) {
      KH_ASSIGN_OR_RETURN(ItemCollectionMetrics e,
                          CollectionMetricsAt(list.array()[i], Element(at, i)));
      entries.push_back(std::move(e));
    }
  }
  return Status::OK();
}

// PutItem, DeleteItem and UpdateItem: {"Attributes"?, "ConsumedCapacity"?,
// "ItemCollectionMetrics"?}.
template <typename Response>
Result<Response> AttributesResponse(const json::Value& v) {
  KH_RETURN_IF_ERROR(NeedObject(v, ""));
  Response r;
  KH_RETURN_IF_ERROR(ReadItem(v, "Attributes", "", &r.attributes));
  KH_RETURN_IF_ERROR(ReadCapacity(v, &r.consumed_capacity));
  KH_ASSIGN_OR_RETURN(const json::Value* metrics,
                      Find(v, "ItemCollectionMetrics", json::Kind::kObject, ""));
  if (metrics) {
    KH_ASSIGN_OR_RETURN(r.item_collection_metrics,
                        CollectionMetricsAt(*metrics, "ItemCollectionMetrics"));
  }
  return r;
}

// Query and Scan.
Result<ReadResponse> ReadResponseFromJson(const json::Value& v) {
  KH_RETURN_IF_ERROR(NeedObject(v, ""));
  ReadResponse r;
  KH_ASSIGN_OR_RETURN(const json::Value* items, Find(v, "Items", json::Kind::kArray, ""));
  if (items) {
    for (size_t i = 0; i < items->array().size(); ++i) {
      KH_ASSIGN_OR_RETURN(Item item, ItemAt(items->array()[i], Element("Items", i)));
      r.items.push_back(std::move(item));
    }
  }
  KH_RETURN_IF_ERROR(ReadInt(v, "Count", "", &r.count));
  KH_RETURN_IF_ERROR(ReadInt(v, "ScannedCount", "", &r.scanned_count));
  KH_RETURN_IF_ERROR(ReadItem(v, "LastEvaluatedKey", "", &r.last_evaluated_key));
  KH_RETURN_IF_ERROR(ReadCapacity(v, &r.consumed_capacity));
  return r;
}

// A list of items at `at`.
Result<std::vector<Item>> Items(const json::Value& list, const std::string& at) {
  if (!list.IsArray()) return Malformed(at, "is not a list");
  std::vector<Item> out;
  for (size_t i = 0; i < list.array().size(); ++i) {
    KH_ASSIGN_OR_RETURN(Item item, ItemAt(list.array()[i], Element(at, i)));
    out.push_back(std::move(item));
  }
  return out;
}

Result<WriteRequest> WriteRequestAt(const json::Value& v, const std::string& at) {
  KH_RETURN_IF_ERROR(NeedObject(v, at));
  WriteRequest w;
  KH_ASSIGN_OR_RETURN(const json::Value* put, Find(v, "PutRequest", json::Kind::kObject, at));
  KH_ASSIGN_OR_RETURN(const json::Value* del, Find(v, "DeleteRequest", json::Kind::kObject, at));
  if (put && del) return Malformed(at, "has both PutRequest and DeleteRequest");
  if (put) {
    std::optional<Item> item;
    KH_RETURN_IF_ERROR(ReadItem(*put, "Item", Child(at, "PutRequest"), &item));
    if (!item) return Malformed(Child(at, "PutRequest"), "has no Item");
    w.put_request = PutRequest{std::move(*item)};
  } else if (del) {
    std::optional<Item> key;
    KH_RETURN_IF_ERROR(ReadItem(*del, "Key", Child(at, "DeleteRequest"), &key));
    if (!key) return Malformed(Child(at, "DeleteRequest"), "has no Key");
    w.delete_request = DeleteRequest{std::move(*key)};
  } else {
    return Malformed(at, "has neither PutRequest nor DeleteRequest");
  }
  return w;
}

Result<KeysAndAttributes> KeysAndAttributesAt(const json::Value& v, const std::string& at) {
  KH_RETURN_IF_ERROR(NeedObject(v, at));
  KeysAndAttributes ka;
  KH_ASSIGN_OR_RETURN(const json::Value* keys, Find(v, "Keys", json::Kind::kArray, at));
  if (keys) {
    KH_ASSIGN_OR_RETURN(ka.keys, Items(*keys, Child(at, "Keys")));
  }
  KH_RETURN_IF_ERROR(ReadString(v, "ProjectionExpression", at, &ka.expressions.projection));
  KH_ASSIGN_OR_RETURN(const json::Value* names,
                      Find(v, "ExpressionAttributeNames", json::Kind::kObject, at));
  if (names) {
    const std::string names_at = Child(at, "ExpressionAttributeNames");
    std::map<std::string, std::string> decoded;
    for (const auto& [placeholder, name] : names->object()) {
      if (!name.IsString()) return Malformed(Child(names_at, placeholder), "is not a string");
      decoded.emplace(placeholder, name.str());
    }
    ka.expressions.names = std::move(decoded);
  }
  KH_RETURN_IF_ERROR(ReadBool(v, "ConsistentRead", at, &ka.consistent_read));
  return ka;
}

}  // namespace

Result<PutItemResponse> PutItemResponseFromJson(const json::Value& v) {
  return AttributesResponse<PutItemResponse>(v);
}

Result<GetItemResponse> GetItemResponseFromJson(const json::Value& v) {
  KH_RETURN_IF_ERROR(NeedObject(v, ""));
  GetItemResponse r;
  KH_RETURN_IF_ERROR(ReadItem(v, "Item", "", &r.item));
  KH_RETURN_IF_ERROR(ReadCapacity(v, &r.consumed_capacity));
  return r;
}

Result<SearchVectorsResponse> SearchVectorsResponseFromJson(const json::Value& v) {
  KH_RETURN_IF_ERROR(NeedObject(v, ""));
  SearchVectorsResponse r;
  const json::Value* results = v.Find("SearchResults");
  if (results && !results->IsArray()) return Malformed("SearchResults", "is not a list");
  if (results) {
    for (const json::Value& e : results->array()) {
      SearchResult result;
      std::optional<Item> item;
      KH_RETURN_IF_ERROR(NeedObject(e, "SearchResults"));
      KH_RETURN_IF_ERROR(ReadItem(e, "Item", "SearchResults", &item));
      if (item) result.item = std::move(*item);
      const json::Value* score = e.Find("Score");
      if (!score || !score->IsNumber()) return Malformed("SearchResults", "lacks a Score");
      result.score = std::strtod(score->number_text().c_str(), nullptr);
      r.results.push_back(std::move(result));
    }
  }
  if (const json::Value* c = v.Find("ConsumedCapacity"); c && c->IsObject()) {
    if (const json::Value* b = c->Find("VectorSearchRequestBytes"); b && b->IsNumber()) {
      r.search_request_bytes = std::strtoll(b->number_text().c_str(), nullptr, 10);
    }
  }
  return r;
}

Result<DeleteItemResponse> DeleteItemResponseFromJson(const json::Value& v) {
  return AttributesResponse<DeleteItemResponse>(v);
}

Result<UpdateItemResponse> UpdateItemResponseFromJson(const json::Value& v) {
  return AttributesResponse<UpdateItemResponse>(v);
}

Result<QueryResponse> QueryResponseFromJson(const json::Value& v) {
  return ReadResponseFromJson(v);
}

Result<ScanResponse> ScanResponseFromJson(const json::Value& v) { return ReadResponseFromJson(v); }

namespace {

// The response object in `text` as a Value, except the members `take` reads from the text
// itself: take(name, in) returns 1 when it read the member's value, 0 to leave it to the Value,
// -1 when the value is not what it reads. nullopt when anything is off, a name `take` read
// appears twice, or text follows the object.
template <typename Take>
std::optional<json::Value> ReadResponseText(std::string_view text, Take take) {
  json::TextReader in(text);
  if (!in.Consume('{')) return std::nullopt;
  json::Value rest = json::Value::MakeObject();
  std::vector<std::string> taken;
  if (!in.Consume('}')) {
    do {
      std::string name;
      if (!in.ReadString(&name) || !in.Consume(':')) return std::nullopt;
      const int t = take(name, &in);
      if (t < 0) return std::nullopt;
      if (t > 0) {
        if (std::find(taken.begin(), taken.end(), name) != taken.end()) return std::nullopt;
        taken.push_back(std::move(name));
        continue;
      }
      json::Value v;
      if (!in.ReadValue(&v)) return std::nullopt;
      rest.Add(std::move(name), std::move(v));
    } while (in.Consume(','));
    if (!in.Consume('}')) return std::nullopt;
  }
  if (!in.AtEnd()) return std::nullopt;
  return rest;
}

}  // namespace

std::optional<GetItemResponse> GetItemResponseFromText(std::string_view text) {
  std::optional<Item> item;
  std::optional<json::Value> rest = ReadResponseText(text, [&](std::string_view name, auto* in) {
    if (name != "Item") return 0;
    item.emplace();
    return ReadItemText(in, &*item) ? 1 : -1;
  });
  if (!rest) return std::nullopt;
  Result<GetItemResponse> r = GetItemResponseFromJson(*rest);
  if (!r.ok()) return std::nullopt;
  r->item = std::move(item);
  return std::move(*r);
}

std::optional<ReadResponse> ReadResponseFromText(std::string_view text) {
  ItemList items;
  std::optional<Item> last;
  std::optional<json::Value> rest = ReadResponseText(text, [&](std::string_view name, auto* in) {
    if (name == "LastEvaluatedKey") {
      last.emplace();
      return ReadItemText(in, &*last) ? 1 : -1;
    }
    if (name != "Items") return 0;
    if (!in->Consume('[')) return -1;
    if (in->Consume(']')) return 1;
    do {
      Item item;
      if (!ReadItemText(in, &item)) return -1;
      items.push_back(std::move(item));
    } while (in->Consume(','));
    return in->Consume(']') ? 1 : -1;
  });
  if (!rest) return std::nullopt;
  Result<ReadResponse> r = ReadResponseFromJson(*rest);
  if (!r.ok()) return std::nullopt;
  r->items = std::move(items);
  r->last_evaluated_key = std::move(last);
  return std::move(*r);
}

Result<std::map<std::string, std::vector<WriteRequest>>> WriteRequestsFromJson(
    const json::Value& v) {
  const std::string at = "UnprocessedItems";
  KH_RETURN_IF_ERROR(NeedObject(v, at));
  std::map<std::string, std::vector<WriteRequest>> out;
  for (const auto& [table, list] : v.object()) {
    const std::string table_at = Child(at, table);
    if (!list.IsArray()) return Malformed(table_at, "is not a list");
    std::vector<WriteRequest>& requests = out[table];
    for (size_t i = 0; i < list.array().size(); ++i) {
      KH_ASSIGN_OR_RETURN(WriteRequest w, WriteRequestAt(list.array()[i], Element(table_at, i)));
      requests.push_back(std::move(w));
    }
  }
  return out;
}

Result<std::map<std::string, KeysAndAttributes>> KeysAndAttributesFromJson(const json::Value& v) {
  const std::string at = "UnprocessedKeys";
  KH_RETURN_IF_ERROR(NeedObject(v, at));
  std::map<std::string, KeysAndAttributes> out;
  for (const auto& [table, entry] : v.object()) {
    KH_ASSIGN_OR_RETURN(out[table], KeysAndAttributesAt(entry, Child(at, table)));
  }
  return out;
}

Result<BatchWriteItemResponse> BatchWriteItemResponseFromJson(const json::Value& v) {
  KH_RETURN_IF_ERROR(NeedObject(v, ""));
  BatchWriteItemResponse r;
  if (const json::Value* m = v.Find("UnprocessedItems"); m && !m->IsNull()) {
    KH_ASSIGN_OR_RETURN(r.unprocessed_items, WriteRequestsFromJson(*m));
  }
  KH_RETURN_IF_ERROR(ReadCapacityList(v, "", &r.consumed_capacity));
  KH_RETURN_IF_ERROR(ReadCollectionMetricsMap(v, &r.item_collection_metrics));
  return r;
}

Result<BatchGetItemResponse> BatchGetItemResponseFromJson(const json::Value& v) {
  KH_RETURN_IF_ERROR(NeedObject(v, ""));
  BatchGetItemResponse r;
  KH_ASSIGN_OR_RETURN(const json::Value* responses, Find(v, "Responses", json::Kind::kObject, ""));
  if (responses) {
    for (const auto& [table, list] : responses->object()) {
      KH_ASSIGN_OR_RETURN(r.responses[table], Items(list, Child("Responses", table)));
    }
  }
  if (const json::Value* m = v.Find("UnprocessedKeys"); m && !m->IsNull()) {
    KH_ASSIGN_OR_RETURN(r.unprocessed_keys, KeysAndAttributesFromJson(*m));
  }
  KH_RETURN_IF_ERROR(ReadCapacityList(v, "", &r.consumed_capacity));
  return r;
}

Result<TransactWriteItemsResponse> TransactWriteItemsResponseFromJson(const json::Value& v) {
  KH_RETURN_IF_ERROR(NeedObject(v, ""));
  TransactWriteItemsResponse r;
  KH_RETURN_IF_ERROR(ReadCapacityList(v, "", &r.consumed_capacity));
  KH_RETURN_IF_ERROR(ReadCollectionMetricsMap(v, &r.item_collection_metrics));
  return r;
}

Result<TransactGetItemsResponse> TransactGetItemsResponseFromJson(const json::Value& v) {
  KH_RETURN_IF_ERROR(NeedObject(v, ""));
  TransactGetItemsResponse r;
  KH_ASSIGN_OR_RETURN(const json::Value* list, Find(v, "Responses", json::Kind::kArray, ""));
  if (list) {
    for (size_t i = 0; i < list->array().size(); ++i) {
      const std::string at = Element("Responses", i);
      const json::Value& e = list->array()[i];
      KH_RETURN_IF_ERROR(NeedObject(e, at));
      std::optional<Item> item;
      KH_RETURN_IF_ERROR(ReadItem(e, "Item", at, &item));
      r.responses.push_back(std::move(item));
    }
  }
  KH_RETURN_IF_ERROR(ReadCapacityList(v, "", &r.consumed_capacity));
  return r;
}

}  // namespace keyhole
