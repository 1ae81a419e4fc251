// A folder in the layout of DynamoDB's export to S3, DYNAMODB_JSON (the developer guide's
// "DynamoDB table export output format", checked against real exports):
//
//   FOLDER/AWSDynamoDB/<ExportId>/_started                 (empty)
//   FOLDER/AWSDynamoDB/<ExportId>/manifest-summary.json    (one JSON object, no newline)
//   FOLDER/AWSDynamoDB/<ExportId>/manifest-summary.md5     (base64 MD5 of it)
//   FOLDER/AWSDynamoDB/<ExportId>/manifest-files.json      (a JSON line per data file)
//   FOLDER/AWSDynamoDB/<ExportId>/manifest-files.md5
//   FOLDER/AWSDynamoDB/<ExportId>/data/<26 base32 chars>.json.gz  ({"Item":{...}} lines)
//
// ExportId is "0" + 13 digits of epoch milliseconds + "-" + 8 hex digits. An export holds one
// table; a folder may hold several (read: every AWSDynamoDB/*/manifest-summary.json; FOLDER
// may also be one export's own folder, or a bucket synced with `aws s3 sync`, whose exports sit
// under their prefix a few folders down). The table is named by the summary's tableArn. Real
// exports say nothing of the table's keys or indexes: keyhole adds keyhole-table.json
// (DescribeTable's shape, with TTL and tags) to the exports it writes, and reads it when it is
// there; without it the destination table must exist. The docs name the checksum files
// .checksum, real exports .md5: both are read, .md5 is written. Each data file's md5Checksum is
// checked when it is read, and its items against its itemCount in manifest-files.json (the
// files' counts against the summary's itemCount when the export is opened): a mismatch is
// refused before anything is verified. billedSizeBytes, written, is the items' size as DynamoDB
// measures it. Incremental exports (changes, not items) are refused.
//
// Writing: each page a part writes is one data file, named from (ExportId, part, sequence), so
// a resumed copy writes the same names again; Finish counts and checksums the data files and
// writes the manifests.
#include <dirent.h>
#include <fmt/format.h>
#include <openssl/evp.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <random>
#include <sstream>

#include "copy/place.h"
#include "core/ddb_json.h"
#include "core/file.h"
#include "core/item.h"
#include "core/json.h"
#include "core/time.h"

namespace keyhole::copy {

namespace fs = std::filesystem;

namespace {

constexpr char kDefinitionFile[] = "keyhole-table.json";

// Writes `text` to `path` whole (a temporary beside it, then renamed).
Status WriteText(const fs::path& path, std::string_view text) {
  const fs::path tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    if (!out) return Status::Internal(fmt::format("cannot write {}", tmp.string()));
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) return Status::Internal(fmt::format("cannot write {}: {}", path.string(), ec.message()));
  return Status::OK();
}

std::string Md5(std::string_view data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  EVP_Digest(data.data(), data.size(), digest, &n, EVP_md5(), nullptr);
  return std::string(reinterpret_cast<char*>(digest), n);
}

std::string HexOf(std::string_view raw) {
  std::string out;
  for (unsigned char c : raw) out += fmt::format("{:02x}", c);
  return out;
}

std::string IsoMillis(double epoch) {
  return keyhole::IsoMillis(static_cast<int64_t>(std::floor(epoch * 1000)));
}

// 26 characters of lower-case base32 from `seed` (a data file's name).
std::string Base32Name(std::string_view seed) {
  const std::string digest = Md5(seed) + Md5(std::string(seed) + "#");
  static constexpr char kAlphabet[] = "abcdefghijklmnopqrstuvwxyz234567";
  std::string out;
  uint64_t bits = 0;
  int have = 0;
  for (unsigned char c : digest) {
    bits = (bits << 8) | c;
    have += 8;
    while (have >= 5 && out.size() < 26) {
      out += kAlphabet[(bits >> (have - 5)) & 31];
      have -= 5;
    }
  }
  return out;
}

// The table named by an ARN ("arn:aws:dynamodb:r:a:table/NAME"), or "".
std::string TableOfArn(std::string_view arn) {
  const size_t at = arn.find(":table/");
  if (at == std::string_view::npos) return "";
  std::string_view name = arn.substr(at + 7);
  return std::string(name.substr(0, name.find('/')));
}

// Reads a gzip file's lines (concatenated gzip members included), `per_page` at a time.
class GzLines {
 public:
  explicit GzLines(const fs::path& path) : file_(gzopen(path.c_str(), "rb")) {}
  ~GzLines() {
    if (file_) gzclose(file_);
  }
  bool ok() const { return file_ != nullptr; }
  // The next line (without '\n'); false at the end. `*error` on a damaged file.
  bool Next(std::string* line, std::string* error) {
    line->clear();
    for (;;) {
      const size_t nl = buffer_.find('\n', start_);
      if (nl != std::string::npos) {
        line->assign(buffer_, start_, nl - start_);
        start_ = nl + 1;
        return true;
      }
      if (eof_) {
        if (start_ < buffer_.size()) {
          line->assign(buffer_, start_, std::string::npos);
          start_ = buffer_.size();
          return true;
        }
        return false;
      }
      buffer_.erase(0, start_);
      start_ = 0;
      char chunk[1 << 16];
      const int n = gzread(file_, chunk, sizeof chunk);
      if (n < 0) {
        int code = 0;
        *error = gzerror(file_, &code);
        return false;
      }
      if (n == 0) eof_ = true;
      buffer_.append(chunk, static_cast<size_t>(n));
    }
  }

 private:
  gzFile file_;
  std::string buffer_;
  size_t start_ = 0;
  bool eof_ = false;
};

struct DataFile {
  fs::path path;
  std::string md5;  // base64, from the manifest ("" when unknown)
  int64_t items = -1;
};

struct Export {
  fs::path dir;  // FOLDER/AWSDynamoDB/<ExportId>
  std::string id, table;
  int64_t items = -1;
  std::vector<DataFile> files;
  std::optional<TableDescription> definition;
};

// Reads one export's manifests.
Result<Export> ReadExport(const fs::path& dir) {
  Export e;
  e.dir = dir;
  e.id = dir.filename().string();
  std::string text;
  if (!ReadWholeFile(dir / "manifest-summary.json", &text)) {
    return Status::Validation(
        fmt::format("{}: no manifest-summary.json (the export is not "
                    "finished, or this is not an export's folder)",
                    dir.string()));
  }
  Result<json::Value> summary = json::Parse(text);
  if (!summary.ok() || !summary->IsObject()) {
    return Status::Validation(fmt::format("{}/manifest-summary.json is not JSON", dir.string()));
  }
  const auto str = [&](std::string_view k) {
    const json::Value* v = summary->Find(k);
    return v && v->IsString() ? v->str() : std::string();
  };
  if (str("exportType") == "INCREMENTAL_EXPORT" || str("version") == "2023-08-01") {
    return Status::Validation(fmt::format(
        "{} is an incremental export (changes, not a table's items): copy from a full export",
        dir.string()));
  }
  if (!str("outputFormat").empty() && str("outputFormat") != "DYNAMODB_JSON") {
    return Status::Validation(fmt::format("{} is in {} format: keyhole reads DYNAMODB_JSON exports",
                                          dir.string(), str("outputFormat")));
  }
  e.table = TableOfArn(str("tableArn"));
  if (const json::Value* n = summary->Find("itemCount"); n && n->IsNumber()) {
    e.items = std::atoll(n->number_text().c_str());
  }
  // Definition, when keyhole wrote the export.
  if (std::string def; ReadWholeFile(dir / kDefinitionFile, &def)) {
    Result<json::Value> v = json::Parse(def);
    if (v.ok() && v->Find("KeySchema")) {
      Result<TableDescription> t = TableFromJson(*v);
      if (!t.ok()) {
        return Status::Validation(
            fmt::format("{}/{}: {}", dir.string(), kDefinitionFile, t.status().message()));
      }
      e.definition = std::move(*t);
      if (e.table.empty()) e.table = e.definition->name;
    } else if (v.ok() && v->Find("TableName") && v->Find("TableName")->IsString() &&
               e.table.empty()) {
      e.table = v->Find("TableName")->str();
    }
  }
  if (e.table.empty()) {
    return Status::Validation(
        fmt::format("{}/manifest-summary.json names no table (its tableArn)", dir.string()));
  }
  if (!ReadWholeFile(dir / "manifest-files.json", &text)) {
    return Status::Validation(fmt::format("{}: no manifest-files.json", dir.string()));
  }
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    Result<json::Value> v = json::Parse(line);
    const json::Value* key = v.ok() && v->IsObject() ? v->Find("dataFileS3Key") : nullptr;
    if (!key || !key->IsString()) {
      return Status::Validation(
          fmt::format("{}/manifest-files.json: a line without dataFileS3Key", dir.string()));
    }
    DataFile f;
    f.path = dir / "data" / fs::path(key->str()).filename();
    if (const json::Value* m = v->Find("md5Checksum"); m && m->IsString()) f.md5 = m->str();
    if (const json::Value* c = v->Find("itemCount"); c && c->IsNumber()) {
      f.items = std::atoll(c->number_text().c_str());
    }
    e.files.push_back(std::move(f));
  }
  // The summary's count against the files' (each file's own is checked as it is read).
  int64_t listed = 0;
  bool every = true;
  for (const DataFile& f : e.files) {
    every &= f.items >= 0;
    listed += std::max<int64_t>(f.items, 0);
  }
  if (every && e.items >= 0 && listed != e.items) {
    return Status::Validation(fmt::format(
        "{}: manifest-summary.json counts {} items, but manifest-files.json's data files hold "
        "{}: the export is incomplete or its manifests were changed",
        dir.string(), e.items, listed));
  }
  return e;
}

// The exports under `path`: `path` itself when it is one, else AWSDynamoDB/*/.
std::vector<fs::path> ExportDirs(const fs::path& path) {
  std::vector<fs::path> out;
  std::error_code ec;
  if (fs::exists(path / "manifest-summary.json", ec) || fs::exists(path / kDefinitionFile, ec)) {
    out.push_back(path);
    return out;
  }
  for (const fs::path& base : {path / "AWSDynamoDB", path}) {
    if (!fs::is_directory(base, ec)) continue;
    for (const auto& entry : fs::directory_iterator(base, ec)) {
      if (entry.is_directory() && (fs::exists(entry.path() / "manifest-summary.json", ec) ||
                                   fs::exists(entry.path() / kDefinitionFile, ec))) {
        out.push_back(entry.path());
      }
    }
    if (!out.empty()) break;
  }
  if (out.empty()) {
    // `aws s3 sync s3://bucket .` keeps the export's prefix: bucket/prefix/AWSDynamoDB/<id>/.
    // From the bucket's root, look a few folders down for AWSDynamoDB.
    fs::recursive_directory_iterator it(path, fs::directory_options::skip_permission_denied, ec);
    for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (it.depth() > 4) {
        it.disable_recursion_pending();
        continue;
      }
      if (!it->is_directory(ec) || it->path().filename() != "AWSDynamoDB") continue;
      it.disable_recursion_pending();
      for (const auto& entry : fs::directory_iterator(it->path(), ec)) {
        if (entry.is_directory() && (fs::exists(entry.path() / "manifest-summary.json", ec) ||
                                     fs::exists(entry.path() / kDefinitionFile, ec))) {
          out.push_back(entry.path());
        }
      }
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

class FileWriter : public PartWriter {
 public:
  // A part resumed at `sequence` first removes the files its earlier run wrote from there on
  // (written after the last checkpoint: they are written again, maybe cut differently).
  FileWriter(fs::path data_dir, std::string export_id, int part, int64_t sequence)
      : data_dir_(std::move(data_dir)),
        export_id_(std::move(export_id)),
        part_(part),
        sequence_(sequence) {
    for (int64_t seq = sequence;; ++seq) {
      std::error_code ec;
      if (!fs::remove(data_dir_ / Name(seq), ec)) break;
    }
  }
  Status Write(std::vector<Item> items) override {
    if (items.empty()) return Status::OK();
    const std::string name = Name(sequence_++);
    const fs::path path = data_dir_ / name, tmp = data_dir_ / (name + ".tmp");
    gzFile f = gzopen(tmp.c_str(), "wb6");
    if (!f) return Status::Internal(fmt::format("cannot write {}", tmp.string()));
    std::string chunk;
    bool ok = true;
    for (const Item& item : items) {
      chunk += "{\"Item\":";
      chunk += ItemToJsonText(item);
      chunk += "}\n";
      if (chunk.size() > (1 << 16)) {
        ok &= gzwrite(f, chunk.data(), static_cast<unsigned>(chunk.size())) > 0;
        chunk.clear();
      }
    }
    if (!chunk.empty()) ok &= gzwrite(f, chunk.data(), static_cast<unsigned>(chunk.size())) > 0;
    ok &= gzclose(f) == Z_OK;
    std::error_code ec;
    if (ok) fs::rename(tmp, path, ec);
    if (!ok || ec) {
      fs::remove(tmp, ec);
      return Status::Internal(fmt::format("cannot write {}", path.string()));
    }
    return Status::OK();
  }
  Status Close() override { return Status::OK(); }
  double write_units() const override { return 0; }

 private:
  std::string Name(int64_t sequence) const {
    return Base32Name(fmt::format("{}/{}/{}", export_id_, part_, sequence)) + ".json.gz";
  }
  fs::path data_dir_;
  std::string export_id_;
  int part_;
  int64_t sequence_;
};

class Folder : public Place {
 public:
  explicit Folder(fs::path path) : path_(std::move(path)) {}

  Status Load() {
    exports_.clear();
    for (const fs::path& dir : ExportDirs(path_)) {
      if (!fs::exists(dir / "manifest-summary.json")) continue;  // being written
      KH_ASSIGN_OR_RETURN(Export e, ReadExport(dir));
      if (exports_.count(e.table)) {
        return Status::Validation(
            fmt::format("{} holds two exports of {} ({} and {}): point at the one to copy",
                        path_.string(), e.table, exports_[e.table].id, e.id));
      }
      exports_[e.table] = std::move(e);
    }
    return Status::OK();
  }

  std::string Name() const override { return "export folder " + path_.string(); }

  Result<std::vector<std::string>> Tables() override {
    std::vector<std::string> out;
    for (const auto& [table, e] : exports_) out.push_back(table);
    return out;
  }

  Result<std::optional<TableDescription>> Definition(const std::string& table) override {
    KH_ASSIGN_OR_RETURN(const Export* e, Find(table));
    return e->definition;
  }

  int64_t ItemCountEstimate(const std::string& table) override {
    auto it = exports_.find(table);
    return it == exports_.end() ? -1 : it->second.items;
  }

  int Parts(const std::string& table, int wanted) override {
    auto it = exports_.find(table);
    const int files = it == exports_.end() ? 1 : static_cast<int>(it->second.files.size());
    return std::max(1, std::min(wanted, files));
  }

  // A part reads the files i, i + parts, i + 2 * parts, ... Its position is "FILE:LINE".
  Result<Page> Read(const std::string& table, int part, int parts, const std::string& position,
                    const Limits& limits) override {
    KH_ASSIGN_OR_RETURN(const Export* e, Find(table));
    size_t file = static_cast<size_t>(part);
    int64_t skip = 0;
    if (!position.empty()) {
      const size_t colon = position.find(':');
      file = std::strtoull(position.c_str(), nullptr, 10);
      skip = colon == std::string::npos ? 0 : std::atoll(position.c_str() + colon + 1);
    }
    Page page;
    if (file >= e->files.size()) return page;  // done
    const DataFile& f = e->files[file];
    if (skip == 0 && !f.md5.empty()) {
      std::string raw;
      if (!ReadWholeFile(f.path, &raw)) {
        return Status::Validation(fmt::format("{}: the data file {} is missing", e->dir.string(),
                                              f.path.filename().string()));
      }
      if (Base64Encode(Md5(raw)) != f.md5) {
        return Status::Validation(fmt::format(
            "{}: the data file {} does not match its md5Checksum in manifest-files.json: it is "
            "damaged or incomplete",
            e->dir.string(), f.path.filename().string()));
      }
    }
    GzLines lines(f.path);
    if (!lines.ok()) {
      return Status::Validation(fmt::format("{}: cannot read the data file {}", e->dir.string(),
                                            f.path.filename().string()));
    }
    std::string line, error;
    int64_t at = 0, items = 0;  // lines, and item lines, from the file's start
    constexpr int64_t kPageBytes = 1 << 20;
    while (lines.Next(&line, &error)) {
      const bool blank = line.find_first_not_of(" \t\r") == std::string::npos;
      items += !blank;
      if (at++ < skip) continue;
      if (blank) continue;
      Result<json::Value> v = json::Parse(line);
      const json::Value* item = v.ok() && v->IsObject() ? v->Find("Item") : nullptr;
      if (!item) {
        return Status::Validation(
            fmt::format("{} line {}: not an {{\"Item\": ...}} line", f.path.string(), at));
      }
      KH_ASSIGN_OR_RETURN(Item parsed, ItemFromJson(*item));
      page.bytes += static_cast<int64_t>(ItemSize(parsed));
      page.items.push_back(std::move(parsed));
      // A full page, or Ctrl-C: the rest of this file is read from here next time.
      if (page.bytes >= kPageBytes || (limits.cancel && limits.cancel->load())) {
        page.next = fmt::format("{}:{}", file, at);
        return page;
      }
    }
    if (!error.empty()) {
      return Status::Validation(fmt::format("{}: {}", f.path.string(), error));
    }
    if (f.items >= 0 && items != f.items) {
      return Status::Validation(fmt::format(
          "{}: the data file {} holds {} items, but its line in manifest-files.json counts {}: "
          "the export is incomplete or was changed",
          e->dir.string(), f.path.filename().string(), items, f.items));
    }
    const size_t following = file + static_cast<size_t>(parts);
    if (following < e->files.size()) page.next = fmt::format("{}:0", following);
    return page;
  }

  Result<bool> Exists(const std::string& table) override { return Writing(table) != nullptr; }

  Result<bool> Empty(const std::string& table) override {
    const fs::path* dir = Writing(table);
    if (!dir) return true;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(*dir / "data", ec)) {
      if (entry.path().string().ends_with(".json.gz")) return false;
    }
    return true;
  }

  Status Create(const std::string& table, const TableDescription& definition,
                const std::function<void(const std::string&)>&) override {
    return Start(table, &definition);
  }

  Result<std::unique_ptr<PartWriter>> Writer(const std::string& table, int part, int64_t sequence,
                                             const Limits&) override {
    std::lock_guard<std::mutex> lock(mutex_);  // parts ask for their writers at once
    const fs::path* dir = Writing(table);
    if (!dir) KH_RETURN_IF_ERROR(Start(table, nullptr));
    dir = Writing(table);
    return std::unique_ptr<PartWriter>(
        new FileWriter(*dir / "data", dir->filename().string(), part, sequence));
  }

  Status Finish(const std::string& table, const std::optional<TableDescription>& def) override {
    const fs::path* found = Writing(table);
    if (!found) KH_RETURN_IF_ERROR(Start(table, def ? &*def : nullptr));
    const fs::path dir = *Writing(table);
    const std::string id = dir.filename().string();
    std::vector<fs::path> files;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir / "data", ec)) {
      if (entry.path().string().ends_with(".json.gz")) files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    std::string manifest;
    int64_t items = 0, bytes = 0;
    for (const fs::path& f : files) {
      std::string raw;
      if (!ReadWholeFile(f, &raw))
        return Status::Internal(fmt::format("cannot read {}", f.string()));
      GzLines lines(f);
      std::string line, error;
      int64_t count = 0;
      while (lines.Next(&line, &error)) {
        if (line.empty()) continue;
        ++count;
        // billedSizeBytes is the table's size as DynamoDB measures items, not the files'.
        Result<json::Value> v = json::Parse(line);
        const json::Value* item = v.ok() && v->IsObject() ? v->Find("Item") : nullptr;
        if (!item) continue;
        if (Result<Item> parsed = ItemFromJson(*item); parsed.ok()) {
          bytes += static_cast<int64_t>(ItemSize(*parsed));
        }
      }
      if (!error.empty()) return Status::Internal(fmt::format("{}: {}", f.string(), error));
      items += count;
      const std::string md5 = Md5(raw);
      manifest += fmt::format(
          "{{\"itemCount\":{},\"md5Checksum\":\"{}\",\"etag\":\"{}\",\"dataFileS3Key\":"
          "\"AWSDynamoDB/{}/data/{}\"}}\n",
          count, Base64Encode(md5), HexOf(md5), id, f.filename().string());
    }
    const std::string arn = def ? def->TableArn() : TableArnOf(table);
    const double started = std::atof(id.c_str() + 1) / 1000;
    json::Value summary = json::Value::MakeObject();
    const auto s = [](std::string v) { return json::Value::String(std::move(v)); };
    summary.Add("version", s("2020-06-30"));
    summary.Add("exportArn", s(arn + "/export/" + id));
    summary.Add("startTime", s(IsoMillis(started)));
    summary.Add("endTime", s(IsoMillis(WallClockNow())));
    summary.Add("tableArn", s(arn));
    summary.Add("tableId",
                s(fmt::format("{}-{}-{}-{}-{}", id.substr(15, 8), id.substr(1, 4), id.substr(5, 4),
                              id.substr(9, 4), HexOf(Md5(id)).substr(0, 12))));
    summary.Add("exportTime", s(IsoMillis(started)));
    summary.Add("s3Bucket", s("keyhole"));
    summary.Add("s3Prefix", json::Value::Null());
    summary.Add("s3SseAlgorithm", s("AES256"));
    summary.Add("s3SseKmsKeyId", json::Value::Null());
    summary.Add("manifestFilesS3Key", s("AWSDynamoDB/" + id + "/manifest-files.json"));
    summary.Add("billedSizeBytes", json::Value::Int(bytes));
    summary.Add("itemCount", json::Value::Int(items));
    summary.Add("outputFormat", s("DYNAMODB_JSON"));
    summary.Add("exportType", s("FULL_EXPORT"));
    const std::string summary_text = json::Write(summary);
    KH_RETURN_IF_ERROR(WriteText(dir / "manifest-files.json", manifest));
    KH_RETURN_IF_ERROR(WriteText(dir / "manifest-files.md5", Base64Encode(Md5(manifest))));
    KH_RETURN_IF_ERROR(WriteText(dir / "manifest-summary.md5", Base64Encode(Md5(summary_text))));
    KH_RETURN_IF_ERROR(WriteText(dir / "manifest-summary.json", summary_text));
    return Load();
  }

 private:
  Result<const Export*> Find(const std::string& table) const {
    auto it = exports_.find(table);
    if (it == exports_.end()) {
      return Status::NotFound(
          fmt::format("Requested resource not found: Table: {} not found (no export of it in {})",
                      table, path_.string()));
    }
    return &it->second;
  }

  // The export of `table` being written here (its keyhole-table.json names it), or null.
  const fs::path* Writing(const std::string& table) {
    if (auto it = writing_.find(table); it != writing_.end()) return &it->second;
    for (const fs::path& dir : ExportDirs(path_)) {
      std::string text;
      if (!ReadWholeFile(dir / kDefinitionFile, &text)) continue;
      Result<json::Value> v = json::Parse(text);
      const json::Value* name = v.ok() && v->IsObject() ? v->Find("TableName") : nullptr;
      if (name && name->IsString() && name->str() == table) {
        return &(writing_[table] = dir);
      }
    }
    return nullptr;
  }

  // A new export of `table`: its folder, _started and keyhole-table.json.
  Status Start(const std::string& table, const TableDescription* definition) {
    thread_local std::mt19937_64 rng{std::random_device{}()};
    const auto ms = static_cast<int64_t>(WallClockNow() * 1000);
    const std::string id = fmt::format("0{:013d}-{:08x}", ms, static_cast<uint32_t>(rng()));
    const fs::path dir = path_ / "AWSDynamoDB" / id;
    std::error_code ec;
    fs::create_directories(dir / "data", ec);
    if (ec)
      return Status::Internal(fmt::format("cannot create {}: {}", dir.string(), ec.message()));
    KH_RETURN_IF_ERROR(WriteText(dir / "_started", ""));
    json::Value def = json::Value::MakeObject();
    if (definition) {
      TableDescription named = *definition;
      named.name = table;
      def = TableToJson(named);
    } else {
      def.Add("TableName", json::Value::String(table));
    }
    KH_RETURN_IF_ERROR(WriteText(dir / kDefinitionFile, json::Write(def)));
    writing_[table] = dir;
    return Status::OK();
  }

  fs::path path_;
  std::map<std::string, Export> exports_;
  std::mutex mutex_;  // Writer, from the parts' threads
  std::map<std::string, fs::path> writing_;
};

}  // namespace

Result<std::unique_ptr<Place>> ExportFolder(const std::string& path, bool for_writing) {
  std::error_code ec;
  if (!for_writing && !fs::is_directory(path, ec)) {
    return Status::Validation(fmt::format("{} is not a folder", path));
  }
  if (for_writing) {
    fs::create_directories(path, ec);
    if (ec) return Status::Validation(fmt::format("cannot create {}: {}", path, ec.message()));
  }
  auto folder = std::make_unique<Folder>(path);
  KH_RETURN_IF_ERROR(folder->Load());
  if (!for_writing) {
    KH_ASSIGN_OR_RETURN(std::vector<std::string> tables, folder->Tables());
    if (tables.empty()) {
      return Status::Validation(fmt::format(
          "{} holds no DynamoDB export (AWSDynamoDB/<ExportId>/manifest-summary.json)", path));
    }
  }
  return std::unique_ptr<Place>(std::move(folder));
}

}  // namespace keyhole::copy
