// Several processes on one database file: LMDB serializes the writers and gives each reader a
// consistent snapshot. These tests fork writers and readers that start together and check that
// no write is lost, that indexes stay consistent with their table, and that every page a
// reader sees belongs to one snapshot. The maps start small, so the processes also grow the
// map under each other's feet.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/ddb_json.h"
#include "storage/database.h"
#include "storage_process_util.h"

namespace keyhole::storage {
namespace {

using forktest::AwaitStart;
using forktest::DescribeStatus;
using forktest::ForkChild;
using forktest::Pipe;
using forktest::ReadSome;
using forktest::TempDir;
using forktest::WaitChild;
using forktest::WriteAll;

constexpr size_t kInitialMap = 128 << 10;

AttributeValue S(std::string s) { return AttributeValue::S(std::move(s)); }
AttributeValue N(int64_t v) { return AttributeValue::N(Number::FromInt(v)); }
int64_t Int(const AttributeValue& v) {
  int64_t out = -1;
  if (v.is(ValueType::kN)) v.n().ToInt64(&out);
  return out;
}

Database::Options Opts() {
  Database::Options o;
  o.initial_map_size = kInitialMap;
  o.sync = false;  // a process crash loses nothing; these tests need no fsync
  return o;
}

// Reports a failed check in a child and makes it exit non-zero.
#define CHILD_CHECK(cond, ...)                                                                     \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      fprintf(stderr, "child %d, %s:%d: check failed: %s: ", getpid(), __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                                                \
      fprintf(stderr, "\n");                                                                       \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

// pk S, sk N; GSI "byG" (g S, gs N) INCLUDE [m]; LSI "byL" (pk, l S) ALL.
Status CreateTable(Database* db, const std::string& name) {
  CreateTableRequest c;
  c.table_name = name;
  c.attribute_definitions = {{"pk", "S"}, {"sk", "N"}, {"g", "S"}, {"gs", "N"}, {"l", "S"}};
  c.key_schema = {{"pk", "HASH"}, {"sk", "RANGE"}};
  c.global_secondary_indexes = {
      {"byG", {{"g", "HASH"}, {"gs", "RANGE"}}, "INCLUDE", std::vector<std::string>{"m"}}};
  c.local_secondary_indexes = {{"byL", {{"pk", "HASH"}, {"l", "RANGE"}}, "ALL", std::nullopt}};
  return db->CreateTable(c).status();
}

Status Put(Database* db, const std::string& table, Item item) {
  PutItemRequest r;
  r.table_name = table;
  r.item = std::move(item);
  return db->PutItem(r).status();
}

Status Delete(Database* db, const std::string& table, Item key) {
  DeleteItemRequest r;
  r.table_name = table;
  r.key = std::move(key);
  return db->DeleteItem(r).status();
}

// ---- two writers ----

constexpr int kItemsPerWriter = 2000;
constexpr int kSharedKeys = 40;

// Writer `w`'s i-th write, a pure function so that the parent can predict the final state:
// every write puts the writer's own item i; every 4th also overwrites shared key (i/4) % 40
// with the writer's marker; every 9th deletes the writer's item i-5.
Item OwnItem(int w, int i) {
  Item item{{"pk", S("w" + std::to_string(w) + "-" + std::to_string(i % 97))},
            {"sk", N(i)},
            {"m", N(w)},
            {"pad", S(std::string(static_cast<size_t>(i % 13) * 150, 'p'))}};
  if (i % 3 != 0) item["g"] = S("g" + std::to_string(i % 5));
  if (i % 4 != 0) item["gs"] = N(i % 11);
  if (i % 2 == 0) item["l"] = S("l" + std::to_string(i % 7));
  return item;
}
Item SharedItem(int w, int i) {
  return {{"pk", S("shared")},
          {"sk", N((i / 4) % kSharedKeys)},
          {"m", N(w)},
          {"round", N(i)},
          {"g", S("g-shared")},
          {"gs", N(i % 3)},
          {"l", S("s" + std::to_string(w))}};
}

// Waits until the other writer has reached the same checkpoint, so that the two really write
// at the same time (a writer alone on a loaded machine could otherwise finish first).
void Rendezvous(Pipe* mine, Pipe* theirs) {
  char one = 1;
  WriteAll(mine->write_fd(), &one, 1);
  std::string got;
  while (got.empty() && ReadSome(theirs->read_fd(), -1, &got)) {
  }
}

int TwoWritersChild(const std::string& path, int w, Pipe* go, Pipe to[2]) {
  to[w].CloseRead();
  to[1 - w].CloseWrite();
  AwaitStart(go);
  auto db = Database::Open(path, Opts());
  CHILD_CHECK(db.ok(), "%s", db.status().ToString().c_str());
  for (int i = 0; i < kItemsPerWriter; ++i) {
    if (i % 250 == 0) Rendezvous(&to[w], &to[1 - w]);
    Status s = Put(db->get(), "Shared", OwnItem(w, i));
    CHILD_CHECK(s.ok(), "put %d: %s", i, s.ToString().c_str());
    if (i % 4 == 0) {
      s = Put(db->get(), "Shared", SharedItem(w, i));
      CHILD_CHECK(s.ok(), "shared put %d: %s", i, s.ToString().c_str());
    }
    if (i % 9 == 0 && i >= 5) {
      Item victim = OwnItem(w, i - 5);
      s = Delete(db->get(), "Shared", {{"pk", victim.at("pk")}, {"sk", victim.at("sk")}});
      CHILD_CHECK(s.ok(), "delete %d: %s", i, s.ToString().c_str());
    }
  }
  return 0;
}

std::string KeyText(const Item& item) {
  return ItemToJsonText({{"pk", item.at("pk")}, {"sk", item.at("sk")}});
}

TEST(StorageConcurrencyTest, TwoWritersLoseNoWrite) {
  TempDir dir("concurrency");
  ASSERT_TRUE(dir.ok());
  const std::string path = dir.path() + "/shared.kh";
  {
    auto db = Database::Open(path, Opts());
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    ASSERT_TRUE(CreateTable(db->get(), "Shared").ok());
  }
  Pipe go, to[2];
  ASSERT_TRUE(go.ok() && to[0].ok() && to[1].ok());
  pid_t pids[2];
  for (int w = 0; w < 2; ++w) {
    pids[w] = ForkChild([&] { return TwoWritersChild(path, w, &go, to); });
    ASSERT_GT(pids[w], 0);
  }
  for (Pipe& p : to) {
    p.CloseRead();
    p.CloseWrite();
  }
  go.CloseWrite();  // start both
  go.CloseRead();
  for (int w = 0; w < 2; ++w) {
    int status = WaitChild(pids[w]);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
        << "writer " << w << " " << DescribeStatus(status);
  }
  if (HasFailure()) return;

  // The expected own items, and for each shared key the last write of each writer.
  std::map<std::string, Item> own;
  std::map<std::string, Item> last_shared[2];
  for (int w = 0; w < 2; ++w) {
    for (int i = 0; i < kItemsPerWriter; ++i) {
      Item item = OwnItem(w, i);
      own[KeyText(item)] = item;
      if (i % 4 == 0) {
        Item shared = SharedItem(w, i);
        last_shared[w][KeyText(shared)] = shared;
      }
      if (i % 9 == 0 && i >= 5) own.erase(KeyText(OwnItem(w, i - 5)));
    }
  }
  ASSERT_EQ(last_shared[0].size(), static_cast<size_t>(kSharedKeys));

  auto db = Database::Open(path, Opts());
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  Status v = (*db)->VerifyIntegrity();
  EXPECT_TRUE(v.ok()) << v.ToString();
  std::map<std::string, Item> got;
  ScanRequest r;
  r.table_name = "Shared";
  r.limit = 500;
  for (;;) {
    auto page = (*db)->Scan(r);
    ASSERT_TRUE(page.ok()) << page.status().ToString();
    for (const Item& item : page->items) {
      EXPECT_TRUE(got.emplace(KeyText(item), item).second) << "twice: " << KeyText(item);
    }
    if (!page->last_evaluated_key) break;
    r.exclusive_start_key = page->last_evaluated_key;
  }
  size_t markers[2] = {0, 0};
  for (const auto& [k, item] : own) {
    auto it = got.find(k);
    if (it == got.end()) {
      ADD_FAILURE() << "lost write: " << k;
      continue;
    }
    EXPECT_EQ(ItemToJsonText(it->second), ItemToJsonText(item));
  }
  for (const auto& [k, item0] : last_shared[0]) {
    auto it = got.find(k);
    if (it == got.end()) {
      ADD_FAILURE() << "lost shared key: " << k;
      continue;
    }
    // The final value is the last write of one writer or of the other, never a mixture or an
    // earlier write.
    const Item& item1 = last_shared[1].at(k);
    bool is0 = it->second == item0, is1 = it->second == item1;
    EXPECT_TRUE(is0 || is1) << k << " holds " << ItemToJsonText(it->second);
    markers[0] += is0;
    markers[1] += is1;
  }
  EXPECT_EQ(got.size(), own.size() + kSharedKeys);

  DescribeTableRequest d;
  d.table_name = "Shared";
  auto desc = (*db)->DescribeTable(d);
  ASSERT_TRUE(desc.ok()) << desc.status().ToString();
  EXPECT_EQ(desc->table.item_count, static_cast<int64_t>(own.size() + kSharedKeys));
  int64_t in_g = 0, in_l = 0;
  for (const auto& [k, item] : got) {
    in_g += item.count("g") && item.count("gs");
    in_l += item.count("l") > 0;
  }
  for (const IndexDescription& idx : desc->table.indexes) {
    EXPECT_EQ(idx.item_count, idx.name == "byG" ? in_g : in_l) << idx.name;
  }
  RecordProperty("shared_keys_won_by_writer0", std::to_string(markers[0]));
}

// ---- a writer and a reader ----

// The writer slides a window over partition "win": it puts sort key hi, then deletes sort key
// lo, one transaction each, so every snapshot holds exactly the contiguous keys [lo, hi) with
// hi - lo = kWindow or kWindow + 1. Each item carries values derived from its sort key. Around
// it, "noise" items of varying sizes are put and deleted to split pages and grow the map.
constexpr int kWindow = 25;
constexpr int kMinSlides = 1500;
constexpr int kMinReads = 30;

Item WindowItem(int64_t sk) {
  char l[16];
  snprintf(l, sizeof l, "%08lld", static_cast<long long>(sk));
  return {{"pk", S("win")}, {"sk", N(sk)}, {"check", N(sk * 7 + 1)}, {"g", S("win")},
          {"gs", N(sk)},    {"l", S(l)},   {"m", N(sk % 5)}};
}

int WriterChild(const std::string& path, Pipe* go, int progress_fd) {
  AwaitStart(go);
  auto db = Database::Open(path, Opts());
  CHILD_CHECK(db.ok(), "%s", db.status().ToString().c_str());
  std::string reads;  // one byte per read round the reader completed
  bool reader_alive = true;
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  int64_t lo = 0;
  for (int slide = 0;; ++slide) {
    if (slide >= kMinSlides && (reads.size() >= kMinReads || !reader_alive)) break;
    CHILD_CHECK(std::chrono::steady_clock::now() < give_up, "the reader made no progress");
    if (reader_alive) reader_alive = ReadSome(progress_fd, 0, &reads);
    Status s = Put(db->get(), "Window", WindowItem(lo + kWindow));
    CHILD_CHECK(s.ok(), "put: %s", s.ToString().c_str());
    s = Delete(db->get(), "Window", {{"pk", S("win")}, {"sk", N(lo)}});
    CHILD_CHECK(s.ok(), "delete: %s", s.ToString().c_str());
    ++lo;
    int r = slide * 7919 % 1000;
    Item noise{{"pk", S("noise" + std::to_string(r % 40))},
               {"sk", N(r % 6)},
               {"pad", S(std::string(static_cast<size_t>(r) * 31, 'n'))},
               {"len", N(r * 31)}};
    if (r % 2) {
      noise["g"] = S("noise");
      noise["gs"] = N(r);
    }
    if (r % 3) noise["l"] = S("n" + std::to_string(r));
    s = r % 5 == 0 ? Delete(db->get(), "Window", {{"pk", noise["pk"]}, {"sk", noise["sk"]}})
                   : Put(db->get(), "Window", noise);
    CHILD_CHECK(s.ok(), "noise: %s", s.ToString().c_str());
  }
  return 0;
}

// Checks one item of the window as a reader sees it (KEYS_ONLY-like projections included).
bool ValidWindowItem(const Item& item) {
  Item full = WindowItem(Int(item.at("sk")));
  for (const auto& [name, value] : item) {
    auto it = full.find(name);
    if (it == full.end() || !(it->second == value)) return false;
  }
  return true;
}

int ReaderChild(const std::string& path, Pipe* go, int progress_fd, int writer_done_fd) {
  AwaitStart(go);
  auto opened = Database::Open(path, Opts());
  CHILD_CHECK(opened.ok(), "%s", opened.status().ToString().c_str());
  Database* db = opened->get();
  std::string ignored;
  int rounds = 0;
  for (bool writer_alive = true; writer_alive; ++rounds) {
    writer_alive = ReadSome(writer_done_fd, 0, &ignored);
    // 1. One page of the window, on the table, the GSI and the LSI: contiguous keys of one
    //    snapshot, in order, each item intact.
    for (int source = 0; source < 3; ++source) {
      QueryRequest q;
      q.table_name = "Window";
      q.index_name =
          source == 0 ? std::nullopt : std::optional<std::string>(source == 1 ? "byG" : "byL");
      q.key_condition.partition_name = source == 1 ? "g" : "pk";
      q.key_condition.partition_value = S("win");
      q.scan_index_forward = rounds % 2 == 0;
      auto r = db->Query(q);
      CHILD_CHECK(r.ok(), "query %d: %s", source, r.status().ToString().c_str());
      size_t n = r->items.size();
      CHILD_CHECK(n == size_t{kWindow} || n == size_t{kWindow} + 1,
                  "source %d: %zu items in the window", source, n);
      CHILD_CHECK(!r->last_evaluated_key, "source %d: unexpected LastEvaluatedKey", source);
      for (size_t i = 0; i < n; ++i) {
        const Item& item = r->items[i];
        CHILD_CHECK(ValidWindowItem(item), "source %d: %s", source, ItemToJsonText(item).c_str());
        if (source == 1) {  // the GSI projects keys and m only
          CHILD_CHECK(item.size() == 5, "GSI projection: %s", ItemToJsonText(item).c_str());
        } else {
          CHILD_CHECK(item.size() == 7, "projection: %s", ItemToJsonText(item).c_str());
        }
        if (i > 0) {
          int64_t step = Int(item.at("sk")) - Int(r->items[i - 1].at("sk"));
          CHILD_CHECK(step == (q.scan_index_forward ? 1 : -1),
                      "source %d: not contiguous at #%zu (step %lld)", source, i,
                      static_cast<long long>(step));
        }
      }
    }
    // 2. The window paged by 3: strictly increasing across pages (resumes strictly after the
    //    last key even while the writer moves the window).
    {
      QueryRequest q;
      q.table_name = "Window";
      q.key_condition.partition_name = "pk";
      q.key_condition.partition_value = S("win");
      q.limit = 3;
      int64_t last = -1;
      for (int pages = 0;; ++pages) {
        CHILD_CHECK(pages < 10000, "paged query does not end");
        auto r = db->Query(q);
        CHILD_CHECK(r.ok(), "paged query: %s", r.status().ToString().c_str());
        CHILD_CHECK(r->count == static_cast<int64_t>(r->items.size()) && r->count <= 3,
                    "count %lld", static_cast<long long>(r->count));
        for (const Item& item : r->items) {
          CHILD_CHECK(ValidWindowItem(item), "%s", ItemToJsonText(item).c_str());
          CHILD_CHECK(Int(item.at("sk")) > last, "paged query went backwards");
          last = Int(item.at("sk"));
        }
        if (!r->last_evaluated_key) break;
        q.exclusive_start_key = r->last_evaluated_key;
      }
    }
    // 3. A paged parallel scan of the table and of each index: every item intact, none twice.
    for (int source = 0; source < 3; ++source) {
      std::set<std::string> seen;
      for (int segment = 0; segment < 2; ++segment) {
        ScanRequest s;
        s.table_name = "Window";
        if (source) s.index_name = source == 1 ? "byG" : "byL";
        s.limit = 7;
        s.segment = segment;
        s.total_segments = 2;
        for (int pages = 0;; ++pages) {
          CHILD_CHECK(pages < 10000, "paged scan does not end");
          auto r = db->Scan(s);
          CHILD_CHECK(r.ok(), "scan %d: %s", source, r.status().ToString().c_str());
          for (const Item& item : r->items) {
            // An entry's position: its table key and, on an index, its index key. An
            // overwrite may move an item within an index, and a later page may meet it again
            // at its new position, but never twice at one position.
            Item position{{"pk", item.at("pk")}, {"sk", item.at("sk")}};
            if (source == 1) {
              position["g"] = item.at("g");
              position["gs"] = item.at("gs");
            } else if (source == 2) {
              position["l"] = item.at("l");
            }
            CHILD_CHECK(seen.insert(ItemToJsonText(position)).second,
                        "scan %d returned an entry twice: %s", source,
                        ItemToJsonText(item).c_str());
            if (item.at("pk").s() == "win") {
              CHILD_CHECK(ValidWindowItem(item), "%s", ItemToJsonText(item).c_str());
            } else if (source != 1) {  // the GSI does not project pad and len
              CHILD_CHECK(static_cast<int64_t>(item.at("pad").s().size()) == Int(item.at("len")),
                          "torn noise item");
            }
          }
          if (!r->last_evaluated_key) break;
          s.exclusive_start_key = r->last_evaluated_key;
        }
      }
    }
    if (rounds % 5 == 0) {
      Status v = db->VerifyIntegrity();
      CHILD_CHECK(v.ok(), "%s", v.ToString().c_str());
    }
    char one = 1;
    WriteAll(progress_fd, &one, 1);  // may fail once the writer is gone; ignored
  }
  return rounds >= kMinReads ? 0 : 5;
}

TEST(StorageConcurrencyTest, ReaderSeesConsistentPagesWhileWriterWrites) {
  signal(SIGPIPE, SIG_IGN);  // the reader may report progress after the writer has exited
  TempDir dir("concurrency");
  ASSERT_TRUE(dir.ok());
  const std::string path = dir.path() + "/window.kh";
  {
    auto db = Database::Open(path, Opts());
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    ASSERT_TRUE(CreateTable(db->get(), "Window").ok());
    for (int64_t sk = 0; sk < kWindow; ++sk) {
      ASSERT_TRUE(Put(db->get(), "Window", WindowItem(sk)).ok());
    }
  }
  Pipe go, progress, writer_done;
  ASSERT_TRUE(go.ok() && progress.ok() && writer_done.ok());
  pid_t writer = ForkChild([&] {
    progress.CloseWrite();
    writer_done.CloseRead();  // the write end stays open until the writer exits
    return WriterChild(path, &go, progress.read_fd());
  });
  ASSERT_GT(writer, 0);
  writer_done.CloseWrite();
  pid_t reader = ForkChild([&] {
    progress.CloseRead();
    return ReaderChild(path, &go, progress.write_fd(), writer_done.read_fd());
  });
  ASSERT_GT(reader, 0);
  progress.CloseRead();
  progress.CloseWrite();
  writer_done.CloseRead();
  go.CloseWrite();  // start both
  go.CloseRead();
  int writer_status = WaitChild(writer);
  int reader_status = WaitChild(reader);
  EXPECT_TRUE(WIFEXITED(writer_status) && WEXITSTATUS(writer_status) == 0)
      << "writer " << DescribeStatus(writer_status);
  EXPECT_TRUE(WIFEXITED(reader_status) && WEXITSTATUS(reader_status) == 0)
      << "reader " << DescribeStatus(reader_status);

  // The final window, and consistent indexes.
  auto db = Database::Open(path, Opts());
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  Status v = (*db)->VerifyIntegrity();
  EXPECT_TRUE(v.ok()) << v.ToString();
  QueryRequest q;
  q.table_name = "Window";
  q.key_condition.partition_name = "pk";
  q.key_condition.partition_value = S("win");
  auto r = (*db)->Query(q);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->items.size(), static_cast<size_t>(kWindow));
  int64_t lo = Int(r->items.front().at("sk"));
  EXPECT_GE(lo, kMinSlides);
  for (size_t i = 0; i < r->items.size(); ++i) {
    EXPECT_EQ(ItemToJsonText(r->items[i]),
              ItemToJsonText(WindowItem(lo + static_cast<int64_t>(i))));
  }
}

// ---- schema changes made by another process ----

// Two children in lock step: each does its part, hands the baton over and waits for it back.
void Pass(Pipe* out) {
  char one = 1;
  WriteAll(out->write_fd(), &one, 1);
}
bool Await(Pipe* in) {
  std::string got;
  while (got.empty()) {
    if (!ReadSome(in->read_fd(), -1, &got)) return false;  // the other process is gone
  }
  return true;
}

// Table "Schema" starts as pk S, sk N with GSI "byH" (h S) KEYS_ONLY over these items.
Item SchemaItem(int i) {
  Item item{{"pk", S("p" + std::to_string(i % 5))}, {"sk", N(i)}};
  if (i % 2 == 0) item["h"] = S("h" + std::to_string(i % 3));
  if (i % 3 == 0) item["h2"] = S("x" + std::to_string(i % 4));
  return item;
}
constexpr int kSchemaItems = 30;
int64_t CountWith(const char* attr, const std::string& value) {
  int64_t n = 0;
  for (int i = 0; i < kSchemaItems; ++i) {
    Item item = SchemaItem(i);
    n += item.count(attr) && item.at(attr).s() == value;
  }
  return n;
}

// The number of items a paged Query on index `index` finds for attr = value; -1 on error.
int64_t IndexCount(Database* db, const std::string& index, const std::string& attr,
                   AttributeValue value, Status* error) {
  QueryRequest q;
  q.table_name = "Schema";
  q.index_name = index;
  q.key_condition.partition_name = attr;
  q.key_condition.partition_value = std::move(value);
  q.limit = 2;
  int64_t n = 0;
  for (;;) {
    auto r = db->Query(q);
    if (!r.ok()) {
      *error = r.status();
      return -1;
    }
    n += r->count;
    if (!r->last_evaluated_key) return n;
    q.exclusive_start_key = r->last_evaluated_key;
  }
}

// The schema's index partition keys ("" for a missing table), asked twice: the second answer
// comes from the handle the first one verified, when nothing was committed in between.
std::string IndexKeys(Database* db, std::string* partition_type) {
  std::string out;
  partition_type->clear();
  for (int i = 0; i < 2; ++i) {
    Result<TableSchemaPtr> t = db->TableSchema("Schema");
    if (!t.ok()) return "";
    out.clear();
    for (const IndexDescription& idx : (*t)->indexes) out += idx.key.partition.name + ";";
    *partition_type = std::string(TypeName((*t)->key.partition.type));
  }
  return out;
}

// The process that keeps its Database (and its cached schema and sub-database handles) open
// while the other one drops the GSI, re-creates it on another attribute, and finally deletes
// and re-creates the whole table with another key schema.
int ObserverChild(const std::string& path, Pipe* to_changer, Pipe* to_observer) {
  to_changer->CloseRead();
  to_observer->CloseWrite();
  auto opened = Database::Open(path, Opts());
  CHILD_CHECK(opened.ok(), "%s", opened.status().ToString().c_str());
  Database* db = opened->get();
  Status err;
  int64_t n = IndexCount(db, "byH", "h", S("h0"), &err);
  CHILD_CHECK(n == CountWith("h", "h0"), "byH h0: %lld %s", static_cast<long long>(n),
              err.ToString().c_str());
  std::string type;
  CHILD_CHECK(IndexKeys(db, &type) == "h;" && type == "S", "schema at the start");
  Pass(to_changer);

  // The changer dropped byH.
  CHILD_CHECK(Await(to_observer), "changer gone");
  CHILD_CHECK(IndexKeys(db, &type).empty() && type == "S", "schema after the index was dropped");
  n = IndexCount(db, "byH", "h", S("h0"), &err);
  CHILD_CHECK(n == -1 && err.IsValidation(), "query on a dropped index: %s",
              err.ToString().c_str());
  Status s = Put(db, "Schema", {{"pk", S("a")}, {"sk", N(100)}, {"h", S("h0")}, {"h2", S("x0")}});
  CHILD_CHECK(s.ok(), "%s", s.ToString().c_str());
  s = db->VerifyIntegrity();
  CHILD_CHECK(s.ok(), "%s", s.ToString().c_str());
  Pass(to_changer);

  // The changer re-created byH on h2, backfilled (with the item put above).
  CHILD_CHECK(Await(to_observer), "changer gone");
  CHILD_CHECK(IndexKeys(db, &type) == "h2;", "schema after the index was re-created");
  n = IndexCount(db, "byH", "h2", S("x0"), &err);
  CHILD_CHECK(n == CountWith("h2", "x0") + 1, "byH x0 after re-creation: %lld %s",
              static_cast<long long>(n), err.ToString().c_str());
  DescribeTableRequest d;
  d.table_name = "Schema";
  auto desc = db->DescribeTable(d);
  CHILD_CHECK(desc.ok() && desc->table.indexes.size() == 1 &&
                  desc->table.indexes[0].key.partition.name == "h2" &&
                  desc->table.indexes[0].item_count ==
                      CountWith("h2", "x0") + CountWith("h2", "x1") + CountWith("h2", "x2") +
                          CountWith("h2", "x3") + 1,
              "DescribeTable after re-creation");
  s = Put(db, "Schema", {{"pk", S("a")}, {"sk", N(101)}, {"h2", S("x0")}});
  CHILD_CHECK(s.ok(), "%s", s.ToString().c_str());
  n = IndexCount(db, "byH", "h2", S("x0"), &err);
  CHILD_CHECK(n == CountWith("h2", "x0") + 2, "byH x0 after a put: %lld",
              static_cast<long long>(n));
  s = db->VerifyIntegrity();
  CHILD_CHECK(s.ok(), "%s", s.ToString().c_str());
  Pass(to_changer);

  // The changer deleted the table and created "Schema" again: pk N, GSI byG (g S).
  CHILD_CHECK(Await(to_observer), "changer gone");
  CHILD_CHECK(IndexKeys(db, &type) == "g;" && type == "N", "schema after the table was re-created");
  s = Put(db, "Schema", {{"pk", S("a")}, {"sk", N(102)}});
  CHILD_CHECK(s.IsValidation(), "a put with the old key schema: %s", s.ToString().c_str());
  s = Put(db, "Schema", {{"pk", N(1)}, {"g", S("g")}, {"h2", S("x0")}});
  CHILD_CHECK(s.ok(), "%s", s.ToString().c_str());
  n = IndexCount(db, "byH", "h2", S("x0"), &err);
  CHILD_CHECK(n == -1 && err.IsValidation(), "byH on the new table: %s", err.ToString().c_str());
  n = IndexCount(db, "byG", "g", S("g"), &err);
  CHILD_CHECK(n == 1, "byG on the new table: %lld %s", static_cast<long long>(n),
              err.ToString().c_str());
  ScanRequest scan;
  scan.table_name = "Schema";
  auto all = db->Scan(scan);
  CHILD_CHECK(all.ok() && all->count == 1, "the new table holds old items");
  s = db->VerifyIntegrity();
  CHILD_CHECK(s.ok(), "%s", s.ToString().c_str());
  Pass(to_changer);
  return 0;
}

int ChangerChild(const std::string& path, Pipe* to_changer, Pipe* to_observer) {
  to_changer->CloseWrite();
  to_observer->CloseRead();
  auto opened = Database::Open(path, Opts());
  CHILD_CHECK(opened.ok(), "%s", opened.status().ToString().c_str());
  Database* db = opened->get();
  CHILD_CHECK(Await(to_changer), "observer gone");
  UpdateTableRequest u;
  u.table_name = "Schema";
  u.delete_global_index = "byH";
  Status s = db->UpdateTable(u).status();
  CHILD_CHECK(s.ok(), "drop byH: %s", s.ToString().c_str());
  Pass(to_observer);

  CHILD_CHECK(Await(to_changer), "observer gone");
  u = UpdateTableRequest();
  u.table_name = "Schema";
  u.attribute_definitions = {{"h2", "S"}};
  u.create_global_index = IndexSpec{"byH", {{"h2", "HASH"}}, "KEYS_ONLY", std::nullopt};
  s = db->UpdateTable(u).status();
  CHILD_CHECK(s.ok(), "re-create byH: %s", s.ToString().c_str());
  Pass(to_observer);

  CHILD_CHECK(Await(to_changer), "observer gone");
  Status err;
  int64_t n = IndexCount(db, "byH", "h2", S("x0"), &err);
  CHILD_CHECK(n == CountWith("h2", "x0") + 2, "the observer's put is not in byH: %lld %s",
              static_cast<long long>(n), err.ToString().c_str());
  DeleteTableRequest del;
  del.table_name = "Schema";
  s = db->DeleteTable(del).status();
  CHILD_CHECK(s.ok(), "delete: %s", s.ToString().c_str());
  CreateTableRequest c;
  c.table_name = "Schema";
  c.attribute_definitions = {{"pk", "N"}, {"g", "S"}};
  c.key_schema = {{"pk", "HASH"}};
  c.global_secondary_indexes = {{"byG", {{"g", "HASH"}}, "ALL", std::nullopt}};
  s = db->CreateTable(c).status();
  CHILD_CHECK(s.ok(), "create: %s", s.ToString().c_str());
  Pass(to_observer);

  CHILD_CHECK(Await(to_changer), "observer gone");
  GetItemRequest g;
  g.table_name = "Schema";
  g.key = {{"pk", N(1)}};
  auto got = db->GetItem(g);
  CHILD_CHECK(got.ok() && got->item && got->item->count("g"), "the observer's item is missing");
  s = db->VerifyIntegrity();
  CHILD_CHECK(s.ok(), "%s", s.ToString().c_str());
  return 0;
}

TEST(StorageConcurrencyTest, SchemaChangesInAnotherProcessAreSeen) {
  TempDir dir("concurrency");
  ASSERT_TRUE(dir.ok());
  const std::string path = dir.path() + "/schema.kh";
  {
    auto db = Database::Open(path, Opts());
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    CreateTableRequest c;
    c.table_name = "Schema";
    c.attribute_definitions = {{"pk", "S"}, {"sk", "N"}, {"h", "S"}};
    c.key_schema = {{"pk", "HASH"}, {"sk", "RANGE"}};
    c.global_secondary_indexes = {{"byH", {{"h", "HASH"}}, "KEYS_ONLY", std::nullopt}};
    ASSERT_TRUE((*db)->CreateTable(c).ok());
    for (int i = 0; i < kSchemaItems; ++i)
      ASSERT_TRUE(Put(db->get(), "Schema", SchemaItem(i)).ok());
  }
  Pipe to_changer, to_observer;
  ASSERT_TRUE(to_changer.ok() && to_observer.ok());
  pid_t observer = ForkChild([&] { return ObserverChild(path, &to_changer, &to_observer); });
  ASSERT_GT(observer, 0);
  pid_t changer = ForkChild([&] { return ChangerChild(path, &to_changer, &to_observer); });
  ASSERT_GT(changer, 0);
  for (Pipe* p : {&to_changer, &to_observer}) {
    p->CloseRead();
    p->CloseWrite();
  }
  int observer_status = WaitChild(observer);
  int changer_status = WaitChild(changer);
  EXPECT_TRUE(WIFEXITED(observer_status) && WEXITSTATUS(observer_status) == 0)
      << "observer " << DescribeStatus(observer_status);
  EXPECT_TRUE(WIFEXITED(changer_status) && WEXITSTATUS(changer_status) == 0)
      << "changer " << DescribeStatus(changer_status);

  auto db = Database::Open(path, Opts());
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  Status v = (*db)->VerifyIntegrity();
  EXPECT_TRUE(v.ok()) << v.ToString();
  auto tables = (*db)->ListTables({});
  ASSERT_TRUE(tables.ok());
  EXPECT_EQ(tables->table_names, std::vector<std::string>{"Schema"});
}

// ---- racing to create the file and the table ----

// Four processes open a file that does not exist yet and create the same table at the same
// moment: the file is created once, exactly one CreateTable succeeds, the others get
// ResourceInUseException, and every process can then write.
constexpr int kRacers = 4;
constexpr int kRacerItems = 50;

int RacerChild(const std::string& path, int id, Pipe* go, int result_fd) {
  AwaitStart(go);
  auto db = Database::Open(path, Opts());
  CHILD_CHECK(db.ok(), "open: %s", db.status().ToString().c_str());
  Status s = CreateTable(db->get(), "Race");
  CHILD_CHECK(s.ok() || s.code() == ErrorCode::kResourceInUse, "create: %s", s.ToString().c_str());
  char won = s.ok() ? 1 : 0;
  for (int i = 0; i < kRacerItems; ++i) {
    s = Put(db->get(), "Race",
            {{"pk", S("r" + std::to_string(id))}, {"sk", N(i)}, {"g", S("g")}, {"gs", N(id)}});
    CHILD_CHECK(s.ok(), "put: %s", s.ToString().c_str());
  }
  WriteAll(result_fd, &won, 1);
  return 0;
}

TEST(StorageConcurrencyTest, ProcessesRacingToCreateFileAndTable) {
  TempDir dir("concurrency");
  ASSERT_TRUE(dir.ok());
  const std::string path = dir.path() + "/race.kh";
  Pipe go, results;
  ASSERT_TRUE(go.ok() && results.ok());
  std::vector<pid_t> pids;
  for (int id = 0; id < kRacers; ++id) {
    pid_t pid = ForkChild([&] {
      results.CloseRead();
      return RacerChild(path, id, &go, results.write_fd());
    });
    ASSERT_GT(pid, 0);
    pids.push_back(pid);
  }
  results.CloseWrite();
  go.CloseWrite();  // start all
  go.CloseRead();
  for (pid_t pid : pids) {
    int status = WaitChild(pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << DescribeStatus(status);
  }
  std::string won;
  while (ReadSome(results.read_fd(), -1, &won)) {
  }
  ASSERT_EQ(won.size(), static_cast<size_t>(kRacers));
  EXPECT_EQ(std::count(won.begin(), won.end(), 1), 1) << "CreateTable must succeed exactly once";

  auto db = Database::Open(path, Opts());
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  DescribeTableRequest d;
  d.table_name = "Race";
  auto desc = (*db)->DescribeTable(d);
  ASSERT_TRUE(desc.ok()) << desc.status().ToString();
  EXPECT_EQ(desc->table.item_count, kRacers * kRacerItems);
  Status v = (*db)->VerifyIntegrity();
  EXPECT_TRUE(v.ok()) << v.ToString();
}

}  // namespace
}  // namespace keyhole::storage
