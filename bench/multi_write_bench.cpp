// Many-item writes: a TransactWriteItems of 100 Puts (each with attribute_not_exists, the
// uniqueness-guard shape) and a BatchWriteItem of 25 Puts, each beside raw LMDB doing the
// equivalent work in one write transaction: per item a get (the condition / old item) and a put,
// then one synced commit. Items per second count the items written.
#include <fmt/format.h>

#include <string>
#include <vector>

#include "bench/bench_util.h"
#include "core/item_codec.h"
#include "parser/expression_parser.h"
#include "storage/key_codec.h"

namespace keyhole::bench {
namespace {

constexpr char kTable[] = "bench_multi";

Item MakeItem(uint64_t i) {
  Item item;
  item["pk"] = S(fmt::format("user-{:010}", i));
  item["sk"] = N(static_cast<int64_t>(i % 100));
  item["payload"] = S(Payload(i, 150));
  return item;
}

std::unique_ptr<storage::Database> OpenWithParser(const std::string& path) {
  static const parser::NativeExpressionParser parser;
  storage::Database::Options options;
  options.initial_map_size = kMapSize;
  options.expression_parser = &parser;  // the transaction's ConditionExpressions are text
  auto db = storage::Database::Open(path, options);
  Check(db.status(), "open " + path);
  return std::move(db).value();
}

struct KeyholeSide {
  TempDir dir;
  std::unique_ptr<storage::Database> db = OpenWithParser(dir.File("keyhole.kh"));
  TableDescription desc = CreateTable(*db, kTable, /*with_sort=*/true, /*with_gsis=*/false);
  uint64_t next = 0;
  static KeyholeSide& Get() {
    static KeyholeSide side;
    return side;
  }
};

struct RawSide {
  TempDir dir;
  RawEnv raw{dir.File("raw.mdb")};
  MDB_dbi dbi = raw.CreateDbi("t1");
  std::string key, value;
  uint64_t next = 0;
  RawSide() {
    Item sample = MakeItem(1234567890);
    key = storage::EncodeTableKey(KeyholeSide::Get().desc.key, sample);
    value = EncodeItem(sample, ItemSize(sample));
  }
  static RawSide& Get() {
    static RawSide side;
    return side;
  }
};

// One write transaction of `n` conditional puts of new keys.
void RawPuts(benchmark::State& state, int n) {
  RawSide& side = RawSide::Get();
  MDB_val value = Val(side.value);
  for (auto _ : state) {
    MDB_txn* txn;
    CheckRc(mdb_txn_begin(side.raw.get(), nullptr, 0, &txn), "mdb_txn_begin");
    for (int i = 0; i < n; ++i) {
      SetHashPrefix(Mix64(side.next++), &side.key);
      MDB_val k = Val(side.key), old;
      int rc = mdb_get(txn, side.dbi, &k, &old);  // the condition reads the current item
      if (rc != MDB_NOTFOUND) CheckRc(rc == 0 ? MDB_KEYEXIST : rc, "mdb_get");
      CheckRc(mdb_put(txn, side.dbi, &k, &value, 0), "mdb_put");
    }
    CheckRc(mdb_txn_commit(txn), "mdb_txn_commit");
  }
  ReportRates(state, state.iterations() * n);
}

void BM_Transact100_Keyhole(benchmark::State& state) {
  KeyholeSide& side = KeyholeSide::Get();
  TransactWriteItemsRequest req;
  for (auto _ : state) {
    state.PauseTiming();
    req.transact_items.clear();
    for (int i = 0; i < 100; ++i) {
      TransactWriteItem w;
      w.put.emplace();
      w.put->table_name = kTable;
      w.put->item = MakeItem(side.next++);
      w.put->expressions.condition = "attribute_not_exists(pk)";
      req.transact_items.push_back(std::move(w));
    }
    state.ResumeTiming();
    auto r = side.db->TransactWriteItems(req);
    if (!r.ok()) {
      state.SkipWithError(r.status().ToString().c_str());
      break;
    }
  }
  ReportRates(state, state.iterations() * 100);
}

void BM_Transact100_Lmdb(benchmark::State& state) { RawPuts(state, 100); }

void BM_BatchWrite25_Keyhole(benchmark::State& state) {
  KeyholeSide& side = KeyholeSide::Get();
  BatchWriteItemRequest req;
  for (auto _ : state) {
    state.PauseTiming();
    std::vector<WriteRequest>& list = req.request_items[kTable];
    list.clear();
    for (int i = 0; i < 25; ++i) {
      WriteRequest w;
      w.put_request = PutRequest{MakeItem(side.next++)};
      list.push_back(std::move(w));
    }
    state.ResumeTiming();
    auto r = side.db->BatchWriteItem(req);
    if (!r.ok()) {
      state.SkipWithError(r.status().ToString().c_str());
      break;
    }
  }
  ReportRates(state, state.iterations() * 25);
}

void BM_BatchWrite25_Lmdb(benchmark::State& state) { RawPuts(state, 25); }

}  // namespace

BENCHMARK(BM_Transact100_Keyhole)->UseRealTime();
BENCHMARK(BM_Transact100_Lmdb)->UseRealTime();
BENCHMARK(BM_BatchWrite25_Keyhole)->UseRealTime();
BENCHMARK(BM_BatchWrite25_Lmdb)->UseRealTime();

}  // namespace keyhole::bench
