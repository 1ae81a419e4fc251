#include "shell/api_call.h"

#include <fmt/format.h>

#include "api/api_json.h"
#include "api/partiql_api.h"

namespace keyhole::shell {

namespace {

// Decode, execute, encode: the shape of every operation.
template <typename Req, typename Resp>
Result<json::Value> Run(Result<Req> (*decode)(const json::Value&),
                        Result<Resp> (storage::Database::*exec)(const Req&),
                        json::Value (*encode)(const Resp&), storage::Database& db,
                        const json::Value& body) {
  KH_ASSIGN_OR_RETURN(Req req, decode(body));
  KH_ASSIGN_OR_RETURN(Resp resp, (db.*exec)(req));
  return encode(resp);
}

}  // namespace

Result<json::Value> CallOperation(storage::Database& db, std::string_view op,
                                  const json::Value& body) {
  using storage::Database;
  if (IsPartiqlOperation(op)) return CallPartiqlOperation(db, op, body);
  if (op == "CreateTable")
    return Run(&CreateTableRequestFromJson, &Database::CreateTable, &CreateTableResponseToJson, db,
               body);
  if (op == "DeleteTable")
    return Run(&DeleteTableRequestFromJson, &Database::DeleteTable, &DeleteTableResponseToJson, db,
               body);
  if (op == "DescribeTable")
    return Run(&DescribeTableRequestFromJson, &Database::DescribeTable,
               &DescribeTableResponseToJson, db, body);
  if (op == "ListTables")
    return Run(&ListTablesRequestFromJson, &Database::ListTables, &ListTablesResponseToJson, db,
               body);
  if (op == "UpdateTable")
    return Run(&UpdateTableRequestFromJson, &Database::UpdateTable, &UpdateTableResponseToJson, db,
               body);
  if (op == "PutItem")
    return Run(&PutItemRequestFromJson, &Database::PutItem, &PutItemResponseToJson, db, body);
  if (op == "GetItem")
    return Run(&GetItemRequestFromJson, &Database::GetItem, &GetItemResponseToJson, db, body);
  if (op == "DeleteItem")
    return Run(&DeleteItemRequestFromJson, &Database::DeleteItem, &DeleteItemResponseToJson, db,
               body);
  if (op == "UpdateItem")
    return Run(&UpdateItemRequestFromJson, &Database::UpdateItem, &UpdateItemResponseToJson, db,
               body);
  if (op == "BatchGetItem")
    return Run(&BatchGetItemRequestFromJson, &Database::BatchGetItem, &BatchGetItemResponseToJson,
               db, body);
  if (op == "BatchWriteItem")
    return Run(&BatchWriteItemRequestFromJson, &Database::BatchWriteItem,
               &BatchWriteItemResponseToJson, db, body);
  if (op == "TransactGetItems")
    return Run(&TransactGetItemsRequestFromJson, &Database::TransactGetItems,
               &TransactGetItemsResponseToJson, db, body);
  if (op == "TransactWriteItems")
    return Run(&TransactWriteItemsRequestFromJson, &Database::TransactWriteItems,
               &TransactWriteItemsResponseToJson, db, body);
  if (op == "UpdateTimeToLive")
    return Run(&UpdateTimeToLiveRequestFromJson, &Database::UpdateTimeToLive,
               &UpdateTimeToLiveResponseToJson, db, body);
  if (op == "DescribeTimeToLive")
    return Run(&DescribeTimeToLiveRequestFromJson, &Database::DescribeTimeToLive,
               &DescribeTimeToLiveResponseToJson, db, body);
  if (op == "ListStreams")
    return Run(&ListStreamsRequestFromJson, &Database::ListStreams, &ListStreamsResponseToJson, db,
               body);
  if (op == "DescribeStream")
    return Run(&DescribeStreamRequestFromJson, &Database::DescribeStream,
               &DescribeStreamResponseToJson, db, body);
  if (op == "GetShardIterator")
    return Run(&GetShardIteratorRequestFromJson, &Database::GetShardIterator,
               &GetShardIteratorResponseToJson, db, body);
  if (op == "GetRecords")
    return Run(&GetRecordsRequestFromJson, &Database::GetRecords, &GetRecordsResponseToJson, db,
               body);
  if (op == "Query") {
    KH_ASSIGN_OR_RETURN(QueryRequest req, QueryRequestFromJson(body));
    if (!req.key_conditions.empty()) {
      KH_ASSIGN_OR_RETURN(TableSchemaPtr t, db.TableSchema(req.table_name));
      KH_RETURN_IF_ERROR(BindKeyConditions(*t, &req));
    }
    KH_ASSIGN_OR_RETURN(QueryResponse resp, db.Query(req));
    return QueryResponseToJson(resp, req.select);
  }
  if (op == "Scan") {
    KH_ASSIGN_OR_RETURN(ScanRequest req, ScanRequestFromJson(body));
    KH_ASSIGN_OR_RETURN(ScanResponse resp, db.Scan(req));
    return ScanResponseToJson(resp, req.select);
  }
  return Status::Validation(fmt::format("Unknown operation: {}", op));
}

}  // namespace keyhole::shell
