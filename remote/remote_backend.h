// remote::RemoteBackend: a Backend over DynamoDB's JSON-over-HTTP protocol (design.md, "The
// shape"), for Amazon DynamoDB, any compatible engine, and `keyhole serve`. Each operation is
// encoded with api/'s request encoders, POSTed with its X-Amz-Target over aws::HttpClient
// (HTTP or HTTPS, proxies, a CA bundle, keep-alive), signed with SigV4 when it has credentials,
// and its response (or its error, with type, message, CancellationReasons and Item) decoded
// with api/'s response decoders, so a front end sees what an in-process Backend would return.
//
// Retries, as the SDKs' standard mode (aws/retry.h): throttling and 5xx answers, connections
// refused, reset or timed out, and responses whose x-amz-crc32 does not match, up to
// max_attempts attempts with full-jitter backoff and a retry quota. A request that may have
// reached the server (a read timeout, a connection lost after sending, an HTTP 500) is retried
// only when it is safe to apply twice: reads; PutItem and DeleteItem without a condition and
// without ReturnValues; BatchWriteItem; TransactWriteItems, which always carries a
// ClientRequestToken (one is made when the request has none). Unprocessed items and keys of
// BatchWriteItem and BatchGetItem are sent again, with backoff, for up to max_attempts + 7
// rounds; what is still unprocessed then is returned as DynamoDB returns it.
//
// Errors: DynamoDB's own, by name (ThrottlingException, UnrecognizedClientException, ...); a
// transport failure as the AWS SDKs name it (EndpointConnectionError, SSLError,
// ConnectTimeoutError, ReadTimeoutError) saying what to check; an answer that is not
// DynamoDB's says so. Secrets never appear in them. A Status's hint (the shell prints it) says
// where the credentials and region came from when the endpoint refused them.
//
// TableSchema (the planner's view of a table) is DescribeTable (and DescribeTimeToLive), cached
// per table name: the entry is dropped by this backend's own CreateTable, DeleteTable,
// UpdateTable and UpdateTimeToLive on that table, and by a ResourceNotFoundException naming
// it. A schema changed by another client is seen once the entry is dropped.
//
// Thread-safety: one RemoteBackend may be used by many threads at once: the HTTP client pools
// connections, the credential provider refreshes for all, the retry quota is atomic and the
// schema cache is guarded by a mutex.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "aws/credentials.h"
#include "aws/http_client.h"
#include "core/backend.h"
#include "core/json.h"

namespace keyhole::remote {

class RemoteBackend : public Backend {
 public:
  struct Options {
    // "http[s]://host[:port][/path]".
    std::string endpoint;
    // The region requests are signed for.
    std::string region = "us-east-1";
    // Signs every request when set; null sends them unsigned (keyhole serve, DynamoDB Local).
    std::shared_ptr<aws::CredentialProvider> credentials;
    // Where the credentials and the region came from, for hints ("profile dev in
    // ~/.aws/credentials", "--region").
    std::string credentials_source, region_source;
    aws::HttpClient::Options http;
    int max_attempts = 3;
    std::string user_agent = "keyhole";
    // Sleeps before a retry; the default sleeps, waking early when http.cancel is set.
    std::function<void(double seconds)> sleep;
  };

  // What this backend did, for progress lines and tests.
  struct Stats {
    std::atomic<uint64_t> requests{0};            // HTTP requests sent (each attempt)
    std::atomic<uint64_t> retries{0};             // attempts after a failed one
    std::atomic<uint64_t> throttled{0};           // answers that were throttling errors
    std::atomic<uint64_t> unprocessed_rounds{0};  // batch calls repeated for unprocessed items
  };

  // ValidationException for an endpoint that is not http[s]://host[:port][/path].
  static Result<std::unique_ptr<RemoteBackend>> Create(Options options);
  ~RemoteBackend() override;

  // Every operation of core/operations.def, exchanged as the header says. SearchVectors goes to
  // the endpoint given, as the SDKs send it when the endpoint is set (with no endpoint set,
  // DynamoDB's SDKs use a separate search host).
#define KH_BACKEND_OPERATION(Name) \
  Result<Name##Response> Name(const Name##Request& request) override;
#include "core/operations.def"
  Result<TableSchemaPtr> TableSchema(const std::string& table_name) override;

  const Options& options() const;
  const Stats& stats() const;

  struct Impl;

 private:
  explicit RemoteBackend(std::unique_ptr<Impl> impl);
  // Whether a request that may have reached the server can be sent again.
  enum class Safety { kIdempotent, kOnce };
  // POSTs `body` as operation `op` and returns the response body, or the error it carries
  // (api/api_json_client.h ErrorFromJson), retrying as the header says.
  Result<json::Value> Call(std::string_view op, const json::Value& body, Safety safety,
                           bool streams = false);
  // Call's response body as text ("" for an empty one), not yet parsed.
  Result<std::string> CallText(std::string_view op, const json::Value& body, Safety safety,
                               bool streams = false);
  // One operation: `request` encoded, called, and its response decoded.
  template <typename Response, typename Request>
  Result<Response> Exchange(std::string_view op, const Request& request,
                            json::Value (*encode)(const Request&),
                            Result<Response> (*decode)(const json::Value&), Safety safety,
                            bool streams = false);
  // The same for a read whose decoder has a fast path from the text (`fast`, tried first).
  template <typename Response, typename Request>
  Result<Response> ExchangeRead(std::string_view op, const Request& request,
                                json::Value (*encode)(const Request&),
                                std::optional<Response> (*fast)(std::string_view),
                                Result<Response> (*decode)(const json::Value&));
  void Forget(const std::string& table_name);
  std::unique_ptr<Impl> impl_;
};

}  // namespace keyhole::remote
