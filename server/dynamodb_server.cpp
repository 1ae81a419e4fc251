// DynamoDbServer (dynamodb_server.h): routing, DynamoDB's checks and error shapes.
#include "server/dynamodb_server.h"

#include <fmt/format.h>
#include <zlib.h>

#include <chrono>
#include <cstdio>
#include <random>

#include "api/api_json.h"
#include "aws/endpoint.h"
#include "aws/sigv4.h"
#include "core/strings.h"
#include "core/time.h"
#include "server/sigv4_verify.h"

namespace keyhole::server {
namespace {

constexpr std::string_view kDynamoDbTarget = "DynamoDB_20120810.";
constexpr std::string_view kStreamsTarget = "DynamoDBStreams_20120810.";
// Deeper than any valid request: an item's 32 levels of documents are 64 JSON levels, inside a
// request's few.
constexpr int kMaxJsonDepth = 256;

bool IsStreamsOperation(std::string_view op) {
#define KH_STREAMS_OPERATION(Name) \
  if (op == #Name) return true;
#include "core/operations.def"
  return false;
}

// 52 characters of [0-9A-Z], as DynamoDB's request ids: unique, not secret (a splitmix64
// sequence per thread, seeded from the OS; 5 bits of it per character).
std::string RequestId() {
  static constexpr char kChars[] = "0123456789ABCDEFGHIJKLMNOPQRSTUV";  // 32 of [0-9A-Z]
  thread_local uint64_t state =
      std::random_device{}() * 0x9E3779B97F4A7C15ull ^ std::random_device{}();
  std::string id(52, '0');
  uint64_t bits = 0;
  for (size_t i = 0; i < id.size(); ++i) {
    if (i % 12 == 0) {
      uint64_t z = (state += 0x9E3779B97F4A7C15ull);
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
      bits = z ^ (z >> 31);
    }
    id[i] = kChars[bits & 31];
    bits >>= 5;
  }
  return id;
}

std::string MediaType(std::string_view content_type) {
  std::string out(content_type.substr(0, content_type.find(';')));
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return AsciiLower(out);
}

// A JSON response with DynamoDB's headers.
HttpResponse JsonResponse(int status, std::string body, const std::string& content_type) {
  HttpResponse r;
  r.status = status;
  r.content_type = content_type;
  r.headers.emplace_back("x-amzn-RequestId", RequestId());
  r.headers.emplace_back("x-amz-crc32", Crc32Header(body));
  r.body = std::move(body);
  return r;
}

// A com.amazon.coral.service# error: {"__type": ...} with its message when there is one, as
// "message" for the authentication errors and "Message" for the others (dynalite's
// test/connection.js and helpers.js, which compare whole bodies and ran against AWS).
HttpResponse CoralError(std::string_view name, std::string_view message,
                        const std::string& content_type) {
  json::Value o = json::Value::MakeObject();
  o.Add("__type", json::Value::String(fmt::format("com.amazon.coral.service#{}", name)));
  const bool auth = name == "MissingAuthenticationTokenException" ||
                    name == "InvalidSignatureException" || name == "IncompleteSignatureException" ||
                    name == "UnrecognizedClientException";
  // Messages may quote a header, which nothing has checked to be UTF-8.
  if (!message.empty()) {
    o.Add(auth ? "message" : "Message", json::Value::String(json::ToValidUtf8(message)));
  }
  return JsonResponse(400, json::Write(o), content_type);
}

}  // namespace

std::string Crc32Header(std::string_view body) {
  uLong crc = crc32(0L, Z_NULL, 0);
  crc = crc32(crc, reinterpret_cast<const Bytef*>(body.data()), static_cast<uInt>(body.size()));
  return std::to_string(static_cast<unsigned long>(crc));
}

DynamoDbServer::DynamoDbServer(api::Service& service, ServeOptions options)
    : service_(service), options_(std::move(options)) {
  if (!options_.clock) options_.clock = WallClockNow;
}

std::string SignedRegion(std::string_view authorization) {
  const size_t at = authorization.find("Credential=");
  if (at == std::string_view::npos) return "";
  std::string_view scope = authorization.substr(at + 11);
  scope = scope.substr(0, scope.find_first_of(", "));
  // AKID/date/region/service/aws4_request
  for (int i = 0; i < 2; ++i) {
    const size_t slash = scope.find('/');
    if (slash == std::string_view::npos) return "";
    scope.remove_prefix(slash + 1);
  }
  const std::string_view region = scope.substr(0, scope.find('/'));
  return aws::ValidRegionName(region) && scope.find('/') != std::string_view::npos
             ? std::string(region)
             : "";
}

bool DynamoDbServer::MayBlock(const HttpRequest& request) {
  std::string_view target = request.Header("X-Amz-Target");
  if (target.starts_with(kDynamoDbTarget)) {
    target.remove_prefix(kDynamoDbTarget.size());
  } else if (target.starts_with(kStreamsTarget)) {
    target.remove_prefix(kStreamsTarget.size());
  } else {
    return request.method == "POST";  // not an operation: an error answered at once anyway
  }
  static constexpr std::string_view kQuick[] = {"GetItem",
                                                "BatchGetItem",
                                                "Query",
                                                "TransactGetItems",
                                                "DescribeTable",
                                                "ListTables",
                                                "DescribeTimeToLive",
                                                "DescribeContinuousBackups",
                                                "ListTagsOfResource",
                                                "DescribeLimits",
                                                "DescribeEndpoints",
                                                "ListStreams",
                                                "DescribeStream",
                                                "GetShardIterator",
                                                "GetRecords"};
  return std::find(std::begin(kQuick), std::end(kQuick), target) == std::end(kQuick);
}

HttpResponse DynamoDbServer::Handle(const HttpRequest& request) {
  const auto start = std::chrono::steady_clock::now();
  ++requests_;
  std::string operation;
  HttpResponse response = [&]() -> HttpResponse {
    // 1. A health check: GET / only, naming the host it was reached at (Alternator's tests,
    // written against DynamoDB; other paths are 4xx there).
    if (request.method == "GET" && request.path == "/") {
      HttpResponse r;
      r.content_type = "text/plain";
      const std::string_view host = request.Header("Host");
      r.body = fmt::format("healthy: {} ", host.empty() ? "dynamodb.local.amazonaws.com" : host);
      return r;
    }
    // A CORS preflight: the requested method and headers allowed (the CORS headers every
    // answer to a request with Origin carries are added below).
    if (request.method == "OPTIONS" && request.HasHeader("Origin")) {
      HttpResponse r;
      const std::string_view method = request.Header("Access-Control-Request-Method");
      const std::string_view headers = request.Header("Access-Control-Request-Headers");
      r.headers.emplace_back("Access-Control-Allow-Methods", method.empty() ? "POST" : method);
      if (!headers.empty()) r.headers.emplace_back("Access-Control-Allow-Headers", headers);
      r.headers.emplace_back("Access-Control-Max-Age", "172800");
      r.content_type.clear();
      return r;
    }
    // 2. Not POST, or a body that is not JSON by its media type.
    const std::string media = MediaType(request.Header("Content-Type"));
    const bool json_media = media == "application/json" || media == "application/x-amz-json-1.0";
    if (request.method != "POST" || (!request.body.empty() && !json_media)) {
      HttpResponse r;
      r.status = 404;
      r.content_type.clear();  // none (dynalite's assert404, run against AWS)
      r.body = "<UnknownOperationException/>\n";
      return r;
    }
    // Answers are application/x-amz-json-1.0 to a request of that type, and application/json
    // to any other, one without a Content-Type too (dynalite's test/connection.js).
    const std::string content_type =
        media == "application/x-amz-json-1.0" ? "application/x-amz-json-1.0" : "application/json";
    // 3. A body that is not JSON. JSON nested deeper than any valid request (an item's 32
    // levels take 64 JSON levels) is well-formed JSON that keyhole's reader stops on before it
    // could exhaust the stack: answered after the target and signature checks, with DynamoDB's
    // nesting error.
    Result<json::Value> body = Status::Validation("empty");
    bool too_deep = false;
    if (!request.body.empty()) {
      body = json::Parse(request.body, kMaxJsonDepth);
      too_deep = !body.ok() && json::IsDepthError(body.status());
      if (!body.ok() && !too_deep) return CoralError("SerializationException", "", content_type);
    }
    // 4. The target.
    const std::string_view target = request.Header("X-Amz-Target");
    if (target.starts_with(kDynamoDbTarget)) {
      operation = std::string(target.substr(kDynamoDbTarget.size()));
      if (IsStreamsOperation(operation) || !api::Service::IsOperation(operation)) operation.clear();
    } else if (target.starts_with(kStreamsTarget)) {
      operation = std::string(target.substr(kStreamsTarget.size()));
      if (!IsStreamsOperation(operation)) operation.clear();
    }
    if (operation.empty()) return CoralError("UnknownOperationException", "", content_type);
    // 5. The signature.
    if (options_.require_signature) {
      SignatureCheck check = VerifySignature(request, options_.credentials, options_.clock());
      if (!check.ok()) return CoralError(check.type, check.message, content_type);
    }
    if (too_deep) {
      return JsonResponse(400,
                          json::Write(ErrorToJson(Status::Validation(
                              "Nesting Levels have exceeded supported limits: Attributes in the "
                              "item have nested levels beyond supported limit"))),
                          content_type);
    }
    // 6. An empty body.
    if (!body.ok()) return CoralError("SerializationException", "", content_type);
    // 7. The operation, its ARNs in the region it was signed for.
    std::string region = SignedRegion(request.Header("Authorization"));
    const ArnScope arns(region.empty() ? options_.region : std::move(region), options_.account);
    api::CallContext context;
    context.host = std::string(request.Header("Host"));
    context.ignore_unknown_members = true;
    Result<json::Value> result = service_.Call(operation, *body, context);
    if (!result.ok()) {
      return JsonResponse(ErrorHttpStatus(result.status()),
                          json::Write(ErrorToJson(result.status())), content_type);
    }
    // TagResource and UntagResource answer with an empty body (reference §7.4).
    if (operation == "TagResource" || operation == "UntagResource") {
      return JsonResponse(200, "", content_type);
    }
    return JsonResponse(200, json::Write(*result), content_type);
  }();
  // Every answer carries a request id and the body's CRC-32, 404s and health checks included
  // (SDKs read both); one to a request with Origin carries CORS headers (any origin).
  const auto has = [&](std::string_view name) {
    return std::any_of(response.headers.begin(), response.headers.end(),
                       [&](const auto& h) { return h.first == name; });
  };
  if (!has("x-amzn-RequestId")) response.headers.emplace_back("x-amzn-RequestId", RequestId());
  // A large answer compressed as the client's Accept-Encoding asks (the first such header:
  // DynamoDB reads no other, Alternator's test_multiple_accept_encoding_headers); its CRC-32
  // is then the compressed bytes' (SDKs check those).
  if (response.body.size() >= kCompressFrom) {
    std::string_view accept;
    for (const auto& [name, value] : request.headers) {
      if (aws::HeaderNameEquals(name, "Accept-Encoding")) {
        accept = value;
        break;
      }
    }
    if (const ContentCoding coding = ChooseContentCoding(accept);
        coding != ContentCoding::kIdentity) {
      response.body = Compress(response.body, coding);
      response.headers.emplace_back("Content-Encoding",
                                    coding == ContentCoding::kGzip ? "gzip" : "deflate");
      std::erase_if(response.headers, [](const auto& h) { return h.first == "x-amz-crc32"; });
    }
  }
  if (!has("x-amz-crc32")) response.headers.emplace_back("x-amz-crc32", Crc32Header(response.body));
  if (request.HasHeader("Origin")) {
    response.headers.emplace_back("Access-Control-Allow-Origin", "*");
    response.headers.emplace_back(
        "Access-Control-Expose-Headers",
        "x-amzn-RequestId,x-amzn-ErrorType,x-amzn-ErrorMessage,x-amz-crc32,Date");
  }
  if (options_.log) {
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    std::fprintf(
        stderr, "%s %s %d %.2f ms\n", request.method.c_str(),
        operation.empty() ? std::string(request.Header("X-Amz-Target")).c_str() : operation.c_str(),
        response.status, ms);
  }
  return response;
}

}  // namespace keyhole::server
