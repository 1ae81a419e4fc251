// The dot-commands: one table (kCommands) drives both dispatch and .help. Names follow the
// sqlite3 shell's where one exists (design.md); .collection, .pagesize and .startkey are
// keyhole's own.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include "api/batch_writer.h"
#include "core/ddb_json.h"
#include "core/item.h"
#include "core/item_codec.h"
#include "core/json.h"
#include "core/strings.h"
#include "parser/partiql.h"
#include "shell/session_state.h"
#include "shell/terminal.h"

namespace keyhole::shell {

namespace {

using State = Session::State;
using Args = std::vector<std::string>;  // words after the command name

struct DotCommand {
  const char* name;   // ".tables"
  const char* usage;  // arguments, for .help
  const char* help;   // one line
  bool (*run)(State& s, const Args& args, Location at);
  bool timed = false;  // does work that .timer measures (reads or writes data, runs files)
};

// "on" / "off" (or 1 / 0, yes / no) for switches.
bool ParseSwitch(const Args& args, bool* value) {
  if (args.size() != 1) return false;
  const std::string v = AsciiLower(args[0]);
  if (v == "on" || v == "1" || v == "yes" || v == "true") {
    *value = true;
  } else if (v == "off" || v == "0" || v == "no" || v == "false") {
    *value = false;
  } else {
    return false;
  }
  return true;
}

Result<std::string> ReadFile(const std::string& path) {
  std::string text;
  if (!ReadWholeFile(path, &text)) {
    return Status::Validation(
        fmt::format("cannot read {}: {}", Shorten(path), std::strerror(errno)));
  }
  return text;
}

// `.NAME [N]`: shows the setting, or sets it to a whole number >= 0.
template <typename T>
bool NumberSetting(State& s, const Args& args, Location at, const char* name, const char* meaning,
                   T* value) {
  if (args.empty()) {
    s.Notice(fmt::format("-- {} {}\n", name, *value));
    return true;
  }
  char* end = nullptr;
  long long n = args.size() == 1 ? std::strtoll(args[0].c_str(), &end, 10) : -1;
  if (args.size() != 1 || end == args[0].c_str() || *end != '\0' || n < 0) {
    return s.Fail(Status::Validation(fmt::format("usage: .{} N ({})", name, meaning)), at);
  }
  *value = static_cast<T>(n);
  return true;
}

bool Switch(State& s, const Args& args, Location at, bool* value, const char* what) {
  if (!ParseSwitch(args, value)) {
    return s.Fail(Status::Validation(fmt::format("usage: .{} on|off", what)), at);
  }
  return true;
}

bool RunHelp(State& s, const Args& args, Location at);

bool RunTables(State& s, const Args& args, Location at) {
  s.echo_suppressed = true;  // .tables was echoed already
  bool ok = s.RunStatement("SHOW TABLES", at);
  s.echo_suppressed = false;
  return ok;
}

bool RunSchema(State& s, const Args& args, Location at) {
  std::vector<std::string> names = args;
  if (names.empty()) {
    Result<ListTablesResponse> r = s.db().ListTables({});
    if (!r.ok()) return s.Fail(r.status(), at);
    names = r->table_names;
  }
  for (const std::string& n : names) {
    Result<TableSchemaPtr> t = s.db().TableSchema(n);
    if (!t.ok()) return s.Fail(t.status(), at);
    s.Out(parser::CreateTableText(**t) + "\n");
  }
  return true;
}

bool RunMode(State& s, const Args& args, Location at) {
  if (args.empty()) {
    s.Notice(fmt::format("-- mode {}\n", OutputModeName(s.settings.mode)));
    return true;
  }
  std::optional<OutputMode> m = args.size() == 1 ? ParseOutputMode(args[0]) : std::nullopt;
  if (!m) return s.Fail(Status::Validation("usage: .mode box|table|line|json|ddb|csv"), at);
  s.settings.mode = *m;
  return true;
}

// .expanded auto|off: on a terminal, box and table results wider than it print in line mode.
bool RunExpanded(State& s, const Args& args, Location at) {
  if (args.size() == 1 && (args[0] == "auto" || args[0] == "off")) {
    s.settings.expanded_auto = args[0] == "auto";
    return true;
  }
  if (args.empty()) {
    s.Notice(fmt::format("-- expanded {}\n", s.settings.expanded_auto ? "auto" : "off"));
    return true;
  }
  return s.Fail(Status::Validation("usage: .expanded auto|off"), at);
}

// .maxwidth [N]: box and table cells are cut to N display columns ("…"; 0: never).
bool RunMaxWidth(State& s, const Args& args, Location at) {
  return NumberSetting(s, args, at, "maxwidth", "display columns per cell; 0: no limit",
                       &s.settings.max_cell_width);
}

bool RunPager(State& s, const Args& a, Location at) {
  return Switch(s, a, at, &s.settings.pager, "pager");
}

bool RunHeaders(State& s, const Args& a, Location at) {
  return Switch(s, a, at, &s.settings.headers, "headers");
}
// .consistent on|off: SELECTs read the table strongly consistent (ConsistentRead), as
// ExecuteStatement's ConsistentRead does; a GSI refuses it, as DynamoDB's do.
bool RunConsistent(State& s, const Args& a, Location at) {
  return Switch(s, a, at, &s.settings.consistent, "consistent");
}
bool RunTimer(State& s, const Args& a, Location at) {
  return Switch(s, a, at, &s.settings.timer, "timer");
}
bool RunBail(State& s, const Args& a, Location at) {
  return Switch(s, a, at, &s.settings.bail, "bail");
}
bool RunEcho(State& s, const Args& a, Location at) {
  return Switch(s, a, at, &s.settings.echo, "echo");
}

// The text of .read's or .patterns' FILE, with the nesting of files bounded.
Result<std::string> NestedFile(State& s, const Args& args, const char* command) {
  if (args.size() != 1) return Status::Validation(fmt::format("usage: {} FILE", command));
  if (s.read_depth >= 16) {
    return Status::Validation(
        fmt::format("{} nested more than 16 deep (a file reading itself?)", command));
  }
  return ReadFile(args[0]);
}

bool RunRead(State& s, const Args& args, Location at) {
  Result<std::string> text = NestedFile(s, args, ".read");
  if (!text.ok()) return s.Fail(text.status(), at);
  return s.RunFile(*text, args[0]);
}

bool RunPatternsCommand(State& s, const Args& args, Location at) {
  Result<std::string> text = NestedFile(s, args, ".patterns");
  if (!text.ok()) return s.Fail(text.status(), at);
  ++s.read_depth;
  bool ok = RunPatterns(s, *text, args[0]);
  --s.read_depth;
  return ok;
}

// .quiet on: statements print their results and errors, not their footers and notices;
// .quiet off: one line sums up what ran (Session::State::EndQuiet).
bool RunQuiet(State& s, const Args& args, Location at) {
  bool on = false;
  if (!ParseSwitch(args, &on)) return s.Fail(Status::Validation("usage: .quiet on|off"), at);
  if (!on) {
    s.EndQuiet();
  } else {
    s.quiet.Start();
  }
  return true;
}

bool Redirect(State& s, const Args& args, Location at, bool once) {
  if (!s.CloseRedirect(/*close=*/true, at)) return false;
  if (args.empty() && !once) return true;  // .output alone: back to standard output
  if (args.size() != 1) {
    return s.Fail(Status::Validation(once ? "usage: .once FILE" : "usage: .output [FILE]"), at);
  }
  if (int error = s.redirect.Open(args[0], once)) {
    return s.Fail(Status::Validation(
                      fmt::format("cannot write {}: {}", Shorten(args[0]), std::strerror(error))),
                  at);
  }
  return true;
}
bool RunOutput(State& s, const Args& args, Location at) { return Redirect(s, args, at, false); }
// The file stays open until the next statement ends (RunScript's EndStatement).
bool RunOnce(State& s, const Args& args, Location at) { return Redirect(s, args, at, true); }

bool RunPagesize(State& s, const Args& args, Location at) {
  return NumberSetting(s, args, at, "pagesize", "items evaluated per page; 0: none",
                       &s.settings.pagesize);
}

bool RunStartKey(State& s, const Args& args, Location at) {
  if (args.size() != 1) {
    return s.Fail(Status::Validation("usage: .startkey {DynamoDB JSON key}"), at);
  }
  Result<Item> key = ItemFromJsonText(args[0]);
  if (!key.ok()) return s.Fail(key.status(), at);
  s.start_key = std::move(*key);
  return true;
}

// .clock [TIME | system]: the clock TTL expiry, creation times and stream records read, fixed
// for the session so that scripts give the same output every time.
bool RunClock(State& s, const Args& args, Location at) {
  if (args.empty()) {
    double now = s.now();
    std::time_t whole = static_cast<std::time_t>(std::floor(now));
    std::tm tm{};
    gmtime_r(&whole, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    s.Notice(fmt::format("-- clock {} ({:.0f}){}\n", buf, now, s.fixed_clock ? "" : " · system"));
    return true;
  }
  if (args.size() != 1) {
    return s.Fail(
        Status::Validation("usage: .clock [YYYY-MM-DDTHH:MM:SSZ | epoch seconds | system]"), at);
  }
  Result<LocalControl*> local = s.Local(".clock");
  if (!local.ok()) return s.Fail(local.status(), at);
  if (args[0] == "system") {
    s.fixed_clock.reset();
    (*local)->SetClock(nullptr);
    return true;
  }
  std::optional<double> seconds;
  std::tm tm{};
  const char* end = strptime(args[0].c_str(), "%Y-%m-%dT%H:%M:%S", &tm);
  if (end && (*end == '\0' || std::string_view(end) == "Z")) {
    seconds = static_cast<double>(timegm(&tm));
  } else {
    char* stop = nullptr;
    double v = std::strtod(args[0].c_str(), &stop);
    if (stop != args[0].c_str() && *stop == '\0' && std::isfinite(v)) seconds = v;
  }
  if (!seconds) {
    return s.Fail(
        Status::Validation(fmt::format(
            "cannot read '{}' as a time: give 2030-01-01T00:00:00Z or epoch seconds", args[0])),
        at);
  }
  s.fixed_clock = *seconds;
  double fixed = *seconds;
  (*local)->SetClock([fixed] { return fixed; });
  return true;
}

// .check: every index of every table agrees with its table (LocalControl::VerifyIntegrity),
// as sqlite3's PRAGMA integrity_check; a disagreement is an error (exit status 1 in a script).
bool RunCheck(State& s, const Args& args, Location at) {
  if (!args.empty()) return s.Fail(Status::Validation("usage: .check"), at);
  Result<LocalControl*> local = s.Local(".check");
  if (!local.ok()) return s.Fail(local.status(), at);
  Status ok = (*local)->VerifyIntegrity();
  if (!ok.ok()) return s.Fail(ok, at);
  s.Notice("-- integrity ok: every index agrees with its table\n");
  return true;
}

// .ttl: each table's TTL attribute; .ttl sweep [TABLE]: delete expired items now.
bool RunTtl(State& s, const Args& args, Location at) {
  if (!args.empty() && args[0] == "sweep" && args.size() <= 2) {
    Result<LocalControl*> local = s.Local(".ttl sweep");
    if (!local.ok()) return s.Fail(local.status(), at);
    Result<int64_t> n = (*local)->SweepExpiredItems(args.size() == 2 ? args[1] : "");
    if (!n.ok()) return s.Fail(n.status(), at);
    s.Notice(fmt::format("-- {} expired item{} deleted\n", *n, *n == 1 ? "" : "s"));
    return true;
  }
  if (!args.empty()) return s.Fail(Status::Validation("usage: .ttl [sweep [TABLE]]"), at);
  Result<ListTablesResponse> tables = s.db().ListTables({});
  if (!tables.ok()) return s.Fail(tables.status(), at);
  for (const std::string& name : tables->table_names) {
    Result<TableSchemaPtr> t = s.db().TableSchema(name);
    if (!t.ok()) return s.Fail(t.status(), at);
    s.Notice(fmt::format(
        "-- {}: {}\n", name,
        (*t)->ttl_attribute ? "TTL on " + *(*t)->ttl_attribute : std::string("no TTL")));
  }
  return true;
}

bool RunQuit(State& s, const Args& args, Location at) {
  s.quit = true;
  return true;
}

// ---- .import / .export ----

// Plain JSON -> an attribute value: numbers N (exact text), strings S, arrays L, objects M.
// Strings and names are moved out of `v`.
Result<AttributeValue> FromPlainJson(json::Value& v) {
  switch (v.kind()) {
    case json::Kind::kNull:
      return AttributeValue::Null();
    case json::Kind::kBool:
      return AttributeValue::Bool(v.boolean());
    case json::Kind::kNumber: {
      KH_ASSIGN_OR_RETURN(Number n, Number::Parse(v.number_text()));
      return AttributeValue::N(std::move(n));
    }
    case json::Kind::kString:
      return AttributeValue::S(std::move(v.str()));
    case json::Kind::kArray: {
      List l;
      l.reserve(v.array().size());
      for (json::Value& e : v.array()) {
        KH_ASSIGN_OR_RETURN(AttributeValue a, FromPlainJson(e));
        l.push_back(std::move(a));
      }
      return AttributeValue::L(std::move(l));
    }
    case json::Kind::kRaw:  // never parsed
      return Status::Internal("a written JSON value where a parsed one was expected");
    case json::Kind::kObject:
      break;
  }
  Map::Vector pairs;
  pairs.reserve(v.object().size());
  for (auto& [k, e] : v.object()) {
    KH_ASSIGN_OR_RETURN(AttributeValue a, FromPlainJson(e));
    pairs.emplace_back(std::move(k), std::move(a));
  }
  // One sort, whatever the order of the keys; a repeated key: the last one wins.
  return AttributeValue::M(Map::FromUnsorted(std::move(pairs), /*keep_last=*/true));
}

// True when every member of `v` looks like a DynamoDB JSON value ({"S": ...}, {"N": ...}, ...).
bool LooksLikeDynamoDbJson(const json::Value& v) {
  static const char* const kTypes[] = {"S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS"};
  if (v.object().empty()) return false;
  for (const auto& [k, e] : v.object()) {
    if (!e.IsObject() || e.object().size() != 1) return false;
    const std::string& t = e.object()[0].first;
    if (std::find_if(std::begin(kTypes), std::end(kTypes), [&](const char* x) { return t == x; }) ==
        std::end(kTypes))
      return false;
  }
  return true;
}

// One import line: {"Item": {DynamoDB JSON}} (S3 export), DynamoDB JSON, or plain JSON.
Result<Item> ImportLine(std::string_view line) {
  KH_ASSIGN_OR_RETURN(json::Value v, json::Parse(line));
  if (!v.IsObject()) return Status::Validation("expected a JSON object");
  const json::Value* wrapped = v.object().size() == 1 ? v.Find("Item") : nullptr;
  if (wrapped && wrapped->IsObject()) return ItemFromJson(*wrapped);
  if (LooksLikeDynamoDbJson(v)) return ItemFromJson(v);
  KH_ASSIGN_OR_RETURN(AttributeValue m, FromPlainJson(v));
  return std::move(m.m());
}

// Checks an item's key attributes against the table's schema before anything is written.
Status CheckKey(const TableDescription& t, const Item& item) {
  for (const KeyAttribute* k : {&t.key.partition, t.key.sort ? &*t.key.sort : nullptr}) {
    if (!k) continue;
    auto it = item.find(k->name);
    if (it == item.end()) {
      return Status::Validation(fmt::format(
          "One or more parameter values were invalid: Missing the key {} in the item", k->name));
    }
    if (it->second.type() != k->type) {
      return Status::Validation(fmt::format(
          "One or more parameter values were invalid: Type mismatch for key {} expected: {} "
          "actual: {}",
          k->name, TypeName(k->type), TypeName(it->second.type())));
    }
  }
  return Status::OK();
}

// Reads a file a block at a time and hands out its lines (of any length) without their '\n'.
class LineReader {
 public:
  explicit LineReader(std::FILE* f) : f_(f) {}
  // The next line (valid until the next call); false at the end or on a read error (error()).
  bool Next(std::string_view* line) {
    for (;;) {
      size_t eol = buf_.find('\n', scanned_);
      if (eol != std::string::npos) {
        *line = std::string_view(buf_).substr(pos_, eol - pos_);
        pos_ = scanned_ = eol + 1;
        return true;
      }
      if (eof_) {
        if (pos_ >= buf_.size()) return false;
        *line = std::string_view(buf_).substr(pos_);
        pos_ = scanned_ = buf_.size();
        return true;
      }
      buf_.erase(0, pos_);
      pos_ = 0;
      scanned_ = buf_.size();
      buf_.resize(scanned_ + kBlock);
      size_t n = std::fread(buf_.data() + scanned_, 1, kBlock, f_);
      buf_.resize(scanned_ + n);
      if (n < kBlock) {
        eof_ = true;
        if (std::ferror(f_)) error_ = errno ? errno : EIO;
      }
    }
  }
  int error() const { return error_; }
  // Back to the first line.
  void Rewind() {
    std::rewind(f_);
    buf_.clear();
    pos_ = scanned_ = 0;
    eof_ = false;
    error_ = 0;
  }

 private:
  static constexpr size_t kBlock = 1 << 20;
  std::FILE* f_;
  std::string buf_;
  size_t pos_ = 0;      // start of the next line
  size_t scanned_ = 0;  // buf_[pos_, scanned_) has no '\n'
  bool eof_ = false;
  int error_ = 0;
};

// "-- .import orders.jsonl: 120,000 items · 98,000 items/s" on a terminal's standard error,
// rewritten in place at most 4 times a second once the import has run a second; cleared at the
// end. Nothing when standard error is not a terminal, or under .quiet.
class ImportProgress {
 public:
  ImportProgress(const State& s, std::string_view file)
      : on_(isatty(STDERR_FILENO) && !s.quiet.on && !s.suppress_out), file_(file) {}
  ~ImportProgress() { Done(); }
  // Clears the line.
  void Done() {
    if (shown_) std::fputs("\r\033[K", stderr);
    shown_ = false;
  }
  void Update(int64_t items) {
    if (!on_) return;
    const Clock::time_point now = Clock::now();
    const double run = std::chrono::duration<double>(now - start_).count();
    if (run < 1 || now - last_ < std::chrono::milliseconds(250)) return;
    last_ = now;
    shown_ = true;
    std::fputs(fmt::format("\r-- .import {}: {} items \u00b7 {} items/s\033[K", file_,
                           Grouped(items), Grouped(static_cast<int64_t>(items / run)))
                   .c_str(),
               stderr);
    std::fflush(stderr);
  }

 private:
  static std::string Grouped(int64_t n) {
    std::string d = std::to_string(n), out;
    for (size_t i = 0; i < d.size(); ++i) {
      if (i && (d.size() - i) % 3 == 0) out += ',';
      out += d[i];
    }
    return out;
  }
  bool on_;
  std::string file_;
  bool shown_ = false;
  Clock::time_point start_ = Clock::now();
  Clock::time_point last_ = start_;
};

// .import on an endpoint: the source's items through BatchWriteItem (api::BatchWriter, four
// batches in flight). Not all or nothing, as a local import is: what was written before an
// error or Ctrl-C stays, and the message says how much that is.
bool ImportToEndpoint(State& s, const Args& args, Location at, const TableDescription& table,
                      LocalControl::ImportSource& source, ImportProgress* progress,
                      std::optional<int>* refused_line, std::optional<Status>& source_error) {
  std::vector<std::string> keys;
  for (const KeyAttribute* k : table.key.Attributes()) keys.push_back(k->name);
  api::BatchWriter::Options options;
  options.threads = 4;
  options.cancel = &g_interrupted;
  api::BatchWriter writer(s.db(), args[2], keys, options);
  Status status;
  std::vector<Item> batch;
  while (status.ok()) {
    batch.clear();
    Result<bool> more = source.next(&batch);
    if (!more.ok()) {
      status = more.status();
      break;
    }
    if (!*more) break;
    for (Item& item : batch) {
      status = writer.Add(std::move(item));
      if (!status.ok()) break;
    }
  }
  Status finished = writer.Finish();
  if (status.ok()) status = finished;
  progress->Done();
  if (!status.ok()) {
    if (source_error) status = *source_error;
    const std::string written =
        writer.written() == 0
            ? std::string("nothing was written")
            : fmt::format(
                  "{} written before it stopped stay in {} (an import to an endpoint is "
                  "not all or nothing)",
                  Count(writer.written(), "item"), args[2]);
    std::string message = status.message();
    if (const size_t cut = message.find(" (nothing imported)"); cut != std::string::npos) {
      message.resize(cut);
    }
    if (status.code() == ErrorCode::kInterrupted) message = "Interrupted";
    Status out = status.code() == ErrorCode::kOther
                     ? Status::Named(std::string(status.name()), message + ": " + written,
                                     status.http_status())
                     : Status(status.code(), message + ": " + written);
    if (!status.hint().empty()) out.WithHint(status.hint());
    return s.Fail(out, at);
  }
  (void)refused_line;
  s.Notice(fmt::format("-- {} imported into {} on {} · {}\n", Count(writer.written(), "item"),
                       args[2], s.settings.endpoint, CapacityText(writer.write_units(), "WCU")));
  return true;
}

// .import FILE INTO T: the file is read a batch of lines at a time; each line is checked (JSON,
// key attributes, item limits) and its item put, all or nothing (Database::ImportItems: staged
// into an empty table, one write transaction otherwise): a bad line, a bad item or Ctrl-C
// imports nothing. Memory: a batch, not the file.
bool RunImport(State& s, const Args& args, Location at) {
  if (args.size() != 3 || (args[1] != "INTO" && args[1] != "into")) {
    return s.Fail(Status::Validation("usage: .import FILE INTO TABLE"), at);
  }
  Result<TableSchemaPtr> t = s.db().TableSchema(args[2]);
  if (!t.ok()) return s.Fail(t.status(), at);
  if (!s.local && s.settings.endpoint.empty()) return s.Fail(s.Local(".import").status(), at);
  if (s.connection().in_transaction()) {
    return s.Fail(Status::Validation(".import cannot be part of a transaction (it is one "
                                     "already): COMMIT or ROLLBACK the open one first"),
                  at);
  }
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(args[0].c_str(), "rb"),
                                                       &std::fclose);
  if (!file) {
    return s.Fail(Status::Validation(
                      fmt::format("cannot read {}: {}", Shorten(args[0]), std::strerror(errno))),
                  at);
  }
  LineReader reader(file.get());
  ImportProgress progress(s, args[0]);
  constexpr size_t kBatch = 1000;
  int line_no = 0;
  int64_t items = 0;                   // given to ImportItems before the current batch
  std::vector<int> batch_lines;        // the line of each item of the current batch
  std::optional<int> refused_line;     // the line of the item ImportItems refused
  std::optional<Status> source_error;  // the file's own failure, already worded
  auto fail = [&](Status st) -> Status {
    source_error = st;
    return st;
  };
  LocalControl::ImportSource source;
  struct stat st = {};
  const bool seekable = fstat(fileno(file.get()), &st) == 0 && S_ISREG(st.st_mode);
  // A pipe cannot be read twice: room for a large import is made up front (address space, not
  // disk), and one that still outgrows it is refused below.
  source.expected_bytes = seekable ? static_cast<size_t>(st.st_size) : size_t{256} << 20;
  source.rewind = [&] {
    if (line_no > 0 && !seekable) {
      return fail(Status::Validation(fmt::format(
          "the import outgrew the database's map and {} cannot be read a second time: nothing "
          "imported (import from a regular file)",
          Shorten(args[0]))));
    }
    reader.Rewind();
    line_no = 0;
    items = 0;
    batch_lines.clear();
    return Status::OK();
  };
  source.refused = [&](int64_t item) {
    const int64_t k = item - items;
    if (k >= 0 && k < static_cast<int64_t>(batch_lines.size())) refused_line = batch_lines[k];
  };
  source.next = [&](std::vector<Item>* batch) -> Result<bool> {
    items += static_cast<int64_t>(batch_lines.size());
    batch_lines.clear();
    std::string_view line;
    while (batch->size() < kBatch && reader.Next(&line)) {
      ++line_no;
      if (g_interrupted.load(std::memory_order_relaxed)) {
        return fail(Status(ErrorCode::kInterrupted,
                           fmt::format("Interrupted while reading {} line {}: nothing was imported",
                                       args[0], line_no)));
      }
      // A file saved with a byte order mark (as PowerShell and some Windows editors write
      // UTF-8) starts after it, as a script does.
      if (line_no == 1 && line.starts_with("\xEF\xBB\xBF")) line.remove_prefix(3);
      if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
      Result<Item> item = ImportLine(line);
      Status st = item.ok() ? CheckKey(**t, *item) : item.status();
      if (st.ok()) st = ValidateItem(*item);
      if (!st.ok()) {
        return fail(Status(st.code(), fmt::format("{} line {}: {} (nothing imported)", args[0],
                                                  line_no, st.message())));
      }
      batch->push_back(std::move(*item));
      batch_lines.push_back(line_no);
    }
    if (reader.error()) {
      return fail(Status::Validation(fmt::format("cannot read {}: {}{}", Shorten(args[0]),
                                                 std::strerror(reader.error()),
                                                 line_no ? " (nothing imported)" : "")));
    }
    progress.Update(items + static_cast<int64_t>(batch->size()));
    return !batch->empty();
  };
  if (!s.local)
    return ImportToEndpoint(s, args, at, **t, source, &progress, &refused_line, source_error);
  Result<LocalControl::ImportResult> r = s.local->ImportItems(args[2], source, &g_interrupted);
  progress.Done();
  if (!r.ok()) {
    if (source_error) return s.Fail(*source_error, at);
    if (refused_line) {
      return s.Fail(
          Status(r.status().code(), fmt::format("{} line {}: {} (nothing imported)", args[0],
                                                *refused_line, r.status().message())),
          at);
    }
    // (Storage's own messages may say it already: "... nothing was imported".)
    const std::string& message = r.status().message();
    const bool said = r.status().code() == ErrorCode::kInterrupted ||
                      message.find("nothing was imported") != std::string::npos;
    return s.Fail(Status(r.status().code(), said ? message : message + " (nothing imported)"), at);
  }
  s.Notice(fmt::format("-- {} imported into {} · {}\n", Count(r->written, "item"), args[2],
                       CapacityText(r->write_units, "WCU")));
  return true;
}

// .export T TO FILE: every item, one {"Item": {DynamoDB JSON}} line each — the layout of
// DynamoDB's export to S3, which .import reads back.
bool RunExport(State& s, const Args& args, Location at) {
  if (args.size() != 3 || (args[1] != "TO" && args[1] != "to")) {
    return s.Fail(Status::Validation("usage: .export TABLE TO FILE"), at);
  }
  // A missing table is named as DescribeTable names it (Fail adds the closest name); Scan's
  // own answer would be a bare "Requested resource not found".
  Result<TableSchemaPtr> table = s.db().TableSchema(args[0]);
  if (!table.ok()) return s.Fail(table.status(), at);
  // Written page by page (memory holds one page) to a new FILE.keyhole-export-XXXXXX beside
  // FILE, given FILE's permissions and renamed to FILE at the end: an export that fails or is
  // interrupted leaves FILE as it was, and two exports to one FILE each write a whole file. A
  // FILE that is a symbolic link (/dev/stdout) or not a regular file (a pipe) is written
  // directly.
  const std::string& target = args[2];
  if (target.empty()) return s.Fail(Status::Validation("usage: .export TABLE TO FILE"), at);
  struct stat st = {};
  const bool exists = ::lstat(target.c_str(), &st) == 0;
  const bool direct = exists && !S_ISREG(st.st_mode);
  std::string path = target;
  std::FILE* f = nullptr;
  if (direct) {
    f = std::fopen(path.c_str(), "w");
  } else {
    path += ".keyhole-export-XXXXXX";
    const int fd = ::mkstemp(path.data());
    if (fd >= 0) {
      mode_t mode = st.st_mode & 07777;
      if (!exists) {
        const mode_t mask = ::umask(0);
        ::umask(mask);
        mode = 0666 & ~mask;
      }
      ::fchmod(fd, mode);
      f = ::fdopen(fd, "w");
      if (!f) {
        const int error = errno;
        ::close(fd);
        std::remove(path.c_str());
        errno = error;
      }
    }
  }
  if (!f) {
    return s.Fail(Status::Validation(
                      fmt::format("cannot write {}: {}", Shorten(target), std::strerror(errno))),
                  at);
  }
  const char* lost = direct ? "the export is incomplete" : "nothing exported";
  auto abandon = [&](const Status& why) {
    std::fclose(f);
    if (!direct) std::remove(path.c_str());
    return s.Fail(why, at);
  };
  ScanRequest scan;
  scan.table_name = args[0];
  scan.return_consumed_capacity = ReturnConsumedCapacity::kTotal;
  std::string out;
  int64_t n = 0;
  double units = 0;
  while (true) {
    if (g_interrupted.load(std::memory_order_relaxed)) {
      return abandon(Status(ErrorCode::kInterrupted,
                            fmt::format("Interrupted after {} ({})", Count(n, "item"), lost)));
    }
    Result<ScanResponse> page = s.db().Scan(scan);
    if (!page.ok()) return abandon(page.status());
    if (page->consumed_capacity) units += page->consumed_capacity->total.capacity_units;
    out.clear();
    for (size_t i = 0; i < page->items.size(); ++i) {
      out += "{\"Item\":";
      // Straight from the stored encoding when the page holds the item so (core/item_list.h).
      const size_t mark = out.size();
      const std::string_view encoded = page->items.Encoded(i);
      if (encoded.empty() || !AppendItemJsonText(encoded, &out)) {
        out.resize(mark);
        out += ItemToJsonText(std::as_const(page->items)[i]);
      }
      out += "}\n";
      ++n;
    }
    if (std::fwrite(out.data(), 1, out.size(), f) != out.size()) {
      return abandon(Status::Validation(
          fmt::format("writing {}: {} ({})", Shorten(target), std::strerror(errno), lost)));
    }
    if (!page->last_evaluated_key) break;
    scan.exclusive_start_key = std::move(page->last_evaluated_key);
  }
  if (std::fclose(f) != 0 || (!direct && std::rename(path.c_str(), target.c_str()) != 0)) {
    const int error = errno;
    if (!direct) std::remove(path.c_str());
    return s.Fail(Status::Validation(fmt::format("writing {}: {} ({})", Shorten(target),
                                                 std::strerror(error), lost)),
                  at);
  }
  s.Notice(fmt::format("-- {} exported to {} · {}\n", Count(n, "item"), args[2],
                       CapacityText(units, "RCU")));
  return true;
}

// .collection T 'pk': one item collection, drawn as NoSQL Workbench's aggregate view does:
// the partition key once, then the items in sort-key order with the sort key first.
bool RunCollection(State& s, const Args& args, Location at) {
  if (args.size() != 2) return s.Fail(Status::Validation("usage: .collection TABLE 'pk'"), at);
  Result<TableSchemaPtr> t = s.db().TableSchema(args[0]);
  if (!t.ok()) return s.Fail(t.status(), at);
  const KeyAttribute& pk = (*t)->key.partition;
  AttributeValue value = AttributeValue::S(args[1]);
  if (pk.type == ValueType::kN) {
    Result<Number> n = Number::Parse(args[1]);
    if (!n.ok()) return s.Fail(n.status(), at);
    value = AttributeValue::N(*n);
  } else if (pk.type == ValueType::kB) {
    std::string bytes;
    if (!Base64Decode(args[1], &bytes)) {
      return s.Fail(Status::Validation("the partition key is binary: give it in base64"), at);
    }
    value = AttributeValue::B(bytes);
  }
  QueryRequest q;
  q.table_name = args[0];
  q.key_condition.partition_name = pk.name;
  q.key_condition.partition_value = value;
  q.return_consumed_capacity = ReturnConsumedCapacity::kTotal;
  std::vector<Item> items;
  double units = 0;
  int64_t bytes = 0;
  while (true) {
    Result<QueryResponse> page = s.db().Query(q);
    if (!page.ok()) return s.Fail(page.status(), at);
    if (page->consumed_capacity) units += page->consumed_capacity->total.capacity_units;
    for (Item& item : page->items) {
      bytes += ItemSize(item);
      // A person sees the partition key once, in the header line; a program gets whole items.
      if (!IsMachineMode(s.settings.mode)) item.erase(pk.name);
      items.push_back(std::move(item));
    }
    if (!page->last_evaluated_key) break;
    q.exclusive_start_key = std::move(page->last_evaluated_key);
  }
  s.Notice(fmt::format("-- item collection {} = {} · {} · {} bytes\n", pk.name, FormatCell(value),
                       Count(static_cast<int64_t>(items.size()), "item"), bytes));
  // Rendered as SELECT renders (State::PrintItems): .maxwidth, .expanded auto, the pager.
  RenderOptions options;
  options.mode = s.settings.mode;
  options.headers = s.settings.headers;
  if ((*t)->key.sort) options.key_columns = {(*t)->key.sort->name};
  options.max_cell_width = s.settings.max_cell_width;
  const bool to_terminal = s.settings.terminal && !s.redirect.active() && !s.suppress_out;
  if (to_terminal && s.settings.expanded_auto) options.max_width = TerminalColumns();
  const std::string text = RenderItems(items, options);
  const size_t rows = to_terminal && s.settings.pager ? TerminalRows() : 0;
  if (rows <= 2 || static_cast<size_t>(std::count(text.begin(), text.end(), '\n')) <= rows - 2 ||
      !Page(text)) {
    s.Out(text);
  }
  s.Notice(fmt::format("-- {} returned · Query on {} · {}\n", items.size(), args[0],
                       CapacityText(units, "RCU")));
  return true;
}

// sqlite3's dot-commands that keyhole has under another name, or another way: what to use.
std::string_view SqliteCommandHint(std::string_view name) {
  static constexpr std::pair<std::string_view, std::string_view> kHints[] = {
      {".dump",
       "sqlite3's .dump is .export TABLE TO FILE here (a table's items as DynamoDB "
       "JSON lines); .schema prints the CREATE TABLE statements"},
      {".indexes",
       ".schema TABLE shows a table's indexes in its CREATE TABLE; DESCRIBE "
       "\"TABLE\" lists them"},
      {".indices",
       ".schema TABLE shows a table's indexes in its CREATE TABLE; DESCRIBE "
       "\"TABLE\" lists them"},
      {".open", "keyhole works on the file it was started with: quit, then keyhole FILE"},
      {".databases", "keyhole works on the file it was started with; .tables lists its tables"},
      {".show",
       ".mode, .headers, .timer and the other settings print theirs when given no "
       "argument"},
      {".width", ".maxwidth N cuts wide cells in box and table modes"},
      {".separator", ".mode csv writes comma-separated values"},
      {".save", "the database is one file: keyhole copy FILE OTHER.kh copies it"},
      {".backup", "the database is one file: keyhole copy FILE OTHER.kh copies it"},
      {".q", ".quit (or .exit, or Ctrl-D) leaves keyhole"},
  };
  for (const auto& [command, hint] : kHints) {
    if (name == command) return hint;
  }
  return "";
}

constexpr DotCommand kCommands[] = {
    {".help", "[COMMAND]", "this help, or one command's", RunHelp},
    {".tables", "", "list the tables", RunTables},
    {".schema", "[TABLE]", "the CREATE TABLE statement of each table (or of TABLE)", RunSchema,
     true},
    {".mode", "[box|table|line|json|ddb|csv]",
     "how results print: json is JSON Lines (one object per line), ddb DynamoDB JSON lines; in "
     "csv, json and ddb footers and notices go to standard error",
     RunMode},
    {".headers", "on|off", "column headers in box, table and csv modes", RunHeaders},
    {".timer", "on|off", "elapsed time in each footer", RunTimer},
    {".expanded", "auto|off", "on a terminal, results wider than it print in line mode",
     RunExpanded},
    {".maxwidth", "[N]", "cut box and table cells to N columns with … (0: never; default 80)",
     RunMaxWidth},
    {".pager", "on|off", "on a terminal, results longer than it go through $PAGER (less)",
     RunPager},
    {".read", "FILE", "run the statements and dot-commands of FILE", RunRead, true},
    {".output", "[FILE]", "send results to FILE (no argument: back to standard output)", RunOutput},
    {".once", "FILE", "send the next statement's results to FILE", RunOnce},
    {".bail", "on|off", "stop a script at the first failing statement", RunBail},
    {".echo", "on|off", "print each statement before running it", RunEcho},
    {".import", "FILE INTO TABLE",
     "put items from JSON lines: plain JSON, DynamoDB JSON, or {\"Item\": ...} (S3 export)",
     RunImport, true},
    {".export", "TABLE TO FILE", "write every item as {\"Item\": DynamoDB JSON} lines", RunExport,
     true},
    {".pagesize", "[N]",
     "evaluate at most N items per page of a SELECT; NEXT; reads on (0: 1 MB pages)", RunPagesize},
    {".startkey", "{KEY}", "the ExclusiveStartKey (DynamoDB JSON) of the next SELECT", RunStartKey},
    {".consistent", "on|off",
     "SELECTs read strongly consistent (ConsistentRead: twice the RCU; a GSI refuses it)",
     RunConsistent},
    {".collection", "TABLE 'pk'", "one item collection: its items in sort-key order", RunCollection,
     true},
    {".model", "[TABLE [BY TYPE-ATTRIBUTE]]",
     "the entity types the table's items imply, with their key templates", RunModel, true},
    {".draw", "TABLE [INDEX] [TO FILE.html|FILE.svg] [--partitions N] [--items N] [--partition V]",
     "a picture of the table (or index): item collections, entity types, what an index leaves out",
     RunDraw, true},
    {".generate", "TABLE ENTITY COUNT [PER PARENT] [BY TYPE-ATTRIBUTE] [--seed N] [--skew zipf:S]",
     "more items of an entity type, shaped like the table's (a skew makes a hot partition)",
     RunGenerate, true},
    {".import-model", "MODEL.json",
     "create the tables of a NoSQL Workbench data model, with its items", RunImportModel, true},
    {".export-model", "FILE [TABLE...] [--format workbench|cloudformation|cli]",
     "the tables (and items) as a Workbench model, a CloudFormation template or create-table "
     "input",
     RunExportModel, true},
    {".patterns", "FILE",
     "run the named access patterns of FILE: one row per pattern, fails on a Scan or refusal",
     RunPatternsCommand, true},
    {".plan", "FILE [--scale N] [--region R] [--prices FILE]",
     "the patterns of FILE at their rates ('-- rate: N/s'): units per second, cost per month, "
     "hot partitions",
     RunPlanCommand, true},
    {".partitions", "TABLE [INDEX]",
     "how the items spread over partition key values: the largest, the top 1%'s share, item "
     "sizes",
     RunPartitions, true},
    {".quiet", "on|off",
     "no footers or notices, only results and errors (a script's .quiet ends with it); off "
     "sums up what ran",
     RunQuiet},
    {".stream", "TABLE [N | FROM SEQ]",
     "the table's stream: the latest N records (10), or those after sequence number SEQ",
     RunStreamCommand, true},
    {".ttl", "[sweep [TABLE]]", "TTL per table; sweep deletes expired items now", RunTtl, true},
    {".check", "", "check that every index agrees with its table", RunCheck, true},
    {".clock", "[TIME | system]",
     "fix the clock (2030-01-01T00:00:00Z or epoch seconds) for TTL and streams", RunClock},
    {".quit", "", "leave keyhole (also .exit)", RunQuit},
    {".exit", "", "leave keyhole", RunQuit},
};

const DotCommand* Find(std::string_view name) {
  for (const DotCommand& c : kCommands) {
    if (name == c.name) return &c;
  }
  return nullptr;
}

bool RunHelp(State& s, const Args& args, Location at) {
  auto line = [](const DotCommand& c) {
    std::string head = std::string(c.name) + (*c.usage ? " " : "") + c.usage;
    return fmt::format("{:<34} {}\n", head, c.help);
  };
  std::string out;
  if (args.empty()) {
    out =
        "Statements end with ';' and may span lines: PartiQL SELECT / INSERT / UPDATE / DELETE\n"
        "(refused unless key-addressable; SCAN SELECT ... reads a whole table), EXPLAIN "
        "[ANALYZE],\n"
        "NEXT, BEGIN / COMMIT / ROLLBACK (ExecuteTransaction), CREATE / DROP / ALTER TABLE,\n"
        "SHOW TABLES, DESCRIBE, SHOW CREATE TABLE,\n"
        "CALL <Operation> {request JSON} or <Operation> {request JSON}.\n"
        ".help SELECT (or INSERT, UPDATE, CREATE TABLE, ...) shows a statement's syntax.\n";
    for (const DotCommand& c : kCommands) out += line(c);
  } else {
    std::string name;
    for (const std::string& a : args) name += (name.empty() ? "" : " ") + a;
    out = StatementHelpText(name);
    for (const DotCommand& c : kCommands) {
      if (out.empty() && (args[0] == c.name || "." + args[0] == c.name)) out = line(c);
    }
    if (out.empty()) {
      return s.Fail(Status::Validation(fmt::format(
                        "no help for {}: .help lists the dot-commands; the statements are {}", name,
                        StatementHelpNames())),
                    at);
    }
  }
  s.Out(out);
  return true;
}

}  // namespace

std::vector<std::string> DotCommandNames() {
  std::vector<std::string> out;
  for (const DotCommand& c : kCommands) out.emplace_back(c.name);
  return out;
}

std::vector<std::string> SplitWords(std::string_view text) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (i >= text.size()) break;
    std::string word;
    if (text[i] == '{') {  // a JSON argument runs to the end of the line
      word = std::string(text.substr(i));
      while (!word.empty() && std::isspace(static_cast<unsigned char>(word.back())))
        word.pop_back();
      out.push_back(std::move(word));
      break;
    }
    while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) {
      char q = text[i];
      if (q == '\'' || q == '"') {
        size_t close = text.find(q, i + 1);
        if (close == std::string_view::npos) close = text.size();
        word.append(text.substr(i + 1, close - i - 1));
        i = close == text.size() ? close : close + 1;
      } else {
        word += q;
        ++i;
      }
    }
    out.push_back(std::move(word));
  }
  return out;
}

bool Session::State::RunDotCommand(std::string_view line, Location at) {
  // `.tables;`: a ';' out of the habit of statements ends the line harmlessly.
  while (!line.empty() && (line.back() == ';' || line.back() == ' ' || line.back() == '\t')) {
    line.remove_suffix(1);
  }
  std::vector<std::string> words = SplitWords(line);
  if (words.empty()) return true;
  std::string name = words[0];
  const DotCommand* c = Find(name);
  if (!c) {
    Status unknown =
        Status::Validation(fmt::format("unknown command {}; .help lists them", Shorten(name, 40)));
    if (std::string_view hint = SqliteCommandHint(name); !hint.empty()) {
      unknown.WithHint(std::string(hint));
    }
    return Fail(unknown, at);
  }
  Args args(words.begin() + 1, words.end());
  const Clock::time_point start = Clock::now();
  bool ok = c->run(*this, args, at);
  if (c->timed && settings.timer) {
    Notice(fmt::format("-- {} · {}\n", c->name,
                       FormatElapsed(std::chrono::duration<double>(Clock::now() - start).count())));
  }
  return ok;
}

}  // namespace keyhole::shell
