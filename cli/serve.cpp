// keyhole serve (serve.h): opens the file, wires storage::Database -> api::Service ->
// server::DynamoDbServer -> server::HttpServer, and stops cleanly on SIGINT or SIGTERM (requests
// in flight are answered; nothing acknowledged is lost: every write committed before its
// response was sent).
#include "cli/serve.h"

#include <signal.h>
#include <algorithm>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <thread>

#include "api/service.h"
#include "aws/endpoint.h"
#include "core/time.h"
#include "parser/expression_parser.h"
#include "server/dynamodb_server.h"
#include "server/http.h"
#include "server/scan_log.h"
#include "server/ttl_sweeper.h"
#include "storage/database.h"

namespace keyhole::cli {
namespace {

constexpr char kUsage[] =
    "usage: keyhole serve FILE [--host ADDRESS] [--port PORT] [--log] [--require-signature]\n"
    "                          [--access-key-id ID --secret-access-key KEY]\n"
    "                          [--ttl-sweep-seconds N] [--max-connections N] [--idle-timeout N]\n"
    "                          [--request-timeout N] [--region REGION] [--account ID] [--clock "
    "TIME]\n"
    "                          [--tls-cert FILE --tls-key FILE] [--refuse-scans]\n"
    "                          [--scan-report FILE]\n"
    "  FILE                 the database (created when missing)\n"
    "  --host ADDRESS       listen on ADDRESS (default 127.0.0.1; another address is reachable\n"
    "                       from other machines: keyhole warns)\n"
    "  --port PORT          listen on PORT (default 8000; 0: a free port, printed)\n"
    "  --log                one line per request on standard error\n"
    "  --require-signature  verify SigV4 signatures (keys from the flags, else from\n"
    "                       AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY); default: any credentials\n"
    "  --ttl-sweep-seconds N  delete expired TTL items every N seconds (default 60; 0: never)\n"
    "  --max-connections N  connections held at once (default 10000); more wait to be accepted,\n"
    "                       and at the limit the oldest incomplete requests are closed (logged)\n"
    "  --idle-timeout N     close a connection idle for N seconds (default 60, as DynamoDB)\n"
    "  --request-timeout N  a request must arrive whole within N seconds of its first byte\n"
    "                       (default 60; 0: no limit), else it is answered 408\n"
    "                       RequestTimeoutException and its connection closed (over HTTPS a\n"
    "                       request still arriving is closed unanswered; a client still\n"
    "                       sending may see a reset before the answer)\n"
    "  --region REGION      the region in ARNs when a request was not signed for one (default\n"
    "                       local; a signed request's own region wins)\n"
    "  --account ID         the 12-digit account in ARNs (default 000000000000)\n"
    "  --clock TIME         a fixed clock (2030-01-01T00:00:00Z or epoch seconds), for tests\n"
    "  --tls-cert FILE      serve HTTPS with this certificate (PEM; a chain: the server's first)\n"
    "  --tls-key FILE       and this private key (PEM)\n"
    "  --refuse-scans       refuse an ExecuteStatement SELECT that pins no partition key, as\n"
    "                       the shell does (default: run it as a Scan, as DynamoDB does, and\n"
    "                       log it once)\n"
    "  --scan-report FILE   on stopping, write every scanning statement and Scan call to FILE\n"
    "                       (JSON), once each, with its counts and what would serve it\n";

int Usage(const std::string& message) {
  std::fprintf(stderr, "keyhole serve: %s\n%s", message.c_str(), kUsage);
  return 2;
}

bool IsLoopback(const std::string& host) {
  return host == "127.0.0.1" || host == "localhost" || host == "::1" || host.starts_with("127.");
}

}  // namespace

int ServeMain(int argc, char** argv) {
  std::optional<std::string> path;
  server::HttpOptions http;
  server::ServeOptions serve;
  std::string access_key, secret_key, tls_cert, tls_key;
  int sweep_seconds = 60;
  std::optional<double> fixed_clock;
  bool refuse_scans = false;
  std::optional<std::string> scan_report;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](const char* what) -> std::optional<std::string> {
      if (i + 1 >= argc) return std::nullopt;
      return std::string(argv[++i]);
    };
    if (a == "--host" || a == "--port" || a == "--access-key-id" || a == "--secret-access-key" ||
        a == "--ttl-sweep-seconds" || a == "--max-connections" || a == "--idle-timeout" ||
        a == "--request-timeout" || a == "--clock" || a == "--region" || a == "--account" ||
        a == "--tls-cert" || a == "--tls-key" || a == "--scan-report") {
      std::optional<std::string> v = value(a.c_str());
      if (!v) return Usage(a + " needs a value");
      if (a == "--host") http.host = *v;
      if (a == "--region") {
        if (!aws::ValidRegionName(*v)) {
          return Usage("bad --region '" + *v + "' (letters, digits and dashes)");
        }
        serve.region = *v;
      }
      if (a == "--account") {
        if (v->size() != 12 || !std::all_of(v->begin(), v->end(), ::isdigit)) {
          return Usage("bad --account '" + *v + "' (12 digits)");
        }
        serve.account = *v;
      }
      if (a == "--tls-cert") tls_cert = *v;
      if (a == "--tls-key") tls_key = *v;
      if (a == "--scan-report") scan_report = *v;
      if (a == "--access-key-id") access_key = *v;
      if (a == "--secret-access-key") secret_key = *v;
      if (a == "--port" || a == "--ttl-sweep-seconds" || a == "--max-connections" ||
          a == "--idle-timeout" || a == "--request-timeout") {
        char* end = nullptr;
        long n = std::strtol(v->c_str(), &end, 10);
        if (end == v->c_str() || *end != '\0' || n < 0 || (a == "--port" && n > 65535) ||
            (a == "--max-connections" && (n < 1 || n > 100000)) ||
            (a == "--idle-timeout" && (n < 1 || n > 86400)) ||
            (a == "--request-timeout" && n > 86400) || n > 1000000000) {
          return Usage("bad " + a + " '" + *v + "'");
        }
        int& target = a == "--port"              ? http.port
                      : a == "--max-connections" ? http.max_connections
                      : a == "--idle-timeout"    ? http.idle_timeout_seconds
                      : a == "--request-timeout" ? http.request_timeout_seconds
                                                 : sweep_seconds;
        target = static_cast<int>(n);
      }
      if (a == "--clock") {
        fixed_clock = ParseTimeArgument(*v);
        if (!fixed_clock) return Usage("cannot read '" + *v + "' as a time");
      }
    } else if (a == "--log") {
      serve.log = true;
    } else if (a == "--require-signature") {
      serve.require_signature = true;
    } else if (a == "--refuse-scans") {
      refuse_scans = true;
    } else if (a == "-h" || a == "--help") {
      std::printf("%s", kUsage);
      return 0;
    } else if (!a.empty() && a[0] != '-' && !path) {
      path = a;
    } else {
      return Usage("unexpected argument '" + a + "'");
    }
  }
  if (!path) return Usage("which database file? keyhole serve FILE");
  if (tls_cert.empty() != tls_key.empty()) {
    return Usage("HTTPS needs both --tls-cert FILE and --tls-key FILE");
  }
  for (const auto& [file, pem] :
       {std::pair{&tls_cert, &http.tls_cert_pem}, std::pair{&tls_key, &http.tls_key_pem}}) {
    if (file->empty()) continue;
    std::ifstream in(*file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in || text.str().empty()) {
      std::fprintf(stderr, "keyhole serve: cannot read %s: %s\n", file->c_str(),
                   std::strerror(errno));
      return 1;
    }
    *pem = text.str();
  }
  if (serve.require_signature) {
    if (access_key.empty()) {
      const char* k = std::getenv("AWS_ACCESS_KEY_ID");
      const char* s = std::getenv("AWS_SECRET_ACCESS_KEY");
      if (k) access_key = k;
      if (s && secret_key.empty()) secret_key = s;
    }
    if (access_key.empty() || secret_key.empty()) {
      return Usage(
          "--require-signature needs a key: --access-key-id and --secret-access-key, or "
          "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY");
    }
    serve.credentials[access_key] = secret_key;
  }

  // SIGINT and SIGTERM are taken by this thread (sigwait below); every other thread starts
  // with them blocked.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  signal(SIGPIPE, SIG_IGN);  // a client that hangs up is the server's to notice, not a crash

  static const parser::NativeExpressionParser parser;
  storage::Database::Options options;
  options.expression_parser = &parser;
  if (fixed_clock) {
    const double t = *fixed_clock;
    options.clock = [t] { return t; };
    serve.clock = options.clock;
  }
  auto db = storage::Database::Open(*path, options);
  if (!db.ok()) {
    std::fprintf(stderr, "keyhole serve: %s: %s\n", std::string(db.status().name()).c_str(),
                 db.status().message().c_str());
    return 1;
  }
  // The report's file is opened now, so that a path that cannot be written is said at once
  // rather than found when the server stops.
  std::ofstream report_file;
  if (scan_report) {
    report_file.open(*scan_report, std::ios::trunc);
    if (!report_file) {
      std::fprintf(stderr, "keyhole serve: cannot write %s: %s\n", scan_report->c_str(),
                   std::strerror(errno));
      return 1;
    }
  }
  std::mutex log_mutex;
  server::ScanLog scans([&](std::string_view line) {
    std::lock_guard<std::mutex> lock(log_mutex);
    std::fprintf(stderr, "%.*s\n", static_cast<int>(line.size()), line.data());
  });
  api::ServiceOptions service_options;
  service_options.scan_unpinned_selects = !refuse_scans;
  service_options.scans = &scans;
  api::Service service(**db, service_options);
  server::DynamoDbServer protocol(service, serve);
  http.may_block = &server::DynamoDbServer::MayBlock;
  http.log = [&](std::string_view line) {
    std::lock_guard<std::mutex> lock(log_mutex);
    std::fprintf(stderr, "keyhole serve: %.*s\n", static_cast<int>(line.size()), line.data());
  };
  server::HttpServer http_server(http,
                                 [&](const server::HttpRequest& r) { return protocol.Handle(r); });
  Result<int> port = http_server.Bind();
  if (!port.ok()) {
    std::fprintf(stderr, "keyhole serve: %s\n", port.status().message().c_str());
    return 1;
  }
  if (!IsLoopback(http.host)) {
    std::fprintf(
        stderr, "keyhole serve: warning: listening on %s, reachable from other machines%s\n",
        http.host.c_str(), serve.require_signature ? "" : ", with any credentials accepted");
  }
  if (Status started = http_server.Start(); !started.ok()) {
    std::fprintf(stderr, "keyhole serve: %s\n", started.message().c_str());
    return 1;
  }
  std::printf("keyhole serve: listening on %s://%s:%d (%s)\n",
              http.tls_cert_pem.empty() ? "http" : "https", http.host.c_str(), *port,
              path->c_str());
  std::fflush(stdout);

  std::thread serving([&] { http_server.Serve(); });
  // Expired TTL items go periodically, beside the requests.
  std::optional<server::TtlSweeper> sweeper;
  sweeper.emplace(**db, std::chrono::seconds(sweep_seconds));
  int signal_number = 0;
  sigwait(&stop_signals, &signal_number);
  std::fprintf(stderr, "keyhole serve: %s: stopping after the requests in flight\n",
               signal_number == SIGINT ? "interrupted" : "terminated");
  http_server.Stop();
  serving.join();
  sweeper.reset();
  int status = 0;
  if (scan_report) {
    report_file << scans.Report();
    report_file.close();
    if (!report_file) {
      std::fprintf(stderr, "keyhole serve: cannot write %s: %s\n", scan_report->c_str(),
                   std::strerror(errno));
      status = 1;
    } else {
      std::fprintf(stderr, "keyhole serve: scan report written to %s\n", scan_report->c_str());
    }
  }
  const server::HttpServer::Cuts cuts = http_server.cuts();
  std::string cut;
  if (cuts.late > 0 || cuts.for_room > 0) {
    cut = " (" + std::to_string(cuts.late) + " cut at the request timeout, " +
          std::to_string(cuts.for_room) + " at the connection limit)";
  }
  std::fprintf(stderr, "keyhole serve: stopped after %llu request%s%s\n",
               static_cast<unsigned long long>(protocol.requests()),
               protocol.requests() == 1 ? "" : "s", cut.c_str());
  return status;
}

}  // namespace keyhole::cli
