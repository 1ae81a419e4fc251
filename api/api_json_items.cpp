// Request decoders of the item and read operations (PutItem, GetItem, DeleteItem, UpdateItem,
// Query, Scan). See api/api_json.h for the order of checks; their legacy parameters are read and
// translated by api_json_legacy.cpp.
#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>
#include <span>

#include "api/api_json.h"
#include "api/api_json_decode.h"
#include "core/ddb_json.h"
#include "core/regional.h"

namespace keyhole {

namespace {

using api_json::CheckConditionalOperatorValue;
using api_json::CheckLegacyMix;
using api_json::CheckRange;
using api_json::CheckStructure;
using api_json::CheckTableName;
using api_json::EnumValues;
using api_json::LegacyMembers;
using api_json::LegacyOp;
using api_json::MemberSpec;
using api_json::Path;
using api_json::ReadBool;
using api_json::ReadDataTableNameMember;
using api_json::ReadEnum;
using api_json::ReadInteger;
using api_json::ReadLegacyMembers;
using api_json::ReadObject;
using api_json::ReadString;
using api_json::TranslateLegacy;
using api_json::TypeError;
using api_json::Violations;

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
// or equal to 1", measured by a conformance suite); Scan's keeps "Value '0' at 'limit'" but in
// the regions of its newer wording (core/regional.h).
Result<std::optional<int>> ReadLimit(const json::Value& v, const Path& at, Violations* errs,
                                     bool query = false) {
  KH_ASSIGN_OR_RETURN(std::optional<int64_t> limit, ReadInteger(v, "Limit", at));
  if (!limit) return std::optional<int>();
  if ((query || Regional().scan_newer_wording) && *limit < 1) {
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

// ExclusiveStartKey, decoded after the constraints. In the current layer (Query) its value
// errors are bare (valueLayers.test.ts); in the older (Scan) they carry "The provided starting
// key is invalid: ".
Result<std::optional<Item>> DecodeStartKey(const json::Value* esk, ValueLayer layer) {
  if (!esk) return std::optional<Item>();
  Result<Item> key = ItemFromJson(*esk, layer);
  if (!key.ok()) {
    if (layer == ValueLayer::kCurrent || !key.status().IsValidation()) return key.status();
    return Status::Validation("The provided starting key is invalid: " + key.status().message());
  }
  return std::optional<Item>(std::move(key).value());
}

// ---- expressions ----

// Reads the expression members present in `v` (ConditionExpression, KeyConditionExpression,
// FilterExpression, ProjectionExpression, UpdateExpression, ExpressionAttributeNames/Values)
// into *out. The decoder's CheckStructure decides which members an operation accepts; the
// parser (parser/expression_parser.h) checks their content.
Status ReadExpressions(const json::Value& v, const Path& at, expr::ExpressionInput* out,
                       const api_json::Wording& wording) {
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
      {"SearchConditionExpression", &expr::ExpressionInput::search_condition},
  };
  for (const auto& m : kStrings) {
    KH_ASSIGN_OR_RETURN(out->*m.field, ReadString(v, m.name, at));
  }
  KH_ASSIGN_OR_RETURN(const json::Value* names, ReadObject(v, "ExpressionAttributeNames", at));
  if (names) {
    std::map<std::string, std::string> n;
    for (const auto& [key, value] : names->object()) {
      // A value of another JSON type is DynamoDB's SerializationException ("NUMBER_VALUE cannot
      // be converted to String", as the Parity Suite records it in transactions); null is
      // keyhole's ValidationException.
      if (!value.IsString() && !value.IsNull()) {
        return TypeError(at.Child("ExpressionAttributeNames").Entry(key), value, "string");
      }
      if (!value.IsString()) {
        return Status::Validation(fmt::format(
            "Invalid type for parameter ExpressionAttributeNames.{}, type: null, valid types: "
            "string",
            key));
      }
      n[key] = value.str();
    }
    out->names = std::move(n);
  }
  KH_ASSIGN_OR_RETURN(const json::Value* values, ReadObject(v, "ExpressionAttributeValues", at));
  if (values) {
    std::map<std::string, AttributeValue> m;
    for (const auto& [key, value] : values->object()) {
      Result<AttributeValue> av = ValueFromJson(value, wording.values);
      if (!av.ok()) {
        if (!wording.key_wrapper || !av.status().IsValidation()) return av.status();
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

// A member of the wrong JSON type is a SerializationException reported before any constraint
// error, a missing required member's included (`{"KeyConditionExpression": true}` is
// "TRUE_VALUE cannot be converted to String"); so is an AttributeValue of the wrong JSON shape
// in the item, the key or ExpressionAttributeValues (invalid base64, a number where a string
// goes): the Parity Suite's validation-ordering records, October 2026. Looked for only when
// there are constraint errors to report.
Status SerializationProblem(const json::Value& v) {
  if (!v.IsObject()) return Status::OK();
  for (const auto& [name, value] : v.object()) {
    if (value.IsNull()) continue;
    if (name.ends_with("Expression") || name == "TableName" || name == "IndexName") {
      if (!value.IsString()) {
        Result<std::optional<std::string>> s = ReadString(v, name, Path());
        if (!s.ok()) return s.status();
      }
    } else if ((name == "ExpressionAttributeValues" || name == "Item" || name == "Key" ||
                name == "ExclusiveStartKey") &&
               value.IsObject()) {
      for (const auto& [key, av] : value.object()) {
        Result<AttributeValue> decoded = ValueFromJson(av);
        if (!decoded.ok() && decoded.status().code() == ErrorCode::kSerialization) {
          return decoded.status();
        }
      }
    }
  }
  return Status::OK();
}

Status TypesThenConstraints(const json::Value& v, const Violations& errs) {
  if (errs.empty()) return Status::OK();
  KH_RETURN_IF_ERROR(SerializationProblem(v));
  return errs.ToStatus();
}

// How a single-item write's request is read. DynamoDB reads it in its current validation layer
// unless the request nests JSON 128 levels deep or more (an AttributeValue past about 62
// levels) or leaves out its Item or Key; then in its older form (the Parity Suite's
// deepRequests and validation-ordering/updateItem captures, eu-west-2 and us-east-1, October
// 2026): constraint errors all at once in the older member order (ReturnConsumedCapacity,
// TableName, ConditionalOperator in the older enum words [OR, AND], ReturnValues, the item or
// key), ReturnValues' own rule ahead of the values, and the values in the older layer, neither
// enveloped.
enum class Reading { kCurrent, kOlder, kTransaction };

constexpr int kCurrentLayerJsonDepth = 127;

// The members PutItem, DeleteItem and UpdateItem read alike: TableName, the item or key map
// (`map_member`), ReturnValues, ReturnConsumedCapacity, ReturnItemCollectionMetrics,
// ReturnValuesOnConditionCheckFailure and the expressions. Decodes the map into *map. With
// `legacy` (the single-item operations, not a transaction's actions), also reads the legacy
// members of `op` into it and relates them to the expressions (CheckLegacyMix); translating
// them is left to the caller. `old_or_none`: ReturnValues may only be ALL_OLD or NONE. Sets
// *reading to how the request was read.
template <typename Req>
Status ReadWriteRequest(const json::Value& v, std::span<const MemberSpec> members,
                        std::string_view map_member, Req* r, Item* map, const Path& root = Path(),
                        LegacyOp op = LegacyOp::kPutItem, LegacyMembers* legacy = nullptr,
                        bool old_or_none = false, Reading* reading = nullptr,
                        bool transaction_older = false) {
  KH_RETURN_IF_ERROR(CheckStructure(v, root, members));
  Reading how = Reading::kTransaction;
  if (legacy) {
    const json::Value* m = v.Find(map_member);
    how = !m || m->IsNull() || api_json::NestedDeeperThan(v, kCurrentLayerJsonDepth)
              ? Reading::kOlder
              : Reading::kCurrent;
  }
  if (reading) *reading = how;
  const api_json::Wording wording = how == Reading::kCurrent ? api_json::kCurrentWording
                                    : how == Reading::kOlder || transaction_older
                                        ? api_json::kOlderWording
                                        : api_json::TransactionWording();
  auto envelope = [&](Status s) {
    return how == Reading::kCurrent ? api_json::Enveloped(std::move(s)) : s;
  };
  if (how == Reading::kCurrent) KH_RETURN_IF_ERROR(CheckConditionalOperatorValue(v, root));
  Violations errs;
  const json::Value* m = nullptr;
  if (how == Reading::kOlder) {
    KH_ASSIGN_OR_RETURN(r->return_consumed_capacity, ReadCapacity(v, root, &errs));
    KH_ASSIGN_OR_RETURN(r->table_name, ReadDataTableNameMember(v, "TableName", root, true, &errs));
    KH_ASSIGN_OR_RETURN(std::optional<std::string> co, ReadString(v, "ConditionalOperator", root));
    if (co && *co != "AND" && *co != "OR") {
      errs.Add(root.Child("ConditionalOperator"), *co,
               "Member must satisfy enum value set: [OR, AND]");
    }
    KH_ASSIGN_OR_RETURN(r->return_values, ReadReturnValues(v, root, &errs));
    KH_ASSIGN_OR_RETURN(m, ReadRequiredMap(v, map_member, root, &errs));
  } else {
    // PutItem's current layer stops at an empty TableName, naming the member as the request
    // spells it; the old cohort reports it with the request's other errors (core/regional.h;
    // registry/splits.json put-item-validation-error-aggregation, 31 of 33 regions, 2026-10-07).
    if (op == LegacyOp::kPutItem && how == Reading::kCurrent && !Regional().old_cohort) {
      const json::Value* name = v.Find("TableName");
      if (name && name->IsString() && name->str().empty()) {
        return Status::Validation(
            "1 validation error detected: Value at 'TableName' failed to satisfy constraint: "
            "Member must have length greater than or equal to 1");
      }
    }
    KH_ASSIGN_OR_RETURN(r->table_name, ReadDataTableNameMember(v, "TableName", root, true, &errs));
    // A transaction's action names its member in a malformed table name's message
    // ('transactItems.1.member.put.tableName'; transactWriteItems.test.ts, us-east-1 and
    // eu-west-2, October 2026).
    if (how == Reading::kTransaction && errs.empty() && !r->table_name.empty() &&
        !TableNameFromArn(r->table_name) && !ValidateTableName(r->table_name).ok()) {
      api_json::CheckTableName(r->table_name, root.Child("TableName"), &errs);
    }
    KH_ASSIGN_OR_RETURN(m, ReadRequiredMap(v, map_member, root, &errs));
    // UpdateItem stops at its first invalid enum, ReturnValues, in the newer generic words
    // (sic: UPDATE_NEW); the old cohort reports every constraint error (core/regional.h;
    // registry/splits.json update-item-validation-error-aggregation, 31 of 33 regions).
    if (op == LegacyOp::kUpdateItem && how == Reading::kCurrent && errs.empty() &&
        !Regional().old_cohort) {
      KH_ASSIGN_OR_RETURN(std::optional<std::string> rv, ReadString(v, "ReturnValues", root));
      if (rv && std::find(std::begin(kReturnValueNames), std::end(kReturnValueNames), *rv) ==
                    std::end(kReturnValueNames)) {
        return Status::Validation(
            "1 validation error detected: Failed to satisfy constraint: Member must satisfy enum "
            "value set: [ALL_OLD, UPDATED_OLD, ALL_NEW, UPDATE_NEW, NONE]");
      }
    }
    KH_ASSIGN_OR_RETURN(r->return_values, ReadReturnValues(v, root, &errs));
    KH_ASSIGN_OR_RETURN(r->return_consumed_capacity, ReadCapacity(v, root, &errs));
  }
  KH_ASSIGN_OR_RETURN(r->return_item_collection_metrics, ReadMetrics(v, root, &errs));
  KH_ASSIGN_OR_RETURN(r->return_values_on_condition_check_failure, ReadOnFailure(v, root, &errs));
  if (legacy) {
    KH_ASSIGN_OR_RETURN(*legacy, ReadLegacyMembers(v, op, root, &errs));
  }
  KH_RETURN_IF_ERROR(TypesThenConstraints(v, errs));
  if (old_or_none) KH_RETURN_IF_ERROR(envelope(CheckOldOrNone(r->return_values)));
  KH_RETURN_IF_ERROR(envelope(ReadExpressions(v, root, &r->expressions, wording)));
  if (legacy) {
    Status mix = CheckLegacyMix(*legacy, r->expressions);
    // "Can not use both expression and non-expression parameters" stays bare.
    if (!mix.ok() && !mix.message().starts_with("Can not use both")) mix = envelope(mix);
    KH_RETURN_IF_ERROR(mix);
  }
  Result<Item> decoded = ItemFromJson(*m, wording.values);
  if (!decoded.ok()) return envelope(decoded.status());
  *map = std::move(decoded).value();
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
Status ReadExpressionMembers(const json::Value& v, const Path& at, expr::ExpressionInput* out,
                             const Wording& wording) {
  return ReadExpressions(v, at, out, wording);
}

Wording TransactionWording() {
  // The regions that check transactions up front read their values in the current layer, and
  // give its messages bare (valueLayers.test.ts: eu-west-2; us-east-1, eu-west-1 and us-west-2
  // in the older layer).
  return Regional().transactions_checked_up_front ? kCurrentWording : kOlderWording;
}

Status Enveloped(Status s) {
  constexpr std::string_view kEnvelope = "1 validation error detected: ";
  if (s.ok() || !s.IsValidation() || s.message().starts_with(kEnvelope)) return s;
  Status out = Status::Validation(std::string(kEnvelope) + s.message());
  if (!s.hint().empty()) out.WithHint(s.hint());
  return out;
}

bool NestedDeeperThan(const json::Value& v, int levels) {
  if (levels <= 0) return true;
  if (v.IsArray()) {
    for (const json::Value& e : v.array()) {
      if (NestedDeeperThan(e, levels - 1)) return true;
    }
  } else if (v.IsObject()) {
    for (const auto& [k, e] : v.object()) {
      if (NestedDeeperThan(e, levels - 1)) return true;
    }
  }
  return false;
}
Status ReadTransactPut(const json::Value& v, const Path& at, PutItemRequest* r, bool older) {
  static constexpr MemberSpec kMembers[] = {
      {"Item"},
      {"TableName"},
      {"ConditionExpression"},
      {"ExpressionAttributeNames"},
      {"ExpressionAttributeValues"},
      {"ReturnValuesOnConditionCheckFailure"},
  };
  return ReadWriteRequest(v, kMembers, "Item", r, &r->item, at, LegacyOp::kPutItem, nullptr, false,
                          nullptr, older);
}
Status ReadTransactDelete(const json::Value& v, const Path& at, DeleteItemRequest* r, bool older) {
  static constexpr MemberSpec kMembers[] = {
      {"Key"},
      {"TableName"},
      {"ConditionExpression"},
      {"ExpressionAttributeNames"},
      {"ExpressionAttributeValues"},
      {"ReturnValuesOnConditionCheckFailure"},
  };
  return ReadWriteRequest(v, kMembers, "Key", r, &r->key, at, LegacyOp::kPutItem, nullptr, false,
                          nullptr, older);
}
Status ReadTransactUpdate(const json::Value& v, const Path& at, UpdateItemRequest* r, bool older) {
  static constexpr MemberSpec kMembers[] = {
      {"Key"},
      {"UpdateExpression"},
      {"TableName"},
      {"ConditionExpression"},
      {"ExpressionAttributeNames"},
      {"ExpressionAttributeValues"},
      {"ReturnValuesOnConditionCheckFailure"},
  };
  return ReadWriteRequest(v, kMembers, "Key", r, &r->key, at, LegacyOp::kPutItem, nullptr, false,
                          nullptr, older);
}

}  // namespace api_json

Result<PutItemRequest> PutItemRequestFromJson(const json::Value& v) {
  static constexpr MemberSpec kMembers[] = {
      {"TableName"},
      {"Item"},
      {"Expected"},
      {"ReturnValues"},
      {"ReturnConsumedCapacity"},
      {"ReturnItemCollectionMetrics"},
      {"ConditionalOperator"},
      {"ConditionExpression"},
      {"ExpressionAttributeNames"},
      {"ExpressionAttributeValues"},
      {"ReturnValuesOnConditionCheckFailure"},
  };
  PutItemRequest r;
  LegacyMembers legacy;
  Reading reading;
  KH_RETURN_IF_ERROR(ReadWriteRequest(v, kMembers, "Item", &r, &r.item, Path(), LegacyOp::kPutItem,
                                      &legacy, true, &reading));
  Status legacy_status = TranslateLegacy(legacy, &r.expressions);
  if (reading == Reading::kCurrent) legacy_status = api_json::Enveloped(std::move(legacy_status));
  KH_RETURN_IF_ERROR(legacy_status);
  return r;
}

Result<GetItemRequest> GetItemRequestFromJson(const json::Value& v) {
  static constexpr MemberSpec kMembers[] = {
      {"TableName"},
      {"Key"},
      {"AttributesToGet"},
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
  KH_ASSIGN_OR_RETURN(LegacyMembers legacy, ReadLegacyMembers(v, LegacyOp::kGetItem, root, &errs));
  KH_RETURN_IF_ERROR(TypesThenConstraints(v, errs));
  KH_RETURN_IF_ERROR(ReadExpressions(v, root, &r.expressions, api_json::kCurrentWording));
  KH_RETURN_IF_ERROR(CheckLegacyMix(legacy, r.expressions));
  KH_ASSIGN_OR_RETURN(r.key, ItemFromJson(*key));
  KH_RETURN_IF_ERROR(TranslateLegacy(legacy, &r.expressions));
  return r;
}

Result<DeleteItemRequest> DeleteItemRequestFromJson(const json::Value& v) {
  static constexpr MemberSpec kMembers[] = {
      {"TableName"},
      {"Key"},
      {"Expected"},
      {"ConditionalOperator"},
      {"ReturnValues"},
      {"ReturnConsumedCapacity"},
      {"ReturnItemCollectionMetrics"},
      {"ConditionExpression"},
      {"ExpressionAttributeNames"},
      {"ExpressionAttributeValues"},
      {"ReturnValuesOnConditionCheckFailure"},
  };
  DeleteItemRequest r;
  LegacyMembers legacy;
  Reading reading;
  KH_RETURN_IF_ERROR(ReadWriteRequest(v, kMembers, "Key", &r, &r.key, Path(), LegacyOp::kDeleteItem,
                                      &legacy, true, &reading));
  Status legacy_status = TranslateLegacy(legacy, &r.expressions);
  if (reading == Reading::kCurrent) legacy_status = api_json::Enveloped(std::move(legacy_status));
  KH_RETURN_IF_ERROR(legacy_status);
  return r;
}

Result<UpdateItemRequest> UpdateItemRequestFromJson(const json::Value& v) {
  static constexpr MemberSpec kMembers[] = {
      {"TableName"},
      {"Key"},
      {"AttributeUpdates"},
      {"Expected"},
      {"ConditionalOperator"},
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
  LegacyMembers legacy;
  Reading reading;
  KH_RETURN_IF_ERROR(ReadWriteRequest(v, kMembers, "Key", &r, &r.key, Path(), LegacyOp::kUpdateItem,
                                      &legacy, false, &reading));
  Status legacy_status = TranslateLegacy(legacy, &r.expressions);
  if (reading == Reading::kCurrent) legacy_status = api_json::Enveloped(std::move(legacy_status));
  KH_RETURN_IF_ERROR(legacy_status);
  return r;
}

Result<QueryRequest> QueryRequestFromJson(const json::Value& v) {
  static constexpr MemberSpec kMembers[] = {
      {"TableName"},
      {"IndexName"},
      {"Select"},
      {"AttributesToGet"},
      {"Limit"},
      {"ConsistentRead"},
      {"KeyConditions"},
      {"QueryFilter"},
      {"ConditionalOperator"},
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
  KH_RETURN_IF_ERROR(CheckConditionalOperatorValue(v, root));
  Violations errs;
  QueryRequest r;
  KH_ASSIGN_OR_RETURN(r.table_name, ReadDataTableNameMember(v, "TableName", root, true, &errs));
  KH_ASSIGN_OR_RETURN(r.index_name, ReadIndexName(v, root, &errs));
  KH_ASSIGN_OR_RETURN(r.select, ReadSelect(v, root, &errs));
  KH_ASSIGN_OR_RETURN(r.limit, ReadLimit(v, root, &errs, /*query=*/true));
  KH_ASSIGN_OR_RETURN(std::optional<bool> consistent, ReadBool(v, "ConsistentRead", root));
  r.consistent_read = consistent.value_or(false);
  KH_ASSIGN_OR_RETURN(LegacyMembers legacy, ReadLegacyMembers(v, LegacyOp::kQuery, root, &errs));
  KH_ASSIGN_OR_RETURN(std::optional<bool> forward, ReadBool(v, "ScanIndexForward", root));
  r.scan_index_forward = forward.value_or(true);
  KH_ASSIGN_OR_RETURN(const json::Value* esk, ReadObject(v, "ExclusiveStartKey", root));
  KH_ASSIGN_OR_RETURN(r.return_consumed_capacity, ReadCapacity(v, root, &errs));
  KH_RETURN_IF_ERROR(TypesThenConstraints(v, errs));
  KH_RETURN_IF_ERROR(ReadExpressions(v, root, &r.expressions, api_json::kCurrentWording));
  KH_RETURN_IF_ERROR(CheckLegacyMix(legacy, r.expressions));
  KH_RETURN_IF_ERROR(TranslateLegacy(legacy, &r.expressions));
  if (!legacy.key_conditions && !r.expressions.key_condition) {
    return Status::Validation(
        "Either the KeyConditions or KeyConditionExpression parameter must be specified in the "
        "request.");
  }
  if (legacy.key_conditions) {
    KH_ASSIGN_OR_RETURN(r.key_conditions,
                        api_json::DecodeKeyConditions(legacy.key_condition_terms));
  }
  KH_ASSIGN_OR_RETURN(r.exclusive_start_key, DecodeStartKey(esk, ValueLayer::kCurrent));
  return r;
}

namespace {

// SearchVectors' request is read field by field before its constraints, in the words of the
// JSON reader behind it (the Parity Suite's searchVectors.test.ts, October 2026): a member
// given as JSON null is a SerializationException "invalid type: null, expected a string at line
// 1 column N" (a sequence, i32, a map), and a request without TableName "missing field
// `TableName` at line 1 column N". The columns are those of the request written compactly, in
// its member order, as the SDKs send it: after the null, and after the closing brace.
Status CheckSearchVectorsFields(const json::Value& v) {
  if (!v.IsObject()) return Status::OK();
  size_t column = 1;  // "{"
  for (size_t i = 0; i < v.object().size(); ++i) {
    const auto& [name, value] = v.object()[i];
    std::string key;
    json::AppendQuoted(name, &key);
    column += (i > 0 ? 1 : 0) + key.size() + 1;  // ',' "name" ':'
    if (value.IsNull()) {
      const std::string_view expected =
          name == "SearchVector"                                                      ? "a sequence"
          : name == "TopK"                                                            ? "i32"
          : name == "ExpressionAttributeNames" || name == "ExpressionAttributeValues" ? "a map"
                                                                                      : "a string";
      return Status(
          ErrorCode::kSerialization,
          fmt::format("invalid type: null, expected {} at line 1 column {}", expected, column + 4));
    }
    column += json::Write(value).size();
  }
  if (!v.Find("TableName")) {
    return Status::Validation(
        fmt::format("missing field `TableName` at line 1 column {}", column + 1));
  }
  return Status::OK();
}

}  // namespace

Result<SearchVectorsRequest> SearchVectorsRequestFromJson(const json::Value& v) {
  static constexpr MemberSpec kMembers[] = {
      {"TableName"},
      {"IndexName"},
      {"SearchVector"},
      {"TopK"},
      {"SearchConditionExpression"},
      {"ProjectionExpression"},
      {"ExpressionAttributeNames"},
      {"ExpressionAttributeValues"},
      {"ReturnConsumedCapacity"},
  };
  const Path root;
  KH_RETURN_IF_ERROR(CheckStructure(v, root, kMembers));
  KH_RETURN_IF_ERROR(CheckSearchVectorsFields(v));
  Violations errs;
  SearchVectorsRequest r;
  KH_ASSIGN_OR_RETURN(r.table_name, ReadTableNameOrArnMember(v, "TableName", root, true, &errs));
  KH_ASSIGN_OR_RETURN(std::optional<std::string> index, ReadString(v, "IndexName", root));
  if (!index) {
    errs.AddNull(root.Child("IndexName"));
  } else {
    CheckLength(index->size(), 3, 255, *index, root.Child("IndexName"), &errs);
    r.index_name = *index;
  }
  KH_ASSIGN_OR_RETURN(const json::Value* vector, ReadList(v, "SearchVector", root));
  if (!vector) {
    errs.AddNull(root.Child("SearchVector"));
  } else {
    CheckLength(vector->array().size(), 1, 4096, "", root.Child("SearchVector"), &errs);
    for (const json::Value& e : vector->array()) {
      KH_ASSIGN_OR_RETURN(AttributeValue value, ValueFromJson(e));
      r.search_vector.push_back(std::move(value));
    }
  }
  KH_ASSIGN_OR_RETURN(std::optional<int64_t> top_k, ReadInteger(v, "TopK", root));
  if (!top_k) {
    errs.AddNull(root.Child("TopK"));
  } else {
    r.top_k = *top_k;
  }
  KH_ASSIGN_OR_RETURN(r.return_consumed_capacity, ReadCapacity(v, root, &errs));
  KH_RETURN_IF_ERROR(TypesThenConstraints(v, errs));
  KH_RETURN_IF_ERROR(ReadExpressions(v, root, &r.expressions, api_json::kCurrentWording));
  return r;
}

Result<ScanRequest> ScanRequestFromJson(const json::Value& v) {
  static constexpr MemberSpec kMembers[] = {
      {"TableName"},
      {"IndexName"},
      {"AttributesToGet"},
      {"Limit"},
      {"Select"},
      {"ScanFilter"},
      {"ConditionalOperator"},
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
  KH_RETURN_IF_ERROR(CheckConditionalOperatorValue(v, root));
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
  if (segment && *segment < 0 && Regional().scan_newer_wording) {
    errs.AddUnvalued("Segment", "Member must have value greater than or equal to 0");
  } else if (segment) {
    CheckRange(*segment, 0, 999999, root.Child("Segment"), &errs);
    r.segment = static_cast<int>(*segment);
  }
  KH_ASSIGN_OR_RETURN(std::optional<bool> consistent, ReadBool(v, "ConsistentRead", root));
  r.consistent_read = consistent.value_or(false);
  KH_ASSIGN_OR_RETURN(LegacyMembers legacy, ReadLegacyMembers(v, LegacyOp::kScan, root, &errs));
  KH_RETURN_IF_ERROR(TypesThenConstraints(v, errs));
  KH_RETURN_IF_ERROR(ReadExpressions(v, root, &r.expressions, api_json::kOlderWording));
  KH_RETURN_IF_ERROR(CheckLegacyMix(legacy, r.expressions));
  KH_RETURN_IF_ERROR(TranslateLegacy(legacy, &r.expressions));
  // Segment/TotalSegments pairing and Segment < TotalSegments: storage's Scan checks them
  // before it looks at the table, with DynamoDB's messages.
  KH_ASSIGN_OR_RETURN(r.exclusive_start_key, DecodeStartKey(esk, ValueLayer::kOlder));
  return r;
}

}  // namespace keyhole
