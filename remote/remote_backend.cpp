// RemoteBackend (remote_backend.h): the Backend operations as DynamoDB HTTP calls on
// aws::HttpClient, signed with aws/'s SigV4, retried as aws/retry.h says.
#include "remote/remote_backend.h"

#include <fmt/format.h>
#include <zlib.h>

#include <chrono>
#include <cstdlib>
#include <random>
#include <thread>

#include "api/api_json.h"
#include "api/api_json_client.h"
#include "aws/content_coding.h"
#include "aws/endpoint.h"
#include "aws/retry.h"
#include "core/time.h"

namespace keyhole::remote {

namespace {

// An error the endpoint sent without a message (dynalite and older emulators do): what its type
// means, so that "UnknownOperationException: " does not stand alone.
std::string EmptyMessageHint(const Status& error, std::string_view op, int http_status,
                             const std::string& url) {
  const std::string_view name = error.name();
  if (name == "UnknownOperationException") {
    return fmt::format(
        "{} does not implement {}: it is not DynamoDB, or an emulator without "
        "this operation",
        url, op);
  }
  if (name == "AccessDeniedException") {
    return fmt::format("the credentials may not call {} on {}", op, url);
  }
  if (name == "ResourceNotFoundException") {
    return fmt::format("{} answered that what {} names does not exist", url, op);
  }
  return fmt::format("{} answered {} with HTTP {} and no message", url, op, http_status);
}

constexpr std::string_view kDynamoDbTarget = "DynamoDB_20120810.";
constexpr std::string_view kStreamsTarget = "DynamoDBStreams_20120810.";

// A random version-4 UUID (amz-sdk-invocation-id, ClientRequestToken).
std::string Uuid() {
  thread_local std::mt19937_64 rng{std::random_device{}()};
  const uint64_t a = rng(), b = rng();
  return fmt::format("{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}", a >> 32, (a >> 16) & 0xFFFF, a & 0xFFF,
                     0x8000 | ((b >> 48) & 0x3FFF), b & 0xFFFFFFFFFFFF);
}

// The SDKs' name of a transport failure, and what to check.
Status TransportStatus(const aws::HttpResult& r, const aws::Endpoint& endpoint,
                       const RemoteBackend::Options& o) {
  const std::string url = endpoint.Url();
  switch (r.error) {
    case aws::TransportError::kResolve:
      return Status::Named(
          "EndpointConnectionError",
          fmt::format("Could not connect to the endpoint URL: \"{}\": the host {} has no address "
                      "(check the endpoint URL{})",
                      url, endpoint.host,
                      o.region_source.empty()
                          ? ""
                          : fmt::format(", or the region {} from {}", o.region, o.region_source)));
    case aws::TransportError::kConnect:
      return Status::Named("EndpointConnectionError",
                           fmt::format("Could not connect to the endpoint URL: \"{}\": {} (is the "
                                       "server running, and is the host and port right?)",
                                       url, r.message));
    case aws::TransportError::kTls:
      if (r.message.find("wrong version number") != std::string::npos) {
        // OpenSSL's words for an answer that is not TLS at all.
        return Status::Named(
            "SSLError",
            fmt::format("SSL validation failed for {}: {} (the port answers in plain HTTP, not "
                        "TLS: write the endpoint as http://{})",
                        url, r.message, endpoint.HostHeader()));
      }
      if (r.message.find("SSL_ERROR_SYSCALL") != std::string::npos ||
          r.message.find("unexpected eof") != std::string::npos) {
        // The server closed the connection during the handshake: what a plain-HTTP server
        // does when it has answered the ClientHello with a 400 and the reset comes before the
        // answer is read (OpenSSL then never sees the "wrong version number").
        return Status::Named(
            "SSLError",
            fmt::format("SSL validation failed for {}: {} (the server closed the connection "
                        "during the TLS handshake, as a port that answers in plain HTTP, not TLS, "
                        "does: if it is one, write the endpoint as http://{})",
                        url, r.message, endpoint.HostHeader()));
      }
      return Status::Named(
          "SSLError",
          fmt::format(
              "SSL validation failed for {}: {} (for a certificate of a private CA, give "
              "it with --ca-bundle FILE or AWS_CA_BUNDLE{})",
              url, r.message,
              o.http.ca_bundle.empty() ? "" : fmt::format("; trusted now: {}", o.http.ca_bundle)));
    case aws::TransportError::kConnectTimeout:
      return Status::Named("ConnectTimeoutError",
                           fmt::format("Connect timeout on endpoint URL: \"{}\" (after {} ms; "
                                       "check the host, a firewall, or HTTPS_PROXY)",
                                       url, o.http.connect_timeout_ms));
    case aws::TransportError::kReadTimeout:
      return Status::Named(
          "ReadTimeoutError",
          fmt::format("Read timeout on endpoint URL: \"{}\" ({})", url, r.message));
    case aws::TransportError::kConnectionLost:
      return Status::Named("ConnectionClosedError",
                           fmt::format("Connection was closed before we received a valid response "
                                       "from endpoint URL: \"{}\" ({})",
                                       url, r.message));
    case aws::TransportError::kInterrupted:
      return Status(ErrorCode::kInterrupted, "Interrupted");
    default:
      return Status::Named(
          "HTTPClientError",
          fmt::format("An HTTP Client raised an unhandled exception for \"{}\": {}", url,
                      r.message));
  }
}

// A gzip or deflate answer's body inflated in place (the header says which); false when it does
// not inflate, or past 64 MB. An answer without Content-Encoding is left as it is.
bool Inflated(aws::HttpResponse* r) {
  const std::string_view coding = r->Header("Content-Encoding");
  if (coding.empty() || aws::HeaderNameEquals(coding, "identity")) return true;
  if (!aws::HeaderNameEquals(coding, "gzip") && !aws::HeaderNameEquals(coding, "deflate")) {
    return false;
  }
  // gzip or zlib, by the header (DynamoDB's "deflate" is zlib's wrapping).
  std::string out;
  bool too_large = false;
  if (!aws::Inflate(r->body, false, size_t{64} << 20, &out, &too_large)) return false;
  r->body = std::move(out);
  return true;
}

// A 200 answer's body as JSON: an object, or {} for an empty body (TagResource's).
Result<json::Value> ParseAnswer(std::string_view op, const std::string& url,
                                const std::string& text) {
  if (text.empty()) return json::Value::MakeObject();
  Result<json::Value> v = json::Parse(text);
  if (!v.ok() || !v->IsObject()) {
    return Status::Named("ResponseParserError",
                         fmt::format("{} from {}: the answer is not DynamoDB's JSON (is this a "
                                     "DynamoDB endpoint?)",
                                     op, url));
  }
  return v;
}

}  // namespace

struct RemoteBackend::Impl {
  Options options;
  aws::Endpoint endpoint;
  std::unique_ptr<aws::HttpClient> http;
  aws::RetryQuota quota;
  Stats stats;

  std::mutex schemas_mutex;
  std::map<std::string, TableSchemaPtr> schemas;

  void Sleep(double seconds) {
    if (options.sleep) return options.sleep(seconds);
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < until) {
      if (options.http.cancel && options.http.cancel->load()) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }

  // A hint for errors about the credentials or the region: where they came from.
  std::string CredentialHint(std::string_view name) const {
    const std::string creds = options.credentials_source.empty()
                                  ? std::string("the credentials")
                                  : "the credentials from " + options.credentials_source;
    const std::string region =
        fmt::format("region {}{}", options.region,
                    options.region_source.empty() ? "" : " (from " + options.region_source + ")");
    if (name == "UnrecognizedClientException" || name == "InvalidClientTokenId") {
      return fmt::format(
          "{} name an access key this endpoint does not know: check the profile "
          "(--profile), and that the key belongs to this account and partition",
          creds);
    }
    if (name == "InvalidSignatureException" || name == "SignatureDoesNotMatch") {
      return fmt::format(
          "keyhole signed with {} for {}: check the secret access key, the region, "
          "and that this machine's clock is right",
          creds, region);
    }
    if (name == "ExpiredTokenException" || name == "ExpiredToken") {
      return fmt::format("{} expired: renew them (aws sso login, or new keys) and run again",
                         creds);
    }
    if (name == "MissingAuthenticationTokenException") {
      return "the endpoint wants signed requests: give credentials (a profile, or "
             "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)";
    }
    if (name == "AccessDeniedException") {
      return fmt::format("{} are not allowed this operation (an IAM policy)", creds);
    }
    return "";
  }
};

Result<std::unique_ptr<RemoteBackend>> RemoteBackend::Create(Options options) {
  KH_ASSIGN_OR_RETURN(aws::Endpoint endpoint, aws::ParseEndpoint(options.endpoint));
  auto impl = std::make_unique<Impl>();
  impl->endpoint = std::move(endpoint);
  impl->http = std::make_unique<aws::HttpClient>(options.http);
  impl->options = std::move(options);
  return std::unique_ptr<RemoteBackend>(new RemoteBackend(std::move(impl)));
}

RemoteBackend::RemoteBackend(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
RemoteBackend::~RemoteBackend() = default;

const RemoteBackend::Options& RemoteBackend::options() const { return impl_->options; }
const RemoteBackend::Stats& RemoteBackend::stats() const { return impl_->stats; }

Result<json::Value> RemoteBackend::Call(std::string_view op, const json::Value& body, Safety safety,
                                        bool streams) {
  KH_ASSIGN_OR_RETURN(std::string text, CallText(op, body, safety, streams));
  return ParseAnswer(op, impl_->endpoint.Url(), text);
}

Result<std::string> RemoteBackend::CallText(std::string_view op, const json::Value& body,
                                            Safety safety, bool streams) {
  Impl& im = *impl_;
  const Options& o = im.options;
  aws::HttpRequest request;
  request.url = im.endpoint.Url();
  request.body = json::Write(body);
  request.once = safety == Safety::kOnce;
  const std::string target =
      std::string(streams ? kStreamsTarget : kDynamoDbTarget) + std::string(op);
  const std::string invocation = Uuid();
  const int max_attempts = std::max(1, o.max_attempts);
  int taken = 0;  // the retry quota's tokens the last retry took
  bool refreshed = false;
  for (int attempt = 1;; ++attempt) {
    request.headers = {
        {"Host", im.endpoint.HostHeader()},
        {"Content-Type", "application/x-amz-json-1.0"},
        {"X-Amz-Target", target},
        {"User-Agent", o.user_agent},
        {"amz-sdk-invocation-id", invocation},
        {"amz-sdk-request", fmt::format("attempt={}; max={}", attempt, max_attempts)}};
    if (o.credentials) {
      KH_ASSIGN_OR_RETURN(aws::Credentials c, o.credentials->Get());
      const double now = WallClockNow();
      aws::SignRequest(c.signing_key(), o.region, "dynamodb", now, "POST", im.endpoint.path, "",
                       request.body, &request.headers);
    }
    // Over HTTPS (DynamoDB itself, far away) answers of 4 KB and more come gzip'd: a Scan page
    // is a fifth of its size on the wire. Not over plain HTTP, which is local, where inflating
    // costs more than the bytes.
    if (im.endpoint.scheme == "https") request.headers.emplace_back("Accept-Encoding", "gzip");
    ++im.stats.requests;
    aws::HttpResult r = im.http->Send(request);
    Status error;
    bool retryable = false, timeout = false;
    if (!r.ok()) {
      error = TransportStatus(r, im.endpoint, o);
      switch (r.error) {
        case aws::TransportError::kConnect:
        case aws::TransportError::kConnectTimeout:
          retryable = true;  // never reached the server
          timeout = r.error == aws::TransportError::kConnectTimeout;
          break;
        case aws::TransportError::kReadTimeout:
        case aws::TransportError::kConnectionLost:
          retryable = safety == Safety::kIdempotent;
          timeout = r.error == aws::TransportError::kReadTimeout;
          if (!retryable) {
            // The request reached the server: it may have run. Sending it again could apply
            // it twice (a condition, an ADD, a new item), so keyhole does not; the person must
            // look.
            error.WithHint(fmt::format(
                "the {} may have been applied: {} received it and no answer came back. keyhole "
                "did not send it again, because this write is not safe to repeat; read the "
                "item (or the table) to see whether it took effect",
                op, im.endpoint.Url()));
          }
          break;
        default:  // DNS, TLS, interrupted: no retry can help
          break;
      }
    } else {
      aws::HttpResponse& resp = r.response;
      const std::string_view crc = resp.Header("x-amz-crc32");
      const bool crc_bad =
          !crc.empty() && std::strtoul(std::string(crc).c_str(), nullptr, 10) !=
                              crc32(0, reinterpret_cast<const Bytef*>(resp.body.data()),
                                    static_cast<uInt>(resp.body.size()));
      if (crc_bad) {
        error = Status::Named("ChecksumError",
                              fmt::format("the response of {} from {} does not match its "
                                          "x-amz-crc32 ({}): it was damaged on the way",
                                          op, im.endpoint.Url(), crc));
        // A damaged answer: a request that must not run twice is sent again only when the
        // status says the table never saw it (503).
        retryable = safety == Safety::kIdempotent || resp.status == 503;
      } else if (!Inflated(&resp)) {  // the CRC-32 is the compressed bytes'
        error = Status::Named("ResponseParserError",
                              fmt::format("the response of {} from {} says Content-Encoding {} but "
                                          "does not inflate",
                                          op, im.endpoint.Url(), resp.Header("Content-Encoding")));
      } else if (resp.status == 200) {
        im.quota.Release(taken);
        return std::move(r.response.body);
      } else {
        error = ErrorFromJson(resp.status, resp.body);
        const std::string name(error.name());
        if (aws::IsThrottlingError(name)) {
          ++im.stats.throttled;
          retryable = true;
        } else if (aws::IsTransientError(resp.status, name)) {
          // A 500 may have been applied, and so may a 502 or 504 (a proxy that forwarded it
          // and gave up waiting); DynamoDB's 503 means it was not taken.
          retryable = safety == Safety::kIdempotent || resp.status == 503;
        } else if ((name == "ExpiredTokenException" || name == "ExpiredToken") && o.credentials &&
                   !refreshed) {
          o.credentials->Invalidate();  // refreshed credentials may be newer than the clock says
          refreshed = true;
          retryable = true;
        }
        if (error.code() == ErrorCode::kInternalServerError && resp.status != 500 &&
            error.message().starts_with("HTTP ")) {
          error = Status::Named(
              "UnexpectedResponse",
              fmt::format("{} (is {} a DynamoDB endpoint?)", error.message(), im.endpoint.Url()),
              resp.status);
        }
        if (error.IsNotFound() && o.region_source.size() && !streams) {
          error.WithHint(fmt::format("keyhole is connected to {} in region {} (from {})",
                                     im.endpoint.HostHeader(), o.region, o.region_source));
        }
        if (std::string hint = im.CredentialHint(name); !hint.empty()) error.WithHint(hint);
        if (error.message().empty() && error.hint().empty()) {
          error.WithHint(EmptyMessageHint(error, op, resp.status, im.endpoint.Url()));
        }
      }
    }
    if (!retryable || attempt >= max_attempts || !im.quota.Acquire(timeout)) {
      if (attempt > 1 && error.code() != ErrorCode::kInterrupted) {
        Status last(error.code(), fmt::format("{} (after {} attempts)", error.message(), attempt));
        if (error.code() == ErrorCode::kOther) {
          last = Status::Named(std::string(error.name()), last.message(), error.http_status());
        }
        if (error.item()) last.WithItem(error.item());
        if (error.cancellation_reasons())
          last.WithCancellationReasons(error.cancellation_reasons());
        if (!error.hint().empty()) last.WithHint(error.hint());
        return last;
      }
      return error;
    }
    taken = timeout ? aws::RetryQuota::kTimeoutCost : aws::RetryQuota::kRetryCost;
    ++im.stats.retries;
    im.Sleep(aws::Backoff(attempt));
    if (o.http.cancel && o.http.cancel->load())
      return Status(ErrorCode::kInterrupted, "Interrupted");
  }
}

template <typename Response, typename Request>
Result<Response> RemoteBackend::ExchangeRead(std::string_view op, const Request& request,
                                             json::Value (*encode)(const Request&),
                                             std::optional<Response> (*fast)(std::string_view),
                                             Result<Response> (*decode)(const json::Value&)) {
  KH_ASSIGN_OR_RETURN(std::string text, CallText(op, encode(request), Safety::kIdempotent));
  if (std::optional<Response> r = fast(text)) return std::move(*r);
  KH_ASSIGN_OR_RETURN(json::Value v, ParseAnswer(op, impl_->endpoint.Url(), text));
  return decode(v);
}

template <typename Response, typename Request>
Result<Response> RemoteBackend::Exchange(std::string_view op, const Request& request,
                                         json::Value (*encode)(const Request&),
                                         Result<Response> (*decode)(const json::Value&),
                                         Safety safety, bool streams) {
  KH_ASSIGN_OR_RETURN(json::Value response, Call(op, encode(request), safety, streams));
  return decode(response);
}

void RemoteBackend::Forget(const std::string& table_name) {
  std::lock_guard<std::mutex> lock(impl_->schemas_mutex);
  impl_->schemas.erase(table_name);
}

namespace {

// Whether a PutItem or DeleteItem may be applied twice: no condition (a second one would fail
// it) and nothing returned (a second one would return the first one's item).
template <typename Request>
bool Repeatable(const Request& r) {
  return !r.expressions.condition && !r.expressions.legacy &&
         !(r.expressions.parsed && r.expressions.parsed->condition) &&
         r.return_values == ReturnValues::kNone;
}

void AddCapacity(std::vector<ConsumedCapacity>* into, const std::vector<ConsumedCapacity>& more) {
  for (const ConsumedCapacity& m : more) {
    auto it = std::find_if(into->begin(), into->end(),
                           [&](const ConsumedCapacity& c) { return c.table_name == m.table_name; });
    if (it == into->end()) {
      into->push_back(m);
      continue;
    }
    const auto add = [](Capacity* a, const Capacity& b) {
      a->capacity_units += b.capacity_units;
      a->read_units += b.read_units;
      a->write_units += b.write_units;
    };
    add(&it->total, m.total);
    add(&it->table, m.table);
    for (const auto& [k, v] : m.global_indexes) add(&it->global_indexes[k], v);
    for (const auto& [k, v] : m.local_indexes) add(&it->local_indexes[k], v);
  }
}

// Rounds of a batch call for its unprocessed items (remote_backend.h).
int UnprocessedRounds(int max_attempts) { return std::max(1, max_attempts) + 7; }

}  // namespace

Result<CreateTableResponse> RemoteBackend::CreateTable(const CreateTableRequest& r) {
  Forget(r.table_name);
  return Exchange("CreateTable", r, &CreateTableRequestToJson, &CreateTableResponseFromJson,
                  Safety::kOnce);
}

Result<DeleteTableResponse> RemoteBackend::DeleteTable(const DeleteTableRequest& r) {
  Forget(r.table_name);
  return Exchange("DeleteTable", r, &DeleteTableRequestToJson, &DeleteTableResponseFromJson,
                  Safety::kOnce);
}

Result<DescribeTableResponse> RemoteBackend::DescribeTable(const DescribeTableRequest& r) {
  Result<json::Value> v = Call("DescribeTable", DescribeTableRequestToJson(r), Safety::kIdempotent);
  if (!v.ok()) {
    if (v.status().IsNotFound()) Forget(r.table_name);
    return v.status();
  }
  return DescribeTableResponseFromJson(*v);
}

Result<ListTablesResponse> RemoteBackend::ListTables(const ListTablesRequest& r) {
  return Exchange("ListTables", r, &ListTablesRequestToJson, &ListTablesResponseFromJson,
                  Safety::kIdempotent);
}

Result<UpdateTableResponse> RemoteBackend::UpdateTable(const UpdateTableRequest& r) {
  Forget(r.table_name);
  // A new GSI of a PROVISIONED table gets the table's throughput: IndexSpec has none of its own.
  auto encode = +[](const UpdateTableRequest& u) { return UpdateTableRequestToJson(u); };
  return Exchange("UpdateTable", r, encode, &UpdateTableResponseFromJson, Safety::kOnce);
}

Result<TagResourceResponse> RemoteBackend::TagResource(const TagResourceRequest& r) {
  return Exchange("TagResource", r, &TagResourceRequestToJson, &TagResourceResponseFromJson,
                  Safety::kIdempotent);
}

Result<UntagResourceResponse> RemoteBackend::UntagResource(const UntagResourceRequest& r) {
  return Exchange("UntagResource", r, &UntagResourceRequestToJson, &UntagResourceResponseFromJson,
                  Safety::kIdempotent);
}

Result<ListTagsOfResourceResponse> RemoteBackend::ListTagsOfResource(
    const ListTagsOfResourceRequest& r) {
  return Exchange("ListTagsOfResource", r, &ListTagsOfResourceRequestToJson,
                  &ListTagsOfResourceResponseFromJson, Safety::kIdempotent);
}

Result<DescribeContinuousBackupsResponse> RemoteBackend::DescribeContinuousBackups(
    const DescribeContinuousBackupsRequest& r) {
  return Exchange("DescribeContinuousBackups", r, &DescribeContinuousBackupsRequestToJson,
                  &DescribeContinuousBackupsResponseFromJson, Safety::kIdempotent);
}

Result<UpdateContinuousBackupsResponse> RemoteBackend::UpdateContinuousBackups(
    const UpdateContinuousBackupsRequest& r) {
  return Exchange("UpdateContinuousBackups", r, &UpdateContinuousBackupsRequestToJson,
                  &UpdateContinuousBackupsResponseFromJson, Safety::kIdempotent);
}

Result<PutItemResponse> RemoteBackend::PutItem(const PutItemRequest& r) {
  return Exchange("PutItem", r, &PutItemRequestToJson, &PutItemResponseFromJson,
                  Repeatable(r) ? Safety::kIdempotent : Safety::kOnce);
}

Result<GetItemResponse> RemoteBackend::GetItem(const GetItemRequest& r) {
  return ExchangeRead("GetItem", r, &GetItemRequestToJson, &GetItemResponseFromText,
                      &GetItemResponseFromJson);
}

Result<DeleteItemResponse> RemoteBackend::DeleteItem(const DeleteItemRequest& r) {
  return Exchange("DeleteItem", r, &DeleteItemRequestToJson, &DeleteItemResponseFromJson,
                  Repeatable(r) ? Safety::kIdempotent : Safety::kOnce);
}

Result<UpdateItemResponse> RemoteBackend::UpdateItem(const UpdateItemRequest& r) {
  return Exchange("UpdateItem", r, &UpdateItemRequestToJson, &UpdateItemResponseFromJson,
                  Safety::kOnce);
}

Result<BatchWriteItemResponse> RemoteBackend::BatchWriteItem(const BatchWriteItemRequest& r) {
  KH_ASSIGN_OR_RETURN(BatchWriteItemResponse out,
                      Exchange("BatchWriteItem", r, &BatchWriteItemRequestToJson,
                               &BatchWriteItemResponseFromJson, Safety::kIdempotent));
  // Unprocessed items (throttled inside the batch) go again, with backoff.
  for (int round = 1;
       !out.unprocessed_items.empty() && round < UnprocessedRounds(options().max_attempts);
       ++round) {
    ++impl_->stats.unprocessed_rounds;
    impl_->Sleep(aws::Backoff(round));
    if (options().http.cancel && options().http.cancel->load()) break;
    BatchWriteItemRequest again = r;
    again.request_items = std::move(out.unprocessed_items);
    KH_ASSIGN_OR_RETURN(BatchWriteItemResponse next,
                        Exchange("BatchWriteItem", again, &BatchWriteItemRequestToJson,
                                 &BatchWriteItemResponseFromJson, Safety::kIdempotent));
    out.unprocessed_items = std::move(next.unprocessed_items);
    AddCapacity(&out.consumed_capacity, next.consumed_capacity);
    for (auto& [table, metrics] : next.item_collection_metrics) {
      auto& into = out.item_collection_metrics[table];
      into.insert(into.end(), metrics.begin(), metrics.end());
    }
  }
  return out;
}

Result<BatchGetItemResponse> RemoteBackend::BatchGetItem(const BatchGetItemRequest& r) {
  KH_ASSIGN_OR_RETURN(BatchGetItemResponse out,
                      Exchange("BatchGetItem", r, &BatchGetItemRequestToJson,
                               &BatchGetItemResponseFromJson, Safety::kIdempotent));
  for (int round = 1;
       !out.unprocessed_keys.empty() && round < UnprocessedRounds(options().max_attempts);
       ++round) {
    ++impl_->stats.unprocessed_rounds;
    impl_->Sleep(aws::Backoff(round));
    if (options().http.cancel && options().http.cancel->load()) break;
    BatchGetItemRequest again = r;
    again.request_items = std::move(out.unprocessed_keys);
    KH_ASSIGN_OR_RETURN(BatchGetItemResponse next,
                        Exchange("BatchGetItem", again, &BatchGetItemRequestToJson,
                                 &BatchGetItemResponseFromJson, Safety::kIdempotent));
    out.unprocessed_keys = std::move(next.unprocessed_keys);
    for (auto& [table, items] : next.responses) {
      auto& into = out.responses[table];
      for (Item& item : items) into.push_back(std::move(item));
    }
    AddCapacity(&out.consumed_capacity, next.consumed_capacity);
  }
  return out;
}

Result<TransactWriteItemsResponse> RemoteBackend::TransactWriteItems(
    const TransactWriteItemsRequest& r) {
  // With a ClientRequestToken a retry of a transaction that was applied is answered without
  // applying it again, so every transaction carries one.
  if (r.client_request_token) {
    return Exchange("TransactWriteItems", r, &TransactWriteItemsRequestToJson,
                    &TransactWriteItemsResponseFromJson, Safety::kIdempotent);
  }
  TransactWriteItemsRequest with_token = r;
  with_token.client_request_token = Uuid();
  return Exchange("TransactWriteItems", with_token, &TransactWriteItemsRequestToJson,
                  &TransactWriteItemsResponseFromJson, Safety::kIdempotent);
}

Result<TransactGetItemsResponse> RemoteBackend::TransactGetItems(const TransactGetItemsRequest& r) {
  return Exchange("TransactGetItems", r, &TransactGetItemsRequestToJson,
                  &TransactGetItemsResponseFromJson, Safety::kIdempotent);
}

Result<QueryResponse> RemoteBackend::Query(const QueryRequest& r) {
  return ExchangeRead("Query", r, &QueryRequestToJson, &ReadResponseFromText,
                      &QueryResponseFromJson);
}

Result<ScanResponse> RemoteBackend::Scan(const ScanRequest& r) {
  return ExchangeRead("Scan", r, &ScanRequestToJson, &ReadResponseFromText, &ScanResponseFromJson);
}

Result<SearchVectorsResponse> RemoteBackend::SearchVectors(const SearchVectorsRequest& r) {
  return Exchange("SearchVectors", r, &SearchVectorsRequestToJson, &SearchVectorsResponseFromJson,
                  Safety::kIdempotent);
}

Result<UpdateTimeToLiveResponse> RemoteBackend::UpdateTimeToLive(const UpdateTimeToLiveRequest& r) {
  Forget(r.table_name);
  return Exchange("UpdateTimeToLive", r, &UpdateTimeToLiveRequestToJson,
                  &UpdateTimeToLiveResponseFromJson, Safety::kIdempotent);
}

Result<DescribeTimeToLiveResponse> RemoteBackend::DescribeTimeToLive(
    const DescribeTimeToLiveRequest& r) {
  return Exchange("DescribeTimeToLive", r, &DescribeTimeToLiveRequestToJson,
                  &DescribeTimeToLiveResponseFromJson, Safety::kIdempotent);
}

Result<ListStreamsResponse> RemoteBackend::ListStreams(const ListStreamsRequest& r) {
  return Exchange("ListStreams", r, &ListStreamsRequestToJson, &ListStreamsResponseFromJson,
                  Safety::kIdempotent, true);
}

Result<DescribeStreamResponse> RemoteBackend::DescribeStream(const DescribeStreamRequest& r) {
  return Exchange("DescribeStream", r, &DescribeStreamRequestToJson,
                  &DescribeStreamResponseFromJson, Safety::kIdempotent, true);
}

Result<GetShardIteratorResponse> RemoteBackend::GetShardIterator(const GetShardIteratorRequest& r) {
  return Exchange("GetShardIterator", r, &GetShardIteratorRequestToJson,
                  &GetShardIteratorResponseFromJson, Safety::kIdempotent, true);
}

Result<GetRecordsResponse> RemoteBackend::GetRecords(const GetRecordsRequest& r) {
  return Exchange("GetRecords", r, &GetRecordsRequestToJson, &GetRecordsResponseFromJson,
                  Safety::kIdempotent, true);
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
