// .import and .export: a table's items as lines of JSON. .import reads DynamoDB's export to S3
// ({"Item": {...}} lines), DynamoDB JSON or plain JSON, checks each line's key and limits, and
// writes all or nothing on a file (through BatchWriteItem, reporting what was written, on an
// endpoint); .export writes the S3 export's layout, which .import reads back.
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "api/batch_writer.h"
#include "core/ddb_json.h"
#include "core/item.h"
#include "core/item_codec.h"
#include "core/json.h"
#include "shell/commands.h"
#include "shell/session_state.h"
#include "shell/terminal.h"

namespace keyhole::shell {

namespace {

using State = Session::State;
using Args = std::vector<std::string>;  // words after the command name

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

}  // namespace

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

}  // namespace keyhole::shell
