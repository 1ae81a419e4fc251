// A Backend as a copy's place (place.h): parallel Scan segments to read, BatchWriteItem to
// write, CreateTable / UpdateTimeToLive / tags for the definition.
#include <fmt/format.h>
#include <openssl/evp.h>
#include <openssl/sha.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "api/batch_writer.h"
#include "copy/place.h"
#include "core/ddb_json.h"
#include "core/item.h"
#include "core/item_codec.h"
#include "core/table_definition.h"

namespace keyhole::copy {

uint64_t ItemDigest(const Item& item) {
  thread_local std::string text;
  text.clear();
  AppendItemBody(item, &text);
  // SHA-256 fetched once and a context per thread: OpenSSL 3's one-shot SHA256() looks the
  // algorithm up, under a lock, on every call (twice the time, and contended across parts).
  static EVP_MD* const sha256 = EVP_MD_fetch(nullptr, "SHA256", nullptr);
  thread_local const std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> ctx(EVP_MD_CTX_new(),
                                                                            EVP_MD_CTX_free);
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  if (!sha256 || !ctx || !EVP_DigestInit_ex2(ctx.get(), sha256, nullptr) ||
      !EVP_DigestUpdate(ctx.get(), text.data(), text.size()) ||
      !EVP_DigestFinal_ex(ctx.get(), digest, &n)) {
    SHA256(reinterpret_cast<const unsigned char*>(text.data()), text.size(), digest);
  }
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | digest[i];
  return v;
}

namespace {

// Writes a part's items through BatchWriteItem; each Write returns once they are stored.
class BatchPartWriter : public PartWriter {
 public:
  BatchPartWriter(Backend& backend, const std::string& table, std::vector<std::string> keys,
                  api::RateLimiter* limiter, const std::atomic<bool>* cancel)
      : writer_(backend, table, std::move(keys), [&] {
          api::BatchWriter::Options o;
          o.threads = 32;  // batches in flight per part: larger group commits at a keyhole serve
          o.limiter = limiter;
          o.cancel = cancel;
          return o;
        }()) {}
  Status Write(std::vector<Item> items) override {
    for (Item& item : items) KH_RETURN_IF_ERROR(writer_.Add(std::move(item)));
    return writer_.Flush();
  }
  Status Close() override { return writer_.Finish(); }
  double write_units() const override { return writer_.write_units(); }

 private:
  api::BatchWriter writer_;
};

// Writes a part's pages into a keyhole file, each as one import (a write transaction).
class ImportPartWriter : public PartWriter {
 public:
  // `serial`: one import at a time (a file has one writer anyway, and the first import into
  // an empty table is a staged bulk load that another one running beside it would undo).
  ImportPartWriter(LocalControl& local, std::string table, const std::atomic<bool>* cancel,
                   std::mutex* serial)
      : local_(local), table_(std::move(table)), cancel_(cancel), serial_(serial) {}
  Status Write(std::vector<Item> items) override {
    if (items.empty()) return Status::OK();
    std::lock_guard<std::mutex> one_at_a_time(*serial_);
    KH_ASSIGN_OR_RETURN(LocalControl::ImportResult r, local_.ImportItems(table_, items, cancel_));
    units_ += r.write_units;
    return Status::OK();
  }
  Status Close() override { return Status::OK(); }
  double write_units() const override { return units_; }

 private:
  LocalControl& local_;
  std::string table_;
  const std::atomic<bool>* cancel_;
  std::mutex* serial_;
  double units_ = 0;
};

// One import fed by every part of a pass at once, for an empty table in a keyhole file: one
// sorted bulk load (LocalControl::ImportIsBulkLoad) instead of a write transaction per chunk,
// each of which rewrites pages of every index. All or nothing: the items are stored when the
// last part closes, and nothing is if a part fails or the copy is stopped (the copier then
// keeps no checkpoint, so running it again starts the table over).
//
// Thread-safety: Push, Close and Abandon are called from the parts' threads at once.
class StreamedImport {
 public:
  StreamedImport(LocalControl& local, std::string table, int writers,
                 const std::atomic<bool>* cancel)
      : local_(local), table_(std::move(table)), open_(writers), cancel_(cancel) {
    thread_ = std::thread([this] { Run(); });
  }
  ~StreamedImport() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (open_ > 0) abandoned_ = true;
    }
    changed_.notify_all();
    thread_.join();
  }

  // Hands `items` to the import; waits while it holds kMaxQueued items already.
  Status Push(std::vector<Item> items) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return queued_ < kMaxQueued || done_; });
    if (done_) {
      return result_.ok() ? Status::Internal("the import ended before every part was written")
                          : result_.status();
    }
    queued_ += items.size();
    queue_.push_back(std::move(items));
    changed_.notify_all();
    return Status::OK();
  }
  // One writer is finished; waits for the import and returns how it ended (the write units
  // to the last writer to close, 0 to the others).
  Result<double> Close() {
    std::unique_lock<std::mutex> lock(mutex_);
    const bool last = --open_ == 0;
    changed_.notify_all();
    changed_.wait(lock, [&] { return done_; });
    if (!result_.ok()) return result_.status();
    return last ? result_->write_units : 0.0;
  }
  // A writer given up without Close (its part failed or was stopped): nothing is imported.
  void Abandon() {
    std::lock_guard<std::mutex> lock(mutex_);
    abandoned_ = true;
    changed_.notify_all();
  }

 private:
  static constexpr size_t kMaxQueued = 65536;

  void Run() {
    bool given = false;
    LocalControl::ImportSource source;
    source.rewind = [&]() -> Status {
      if (given) return Status::Internal("a streamed import cannot start over");
      return Status::OK();
    };
    source.next = [&](std::vector<Item>* batch) -> Result<bool> {
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait(lock, [&] { return !queue_.empty() || open_ == 0 || abandoned_; });
      if (abandoned_) {
        return Status(ErrorCode::kInterrupted,
                      "Interrupted: a part of the copy stopped, so nothing was imported");
      }
      if (queue_.empty()) return false;
      *batch = std::move(queue_.front());
      queue_.pop_front();
      queued_ -= batch->size();
      given = true;
      changed_.notify_all();
      return true;
    };
    Result<LocalControl::ImportResult> r = local_.ImportItems(table_, source, cancel_);
    std::lock_guard<std::mutex> lock(mutex_);
    result_ = std::move(r);
    done_ = true;
    queue_.clear();
    changed_.notify_all();
  }

  LocalControl& local_;
  std::string table_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::vector<Item>> queue_;  // guarded by mutex_, as are the fields below
  size_t queued_ = 0;
  int open_;
  bool abandoned_ = false, done_ = false;
  Result<LocalControl::ImportResult> result_ = Status::Internal("not finished");
  const std::atomic<bool>* cancel_;
  std::thread thread_;
};

// A part's writer into a StreamedImport.
class StreamedPartWriter : public PartWriter {
 public:
  explicit StreamedPartWriter(std::shared_ptr<StreamedImport> import)
      : import_(std::move(import)) {}
  ~StreamedPartWriter() override {
    if (!closed_) import_->Abandon();
  }
  Status Write(std::vector<Item> items) override {
    if (items.empty()) return Status::OK();
    return import_->Push(std::move(items));
  }
  Status Close() override {
    closed_ = true;
    KH_ASSIGN_OR_RETURN(units_, import_->Close());
    return Status::OK();
  }
  bool stores_at_close() const override { return true; }
  double write_units() const override { return units_; }

 private:
  std::shared_ptr<StreamedImport> import_;
  bool closed_ = false;
  double units_ = 0;
};

class Backed : public Place {
 public:
  Backed(Backend& backend, std::string name, LocalControl* local)
      : db_(backend), name_(std::move(name)), local_(local) {}

  std::string Name() const override { return name_; }

  Result<std::vector<std::string>> Tables() override {
    std::vector<std::string> out;
    ListTablesRequest r;
    for (;;) {
      KH_ASSIGN_OR_RETURN(ListTablesResponse page, db_.ListTables(r));
      out.insert(out.end(), page.table_names.begin(), page.table_names.end());
      if (!page.last_evaluated_table_name) break;
      r.exclusive_start_table_name = page.last_evaluated_table_name;
    }
    return out;
  }

  Result<std::optional<TableDescription>> Definition(const std::string& table) override {
    KH_ASSIGN_OR_RETURN(DescribeTableResponse d, db_.DescribeTable({table}));
    TableDescription t = std::move(d.table);
    DescribeTimeToLiveRequest ttl;
    ttl.table_name = table;
    Result<DescribeTimeToLiveResponse> ttl_state = db_.DescribeTimeToLive(ttl);
    if (ttl_state.ok()) {
      if (ttl_state->status == "ENABLED" || ttl_state->status == "ENABLING") {
        t.ttl_attribute = ttl_state->attribute_name;
      }
    } else if (ttl_state.status().name() != "UnknownOperationException") {
      return ttl_state.status();
    }
    ListTagsOfResourceRequest tags;
    tags.resource_arn = t.TableArn();
    for (;;) {
      Result<ListTagsOfResourceResponse> page = db_.ListTagsOfResource(tags);
      if (!page.ok()) {
        if (page.status().name() == "UnknownOperationException") break;
        return page.status();
      }
      for (const Tag& tag : page->tags) t.tags[tag.key] = tag.value.value_or("");
      if (!page->next_token) break;
      tags.next_token = page->next_token;
    }
    return std::optional<TableDescription>(std::move(t));
  }

  int64_t ItemCountEstimate(const std::string& table) override {
    Result<DescribeTableResponse> d = db_.DescribeTable({table});
    return d.ok() ? d->table.item_count : -1;
  }

  int Parts(const std::string&, int wanted) override { return std::max(1, wanted); }

  Result<Page> Read(const std::string& table, int part, int parts, const std::string& position,
                    const Limits& limits) override {
    // Within --max-rcu: a page's units are taken before it is read (as much as this part's last
    // page cost; a whole 1 MB page's 128 for its first), and set right after.
    api::RateLimiter* limiter = local_ && limits.read_back ? nullptr : ReadLimiter(limits);
    double expected = 0;
    if (limiter) {
      {
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = last_page_units_.find({table, part});
        expected = std::min(limiter->rate(), it == last_page_units_.end() ? 128.0 : it->second);
      }
      if (!limiter->Acquire(expected, limits.cancel)) {
        return Status(ErrorCode::kInterrupted, "Interrupted");
      }
    }
    ScanRequest r;
    r.table_name = table;
    if (parts > 1) {
      r.segment = part;
      r.total_segments = parts;
    }
    r.return_consumed_capacity = ReturnConsumedCapacity::kTotal;
    r.consistent_read = limits.consistent;
    if (!position.empty()) {
      KH_ASSIGN_OR_RETURN(Item start, ItemFromJsonText(position));
      r.exclusive_start_key = std::move(start);
    }
    KH_ASSIGN_OR_RETURN(ScanResponse response, db_.Scan(r));
    Page page;
    page.items.reserve(response.items.size());
    for (size_t i = 0; i < response.items.size(); ++i) {
      page.items.push_back(std::move(response.items[i]));
      page.bytes += static_cast<int64_t>(ItemSize(page.items.back()));
    }
    if (response.last_evaluated_key) page.next = ItemToJsonText(*response.last_evaluated_key);
    if (response.consumed_capacity)
      page.read_units = response.consumed_capacity->total.capacity_units;
    if (limiter) {
      limiter->Charge(page.read_units - expected);
      std::lock_guard<std::mutex> lock(mutex_);
      last_page_units_[{table, part}] = page.read_units;
    }
    return page;
  }

  Result<bool> Exists(const std::string& table) override {
    Result<DescribeTableResponse> d = db_.DescribeTable({table});
    if (d.ok()) return true;
    if (d.status().IsNotFound()) return false;
    return d.status();
  }

  Result<bool> Empty(const std::string& table) override {
    ScanRequest r;
    r.table_name = table;
    r.limit = 1;
    KH_ASSIGN_OR_RETURN(ScanResponse s, db_.Scan(r));
    return s.count == 0 && !s.last_evaluated_key;
  }

  Status Create(const std::string& table, const TableDescription& def,
                const std::function<void(const std::string&)>& note) override {
    const CreateTableRequest c = CreateRequestFor(table, def, note);
    KH_RETURN_IF_ERROR(db_.CreateTable(c).status());
    KH_RETURN_IF_ERROR(WaitUntilActive(db_, table, std::chrono::minutes(30)));
    if (def.ttl_attribute) {
      UpdateTimeToLiveRequest ttl;
      ttl.table_name = table;
      ttl.specification.enabled = true;
      ttl.specification.attribute_name = *def.ttl_attribute;
      Result<UpdateTimeToLiveResponse> r = db_.UpdateTimeToLive(ttl);
      if (!r.ok()) {
        return Status(r.status().code(),
                      fmt::format("{} was created, but its TTL on {} could not be set: {}", table,
                                  *def.ttl_attribute, r.status().message()));
      }
    }
    return Status::OK();
  }

  Status WillWrite(const std::string& table, int writers, const Limits& limits) override {
    std::lock_guard<std::mutex> lock(mutex_);
    streamed_.erase(table);
    if (!local_ || limits.max_write_units > 0 || writers <= 0) return Status::OK();
    KH_ASSIGN_OR_RETURN(bool bulk, local_->ImportIsBulkLoad(table));
    if (bulk) {
      streamed_[table] = std::make_shared<StreamedImport>(*local_, table, writers, limits.cancel);
    }
    return Status::OK();
  }

  Result<std::unique_ptr<PartWriter>> Writer(const std::string& table, int, int64_t,
                                             const Limits& limits) override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (auto it = streamed_.find(table); it != streamed_.end()) {
        return std::unique_ptr<PartWriter>(new StreamedPartWriter(it->second));
      }
    }
    if (local_ && limits.max_write_units <= 0) {
      return std::unique_ptr<PartWriter>(
          new ImportPartWriter(*local_, table, limits.cancel, &imports_));
    }
    KH_ASSIGN_OR_RETURN(TableSchemaPtr schema, db_.TableSchema(table));
    std::vector<std::string> keys;
    for (const KeyAttribute* a : schema->key.Attributes()) keys.push_back(a->name);
    return std::unique_ptr<PartWriter>(
        new BatchPartWriter(db_, table, std::move(keys), WriteLimiter(limits), limits.cancel));
  }

 private:
  api::RateLimiter* ReadLimiter(const Limits& limits) {
    if (limits.max_read_units <= 0) return nullptr;
    std::call_once(read_once_,
                   [&] { read_ = std::make_unique<api::RateLimiter>(limits.max_read_units); });
    return read_.get();
  }
  api::RateLimiter* WriteLimiter(const Limits& limits) {
    if (limits.max_write_units <= 0) return nullptr;
    std::call_once(write_once_,
                   [&] { write_ = std::make_unique<api::RateLimiter>(limits.max_write_units); });
    return write_.get();
  }

  Backend& db_;
  std::string name_;
  LocalControl* local_;
  std::mutex imports_;  // ImportPartWriter: one import at a time
  std::once_flag read_once_, write_once_;
  std::mutex mutex_;
  std::map<std::pair<std::string, int>, double> last_page_units_;  // each part's last page
  // The pass's streamed import into a table (WillWrite), shared by its part writers.
  std::map<std::string, std::shared_ptr<StreamedImport>> streamed_;
  std::unique_ptr<api::RateLimiter> read_, write_;
};

}  // namespace

std::unique_ptr<Place> BackendPlace(Backend& backend, std::string name, LocalControl* local) {
  return std::make_unique<Backed>(backend, std::move(name), local);
}

}  // namespace keyhole::copy
