// Copy (copier.h).
#include "copy/copier.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <openssl/sha.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

#include "core/json.h"

namespace keyhole::copy {

namespace {

using Clock = std::chrono::steady_clock;

// What a part reads before it writes and checkpoints (several 1 MB pages): fewer, larger
// write transactions into a keyhole file, and fewer data files in an export.
constexpr int64_t kChunkBytes = int64_t{8} << 20;

std::string Thousands(int64_t n) {
  std::string digits = std::to_string(n < 0 ? -n : n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return n < 0 ? "-" + out : out;
}

std::string Megabytes(int64_t bytes) {
  return bytes < 1048576 ? fmt::format("{:.1f} KB", bytes / 1024.0)
                         : fmt::format("{:.1f} MB", bytes / 1048576.0);
}

std::string Duration(double seconds) {
  const int64_t s = static_cast<int64_t>(std::llround(seconds));
  return s >= 3600 ? fmt::format("{}:{:02d}:{:02d}", s / 3600, (s / 60) % 60, s % 60)
                   : fmt::format("{}:{:02d}", s / 60, s % 60);
}

// The saved state's format; 2: digests of item bytes (ItemDigest) where 1 summed JSON texts'.
constexpr int kStateVersion = 2;

// One part's progress, as saved.
struct PartState {
  std::string position;  // resume after this ("" at the start)
  bool done = false;
  int64_t items = 0, bytes = 0;
  uint64_t digest = 0;
  int64_t sequence = 0;  // pages written (names an export's data files)
};

struct TableState {
  bool prepared = false;  // definition copied (or checked)
  bool copied = false;    // every part done and TO finished
  std::vector<PartState> parts;
};

struct State {
  std::string path, from, to;
  std::map<std::string, TableState> tables;
  std::mutex mutex;  // parts update their own PartState under it
  Clock::time_point last_save = Clock::now();

  json::Value ToJson() const {
    json::Value root = json::Value::MakeObject();
    root.Add("version", json::Value::Int(kStateVersion));
    root.Add("from", json::Value::String(from));
    root.Add("to", json::Value::String(to));
    json::Value tables_json = json::Value::MakeObject();
    for (const auto& [name, t] : tables) {
      json::Value tj = json::Value::MakeObject();
      tj.Add("prepared", json::Value::Bool(t.prepared));
      tj.Add("copied", json::Value::Bool(t.copied));
      json::Value parts = json::Value::MakeArray();
      for (const PartState& p : t.parts) {
        json::Value pj = json::Value::MakeObject();
        pj.Add("position", json::Value::String(p.position));
        pj.Add("done", json::Value::Bool(p.done));
        pj.Add("items", json::Value::Int(p.items));
        pj.Add("bytes", json::Value::Int(p.bytes));
        pj.Add("digest", json::Value::String(std::to_string(p.digest)));
        pj.Add("sequence", json::Value::Int(p.sequence));
        parts.Push(std::move(pj));
      }
      tj.Add("parts", std::move(parts));
      tables_json.Add(name, std::move(tj));
    }
    root.Add("tables", std::move(tables_json));
    return root;
  }

  // Reads the state of an earlier run of the same copy; false when there is none (or it is for
  // another copy).
  bool Load() {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    std::ostringstream text;
    text << in.rdbuf();
    Result<json::Value> v = json::Parse(text.str());
    if (!v.ok() || !v->IsObject()) return false;
    const auto str = [](const json::Value* o, std::string_view k) {
      const json::Value* m = o ? o->Find(k) : nullptr;
      return m && m->IsString() ? m->str() : std::string();
    };
    const auto num = [](const json::Value* o, std::string_view k) -> int64_t {
      const json::Value* m = o ? o->Find(k) : nullptr;
      return m && m->IsNumber() ? std::atoll(m->number_text().c_str()) : 0;
    };
    const auto flag = [](const json::Value* o, std::string_view k) {
      const json::Value* m = o ? o->Find(k) : nullptr;
      return m && m->IsBool() && m->boolean();
    };
    if (num(&*v, "version") != kStateVersion || str(&*v, "from") != from || str(&*v, "to") != to) {
      return false;
    }
    const json::Value* tj = v->Find("tables");
    if (!tj || !tj->IsObject()) return false;
    for (const auto& [name, t] : tj->object()) {
      TableState ts;
      ts.prepared = flag(&t, "prepared");
      ts.copied = flag(&t, "copied");
      if (const json::Value* parts = t.Find("parts"); parts && parts->IsArray()) {
        for (const json::Value& p : parts->array()) {
          PartState ps;
          ps.position = str(&p, "position");
          ps.done = flag(&p, "done");
          ps.items = num(&p, "items");
          ps.bytes = num(&p, "bytes");
          ps.digest = std::strtoull(str(&p, "digest").c_str(), nullptr, 10);
          ps.sequence = num(&p, "sequence");
          ts.parts.push_back(std::move(ps));
        }
      }
      tables[name] = std::move(ts);
    }
    return true;
  }

  // Writes the state whole (a temporary file renamed over it). REQUIRES: mutex held.
  void SaveLocked() {
    last_save = Clock::now();
    if (path.empty()) return;
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
    const std::string tmp = path + ".tmp";
    {
      std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
      out << json::Write(ToJson());
      if (!out) return;
    }
    std::filesystem::rename(tmp, path, ec);
  }
  void Save() {
    std::lock_guard<std::mutex> lock(mutex);
    SaveLocked();
  }
  void Remove() {
    if (path.empty()) return;
    std::error_code ec;
    std::filesystem::remove(path, ec);
  }
};

// Progress of the table being copied, shown while its parts run.
class Progress {
 public:
  Progress(const Options& o, std::string table, int64_t total, int64_t items_before,
           int64_t bytes_before, int parts)
      : options_(o),
        table_(std::move(table)),
        parts_(parts),
        total_(total),
        items_(items_before),
        bytes_(bytes_before),
        items_before_(items_before) {
    thread_ = std::thread([this] { Loop(); });
  }
  ~Progress() { Stop(); }
  void Add(int64_t items, int64_t bytes) {
    items_ += items;
    bytes_ += bytes;
  }
  // The destination stores the items only when every part is done (one bulk load): the
  // counts are of items read and handed to it, and the line says so.
  void StoredAtClose() { stored_at_close_ = true; }
  // A part has handed over all its items and waits for them to be stored.
  void PartDone() { ++parts_done_; }
  void Stop() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (stopped_) return;
      stopped_ = true;
    }
    wake_.notify_all();
    thread_.join();
    if (options_.progress_bar && shown_) options_.say("\r\x1b[K");
  }

 private:
  std::string Line() const {
    const double seconds = std::chrono::duration<double>(Clock::now() - start_).count();
    const int64_t items = items_, done_now = items - items_before_;
    if (stored_at_close_ && parts_done_ >= parts_) {
      return fmt::format("-- {}: storing {} items ({}) in one bulk load", table_, Thousands(items),
                         Megabytes(bytes_));
    }
    const double rate = seconds > 0 ? done_now / seconds : 0;
    std::string line = fmt::format("-- {}: {} ", table_, Thousands(items));
    if (total_ > 0) line += fmt::format("of ~{} ", Thousands(std::max(total_, items)));
    line +=
        fmt::format("items · {} · {} items/s", Megabytes(bytes_), Thousands(std::llround(rate)));
    if (stored_at_close_) {
      line += " read (stored at the end, in one bulk load)";
    } else if (total_ > items && rate > 0) {
      line += " · " + Duration((total_ - items) / rate) + " left";
    }
    return line;
  }
  void Loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    const auto every =
        options_.progress_bar ? std::chrono::milliseconds(500) : std::chrono::milliseconds(10000);
    while (!wake_.wait_for(lock, every, [&] { return stopped_; })) {
      if (!options_.say) continue;
      shown_ = true;
      options_.say(options_.progress_bar ? "\r\x1b[K" + Line() : Line() + "\n");
    }
  }

  const Options& options_;
  std::string table_;
  int parts_;
  int64_t total_;
  std::atomic<int64_t> items_, bytes_;
  std::atomic<bool> stored_at_close_{false};
  std::atomic<int> parts_done_{0};
  int64_t items_before_;
  Clock::time_point start_ = Clock::now();
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopped_ = false, shown_ = false;
  std::thread thread_;
};

// Reads all of `table` at `place` in `parts` parts at once: how many items and their digest.
Status ReadBack(Place& place, const std::string& table, int wanted, const Limits& limits,
                int64_t* items, uint64_t* digest) {
  const int parts = place.Parts(table, wanted);
  std::vector<std::thread> threads;
  std::mutex mutex;
  Status first;
  std::atomic<int64_t> count{0};
  std::atomic<uint64_t> sum{0};
  for (int part = 0; part < parts; ++part) {
    threads.emplace_back([&, part] {
      std::string position;
      for (;;) {
        Result<Page> page = place.Read(table, part, parts, position, limits);
        if (!page.ok()) {
          std::lock_guard<std::mutex> lock(mutex);
          if (first.ok()) first = page.status();
          return;
        }
        uint64_t s = 0;
        for (const Item& item : page->items) s += ItemDigest(item);
        sum += s;
        count += static_cast<int64_t>(page->items.size());
        if (!page->next || (limits.cancel && limits.cancel->load())) return;
        position = *page->next;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  if (limits.cancel && limits.cancel->load() && first.ok()) {
    first = Status(ErrorCode::kInterrupted, "Interrupted");
  }
  *items = count;
  *digest = sum;
  return first;
}

// The parts of two definitions a copy carries that differ, each as "what (source X, here Y)":
// keys, indexes (keys and projection), billing, stream, TTL and deletion protection. Empty
// when they agree.
std::vector<std::string> DefinitionDifferences(const TableDescription& from,
                                               const TableDescription& to) {
  const auto keys = [](const KeySchema& k) {
    std::string out;
    for (const KeyAttribute* a : k.Attributes()) {
      out += fmt::format("{}{} {}", out.empty() ? "" : ", ", a->name, TypeName(a->type));
    }
    return out;
  };
  const auto index = [&](const IndexDescription& i) {
    std::string projection(ProjectionTypeName(i.projection.type));
    for (const std::string& n : i.projection.non_key_attributes) projection += " " + n;
    return fmt::format("{} ({}; {})", i.name, keys(i.key), projection);
  };
  const auto indexes = [&](const TableDescription& t, IndexKind kind) {
    std::vector<std::string> out;
    for (const IndexDescription& i : t.indexes) {
      if (i.kind == kind) out.push_back(index(i));
    }
    std::sort(out.begin(), out.end());
    return out;
  };
  const auto list = [](const std::vector<std::string>& v) {
    std::string out;
    for (const std::string& x : v) out += (out.empty() ? "" : ", ") + x;
    return out.empty() ? std::string("none") : out;
  };
  std::vector<std::string> out;
  const auto differ = [&](std::string_view what, const std::string& a, const std::string& b) {
    if (a != b) out.push_back(fmt::format("{} (source {}, here {})", what, a, b));
  };
  differ("keys", keys(from.key), keys(to.key));
  differ("global indexes", list(indexes(from, IndexKind::kGlobal)),
         list(indexes(to, IndexKind::kGlobal)));
  differ("local indexes", list(indexes(from, IndexKind::kLocal)),
         list(indexes(to, IndexKind::kLocal)));
  differ("billing", from.billing_mode, to.billing_mode);
  differ("stream", from.stream_view_type.value_or("none"), to.stream_view_type.value_or("none"));
  differ("TTL", from.ttl_attribute.value_or("none"), to.ttl_attribute.value_or("none"));
  differ("deletion protection", from.deletion_protection ? "on" : "off",
         to.deletion_protection ? "on" : "off");
  return out;
}

}  // namespace

std::string StatePath(const std::string& from, const std::string& to,
                      const std::vector<std::string>& tables, bool items_only, bool append) {
  std::string key =
      from + "\n" + to + "\n" + (items_only ? "items-only\n" : "") + (append ? "append\n" : "");
  for (const std::string& t : tables) key += t + "\n";
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(key.data()), key.size(), digest);
  std::string hex;
  for (int i = 0; i < 10; ++i) hex += fmt::format("{:02x}", digest[i]);
  std::string base;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) {
    base = x;
  } else if (const char* home = std::getenv("HOME"); home && *home) {
    base = std::string(home) + "/.cache";
  } else {
    base = "/tmp";
  }
  return base + "/keyhole/copy/" + hex + ".json";
}

Status Copy(Place& from, Place& to, const Options& o, std::vector<TableResult>* results) {
  const auto say = [&](const std::string& line) {
    if (o.say) o.say(line + "\n");
  };
  const auto cancelled = [&] { return o.cancel && o.cancel->load(); };
  State state;
  state.path = o.state_path;
  state.from = from.Name();
  state.to = to.Name();
  const bool resumed = state.Load();

  std::vector<std::string> tables = o.tables;
  if (tables.empty()) {
    KH_ASSIGN_OR_RETURN(tables, from.Tables());
    if (tables.empty()) {
      return Status::Validation(fmt::format("{} has no tables to copy", from.Name()));
    }
  }
  if (resumed) {
    int64_t done = 0;
    for (const auto& [t, ts] : state.tables)
      for (const PartState& p : ts.parts) done += p.items;
    say(fmt::format("-- resuming the copy from {} to {}: {} items were copied before", from.Name(),
                    to.Name(), Thousands(done)));
  }
  Limits limits;
  limits.max_read_units = o.max_read_units;
  limits.max_write_units = o.max_write_units;
  limits.cancel = o.cancel;

  for (const std::string& table : tables) {
    TableResult result;
    result.table = table;
    TableState& ts = state.tables[table];
    std::optional<TableDescription> definition;
    if (!ts.copied) {
      // 1. The definition, and the destination checked, once.
      KH_ASSIGN_OR_RETURN(definition, from.Definition(table));
      if (!ts.prepared) {
        KH_ASSIGN_OR_RETURN(bool exists, to.Exists(table));
        if (exists) {
          KH_ASSIGN_OR_RETURN(bool empty, to.Empty(table));
          if (!empty && !o.append) {
            return Status::InUse(fmt::format(
                "{} already holds items at {}: refused, so that nothing is mixed or overwritten "
                "(--append copies into it anyway)",
                table, to.Name()));
          }
          if (!o.items_only) {
            say(
                fmt::format("-- {} exists at {}: its items are copied into it (its definition is "
                            "left as it is)",
                            table, to.Name()));
          }
        } else if (o.items_only) {
          return Status::NotFound(
              fmt::format("{} does not exist at {} (--items-only copies into tables that exist)",
                          table, to.Name()));
        } else if (!definition) {
          return Status::Validation(fmt::format(
              "{} holds {}'s items but not its keys (DynamoDB's exports do not): create the table "
              "at {} first, then copy again",
              from.Name(), table, to.Name()));
        } else {
          KH_RETURN_IF_ERROR(to.Create(table, *definition, say));
          say(fmt::format("-- {} created at {}", table, to.Name()));
        }
        ts.prepared = true;
        ts.parts.assign(static_cast<size_t>(from.Parts(table, o.segments)), PartState{});
        state.Save();
      }

      // 2. The items, part by part on threads of their own.
      int64_t items_before = 0, bytes_before = 0;
      for (const PartState& p : ts.parts) {
        items_before += p.items;
        bytes_before += p.bytes;
      }
      const auto start = Clock::now();
      const int parts = static_cast<int>(ts.parts.size());
      int writers = 0;
      for (const PartState& p : ts.parts) writers += p.done ? 0 : 1;
      Progress progress(o, table, from.ItemCountEstimate(table), items_before, bytes_before,
                        writers);
      KH_RETURN_IF_ERROR(to.WillWrite(table, writers, limits));
      std::vector<std::thread> threads;
      std::mutex error_mutex;
      Status first;
      for (int part = 0; part < parts; ++part) {
        threads.emplace_back([&, part] {
          PartState snapshot;
          {
            std::lock_guard<std::mutex> lock(state.mutex);
            snapshot = ts.parts[part];
          }
          if (snapshot.done) return;
          const auto fail = [&](const Status& s) {
            std::lock_guard<std::mutex> lock(error_mutex);
            if (first.ok()) first = s;
          };
          Result<std::unique_ptr<PartWriter>> writer =
              to.Writer(table, part, snapshot.sequence, limits);
          if (!writer.ok()) return fail(writer.status());
          if ((*writer)->stores_at_close()) progress.StoredAtClose();
          for (;;) {
            if (cancelled()) return fail(Status(ErrorCode::kInterrupted, "Interrupted"));
            {
              std::lock_guard<std::mutex> lock(error_mutex);
              if (!first.ok()) return;
            }
            // Pages read until they hold kChunkBytes (or the part ends), written at once: a
            // write transaction, a data file, or BatchWriteItems, then one checkpoint.
            std::vector<Item> chunk;
            int64_t bytes = 0;
            uint64_t digest = 0;
            PartState next = snapshot;
            do {
              Result<Page> page = from.Read(table, part, parts, next.position, limits);
              if (!page.ok()) return fail(page.status());
              for (const Item& item : page->items) digest += ItemDigest(item);
              bytes += page->bytes;
              if (chunk.empty()) {
                chunk = std::move(page->items);
              } else {
                for (Item& item : page->items) chunk.push_back(std::move(item));
              }
              if (page->next) {
                next.position = *page->next;
              } else {
                next.done = true;
              }
            } while (!next.done && bytes < kChunkBytes && !(*writer)->stores_at_close() &&
                     !cancelled());
            const int64_t n = static_cast<int64_t>(chunk.size());
            if (Status s = (*writer)->Write(std::move(chunk)); !s.ok()) return fail(s);
            snapshot = next;
            snapshot.items += n;
            snapshot.bytes += bytes;
            snapshot.digest += digest;
            ++snapshot.sequence;
            progress.Add(n, bytes);
            if ((*writer)->stores_at_close()) {  // checkpointed once Close has stored it all
              if (snapshot.done) break;
              continue;
            }
            std::lock_guard<std::mutex> lock(state.mutex);
            ts.parts[part] = snapshot;
            if (snapshot.done || Clock::now() - state.last_save > std::chrono::seconds(1)) {
              state.SaveLocked();
            }
            if (snapshot.done) break;
          }
          progress.PartDone();
          if (Status s = (*writer)->Close(); !s.ok()) return fail(s);
          if ((*writer)->stores_at_close()) {
            std::lock_guard<std::mutex> lock(state.mutex);
            ts.parts[part] = snapshot;
            state.SaveLocked();
          }
        });
      }
      for (std::thread& t : threads) t.join();
      progress.Stop();
      state.Save();
      result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
      for (const PartState& p : ts.parts) {
        result.items += p.items;
        result.bytes += p.bytes;
        result.digest += p.digest;
      }
      if (!first.ok()) {
        if (results) results->push_back(result);
        if (first.code() == ErrorCode::kInterrupted) {
          say(
              fmt::format("-- stopped: {} items of {} copied so far ({}); the same command run "
                          "again goes on from there",
                          Thousands(result.items), table, Megabytes(result.bytes)));
        }
        return first;
      }
      KH_RETURN_IF_ERROR(to.Finish(table, definition));
      ts.copied = true;
      state.Save();
      // The time and rate of a copy that took a while (a quick one's are noise).
      const int64_t new_items = result.items - items_before;
      say(fmt::format(
          "-- {}: {} items copied ({}){}", table, Thousands(result.items), Megabytes(result.bytes),
          result.seconds < 1 ? std::string()
                             : fmt::format(" in {:.1f} s, {} items/s", result.seconds,
                                           Thousands(std::llround(new_items / result.seconds)))));
    } else {
      for (const PartState& p : ts.parts) {
        result.items += p.items;
        result.bytes += p.bytes;
        result.digest += p.digest;
      }
    }

    // 3. Read back, with strongly consistent reads.
    Limits consistent = limits;
    consistent.consistent = true;
    consistent.read_back = true;
    Status back =
        ReadBack(to, table, o.segments, consistent, &result.read_back, &result.read_back_digest);
    if (!back.ok()) {
      if (results) results->push_back(result);
      return back;
    }
    result.same = result.read_back == result.items && result.read_back_digest == result.digest;
    if (results) results->push_back(result);
    if (o.append) {
      say(fmt::format("-- {}: {} items at {} after appending {}", table,
                      Thousands(result.read_back), to.Name(), Thousands(result.items)));
      if (result.read_back < result.items) {
        return Status::Internal(fmt::format("{} holds fewer items at {} ({}) than were copied ({})",
                                            table, to.Name(), result.read_back, result.items));
      }
    } else if (result.same) {
      say(fmt::format("-- {}: read back {} items at {}, digest {:016x} on both sides", table,
                      Thousands(result.read_back), to.Name(), result.digest));
    } else {
      return Status::Internal(fmt::format(
          "{} differs after the copy: {} items with digest {:016x} were copied, {} holds {} with "
          "digest {:016x} (another writer changed it, or items were lost)",
          table, Thousands(result.items), result.digest, to.Name(), Thousands(result.read_back),
          result.read_back_digest));
    }
    // 4. The definitions compared, on every run (a step the destination refused, or a table
    // that existed before, is said each time, not only when it happened).
    if (!definition) {
      if (Result<std::optional<TableDescription>> d = from.Definition(table); d.ok()) {
        definition = std::move(*d);
      }
    }
    if (definition && !o.items_only) {
      Result<std::optional<TableDescription>> here = to.Definition(table);
      if (here.ok() && *here) {
        const std::vector<std::string> differences = DefinitionDifferences(*definition, **here);
        std::string text;
        for (const std::string& d : differences) text += (text.empty() ? "" : "; ") + d;
        if (!text.empty()) {
          say(fmt::format("-- {}: its definition at {} differs from the source's: {}", table,
                          to.Name(), text));
        }
      }
    }
  }
  state.Remove();
  return Status::OK();
}

}  // namespace keyhole::copy
