// keyhole serve in process: an HttpServer on an ephemeral loopback port in front of a fresh
// database, talked to over real HTTP (cpp-httplib's client). Routing and DynamoDB's check
// order, every error shape, the CRC-32 and request id headers, the request size limit,
// signatures, keep-alive, concurrent clients and hostile input.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <ctime>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "api/service.h"
#include "core/json.h"
#include "server/dynamodb_server.h"
#include "server/http.h"
#include "server/sigv4_verify.h"
#include "server/ttl_sweeper.h"
#include "storage_test_util.h"

namespace keyhole::server {
namespace {

constexpr char kTarget[] = "DynamoDB_20120810.";

class ServerHttpTest : public ::testing::Test {
 protected:
  void Start(ServeOptions serve = {}, HttpOptions http = {}) {
    // A server may answer and close while a client still writes (413): an error, not a signal.
    ::signal(SIGPIPE, SIG_IGN);
    service_ = std::make_unique<api::Service>(*db_);
    protocol_ = std::make_unique<DynamoDbServer>(*service_, serve);
    http.host = "127.0.0.1";
    http.port = 0;
    if (!http.may_block) http.may_block = &DynamoDbServer::MayBlock;  // as keyhole serve
    http_ = std::make_unique<HttpServer>(
        http, [this](const HttpRequest& r) { return protocol_->Handle(r); });
    Result<int> port = http_->Bind();
    ASSERT_TRUE(port.ok()) << port.status().ToString();
    port_ = *port;
    thread_ = std::thread([this] { http_->Serve(); });
    client_ = std::make_unique<httplib::Client>("127.0.0.1", port_);
    client_->set_read_timeout(10, 0);
  }
  void TearDown() override {
    if (http_) http_->Stop();
    if (thread_.joinable()) thread_.join();
  }

  // POSTs `body` to the operation `op` ("" for no target header).
  httplib::Result Post(const std::string& op, const std::string& body,
                       const std::string& content_type = "application/x-amz-json-1.0",
                       httplib::Headers extra = {}) {
    httplib::Headers headers = std::move(extra);
    if (!op.empty())
      headers.emplace("X-Amz-Target",
                      op.find('.') == std::string::npos ? std::string(kTarget) + op : op);
    return client_->Post("/", headers, body, content_type.c_str());
  }
  // POSTs `body` to the operation `op` signed as an SDK signs it, for us-east-1 at epoch `at`
  // with `key` and `secret`: host, x-amz-date, x-amz-target and the `extra` headers (each given
  // in lower case) signed, Authorization's parts separated by `separator`.
  httplib::Result SignedPost(const std::string& op, const std::string& body, const std::string& key,
                             const std::string& secret, double at,
                             const httplib::Headers& extra = {},
                             const std::string& separator = ", ") {
    std::time_t t = static_cast<std::time_t>(at);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char amz[32], date[16];
    std::strftime(amz, sizeof amz, "%Y%m%dT%H%M%SZ", &tm);
    std::strftime(date, sizeof date, "%Y%m%d", &tm);
    HttpRequest r;
    r.method = "POST";
    r.path = "/";
    r.body = body;
    r.headers = {{"Host", "127.0.0.1:" + std::to_string(port_)},
                 {"X-Amz-Date", amz},
                 {"X-Amz-Target", std::string(kTarget) + op}};
    std::vector<std::string> names = {"host", "x-amz-date", "x-amz-target"};
    httplib::Headers headers = extra;
    for (const auto& [k, v] : extra) {
      r.headers.emplace_back(k, v);
      names.push_back(k);
    }
    std::sort(names.begin(), names.end());
    std::string signed_headers;
    for (const std::string& n : names) signed_headers += (signed_headers.empty() ? "" : ";") + n;
    const std::string signature = SignRequest(r, secret, date, "us-east-1", amz, signed_headers);
    headers.emplace("X-Amz-Date", amz);
    headers.emplace("Authorization", "AWS4-HMAC-SHA256 Credential=" + key + "/" + date +
                                         "/us-east-1/dynamodb/aws4_request" + separator +
                                         "SignedHeaders=" + signed_headers + separator +
                                         "Signature=" + signature);
    return Post(op, body, "application/x-amz-json-1.0", headers);
  }
  // The JSON body of a response.
  static json::Value Json(const httplib::Result& r) {
    Result<json::Value> v = json::Parse(r->body);
    EXPECT_TRUE(v.ok()) << r->body;
    return v.ok() ? *v : json::Value::MakeObject();
  }
  static std::string Type(const httplib::Result& r) {
    json::Value v = Json(r);
    const json::Value* t = v.Find("__type");
    return t && t->IsString() ? t->str() : "";
  }
  void CreateTable() {
    auto r =
        Post("CreateTable",
             R"j({"TableName": "Things", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
                      "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
                      "BillingMode": "PAY_PER_REQUEST"})j");
    ASSERT_TRUE(r);
    ASSERT_EQ(r->status, 200) << r->body;
  }

  // The database's clock, which a test may move (TTL): the system clock's time at the start.
  std::atomic<double> now_{static_cast<double>(std::time(nullptr))};
  testing::TempDb db_{[this] { return now_.load(); }};
  std::unique_ptr<api::Service> service_;
  std::unique_ptr<DynamoDbServer> protocol_;
  std::unique_ptr<HttpServer> http_;
  std::thread thread_;
  std::unique_ptr<httplib::Client> client_;
  int port_ = 0;
};

TEST_F(ServerHttpTest, ChecksInDynamoDbsOrder) {
  Start();
  auto health = client_->Get("/");
  ASSERT_TRUE(health);
  EXPECT_EQ(health->status, 200);
  EXPECT_EQ(health->body, "healthy: 127.0.0.1:" + std::to_string(port_) + " ");
  auto put = client_->Put("/", "{}", "application/x-amz-json-1.0");
  ASSERT_TRUE(put);
  EXPECT_EQ(put->status, 404);
  EXPECT_EQ(put->body, "<UnknownOperationException/>\n");
  EXPECT_FALSE(put->has_header("Content-Type"));  // dynalite's assert404, run against AWS
  auto text = Post("ListTables", "{}", "text/plain");
  EXPECT_EQ(text->status, 404);
  auto not_json = Post("ListTables", "{nope");
  EXPECT_EQ(not_json->status, 400);
  EXPECT_EQ(Type(not_json), "com.amazon.coral.service#SerializationException");
  auto no_target = Post("", "{}");
  EXPECT_EQ(no_target->status, 400);
  EXPECT_EQ(Type(no_target), "com.amazon.coral.service#UnknownOperationException");
  EXPECT_EQ(Type(Post("NoSuchOperation", "{}")),
            "com.amazon.coral.service#UnknownOperationException");
  // The Streams operations answer under their own target prefix only.
  EXPECT_EQ(Type(Post("ListStreams", "{}")), "com.amazon.coral.service#UnknownOperationException");
  EXPECT_EQ(Post("DynamoDBStreams_20120810.ListStreams", "{}")->status, 200);
  auto empty = Post("ListTables", "");
  EXPECT_EQ(empty->status, 400);
  EXPECT_EQ(Type(empty), "com.amazon.coral.service#SerializationException");
  // application/json is accepted, and answered in kind; so is a request with no Content-Type
  // (dynalite's test/connection.js, run against AWS).
  auto plain_json = Post("ListTables", "{}", "application/json");
  EXPECT_EQ(plain_json->status, 200);
  EXPECT_EQ(plain_json->get_header_value("Content-Type"), "application/json");
  auto untyped =
      client_->Post("/", {{"X-Amz-Target", std::string(kTarget) + "ListTables"}}, "", "");
  ASSERT_TRUE(untyped);
  EXPECT_EQ(Type(untyped), "com.amazon.coral.service#SerializationException");
  EXPECT_EQ(untyped->get_header_value("Content-Type"), "application/json");
  EXPECT_EQ(Post("ListTables", "{}")->get_header_value("Content-Type"),
            "application/x-amz-json-1.0");
}

TEST_F(ServerHttpTest, ResponsesCarryRequestIdAndCrc32) {
  Start();
  CreateTable();
  auto r =
      Post("PutItem", R"j({"TableName": "Things", "Item": {"pk": {"S": "a"}, "n": {"N": "1"}}})j");
  ASSERT_EQ(r->status, 200) << r->body;
  EXPECT_EQ(r->body, "{}");
  auto get = Post("GetItem", R"j({"TableName": "Things", "Key": {"pk": {"S": "a"}}})j");
  ASSERT_EQ(get->status, 200);
  EXPECT_EQ(get->body, R"j({"Item":{"n":{"N":"1"},"pk":{"S":"a"}}})j");
  EXPECT_EQ(get->get_header_value("Content-Type"), "application/x-amz-json-1.0");
  const std::string id = get->get_header_value("x-amzn-RequestId");
  EXPECT_EQ(id.size(), 52u);
  EXPECT_EQ(id.find_first_not_of("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"), std::string::npos);
  uLong crc = crc32(0L, Z_NULL, 0);
  crc = crc32(crc, reinterpret_cast<const Bytef*>(get->body.data()), get->body.size());
  EXPECT_EQ(get->get_header_value("x-amz-crc32"), std::to_string(crc));
  // Errors carry them too.
  auto missing = Post("GetItem", R"j({"TableName": "Nope", "Key": {"pk": {"S": "a"}}})j");
  EXPECT_EQ(missing->get_header_value("x-amz-crc32"), Crc32Header(missing->body));
  EXPECT_EQ(missing->get_header_value("x-amzn-RequestId").size(), 52u);
}

// Members the API does not define are skipped on the wire, as DynamoDB skips them (issue 41
// §8; dynalite's validations, recorded against DynamoDB, drop them), nested ones too; the shell's
// API form refuses them (api_json_test).
TEST_F(ServerHttpTest, UnknownMembersAreIgnored) {
  Start();
  CreateTable();
  auto put = Post("PutItem", R"j({"TableName": "Things", "Item": {"pk": {"S": "a"}},
      "Foo": 1, "ReturnConsumedCapacity": "TOTAL"})j");
  ASSERT_EQ(put->status, 200) << put->body;
  EXPECT_EQ(
      put->body,
      R"j({"ConsumedCapacity":{"TableName":"Things","CapacityUnits":1.0,"WriteCapacityUnits":1.0}})j");
  auto tables = Post("ListTables", R"j({"Limit": 5, "Bar": {"x": true}})j");
  ASSERT_EQ(tables->status, 200) << tables->body;
  EXPECT_EQ(tables->body, R"j({"TableNames":["Things"]})j");
  // A defined member of the wrong type is still refused.
  EXPECT_EQ(Post("ListTables", R"j({"Limit": "5", "Bar": 1})j")->status, 400);
}

TEST_F(ServerHttpTest, ErrorShapes) {
  Start();
  CreateTable();
  auto missing = Post("DescribeTable", R"j({"TableName": "Nope"})j");
  EXPECT_EQ(missing->status, 400);
  EXPECT_EQ(missing->body,
            R"j({"__type":"com.amazonaws.dynamodb.v20120810#ResourceNotFoundException",)j"
            R"j("message":"Requested resource not found: Table: Nope not found"})j");
  auto invalid = Post("GetItem", R"j({"TableName": "Things", "Key": {"pk": {"N": "1"}}})j");
  EXPECT_EQ(invalid->status, 400);
  EXPECT_EQ(Type(invalid), "com.amazon.coral.validate#ValidationException");
  EXPECT_EQ(Json(invalid).Find("message")->str(),
            "The provided key element does not match the schema");
  auto wrong_type = Post("GetItem", R"j({"TableName": 5, "Key": {}})j");
  EXPECT_EQ(wrong_type->body, R"j({"__type":"com.amazon.coral.service#SerializationException",)j"
                              R"j("Message":"NUMBER_VALUE cannot be converted to String"})j");
  // A failed condition with ALL_OLD carries the item.
  Post("PutItem", R"j({"TableName": "Things", "Item": {"pk": {"S": "a"}, "n": {"N": "1"}}})j");
  auto failed = Post("PutItem",
                     R"j({"TableName": "Things", "Item": {"pk": {"S": "a"}},
                         "ConditionExpression": "attribute_not_exists(pk)",
                         "ReturnValuesOnConditionCheckFailure": "ALL_OLD"})j");
  EXPECT_EQ(failed->status, 400);
  EXPECT_EQ(
      failed->body,
      R"j({"__type":"com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException",)j"
      R"j("message":"The conditional request failed","Item":{"n":{"N":"1"},"pk":{"S":"a"}}})j");
  // A cancelled transaction carries its reasons, in order, with "Message".
  auto cancelled = Post("TransactWriteItems", R"j({"TransactItems": [
      {"Put": {"TableName": "Things", "Item": {"pk": {"S": "b"}}}},
      {"ConditionCheck": {"TableName": "Things", "Key": {"pk": {"S": "a"}},
                          "ConditionExpression": "attribute_not_exists(pk)"}}]})j");
  EXPECT_EQ(cancelled->status, 400);
  json::Value body = Json(cancelled);
  EXPECT_EQ(body.Find("__type")->str(),
            "com.amazonaws.dynamodb.v20120810#TransactionCanceledException");
  EXPECT_EQ(body.Find("Message")->str(),
            "Transaction cancelled, please refer cancellation reasons for specific reasons [None, "
            "ConditionalCheckFailed]");
  ASSERT_TRUE(body.Find("CancellationReasons"));
  EXPECT_EQ(
      json::Write(*body.Find("CancellationReasons")),
      R"j([{"Code":"None"},{"Code":"ConditionalCheckFailed","Message":"The conditional request failed"}])j");
  // Nothing of the cancelled transaction was written.
  EXPECT_EQ(Post("GetItem", R"j({"TableName": "Things", "Key": {"pk": {"S": "b"}}})j")->body, "{}");
}

// Sends `request` on a new connection and returns everything the server sends back until it
// closes the connection or `seconds` pass.
// A new connection to the server on 127.0.0.1:`port`; -1 when it cannot be made.
int ConnectLoopback(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

std::string RawExchange(int port, const std::string& request, int seconds = 5) {
  const int fd = ConnectLoopback(port);
  if (fd < 0) return "";
  timeval timeout{seconds, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  for (size_t sent = 0; sent < request.size();) {
    ssize_t n = ::send(fd, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) break;  // the server may answer and close before reading it all
    sent += static_cast<size_t>(n);
  }
  std::string response;
  char buffer[4096];
  for (ssize_t n; (n = ::recv(fd, buffer, sizeof buffer, 0)) > 0;) response.append(buffer, n);
  ::close(fd);
  return response;
}

TEST_F(ServerHttpTest, BodiesPastTheLimitAre413) {
  HttpOptions http;
  http.max_body_bytes = 1 << 20;
  Start({}, http);
  // A Content-Length past the limit is answered before the body is read.
  const std::string head =
      "POST / HTTP/1.1\r\nHost: x\r\nX-Amz-Target: DynamoDB_20120810.ListTables\r\n"
      "Content-Type: application/x-amz-json-1.0\r\n";
  std::string big = RawExchange(port_, head + "Content-Length: 2097152\r\n\r\n{}");
  EXPECT_TRUE(big.starts_with("HTTP/1.1 413")) << big;
  // A chunked body past the limit is dropped as it arrives and answered 413 at its end.
  std::string chunked = head + "Transfer-Encoding: chunked\r\n\r\n";
  const std::string chunk(64 * 1024, ' ');
  for (int i = 0; i < 20; ++i) chunked += "10000\r\n" + chunk + "\r\n";
  chunked += "0\r\n\r\n";
  std::string answer = RawExchange(port_, chunked);
  EXPECT_TRUE(answer.starts_with("HTTP/1.1 413")) << answer.substr(0, 200);
  // Within the limit, chunked works; and the server keeps serving.
  std::string small = RawExchange(
      port_, head + "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n2\r\n{}\r\n0\r\n\r\n");
  EXPECT_TRUE(small.starts_with("HTTP/1.1 200")) << small;
  EXPECT_EQ(Post("ListTables", "{}")->status, 200);
}

// Sends `head` on a new connection, then `dribble` a byte every `gap`, reading meanwhile; stops
// when the server has answered and closed (or the bytes are all sent and 5 s more have passed).
// Returns the answer and how many bytes of `dribble` were sent.
std::pair<std::string, size_t> Dribble(int port, const std::string& head,
                                       const std::string& dribble, std::chrono::milliseconds gap) {
  const int fd = ConnectLoopback(port);
  if (fd < 0) return {"", 0};
  ::send(fd, head.data(), head.size(), MSG_NOSIGNAL);
  std::string response;
  char buffer[4096];
  size_t sent = 0;
  bool closed = false;
  while (!closed && sent < dribble.size()) {
    std::this_thread::sleep_for(gap);
    if (::send(fd, dribble.data() + sent, 1, MSG_NOSIGNAL) == 1) ++sent;
    for (ssize_t n; (n = ::recv(fd, buffer, sizeof buffer, MSG_DONTWAIT)) != -1;) {
      if (n == 0) {
        closed = true;
        break;
      }
      response.append(buffer, n);
    }
  }
  timeval timeout{5, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  for (ssize_t n; !closed && (n = ::recv(fd, buffer, sizeof buffer, 0)) > 0;) {
    response.append(buffer, n);
  }
  ::close(fd);
  return {response, sent};
}

// Reads from `fd` until the server closes it or `seconds` pass; what came.
std::string ReadUntilClosed(int fd, int seconds) {
  timeval timeout{seconds, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  std::string response;
  char buffer[4096];
  for (ssize_t n; (n = ::recv(fd, buffer, sizeof buffer, 0)) > 0;) response.append(buffer, n);
  return response;
}

bool Is408(const std::string& answer) {
  return answer.starts_with("HTTP/1.1 408") &&
         answer.find(R"("__type":"com.amazon.coral.service#RequestTimeoutException")") !=
             std::string::npos;
}

// A request must arrive whole within request_timeout_seconds of its first byte, however it
// comes: headers or a body dribbled in, a request line dribbled in, a partial request gone
// silent. Each is answered 408 (RequestTimeoutException, which SDKs retry) and closed about
// when the limit passes, not at the idle timeout; the server serves others meanwhile.
TEST_F(ServerHttpTest, RequestsDribbledInAreCutAtTheTimeLimit) {
  HttpOptions http;
  http.request_timeout_seconds = 1;
  http.idle_timeout_seconds = 5;
  Start({}, http);
  const std::string head =
      "POST / HTTP/1.1\r\nHost: x\r\nX-Amz-Target: DynamoDB_20120810.ListTables\r\n"
      "Content-Type: application/x-amz-json-1.0\r\n";
  // The body: 100 bytes at 5 a second would take 20 s.
  std::string body = "{" + std::string(98, ' ') + "}";
  auto [answer, sent] =
      Dribble(port_, head + "Content-Length: 100\r\n\r\n", body, std::chrono::milliseconds(200));
  EXPECT_TRUE(Is408(answer)) << answer;
  EXPECT_LT(sent, 12u);  // about a second in, not after the whole body
  EXPECT_EQ(Post("ListTables", "{}")->status, 200);
  // The headers: 200 bytes of them at 10 a second, never whole in time.
  std::tie(answer, sent) = Dribble(port_, head, "X-Slow: " + std::string(200, 'a') + "\r\n\r\n",
                                   std::chrono::milliseconds(100));
  EXPECT_TRUE(Is408(answer)) << answer;
  EXPECT_LT(sent, 20u);
  // The request line itself.
  std::tie(answer, sent) =
      Dribble(port_, "", "POST /" + std::string(100, 'a') + " HTTP/1.1\r\n\r\n",
              std::chrono::milliseconds(100));
  EXPECT_TRUE(Is408(answer)) << answer;
  EXPECT_LT(sent, 20u);
  // A partial request gone silent: answered at the time limit, long before the idle timeout.
  for (const std::string partial : std::vector<std::string>{"PO", "POST / HTTP/1.1\r\nHo",
                                                            head + "Content-Length: 9\r\n\r\n{"}) {
    const int fd = ConnectLoopback(port_);
    ASSERT_GE(fd, 0);
    const auto at = std::chrono::steady_clock::now();
    ::send(fd, partial.data(), partial.size(), MSG_NOSIGNAL);
    answer = ReadUntilClosed(fd, 10);
    const double waited =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - at).count();
    ::close(fd);
    EXPECT_TRUE(Is408(answer)) << partial << ": " << answer;
    EXPECT_GE(waited, 0.9) << partial;
    EXPECT_LT(waited, 3.0) << partial;  // the idle timeout is 5 s
  }
  // In time, the same request is answered.
  std::tie(answer, sent) = Dribble(port_, head + "Connection: close\r\nContent-Length: 2\r\n\r\n",
                                   "{}", std::chrono::milliseconds(100));
  EXPECT_TRUE(answer.starts_with("HTTP/1.1 200")) << answer;
  EXPECT_GE(http_->cuts().late, 6u);
}

// The time limit is a request's: a connection idle between requests, or one that has sent
// nothing yet, is left to the idle timeout however long past the request timeout it waits.
TEST_F(ServerHttpTest, IdleConnectionsAreNotCutAtTheRequestTimeout) {
  HttpOptions http;
  http.request_timeout_seconds = 1;
  http.idle_timeout_seconds = 10;
  Start({}, http);
  const std::string request =
      "POST / HTTP/1.1\r\nHost: x\r\nX-Amz-Target: DynamoDB_20120810.ListTables\r\n"
      "Content-Type: application/x-amz-json-1.0\r\nContent-Length: 2\r\n\r\n{}";
  const int fd = ConnectLoopback(port_);  // sends nothing for 2.5 s
  ASSERT_GE(fd, 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  char buffer[4096];
  for (int round = 0; round < 2; ++round) {
    ASSERT_EQ(::send(fd, request.data(), request.size(), MSG_NOSIGNAL),
              static_cast<ssize_t>(request.size()));
    timeval timeout{5, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    std::string answer;
    while (answer.find("{\"TableNames\"") == std::string::npos) {
      const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
      if (n <= 0) break;
      answer.append(buffer, n);
    }
    EXPECT_TRUE(answer.starts_with("HTTP/1.1 200")) << round << ": " << answer;
    std::this_thread::sleep_for(std::chrono::milliseconds(2500));  // idle, keep-alive
  }
  ::close(fd);
  EXPECT_EQ(http_->cuts().late, 0u);
}

// At the connection limit, slow clients do not keep a normal one out: the oldest connections
// holding incomplete requests are closed (and the log says so), and the normal request is
// answered.
TEST_F(ServerHttpTest, AtTheConnectionLimitTheOldestIncompleteRequestsMakeRoom) {
  HttpOptions http;
  http.request_timeout_seconds = 60;
  http.max_connections = 20;
  std::mutex log_mutex;
  std::vector<std::string> log;
  http.log = [&](std::string_view line) {
    std::lock_guard<std::mutex> lock(log_mutex);
    log.emplace_back(line);
  };
  Start({}, http);
  std::vector<int> slow;
  for (int i = 0; i < 25; ++i) {
    const int fd = ConnectLoopback(port_);  // past 20 they wait to be accepted
    ASSERT_GE(fd, 0);
    ::send(fd, "POST / HTTP/1.1\r\nX-Slow: a", 27, MSG_NOSIGNAL);
    slow.push_back(fd);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(1200));
  const auto at = std::chrono::steady_clock::now();
  auto r = Post("ListTables", "{}");
  const double waited =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - at).count();
  ASSERT_TRUE(r) << httplib::to_string(r.error());
  EXPECT_EQ(r->status, 200);
  EXPECT_LT(waited, 5.0);
  EXPECT_GE(http_->cuts().for_room, 1u);
  // The closed ones were answered 408.
  int answered = 0;
  for (int fd : slow) {
    timeval timeout{0, 1000};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    char buffer[512];
    const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
    if (n > 0 && std::string_view(buffer, n).starts_with("HTTP/1.1 408")) ++answered;
    ::close(fd);
  }
  EXPECT_GE(answered, 1);
  std::this_thread::sleep_for(std::chrono::milliseconds(1200));  // the log's line is due
  std::lock_guard<std::mutex> lock(log_mutex);
  bool said = false;
  for (const std::string& line : log)
    said |= line.starts_with("at the connection limit (20): closed ");
  EXPECT_TRUE(said) << ::testing::PrintToString(log);
}

TEST_F(ServerHttpTest, SignaturesAreVerifiedWhenRequired) {
  ServeOptions serve;
  serve.require_signature = true;
  serve.credentials["AKIDEXAMPLE"] = "secret";
  const double now = 1'700'000'000;
  serve.clock = [now] { return now; };
  Start(serve);
  auto unsigned_request = Post("ListTables", "{}");
  EXPECT_EQ(unsigned_request->status, 400);
  EXPECT_EQ(unsigned_request->body,
            R"j({"__type":"com.amazon.coral.service#MissingAuthenticationTokenException",)j"
            R"j("message":"Request is missing Authentication Token"})j");
  // Signs as an SDK does: host, x-amz-date and x-amz-target.
  auto signed_post = [&](const std::string& key, const std::string& secret, double at) {
    return SignedPost("ListTables", "{}", key, secret, at);
  };
  EXPECT_EQ(signed_post("AKIDEXAMPLE", "secret", now)->status, 200);
  auto wrong = signed_post("AKIDEXAMPLE", "other", now);
  EXPECT_EQ(Type(wrong), "com.amazon.coral.service#InvalidSignatureException");
  auto unknown = signed_post("AKIDOTHER", "secret", now);
  EXPECT_EQ(unknown->body,
            R"j({"__type":"com.amazon.coral.service#UnrecognizedClientException",)j"
            R"j("message":"The security token included in the request is invalid."})j");
  auto old = signed_post("AKIDEXAMPLE", "secret", now - 16 * 60);
  EXPECT_EQ(Json(old).Find("message")->str(),
            "Signature expired: 20231114T215720Z is now earlier than 20231114T215820Z "
            "(20231114T221320Z - 15 min.)");
  EXPECT_EQ(signed_post("AKIDEXAMPLE", "secret", now - 14 * 60)->status, 200);
}

// DynamoDB's order of signature checks and its texts (dynalite's index.js and
// test/connection.js, run against AWS; Alternator's test_authorization.py): the date before the
// credential's scope, every missing part at once, the scope's wrong parts at once.
TEST_F(ServerHttpTest, SignatureChecksGoInDynamoDbsOrder) {
  ServeOptions serve;
  serve.require_signature = true;
  serve.credentials["AKIDEXAMPLE"] = "secret";
  const double now = 1'700'000'000;  // 20231114T221320Z
  serve.clock = [now] { return now; };
  Start(serve);
  const auto answer = [&](const httplib::Headers& headers, const std::string& path = "/") {
    httplib::Headers h = headers;
    h.emplace("X-Amz-Target", std::string(kTarget) + "ListTables");
    auto r = client_->Post(path, h, "{}", "application/x-amz-json-1.0");
    EXPECT_TRUE(r);
    if (!r) return std::string();
    const json::Value body = Json(r);
    const json::Value* m = body.Find("message");
    return body.Find("__type")->str().substr(std::string("com.amazon.coral.service#").size()) +
           ": " + (m ? m->str() : "(no message)");
  };
  // Alternator's test_expired_signature: a malformed scope, an unknown key and an old date.
  EXPECT_EQ(answer({{"X-Amz-Date", "20170101T010101Z"},
                    {"Authorization",
                     "AWS4-HMAC-SHA256 Credential=cassandra/2/3/4/aws4_request "
                     "SignedHeaders=x-amz-date;host Signature=123"}}),
            "InvalidSignatureException: Signature expired: 20170101T010101Z is now earlier than "
            "20231114T215820Z (20231114T221320Z - 15 min.)");
  EXPECT_EQ(answer({{"X-Amz-Date", "30200101T010101Z"},
                    {"Authorization",
                     "AWS4-HMAC-SHA256 Credential=cassandra/2/3/4/aws4_request "
                     "SignedHeaders=x-amz-date;host Signature=123"}}),
            "InvalidSignatureException: Signature not yet current: 30200101T010101Z is still "
            "later than 20231114T222820Z (20231114T221320Z + 15 min.)");
  // Every missing part at once, before the algorithm.
  EXPECT_EQ(answer({{"Authorization", "AWS4-"}}),
            "IncompleteSignatureException: Authorization header requires 'Credential' "
            "parameter. Authorization header requires 'Signature' parameter. Authorization "
            "header requires 'SignedHeaders' parameter. Authorization header requires existence "
            "of either a 'X-Amz-Date' or a 'Date' header. Authorization=AWS4-");
  EXPECT_EQ(answer({{"X-Amz-Date", "201"},
                    {"Authorization",
                     "AWS4-HMAC-SHA256 Credential=a, "
                     "SignedHeaders=host, Signature=b"}}),
            "IncompleteSignatureException: Date must be in ISO-8601 'basic format'. Got '201'. "
            "See http://en.wikipedia.org/wiki/ISO_8601");
  const std::string date = "20231114T221320Z";
  EXPECT_EQ(answer({{"X-Amz-Date", date},
                    {"Authorization",
                     "AWS4-HMAC-SHA256 Credential=a/b/c/d/e, SignedHeaders=x-amz-date, "
                     "Signature=b"}}),
            "InvalidSignatureException: 'Host' must be a 'SignedHeader' in the AWS "
            "Authorization.");
  EXPECT_EQ(answer({{"X-Amz-Date", date},
                    {"Authorization",
                     "AWS4-HMAC-SHA25 Credential=a/b/c/d/e, SignedHeaders=host, Signature=b"}}),
            "IncompleteSignatureException: Unsupported AWS 'algorithm': 'AWS4-HMAC-SHA25' (only "
            "AWS4-HMAC-SHA256 for now). ");
  EXPECT_EQ(answer({{"X-Amz-Date", date},
                    {"Authorization",
                     "AWS4-HMAC-SHA256 Credential=a/b/c/d/, SignedHeaders=host, Signature=b"}}),
            "IncompleteSignatureException: Credential must have exactly 5 slash-delimited "
            "elements, e.g. keyid/date/region/service/term, got 'a/b/c/d'");
  EXPECT_EQ(answer({{"X-Amz-Date", date},
                    {"Authorization",
                     "AWS4-HMAC-SHA256 Credential=a/b/1/d/e, SignedHeaders=host, Signature=b"}}),
            "InvalidSignatureException: Credential should be scoped to a valid region, not '1'. "
            "Credential should be scoped to correct service: 'dynamodb'. Credential should be "
            "scoped with a valid terminator: 'aws4_request', not 'e'. Date in Credential scope "
            "does not match YYYYMMDD from ISO-8601 version of date from HTTP: 'b' != '20231114', "
            "from '20231114T221320Z'.");
  EXPECT_EQ(answer({{"X-Amz-Date", date},
                    {"Authorization",
                     "AWS4-HMAC-SHA256 Credential=nobody/20231114/us-east-1/dynamodb/aws4_request, "
                     "SignedHeaders=host, Signature=b"}}),
            "UnrecognizedClientException: The security token included in the request is "
            "invalid.");
  EXPECT_EQ(answer({{"Authorization", "Basic abc"}}),
            "MissingAuthenticationTokenException: Request is missing Authentication Token");
  // The query string's parameters (a presigned URL).
  EXPECT_EQ(answer({{"Authorization", "AWS4-HMAC-SHA256 Credential=a"}}, "/?X-Amz-Algorithm="),
            "InvalidSignatureException: Found both 'X-Amz-Algorithm' as a query-string param and "
            "'Authorization' as HTTP header.");
  EXPECT_EQ(answer({}, "/?X-Amz-Algorithm"),
            "IncompleteSignatureException: AWS query-string parameters must include "
            "'X-Amz-Algorithm'. AWS query-string parameters must include 'X-Amz-Credential'. AWS "
            "query-string parameters must include 'X-Amz-Signature'. AWS query-string parameters "
            "must include 'X-Amz-SignedHeaders'. AWS query-string parameters must include "
            "'X-Amz-Date'. Re-examine the query-string parameters.");
  EXPECT_EQ(answer({},
                   "/?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=a&X-Amz-Signature=b"
                   "&X-Amz-Date=" +
                       date),
            "IncompleteSignatureException: AWS query-string parameters must include "
            "'X-Amz-SignedHeaders'. Re-examine the query-string parameters.");
  EXPECT_EQ(answer({}, "/?a=b"),
            "MissingAuthenticationTokenException: Request is missing Authentication Token");
}

// A presigned request: the signature in the query string, over the query's other parameters
// and UNSIGNED-PAYLOAD, is verified like a header's.
TEST_F(ServerHttpTest, PresignedRequestsAreVerified) {
  ServeOptions serve;
  serve.require_signature = true;
  serve.credentials["AKIDEXAMPLE"] = "secret";
  const double now = 1'700'000'000;
  serve.clock = [now] { return now; };
  Start(serve);
  const std::string amz = "20231114T221320Z";
  const std::string credential = "AKIDEXAMPLE/20231114/us-east-1/dynamodb/aws4_request";
  HttpRequest r;
  r.method = "POST";
  r.path = "/";
  r.body = "{}";
  r.headers = {{"Host", "127.0.0.1:" + std::to_string(port_)},
               {"X-Amz-Target", std::string(kTarget) + "ListTables"}};
  r.query = {{"X-Amz-Algorithm", "AWS4-HMAC-SHA256"},
             {"X-Amz-Credential", credential},
             {"X-Amz-Date", amz},
             {"X-Amz-Expires", "300"},
             {"X-Amz-SignedHeaders", "host;x-amz-target"}};
  const std::string signature =
      PresignedSignature(r, "secret", "20231114", "us-east-1", amz, "host;x-amz-target");
  const std::string query =
      "/?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIDEXAMPLE%2F20231114%2Fus-east-1%2F"
      "dynamodb%2Faws4_request&X-Amz-Date=" +
      amz + "&X-Amz-Expires=300&X-Amz-SignedHeaders=host%3Bx-amz-target&X-Amz-Signature=";
  const httplib::Headers target = {{"X-Amz-Target", std::string(kTarget) + "ListTables"}};
  auto good = client_->Post(query + signature, target, "{}", "application/x-amz-json-1.0");
  ASSERT_TRUE(good);
  EXPECT_EQ(good->status, 200) << good->body;
  auto bad =
      client_->Post(query + std::string(64, '0'), target, "{}", "application/x-amz-json-1.0");
  ASSERT_TRUE(bad);
  EXPECT_EQ(Type(bad), "com.amazon.coral.service#InvalidSignatureException") << bad->body;
}

TEST_F(ServerHttpTest, KeepAliveAndConcurrentClients) {
  Start();
  CreateTable();
  constexpr int kClients = 8, kEach = 40;
  std::vector<std::thread> clients;
  std::atomic<int> ok{0};
  for (int c = 0; c < kClients; ++c) {
    clients.emplace_back([&, c] {
      httplib::Client client("127.0.0.1", port_);  // one keep-alive connection each
      client.set_keep_alive(true);
      for (int i = 0; i < kEach; ++i) {
        std::string body = R"j({"TableName": "Things", "Item": {"pk": {"S": ")j" +
                           std::to_string(c) + "-" + std::to_string(i) + R"j("}}})j";
        auto r = client.Post("/", {{"X-Amz-Target", "DynamoDB_20120810.PutItem"}}, body,
                             "application/x-amz-json-1.0");
        if (r && r->status == 200) ++ok;
      }
    });
  }
  for (auto& t : clients) t.join();
  EXPECT_EQ(ok.load(), kClients * kEach);
  auto count = Post("Scan", R"j({"TableName": "Things", "Select": "COUNT"})j");
  EXPECT_EQ(Json(count).Find("Count")->number_text(), std::to_string(kClients * kEach));
  EXPECT_TRUE(db_->VerifyIntegrity().ok());
}

TEST_F(ServerHttpTest, MoreKeepAliveConnectionsThanWorkersAreAllServed) {
  // Each keep-alive connection holds a thread while it is open: 20 open connections must each
  // get their answer at once (a fixed pool of 8 workers once left the 9th unanswered).
  Start();
  std::vector<std::unique_ptr<httplib::Client>> clients;
  for (int i = 0; i < 20; ++i) {
    clients.push_back(std::make_unique<httplib::Client>("127.0.0.1", port_));
    clients.back()->set_keep_alive(true);
    clients.back()->set_read_timeout(2, 0);  // far below the 5 s idle timeout
  }
  for (int round = 0; round < 2; ++round) {
    for (auto& c : clients) {
      auto r = c->Post("/", {{"X-Amz-Target", "DynamoDB_20120810.ListTables"}}, "{}",
                       "application/x-amz-json-1.0");
      ASSERT_TRUE(r) << "a connection got no answer";
      EXPECT_EQ(r->status, 200);
    }
  }
}

TEST_F(ServerHttpTest, ExpiredItemsGoAtTheNextSweepOfTheServersClock) {
  Start();
  CreateTable();
  ASSERT_EQ(Post("UpdateTimeToLive", R"j({"TableName": "Things", "TimeToLiveSpecification":
                                          {"Enabled": true, "AttributeName": "exp"}})j")
                ->status,
            200);
  const long long soon = static_cast<long long>(now_.load()) + 100;
  for (const char* pk : {"a", "b"}) {
    auto put = Post("PutItem", std::string(R"j({"TableName": "Things", "Item": {"pk": {"S": ")j") +
                                   pk + R"j("}, "exp": {"N": ")j" +
                                   std::to_string(std::string(pk) == "a" ? soon : soon + 1000) +
                                   R"j("}}})j");
    ASSERT_EQ(put->status, 200);
  }
  TtlSweeper sweeper(*db_, std::chrono::milliseconds(20));
  auto count = [&] {
    return Json(Post("Scan", R"j({"TableName": "Things", "Select": "COUNT"})j"))
        .Find("Count")
        ->number_text();
  };
  while (sweeper.sweeps() < 3) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_EQ(count(), "2");   // nothing has expired yet
  now_ = now_.load() + 200;  // "a" has expired, "b" has not
  const int64_t seen = sweeper.sweeps();
  while (sweeper.sweeps() < seen + 2) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_EQ(count(), "1");
  EXPECT_EQ(sweeper.deleted(), 1);
  auto b = Json(Post("GetItem", R"j({"TableName": "Things", "Key": {"pk": {"S": "b"}}})j"));
  EXPECT_NE(b.Find("Item"), nullptr);
}

TEST_F(ServerHttpTest, HostileRequestsGetErrorsAndTheServerKeepsServing) {
  HttpOptions http;
  http.idle_timeout_seconds = 1;
  Start({}, http);
  CreateTable();
  // JSON nested 10,000 deep.
  std::string deep = R"j({"TableName": "Things", "Item": {"pk": {"S": "a"}, "m": )j";
  for (int i = 0; i < 10000; ++i) deep += R"j({"M": {"x": )j";
  deep += R"j({"S": "y"})j";
  for (int i = 0; i < 10000; ++i) deep += "}}";
  deep += "}}";
  auto nested = Post("PutItem", deep);
  ASSERT_TRUE(nested);
  EXPECT_EQ(nested->status, 400);
  EXPECT_EQ(Type(nested), "com.amazon.coral.validate#ValidationException");
  EXPECT_NE(nested->body.find("Nesting Levels have exceeded supported limits"), std::string::npos);
  // Headers past the connection's 64 KB are refused and the connection closed: 431 from
  // libmicrohttpd (DynamoDB answers 400 past about 16 KB; no SDK sends such headers).
  httplib::Client big("127.0.0.1", port_);
  auto huge = big.Post(
      "/",
      {{"X-Amz-Target", "DynamoDB_20120810.ListTables"}, {"X-Padding", std::string(100000, 'a')}},
      "{}", "application/x-amz-json-1.0");
  // The server may close before the client has sent the rest of the headers: TCP then resets
  // the connection and the client loses the 431 it was sent. Either way the request is refused.
  if (huge) {
    EXPECT_EQ(huge->status, 431);
  } else {
    EXPECT_TRUE(huge.error() == httplib::Error::Write || huge.error() == httplib::Error::Read)
        << httplib::to_string(huge.error());
  }
  // A number with 10,000 digits.
  auto digits =
      Post("PutItem", R"j({"TableName": "Things", "Item": {"pk": {"S": "a"}, "n": {"N": ")j" +
                          std::string(10000, '7') + R"j("}}})j");
  EXPECT_EQ(digits->status, 400);
  EXPECT_EQ(Type(digits), "com.amazon.coral.validate#ValidationException");
  // A million-element array.
  std::string many = R"j({"TableName": "Things", "Item": {"pk": {"S": "a"}, "l": {"L": [)j";
  for (int i = 0; i < 1000000; ++i) many += i ? R"j(,{"N":"1"})j" : R"j({"N":"1"})j";
  many += "]}}}";
  auto array = Post("PutItem", many);
  ASSERT_TRUE(array);
  EXPECT_EQ(array->status, 400);
  // A body that is not UTF-8.
  auto binary = Post("ListTables", std::string("{\"a\": \"\xff\xfe\"}"));
  EXPECT_EQ(Type(binary), "com.amazon.coral.service#SerializationException");
  // A client that connects and says nothing is dropped after the read timeout; others are served.
  httplib::Client idle("127.0.0.1", port_);
  std::thread silent([&] {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port_));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    char buf[16];
    ::recv(fd, buf, sizeof buf, 0);  // returns when the server closes the connection
    ::close(fd);
  });
  EXPECT_EQ(Post("ListTables", "{}")->status, 200);
  silent.join();
  EXPECT_EQ(Post("GetItem", R"j({"TableName": "Things", "Key": {"pk": {"S": "a"}}})j")->status,
            200);
}

}  // namespace
}  // namespace keyhole::server

namespace keyhole::server {
namespace {

// ARNs in the region a request was signed for (DynamoDB's endpoint is the region's), else
// serve's --region, with serve's --account: applications that build an ARN from their own
// region find their tables.
TEST_F(ServerHttpTest, ArnsAreInTheSignedRegionAndServesAccount) {
  ServeOptions serve;
  serve.region = "ap-south-1";
  serve.account = "123456789012";
  Start(serve);
  const auto signed_for = [](const std::string& region) {
    return httplib::Headers{
        {"Authorization", "AWS4-HMAC-SHA256 Credential=AKID/20260101/" + region +
                              "/dynamodb/aws4_request, SignedHeaders=host, Signature=00"}};
  };
  auto created = Post("CreateTable",
                      R"j({"TableName": "Things",
                      "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
                      "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                               {"AttributeName": "g", "AttributeType": "S"}],
                      "GlobalSecondaryIndexes": [{"IndexName": "byG",
                        "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                        "Projection": {"ProjectionType": "ALL"}}],
                      "StreamSpecification": {"StreamEnabled": true, "StreamViewType": "KEYS_ONLY"},
                      "BillingMode": "PAY_PER_REQUEST"})j",
                      "application/x-amz-json-1.0", signed_for("eu-west-2"));
  ASSERT_EQ(created->status, 200) << created->body;
  auto d = Post("DescribeTable", R"({"TableName": "Things"})", "application/x-amz-json-1.0",
                signed_for("us-east-1"));
  const std::string prefix = "arn:aws:dynamodb:us-east-1:123456789012:table/Things";
  const json::Value table = *Json(d).Find("Table");
  EXPECT_EQ(table.Find("TableArn")->str(), prefix);
  EXPECT_TRUE(table.Find("LatestStreamArn")->str().starts_with(prefix + "/stream/"));
  EXPECT_EQ(table.Find("GlobalSecondaryIndexes")->array()[0].Find("IndexArn")->str(),
            prefix + "/index/byG");
  // Unsigned: serve's --region.
  auto unsigned_d = Post("DescribeTable", R"({"TableName": "Things"})");
  EXPECT_EQ(Json(unsigned_d).Find("Table")->Find("TableArn")->str(),
            "arn:aws:dynamodb:ap-south-1:123456789012:table/Things");
  // The tag operations take the signed region's ARN (and refuse another region's).
  auto tags = Post("ListTagsOfResource", "{\"ResourceArn\": \"" + prefix + "\"}",
                   "application/x-amz-json-1.0", signed_for("us-east-1"));
  EXPECT_EQ(tags->status, 200) << tags->body;
  auto other = Post("ListTagsOfResource", "{\"ResourceArn\": \"" + prefix + "\"}",
                    "application/x-amz-json-1.0", signed_for("eu-west-1"));
  EXPECT_EQ(other->status, 400) << other->body;
  // Stream records carry the region too.
  ASSERT_EQ(Post("PutItem", R"({"TableName": "Things", "Item": {"pk": {"S": "a"}}})")->status, 200);
  const std::string stream = table.Find("LatestStreamArn")->str();
  auto shards =
      Post("DynamoDBStreams_20120810.DescribeStream", "{\"StreamArn\": \"" + stream + "\"}",
           "application/x-amz-json-1.0", signed_for("us-east-1"));
  ASSERT_EQ(shards->status, 200) << shards->body;
  const std::string shard =
      Json(shards).Find("StreamDescription")->Find("Shards")->array()[0].Find("ShardId")->str();
  auto it = Post("DynamoDBStreams_20120810.GetShardIterator",
                 "{\"StreamArn\": \"" + stream + "\", \"ShardId\": \"" + shard +
                     "\", \"ShardIteratorType\": \"TRIM_HORIZON\"}",
                 "application/x-amz-json-1.0", signed_for("us-east-1"));
  ASSERT_EQ(it->status, 200) << it->body;
  auto records = Post("DynamoDBStreams_20120810.GetRecords",
                      "{\"ShardIterator\": \"" + Json(it).Find("ShardIterator")->str() + "\"}",
                      "application/x-amz-json-1.0", signed_for("us-east-1"));
  ASSERT_EQ(records->status, 200) << records->body;
  EXPECT_EQ(Json(records).Find("Records")->array().at(0).Find("awsRegion")->str(), "us-east-1");
  EXPECT_EQ(SignedRegion("AWS4-HMAC-SHA256 Credential=A/20260101/eu-central-1/dynamodb/"
                         "aws4_request, SignedHeaders=host, Signature=0"),
            "eu-central-1");
  EXPECT_EQ(SignedRegion("AWS4-HMAC-SHA256 Credential=A/20260101"), "");
  EXPECT_EQ(SignedRegion(""), "");
}

}  // namespace
}  // namespace keyhole::server

namespace keyhole::server {
namespace {

// `text` gzip'd as one member (zlib's gzip wrapper).
std::string Gzip(const std::string& text) {
  z_stream z{};
  deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, MAX_WBITS + 16, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&z, text.size()) + 32, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

// boto3 compresses large requests (request_min_compression_size_bytes) and signs the bytes it
// sends: the signature is checked over the wire's body, and a body of several gzip members is
// inflated whole. An Authorization header whose parts are separated by spaces only is read
// too (its expiry reported as DynamoDB words it).
TEST_F(ServerHttpTest, ACompressedRequestIsSignedOverItsWireBytes) {
  ServeOptions serve;
  serve.require_signature = true;
  serve.credentials["AKIDEXAMPLE"] = "secret";
  const double now = 1'700'000'000;
  serve.clock = [now] { return now; };
  Start(serve);
  const std::string json = R"({"TableName": "Things"})";
  // Two members: '{"TableName": ' and '"Things"}'.
  const std::string wire = Gzip(json.substr(0, 14)) + Gzip(json.substr(14));
  const auto post = [&](double at, const std::string& separator) {
    return SignedPost("DescribeTable", wire, "AKIDEXAMPLE", "secret", at,
                      {{"content-encoding", "gzip"}}, separator);
  };
  auto found = post(now, ", ");
  EXPECT_EQ(found->status, 400);  // signed correctly, and read whole: no such table
  EXPECT_EQ(Type(found), "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException")
      << found->body;
  auto spaces = post(now - 20 * 60, "  ");
  EXPECT_EQ(Type(spaces), "com.amazon.coral.service#InvalidSignatureException") << spaces->body;
  EXPECT_TRUE(Json(spaces).Find("message")->str().starts_with("Signature expired: "))
      << spaces->body;
  EXPECT_EQ(post(now, " ")->status, 400);
  EXPECT_EQ(Type(post(now, " ")), "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException");
}

}  // namespace
}  // namespace keyhole::server

namespace keyhole::server {
namespace {

// The health check names the host it was reached at and answers GET / only; every answer has
// a request id and a CRC-32; CORS as DynamoDB answers it (Alternator's tests, written against
// DynamoDB); headers past 16 KB are a 400.
TEST_F(ServerHttpTest, HealthCheckCorsAndTheHeadersOfEveryAnswer) {
  Start();
  auto health = client_->Get("/");
  ASSERT_TRUE(health);
  EXPECT_EQ(health->body, "healthy: 127.0.0.1:" + std::to_string(port_) + " ");
  EXPECT_TRUE(health->has_header("x-amzn-RequestId"));
  EXPECT_FALSE(health->has_header("Access-Control-Allow-Origin"));
  for (const char* path : {"/abc", "/health", "/index.htm"}) {
    auto other = client_->Get(path);
    ASSERT_TRUE(other);
    EXPECT_EQ(other->status, 404) << path;
    EXPECT_TRUE(other->has_header("x-amzn-RequestId")) << path;
    EXPECT_TRUE(other->has_header("x-amz-crc32")) << path;
  }
  // CORS: on every answer to a request with Origin; the preflight echoes what it asks for.
  httplib::Headers origin = {{"Origin", "http://example.com/"}};
  auto post = Post("ListTables", "{}", "application/x-amz-json-1.0", origin);
  EXPECT_EQ(post->get_header_value("Access-Control-Allow-Origin"), "*");
  EXPECT_TRUE(post->has_header("Access-Control-Expose-Headers"));
  EXPECT_FALSE(post->has_header("Access-Control-Max-Age"));
  EXPECT_FALSE(Post("ListTables", "{}")->has_header("Access-Control-Allow-Origin"));
  auto preflight = client_->Options("/", {{"Origin", "http://example.com/"},
                                          {"Access-Control-Request-Method", "dog"},
                                          {"Access-Control-Request-Headers", "cat, meerkat"}});
  ASSERT_TRUE(preflight);
  EXPECT_EQ(preflight->status, 200);
  EXPECT_EQ(preflight->get_header_value("Access-Control-Allow-Origin"), "*");
  EXPECT_EQ(preflight->get_header_value("Access-Control-Allow-Methods"), "dog");
  EXPECT_EQ(preflight->get_header_value("Access-Control-Allow-Headers"), "cat, meerkat");
  EXPECT_TRUE(preflight->has_header("Access-Control-Max-Age"));
  // 17 KB of headers.
  auto big = Post("ListTables", "{}", "application/x-amz-json-1.0",
                  {{"X-Padding", std::string(17 * 1024, 'p')}});
  ASSERT_TRUE(big);
  EXPECT_EQ(big->status, 400);
  EXPECT_EQ(Post("ListTables", "{}", "application/x-amz-json-1.0",
                 {{"X-Padding", std::string(15 * 1024, 'p')}})
                ->status,
            200);
  // A request line past 16 KB, by its path or its query: a plain 400 (Alternator's
  // test_too_large_request_line, run against AWS).
  const httplib::Headers target = {{"X-Amz-Target", std::string(kTarget) + "ListTables"}};
  for (const std::string& path :
       {"/" + std::string(17000, 'x'), "/?a=" + std::string(17000, 'x')}) {
    auto long_line = client_->Post(path, target, "{}", "application/x-amz-json-1.0");
    ASSERT_TRUE(long_line);
    EXPECT_EQ(long_line->status, 400);
    EXPECT_EQ(long_line->body, "");
  }
  auto short_line =
      client_->Post("/?a=" + std::string(15000, 'x'), target, "{}", "application/x-amz-json-1.0");
  ASSERT_TRUE(short_line);
  EXPECT_EQ(short_line->status, 200);
}

}  // namespace
}  // namespace keyhole::server

namespace keyhole::server {
namespace {

// Accept-Encoding as DynamoDB reads it: every case Alternator's suite checks against AWS
// (test_compressed_response.py::test_compressed_response_accept_encodings).
TEST(ServerHttpContentCodingTest, ChoosesAsDynamoDbDoes) {
  const struct {
    const char* accept;
    ContentCoding want;
  } cases[] = {
      {"", ContentCoding::kIdentity},
      {"identity", ContentCoding::kIdentity},
      {"br", ContentCoding::kIdentity},
      {"zstd", ContentCoding::kIdentity},
      {"compress", ContentCoding::kIdentity},
      {"x-gzip", ContentCoding::kIdentity},
      {"gzip", ContentCoding::kGzip},
      {"deflate", ContentCoding::kDeflate},
      {"gzip, deflate", ContentCoding::kGzip},
      {"br, identity, deflate, gzip", ContentCoding::kDeflate},
      {"GZIP, identity", ContentCoding::kGzip},
      {"dog, gzip ,, cat", ContentCoding::kGzip},
      {"gzip;q=0.8, deflate;q=0.5", ContentCoding::kGzip},
      {"br, gzip;q=0, deflate; q = 0.5 , identity;q=0", ContentCoding::kDeflate},
      {"gzip ;q=0", ContentCoding::kIdentity},
      {"identity;q=0", ContentCoding::kIdentity},
      {"*;q=0", ContentCoding::kIdentity},
      {"br;q=0.8,identity;q=0.5,*;q=0", ContentCoding::kIdentity},
      {"br,identity;q=0.5,gzip;q=0.0001", ContentCoding::kGzip},
      {"*", ContentCoding::kGzip},
      {"*, deflate;q=0.5", ContentCoding::kGzip},
      {"*, deflate", ContentCoding::kDeflate},
      {"*, identity", ContentCoding::kGzip},
      {"*, gzip;q=0.5", ContentCoding::kDeflate},
      {"*;q=0.5,identity", ContentCoding::kGzip},
      {"gzip;q=0.5,identity;q=0.8", ContentCoding::kGzip},
      {"\"gzip\"", ContentCoding::kIdentity},
      {"gzip br", ContentCoding::kIdentity},
      {"gzip:q=1", ContentCoding::kIdentity},
      {"deflate;q=0.5, gzip;q=31", ContentCoding::kGzip},
      {"gzip;q=31,deflate;q=51", ContentCoding::kGzip},
      {"deflate;q=0.5, gzip;q=1;q=0.2", ContentCoding::kGzip},
      {"deflate;q=0.5,gzip;q=0.", ContentCoding::kDeflate},
      {"deflate;q=0.5,gzip;q=0.x", ContentCoding::kGzip},
      {"deflate;q=-0.5,gzip;q=0.2", ContentCoding::kGzip},
      {"deflate;q=0.5,gzip;q=0. x", ContentCoding::kGzip},
      // A parameter holding "q=" anywhere is the quality ("nq=0" too); "q =0" is none.
      {"gzip;q= 0;q=1", ContentCoding::kIdentity},
      {"gzip;q =0;q=1", ContentCoding::kGzip},
      {"gzip; q=0;q=1", ContentCoding::kIdentity},
      {"gzip;nq=0;q=1", ContentCoding::kIdentity},
      {"gzip;nq=1;q=0 ", ContentCoding::kGzip},
      {"gzip;q=0, gzip;q=1, gzip;q=0", ContentCoding::kGzip},
  };
  for (const auto& c : cases) EXPECT_EQ(ChooseContentCoding(c.accept), c.want) << c.accept;
}

std::string Inflated(const std::string& in) {
  z_stream z{};
  inflateInit2(&z, MAX_WBITS + 32);  // gzip or zlib, by its header
  std::string out(1 << 20, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int rc = inflate(&z, Z_FINISH);
  out.resize(rc == Z_STREAM_END ? z.total_out : 0);
  inflateEnd(&z);
  return out;
}

// A body of 4,096 bytes or more is compressed when Accept-Encoding asks (gzip, or deflate in
// its zlib wrapping), and its x-amz-crc32 is the compressed bytes'; a smaller one never is,
// and neither is one to a request that does not ask (test_compressed_response.py, test_crc.py).
TEST_F(ServerHttpTest, LargeAnswersAreCompressedWhenAsked) {
  Start();
  CreateTable();
  client_->set_decompress(false);
  const std::string big(5000, 'x');
  ASSERT_EQ(Post("PutItem", R"({"TableName": "Things", "Item": {"pk": {"S": "big"}, "x": {"S": ")" +
                                big + R"("}}})")
                ->status,
            200);
  const std::string get = R"({"TableName": "Things", "Key": {"pk": {"S": "big"}}})";
  auto plain = Post("GetItem", get);
  ASSERT_EQ(plain->status, 200);
  EXPECT_FALSE(plain->has_header("Content-Encoding"));
  for (const char* accept : {"gzip", "deflate", "br, deflate;q=0.9, gzip;q=0.1"}) {
    auto r = Post("GetItem", get, "application/x-amz-json-1.0", {{"Accept-Encoding", accept}});
    ASSERT_EQ(r->status, 200);
    const std::string want = std::string(accept) == "gzip" ? "gzip" : "deflate";
    EXPECT_EQ(r->get_header_value("Content-Encoding"), want) << accept;
    if (want == "gzip") EXPECT_TRUE(r->body.starts_with("\x1f\x8b"));
    if (want == "deflate") EXPECT_EQ(r->body[0], '\x78');  // zlib's header
    EXPECT_LT(r->body.size(), 200u);
    EXPECT_EQ(Inflated(r->body), plain->body);
    EXPECT_EQ(r->get_header_value("x-amz-crc32"), Crc32Header(r->body));
  }
  // Under the threshold: never compressed.
  auto tiny = Post("ListTables", "{}", "application/x-amz-json-1.0", {{"Accept-Encoding", "gzip"}});
  EXPECT_FALSE(tiny->has_header("Content-Encoding"));
  EXPECT_EQ(tiny->get_header_value("x-amz-crc32"), Crc32Header(tiny->body));
  // Nothing acceptable: the plain answer, never a 406.
  auto refused = Post("GetItem", get, "application/x-amz-json-1.0",
                      {{"Accept-Encoding", "gzip;q=0, identity"}});
  EXPECT_EQ(refused->status, 200);
  EXPECT_FALSE(refused->has_header("Content-Encoding"));
  EXPECT_EQ(refused->body, plain->body);
  // Two Accept-Encoding headers: DynamoDB reads the first only
  // (test_multiple_accept_encoding_headers).
  auto first_gzip = Post("GetItem", get, "application/x-amz-json-1.0",
                         {{"Accept-Encoding", "gzip"}, {"Accept-Encoding", "identity"}});
  EXPECT_EQ(first_gzip->get_header_value("Content-Encoding"), "gzip");
  auto first_identity = Post("GetItem", get, "application/x-amz-json-1.0",
                             {{"Accept-Encoding", "identity"}, {"Accept-Encoding", "gzip"}});
  EXPECT_FALSE(first_identity->has_header("Content-Encoding"));
}

}  // namespace
}  // namespace keyhole::server
