// Runs one DynamoDB API operation given as JSON (the body `aws dynamodb <op> --cli-input-json`
// takes) against a Database and returns the response body as JSON.
#pragma once

#include <string_view>

#include "core/json.h"
#include "core/status.h"
#include "storage/database.h"

namespace keyhole::shell {

// `operation` is the API name ("PutItem", "Query", ...). Errors: ValidationException for an
// unknown operation or a malformed request, and whatever the operation itself returns.
Result<json::Value> CallOperation(storage::Database& db, std::string_view operation,
                                  const json::Value& body);

// ExecuteStatement, BatchExecuteStatement, ExecuteTransaction (partiql_api.cpp): PartiQL
// through the planner, with keyhole's key-addressability rule.
Result<json::Value> CallPartiqlOperation(storage::Database& db, std::string_view operation,
                                         const json::Value& body);

}  // namespace keyhole::shell
