// libFuzzer target for keyhole serve's front end: an HTTP request, as cpp-httplib hands it to
// server::DynamoDbServer::Handle, runs through the routing, DynamoDB's checks, SigV4, the JSON
// reader, every operation's decoder, api::Service and a real keyhole file.
//
// Input layout: byte 0 picks the operation (X-Amz-Target) from api::Service::Operations(), or none;
// bit 7 of byte 1 picks the server that requires signatures, its low bits the method and media
// type; then header lines "Name: value" up to an empty line, then the body. A header line given in
// the input replaces the generated one of that name.
//
// Properties checked, beyond "no crash, no leak, no hang":
//  - every response has a status DynamoDB uses (200, 400, 404, 413) — never 500: an
//    InternalServerError on the wire means a bug on keyhole's side;
//  - a JSON response parses as a JSON object; x-amz-crc32 is the CRC-32 of its body;
//  - an error's __type is one of DynamoDB's namespaces and names a DynamoDB error.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>

#include "api/service.h"
#include "core/json.h"
#include "parser/expression_parser.h"
#include "server/dynamodb_server.h"
#include "storage/database.h"

namespace {

using namespace keyhole;

void Require(bool condition) {
  if (!condition) std::abort();
}

struct World {
  std::string dir;
  parser::NativeExpressionParser parser;
  std::unique_ptr<storage::Database> db;
  std::unique_ptr<api::Service> service;
  std::unique_ptr<server::DynamoDbServer> open, signed_only;

  World() {
    char tmpl[] = "/tmp/keyhole-fuzz-http-XXXXXX";
    dir = ::mkdtemp(tmpl);
    storage::Database::Options o;
    o.sync = false;
    o.expression_parser = &parser;
    o.clock = [] { return 1.8e9; };
    db = std::move(storage::Database::Open(dir + "/f.kh", o)).value();
    service = std::make_unique<api::Service>(*db);
    server::ServeOptions open_options;
    open_options.clock = o.clock;
    open = std::make_unique<server::DynamoDbServer>(*service, open_options);
    server::ServeOptions signed_options = open_options;
    signed_options.require_signature = true;
    signed_options.credentials["AKIDEXAMPLE"] = "secret";
    signed_only = std::make_unique<server::DynamoDbServer>(*service, signed_options);
    EnsureTables();
  }
  // The two tables the operations find (an input may have deleted them): one with a sort key,
  // a GSI and a stream, one with a partition key only.
  void EnsureTables() {
    if (db->TableSchema("Fuzz").ok() && db->TableSchema("Hash").ok()) return;
    (void)db->DeleteTable({"Fuzz"});
    (void)db->DeleteTable({"Hash"});
    Call("CreateTable",
         R"({"TableName": "Fuzz", "BillingMode": "PAY_PER_REQUEST",
             "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
               {"AttributeName": "sk", "AttributeType": "N"},
               {"AttributeName": "g", "AttributeType": "S"}],
             "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
               {"AttributeName": "sk", "KeyType": "RANGE"}],
             "GlobalSecondaryIndexes": [{"IndexName": "byG",
               "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
               "Projection": {"ProjectionType": "ALL"}}],
             "StreamSpecification": {"StreamEnabled": true, "StreamViewType": "NEW_IMAGE"}})");
    Call("CreateTable",
         R"({"TableName": "Hash", "BillingMode": "PAY_PER_REQUEST",
             "AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "S"}],
             "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}]})");
  }
  ~World() {
    open.reset();
    signed_only.reset();
    service.reset();
    db.reset();
    std::filesystem::remove_all(dir);
  }
  void Call(std::string_view op, std::string_view body) {
    server::HttpRequest r;
    r.method = "POST";
    r.path = "/";
    r.headers = {{"X-Amz-Target", "DynamoDB_20120810." + std::string(op)},
                 {"Content-Type", "application/x-amz-json-1.0"}};
    r.body = std::string(body);
    Require(open->Handle(r).status == 200);
  }
};

void SetHeader(server::HttpRequest* r, std::string name, std::string value) {
  for (auto& [k, v] : r->headers) {
    if (k.size() == name.size() && std::equal(k.begin(), k.end(), name.begin(), [](char a, char b) {
          return std::tolower(static_cast<unsigned char>(a)) ==
                 std::tolower(static_cast<unsigned char>(b));
        })) {
      v = std::move(value);
      return;
    }
  }
  r->headers.emplace_back(std::move(name), std::move(value));
}

void CheckResponse(const server::HttpResponse& out) {
  // What failed is printed with the response, so that a crash file explains itself.
  auto Require = [&](bool condition) {
    if (condition) return;
    std::fprintf(stderr, "bad response: %d %s\n", out.status, out.body.c_str());
    std::abort();
  };
  Require(out.status == 200 || out.status == 400 || out.status == 404 || out.status == 413);
  if (out.status == 404 || out.content_type == "text/plain" || out.body.empty()) return;
  Result<json::Value> body = json::Parse(out.body);
  Require(body.ok() && body->IsObject());
  bool has_crc = false;
  for (const auto& [k, v] : out.headers) {
    if (k == "x-amz-crc32") {
      has_crc = true;
      Require(v == server::Crc32Header(out.body));
    }
  }
  Require(has_crc);
  if (out.status == 200) return;
  const json::Value* type = body->Find("__type");
  Require(type != nullptr && type->IsString());
  const std::string& t = type->str();
  Require(t.starts_with("com.amazonaws.dynamodb.v20120810#") ||
          t.starts_with("com.amazon.coral.validate#") ||
          t.starts_with("com.amazon.coral.service#"));
  Require(t.ends_with("Exception"));  // never keyhole's own codes, never InternalServerError
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // One keyhole file for the whole run, removed when libFuzzer exits.
  static World* world = [] {
    static World* created = new World();
    std::atexit([] { delete created; });
    return created;
  }();
  if (size < 2) return 0;
  world->EnsureTables();
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  server::HttpRequest r;
  const uint8_t method_bits = data[1] & 0x03;
  r.method = method_bits == 3 ? "GET" : "POST";
  r.path = "/";
  const size_t op = data[0];
  if (op < api::Service::Operations().size()) {
    const std::string_view name = api::Service::Operations()[op];
    const bool streams = name == "ListStreams" || name == "DescribeStream" ||
                         name == "GetShardIterator" || name == "GetRecords";
    r.headers.emplace_back(
        "X-Amz-Target", std::string(streams ? "DynamoDBStreams_20120810." : "DynamoDB_20120810.") +
                            std::string(name));
  }
  r.headers.emplace_back("Content-Type",
                         method_bits == 1 ? "application/json" : "application/x-amz-json-1.0");
  // Header lines, then the body.
  size_t pos = 2;
  while (pos < in.size()) {
    const size_t eol = in.find('\n', pos);
    const std::string_view line =
        in.substr(pos, eol == std::string_view::npos ? in.size() - pos : eol - pos);
    pos = eol == std::string_view::npos ? in.size() : eol + 1;
    if (line.empty()) break;
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos) {
      pos -= line.size() + (eol == std::string_view::npos ? 0 : 1);  // no headers: all body
      break;
    }
    std::string_view value = line.substr(colon + 1);
    while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
    SetHeader(&r, std::string(line.substr(0, colon)), std::string(value));
  }
  r.body = std::string(in.substr(pos));
  server::DynamoDbServer& s = (data[1] & 0x80) ? *world->signed_only : *world->open;
  CheckResponse(s.Handle(r));
  return 0;
}
