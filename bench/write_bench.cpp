// Writes: PutItem of a new item into a table with two GSIs, beside raw LMDB doing the same
// transaction by hand (get the old value, put the base entry and two index entries, commit).
// Every commit is synced on both sides, so these figures are dominated by the disk's flush
// latency; the ratio shows what keyhole adds on top of it.
#include <fmt/format.h>

#include <string>

#include "bench/bench_util.h"
#include "core/item_codec.h"
#include "storage/key_codec.h"

namespace keyhole::bench {
namespace {

constexpr char kTable[] = "bench_put";

// The item PutItem number `i` writes: about 200 bytes, in both GSIs.
void FillItem(uint64_t i, Item* item) {
  (*item)["pk"] = S(fmt::format("user-{:08}", i));
  (*item)["sk"] = N(static_cast<int64_t>(i % 100));
  (*item)["g1"] = S(fmt::format("g1-{:08}", i));
  (*item)["g1s"] = N(static_cast<int64_t>(i));
  (*item)["g2"] = S(fmt::format("g2-{:08}", i));
  if (!item->count("payload")) (*item)["payload"] = S(Payload(7, 140));
}

// Both sides' files are made once per process; each iteration writes a new item, so the
// tables only grow (by about as many items on each side as the side ran iterations).
struct KeyholeSide {
  TempDir dir;
  std::unique_ptr<storage::Database> db = OpenKeyhole(dir.File("keyhole.kh"));
  TableDescription desc = CreateTable(*db, kTable, /*with_sort=*/true, /*with_gsis=*/true);
  uint64_t next = 0;
  static KeyholeSide& Get() {
    static KeyholeSide side;  // destroyed at exit, which removes its files
    return side;
  }
};

struct RawSide {
  TempDir dir;
  RawEnv raw{dir.File("raw.mdb")};
  MDB_dbi base = raw.CreateDbi("t1");
  MDB_dbi index1 = raw.CreateDbi("t1/by_g1");
  MDB_dbi index2 = raw.CreateDbi("t1/by_g2");
  // Keys and value shaped exactly like keyhole's for the same item (sizes equal within the
  // few bytes the counter's digits change).
  std::string base_key, index1_key, index2_key, value;
  size_t item_bytes = 0;
  uint64_t next = 0;

  RawSide() {
    TableDescription desc = KeyholeSide::Get().desc;
    Item sample;
    FillItem(12345678, &sample);
    item_bytes = ItemSize(sample);
    base_key = storage::EncodeTableKey(desc.key, sample);
    index1_key = storage::EncodeIndexKey(desc.indexes[0].key, desc.key, sample);
    index2_key = storage::EncodeIndexKey(desc.indexes[1].key, desc.key, sample);
    value = EncodeItem(sample, item_bytes);
  }
  static RawSide& Get() {
    static RawSide side;
    return side;
  }
};

void BM_PutItem2Gsi_Keyhole(benchmark::State& state) {
  KeyholeSide& side = KeyholeSide::Get();
  PutItemRequest req;
  req.table_name = kTable;
  for (auto _ : state) {
    FillItem(side.next++, &req.item);
    auto r = side.db->PutItem(req);
    if (!r.ok()) {
      state.SkipWithError(r.status().ToString().c_str());
      break;
    }
  }
  ReportRates(state, state.iterations());
  state.SetLabel(fmt::format("{}B items", ItemSize(req.item)));
}

void BM_PutItem2Gsi_Lmdb(benchmark::State& state) {
  RawSide& side = RawSide::Get();
  MDB_val value = Val(side.value);
  for (auto _ : state) {
    uint64_t i = side.next++;
    SetHashPrefix(Mix64(3 * i), &side.base_key);
    SetHashPrefix(Mix64(3 * i + 1), &side.index1_key);
    SetHashPrefix(Mix64(3 * i + 2), &side.index2_key);
    MDB_txn* txn;
    CheckRc(mdb_txn_begin(side.raw.get(), nullptr, 0, &txn), "mdb_txn_begin");
    MDB_val k = Val(side.base_key), old;
    int rc = mdb_get(txn, side.base, &k, &old);  // the old item, as PutItem reads it
    if (rc != MDB_NOTFOUND) CheckRc(rc == 0 ? MDB_KEYEXIST : rc, "mdb_get");
    CheckRc(mdb_put(txn, side.base, &k, &value, 0), "mdb_put");
    MDB_val k1 = Val(side.index1_key), k2 = Val(side.index2_key);
    CheckRc(mdb_put(txn, side.index1, &k1, &value, 0), "mdb_put");
    CheckRc(mdb_put(txn, side.index2, &k2, &value, 0), "mdb_put");
    CheckRc(mdb_txn_commit(txn), "mdb_txn_commit");
  }
  ReportRates(state, state.iterations());
  state.SetLabel(fmt::format("{}B items", side.item_bytes));
}

}  // namespace

BENCHMARK(BM_PutItem2Gsi_Keyhole)->UseRealTime();
BENCHMARK(BM_PutItem2Gsi_Lmdb)->UseRealTime();

}  // namespace keyhole::bench
