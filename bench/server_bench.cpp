// keyhole_server_bench: what `keyhole serve` costs per request, beside what the same operation
// costs called in-process on the Backend and what the same HTTP library costs answering a fixed
// body with no storage, all measured in one run on one machine.
//
//   build/bench/keyhole_server_bench [--seconds S]   (default 3 s per measurement)
//
// For GetItem (one ~100-byte item), PutItem (a new ~100-byte item, every commit synced) and a
// 50-item Query, it prints:
//  - in-process: CPU µs per call of the Backend (storage::Database) alone, through
//    api::Service::Call (plus the JSON decoding and encoding), and through
//    server::DynamoDbServer::Handle (plus DynamoDB's checks, the CRC and the request id: the
//    whole server but HTTP);
//  - HTTP, fixed body: server CPU µs per request of the same HttpServer (libmicrohttpd)
//    answering a constant body of the operation's response size: the HTTP floor;
//  - keyhole serve: server CPU µs per request, and requests per second with 1 and 8 keep-alive
//    connections.
// Each server runs in a child process (forked before it opens anything), so its CPU time is
// read from /proc/<pid>/stat apart from the client's. The clients run in this process on the
// same two cores: at 8 connections the req/s figure is bounded by client and server together.
#include <fmt/format.h>
#include <httplib.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "api/api_json.h"
#include "api/service.h"
#include "bench_util.h"
#include "parser/expression_parser.h"
#include "server/dynamodb_server.h"
#include "server/http.h"
#include "storage/database.h"

namespace keyhole::bench {
namespace {

const parser::NativeExpressionParser& Parser() {
  static const parser::NativeExpressionParser p;
  return p;
}

std::unique_ptr<storage::Database> Open(const std::string& path) {
  storage::Database::Options o;
  o.expression_parser = &Parser();
  o.initial_map_size = kMapSize;
  auto db = storage::Database::Open(path, o);
  Check(db.status(), "open");
  return std::move(db).value();
}

std::string Pad() { return std::string(60, 'x'); }

std::string GetBody(int i) {
  return fmt::format(R"({{"TableName":"Bench","Key":{{"pk":{{"S":"g{}"}},"sk":{{"N":"0"}}}}}})",
                     i % 1000);
}
std::string PutBody(const std::string& prefix, int64_t i) {
  return fmt::format(
      R"({{"TableName":"Bench","Item":{{"pk":{{"S":"{}{}"}},"sk":{{"N":"0"}},"v":{{"S":"{}"}}}}}})",
      prefix, i, Pad());
}
std::string QueryBody() {
  return R"({"TableName":"Bench","KeyConditionExpression":"pk = :p",)"
         R"("ExpressionAttributeValues":{":p":{"S":"q"}}})";
}

struct Op {
  std::string name;
  std::function<std::string(const std::string& prefix, int64_t i)> body;
};

const std::vector<Op>& Ops() {
  static const std::vector<Op> ops = {
      {"GetItem", [](const std::string&, int64_t i) { return GetBody(static_cast<int>(i)); }},
      {"PutItem", [](const std::string& p, int64_t i) { return PutBody(p, i); }},
      {"Query", [](const std::string&, int64_t) { return QueryBody(); }},
  };
  return ops;
}

// The table: 1,000 items g<i> for GetItem and 50 items in partition "q" for the Query.
void Load(const std::string& path) {
  auto db = Open(path);
  api::Service service(*db);
  auto call = [&](std::string_view op, const std::string& body) {
    auto r = service.Call(op, json::Parse(body).value());
    Check(r.status(), op);
  };
  call("CreateTable",
       R"({"TableName":"Bench","BillingMode":"PAY_PER_REQUEST",
           "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},
                                   {"AttributeName":"sk","AttributeType":"N"}],
           "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},
                        {"AttributeName":"sk","KeyType":"RANGE"}]})");
  std::string batch;
  auto flush = [&] {
    if (batch.empty()) return;
    call("BatchWriteItem", R"({"RequestItems":{"Bench":[)" + batch + "]}}");
    batch.clear();
  };
  int n = 0;
  auto add = [&](const std::string& pk, int sk) {
    if (!batch.empty()) batch += ",";
    batch += fmt::format(
        R"({{"PutRequest":{{"Item":{{"pk":{{"S":"{}"}},"sk":{{"N":"{}"}},"v":{{"S":"{}"}}}}}}}})",
        pk, sk, Pad());
    if (++n % 25 == 0) flush();
  };
  for (int i = 0; i < 1000; ++i) add(fmt::format("g{}", i), 0);
  for (int i = 0; i < 50; ++i) add("q", i);
  flush();
}

double ProcessCpu() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

// CPU seconds of process `pid` so far: user and system.
struct Cpu {
  double user = 0, system = 0;
  double total() const { return user + system; }
};
Cpu ChildCpu(pid_t pid) {
  std::ifstream f(fmt::format("/proc/{}/stat", pid));
  std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  std::istringstream rest(text.substr(text.rfind(')') + 2));
  std::string field;
  Cpu c;
  for (int i = 3; i <= 15 && rest >> field; ++i) {
    if (i == 14) c.user = std::stod(field);
    if (i == 15) c.system = std::stod(field);
  }
  const double tick = static_cast<double>(sysconf(_SC_CLK_TCK));
  c.user /= tick;
  c.system /= tick;
  return c;
}

// How InProcess calls the operation.
enum class Layer {
  kBackend,   // the Backend method (the request decoded once, outside the loop)
  kService,   // api::Service::Call: JSON decoded and encoded
  kProtocol,  // server::DynamoDbServer::Handle: the whole server but HTTP itself
};

// In-process: CPU µs per call of `op` at `layer`.
double InProcess(const std::string& path, const Op& op, Layer layer, double seconds) {
  auto db = Open(path);
  api::Service service(*db);
  server::DynamoDbServer protocol(service, server::ServeOptions{});
  const bool through_json = layer != Layer::kBackend;
  const std::string prefix = layer == Layer::kBackend   ? "inb"
                             : layer == Layer::kService ? "inj"
                                                        : "inp";
  server::HttpRequest http;
  http.method = "POST";
  http.path = "/";
  http.headers = {{"X-Amz-Target", "DynamoDB_20120810." + op.name},
                  {"Content-Type", "application/x-amz-json-1.0"}};
  json::Value fixed = json::Parse(op.body(prefix, 0)).value();
  auto get = GetItemRequestFromJson(fixed);
  auto put = PutItemRequestFromJson(fixed);
  auto query = QueryRequestFromJson(fixed);
  int64_t n = 0;
  const double start = ProcessCpu();
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < until) {
    for (int k = 0; k < 20; ++k, ++n) {
      if (layer == Layer::kProtocol) {
        http.body = op.body(prefix, n);
        if (protocol.Handle(http).status != 200) Check(Status::Internal("not 200"), op.name);
      } else if (through_json) {
        Check(service.Call(op.name, json::Parse(op.body(prefix, n)).value()).status(), op.name);
      } else if (op.name == "GetItem") {
        Check(db->GetItem(*get).status(), "GetItem");
      } else if (op.name == "PutItem") {
        put->item["pk"] = AttributeValue::S(prefix + std::to_string(n));
        Check(db->PutItem(*put).status(), "PutItem");
      } else {
        Check(db->Query(*query).status(), "Query");
      }
    }
  }
  return (ProcessCpu() - start) / static_cast<double>(n) * 1e6;
}

// A server in a child process; the child writes its port to a pipe and serves until SIGTERM.
struct Child {
  pid_t pid = -1;
  int port = 0;
};

// `may_block`: as HttpOptions::may_block (keyhole serve's: DynamoDbServer::MayBlock).
Child StartServer(const std::function<server::HttpServer::Handler()>& make_handler,
                  std::function<bool(const server::HttpRequest&)> may_block = nullptr) {
  int fds[2];
  if (pipe(fds) != 0) std::abort();
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop, nullptr);
    server::HttpOptions http;
    http.port = 0;
    http.may_block = std::move(may_block);
    server::HttpServer s(http, make_handler());
    Result<int> port = s.Bind();
    int p = port.ok() ? *port : -1;
    if (write(fds[1], &p, sizeof p) != sizeof p) _exit(1);
    std::thread serving([&] { s.Serve(); });
    int sig = 0;
    sigwait(&stop, &sig);
    s.Stop();
    serving.join();
    _exit(0);
  }
  close(fds[1]);
  Child c;
  c.pid = pid;
  if (read(fds[0], &c.port, sizeof c.port) != sizeof c.port || c.port <= 0) std::abort();
  close(fds[0]);
  return c;
}

void StopServer(const Child& c) {
  kill(c.pid, SIGTERM);
  int status = 0;
  waitpid(c.pid, &status, 0);
}

struct Throughput {
  double requests_per_second = 0;
  double server_cpu_us = 0;   // per request, user + system
  double server_user_us = 0;  // per request, user (the kernel's TCP work is the rest)
};

// `connections` keep-alive clients send `op` for `seconds`.
Throughput Drive(const Child& server, const Op& op, int connections, double seconds, int round) {
  std::atomic<int64_t> done{0};
  std::atomic<bool> failed{false};
  const Cpu cpu_before = ChildCpu(server.pid);
  const auto start = std::chrono::steady_clock::now();
  const auto until = start + std::chrono::duration<double>(seconds);
  std::vector<std::thread> clients;
  for (int c = 0; c < connections; ++c) {
    clients.emplace_back([&, c] {
      httplib::Client client("127.0.0.1", server.port);
      client.set_keep_alive(true);
      client.set_tcp_nodelay(true);  // as SDKs do: no 40 ms wait for Nagle and delayed ACKs
      const httplib::Headers headers = {{"X-Amz-Target", "DynamoDB_20120810." + op.name}};
      const std::string prefix = fmt::format("r{}c{}-", round, c);
      for (int64_t i = 0; std::chrono::steady_clock::now() < until; ++i) {
        auto r = client.Post("/", headers, op.body(prefix, i), "application/x-amz-json-1.0");
        if (!r || r->status != 200) {
          failed = true;
          return;
        }
        ++done;
      }
    });
  }
  for (auto& t : clients) t.join();
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (failed) {
    std::fprintf(stderr, "keyhole_server_bench: a %s request failed\n", op.name.c_str());
    std::exit(1);
  }
  Throughput l;
  l.requests_per_second = static_cast<double>(done.load()) / wall;
  const Cpu cpu_after = ChildCpu(server.pid);
  const double n = static_cast<double>(done.load());
  l.server_cpu_us = (cpu_after.total() - cpu_before.total()) / n * 1e6;
  l.server_user_us = (cpu_after.user - cpu_before.user) / n * 1e6;
  return l;
}

// The response body keyhole sends for `op`, for the fixed-body server to answer with.
std::string ResponseOf(const std::string& path, const Op& op) {
  auto db = Open(path);
  api::Service service(*db);
  auto r = service.Call(op.name, json::Parse(op.body("size", 0)).value());
  Check(r.status(), op.name);
  return json::Write(*r);
}

}  // namespace
}  // namespace keyhole::bench

int main(int argc, char** argv) {
  using namespace keyhole;
  using namespace keyhole::bench;
  double seconds = 3;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--seconds" && i + 1 < argc) {
      seconds = std::atof(argv[++i]);
    } else {
      std::fprintf(stderr, "usage: keyhole_server_bench [--seconds S]\n");
      return 2;
    }
  }
  signal(SIGPIPE, SIG_IGN);
  TempDir dir;
  const std::string path = dir.File("serve.kh");
  Load(path);

  std::printf(
      "CPU µs per request; over HTTP, the server process's alone: total (user; the rest is the\n"
      "kernel's loopback TCP), with 1 and 8 keep-alive connections\n\n");
  std::printf("%-8s | %-26s | %-19s | %-29s | %-29s\n", "", "in-process", "HTTP, fixed body @1",
              "keyhole serve @1", "keyhole serve @8");
  std::printf("%-8s | %8s %8s %8s | %-19s | %-18s %10s | %-18s %10s\n", "op", "Backend", "+JSON",
              "+server", "server µs", "server µs", "req/s", "server µs", "req/s");
  int round = 0;
  for (const Op& op : Ops()) {
    const double backend_us = InProcess(path, op, Layer::kBackend, seconds);
    const double json_us = InProcess(path, op, Layer::kService, seconds);
    const double protocol_us = InProcess(path, op, Layer::kProtocol, seconds);
    const std::string fixed_body = ResponseOf(path, op);
    Child fixed = StartServer([&] {
      return [fixed_body](const server::HttpRequest&) {
        server::HttpResponse r;
        r.body = fixed_body;
        r.headers.emplace_back("x-amz-crc32", server::Crc32Header(fixed_body));
        return r;
      };
    });
    const Throughput floor = Drive(fixed, op, 1, seconds, round++);
    StopServer(fixed);
    // keyhole serve: the composition cli/serve.cpp makes, in the child.
    std::unique_ptr<storage::Database> child_db;
    std::unique_ptr<api::Service> child_service;
    std::unique_ptr<server::DynamoDbServer> child_protocol;
    Child serve = StartServer(
        [&] {
          child_db = Open(path);
          child_service = std::make_unique<api::Service>(*child_db);
          child_protocol =
              std::make_unique<server::DynamoDbServer>(*child_service, server::ServeOptions{});
          return [&](const server::HttpRequest& r) { return child_protocol->Handle(r); };
        },
        &server::DynamoDbServer::MayBlock);
    const Throughput one = Drive(serve, op, 1, seconds, round++);
    const Throughput eight = Drive(serve, op, 8, seconds, round++);
    StopServer(serve);
    auto cpu = [](const Throughput& t) {
      return fmt::format("{:.1f} ({:.1f})", t.server_cpu_us, t.server_user_us);
    };
    std::printf("%-8s | %8.1f %8.1f %8.1f | %-19s | %-18s %10.0f | %-18s %10.0f\n",
                op.name == "Query" ? "Query50" : op.name.c_str(), backend_us, json_us, protocol_us,
                cpu(floor).c_str(), cpu(one).c_str(), one.requests_per_second, cpu(eight).c_str(),
                eight.requests_per_second);
    std::fflush(stdout);
  }
  return 0;
}
