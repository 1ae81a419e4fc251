// The batch and transaction operations of api/api_json.h: BatchWriteItem, BatchGetItem,
// TransactWriteItems and TransactGetItems requests and responses, and the JSON error body
// (with TransactionCanceledException's CancellationReasons).
#include <fmt/format.h>

#include <set>

#include "api/api_json.h"
#include "api/api_json_decode.h"
#include "core/ddb_json.h"
#include "core/java_echo.h"
#include "parser/expression_parser.h"

namespace keyhole {

namespace {

using api_json::CheckLength;
using api_json::CheckStructure;
using api_json::MemberSpec;
using api_json::Path;
using api_json::ReadBool;
using api_json::ReadList;
using api_json::ReadObject;
using api_json::ReadString;
using api_json::TypeError;
using api_json::Violations;

// A map member (RequestItems) whose keys are table names: each entry, checked for repeats.
Result<std::vector<std::pair<std::string, const json::Value*>>> Entries(const json::Value& map,
                                                                        const Path& at) {
  std::vector<std::pair<std::string, const json::Value*>> out;
  std::set<std::string> seen;
  for (const auto& [name, value] : map.object()) {
    if (!seen.insert(name).second) {
      return Status::Validation(fmt::format("Duplicate parameter in {}: \"{}\"", at.param, name));
    }
    out.emplace_back(name, &value);
  }
  return out;
}

// A list element that must be an object (a map or a structure).
Status NeedObject(const json::Value& v, const Path& at) {
  return v.IsObject() ? Status::OK() : TypeError(at, v, "object");
}

Result<WriteRequest> ReadWriteRequestElement(const json::Value& v, const Path& at) {
  static constexpr MemberSpec kMembers[] = {{"PutRequest"}, {"DeleteRequest"}};
  static constexpr MemberSpec kPut[] = {{"Item"}};
  static constexpr MemberSpec kDelete[] = {{"Key"}};
  KH_RETURN_IF_ERROR(CheckStructure(v, at, kMembers));
  WriteRequest w;
  Violations errs;
  KH_ASSIGN_OR_RETURN(const json::Value* put, ReadObject(v, "PutRequest", at));
  if (put) {
    Path p = at.Child("PutRequest");
    KH_RETURN_IF_ERROR(CheckStructure(*put, p, kPut));
    KH_ASSIGN_OR_RETURN(const json::Value* item,
                        api_json::ReadRequiredObject(*put, "Item", p, &errs));
    KH_RETURN_IF_ERROR(errs.ToStatus());
    // BatchWriteItem reads its values in DynamoDB's older layer (core/ddb_json.h).
    KH_ASSIGN_OR_RETURN(Item decoded, ItemFromJson(*item, ValueLayer::kOlder));
    w.put_request = PutRequest{std::move(decoded)};
  }
  KH_ASSIGN_OR_RETURN(const json::Value* del, ReadObject(v, "DeleteRequest", at));
  if (del) {
    Path p = at.Child("DeleteRequest");
    KH_RETURN_IF_ERROR(CheckStructure(*del, p, kDelete));
    KH_ASSIGN_OR_RETURN(const json::Value* key,
                        api_json::ReadRequiredObject(*del, "Key", p, &errs));
    KH_RETURN_IF_ERROR(errs.ToStatus());
    KH_ASSIGN_OR_RETURN(Item decoded, ItemFromJson(*key, ValueLayer::kOlder));
    w.delete_request = DeleteRequest{std::move(decoded)};
  }
  return w;
}

Result<KeysAndAttributes> ReadKeysAndAttributes(const json::Value& v, const Path& at) {
  static constexpr MemberSpec kMembers[] = {
      {"Keys"},
      {"AttributesToGet"},
      {"ConsistentRead"},
      {"ProjectionExpression"},
      {"ExpressionAttributeNames"},
  };
  KH_RETURN_IF_ERROR(CheckStructure(v, at, kMembers));
  KeysAndAttributes ka;
  Violations errs;
  KH_ASSIGN_OR_RETURN(const json::Value* keys, ReadList(v, "Keys", at));
  if (!keys) errs.AddNull(at.Child("Keys"));
  KH_ASSIGN_OR_RETURN(std::optional<bool> consistent, ReadBool(v, "ConsistentRead", at));
  ka.consistent_read = consistent.value_or(false);
  KH_ASSIGN_OR_RETURN(api_json::LegacyMembers legacy,
                      api_json::ReadLegacyMembers(v, api_json::LegacyOp::kBatchGetItem, at, &errs));
  KH_RETURN_IF_ERROR(errs.ToStatus());
  KH_RETURN_IF_ERROR(
      api_json::ReadExpressionMembers(v, at, &ka.expressions, api_json::kCurrentWording));
  KH_RETURN_IF_ERROR(api_json::CheckLegacyMix(legacy, ka.expressions));
  const Path list = at.Child("Keys");
  for (size_t i = 0; i < keys->array().size(); ++i) {
    const json::Value& k = keys->array()[i];
    KH_RETURN_IF_ERROR(NeedObject(k, list.Element(i)));
    KH_ASSIGN_OR_RETURN(Item key, ItemFromJson(k));
    ka.keys.push_back(std::move(key));
  }
  KH_RETURN_IF_ERROR(api_json::TranslateLegacy(legacy, &ka.expressions));
  return ka;
}

// ClientRequestToken: 1..36 characters.
Result<std::optional<std::string>> ReadToken(const json::Value& v, const Path& at,
                                             Violations* errs) {
  KH_ASSIGN_OR_RETURN(std::optional<std::string> token, ReadString(v, "ClientRequestToken", at));
  if (token) CheckLength(token->size(), 1, 36, *token, at.Child("ClientRequestToken"), errs);
  return token;
}

// The TransactItems list: present, and its elements objects.
Result<const json::Value*> ReadTransactItems(const json::Value& v, const Path& at,
                                             Violations* errs) {
  KH_ASSIGN_OR_RETURN(const json::Value* items, ReadList(v, "TransactItems", at));
  if (!items) errs->AddNull(at.Child("TransactItems"));
  return items;
}

Result<TransactWriteItem> ReadTransactWriteItem(const json::Value& v, const Path& at, bool older) {
  static constexpr MemberSpec kMembers[] = {{"ConditionCheck"}, {"Put"}, {"Delete"}, {"Update"}};
  KH_RETURN_IF_ERROR(CheckStructure(v, at, kMembers));
  TransactWriteItem t;
  Violations errs;
  KH_ASSIGN_OR_RETURN(const json::Value* check, ReadObject(v, "ConditionCheck", at));
  if (check) {
    // The same members as a transactional Delete, with the ConditionExpression required.
    DeleteItemRequest d;
    Path p = at.Child("ConditionCheck");
    KH_RETURN_IF_ERROR(api_json::ReadTransactDelete(*check, p, &d, older));
    if (!d.expressions.condition) errs.AddNull(p.Child("ConditionExpression"));
    t.condition_check =
        ConditionCheck{std::move(d.table_name), std::move(d.key), std::move(d.expressions),
                       d.return_values_on_condition_check_failure};
  }
  KH_ASSIGN_OR_RETURN(const json::Value* put, ReadObject(v, "Put", at));
  if (put) {
    t.put.emplace();
    KH_RETURN_IF_ERROR(api_json::ReadTransactPut(*put, at.Child("Put"), &*t.put, older));
  }
  KH_ASSIGN_OR_RETURN(const json::Value* del, ReadObject(v, "Delete", at));
  if (del) {
    t.delete_.emplace();
    KH_RETURN_IF_ERROR(api_json::ReadTransactDelete(*del, at.Child("Delete"), &*t.delete_, older));
  }
  KH_ASSIGN_OR_RETURN(const json::Value* update, ReadObject(v, "Update", at));
  if (update) {
    t.update.emplace();
    Path p = at.Child("Update");
    KH_RETURN_IF_ERROR(api_json::ReadTransactUpdate(*update, p, &*t.update, older));
    if (!t.update->expressions.update) errs.AddNull(p.Child("UpdateExpression"));
  }
  KH_RETURN_IF_ERROR(errs.ToStatus());
  return t;
}

// Whether `s` is the refusal of a value the decoder read (not a constraint or a member error).
bool IsValueError(const Status& s) {
  if (!s.IsValidation()) return false;
  const std::string& m = s.message();
  // Constraint errors ("N validation error(s) detected: ..."), and the member checks', are not.
  const size_t counted = m.find(" validation error");
  const bool constraint = !m.empty() && m[0] >= '1' && m[0] <= '9' && counted < 4;
  return !constraint && !m.starts_with("Unknown parameter") &&
         !m.starts_with("Duplicate parameter") && !m.starts_with("Invalid type for parameter");
}

// The problems of one TransactWriteItems action that need neither its values nor its table:
// an empty attribute name in a Put's item, then its expressions (parse, placeholders, unused
// ones), as storage would report them. Its values are not read: placeholders stand for them.
Status ActionProblem(const json::Value& action) {
  if (!action.IsObject()) return Status::OK();
  for (const char* kind : {"ConditionCheck", "Put", "Delete", "Update"}) {
    const json::Value* body = action.Find(kind);
    if (!body || !body->IsObject()) continue;
    if (std::string_view(kind) == "Put") {
      const json::Value* item = body->Find("Item");
      if (item && item->IsObject()) {
        for (const auto& [name, value] : item->object()) {
          if (name.empty()) return Status::Validation("Empty attribute name");
        }
      }
    }
    expr::ExpressionInput in;
    auto text = [&](const char* member) -> std::optional<std::string> {
      const json::Value* m = body->Find(member);
      return m && m->IsString() ? std::optional<std::string>(m->str()) : std::nullopt;
    };
    in.condition = text("ConditionExpression");
    in.update = text("UpdateExpression");
    if (const json::Value* names = body->Find("ExpressionAttributeNames");
        names && names->IsObject()) {
      in.names.emplace();
      for (const auto& [k, n] : names->object()) {
        if (n.IsString()) (*in.names)[k] = n.str();
      }
    }
    if (const json::Value* values = body->Find("ExpressionAttributeValues");
        values && values->IsObject()) {
      in.values.emplace();
      for (const auto& [k, v] : values->object()) (*in.values)[k] = AttributeValue::Null();
    }
    static const parser::NativeExpressionParser kParser;
    KH_RETURN_IF_ERROR(kParser.Parse(in).status());
  }
  return Status::OK();
}

// The constraint on BatchGetItem's and BatchWriteItem's RequestItems keys.
constexpr std::string_view kMapKeysConstraint =
    "Map keys must satisfy constraint: [Member must have length less than or equal to 255, "
    "Member must have length greater than or equal to 3, Member must satisfy regular expression "
    "pattern: [a-zA-Z0-9_.-]+]";

// Whether a RequestItems map names a table that is neither a valid name nor a table ARN.
bool AnyBadTableName(const json::Value& items) {
  for (const auto& [name, entry] : items.object()) {
    if (!ValidateDataTableName(name).ok()) return true;
  }
  return false;
}

// ---- responses ----

json::Value CapacityList(const std::vector<ConsumedCapacity>& list) {
  json::Value a = json::Value::MakeArray();
  for (const ConsumedCapacity& c : list) a.Push(ConsumedCapacityToJson(c));
  return a;
}

void AddCapacityList(const std::vector<ConsumedCapacity>& list, json::Value* o) {
  if (!list.empty()) o->Add("ConsumedCapacity", CapacityList(list));
}

}  // namespace

Result<BatchWriteItemRequest> BatchWriteItemRequestFromJson(const json::Value& v) {
  static constexpr MemberSpec kMembers[] = {
      {"RequestItems"}, {"ReturnConsumedCapacity"}, {"ReturnItemCollectionMetrics"}};
  const Path root;
  KH_RETURN_IF_ERROR(CheckStructure(v, root, kMembers));
  Violations errs;
  BatchWriteItemRequest r;
  KH_ASSIGN_OR_RETURN(const json::Value* items,
                      api_json::ReadRequiredObject(v, "RequestItems", root, &errs));
  KH_ASSIGN_OR_RETURN(r.return_consumed_capacity,
                      api_json::ReadReturnConsumedCapacity(v, root, &errs));
  KH_ASSIGN_OR_RETURN(r.return_item_collection_metrics,
                      api_json::ReadCollectionMetrics(v, root, &errs));
  KH_RETURN_IF_ERROR(errs.ToStatus());
  const Path at = root.Child("RequestItems");
  KH_ASSIGN_OR_RETURN(auto entries, Entries(*items, at));
  for (const auto& [name, list] : entries) {
    const Path table = at.Entry(name);
    if (!list->IsArray()) return TypeError(table, *list, "list");
    std::vector<WriteRequest>& out = r.request_items[api_json::DataTableName(name)];
    for (size_t i = 0; i < list->array().size(); ++i) {
      KH_ASSIGN_OR_RETURN(WriteRequest w,
                          ReadWriteRequestElement(list->array()[i], table.Element(i)));
      out.push_back(std::move(w));
    }
  }
  // A malformed table name: the RequestItems map's keys constraint, the map echoed as Java
  // prints it (core/java_echo.h; batchWriteItem.test.ts matches it by pattern, as the echo's
  // hashes differ from call to call on AWS).
  if (AnyBadTableName(*items)) {
    std::string echo = "{";
    for (const auto& [name, list] : r.request_items) {
      if (echo.size() > 1) echo += ", ";
      echo += name + "=" + JavaEchoWriteRequests(list);
    }
    errs.Add(at, echo + "}", kMapKeysConstraint);
    return errs.ToStatus();
  }
  return r;
}

Result<BatchGetItemRequest> BatchGetItemRequestFromJson(const json::Value& v) {
  static constexpr MemberSpec kMembers[] = {{"RequestItems"}, {"ReturnConsumedCapacity"}};
  const Path root;
  KH_RETURN_IF_ERROR(CheckStructure(v, root, kMembers));
  Violations errs;
  BatchGetItemRequest r;
  KH_ASSIGN_OR_RETURN(const json::Value* items,
                      api_json::ReadRequiredObject(v, "RequestItems", root, &errs));
  // A malformed table name is a constraint on RequestItems' keys, whose message echoes the map
  // as JSON (the Parity Suite's batchGetItem and batchOperations captures, us-east-1 and
  // eu-west-2, October 2026).
  if (items && items->IsObject() && AnyBadTableName(*items)) {
    errs.Add(root.Child("RequestItems"), json::Write(*items), kMapKeysConstraint);
  }
  KH_ASSIGN_OR_RETURN(r.return_consumed_capacity,
                      api_json::ReadReturnConsumedCapacity(v, root, &errs));
  KH_RETURN_IF_ERROR(errs.ToStatus());
  const Path at = root.Child("RequestItems");
  KH_ASSIGN_OR_RETURN(auto entries, Entries(*items, at));
  // One projection form for the whole request: ProjectionExpression on one table and
  // AttributesToGet on another are refused (batchGetItem.test.ts, against AWS).
  bool expression = false, legacy = false;
  for (const auto& [name, entry] : entries) {
    KH_ASSIGN_OR_RETURN(KeysAndAttributes ka, ReadKeysAndAttributes(*entry, at.Entry(name)));
    expression = expression || ka.expressions.projection || ka.expressions.names;
    legacy = legacy || ka.expressions.legacy != nullptr;
    r.request_items[api_json::DataTableName(name)] = std::move(ka);
  }
  if (expression && legacy) {
    return Status::Validation(
        "Can not use both expression and non-expression parameters in the same request: "
        "Non-expression parameters: {AttributesToGet} Expression parameters: "
        "{ProjectionExpression}");
  }
  return r;
}

Result<TransactWriteItemsRequest> TransactWriteItemsRequestFromJson(const json::Value& v) {
  static constexpr MemberSpec kMembers[] = {{"TransactItems"},
                                            {"ReturnConsumedCapacity"},
                                            {"ReturnItemCollectionMetrics"},
                                            {"ClientRequestToken"}};
  const Path root;
  KH_RETURN_IF_ERROR(CheckStructure(v, root, kMembers));
  Violations errs;
  TransactWriteItemsRequest r;
  KH_ASSIGN_OR_RETURN(const json::Value* items, ReadTransactItems(v, root, &errs));
  // ClientRequestToken's length before the enums (validation-ordering/transactions.test.ts,
  // October 2026).
  KH_ASSIGN_OR_RETURN(r.client_request_token, ReadToken(v, root, &errs));
  KH_ASSIGN_OR_RETURN(r.return_consumed_capacity,
                      api_json::ReadReturnConsumedCapacity(v, root, &errs));
  KH_ASSIGN_OR_RETURN(r.return_item_collection_metrics,
                      api_json::ReadCollectionMetrics(v, root, &errs));
  KH_RETURN_IF_ERROR(errs.ToStatus());
  const Path at = root.Child("TransactItems");
  const bool older = api_json::NestedDeeperThan(v, 127);
  for (size_t i = 0; i < items->array().size(); ++i) {
    Result<TransactWriteItem> t = ReadTransactWriteItem(items->array()[i], at.Element(i), older);
    if (!t.ok()) {
      // DynamoDB checks the actions one at a time in request order: a value this action could
      // not read (nested too deep, a bad number) comes after the earlier actions' problems and
      // this one's own names and expressions (deepRequests.test.ts and
      // validation-ordering/transactions.test.ts, ten regions, October 2026).
      if (IsValueError(t.status())) {
        for (size_t j = 0; j <= i; ++j) KH_RETURN_IF_ERROR(ActionProblem(items->array()[j]));
      }
      return t.status();
    }
    r.transact_items.push_back(std::move(t).value());
  }
  return r;
}

Result<TransactGetItemsRequest> TransactGetItemsRequestFromJson(const json::Value& v) {
  static constexpr MemberSpec kMembers[] = {{"TransactItems"}, {"ReturnConsumedCapacity"}};
  static constexpr MemberSpec kItem[] = {{"Get"}};
  static constexpr MemberSpec kGet[] = {
      {"Key"}, {"TableName"}, {"ProjectionExpression"}, {"ExpressionAttributeNames"}};
  const Path root;
  KH_RETURN_IF_ERROR(CheckStructure(v, root, kMembers));
  Violations errs;
  TransactGetItemsRequest r;
  KH_ASSIGN_OR_RETURN(const json::Value* items, ReadTransactItems(v, root, &errs));
  KH_ASSIGN_OR_RETURN(r.return_consumed_capacity,
                      api_json::ReadReturnConsumedCapacity(v, root, &errs));
  KH_RETURN_IF_ERROR(errs.ToStatus());
  const Path at = root.Child("TransactItems");
  for (size_t i = 0; i < items->array().size(); ++i) {
    const json::Value& e = items->array()[i];
    const Path el = at.Element(i);
    KH_RETURN_IF_ERROR(CheckStructure(e, el, kItem));
    KH_ASSIGN_OR_RETURN(const json::Value* get, api_json::ReadRequiredObject(e, "Get", el, &errs));
    KH_RETURN_IF_ERROR(errs.ToStatus());
    const Path g = el.Child("Get");
    KH_RETURN_IF_ERROR(CheckStructure(*get, g, kGet));
    TransactGetItem t;
    KH_ASSIGN_OR_RETURN(t.get.table_name,
                        api_json::ReadDataTableNameMember(*get, "TableName", g, true, &errs));
    // A malformed table name names its member ('transactItems.1.member.get.tableName';
    // transactGetItems.test.ts, October 2026).
    if (errs.empty() && !t.get.table_name.empty() && !TableNameFromArn(t.get.table_name) &&
        !ValidateTableName(t.get.table_name).ok()) {
      api_json::CheckTableName(t.get.table_name, g.Child("TableName"), &errs);
    }
    KH_ASSIGN_OR_RETURN(const json::Value* key,
                        api_json::ReadRequiredObject(*get, "Key", g, &errs));
    KH_RETURN_IF_ERROR(errs.ToStatus());
    const api_json::Wording wording = api_json::TransactionWording();
    KH_RETURN_IF_ERROR(api_json::ReadExpressionMembers(*get, g, &t.get.expressions, wording));
    KH_ASSIGN_OR_RETURN(t.get.key, ItemFromJson(*key, wording.values));
    r.transact_items.push_back(std::move(t));
  }
  return r;
}

json::Value BatchWriteItemResponseToJson(const BatchWriteItemResponse& r) {
  json::Value o = json::Value::MakeObject();
  o.Add("UnprocessedItems", WriteRequestsToJson(r.unprocessed_items));
  AddCapacityList(r.consumed_capacity, &o);
  AddCollectionMetricsMap(r.item_collection_metrics, &o);
  return o;
}

json::Value BatchGetItemResponseToJson(const BatchGetItemResponse& r) {
  json::Value o = json::Value::MakeObject();
  json::Value responses = json::Value::MakeObject();
  for (const auto& [name, items] : r.responses) {
    json::Value list = json::Value::MakeArray();
    for (const Item& item : items) list.Push(ItemToJson(item));
    responses.Add(name, std::move(list));
  }
  o.Add("Responses", std::move(responses));
  o.Add("UnprocessedKeys", KeysAndAttributesToJson(r.unprocessed_keys));
  AddCapacityList(r.consumed_capacity, &o);
  return o;
}

json::Value TransactWriteItemsResponseToJson(const TransactWriteItemsResponse& r) {
  json::Value o = json::Value::MakeObject();
  AddCapacityList(r.consumed_capacity, &o);
  AddCollectionMetricsMap(r.item_collection_metrics, &o);
  return o;
}

json::Value TransactGetItemsResponseToJson(const TransactGetItemsResponse& r) {
  json::Value o = json::Value::MakeObject();
  json::Value list = json::Value::MakeArray();
  for (const std::optional<Item>& item : r.responses) {
    json::Value e = json::Value::MakeObject();
    if (item) e.Add("Item", ItemToJson(*item));
    list.Push(std::move(e));
  }
  o.Add("Responses", std::move(list));
  AddCapacityList(r.consumed_capacity, &o);
  return o;
}

}  // namespace keyhole
