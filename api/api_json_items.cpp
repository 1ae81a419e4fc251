// Request decoders of the item and read operations (PutItem, GetItem, DeleteItem, Query, Scan)
// and the binding of Query's legacy KeyConditions. See api/api_json.h for the order of checks.
#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>
#include <span>

#include "api/api_json.h"
#include "api/api_json_decode.h"
#include "core/ddb_json.h"

namespace keyhole {

namespace {

using api_json::CheckRange;
using api_json::CheckStructure;
using api_json::CheckTableName;
using api_json::EnumValues;
using api_json::MemberSpec;
using api_json::Path;
using api_json::ReadBool;
using api_json::ReadDataTableNameMember;
using api_json::ReadEnum;
using api_json::ReadInteger;
using api_json::ReadList;
using api_json::ReadObject;
using api_json::ReadString;
using api_json::TypeError;
using api_json::Unsupported;
using api_json::Violations;

constexpr std::string_view kInvalid = "One or more parameter values were invalid: ";
constexpr int64_t kMaxInt = std::numeric_limits<int32_t>::max();

constexpr std::string_view kCapacityNames[] = {"INDEXES", "TOTAL", "NONE"};
constexpr ReturnConsumedCapacity kCapacityValues[] = {ReturnConsumedCapacity::kIndexes,
                                                      ReturnConsumedCapacity::kTotal,
                                                      ReturnConsumedCapacity::kNone};
constexpr std::string_view kReturnValueNames[] = {"ALL_NEW", "UPDATED_OLD", "ALL_OLD", "NONE",
                                                  "UPDATED_NEW"};
constexpr ReturnValues kReturnValueValues[] = {ReturnValues::kAllNew, ReturnValues::kUpdatedOld,
                                               ReturnValues::kAllOld, ReturnValues::kNone,
                                               ReturnValues::kUpdatedNew};
constexpr std::string_view kSelectNames[] = {"SPECIFIC_ATTRIBUTES", "COUNT", "ALL_ATTRIBUTES",
                                             "ALL_PROJECTED_ATTRIBUTES"};
constexpr Select kSelectValues[] = {Select::kSpecificAttributes, Select::kCount,
                                    Select::kAllAttributes, Select::kAllProjectedAttributes};
constexpr std::string_view kMetricsNames[] = {"SIZE", "NONE"};
constexpr std::string_view kOnFailureNames[] = {"ALL_OLD", "NONE"};

// ComparisonOperator: the enum in DynamoDB's message order.
constexpr std::string_view kOperatorNames[] = {
    "IN",       "NULL", "BETWEEN", "LT",          "NOT_CONTAINS", "EQ",      "GT",
    "NOT_NULL", "NE",   "LE",      "BEGINS_WITH", "GE",           "CONTAINS"};

// ReturnConsumedCapacity (default NONE).
Result<ReturnConsumedCapacity> ReadCapacity(const json::Value& v, const Path& at,
                                            Violations* errs) {
  KH_ASSIGN_OR_RETURN(std::optional<size_t> i,
                      ReadEnum(v, "ReturnConsumedCapacity", at, kCapacityNames, errs));
  return i ? kCapacityValues[*i] : ReturnConsumedCapacity::kNone;
}

// ReturnValues (default NONE), any of the five; see CheckOldOrNone.
Result<ReturnValues> ReadReturnValues(const json::Value& v, const Path& at, Violations* errs) {
  KH_ASSIGN_OR_RETURN(std::optional<size_t> i,
                      ReadEnum(v, "ReturnValues", at, kReturnValueNames, errs));
  return i ? kReturnValueValues[*i] : ReturnValues::kNone;
}

// PutItem and DeleteItem return only the old item.
Status CheckOldOrNone(ReturnValues rv) {
  if (rv == ReturnValues::kNone || rv == ReturnValues::kAllOld) return Status::OK();
  return Status::Validation("ReturnValues can only be ALL_OLD or NONE");
}

// An enum member keyhole accepts only with its default value NONE (ReturnItemCollectionMetrics,
// ReturnValuesOnConditionCheckFailure): other valid values are Unsupported.
Status ReadNoneOnly(const json::Value& v, std::string_view name, EnumValues values, const Path& at,
                    Violations* errs) {
  KH_ASSIGN_OR_RETURN(std::optional<size_t> i, ReadEnum(v, name, at, values, errs));
  if (i && values[*i] != "NONE") {
    return Unsupported(at.Child(name).param,
                       fmt::format("only NONE is accepted, not {}", values[*i]));
  }
  return Status::OK();
}

// ReturnItemCollectionMetrics: true for SIZE.
Result<bool> ReadMetrics(const json::Value& v, const Path& at, Violations* errs) {
  KH_ASSIGN_OR_RETURN(std::optional<size_t> i,
                      ReadEnum(v, "ReturnItemCollectionMetrics", at, kMetricsNames, errs));
  return i && kMetricsNames[*i] == "SIZE";
}

// A required map member (Item, Key): its JSON object, or nullptr when absent (recorded).
Result<const json::Value*> ReadRequiredMap(const json::Value& v, std::string_view name,
                                           const Path& at, Violations* errs) {
  KH_ASSIGN_OR_RETURN(const json::Value* m, ReadObject(v, name, at));
  if (!m) errs->AddNull(at.Child(name));
  return m;
}

// IndexName (optional).
Result<std::optional<std::string>> ReadIndexName(const json::Value& v, const Path& at,
                                                 Violations* errs) {
  KH_ASSIGN_OR_RETURN(std::optional<std::string> name, ReadString(v, "IndexName", at));
  if (name) CheckTableName(*name, at.Child("IndexName"), errs);
  return name;
}

// Limit (optional, >= 1). Query's Limit below 1 is worded by DynamoDB's newer validation
// framework ("Value at 'Limit' failed to satisfy constraint: Member must have value greater than
// or equal to 1", measured by a conformance suite); Scan's keeps "Value '0' at 'limit'".
Result<std::optional<int>> ReadLimit(const json::Value& v, const Path& at, Violations* errs,
                                     bool query = false) {
  KH_ASSIGN_OR_RETURN(std::optional<int64_t> limit, ReadInteger(v, "Limit", at));
  if (!limit) return std::optional<int>();
  if (query && *limit < 1) {
    errs->AddUnvalued("Limit", "Member must have value greater than or equal to 1");
    return std::optional<int>();
  }
  CheckRange(*limit, 1, kMaxInt, at.Child("Limit"), errs);
  return std::optional<int>(static_cast<int>(*limit));
}

// Select (optional).
Result<Select> ReadSelect(const json::Value& v, const Path& at, Violations* errs) {
  KH_ASSIGN_OR_RETURN(std::optional<size_t> i, ReadEnum(v, "Select", at, kSelectNames, errs));
  return i ? kSelectValues[*i] : Select::kUnset;
}

// ExclusiveStartKey, decoded after the constraints; its value errors carry DynamoDB's prefix.
Result<std::optional<Item>> DecodeStartKey(const json::Value* esk) {
  if (!esk) return std::optional<Item>();
  Result<Item> key = ItemFromJson(*esk);
  if (!key.ok()) {
    return Status::Validation("The provided starting key is invalid: " + key.status().message());
  }
  return std::optional<Item>(std::move(key).value());
}

// ---- KeyConditions ----

// One KeyConditions entry after the constraint phase: its operator (one of
// kOperatorNames) and its AttributeValueList, not yet decoded.
struct RawCondition {
  std::string name;
  std::string_view op;
  const json::Value* values = nullptr;  // the AttributeValueList array, or nullptr
  Path at;
};

// Reads the KeyConditions map's members and their constraints.
Result<std::vector<RawCondition>> ReadKeyConditions(const json::Value& map, const Path& at,
                                                    Violations* errs) {
  static constexpr MemberSpec kMembers[] = {{"AttributeValueList"}, {"ComparisonOperator"}};
  std::vector<RawCondition> out;
  for (const auto& [name, cond] : map.object()) {
    for (const RawCondition& seen : out) {
      // keyhole choice, as for structures: a repeated attribute is not silently dropped.
      if (seen.name == name) {
        return Status::Validation(fmt::format("Duplicate parameter in {}: \"{}\"", at.param, name));
      }
    }
    RawCondition c{name, {}, nullptr, at.Entry(name)};
    KH_RETURN_IF_ERROR(CheckStructure(cond, c.at, kMembers));
    KH_ASSIGN_OR_RETURN(std::optional<size_t> op,
                        ReadEnum(cond, "ComparisonOperator", c.at, kOperatorNames, errs));
    if (op) c.op = kOperatorNames[*op];
    if (!cond.Find("ComparisonOperator") || cond.Find("ComparisonOperator")->IsNull()) {
      errs->AddNull(c.at.Child("ComparisonOperator"));
    }
    KH_ASSIGN_OR_RETURN(c.values, ReadList(cond, "AttributeValueList", c.at));
    out.push_back(std::move(c));
  }
  return out;
}

// How many values each operator takes (min, max) and which types it accepts.
struct OperatorRule {
  std::string_view op;
  size_t min_values, max_values;
  std::vector<ValueType> types;  // empty: no values
};

const OperatorRule& RuleFor(std::string_view op) {
  using enum ValueType;
  static const OperatorRule kRules[] = {
      {"EQ", 1, 1, {kS, kN, kB, kSS, kNS, kBS}},
      {"NE", 1, 1, {kS, kN, kB, kSS, kNS, kBS}},
      {"LE", 1, 1, {kS, kN, kB}},
      {"LT", 1, 1, {kS, kN, kB}},
      {"GE", 1, 1, {kS, kN, kB}},
      {"GT", 1, 1, {kS, kN, kB}},
      {"CONTAINS", 1, 1, {kS, kN, kB}},
      {"NOT_CONTAINS", 1, 1, {kS, kN, kB}},
      {"BEGINS_WITH", 1, 1, {kS, kB}},
      {"IN", 1, std::numeric_limits<size_t>::max(), {kS, kN, kB}},
      {"BETWEEN", 2, 2, {kS, kN, kB}},
      {"NULL", 0, 0, {}},
      {"NOT_NULL", 0, 0, {}},
  };
  for (const OperatorRule& r : kRules) {
    if (r.op == op) return r;
  }
  return kRules[0];  // unreachable: `op` passed the enum check
}

// Decodes one condition's values and applies the operator's rules, in DynamoDB's order.
Result<std::vector<AttributeValue>> DecodeCondition(const RawCondition& c) {
  std::vector<AttributeValue> values;
  if (c.values) {
    Path list = c.at.Child("AttributeValueList");
    for (size_t i = 0; i < c.values->array().size(); ++i) {
      const json::Value& e = c.values->array()[i];
      if (!e.IsObject()) return TypeError(list.Element(i), e, "object");
      Result<AttributeValue> v = ValueFromJson(e);
      if (!v.ok()) return v.status();
      values.push_back(v.value());
    }
  }
  const OperatorRule& rule = RuleFor(c.op);
  if (values.size() < rule.min_values || values.size() > rule.max_values) {
    return Status::Validation(fmt::format(
        "{}Invalid number of argument(s) for the {} ComparisonOperator", kInvalid, c.op));
  }
  for (const AttributeValue& v : values) {
    if (v.type() != values[0].type()) {
      return Status::Validation(fmt::format(
          "{}AttributeValues inside AttributeValueList must be of same type", kInvalid));
    }
  }
  for (const AttributeValue& v : values) {
    if (std::find(rule.types.begin(), rule.types.end(), v.type()) == rule.types.end()) {
      return Status::Validation(
          fmt::format("{}ComparisonOperator {} is not valid for {} "
                      "AttributeValue type",
                      kInvalid, c.op, TypeName(v.type())));
    }
  }
  if (c.op == "BETWEEN" && values[0].CompareKey(values[1]) > 0) {
    return Status::Validation(
        "The BETWEEN condition was provided a range where the lower bound is greater than the "
        "upper bound");
  }
  return values;
}

// The operators a key condition can use, as SortKeyOp; nullopt for the others.
std::optional<SortKeyOp> IndexableOp(std::string_view op) {
  static constexpr std::pair<std::string_view, SortKeyOp> kOps[] = {
      {"EQ", SortKeyOp::kEq},
      {"LT", SortKeyOp::kLt},
      {"LE", SortKeyOp::kLe},
      {"GT", SortKeyOp::kGt},
      {"GE", SortKeyOp::kGe},
      {"BETWEEN", SortKeyOp::kBetween},
      {"BEGINS_WITH", SortKeyOp::kBeginsWith}};
  for (const auto& [name, value] : kOps) {
    if (name == op) return value;
  }
  return std::nullopt;
}

// The KeyConditions rules that need no table, after the constraint phase: values, operator
// rules, the number of conditions, then the operators a key condition can use.
Result<std::vector<KeyConditionTerm>> DecodeKeyConditions(const std::vector<RawCondition>& raw) {
  std::vector<KeyConditionTerm> terms;
  std::vector<std::string_view> ops;
  for (const RawCondition& c : raw) {
    KH_ASSIGN_OR_RETURN(std::vector<AttributeValue> values, DecodeCondition(c));
    terms.push_back(KeyConditionTerm{c.name, SortKeyOp::kEq, std::move(values)});
    ops.push_back(c.op);
  }
  if (terms.empty() || terms.size() > 2) {
    return Status::Validation("Conditions can be of length 1 or 2 only");
  }
  for (size_t i = 0; i < terms.size(); ++i) {
    std::optional<SortKeyOp> op = IndexableOp(ops[i]);
    if (!op)
      return Status::Validation("Attempted conditional constraint is not an indexable operation");
    terms[i].op = *op;
  }
  return terms;
}

const KeyConditionTerm* FindTerm(const std::vector<KeyConditionTerm>& terms,
                                 const std::string& name) {
  for (const KeyConditionTerm& t : terms) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

// ---- expressions ----

// Reads the expression members present in `v` (ConditionExpression, KeyConditionExpression,
// FilterExpression, ProjectionExpression, UpdateExpression, ExpressionAttributeNames/Values)
// into *out. The decoder's CheckStructure decides which members an operation accepts; the
// parser (parser/expression_parser.h) checks their content.
Status ReadExpressions(const json::Value& v, const Path& at, expr::ExpressionInput* out) {
  struct Member {
    std::string_view name;
    std::optional<std::string> expr::ExpressionInput::*field;
  };
  static constexpr Member kStrings[] = {
      {"ConditionExpression", &expr::ExpressionInput::condition},
      {"KeyConditionExpression", &expr::ExpressionInput::key_condition},
      {"FilterExpression", &expr::ExpressionInput::filter},
      {"ProjectionExpression", &expr::ExpressionInput::projection},
      {"UpdateExpression", &expr::ExpressionInput::update},
  };
  for (const auto& m : kStrings) {
    KH_ASSIGN_OR_RETURN(out->*m.field, ReadString(v, m.name, at));
  }
  KH_ASSIGN_OR_RETURN(const json::Value* names, ReadObject(v, "ExpressionAttributeNames", at));
  if (names) {
    std::map<std::string, std::string> n;
    for (const auto& [key, value] : names->object()) {
      if (!value.IsString()) {
        return Status::Validation(fmt::format(
            "Invalid type for parameter ExpressionAttributeNames.{}, type: {}, valid types: string",
            key, value.IsNull() ? "null" : "non-string"));
      }
      n[key] = value.str();
    }
    out->names = std::move(n);
  }
  KH_ASSIGN_OR_RETURN(const json::Value* values, ReadObject(v, "ExpressionAttributeValues", at));
  if (values) {
    std::map<std::string, AttributeValue> m;
    for (const auto& [key, value] : values->object()) {
      Result<AttributeValue> av = ValueFromJson(value);
      if (!av.ok()) {
        return Status::Validation(
            fmt::format("ExpressionAttributeValues contains invalid value: {} for key {}",
                        av.status().message(), key));
      }
      m[key] = std::move(av).value();
    }
    out->values = std::move(m);
  }
  return Status::OK();
}

// ReturnValuesOnConditionCheckFailure (default NONE).
Result<ReturnValues> ReadOnFailure(const json::Value& v, const Path& at, Violations* errs) {
  KH_ASSIGN_OR_RETURN(std::optional<size_t> i, ReadEnum(v, "ReturnValuesOnConditionCheckFailure",
                                                        at, kOnFailureNames, errs));
  return i && kOnFailureNames[*i] == "ALL_OLD" ? ReturnValues::kAllOld : ReturnValues::kNone;
}

// The members PutItem, DeleteItem and UpdateItem read alike: TableName, the item or key map
// (`map_member`), ReturnValues, ReturnConsumedCapacity, ReturnItemCollectionMetrics,
// ReturnValuesOnConditionCheckFailure and the expressions. Decodes the map into *map.
template <typename Req>
Status ReadWriteRequest(const json::Value& v, std::span<const MemberSpec> members,
                        std::string_view map_member, Req* r, Item* map, const Path& root = Path()) {
  KH_RETURN_IF_ERROR(CheckStructure(v, root, members));
  Violations errs;
  KH_ASSIGN_OR_RETURN(r->table_name, ReadDataTableNameMember(v, "TableName", root, true, &errs));
  KH_ASSIGN_OR_RETURN(const json::Value* m, ReadRequiredMap(v, map_member, root, &errs));
  KH_ASSIGN_OR_RETURN(r->return_values, ReadReturnValues(v, root, &errs));
  KH_ASSIGN_OR_RETURN(r->return_consumed_capacity, ReadCapacity(v, root, &errs));
  KH_ASSIGN_OR_RETURN(r->return_item_collection_metrics, ReadMetrics(v, root, &errs));
  KH_ASSIGN_OR_RETURN(r->return_values_on_condition_check_failure, ReadOnFailure(v, root, &errs));
  KH_RETURN_IF_ERROR(errs.ToStatus());
  KH_RETURN_IF_ERROR(ReadExpressions(v, root, &r->expressions));
  KH_ASSIGN_OR_RETURN(*map, ItemFromJson(*m));
  return Status::OK();
}

}  // namespace

namespace api_json {

Result<ReturnConsumedCapacity> ReadReturnConsumedCapacity(const json::Value& v, const Path& at,
                                                          Violations* errs) {
  return ReadCapacity(v, at, errs);
}
Result<bool> ReadCollectionMetrics(const json::Value& v, const Path& at, Violations* errs) {
  return ReadMetrics(v, at, errs);
}
Result<const json::Value*> ReadRequiredObject(const json::Value& v, std::string_view name,
                                              const Path& at, Violations* errs) {
  return ReadRequiredMap(v, name, at, errs);
}
Status ReadExpressionMembers(const json::Value& v, const Path& at, expr::ExpressionInput* out) {
  return ReadExpressions(v, at, out);
}
Status ReadTransactPut(const json::Value& v, const Path& at, PutItemRequest* r) {
  static constexpr MemberSpec kMembers[] = {
      {"Item"},
      {"TableName"},
      {"ConditionExpression"},
      {"ExpressionAttributeNames"},
      {"ExpressionAttributeValues"},
      {"ReturnValuesOnConditionCheckFailure"},
  };
  return ReadWriteRequest(v, kMembers, "Item", r, &r->item, at);
}
Status ReadTransactDelete(const json::Value& v, const Path& at, DeleteItemRequest* r) {
  static constexpr MemberSpec kMembers[] = {
      {"Key"},
      {"TableName"},
      {"ConditionExpression"},
      {"ExpressionAttributeNames"},
      {"ExpressionAttributeValues"},
      {"ReturnValuesOnConditionCheckFailure"},
  };
  return ReadWriteRequest(v, kMembers, "Key", r, &r->key, at);
}
Status ReadTransactUpdate(const json::Value& v, const Path& at, UpdateItemRequest* r) {
  static constexpr MemberSpec kMembers[] = {
      {"Key"},
      {"UpdateExpression"},
      {"TableName"},
      {"ConditionExpression"},
      {"ExpressionAttributeNames"},
      {"ExpressionAttributeValues"},
      {"ReturnValuesOnConditionCheckFailure"},
  };
  return ReadWriteRequest(v, kMembers, "Key", r, &r->key, at);
}

}  // namespace api_json

Result<PutItemRequest> PutItemRequestFromJson(const json::Value& v) {
  static constexpr MemberSpec kMembers[] = {
      {"TableName"},
      {"Item"},
      {"Expected", false},
      {"ReturnValues"},
      {"ReturnConsumedCapacity"},
      {"ReturnItemCollectionMetrics"},
      {"ConditionalOperator", false},
      {"ConditionExpression"},
      {"ExpressionAttributeNames"},
      {"ExpressionAttributeValues"},
      {"ReturnValuesOnConditionCheckFailure"},
  };
  PutItemRequest r;
  KH_RETURN_IF_ERROR(ReadWriteRequest(v, kMembers, "Item", &r, &r.item));
  KH_RETURN_IF_ERROR(CheckOldOrNone(r.return_values));
  return r;
}

Result<GetItemRequest> GetItemRequestFromJson(const json::Value& v) {
  static constexpr MemberSpec kMembers[] = {
      {"TableName"},
      {"Key"},
      {"AttributesToGet", false},
      {"ConsistentRead"},
      {"ReturnConsumedCapacity"},
      {"ProjectionExpression"},
      {"ExpressionAttributeNames"},
  };
  const Path root;
  KH_RETURN_IF_ERROR(CheckStructure(v, root, kMembers));
  Violations errs;
  GetItemRequest r;
  KH_ASSIGN_OR_RETURN(r.table_name, ReadDataTableNameMember(v, "TableName", root, true, &errs));
  KH_ASSIGN_OR_RETURN(const json::Value* key, ReadRequiredMap(v, "Key", root, &errs));
  KH_ASSIGN_OR_RETURN(std::optional<bool> consistent, ReadBool(v, "ConsistentRead", root));
  r.consistent_read = consistent.value_or(false);
  KH_ASSIGN_OR_RETURN(r.return_consumed_capacity, ReadCapacity(v, root, &errs));
  KH_RETURN_IF_ERROR(errs.ToStatus());
  KH_RETURN_IF_ERROR(ReadExpressions(v, root, &r.expressions));
  KH_ASSIGN_OR_RETURN(r.key, ItemFromJson(*key));
  return r;
}

Result<DeleteItemRequest> DeleteItemRequestFromJson(const json::Value& v) {
  static constexpr MemberSpec kMembers[] = {
      {"TableName"},
      {"Key"},
      {"Expected", false},
      {"ConditionalOperator", false},
      {"ReturnValues"},
      {"ReturnConsumedCapacity"},
      {"ReturnItemCollectionMetrics"},
      {"ConditionExpression"},
      {"ExpressionAttributeNames"},
      {"ExpressionAttributeValues"},
      {"ReturnValuesOnConditionCheckFailure"},
  };
  DeleteItemRequest r;
  KH_RETURN_IF_ERROR(ReadWriteRequest(v, kMembers, "Key", &r, &r.key));
  KH_RETURN_IF_ERROR(CheckOldOrNone(r.return_values));
  return r;
}

Result<UpdateItemRequest> UpdateItemRequestFromJson(const json::Value& v) {
  static constexpr MemberSpec kMembers[] = {
      {"TableName"},
      {"Key"},
      {"AttributeUpdates", false},
      {"Expected", false},
      {"ConditionalOperator", false},
      {"ReturnValues"},
      {"ReturnConsumedCapacity"},
      {"ReturnItemCollectionMetrics"},
      {"UpdateExpression"},
      {"ConditionExpression"},
      {"ExpressionAttributeNames"},
      {"ExpressionAttributeValues"},
      {"ReturnValuesOnConditionCheckFailure"},
  };
  UpdateItemRequest r;
  KH_RETURN_IF_ERROR(ReadWriteRequest(v, kMembers, "Key", &r, &r.key));
  return r;
}

Result<QueryRequest> QueryRequestFromJson(const json::Value& v) {
  static constexpr MemberSpec kMembers[] = {
      {"TableName"},
      {"IndexName"},
      {"Select"},
      {"AttributesToGet", false},
      {"Limit"},
      {"ConsistentRead"},
      {"KeyConditions"},
      {"QueryFilter", false},
      {"ConditionalOperator", false},
      {"ScanIndexForward"},
      {"ExclusiveStartKey"},
      {"ReturnConsumedCapacity"},
      {"ProjectionExpression"},
      {"FilterExpression"},
      {"KeyConditionExpression"},
      {"ExpressionAttributeNames"},
      {"ExpressionAttributeValues"},
  };
  const Path root;
  KH_RETURN_IF_ERROR(CheckStructure(v, root, kMembers));
  Violations errs;
  QueryRequest r;
  KH_ASSIGN_OR_RETURN(r.table_name, ReadDataTableNameMember(v, "TableName", root, true, &errs));
  KH_ASSIGN_OR_RETURN(r.index_name, ReadIndexName(v, root, &errs));
  KH_ASSIGN_OR_RETURN(r.select, ReadSelect(v, root, &errs));
  KH_ASSIGN_OR_RETURN(r.limit, ReadLimit(v, root, &errs, /*query=*/true));
  KH_ASSIGN_OR_RETURN(std::optional<bool> consistent, ReadBool(v, "ConsistentRead", root));
  r.consistent_read = consistent.value_or(false);
  KH_ASSIGN_OR_RETURN(const json::Value* conditions, ReadObject(v, "KeyConditions", root));
  std::vector<RawCondition> raw;
  if (conditions) {
    KH_ASSIGN_OR_RETURN(raw, ReadKeyConditions(*conditions, root.Child("KeyConditions"), &errs));
  }
  KH_ASSIGN_OR_RETURN(std::optional<bool> forward, ReadBool(v, "ScanIndexForward", root));
  r.scan_index_forward = forward.value_or(true);
  KH_ASSIGN_OR_RETURN(const json::Value* esk, ReadObject(v, "ExclusiveStartKey", root));
  KH_ASSIGN_OR_RETURN(r.return_consumed_capacity, ReadCapacity(v, root, &errs));
  KH_RETURN_IF_ERROR(errs.ToStatus());
  KH_RETURN_IF_ERROR(ReadExpressions(v, root, &r.expressions));
  if (!conditions && !r.expressions.key_condition) {
    return Status::Validation(
        "Either the KeyConditions or KeyConditionExpression parameter must be specified in the "
        "request.");
  }
  if (conditions && r.expressions.key_condition) {
    return Status::Validation(
        "Can not use both expression and non-expression parameters in the same request: "
        "Non-expression parameters: {KeyConditions} Expression parameters: "
        "{KeyConditionExpression}");
  }
  if (conditions) {
    KH_ASSIGN_OR_RETURN(r.key_conditions, DecodeKeyConditions(raw));
  }
  KH_ASSIGN_OR_RETURN(r.exclusive_start_key, DecodeStartKey(esk));
  return r;
}

Result<ScanRequest> ScanRequestFromJson(const json::Value& v) {
  static constexpr MemberSpec kMembers[] = {
      {"TableName"},
      {"IndexName"},
      {"AttributesToGet", false},
      {"Limit"},
      {"Select"},
      {"ScanFilter", false},
      {"ConditionalOperator", false},
      {"ExclusiveStartKey"},
      {"ReturnConsumedCapacity"},
      {"TotalSegments"},
      {"Segment"},
      {"ProjectionExpression"},
      {"FilterExpression"},
      {"ExpressionAttributeNames"},
      {"ExpressionAttributeValues"},
      {"ConsistentRead"},
  };
  const Path root;
  KH_RETURN_IF_ERROR(CheckStructure(v, root, kMembers));
  Violations errs;
  ScanRequest r;
  KH_ASSIGN_OR_RETURN(r.table_name, ReadDataTableNameMember(v, "TableName", root, true, &errs));
  KH_ASSIGN_OR_RETURN(r.index_name, ReadIndexName(v, root, &errs));
  KH_ASSIGN_OR_RETURN(r.limit, ReadLimit(v, root, &errs));
  KH_ASSIGN_OR_RETURN(r.select, ReadSelect(v, root, &errs));
  KH_ASSIGN_OR_RETURN(const json::Value* esk, ReadObject(v, "ExclusiveStartKey", root));
  KH_ASSIGN_OR_RETURN(r.return_consumed_capacity, ReadCapacity(v, root, &errs));
  KH_ASSIGN_OR_RETURN(std::optional<int64_t> total, ReadInteger(v, "TotalSegments", root));
  if (total) {
    CheckRange(*total, 1, 1000000, root.Child("TotalSegments"), &errs);
    r.total_segments = static_cast<int>(*total);
  }
  KH_ASSIGN_OR_RETURN(std::optional<int64_t> segment, ReadInteger(v, "Segment", root));
  if (segment) {
    CheckRange(*segment, 0, 999999, root.Child("Segment"), &errs);
    r.segment = static_cast<int>(*segment);
  }
  KH_ASSIGN_OR_RETURN(std::optional<bool> consistent, ReadBool(v, "ConsistentRead", root));
  r.consistent_read = consistent.value_or(false);
  KH_RETURN_IF_ERROR(errs.ToStatus());
  KH_RETURN_IF_ERROR(ReadExpressions(v, root, &r.expressions));
  // Segment/TotalSegments pairing and Segment < TotalSegments: storage's Scan checks them
  // before it looks at the table, with DynamoDB's messages.
  KH_ASSIGN_OR_RETURN(r.exclusive_start_key, DecodeStartKey(esk));
  return r;
}

Status BindKeyConditions(const KeySchema& key, QueryRequest* r) {
  std::vector<KeyConditionTerm>& terms = r->key_conditions;
  if (terms.empty()) return Status::OK();
  if (!key.sort && terms.size() > 1) return Status::Validation("Query key condition not supported");
  const KeyConditionTerm* pk = FindTerm(terms, key.partition.name);
  if (!pk) {
    return Status::Validation(
        fmt::format("Query condition missed key schema element: {}", key.partition.name));
  }
  if (pk->op != SortKeyOp::kEq) return Status::Validation("Query key condition not supported");
  KeyCondition kc;
  kc.partition_name = pk->name;
  kc.partition_value = pk->values[0];
  if (terms.size() == 2) {
    const KeyConditionTerm* sk = FindTerm(terms, key.sort->name);
    if (!sk) {
      return Status::Validation(
          fmt::format("Query condition missed key schema element: {}", key.sort->name));
    }
    kc.sort_name = sk->name;
    kc.op = sk->op;
    kc.sort_value = sk->values[0];
    if (sk->values.size() > 1) kc.sort_value2 = sk->values[1];
  }
  r->key_condition = std::move(kc);
  terms.clear();
  return Status::OK();
}

Status BindKeyConditions(const TableDescription& table, QueryRequest* r) {
  if (!r->index_name) return BindKeyConditions(table.key, r);
  const IndexDescription* index = table.FindIndex(*r->index_name);
  if (!index) {
    return Status::Validation(
        fmt::format("The table does not have the specified index: {}", *r->index_name));
  }
  return BindKeyConditions(index->key, r);
}

}  // namespace keyhole
