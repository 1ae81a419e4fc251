// keyhole_sqltest: a sqllogictest-style runner for keyhole's shell.
//
//   keyhole_sqltest FILE.test [--rewrite] [--backend file|http|https --tls-dir DIR]
//
// --backend http runs the same records through the HTTP stack: the session's Backend is a
// remote::RemoteBackend talking to an in-process `keyhole serve` (server::HttpServer and
// DynamoDbServer, api::Service) on a loopback port, over the same file; the local-only commands
// (.clock, .ttl sweep, .import) use the file directly. --backend https does the same over
// HTTPS (the certificate and key DIR/server.pem and DIR/server.key, trusted through the test CA
// DIR/ca.pem, as AWS_CA_BUNDLE would), with signatures required by the server and every request
// signed by the RemoteBackend. Every file must give the same results each way (ctest runs each
// three times: sql.<name>, sql.<name>.http and sql.<name>.https).
//
// Opens a fresh database in a temporary directory (no fsync; a fixed clock, so that
// CreationDateTime is always 1700000000), makes a shell::Session over a shell::StringSink (output
// mode ddb, the Settings defaults) and runs FILE's records in order.
// Exit status 0 when every record passed, 1 when one failed, 2 for a usage or I/O error. The last
// line printed is `N records, M failed`.
//
// ==== The format ====
//
// A file is a sequence of records separated by blank lines. Outside a record, blank lines and
// lines starting with `#` are ignored. Records:
//
//   statement ok
//   <statement or dot-command; may span lines; ends at a blank line>
//       passes when it succeeds and writes nothing to the error stream (its output is ignored)
//
//   statement error [<text>]
//   <statement>
//       passes when it fails and the error stream contains <text> (no text: any error)
//
//   query [rowsort]
//   <statement>
//   ----
//   <expected output>
//       passes when the statement succeeds, writes nothing to the error stream, and every line
//       it wrote to the output stream (footers included) equals the expected lines. A blank
//       output line is written as a line holding a single `.`. With `rowsort`, the lines that do
//       not start with "-- " are sorted (the "-- " lines follow them, in their order) on both
//       sides before comparing. The expected block ends at a blank line (or the end of the file);
//       a record without `----` expects no output.
//
//   explain
//   <statement>
//   ----
//   <expected output>
//       runs "EXPLAIN <statement>" and compares like `query`.
//
//   restart
//       closes the session and the database and reopens the same file with a new session
//       (data persists; settings are back to their defaults).
//
//   halt
//       stops here (for debugging a file).
//
// Inside a record every line is taken literally (a `#` line there is part of the statement or
// of the expected output). A statement therefore cannot contain a blank line.
//
// Each statement runs with Session::RunScript(text, FILE, <line of its first line in FILE>), so
// error messages name FILE's lines. A failure prints `FILE:LINE: ` (LINE: the record's first
// line), what was expected and what came out (a small unified diff for query/explain).
//
// --rewrite replaces the expected block of every failing query/explain record with the actual
// output and rewrites FILE in place (to draft tests: read every drafted expectation and check it
// by reasoning before keeping it).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "api/service.h"

#include "parser/expression_parser.h"
#include "remote/remote_backend.h"
#include "server/dynamodb_server.h"
#include "server/http.h"
#include "shell/session.h"
#include "storage/database.h"

namespace {

using keyhole::shell::Session;
using keyhole::shell::StringSink;
using keyhole::storage::Database;

enum class Kind { kStatementOk, kStatementError, kQuery, kExplain, kRestart, kHalt, kUnknown };

struct Record {
  Kind kind = Kind::kUnknown;
  int line = 0;            // 1-based line of the record's header
  std::string header;      // the header line as written
  std::string error_text;  // statement error
  bool rowsort = false;    // query rowsort
  std::string statement;   // lines joined with '\n'
  int statement_line = 0;  // 1-based line of the statement's first line
  bool has_separator = false;
  std::vector<std::string> expected;
  // 0-based indexes into the file's lines: [expected_begin, expected_end) is the expected block
  // (after `----`); separator_index is the `----` line, or where it would go (-1: none).
  size_t expected_begin = 0, expected_end = 0;
};

std::vector<std::string> SplitLines(std::string_view text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) {
      lines.emplace_back(text.substr(start));
      break;
    }
    lines.emplace_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  for (auto& l : lines) {
    if (!l.empty() && l.back() == '\r') l.pop_back();
  }
  return lines;
}

bool IsBlank(std::string_view s) { return s.find_first_not_of(" \t\r") == std::string_view::npos; }

std::string Trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return "";
  size_t e = s.find_last_not_of(" \t\r");
  return std::string(s.substr(b, e - b + 1));
}

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// Parses the file's lines into records.
std::vector<Record> ParseRecords(const std::vector<std::string>& lines) {
  std::vector<Record> records;
  size_t i = 0;
  while (i < lines.size()) {
    const std::string& l = lines[i];
    if (IsBlank(l) || StartsWith(l, "#")) {
      ++i;
      continue;
    }
    Record r;
    r.line = static_cast<int>(i) + 1;
    r.header = Trim(l);
    std::string h = r.header;
    if (h == "statement ok") {
      r.kind = Kind::kStatementOk;
    } else if (h == "statement error" || StartsWith(h, "statement error ")) {
      r.kind = Kind::kStatementError;
      r.error_text = h.size() > 15 ? Trim(std::string_view(h).substr(16)) : "";
    } else if (h == "query" || h == "query rowsort") {
      r.kind = Kind::kQuery;
      r.rowsort = h == "query rowsort";
    } else if (h == "explain") {
      r.kind = Kind::kExplain;
    } else if (h == "restart") {
      r.kind = Kind::kRestart;
    } else if (h == "halt") {
      r.kind = Kind::kHalt;
    }
    ++i;
    if (r.kind == Kind::kRestart || r.kind == Kind::kHalt) {
      records.push_back(std::move(r));
      continue;
    }
    // The body: statement lines, then for query/explain `----` and the expected lines.
    bool compares = r.kind == Kind::kQuery || r.kind == Kind::kExplain;
    r.statement_line = static_cast<int>(i) + 1;
    std::string statement;
    while (i < lines.size() && !IsBlank(lines[i])) {
      if (compares && Trim(lines[i]) == "----") {
        r.has_separator = true;
        break;
      }
      statement += (statement.empty() ? "" : "\n") + lines[i];
      ++i;
    }
    r.statement = std::move(statement);
    if (r.has_separator) {
      ++i;
      r.expected_begin = i;
      while (i < lines.size() && !IsBlank(lines[i])) r.expected.push_back(lines[i++]);
      r.expected_end = i;
    } else {
      r.expected_begin = r.expected_end = i;
    }
    records.push_back(std::move(r));
  }
  return records;
}

// The output as the file writes it: one entry per line, a blank line as ".".
std::vector<std::string> OutputLines(std::string_view out) {
  std::vector<std::string> lines = SplitLines(out);
  for (auto& l : lines) {
    if (l.empty()) l = ".";
  }
  return lines;
}

// rowsort: the lines not starting with "-- " sorted, then the "-- " lines in their order.
std::vector<std::string> RowSorted(const std::vector<std::string>& lines) {
  std::vector<std::string> rows, footers;
  for (const auto& l : lines) (StartsWith(l, "-- ") ? footers : rows).push_back(l);
  std::sort(rows.begin(), rows.end());
  rows.insert(rows.end(), footers.begin(), footers.end());
  return rows;
}

// A small unified-style diff (LCS over lines): " " common, "-" expected only, "+" actual only.
std::string Diff(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  size_t n = a.size(), m = b.size();
  std::vector<std::vector<int>> lcs(n + 1, std::vector<int>(m + 1, 0));
  for (size_t i = n; i-- > 0;) {
    for (size_t j = m; j-- > 0;) {
      lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  std::string out = "  --- expected\n  +++ actual\n";
  size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] == b[j]) {
      out += "   " + a[i++] + "\n";
      ++j;
    } else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1])) {
      out += "  -" + a[i++] + "\n";
    } else {
      out += "  +" + b[j++] + "\n";
    }
  }
  return out;
}

std::string Indented(std::string_view text) {
  std::string out;
  for (const auto& l : SplitLines(text)) out += "    " + l + "\n";
  return out.empty() ? "    (nothing)\n" : out;
}

bool ReadFile(const std::string& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::stringstream text;
  text << in.rdbuf();
  *out = text.str();
  return !out->empty();
}

class Runner {
 public:
  // `http`: the session runs on a RemoteBackend talking to an in-process `keyhole serve` (the
  // HTTP front end, api::Service and the same file), its local-only commands on the file.
  // `tls_dir`: HTTPS with signatures (the header) when not empty.
  Runner(std::string file, std::string db_path, bool http, std::string tls_dir)
      : file_(std::move(file)),
        db_path_(std::move(db_path)),
        http_(http),
        tls_dir_(std::move(tls_dir)) {}
  ~Runner() { Close(); }

  bool Open() {
    static const keyhole::parser::NativeExpressionParser parser;
    Database::Options options;
    options.create_if_missing = true;
    options.sync = false;
    options.expression_parser = &parser;
    options.clock = [] { return 1700000000.0; };  // stable CreationDateTime in DESCRIBE
    auto db = Database::Open(db_path_, options);
    if (!db.ok()) {
      std::fprintf(stderr, "keyhole_sqltest: cannot open %s: %s\n", db_path_.c_str(),
                   db.status().ToString().c_str());
      return false;
    }
    db_ = std::move(*db);
    keyhole::Backend* backend = db_.get();
    if (http_) {
      service_ = std::make_unique<keyhole::api::Service>(*db_);
      keyhole::server::ServeOptions serve;
      keyhole::server::HttpOptions options;
      options.port = 0;
      constexpr char kKey[] = "AKIDKEYHOLESQLTEST", kSecret[] = "sql/test+secret";
      if (!tls_dir_.empty()) {
        serve.require_signature = true;
        serve.credentials[kKey] = kSecret;
        if (!ReadFile(tls_dir_ + "/server.pem", &options.tls_cert_pem) ||
            !ReadFile(tls_dir_ + "/server.key", &options.tls_key_pem)) {
          std::fprintf(stderr, "keyhole_sqltest: cannot read %s/server.pem and server.key\n",
                       tls_dir_.c_str());
          return false;
        }
      }
      protocol_ = std::make_unique<keyhole::server::DynamoDbServer>(*service_, serve);
      http_server_ = std::make_unique<keyhole::server::HttpServer>(
          options, [this](const keyhole::server::HttpRequest& r) { return protocol_->Handle(r); });
      auto port = http_server_->Bind();
      if (!port.ok()) {
        std::fprintf(stderr, "keyhole_sqltest: %s\n", port.status().ToString().c_str());
        return false;
      }
      if (keyhole::Status started = http_server_->Start(); !started.ok()) {
        std::fprintf(stderr, "keyhole_sqltest: %s\n", started.ToString().c_str());
        return false;
      }
      serving_ = std::thread([this] { http_server_->Serve(); });
      keyhole::remote::RemoteBackend::Options remote;
      remote.endpoint =
          (tls_dir_.empty() ? "http://127.0.0.1:" : "https://127.0.0.1:") + std::to_string(*port);
      if (!tls_dir_.empty()) {
        remote.http.ca_bundle = tls_dir_ + "/ca.pem";
        keyhole::aws::Credentials credentials;
        credentials.access_key_id = kKey;
        credentials.secret_access_key = kSecret;
        credentials.source = "keyhole_sqltest";
        remote.credentials = keyhole::aws::CredentialProvider::Fixed(credentials);
        // Signed for region "local": keyhole serve answers with ARNs in the region a request
        // was signed for, and the files expect keyhole's own ("local").
        remote.region = "local";
      }
      auto created = keyhole::remote::RemoteBackend::Create(remote);
      if (!created.ok()) {
        std::fprintf(stderr, "keyhole_sqltest: %s\n", created.status().ToString().c_str());
        return false;
      }
      remote_ = std::move(*created);
      backend = remote_.get();
    }
    sink_ = std::make_unique<StringSink>();
    session_ = std::make_unique<Session>(*backend, db_.get(), db_path_, *sink_);
    return true;
  }

  void Close() {
    session_.reset();
    sink_.reset();
    remote_.reset();
    if (http_server_) http_server_->Stop();
    if (serving_.joinable()) serving_.join();
    http_server_.reset();
    protocol_.reset();
    service_.reset();
    db_.reset();
  }

  // Runs `text`; fills out/err with what the session wrote. Returns RunScript's result.
  bool Run(const std::string& text, int line, std::string* out, std::string* err) {
    sink_->out.clear();
    sink_->err.clear();
    bool ok = session_->RunScript(text, file_, line);
    *out = sink_->out;
    *err = sink_->err;
    return ok;
  }

 private:
  std::string file_, db_path_;
  bool http_ = false;
  std::string tls_dir_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<keyhole::api::Service> service_;
  std::unique_ptr<keyhole::server::DynamoDbServer> protocol_;
  std::unique_ptr<keyhole::server::HttpServer> http_server_;
  std::thread serving_;
  std::unique_ptr<keyhole::remote::RemoteBackend> remote_;
  std::unique_ptr<StringSink> sink_;
  std::unique_ptr<Session> session_;
};

}  // namespace

int main(int argc, char** argv) {
  std::string file;
  bool rewrite = false;
  bool http = false, https = false;
  std::string tls_dir;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--rewrite") {
      rewrite = true;
    } else if (a == "--backend" && i + 1 < argc &&
               (std::string(argv[i + 1]) == "http" || std::string(argv[i + 1]) == "https" ||
                std::string(argv[i + 1]) == "file")) {
      const std::string backend = argv[++i];
      http = backend != "file";
      https = backend == "https";
    } else if (a == "--tls-dir" && i + 1 < argc) {
      tls_dir = argv[++i];
    } else if (file.empty() && !a.empty() && a[0] != '-') {
      file = a;
    } else {
      file.clear();
      break;
    }
  }
  if (file.empty() || https != !tls_dir.empty()) {
    std::fprintf(stderr,
                 "usage: keyhole_sqltest FILE.test [--rewrite] "
                 "[--backend file|http|https --tls-dir DIR]\n");
    return 2;
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "keyhole_sqltest: cannot read %s\n", file.c_str());
    return 2;
  }
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string content = buffer.str();
  std::vector<std::string> lines = SplitLines(content);
  std::vector<Record> records = ParseRecords(lines);

  std::error_code ec;
  std::filesystem::path base = std::filesystem::temp_directory_path(ec);
  if (ec) base = "/tmp";
  std::string tmpl = (base / "keyhole_sqltest.XXXXXX").string();
  if (::mkdtemp(tmpl.data()) == nullptr) {
    std::fprintf(stderr, "keyhole_sqltest: cannot create a temporary directory\n");
    return 2;
  }
  std::filesystem::path dir = tmpl;
  int status = 0;
  {
    Runner runner(file, (dir / "test.kh").string(), http, tls_dir);
    if (!runner.Open()) {
      std::filesystem::remove_all(dir, ec);
      return 2;
    }
    // Replacements for --rewrite: (record index, actual lines).
    std::vector<std::pair<size_t, std::vector<std::string>>> rewrites;
    int count = 0, failed = 0;
    for (size_t ri = 0; ri < records.size(); ++ri) {
      const Record& r = records[ri];
      if (r.kind == Kind::kHalt) break;
      ++count;
      std::string where = file + ":" + std::to_string(r.line) + ": ";
      auto fail = [&](const std::string& message) {
        ++failed;
        std::printf("%s%s", where.c_str(), message.c_str());
        std::fflush(stdout);
      };
      switch (r.kind) {
        case Kind::kUnknown:
          fail("unknown record '" + r.header +
               "' (statement ok | statement error [text] | query [rowsort] | explain | restart | "
               "halt)\n");
          break;
        case Kind::kRestart:
          runner.Close();
          if (!runner.Open()) {
            fail("restart failed\n");
            std::filesystem::remove_all(dir, ec);
            return 2;
          }
          break;
        case Kind::kHalt:
          break;
        case Kind::kStatementOk: {
          std::string out, err;
          bool ok = runner.Run(r.statement, r.statement_line, &out, &err);
          if (!ok || !err.empty()) {
            fail(std::string("statement ok ") + (ok ? "wrote errors" : "failed") + ":\n" +
                 Indented(r.statement) + "  error output:\n" + Indented(err));
          }
          break;
        }
        case Kind::kStatementError: {
          std::string out, err;
          bool ok = runner.Run(r.statement, r.statement_line, &out, &err);
          if (ok) {
            fail("statement error: the statement succeeded:\n" + Indented(r.statement) +
                 "  output:\n" + Indented(out) +
                 (err.empty() ? "" : "  error output:\n" + Indented(err)));
          } else if (err.find(r.error_text) == std::string::npos) {
            fail("statement error: expected an error containing\n    " + r.error_text +
                 "\n  error output:\n" + Indented(err));
          }
          break;
        }
        case Kind::kQuery:
        case Kind::kExplain: {
          std::string text = r.kind == Kind::kExplain ? "EXPLAIN " + r.statement : r.statement;
          std::string out, err;
          bool ok = runner.Run(text, r.statement_line, &out, &err);
          std::vector<std::string> actual = OutputLines(out);
          std::vector<std::string> expected = r.expected;
          if (r.rowsort) {
            actual = RowSorted(actual);
            expected = RowSorted(expected);
          }
          std::string what = r.kind == Kind::kExplain ? "explain" : "query";
          if (!ok || !err.empty()) {
            fail(what + " " + (ok ? "wrote errors" : "failed") + ":\n" + Indented(text) +
                 "  error output:\n" + Indented(err) +
                 (actual == expected ? "" : "  output:\n" + Diff(expected, actual)));
            if (actual != expected) rewrites.emplace_back(ri, actual);
          } else if (actual != expected) {
            fail(what + " output differs:\n" + Indented(text) + Diff(expected, actual));
            rewrites.emplace_back(ri, actual);
          }
          break;
        }
      }
    }
    std::printf("%d records, %d failed\n", count, failed);
    status = failed ? 1 : 0;

    if (rewrite && !rewrites.empty()) {
      // Rebuild the file from its lines, replacing each rewritten record's expected block.
      std::vector<std::string> result;
      size_t next = 0;
      for (const auto& [ri, actual] : rewrites) {
        const Record& r = records[ri];
        for (; next < r.expected_begin; ++next) result.push_back(lines[next]);
        if (!r.has_separator) result.push_back("----");
        for (const auto& l : actual) result.push_back(l);
        next = r.expected_end;
      }
      for (; next < lines.size(); ++next) result.push_back(lines[next]);
      std::string text;
      for (const auto& l : result) text += l + "\n";
      std::ofstream o(file, std::ios::binary | std::ios::trunc);
      o << text;
      if (!o) {
        std::fprintf(stderr, "keyhole_sqltest: cannot write %s\n", file.c_str());
        status = 2;
      } else {
        std::printf("rewrote %zu record(s) in %s\n", rewrites.size(), file.c_str());
      }
    }
  }
  std::filesystem::remove_all(dir, ec);
  return status;
}
