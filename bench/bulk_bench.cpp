// Bulk load: N small items into an empty table, one PutItem (one synced transaction) each,
// beside raw LMDB doing N puts each in its own synced transaction, and N puts in one
// transaction (what the per-transaction cost is). Each run starts from a fresh file.
//
// Long: with fully synced commits the per-transaction variants cost about one disk flush per
// item (on the order of 10 minutes for 1M items on a virtual disk), so these are registered
// with Iterations(1) under names containing "BulkLoad": `--benchmark_filter=-BulkLoad` leaves
// them out, `--benchmark_filter='BulkLoad.*/100000/'` runs the short size.
#include <fmt/format.h>

#include <string>

#include "bench/bench_util.h"
#include "core/item_codec.h"
#include "storage/key_codec.h"

namespace keyhole::bench {
namespace {

constexpr char kTable[] = "bench_bulk";

// Item `i`: {pk: "item-<10 digits>", v: <24 bytes>}, 42 bytes.
void FillItem(uint64_t i, Item* item) {
  (*item)["pk"] = S(fmt::format("item-{:010}", i));
  if (!item->count("v")) (*item)["v"] = S(Payload(11, 24));
}

void Progress(const char* side, int64_t i, int64_t n) {
  if (n >= 1000000 && i > 0 && i % (n / 10) == 0) {
    fmt::print(stderr, "keyhole_bench: {} bulk load: {}/{}\n", side, i, n);
  }
}

// Raw keys and value shaped like keyhole's (hash8 || value(pk)) for item `i`.
struct RawItems {
  std::string key, value;
  size_t item_bytes = 0;
  RawItems() {
    TempDir dir;
    auto db = OpenKeyhole(dir.File("schema.kh"));
    TableDescription desc = CreateTable(*db, kTable, /*with_sort=*/false, /*with_gsis=*/false);
    Item sample;
    FillItem(1234567890, &sample);
    item_bytes = ItemSize(sample);
    key = storage::EncodeTableKey(desc.key, sample);
    value = EncodeItem(sample, item_bytes);
  }
};

void BM_BulkLoad_Keyhole(benchmark::State& state) {
  const int64_t n = state.range(0);
  TempDir dir;
  auto db = OpenKeyhole(dir.File("keyhole.kh"));
  CreateTable(*db, kTable, /*with_sort=*/false, /*with_gsis=*/false);
  PutItemRequest req;
  req.table_name = kTable;
  FillItem(0, &req.item);
  for (auto _ : state) {
    for (int64_t i = 0; i < n; ++i) {
      Progress("keyhole", i, n);
      FillItem(i, &req.item);
      auto r = db->PutItem(req);
      if (!r.ok()) {
        state.SkipWithError(r.status().ToString().c_str());
        break;
      }
    }
  }
  ReportRates(state, n * state.iterations());
  state.SetLabel(fmt::format("{}B items", ItemSize(req.item)));
}

void BM_BulkLoad_LmdbTxnPerPut(benchmark::State& state) {
  const int64_t n = state.range(0);
  RawItems items;
  TempDir dir;
  RawEnv raw(dir.File("raw.mdb"));
  MDB_dbi dbi = raw.CreateDbi("t1");
  MDB_val v = Val(items.value);
  for (auto _ : state) {
    for (int64_t i = 0; i < n; ++i) {
      Progress("lmdb txn-per-put", i, n);
      SetHashPrefix(Mix64(i), &items.key);
      MDB_txn* txn;
      CheckRc(mdb_txn_begin(raw.get(), nullptr, 0, &txn), "mdb_txn_begin");
      MDB_val k = Val(items.key);
      CheckRc(mdb_put(txn, dbi, &k, &v, 0), "mdb_put");
      CheckRc(mdb_txn_commit(txn), "mdb_txn_commit");
    }
  }
  ReportRates(state, n * state.iterations());
  state.SetLabel(fmt::format("{}B items", items.item_bytes));
}

void BM_BulkLoad_LmdbOneTxn(benchmark::State& state) {
  const int64_t n = state.range(0);
  RawItems items;
  TempDir dir;
  RawEnv raw(dir.File("raw.mdb"));
  MDB_dbi dbi = raw.CreateDbi("t1");
  MDB_val v = Val(items.value);
  for (auto _ : state) {
    MDB_txn* txn;
    CheckRc(mdb_txn_begin(raw.get(), nullptr, 0, &txn), "mdb_txn_begin");
    for (int64_t i = 0; i < n; ++i) {
      SetHashPrefix(Mix64(i), &items.key);
      MDB_val k = Val(items.key);
      CheckRc(mdb_put(txn, dbi, &k, &v, 0), "mdb_put");
    }
    CheckRc(mdb_txn_commit(txn), "mdb_txn_commit");
  }
  ReportRates(state, n * state.iterations());
  state.SetLabel(fmt::format("{}B items", items.item_bytes));
}

}  // namespace

BENCHMARK(BM_BulkLoad_Keyhole)
    ->Arg(100000)
    ->Arg(1000000)
    ->Iterations(1)
    ->UseRealTime()
    ->Unit(benchmark::kSecond);
BENCHMARK(BM_BulkLoad_LmdbTxnPerPut)
    ->Arg(100000)
    ->Arg(1000000)
    ->Iterations(1)
    ->UseRealTime()
    ->Unit(benchmark::kSecond);
BENCHMARK(BM_BulkLoad_LmdbOneTxn)
    ->Arg(100000)
    ->Arg(1000000)
    ->Iterations(1)
    ->UseRealTime()
    ->Unit(benchmark::kSecond);

}  // namespace keyhole::bench
