// DynamoDB's PartiQL operations as API requests: ExecuteStatement, BatchExecuteStatement and
// ExecuteTransaction, with their JSON wire form (decoders as strict as api/api_json.h's, and
// response encoders). The statements themselves are planned by planner/ and run by
// api::Service (service.h), since core knows no PartiQL.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/attribute_value.h"
#include "core/json.h"
#include "core/operations.h"
#include "core/status.h"

namespace keyhole {

// ExecuteStatement.
struct ExecuteStatementRequest {
  std::string statement;                   // 1..8192 characters
  std::vector<AttributeValue> parameters;  // bind the `?` markers; at least 1 when given
  bool consistent_read = false;
  std::optional<std::string> next_token;  // from a previous response, 1..32768 characters
  std::optional<int> limit;               // >= 1
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::kNone;
  ReturnValues return_values_on_condition_check_failure = ReturnValues::kNone;  // NONE | ALL_OLD
};
struct ExecuteStatementResponse {
  std::vector<Item> items;
  std::optional<std::string> next_token;
  std::optional<Item> last_evaluated_key;
  std::optional<ConsumedCapacity> consumed_capacity;
};

// One statement of BatchExecuteStatement (BatchStatementRequest) or ExecuteTransaction
// (ParameterizedStatement).
struct PartiqlStatement {
  std::string statement;
  std::vector<AttributeValue> parameters;
  // The first parameter that did not decode (DynamoDB reads parameters in its older layer:
  // numbers as Java's BigDecimal), in document order; then `parameters` stops before it.
  // ExecuteStatement and ExecuteTransaction answer with it; in BatchExecuteStatement it is
  // its statement's error.
  Status parameter_error;
  bool consistent_read = false;  // BatchExecuteStatement only
  ReturnValues return_values_on_condition_check_failure = ReturnValues::kNone;
};

struct BatchExecuteStatementRequest {
  std::vector<PartiqlStatement> statements;  // 1..25
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::kNone;
};
// BatchStatementResponse: the table and item of a read, or the statement's error.
struct BatchStatementResult {
  std::optional<std::string> table_name;
  std::optional<Item> item;
  std::optional<std::string> error_code;  // "ValidationError", "ConditionalCheckFailed", ...
  std::string error_message;
  std::optional<Item> error_item;  // ALL_OLD on a failed condition
  // keyhole's, never on the wire: the operation that served the statement ("PutItem"), empty
  // when it was not planned.
  std::string operation;
};
struct BatchExecuteStatementResponse {
  std::vector<BatchStatementResult> responses;  // one per statement, in order
  std::vector<ConsumedCapacity> consumed_capacity;
};

struct ExecuteTransactionRequest {
  std::vector<PartiqlStatement> transact_statements;  // 1..100
  std::optional<std::string> client_request_token;    // 1..36 characters
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::kNone;
};
struct ExecuteTransactionResponse {
  std::vector<std::optional<Item>> responses;  // reads only: one per statement
  std::vector<ConsumedCapacity> consumed_capacity;
};

// "ExecuteStatement", "BatchExecuteStatement", "ExecuteTransaction".
bool IsPartiqlOperation(std::string_view name);

Result<ExecuteStatementRequest> ExecuteStatementRequestFromJson(const json::Value& v);
Result<BatchExecuteStatementRequest> BatchExecuteStatementRequestFromJson(const json::Value& v);
Result<ExecuteTransactionRequest> ExecuteTransactionRequestFromJson(const json::Value& v);

json::Value ExecuteStatementResponseToJson(const ExecuteStatementResponse& r);
json::Value BatchExecuteStatementResponseToJson(const BatchExecuteStatementResponse& r);
json::Value ExecuteTransactionResponseToJson(const ExecuteTransactionResponse& r);

}  // namespace keyhole
