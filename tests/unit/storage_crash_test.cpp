// Crash test: a child process writes to a database file and acknowledges every completed
// write on a pipe; the parent kills it with SIGKILL at a random moment, reopens the file and
// checks that every acknowledged write is there (and at most the one write in flight beyond),
// that indexes agree with their table (VerifyIntegrity), and that the statistics are right.
// Twenty rounds continue on the same file. The write sequence is a pure function of (seed,
// sequence number), so the parent replays exactly what the child did. A second test kills
// processes in the middle of reads while another process keeps the file open.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <random>
#include <string>

#include "core/ddb_json.h"
#include "core/item.h"
#include "storage/database.h"
#include "storage_process_util.h"

namespace keyhole::storage {
namespace {

using forktest::DescribeStatus;
using forktest::ForkChild;
using forktest::Pipe;
using forktest::ReadSome;
using forktest::TempDir;
using forktest::WaitChild;
using forktest::WriteAll;

constexpr char kTable[] = "Crash";
constexpr size_t kInitialMap = 256 << 10;  // small: the children grow the map as they go

AttributeValue S(std::string s) { return AttributeValue::S(std::move(s)); }
AttributeValue N(int64_t v) { return AttributeValue::N(Number::FromInt(v)); }

// One write of the sequence.
struct Op {
  enum Kind { kPut, kDelete, kAddIndex, kDropIndex } kind = kPut;
  Item item;  // kPut: the item; kDelete: the key
};

// Write number `seq` of the sequence for `seed`: mostly puts over a small key space (so
// overwrites are frequent), some deletes, and now and then adding or dropping the GSI "byH"
// (UpdateTable with backfill). Sometimes a large item, so that the map must grow.
Op MakeOp(uint64_t seed, int64_t seq) {
  std::seed_seq ss{seed, static_cast<uint64_t>(seq)};
  std::mt19937_64 rng(ss);
  auto uniform = [&](int n) { return static_cast<int>(rng() % static_cast<uint64_t>(n)); };
  Op op;
  int dice = uniform(1000);
  Item key{{"pk", S("k" + std::to_string(uniform(60)))}, {"sk", N(uniform(4))}};
  if (dice < 4) {
    op.kind = Op::kAddIndex;
  } else if (dice < 7) {
    op.kind = Op::kDropIndex;
  } else if (dice < 200) {
    op.kind = Op::kDelete;
    op.item = key;
  } else {
    op.item = key;
    op.item["v"] = N(seq);
    if (uniform(5) != 0) op.item["g"] = S("g" + std::to_string(uniform(4)));
    if (uniform(5) != 0) op.item["gs"] = N(uniform(20));
    if (uniform(2) != 0) op.item["h"] = S("h" + std::to_string(uniform(3)));
    size_t pad = uniform(50) == 0 ? 20000 + uniform(60000) : uniform(3000);
    op.item["pad"] = S(std::string(pad, static_cast<char>('a' + seq % 26)));
  }
  return op;
}

// The expected state: the items and whether "byH" exists.
struct State {
  std::map<std::string, Item> items;  // by ItemToJsonText of the key
  bool by_h = false;
};

std::string KeyText(const Item& item) {
  return ItemToJsonText({{"pk", item.at("pk")}, {"sk", item.at("sk")}});
}

void Apply(const Op& op, State* s) {
  switch (op.kind) {
    case Op::kPut:
      s->items[KeyText(op.item)] = op.item;
      break;
    case Op::kDelete:
      s->items.erase(KeyText(op.item));
      break;
    case Op::kAddIndex:
      s->by_h = true;
      break;
    case Op::kDropIndex:
      s->by_h = false;
      break;
  }
}

Status CreateCrashTable(Database* db) {
  CreateTableRequest c;
  c.table_name = kTable;
  c.attribute_definitions = {{"pk", "S"}, {"sk", "N"}, {"g", "S"}, {"gs", "N"}};
  c.key_schema = {{"pk", "HASH"}, {"sk", "RANGE"}};
  c.global_secondary_indexes = {
      {"byG", {{"g", "HASH"}, {"gs", "RANGE"}}, "INCLUDE", std::vector<std::string>{"v"}}};
  return db->CreateTable(c).status();
}

Result<bool> HasIndex(Database* db, const std::string& name) {
  DescribeTableRequest d;
  d.table_name = kTable;
  auto r = db->DescribeTable(d);
  if (!r.ok()) return r.status();
  for (const IndexDescription& idx : r->table.indexes) {
    if (idx.name == name) return true;
  }
  return false;
}

// Performs `op` on the database. Idempotent, so that redoing a write whose commit the parent
// could not see acknowledged leaves the same state.
Status Perform(Database* db, const Op& op) {
  switch (op.kind) {
    case Op::kPut: {
      PutItemRequest r;
      r.table_name = kTable;
      r.item = op.item;
      return db->PutItem(r).status();
    }
    case Op::kDelete: {
      DeleteItemRequest r;
      r.table_name = kTable;
      r.key = op.item;
      return db->DeleteItem(r).status();
    }
    case Op::kAddIndex:
    case Op::kDropIndex: {
      auto has = HasIndex(db, "byH");
      if (!has.ok()) return has.status();
      bool add = op.kind == Op::kAddIndex;
      if (*has == add) return Status::OK();
      UpdateTableRequest u;
      u.table_name = kTable;
      if (add) {
        u.attribute_definitions = {{"h", "S"}};
        u.create_global_index = IndexSpec{"byH", {{"h", "HASH"}}, "KEYS_ONLY", std::nullopt};
      } else {
        u.delete_global_index = "byH";
      }
      return db->UpdateTable(u).status();
    }
  }
  return Status::OK();
}

Database::Options Opts(bool sync) {
  Database::Options o;
  o.initial_map_size = kInitialMap;
  o.sync = sync;
  return o;
}

// The child: opens the file, performs writes from `first` on, and writes the sequence number
// of each completed write to `ack_fd`. Runs until killed.
int WriterChild(const std::string& path, uint64_t seed, int64_t first, bool sync, int ack_fd) {
  auto db = Database::Open(path, Opts(sync));
  if (!db.ok()) {
    fprintf(stderr, "crash child: open: %s\n", db.status().ToString().c_str());
    return 2;
  }
  for (int64_t seq = first;; ++seq) {
    Status s = Perform(db->get(), MakeOp(seed, seq));
    if (!s.ok()) {
      fprintf(stderr, "crash child: write #%lld: %s\n", static_cast<long long>(seq),
              s.ToString().c_str());
      return 3;
    }
    if (!WriteAll(ack_fd, &seq, sizeof seq)) return 4;
  }
}

// Reads the whole table and its indexes; compares with `s`. Returns "" when they agree, else
// the first difference.
std::string Compare(Database* db, const State& s) {
  std::map<std::string, Item> got;
  ScanRequest r;
  r.table_name = kTable;
  for (;;) {
    auto page = db->Scan(r);
    if (!page.ok()) return "scan: " + page.status().ToString();
    for (const Item& item : page->items) got[KeyText(item)] = item;
    if (!page->last_evaluated_key) break;
    r.exclusive_start_key = page->last_evaluated_key;
  }
  for (const auto& [k, item] : s.items) {
    auto it = got.find(k);
    if (it == got.end()) return "missing " + k;
    if (it->second != item)
      return "item " + k + " holds v=" + ItemToJsonText({{"v", it->second.at("v")}});
  }
  for (const auto& [k, item] : got) {
    if (!s.items.count(k)) return "unexpected " + k;
  }
  DescribeTableRequest d;
  d.table_name = kTable;
  auto desc = db->DescribeTable(d);
  if (!desc.ok()) return "describe: " + desc.status().ToString();
  if (desc->table.item_count != static_cast<int64_t>(s.items.size())) return "ItemCount differs";
  int64_t in_g = 0, in_h = 0;
  for (const auto& [k, item] : s.items) {
    in_g += item.count("g") && item.count("gs");
    in_h += item.count("h") > 0;
  }
  bool saw_h = false;
  for (const IndexDescription& idx : desc->table.indexes) {
    if (idx.name == "byG" && idx.item_count != in_g) return "byG ItemCount differs";
    if (idx.name == "byH") {
      saw_h = true;
      if (idx.item_count != in_h) return "byH ItemCount differs";
    }
  }
  if (saw_h != s.by_h) return saw_h ? "byH exists" : "byH is missing";
  return "";
}

class StorageCrashTest : public ::testing::TestWithParam<uint64_t> {};

TEST_P(StorageCrashTest, AcknowledgedWritesSurviveSigkill) {
  const uint64_t seed = GetParam();
  SCOPED_TRACE("seed " + std::to_string(seed));
  TempDir dir("crash");
  ASSERT_TRUE(dir.ok());
  const std::string path = dir.path() + "/crash.kh";
  {
    auto db = Database::Open(path, Opts(false));
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    Status s = CreateCrashTable(db->get());
    ASSERT_TRUE(s.ok()) << s.ToString();
  }  // closed before the first fork

  // With an even seed, a "holder" process keeps the file open through all rounds. Then LMDB's
  // lock file is never reset between rounds: a writer killed inside a commit leaves the write
  // lock to be recovered by the next writer (a robust mutex), and its reader slots stay behind.
  // At the end the holder, which saw all of it, must still read and write.
  const bool with_holder = seed % 2 == 0;
  Pipe holder_ready, holder_release;
  ASSERT_TRUE(holder_ready.ok() && holder_release.ok());
  pid_t holder = -1;
  if (with_holder) {
    holder = ForkChild([&] {
      holder_ready.CloseRead();
      holder_release.CloseWrite();
      auto db = Database::Open(path, Opts(false));
      if (!db.ok()) return 2;
      char one = 1;
      WriteAll(holder_ready.write_fd(), &one, 1);
      std::string ignored;
      forktest::ReadToEnd(holder_release.read_fd(), &ignored);
      PutItemRequest p;
      p.table_name = kTable;
      p.item = {{"pk", S("holder")}, {"sk", N(0)}, {"g", S("g0")}, {"gs", N(0)}};
      Status s = (*db)->PutItem(p).status();
      if (s.ok()) s = (*db)->VerifyIntegrity();
      if (!s.ok()) fprintf(stderr, "holder: %s\n", s.ToString().c_str());
      return s.ok() ? 0 : 1;
    });
    ASSERT_GT(holder, 0);
    holder_ready.CloseWrite();
    std::string buf;
    while (buf.empty() && ReadSome(holder_ready.read_fd(), 5000, &buf)) {
    }
    ASSERT_FALSE(buf.empty()) << "the holder did not start";
  }
  holder_release.CloseRead();

  std::mt19937_64 timing(seed * 7919);
  State state;        // after every write before `next`
  int64_t next = 0;   // the first write not known to be durable
  int64_t acked = 0;  // total acknowledgements, for the summary
  int64_t in_flight_committed = 0;
  for (int round = 0; round < 20; ++round) {
    SCOPED_TRACE("round " + std::to_string(round) + ", first write #" + std::to_string(next));
    const bool sync = round % 4 == 0;
    Pipe acks;
    ASSERT_TRUE(acks.ok());
    pid_t pid = ForkChild([&] {
      acks.CloseRead();
      return WriterChild(path, seed, next, sync, acks.write_fd());
    });
    ASSERT_GT(pid, 0);
    acks.CloseWrite();

    // Collect acknowledgements for a random 3..100 ms, then kill.
    const auto deadline = std::chrono::steady_clock::now() +
                          std::chrono::milliseconds(3 + static_cast<int>(timing() % 98));
    std::string buf;
    bool open = true;
    while (open) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                      deadline - std::chrono::steady_clock::now())
                      .count();
      if (left <= 0) break;
      open = ReadSome(acks.read_fd(), static_cast<int>(left), &buf);
    }
    ::kill(pid, SIGKILL);
    int status = WaitChild(pid);
    while (ReadSome(acks.read_fd(), -1, &buf)) {
    }
    ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
        << "the writer died on its own: " << DescribeStatus(status);

    // The acknowledgements must be next, next+1, ... in order.
    ASSERT_EQ(buf.size() % sizeof(int64_t), 0u);
    size_t n = buf.size() / sizeof(int64_t);
    for (size_t i = 0; i < n; ++i) {
      int64_t seq;
      memcpy(&seq, buf.data() + i * sizeof seq, sizeof seq);
      ASSERT_EQ(seq, next + static_cast<int64_t>(i));
      Apply(MakeOp(seed, seq), &state);
    }
    next += static_cast<int64_t>(n);
    acked += static_cast<int64_t>(n);

    // Every acknowledged write is there; the write in flight may or may not be.
    auto db = Database::Open(path, Opts(true));
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    Status v = (*db)->VerifyIntegrity();
    ASSERT_TRUE(v.ok()) << v.ToString();
    std::string diff = Compare(db->get(), state);
    if (!diff.empty()) {
      State with_next = state;
      Apply(MakeOp(seed, next), &with_next);
      std::string diff_next = Compare(db->get(), with_next);
      ASSERT_EQ(diff_next, "") << "after " << n << " acknowledged writes the file matches "
                               << "neither write #" << next - 1 << " (" << diff << ") nor #"
                               << next;
      ++in_flight_committed;
      // The next child redoes write `next`; writes are idempotent, so the model stays as is.
    }
  }
  if (with_holder) {
    holder_release.CloseWrite();
    int status = WaitChild(holder);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
        << "the holder failed after the crashes: " << DescribeStatus(status);
    auto db = Database::Open(path, Opts(false));
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    GetItemRequest g;
    g.table_name = kTable;
    g.key = {{"pk", S("holder")}, {"sk", N(0)}};
    auto got = (*db)->GetItem(g);
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    EXPECT_TRUE(got->item.has_value()) << "the holder's write is missing";
  }
  EXPECT_GT(acked, 100) << "the writers hardly wrote anything: the test proved little";
  RecordProperty("acknowledged_writes", std::to_string(acked));
  RecordProperty("unacknowledged_commits", std::to_string(in_flight_committed));
}

INSTANTIATE_TEST_SUITE_P(Seeds, StorageCrashTest, ::testing::Values(1, 2));

// ---- processes killed inside a read transaction ----

// Every read takes an LMDB reader slot (254 per file) and gives it back when it ends. A process
// killed inside a read transaction cannot give its slot back; while any other process keeps
// the file open, the lock file is not reset, so the slot stays taken (and pins the pages of its
// snapshot) unless someone clears slots of dead processes (mdb_reader_check). Here 320 reader
// processes are killed mid-read while a long-lived process holds the file open; afterwards a
// new process, and the long-lived one, must still be able to read.
int ReadForever(const std::string& path, int started_fd) {
  auto db = Database::Open(path, Opts(false));
  if (!db.ok()) {
    fprintf(stderr, "reader: open: %s\n", db.status().ToString().c_str());
    return 2;
  }
  bool told = false;
  for (;;) {
    ScanRequest r;
    r.table_name = kTable;
    r.select = Select::kCount;  // nothing to free after the transaction: almost always inside
    auto page = (*db)->Scan(r);
    if (!page.ok()) {
      fprintf(stderr, "reader: %s\n", page.status().ToString().c_str());
      return 3;
    }
    if (!told) {
      char one = 1;
      told = WriteAll(started_fd, &one, 1);
    }
  }
}

// Opens the file (or uses `db`) and reads one item; "" when that works, else the error.
std::string ReadOnce(Database* db) {
  GetItemRequest g;
  g.table_name = kTable;
  g.key = {{"pk", S("k1")}, {"sk", N(1)}};
  auto r = db->GetItem(g);
  if (!r.ok()) return r.status().ToString();
  if (!r->item) return "the item is missing";
  return "";
}

TEST(StorageCrashKilledReaderTest, KilledReadersDoNotExhaustReaderSlots) {
  TempDir dir("killed-readers");
  ASSERT_TRUE(dir.ok());
  const std::string path = dir.path() + "/readers.kh";
  {
    auto db = Database::Open(path, Opts(false));
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    ASSERT_TRUE(CreateCrashTable(db->get()).ok());
    // Enough that a reader spends nearly all its time inside a read transaction.
    for (int i = 0; i < 1000; ++i) {
      PutItemRequest p;
      p.table_name = kTable;
      p.item = {
          {"pk", S("k" + std::to_string(i))}, {"sk", N(1)}, {"pad", S(std::string(400, 'p'))}};
      ASSERT_TRUE(db.value()->PutItem(p).ok());
    }
  }
  // The holder keeps the file open until `release` is closed, then reads once more.
  Pipe ready, release;
  ASSERT_TRUE(ready.ok() && release.ok());
  pid_t holder = ForkChild([&] {
    ready.CloseRead();
    release.CloseWrite();
    auto db = Database::Open(path, Opts(false));
    if (!db.ok()) return 2;
    std::string err = ReadOnce(db->get());
    char one = 1;
    WriteAll(ready.write_fd(), &one, 1);
    std::string ignored;
    forktest::ReadToEnd(release.read_fd(), &ignored);
    err = ReadOnce(db->get());
    if (!err.empty()) fprintf(stderr, "holder: %s\n", err.c_str());
    return err.empty() ? 0 : 1;
  });
  ASSERT_GT(holder, 0);
  ready.CloseWrite();
  release.CloseRead();
  std::string buf;
  while (buf.empty() && ReadSome(ready.read_fd(), 5000, &buf)) {
  }
  ASSERT_FALSE(buf.empty()) << "the holder did not start";

  std::mt19937_64 rng(99);
  int killed = 0;
  std::string failure;  // the first reader that could not read
  for (int k = 0; k < 320 && failure.empty(); ++k) {
    Pipe started;
    ASSERT_TRUE(started.ok());
    pid_t reader = ForkChild([&] {
      started.CloseRead();
      return ReadForever(path, started.write_fd());
    });
    ASSERT_GT(reader, 0);
    started.CloseWrite();
    std::string got;
    bool alive = true;
    while (got.empty() && alive) alive = ReadSome(started.read_fd(), 5000, &got);
    ::usleep(static_cast<useconds_t>(rng() % 300));
    ::kill(reader, SIGKILL);
    int status = WaitChild(reader);
    if (got.empty()) {
      failure = "reader process #" + std::to_string(k) + " could not read (" +
                DescribeStatus(status) + "; its error is on stderr)";
    }
    killed += WIFSIGNALED(status);
  }
  EXPECT_EQ(failure, "") << "after " << killed << " readers were killed";

  // A new process must be able to read.
  pid_t checker = ForkChild([&] {
    auto db = Database::Open(path, Opts(false));
    if (!db.ok()) {
      fprintf(stderr, "checker: open: %s\n", db.status().ToString().c_str());
      return 2;
    }
    std::string err = ReadOnce(db->get());
    if (!err.empty()) fprintf(stderr, "checker: %s\n", err.c_str());
    return err.empty() ? 0 : 1;
  });
  ASSERT_GT(checker, 0);
  int checker_status = WaitChild(checker);
  release.CloseWrite();
  int holder_status = WaitChild(holder);
  EXPECT_TRUE(WIFEXITED(checker_status) && WEXITSTATUS(checker_status) == 0)
      << "a new process cannot read after " << killed
      << " readers were killed: " << DescribeStatus(checker_status);
  EXPECT_TRUE(WIFEXITED(holder_status) && WEXITSTATUS(holder_status) == 0)
      << "the long-lived process cannot read after " << killed
      << " readers were killed: " << DescribeStatus(holder_status);
}

}  // namespace
}  // namespace keyhole::storage
