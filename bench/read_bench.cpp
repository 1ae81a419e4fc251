// Reads: GetItem, Query (one 50-item partition) and Scan (the whole table), each beside raw
// LMDB doing the equivalent work on a byte-identical copy of the table.
#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "bench/bench_util.h"
#include "core/item_codec.h"
#include "storage/key_codec.h"

namespace keyhole::bench {
namespace {

constexpr char kTable[] = "bench_read";
constexpr int kItemsPerPartition = 50;
constexpr int kDefaultPartitions = 2000;  // 2000 x 50 = 100k items

// The read data set, built once per process on first use: table bench_read (pk S, sk N) of
// `partitions` x 50 items of about 200 bytes, in keyhole and, byte for byte, in a raw LMDB
// sub-database. Loading keyhole takes one synced commit per item (about a minute for 100k).
// KEYHOLE_BENCH_READ_PARTITIONS overrides the partition count (e.g. for a profiling run).
struct ReadDataset {
  TempDir dir;
  std::unique_ptr<storage::Database> db;
  RawEnv raw{dir.File("raw.mdb")};
  MDB_dbi raw_dbi = 0;
  int partitions = kDefaultPartitions;
  std::vector<AttributeValue> pk_values;  // per partition
  std::vector<AttributeValue> sk_values;  // 0..49
  std::vector<std::string> raw_keys;      // per item, index p * 50 + s
  std::vector<std::string> raw_prefixes;  // per partition: hash8 || value(pk)
  size_t item_bytes = 0;                  // DynamoDB size of item 0

  size_t items() const { return raw_keys.size(); }

  static Item MakeItem(int p, int s) {
    Item item;
    item["pk"] = S(fmt::format("part-{:05}", p));
    item["sk"] = N(s);
    item["payload"] = S(Payload(uint64_t(p) * kItemsPerPartition + s, 160));
    item["count"] = N(int64_t{p} * 1000 + s);
    item["active"] = AttributeValue::Bool(true);
    return item;
  }

  ReadDataset() {
    if (const char* env = std::getenv("KEYHOLE_BENCH_READ_PARTITIONS")) partitions = std::atoi(env);
    if (partitions < 1) partitions = 1;
    db = OpenKeyhole(dir.File("keyhole.kh"));
    TableDescription desc = CreateTable(*db, kTable, /*with_sort=*/true, /*with_gsis=*/false);
    raw_dbi = raw.CreateDbi(fmt::format("t{}", desc.id).c_str());
    for (int s = 0; s < kItemsPerPartition; ++s) sk_values.push_back(N(s));
    fmt::print(stderr, "keyhole_bench: loading the read data set ({} items, one PutItem each)...\n",
               partitions * kItemsPerPartition);
    MDB_txn* txn;
    CheckRc(mdb_txn_begin(raw.get(), nullptr, 0, &txn), "mdb_txn_begin");
    PutItemRequest put;
    put.table_name = kTable;
    for (int p = 0; p < partitions; ++p) {
      for (int s = 0; s < kItemsPerPartition; ++s) {
        put.item = MakeItem(p, s);
        Check(db->PutItem(put).status(), "PutItem");
        std::string key = storage::EncodeTableKey(desc.key, put.item);
        size_t size = ItemSize(put.item);
        if (item_bytes == 0) item_bytes = size;
        std::string value = EncodeItem(put.item, size);
        MDB_val k = Val(key), v = Val(value);
        CheckRc(mdb_put(txn, raw_dbi, &k, &v, 0), "mdb_put");
        raw_keys.push_back(std::move(key));
      }
      pk_values.push_back(put.item.at("pk"));
      raw_prefixes.push_back(
          storage::PartitionPrefix(pk_values.back(), storage::kTablePartitionBound));
    }
    CheckRc(mdb_txn_commit(txn), "mdb_txn_commit");
  }

  static ReadDataset& Get() {
    static ReadDataset ds;  // destroyed at exit, which removes its files
    return ds;
  }
};

// Deterministic pseudo-random item/partition choice, the same sequence for both sides.
class Picker {
 public:
  explicit Picker(size_t n) : n_(n) {}
  size_t Next() { return Mix64(seq_++) % n_; }

 private:
  size_t n_;
  uint64_t seq_ = 0;
};

// ---- GetItem of an existing item ----

void BM_GetItem_Keyhole(benchmark::State& state) {
  ReadDataset& ds = ReadDataset::Get();
  GetItemRequest req;
  req.table_name = kTable;
  Picker pick(ds.items());
  for (auto _ : state) {
    size_t i = pick.Next();
    req.key["pk"] = ds.pk_values[i / kItemsPerPartition];
    req.key["sk"] = ds.sk_values[i % kItemsPerPartition];
    auto r = ds.db->GetItem(req);
    if (!r.ok() || !r->item) {
      state.SkipWithError(r.ok() ? "item not found" : r.status().ToString().c_str());
      break;
    }
    benchmark::DoNotOptimize(r->item->size());
  }
  ReportRates(state, state.iterations());
  state.SetLabel(fmt::format("{}B items", ds.item_bytes));
}

// One read transaction and one mdb_get per item (keyhole: GetItem's snapshot).
void BM_GetItem_Lmdb(benchmark::State& state) {
  ReadDataset& ds = ReadDataset::Get();
  Picker pick(ds.items());
  size_t sum = 0;
  for (auto _ : state) {
    MDB_txn* txn;
    CheckRc(mdb_txn_begin(ds.raw.get(), nullptr, MDB_RDONLY, &txn), "mdb_txn_begin");
    MDB_val k = Val(ds.raw_keys[pick.Next()]), v;
    int rc = mdb_get(txn, ds.raw_dbi, &k, &v);
    if (rc != 0) {
      mdb_txn_abort(txn);
      state.SkipWithError(mdb_strerror(rc));
      break;
    }
    sum += v.mv_size + static_cast<const unsigned char*>(v.mv_data)[0];
    mdb_txn_abort(txn);
  }
  benchmark::DoNotOptimize(sum);
  ReportRates(state, state.iterations());
  state.SetLabel(fmt::format("{}B items", ds.item_bytes));
}

// ---- Query: all 50 items of one partition ----

// `read`: each returned item is also read (decoded, core/item_list.h), as a caller that looks at
// every attribute must; without it the items stay in the page as Query copied them.
void Query50Keyhole(benchmark::State& state, bool read) {
  ReadDataset& ds = ReadDataset::Get();
  QueryRequest req;
  req.table_name = kTable;
  req.key_condition.partition_name = "pk";
  Picker pick(ds.partitions);
  int64_t items = 0;
  for (auto _ : state) {
    req.key_condition.partition_value = ds.pk_values[pick.Next()];
    auto r = ds.db->Query(req);
    if (!r.ok() || r->items.size() != kItemsPerPartition || r->last_evaluated_key) {
      state.SkipWithError(r.ok() ? "wrong page" : r.status().ToString().c_str());
      break;
    }
    items += static_cast<int64_t>(r->items.size());
    if (read) {
      size_t attributes = 0;
      for (const Item& item : std::as_const(r->items)) attributes += item.size();
      benchmark::DoNotOptimize(attributes);
    }
  }
  ReportRates(state, items);
  state.SetLabel(fmt::format("{}B items", ds.item_bytes));
}

void BM_Query50_Keyhole(benchmark::State& state) { Query50Keyhole(state, false); }
void BM_Query50_KeyholeRead(benchmark::State& state) { Query50Keyhole(state, true); }

// One read transaction, a cursor seek to the partition prefix and 50 steps (plus the step
// that finds the partition's end, as keyhole's range check does). `copy`: each value is also
// copied out of the map into a string of its own, as a reader that returns the items must (the
// transaction's pages are not the caller's once it ends); without it, one byte of each value
// is read.
void Query50Lmdb(benchmark::State& state, bool copy) {
  ReadDataset& ds = ReadDataset::Get();
  Picker pick(ds.partitions);
  int64_t items = 0;
  size_t sum = 0;
  std::vector<std::string> values(kItemsPerPartition + 1);
  for (auto _ : state) {
    const std::string& prefix = ds.raw_prefixes[pick.Next()];
    MDB_txn* txn;
    CheckRc(mdb_txn_begin(ds.raw.get(), nullptr, MDB_RDONLY, &txn), "mdb_txn_begin");
    MDB_cursor* cur;
    CheckRc(mdb_cursor_open(txn, ds.raw_dbi, &cur), "mdb_cursor_open");
    MDB_val k = Val(prefix), v;
    int n = 0;
    for (int rc = mdb_cursor_get(cur, &k, &v, MDB_SET_RANGE); rc == 0;
         rc = mdb_cursor_get(cur, &k, &v, MDB_NEXT)) {
      if (k.mv_size < prefix.size() || std::memcmp(k.mv_data, prefix.data(), prefix.size()) != 0) {
        break;
      }
      if (copy) {
        values[n].assign(static_cast<const char*>(v.mv_data), v.mv_size);
        sum += values[n].size();
      } else {
        sum += v.mv_size + static_cast<const unsigned char*>(v.mv_data)[0];
      }
      ++n;
    }
    mdb_cursor_close(cur);
    mdb_txn_abort(txn);
    if (copy) values.assign(kItemsPerPartition + 1, std::string());  // freed, as a response is
    if (n != kItemsPerPartition) {
      state.SkipWithError("wrong partition size");
      break;
    }
    items += n;
  }
  benchmark::DoNotOptimize(sum);
  ReportRates(state, items);
  state.SetLabel(fmt::format("{}B items", ds.item_bytes));
}

void BM_Query50_Lmdb(benchmark::State& state) { Query50Lmdb(state, false); }
void BM_Query50_LmdbCopy(benchmark::State& state) { Query50Lmdb(state, true); }

// ---- Scan: the whole table, paging with LastEvaluatedKey ----

// Every page of the table, with `select`; every item must be counted.
void ScanAll(benchmark::State& state, Select select) {
  ReadDataset& ds = ReadDataset::Get();
  int64_t items = 0, pages = 0;
  for (auto _ : state) {
    ScanRequest req;
    req.table_name = kTable;
    req.select = select;
    int64_t n = 0;
    while (true) {
      auto r = ds.db->Scan(req);
      if (!r.ok()) {
        state.SkipWithError(r.status().ToString().c_str());
        break;
      }
      n += r->count;
      ++pages;
      if (!r->last_evaluated_key) break;
      req.exclusive_start_key = std::move(r->last_evaluated_key);
    }
    if (n != static_cast<int64_t>(ds.items())) {
      state.SkipWithError("scan missed items");
      break;
    }
    items += n;
  }
  ReportRates(state, items);
  state.counters["pages_per_scan"] =
      state.iterations() ? static_cast<double>(pages) / state.iterations() : 0;
  state.SetLabel(fmt::format("{} x {}B items", ds.items(), ds.item_bytes));
}

void BM_Scan_Keyhole(benchmark::State& state) { ScanAll(state, Select::kUnset); }

// One read transaction and one cursor over the whole sub-database.
void BM_Scan_Lmdb(benchmark::State& state) {
  ReadDataset& ds = ReadDataset::Get();
  int64_t items = 0;
  size_t sum = 0;
  for (auto _ : state) {
    MDB_txn* txn;
    CheckRc(mdb_txn_begin(ds.raw.get(), nullptr, MDB_RDONLY, &txn), "mdb_txn_begin");
    MDB_cursor* cur;
    CheckRc(mdb_cursor_open(txn, ds.raw_dbi, &cur), "mdb_cursor_open");
    MDB_val k, v;
    int64_t n = 0;
    for (int rc = mdb_cursor_get(cur, &k, &v, MDB_FIRST); rc == 0;
         rc = mdb_cursor_get(cur, &k, &v, MDB_NEXT)) {
      sum += v.mv_size + static_cast<const unsigned char*>(v.mv_data)[0];
      ++n;
    }
    mdb_cursor_close(cur);
    mdb_txn_abort(txn);
    items += n;
  }
  benchmark::DoNotOptimize(sum);
  ReportRates(state, items);
  state.SetLabel(fmt::format("{} x {}B items", ds.items(), ds.item_bytes));
}

// Scan with Select COUNT, page after page: how many items a COUNT reads per second (issue
// 14's target: 10M/s). Beside it, the raw cursor walk of BM_Scan_Lmdb.
void BM_ScanCount_Keyhole(benchmark::State& state) { ScanAll(state, Select::kCount); }
void BM_ScanCount_Lmdb(benchmark::State& state) { BM_Scan_Lmdb(state); }

}  // namespace

BENCHMARK(BM_GetItem_Keyhole)->UseRealTime();
BENCHMARK(BM_GetItem_Lmdb)->UseRealTime();
BENCHMARK(BM_Query50_Keyhole)->UseRealTime();
BENCHMARK(BM_Query50_KeyholeRead)->UseRealTime();
BENCHMARK(BM_Query50_Lmdb)->UseRealTime();
BENCHMARK(BM_Query50_LmdbCopy)->UseRealTime();
BENCHMARK(BM_Scan_Keyhole)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Scan_Lmdb)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ScanCount_Keyhole)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ScanCount_Lmdb)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace keyhole::bench
