// Stream overhead: PutItem of a new item into a table whose stream is enabled
// (NEW_AND_OLD_IMAGES, the view that stores the most) beside the same PutItem into the same kind
// of table without a stream. Both sides are keyhole, in the same process, on the same kind of
// file with the same setup (bench_util.h's fairness rules), writing the same items in the same
// order; every commit is synced on both sides. The summary pairs BM_PutItemStream_Keyhole with
// BM_PutItemStream_NoStream, so its ratio (no-stream items/s over stream items/s) is how many
// times slower a stream makes a PutItem: the record encoding, the sequence counter and the
// bounded trim, all in the item's own write transaction.
#include <fmt/format.h>

#include <string>

#include "bench/bench_util.h"

namespace keyhole::bench {
namespace {

constexpr char kTable[] = "bench_stream";

// The item PutItem number `i` writes: about 200 bytes.
void FillItem(uint64_t i, Item* item) {
  (*item)["pk"] = S(fmt::format("user-{:08}", i));
  (*item)["sk"] = N(static_cast<int64_t>(i % 100));
  (*item)["g1"] = S(fmt::format("g1-{:08}", i));
  if (!item->count("payload")) (*item)["payload"] = S(Payload(7, 160));
}

// One database per side, made once per process; each iteration writes a new item.
struct Side {
  TempDir dir;
  std::unique_ptr<storage::Database> db = OpenKeyhole(dir.File("keyhole.kh"));
  uint64_t next = 0;
  explicit Side(bool stream) {
    CreateTable(*db, kTable, /*with_sort=*/true, /*with_gsis=*/false);
    if (stream) {
      UpdateTableRequest u;
      u.table_name = kTable;
      u.stream_specification = StreamSpecification{true, "NEW_AND_OLD_IMAGES"};
      Check(db->UpdateTable(u).status(), "enable the stream");
    }
  }
};

Side& WithStream() {
  static Side side(true);
  return side;
}
Side& WithoutStream() {
  static Side side(false);
  return side;
}

void RunPuts(benchmark::State& state, Side& side) {
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

void BM_PutItemStream_Keyhole(benchmark::State& state) { RunPuts(state, WithStream()); }
void BM_PutItemStream_NoStream(benchmark::State& state) { RunPuts(state, WithoutStream()); }

}  // namespace

BENCHMARK(BM_PutItemStream_Keyhole)->UseRealTime();
BENCHMARK(BM_PutItemStream_NoStream)->UseRealTime();

}  // namespace keyhole::bench
