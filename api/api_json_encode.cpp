// Request encoders of api/api_json.h: the item, read, batch and transaction requests as
// DynamoDB's JSON bodies.
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "api/api_json.h"
#include "core/ddb_json.h"
#include "core/expression_text.h"

namespace keyhole {

namespace {

const char* ReturnValuesName(ReturnValues v) {
  switch (v) {
    case ReturnValues::kNone:
      return "NONE";
    case ReturnValues::kAllOld:
      return "ALL_OLD";
    case ReturnValues::kUpdatedOld:
      return "UPDATED_OLD";
    case ReturnValues::kAllNew:
      return "ALL_NEW";
    case ReturnValues::kUpdatedNew:
      return "UPDATED_NEW";
  }
  return "NONE";
}

const char* SelectName(Select s) {
  switch (s) {
    case Select::kUnset:
      return "";
    case Select::kAllAttributes:
      return "ALL_ATTRIBUTES";
    case Select::kAllProjectedAttributes:
      return "ALL_PROJECTED_ATTRIBUTES";
    case Select::kSpecificAttributes:
      return "SPECIFIC_ATTRIBUTES";
    case Select::kCount:
      return "COUNT";
  }
  return "";
}

const char* SortKeyOpName(SortKeyOp op) {
  switch (op) {
    case SortKeyOp::kNone:
    case SortKeyOp::kEq:
      return "EQ";
    case SortKeyOp::kLt:
      return "LT";
    case SortKeyOp::kLe:
      return "LE";
    case SortKeyOp::kGt:
      return "GT";
    case SortKeyOp::kGe:
      return "GE";
    case SortKeyOp::kBetween:
      return "BETWEEN";
    case SortKeyOp::kBeginsWith:
      return "BEGINS_WITH";
  }
  return "EQ";
}

void AddReturnValues(ReturnValues v, json::Value* body) {
  if (v != ReturnValues::kNone) body->Add("ReturnValues", json::Value::String(ReturnValuesName(v)));
}

void AddOnFailure(ReturnValues v, json::Value* body) {
  if (v != ReturnValues::kNone) {
    body->Add("ReturnValuesOnConditionCheckFailure", json::Value::String(ReturnValuesName(v)));
  }
}

void AddMetrics(bool size, json::Value* body) {
  if (size) body->Add("ReturnItemCollectionMetrics", json::Value::String("SIZE"));
}

void AddCapacity(ReturnConsumedCapacity c, json::Value* body) {
  if (c == ReturnConsumedCapacity::kTotal) {
    body->Add("ReturnConsumedCapacity", json::Value::String("TOTAL"));
  } else if (c == ReturnConsumedCapacity::kIndexes) {
    body->Add("ReturnConsumedCapacity", json::Value::String("INDEXES"));
  }
}

// A structured key condition as the legacy KeyConditions map.
json::Value KeyConditionsOf(const KeyCondition& key) {
  auto term = [](SortKeyOp op, std::vector<const AttributeValue*> values) {
    json::Value t = json::Value::MakeObject();
    t.Add("ComparisonOperator", json::Value::String(SortKeyOpName(op)));
    json::Value list = json::Value::MakeArray();
    for (const AttributeValue* v : values) list.Push(ValueToJson(*v));
    t.Add("AttributeValueList", std::move(list));
    return t;
  };
  json::Value terms = json::Value::MakeObject();
  terms.Add(key.partition_name, term(SortKeyOp::kEq, {&key.partition_value}));
  for (const auto& [name, v] : key.more_partition) terms.Add(name, term(SortKeyOp::kEq, {&v}));
  for (const auto& [name, v] : key.sort_prefix) terms.Add(name, term(SortKeyOp::kEq, {&v}));
  if (key.op != SortKeyOp::kNone) {
    std::vector<const AttributeValue*> values{&key.sort_value};
    if (key.op == SortKeyOp::kBetween) values.push_back(&key.sort_value2);
    terms.Add(key.sort_name, term(key.op, std::move(values)));
  }
  return terms;
}

// Adds the expression members of `in` (and, when given and no KeyConditionExpression is,
// the structured key condition `key`). Parsed ASTs are rendered with fresh placeholders;
// strings are copied with their maps. Legacy parameters (ExpressionInput::legacy) are copied as
// sent instead of their translation, with the key condition as KeyConditions.
void AddExpressions(const expr::ExpressionInput& in, const KeyCondition* key, json::Value* body) {
  if (in.legacy) {
    for (const auto& [name, value] : in.legacy->object()) body->Add(name, value);
    if (!in.legacy->Find("KeyConditions") && key != nullptr && !key->partition_name.empty()) {
      body->Add("KeyConditions", KeyConditionsOf(*key));
    }
    return;
  }
  std::optional<std::string> condition, filter, key_condition, projection, update, search;
  expr::Placeholders p(in.parsed ? std::map<std::string, std::string>{}
                                 : in.names.value_or(std::map<std::string, std::string>{}),
                       in.parsed ? std::map<std::string, AttributeValue>{}
                                 : in.values.value_or(std::map<std::string, AttributeValue>{}));
  bool any_placeholder_use = false;
  // A structured key condition is rendered first, so that its placeholders come first.
  bool has_key_expression =
      in.parsed ? in.parsed->key_condition != nullptr : in.key_condition.has_value();
  if (!has_key_expression && key != nullptr && !key->partition_name.empty()) {
    key_condition = expr::RenderKeyCondition(*key, &p);
    any_placeholder_use = true;
  }
  if (in.parsed) {
    const expr::ParsedExpressions& e = *in.parsed;
    if (e.key_condition) key_condition = expr::RenderCondition(*e.key_condition, &p);
    if (e.update) update = expr::RenderUpdate(*e.update, &p);
    if (e.condition) condition = expr::RenderCondition(*e.condition, &p);
    if (e.filter) filter = expr::RenderCondition(*e.filter, &p);
    if (e.projection) projection = expr::RenderProjection(*e.projection, &p);
    if (e.search_condition) search = expr::RenderCondition(*e.search_condition, &p);
    any_placeholder_use = true;
  } else {
    condition = in.condition;
    filter = in.filter;
    if (has_key_expression) key_condition = in.key_condition;
    projection = in.projection;
    update = in.update;
    search = in.search_condition;
  }
  if (key_condition) body->Add("KeyConditionExpression", json::Value::String(*key_condition));
  if (filter) body->Add("FilterExpression", json::Value::String(*filter));
  if (projection) body->Add("ProjectionExpression", json::Value::String(*projection));
  if (condition) body->Add("ConditionExpression", json::Value::String(*condition));
  if (update) body->Add("UpdateExpression", json::Value::String(*update));
  if (search) body->Add("SearchConditionExpression", json::Value::String(*search));
  // Copied maps keep their presence as given; rendered ones appear when not empty.
  if (in.names || (any_placeholder_use && !p.names().empty())) {
    json::Value names = json::Value::MakeObject();
    for (const auto& [k, v] : p.names()) names.Add(k, json::Value::String(v));
    body->Add("ExpressionAttributeNames", std::move(names));
  }
  if (in.values || (any_placeholder_use && !p.values().empty())) {
    json::Value values = json::Value::MakeObject();
    for (const auto& [k, v] : p.values()) values.Add(k, ValueToJson(v));
    body->Add("ExpressionAttributeValues", std::move(values));
  }
}

json::Value Start(const std::string& table) {
  json::Value body = json::Value::MakeObject();
  body.Add("TableName", json::Value::String(table));
  return body;
}

}  // namespace

json::Value GetItemRequestToJson(const GetItemRequest& r) {
  json::Value body = Start(r.table_name);
  body.Add("Key", ItemToJson(r.key));
  AddExpressions(r.expressions, nullptr, &body);
  if (r.consistent_read) body.Add("ConsistentRead", json::Value::Bool(true));
  AddCapacity(r.return_consumed_capacity, &body);
  return body;
}

json::Value QueryRequestToJson(const QueryRequest& r) {
  json::Value body = Start(r.table_name);
  if (r.index_name) body.Add("IndexName", json::Value::String(*r.index_name));
  AddExpressions(r.expressions, &r.key_condition, &body);
  // Unbound legacy terms, unless the legacy members already carry KeyConditions.
  if (!r.key_conditions.empty() &&
      !(r.expressions.legacy && r.expressions.legacy->Find("KeyConditions"))) {
    json::Value terms = json::Value::MakeObject();
    for (const KeyConditionTerm& t : r.key_conditions) {
      json::Value term = json::Value::MakeObject();
      term.Add("ComparisonOperator", json::Value::String(SortKeyOpName(t.op)));
      json::Value list = json::Value::MakeArray();
      for (const AttributeValue& v : t.values) list.Push(ValueToJson(v));
      term.Add("AttributeValueList", std::move(list));
      terms.Add(t.name, std::move(term));
    }
    body.Add("KeyConditions", std::move(terms));
  }
  if (!r.scan_index_forward) body.Add("ScanIndexForward", json::Value::Bool(false));
  if (r.limit) body.Add("Limit", json::Value::Int(*r.limit));
  if (r.exclusive_start_key) body.Add("ExclusiveStartKey", ItemToJson(*r.exclusive_start_key));
  if (r.select != Select::kUnset) body.Add("Select", json::Value::String(SelectName(r.select)));
  if (r.consistent_read) body.Add("ConsistentRead", json::Value::Bool(true));
  AddCapacity(r.return_consumed_capacity, &body);
  return body;
}

json::Value SearchVectorsRequestToJson(const SearchVectorsRequest& r) {
  json::Value body = Start(r.table_name);
  body.Add("IndexName", json::Value::String(r.index_name));
  json::Value vector = json::Value::MakeArray();
  for (const AttributeValue& v : r.search_vector) vector.Push(ValueToJson(v));
  body.Add("SearchVector", std::move(vector));
  body.Add("TopK", json::Value::Int(r.top_k));
  AddExpressions(r.expressions, nullptr, &body);
  AddCapacity(r.return_consumed_capacity, &body);
  return body;
}

json::Value ScanRequestToJson(const ScanRequest& r) {
  json::Value body = Start(r.table_name);
  if (r.index_name) body.Add("IndexName", json::Value::String(*r.index_name));
  AddExpressions(r.expressions, nullptr, &body);
  if (r.limit) body.Add("Limit", json::Value::Int(*r.limit));
  if (r.exclusive_start_key) body.Add("ExclusiveStartKey", ItemToJson(*r.exclusive_start_key));
  if (r.select != Select::kUnset) body.Add("Select", json::Value::String(SelectName(r.select)));
  if (r.consistent_read) body.Add("ConsistentRead", json::Value::Bool(true));
  if (r.segment) body.Add("Segment", json::Value::Int(*r.segment));
  if (r.total_segments) body.Add("TotalSegments", json::Value::Int(*r.total_segments));
  AddCapacity(r.return_consumed_capacity, &body);
  return body;
}

namespace {

// PutItem, UpdateItem and DeleteItem: the table, the item or key under `member`, the
// expressions and the return options, in the API's order.
template <typename Request>
json::Value SingleItemRequest(const Request& r, const char* member, const Item& map) {
  json::Value body = Start(r.table_name);
  body.Add(member, ItemToJson(map));
  AddExpressions(r.expressions, nullptr, &body);
  AddReturnValues(r.return_values, &body);
  AddCapacity(r.return_consumed_capacity, &body);
  AddMetrics(r.return_item_collection_metrics, &body);
  AddOnFailure(r.return_values_on_condition_check_failure, &body);
  return body;
}

}  // namespace

json::Value PutItemRequestToJson(const PutItemRequest& r) {
  return SingleItemRequest(r, "Item", r.item);
}

json::Value UpdateItemRequestToJson(const UpdateItemRequest& r) {
  return SingleItemRequest(r, "Key", r.key);
}

json::Value DeleteItemRequestToJson(const DeleteItemRequest& r) {
  return SingleItemRequest(r, "Key", r.key);
}

json::Value BatchWriteItemRequestToJson(const BatchWriteItemRequest& r) {
  json::Value body = json::Value::MakeObject();
  body.Add("RequestItems", WriteRequestsToJson(r.request_items));
  AddCapacity(r.return_consumed_capacity, &body);
  AddMetrics(r.return_item_collection_metrics, &body);
  return body;
}

json::Value BatchGetItemRequestToJson(const BatchGetItemRequest& r) {
  json::Value body = json::Value::MakeObject();
  body.Add("RequestItems", KeysAndAttributesToJson(r.request_items));
  AddCapacity(r.return_consumed_capacity, &body);
  return body;
}

json::Value WriteRequestsToJson(const std::map<std::string, std::vector<WriteRequest>>& items) {
  json::Value tables = json::Value::MakeObject();
  for (const auto& [name, requests] : items) {
    json::Value list = json::Value::MakeArray();
    for (const WriteRequest& w : requests) {
      json::Value inner = json::Value::MakeObject();
      json::Value e = json::Value::MakeObject();
      if (w.put_request) {
        inner.Add("Item", ItemToJson(w.put_request->item));
        e.Add("PutRequest", std::move(inner));
      } else if (w.delete_request) {
        inner.Add("Key", ItemToJson(w.delete_request->key));
        e.Add("DeleteRequest", std::move(inner));
      }
      list.Push(std::move(e));
    }
    tables.Add(name, std::move(list));
  }
  return tables;
}

json::Value KeysAndAttributesToJson(const std::map<std::string, KeysAndAttributes>& items) {
  json::Value tables = json::Value::MakeObject();
  for (const auto& [name, ka] : items) {
    json::Value t = json::Value::MakeObject();
    json::Value keys = json::Value::MakeArray();
    for (const Item& k : ka.keys) keys.Push(ItemToJson(k));
    t.Add("Keys", std::move(keys));
    AddExpressions(ka.expressions, nullptr, &t);
    if (ka.consistent_read) t.Add("ConsistentRead", json::Value::Bool(true));
    tables.Add(name, std::move(t));
  }
  return tables;
}

json::Value TransactWriteItemsRequestToJson(const TransactWriteItemsRequest& r) {
  json::Value list = json::Value::MakeArray();
  for (const TransactWriteItem& t : r.transact_items) {
    json::Value e = json::Value::MakeObject();
    if (t.condition_check) {
      const ConditionCheck& c = *t.condition_check;
      json::Value body = Start(c.table_name);
      body.Add("Key", ItemToJson(c.key));
      AddExpressions(c.expressions, nullptr, &body);
      AddOnFailure(c.return_values_on_condition_check_failure, &body);
      e.Add("ConditionCheck", std::move(body));
    }
    if (t.put) e.Add("Put", PutItemRequestToJson(*t.put));
    if (t.delete_) e.Add("Delete", DeleteItemRequestToJson(*t.delete_));
    if (t.update) e.Add("Update", UpdateItemRequestToJson(*t.update));
    list.Push(std::move(e));
  }
  json::Value body = json::Value::MakeObject();
  body.Add("TransactItems", std::move(list));
  AddCapacity(r.return_consumed_capacity, &body);
  AddMetrics(r.return_item_collection_metrics, &body);
  if (r.client_request_token) {
    body.Add("ClientRequestToken", json::Value::String(*r.client_request_token));
  }
  return body;
}

json::Value TransactGetItemsRequestToJson(const TransactGetItemsRequest& r) {
  json::Value list = json::Value::MakeArray();
  for (const TransactGetItem& t : r.transact_items) {
    json::Value get = Start(t.get.table_name);
    get.Add("Key", ItemToJson(t.get.key));
    AddExpressions(t.get.expressions, nullptr, &get);
    json::Value e = json::Value::MakeObject();
    e.Add("Get", std::move(get));
    list.Push(std::move(e));
  }
  json::Value body = json::Value::MakeObject();
  body.Add("TransactItems", std::move(list));
  AddCapacity(r.return_consumed_capacity, &body);
  return body;
}

}  // namespace keyhole
