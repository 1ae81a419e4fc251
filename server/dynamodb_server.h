// DynamoDB's JSON-over-HTTP protocol in front of api::Service (reference §7): `keyhole serve`.
//
// A request is checked in DynamoDB's order (§7.2): GET / is a health check; another method, or
// a body whose media type is not JSON, is 404 <UnknownOperationException/>; a body that is not
// JSON is SerializationException; a missing or unknown X-Amz-Target is UnknownOperationException
// (DynamoDB_20120810.<Op> for DynamoDB's operations, DynamoDBStreams_20120810.<Op> for the
// Streams ones, served on the same port); then the signature (with --require-signature); then
// the operation, through api::Service. Every response carries x-amzn-RequestId and x-amz-crc32
// (the CRC-32 of the body bytes, which botocore checks); errors have DynamoDB's __type (with
// its namespace), HTTP status and message casing (api_json.h ErrorToJson), and keyhole's own
// error codes never reach the wire.
//
// Thread-safety: Handle may be called from many threads at once; the api::Service and its
// Backend must be thread-safe (storage::Database is: reads in parallel, writes serialized).
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <string>

#include "api/service.h"
#include "server/http.h"

namespace keyhole::server {

struct ServeOptions {
  // Verify SigV4 signatures with `credentials` (access key id -> secret); otherwise any
  // credentials are accepted, as DynamoDB Local does.
  bool require_signature = false;
  std::map<std::string, std::string> credentials;
  bool log = false;               // one line per request on standard error
  std::function<double()> clock;  // epoch seconds for the signature window (system clock)
  // The region of the ARNs a request sees (tables, indexes, streams, stream records'
  // awsRegion) when it was not signed for one (core/schema.h ArnScope): the region in its
  // Authorization header's credential scope wins, as DynamoDB's endpoint is the region's.
  std::string region = "local";
  std::string account = "000000000000";  // the account in those ARNs
};

// The region of a SigV4 Authorization header's credential scope
// ("Credential=AKID/20240101/us-east-1/dynamodb/aws4_request"), or "" when there is none.
std::string SignedRegion(std::string_view authorization);

class DynamoDbServer {
 public:
  // `service` must outlive the server.
  DynamoDbServer(api::Service& service, ServeOptions options);

  // Answers one HTTP request.
  HttpResponse Handle(const HttpRequest& request);

  // Whether answering `request` may block for a while: writes (which wait for their group
  // commit and its sync), Scan and PartiQL pages, table changes. Point and key reads and the
  // Describe and List operations never wait on anything and are answered on the HTTP event
  // thread (HttpOptions::may_block).
  static bool MayBlock(const HttpRequest& request);

  // Requests answered so far.
  uint64_t requests() const { return requests_.load(); }

 private:
  api::Service& service_;
  ServeOptions options_;
  std::atomic<uint64_t> requests_{0};
};

// The x-amz-crc32 value of `body`: the zlib CRC-32 of its bytes, in decimal.
std::string Crc32Header(std::string_view body);

}  // namespace keyhole::server
