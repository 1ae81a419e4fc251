// ExecuteStatement, BatchExecuteStatement and ExecuteTransaction: JSON wire form
// (api/partiql_api.h), with the member, type and constraint checks of api/api_json.h.
#include <fmt/format.h>

#include <string>
#include <vector>

#include "api/api_json.h"
#include "api/api_json_decode.h"
#include "api/partiql_api.h"
#include "core/ddb_json.h"

namespace keyhole {

namespace {

using api_json::MemberSpec;
using api_json::Path;
using api_json::Violations;

constexpr std::string_view kOnFailureNames[] = {"ALL_OLD", "NONE"};

Result<ReturnValues> ReadOnFailure(const json::Value& v, const Path& at, Violations* errs) {
  KH_ASSIGN_OR_RETURN(
      std::optional<size_t> i,
      api_json::ReadEnum(v, "ReturnValuesOnConditionCheckFailure", at, kOnFailureNames, errs));
  return i && kOnFailureNames[*i] == "ALL_OLD" ? ReturnValues::kAllOld : ReturnValues::kNone;
}

// Statement (required, 1..8192 characters) and Parameters (1.. AttributeValues when given).
Status ReadStatementAndParameters(const json::Value& v, const Path& at, PartiqlStatement* out,
                                  Violations* errs) {
  KH_ASSIGN_OR_RETURN(std::optional<std::string> statement,
                      api_json::ReadString(v, "Statement", at));
  if (!statement) {
    errs->AddNull(at.Child("Statement"));
  } else {
    api_json::CheckLength(statement->size(), 1, 8192, *statement, at.Child("Statement"), errs);
    out->statement = std::move(*statement);
  }
  KH_ASSIGN_OR_RETURN(const json::Value* params, api_json::ReadList(v, "Parameters", at));
  if (params) {
    const json::Value::Array& list = params->array();
    if (list.empty()) {
      api_json::CheckLength(0, 1, SIZE_MAX, "[]", at.Child("Parameters"), errs);
    }
    for (const json::Value& p : list) {
      Result<AttributeValue> value = ValueFromJson(p, ValueLayer::kOlder);
      if (!value.ok()) {
        if (!value.status().IsValidation()) return value.status();
        out->parameter_error = value.status();
        break;
      }
      out->parameters.push_back(std::move(value).value());
    }
  }
  return Status::OK();
}

json::Value Capacities(const std::vector<ConsumedCapacity>& list) {
  json::Value out = json::Value::MakeArray();
  for (const ConsumedCapacity& c : list) out.Push(ConsumedCapacityToJson(c));
  return out;
}

}  // namespace

bool IsPartiqlOperation(std::string_view name) {
#define KH_PARTIQL_OPERATION(Name) \
  if (name == #Name) return true;
#include "core/operations.def"
  return false;
}

Result<ExecuteStatementRequest> ExecuteStatementRequestFromJson(const json::Value& v) {
  static constexpr MemberSpec kMembers[] = {{"Statement"},
                                            {"Parameters"},
                                            {"ConsistentRead"},
                                            {"NextToken"},
                                            {"ReturnConsumedCapacity"},
                                            {"Limit"},
                                            {"ReturnValuesOnConditionCheckFailure"}};
  Path at;
  KH_RETURN_IF_ERROR(api_json::CheckStructure(v, at, kMembers));
  Violations errs;
  PartiqlStatement st;
  KH_RETURN_IF_ERROR(ReadStatementAndParameters(v, at, &st, &errs));
  ExecuteStatementRequest r;
  r.statement = std::move(st.statement);
  r.parameters = std::move(st.parameters);
  KH_ASSIGN_OR_RETURN(std::optional<bool> consistent, api_json::ReadBool(v, "ConsistentRead", at));
  r.consistent_read = consistent.value_or(false);
  KH_ASSIGN_OR_RETURN(r.next_token, api_json::ReadString(v, "NextToken", at));
  if (r.next_token) {
    api_json::CheckLength(r.next_token->size(), 1, 32768, *r.next_token, at.Child("NextToken"),
                          &errs);
  }
  KH_ASSIGN_OR_RETURN(std::optional<int64_t> limit, api_json::ReadInteger(v, "Limit", at));
  if (limit) {
    api_json::CheckRange(*limit, 1, INT32_MAX, at.Child("Limit"), &errs);
    r.limit = static_cast<int>(*limit);
  }
  KH_ASSIGN_OR_RETURN(r.return_consumed_capacity,
                      api_json::ReadReturnConsumedCapacity(v, at, &errs));
  KH_ASSIGN_OR_RETURN(r.return_values_on_condition_check_failure, ReadOnFailure(v, at, &errs));
  KH_RETURN_IF_ERROR(errs.ToStatus());
  KH_RETURN_IF_ERROR(st.parameter_error);
  return r;
}

Result<BatchExecuteStatementRequest> BatchExecuteStatementRequestFromJson(const json::Value& v) {
  static constexpr MemberSpec kMembers[] = {{"Statements"}, {"ReturnConsumedCapacity"}};
  static constexpr MemberSpec kStatement[] = {
      {"Statement"}, {"Parameters"}, {"ConsistentRead"}, {"ReturnValuesOnConditionCheckFailure"}};
  Path at;
  KH_RETURN_IF_ERROR(api_json::CheckStructure(v, at, kMembers));
  Violations errs;
  BatchExecuteStatementRequest r;
  KH_ASSIGN_OR_RETURN(const json::Value* list, api_json::ReadList(v, "Statements", at));
  if (!list) {
    errs.AddNull(at.Child("Statements"));
  } else {
    const auto& items = list->array();
    api_json::CheckLength(items.size(), 1, 25, "", at.Child("Statements"), &errs);
    for (size_t i = 0; i < items.size(); ++i) {
      Path el = at.Child("Statements").Element(i);
      KH_RETURN_IF_ERROR(api_json::CheckStructure(items[i], el, kStatement));
      PartiqlStatement st;
      KH_RETURN_IF_ERROR(ReadStatementAndParameters(items[i], el, &st, &errs));
      KH_ASSIGN_OR_RETURN(std::optional<bool> consistent,
                          api_json::ReadBool(items[i], "ConsistentRead", el));
      st.consistent_read = consistent.value_or(false);
      KH_ASSIGN_OR_RETURN(st.return_values_on_condition_check_failure,
                          ReadOnFailure(items[i], el, &errs));
      r.statements.push_back(std::move(st));
    }
  }
  KH_ASSIGN_OR_RETURN(r.return_consumed_capacity,
                      api_json::ReadReturnConsumedCapacity(v, at, &errs));
  KH_RETURN_IF_ERROR(errs.ToStatus());
  return r;
}

Result<ExecuteTransactionRequest> ExecuteTransactionRequestFromJson(const json::Value& v) {
  static constexpr MemberSpec kMembers[] = {
      {"TransactStatements"}, {"ClientRequestToken"}, {"ReturnConsumedCapacity"}};
  static constexpr MemberSpec kStatement[] = {
      {"Statement"}, {"Parameters"}, {"ReturnValuesOnConditionCheckFailure"}};
  Path at;
  KH_RETURN_IF_ERROR(api_json::CheckStructure(v, at, kMembers));
  Violations errs;
  ExecuteTransactionRequest r;
  KH_ASSIGN_OR_RETURN(const json::Value* list, api_json::ReadList(v, "TransactStatements", at));
  if (!list) {
    errs.AddNull(at.Child("TransactStatements"));
  } else {
    const auto& items = list->array();
    api_json::CheckLength(items.size(), 1, 100, "", at.Child("TransactStatements"), &errs);
    for (size_t i = 0; i < items.size(); ++i) {
      Path el = at.Child("TransactStatements").Element(i);
      KH_RETURN_IF_ERROR(api_json::CheckStructure(items[i], el, kStatement));
      PartiqlStatement st;
      KH_RETURN_IF_ERROR(ReadStatementAndParameters(items[i], el, &st, &errs));
      KH_ASSIGN_OR_RETURN(st.return_values_on_condition_check_failure,
                          ReadOnFailure(items[i], el, &errs));
      r.transact_statements.push_back(std::move(st));
    }
  }
  KH_ASSIGN_OR_RETURN(r.client_request_token, api_json::ReadString(v, "ClientRequestToken", at));
  if (r.client_request_token) {
    api_json::CheckLength(r.client_request_token->size(), 1, 36, *r.client_request_token,
                          at.Child("ClientRequestToken"), &errs);
  }
  KH_ASSIGN_OR_RETURN(r.return_consumed_capacity,
                      api_json::ReadReturnConsumedCapacity(v, at, &errs));
  KH_RETURN_IF_ERROR(errs.ToStatus());
  for (const PartiqlStatement& st : r.transact_statements) KH_RETURN_IF_ERROR(st.parameter_error);
  return r;
}

json::Value ExecuteStatementResponseToJson(const ExecuteStatementResponse& r) {
  json::Value out = json::Value::MakeObject();
  json::Value items = json::Value::MakeArray();
  for (const Item& item : r.items) items.Push(ItemToJson(item));
  out.Add("Items", std::move(items));
  if (r.next_token) out.Add("NextToken", json::Value::String(*r.next_token));
  if (r.last_evaluated_key) out.Add("LastEvaluatedKey", ItemToJson(*r.last_evaluated_key));
  if (r.consumed_capacity)
    out.Add("ConsumedCapacity", ConsumedCapacityToJson(*r.consumed_capacity));
  return out;
}

json::Value BatchExecuteStatementResponseToJson(const BatchExecuteStatementResponse& r) {
  json::Value out = json::Value::MakeObject();
  json::Value responses = json::Value::MakeArray();
  for (const BatchStatementResult& s : r.responses) {
    json::Value one = json::Value::MakeObject();
    if (s.error_code) {
      json::Value error = json::Value::MakeObject();
      error.Add("Code", json::Value::String(*s.error_code));
      error.Add("Message", json::Value::String(s.error_message));
      if (s.error_item) error.Add("Item", ItemToJson(*s.error_item));
      one.Add("Error", std::move(error));
    }
    if (s.table_name) one.Add("TableName", json::Value::String(*s.table_name));
    if (s.item) one.Add("Item", ItemToJson(*s.item));
    responses.Push(std::move(one));
  }
  out.Add("Responses", std::move(responses));
  if (!r.consumed_capacity.empty()) out.Add("ConsumedCapacity", Capacities(r.consumed_capacity));
  return out;
}

json::Value ExecuteTransactionResponseToJson(const ExecuteTransactionResponse& r) {
  // Responses is always there: one per read, and [] for a transaction of writes (the Parity
  // Suite's writeResponses.test.ts, October 2026).
  json::Value out = json::Value::MakeObject();
  json::Value responses = json::Value::MakeArray();
  for (const std::optional<Item>& item : r.responses) {
    json::Value one = json::Value::MakeObject();
    if (item) one.Add("Item", ItemToJson(*item));
    responses.Push(std::move(one));
  }
  out.Add("Responses", std::move(responses));
  if (!r.consumed_capacity.empty()) out.Add("ConsumedCapacity", Capacities(r.consumed_capacity));
  return out;
}

}  // namespace keyhole
