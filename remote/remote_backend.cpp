// RemoteBackend (remote_backend.h): the Backend operations as DynamoDB HTTP calls, on
// cpp-httplib's client (the only file of remote/ that includes httplib.h).
#include "remote/remote_backend.h"

#include <fmt/format.h>
#include <httplib.h>

#include <cstdlib>

#include "api/api_json.h"
#include "api/api_json_client.h"

namespace keyhole::remote {

namespace {

constexpr std::string_view kDynamoDbTarget = "DynamoDB_20120810.";
constexpr std::string_view kStreamsTarget = "DynamoDBStreams_20120810.";

}  // namespace

struct RemoteBackend::Impl {
  Options options;
  std::string host;
  int port = 80;

  std::mutex clients_mutex;
  std::vector<std::unique_ptr<httplib::Client>> idle_clients;  // keep-alive connections

  std::mutex schemas_mutex;
  std::map<std::string, TableSchemaPtr> schemas;

  std::unique_ptr<httplib::Client> TakeClient() {
    {
      std::lock_guard<std::mutex> lock(clients_mutex);
      if (!idle_clients.empty()) {
        std::unique_ptr<httplib::Client> c = std::move(idle_clients.back());
        idle_clients.pop_back();
        return c;
      }
    }
    auto c = std::make_unique<httplib::Client>(host, port);
    c->set_keep_alive(true);
    c->set_tcp_nodelay(true);
    c->set_connection_timeout(options.connect_timeout_seconds, 0);
    c->set_read_timeout(options.read_timeout_seconds, 0);
    c->set_write_timeout(options.read_timeout_seconds, 0);
    return c;
  }
  void GiveBack(std::unique_ptr<httplib::Client> c) {
    std::lock_guard<std::mutex> lock(clients_mutex);
    if (idle_clients.size() < 16) idle_clients.push_back(std::move(c));
  }
};

Result<std::unique_ptr<RemoteBackend>> RemoteBackend::Create(const Options& options) {
  std::string_view rest = options.endpoint;
  const auto invalid = [&] {
    return Status::Validation(fmt::format(
        "endpoint '{}' is not http://HOST[:PORT] (HTTPS and signatures are not supported yet)",
        options.endpoint));
  };
  if (!rest.starts_with("http://")) return invalid();
  rest.remove_prefix(7);
  if (rest.ends_with('/')) rest.remove_suffix(1);
  if (rest.empty() || rest.find('/') != std::string_view::npos) return invalid();
  auto impl = std::make_unique<Impl>();
  impl->options = options;
  const size_t colon = rest.rfind(':');
  if (colon != std::string_view::npos && rest.find(']') == std::string_view::npos) {
    const std::string port(rest.substr(colon + 1));
    char* end = nullptr;
    const long p = std::strtol(port.c_str(), &end, 10);
    if (port.empty() || *end != '\0' || p < 1 || p > 65535) return invalid();
    impl->port = static_cast<int>(p);
    rest = rest.substr(0, colon);
  }
  impl->host = std::string(rest);
  return std::unique_ptr<RemoteBackend>(new RemoteBackend(std::move(impl)));
}

RemoteBackend::RemoteBackend(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
RemoteBackend::~RemoteBackend() = default;

Result<json::Value> RemoteBackend::Call(std::string_view op, const json::Value& body,
                                        bool streams) {
  std::unique_ptr<httplib::Client> client = impl_->TakeClient();
  const httplib::Headers headers = {
      {"X-Amz-Target", std::string(streams ? kStreamsTarget : kDynamoDbTarget) + std::string(op)}};
  httplib::Result r = client->Post("/", headers, json::Write(body), "application/x-amz-json-1.0");
  if (!r) {
    return Status::Internal(fmt::format("{} to {} failed: {}", op, impl_->options.endpoint,
                                        httplib::to_string(r.error())));
  }
  impl_->GiveBack(std::move(client));
  if (r->status != 200) return ErrorFromJson(r->status, r->body);
  if (r->body.empty()) return json::Value::MakeObject();  // TagResource's empty body
  Result<json::Value> v = json::Parse(r->body);
  if (!v.ok()) {
    return Status::Internal(
        fmt::format("{} from {}: the response is not JSON", op, impl_->options.endpoint));
  }
  return v;
}

template <typename Response, typename Request>
Result<Response> RemoteBackend::Exchange(std::string_view op, const Request& request,
                                         json::Value (*encode)(const Request&),
                                         Result<Response> (*decode)(const json::Value&),
                                         bool streams) {
  KH_ASSIGN_OR_RETURN(json::Value response, Call(op, encode(request), streams));
  return decode(response);
}

void RemoteBackend::Forget(const std::string& table_name) {
  std::lock_guard<std::mutex> lock(impl_->schemas_mutex);
  impl_->schemas.erase(table_name);
}

Result<CreateTableResponse> RemoteBackend::CreateTable(const CreateTableRequest& r) {
  Forget(r.table_name);
  return Exchange("CreateTable", r, &CreateTableRequestToJson, &CreateTableResponseFromJson);
}

Result<DeleteTableResponse> RemoteBackend::DeleteTable(const DeleteTableRequest& r) {
  Forget(r.table_name);
  return Exchange("DeleteTable", r, &DeleteTableRequestToJson, &DeleteTableResponseFromJson);
}

Result<DescribeTableResponse> RemoteBackend::DescribeTable(const DescribeTableRequest& r) {
  Result<json::Value> v = Call("DescribeTable", DescribeTableRequestToJson(r));
  if (!v.ok()) {
    if (v.status().IsNotFound()) Forget(r.table_name);
    return v.status();
  }
  return DescribeTableResponseFromJson(*v);
}

Result<ListTablesResponse> RemoteBackend::ListTables(const ListTablesRequest& r) {
  return Exchange("ListTables", r, &ListTablesRequestToJson, &ListTablesResponseFromJson);
}

Result<UpdateTableResponse> RemoteBackend::UpdateTable(const UpdateTableRequest& r) {
  Forget(r.table_name);
  // A new GSI of a PROVISIONED table gets the table's throughput: IndexSpec has none of its own.
  auto encode = +[](const UpdateTableRequest& u) { return UpdateTableRequestToJson(u); };
  return Exchange("UpdateTable", r, encode, &UpdateTableResponseFromJson);
}

Result<TagResourceResponse> RemoteBackend::TagResource(const TagResourceRequest& r) {
  return Exchange("TagResource", r, &TagResourceRequestToJson, &TagResourceResponseFromJson);
}

Result<UntagResourceResponse> RemoteBackend::UntagResource(const UntagResourceRequest& r) {
  return Exchange("UntagResource", r, &UntagResourceRequestToJson, &UntagResourceResponseFromJson);
}

Result<ListTagsOfResourceResponse> RemoteBackend::ListTagsOfResource(
    const ListTagsOfResourceRequest& r) {
  return Exchange("ListTagsOfResource", r, &ListTagsOfResourceRequestToJson,
                  &ListTagsOfResourceResponseFromJson);
}

Result<DescribeContinuousBackupsResponse> RemoteBackend::DescribeContinuousBackups(
    const DescribeContinuousBackupsRequest& r) {
  return Exchange("DescribeContinuousBackups", r, &DescribeContinuousBackupsRequestToJson,
                  &DescribeContinuousBackupsResponseFromJson);
}

Result<UpdateContinuousBackupsResponse> RemoteBackend::UpdateContinuousBackups(
    const UpdateContinuousBackupsRequest& r) {
  return Exchange("UpdateContinuousBackups", r, &UpdateContinuousBackupsRequestToJson,
                  &UpdateContinuousBackupsResponseFromJson);
}

Result<PutItemResponse> RemoteBackend::PutItem(const PutItemRequest& r) {
  return Exchange("PutItem", r, &PutItemRequestToJson, &PutItemResponseFromJson);
}

Result<GetItemResponse> RemoteBackend::GetItem(const GetItemRequest& r) {
  return Exchange("GetItem", r, &GetItemRequestToJson, &GetItemResponseFromJson);
}

Result<DeleteItemResponse> RemoteBackend::DeleteItem(const DeleteItemRequest& r) {
  return Exchange("DeleteItem", r, &DeleteItemRequestToJson, &DeleteItemResponseFromJson);
}

Result<UpdateItemResponse> RemoteBackend::UpdateItem(const UpdateItemRequest& r) {
  return Exchange("UpdateItem", r, &UpdateItemRequestToJson, &UpdateItemResponseFromJson);
}

Result<BatchWriteItemResponse> RemoteBackend::BatchWriteItem(const BatchWriteItemRequest& r) {
  return Exchange("BatchWriteItem", r, &BatchWriteItemRequestToJson,
                  &BatchWriteItemResponseFromJson);
}

Result<BatchGetItemResponse> RemoteBackend::BatchGetItem(const BatchGetItemRequest& r) {
  return Exchange("BatchGetItem", r, &BatchGetItemRequestToJson, &BatchGetItemResponseFromJson);
}

Result<TransactWriteItemsResponse> RemoteBackend::TransactWriteItems(
    const TransactWriteItemsRequest& r) {
  return Exchange("TransactWriteItems", r, &TransactWriteItemsRequestToJson,
                  &TransactWriteItemsResponseFromJson);
}

Result<TransactGetItemsResponse> RemoteBackend::TransactGetItems(const TransactGetItemsRequest& r) {
  return Exchange("TransactGetItems", r, &TransactGetItemsRequestToJson,
                  &TransactGetItemsResponseFromJson);
}

Result<QueryResponse> RemoteBackend::Query(const QueryRequest& r) {
  return Exchange("Query", r, &QueryRequestToJson, &QueryResponseFromJson);
}

Result<ScanResponse> RemoteBackend::Scan(const ScanRequest& r) {
  return Exchange("Scan", r, &ScanRequestToJson, &ScanResponseFromJson);
}

Result<UpdateTimeToLiveResponse> RemoteBackend::UpdateTimeToLive(const UpdateTimeToLiveRequest& r) {
  Forget(r.table_name);
  return Exchange("UpdateTimeToLive", r, &UpdateTimeToLiveRequestToJson,
                  &UpdateTimeToLiveResponseFromJson);
}

Result<DescribeTimeToLiveResponse> RemoteBackend::DescribeTimeToLive(
    const DescribeTimeToLiveRequest& r) {
  return Exchange("DescribeTimeToLive", r, &DescribeTimeToLiveRequestToJson,
                  &DescribeTimeToLiveResponseFromJson);
}

Result<ListStreamsResponse> RemoteBackend::ListStreams(const ListStreamsRequest& r) {
  return Exchange("ListStreams", r, &ListStreamsRequestToJson, &ListStreamsResponseFromJson, true);
}

Result<DescribeStreamResponse> RemoteBackend::DescribeStream(const DescribeStreamRequest& r) {
  return Exchange("DescribeStream", r, &DescribeStreamRequestToJson,
                  &DescribeStreamResponseFromJson, true);
}

Result<GetShardIteratorResponse> RemoteBackend::GetShardIterator(const GetShardIteratorRequest& r) {
  return Exchange("GetShardIterator", r, &GetShardIteratorRequestToJson,
                  &GetShardIteratorResponseFromJson, true);
}

Result<GetRecordsResponse> RemoteBackend::GetRecords(const GetRecordsRequest& r) {
  return Exchange("GetRecords", r, &GetRecordsRequestToJson, &GetRecordsResponseFromJson, true);
}

Result<TableSchemaPtr> RemoteBackend::TableSchema(const std::string& table_name) {
  {
    std::lock_guard<std::mutex> lock(impl_->schemas_mutex);
    auto it = impl_->schemas.find(table_name);
    if (it != impl_->schemas.end()) return it->second;
  }
  DescribeTableRequest d;
  d.table_name = table_name;
  KH_ASSIGN_OR_RETURN(DescribeTableResponse described, DescribeTable(d));
  // The TTL attribute is not part of a table's description: DescribeTimeToLive has it.
  DescribeTimeToLiveRequest ttl;
  ttl.table_name = table_name;
  KH_ASSIGN_OR_RETURN(DescribeTimeToLiveResponse ttl_state, DescribeTimeToLive(ttl));
  if (ttl_state.status == "ENABLED" || ttl_state.status == "ENABLING") {
    described.table.ttl_attribute = ttl_state.attribute_name;
  }
  auto schema = std::make_shared<const TableDescription>(std::move(described.table));
  std::lock_guard<std::mutex> lock(impl_->schemas_mutex);
  impl_->schemas[table_name] = schema;
  return TableSchemaPtr(schema);
}

}  // namespace keyhole::remote
