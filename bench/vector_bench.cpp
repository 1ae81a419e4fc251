// SearchVectors (bench/, issue 33). One keyhole table of 100,000 items, each with a vector of
// 768 dimensions (deterministic values in [-1, 1] with three decimals) and one of 100 tenants
// (1,000 items each), and two COSINE vector indexes on it: "everything" (no search attributes)
// and "byTenant" (HASH tenant). Loaded once per process (about a minute: 77 million numbers).
//
//  - BM_VectorSearch_Keyhole/100000: SearchVectors over "everything", TopK 10, through the
//    public Database API (request checks, the expression parse, a read transaction, every entry
//    scored in place in the file, the ten results decoded and projected).
//    BM_VectorSearch_PackedLoop/100000: the same scores (core's VectorScorer and TopK) over the
//    same floats packed in one array in memory: the floor of an exact search.
//    BM_VectorSearch_MemoryScan/100000: a sum of every one of those floats: what reading them
//    alone takes (the memory-bandwidth floor).
//  - BM_VectorSearchTenant_Keyhole/1000: SearchVectors over "byTenant" with `tenant = :t`
//    (tenants in turn), TopK 10: 1,000 candidates. BM_VectorSearchTenant_PackedLoop/1000: the
//    same over the tenant's 1,000 packed vectors.
//  - BM_VectorPut_Keyhole: PutItem of a new item into that table; BM_VectorPut_NoVectorIndex:
//    the same into a table without vector indexes (what keeping the vectors costs a write).
// items/s counts the vectors each search considers, so the summary's ratio is how many times
// slower keyhole's search is than its floor; the time per iteration is one search.
#include <fmt/format.h>

#include <memory>
#include <string>
#include <vector>

#include "bench/bench_util.h"
#include "core/vector_index.h"
#include "parser/expression_parser.h"

namespace keyhole::bench {
namespace {

constexpr char kTable[] = "bench_vectors";
constexpr char kPlainTable[] = "bench_plain";  // the same items, no vector index
constexpr int kDims = 768;
constexpr int kItems = 100000;
constexpr int kTenants = 100;
constexpr int kTopK = 10;

// Element `j` of vector `i`: three decimals in [-1, 1], so that its text is short and exact.
float Element(uint64_t i, uint64_t j) {
  return static_cast<float>(static_cast<int64_t>(Mix64(i * kDims + j) % 2001) - 1000) / 1000.0f;
}

std::string Tenant(int i) { return fmt::format("t{:03}", i % kTenants); }

struct Data {
  TempDir dir;
  parser::NativeExpressionParser parser;
  std::unique_ptr<storage::Database> db = Open();
  std::vector<float> packed;     // all vectors in item order
  std::vector<float> by_tenant;  // the same, tenant by tenant (1,000 each)

  std::unique_ptr<storage::Database> Open() {
    storage::Database::Options options;
    options.initial_map_size = kMapSize;
    options.expression_parser = &parser;  // SearchConditionExpression
    auto opened = storage::Database::Open(dir.File("keyhole.kh"), options);
    Check(opened.status(), "open the database");
    return std::move(opened).value();
  }

  Data() {
    CreateTableRequest c;
    c.table_name = kTable;
    c.attribute_definitions = {{"pk", "S"}, {"tenant", "S"}};
    c.key_schema = {{"pk", "HASH"}};
    VectorIndexSpec all;
    all.name = "everything";
    all.vector_attribute = "e";
    all.projection_type = "KEYS_ONLY";
    all.dimensions = kDims;
    all.distance_function = "COSINE";
    VectorIndexSpec tenant = all;
    tenant.name = "byTenant";
    tenant.search_schema = {{"tenant", "HASH"}};
    c.vector_indexes = {all, tenant};
    Check(db->CreateTable(c).status(), "create the table");
    CreateTableRequest plain;
    plain.table_name = kPlainTable;
    plain.attribute_definitions = {{"pk", "S"}};
    plain.key_schema = {{"pk", "HASH"}};
    Check(db->CreateTable(plain).status(), "create the plain table");

    int next = 0;
    storage::Database::ImportSource source;
    source.rewind = [&] {
      next = 0;
      return Status::OK();
    };
    source.next = [&](std::vector<Item>* batch) -> Result<bool> {
      if (next == kItems) return false;
      for (int n = 0; n < 1000 && next < kItems; ++n, ++next) {
        std::vector<AttributeValue> e;
        e.reserve(kDims);
        for (int j = 0; j < kDims; ++j) {
          e.push_back(AttributeValue::N(
              *Number::Parse(fmt::format("{:.3f}", Element(static_cast<uint64_t>(next), j)))));
        }
        batch->push_back({{"pk", S(fmt::format("doc-{:06}", next))},
                          {"tenant", S(Tenant(next))},
                          {"e", AttributeValue::L(std::move(e))}});
      }
      return true;
    };
    source.expected_bytes = size_t{kItems} * kDims * 12;
    Check(db->ImportItems(kTable, source).status(), "load the vectors");

    packed.resize(size_t{kItems} * kDims);
    by_tenant.resize(packed.size());
    size_t at = 0;
    for (int t = 0; t < kTenants; ++t) {
      for (int i = t; i < kItems; i += kTenants) {
        for (int j = 0; j < kDims; ++j) {
          const float x = Element(static_cast<uint64_t>(i), static_cast<uint64_t>(j));
          packed[static_cast<size_t>(i) * kDims + static_cast<size_t>(j)] = x;
          by_tenant[at++] = x;
        }
      }
    }
  }
};

Data& Shared() {
  static Data data;
  return data;
}

// The query of search `n`: not one of the stored vectors.
std::vector<float> Query(uint64_t n) {
  std::vector<float> q(kDims);
  for (int j = 0; j < kDims; ++j) q[static_cast<size_t>(j)] = Element(n + 7 * kItems, j);
  return q;
}

SearchVectorsRequest Request(const std::vector<float>& query) {
  SearchVectorsRequest r;
  r.table_name = kTable;
  r.top_k = kTopK;
  for (float x : query) {
    r.search_vector.push_back(AttributeValue::N(*Number::Parse(fmt::format("{}", x))));
  }
  return r;
}

void BM_VectorSearch_Keyhole(benchmark::State& state) {
  Data& d = Shared();
  SearchVectorsRequest r = Request(Query(1));
  r.index_name = "everything";
  for (auto _ : state) {
    auto got = d.db->SearchVectors(r);
    if (!got.ok() || got->results.size() != kTopK) {
      state.SkipWithError(got.ok() ? "short result" : got.status().ToString().c_str());
      break;
    }
    benchmark::DoNotOptimize(got->results);
  }
  ReportRates(state, state.iterations() * kItems);
}

void BM_VectorSearch_PackedLoop(benchmark::State& state) {
  Data& d = Shared();
  const std::vector<float> q = Query(1);
  for (auto _ : state) {
    auto best = ExactTopK(DistanceFunction::kCosine, q, d.packed.data(), kItems, kTopK);
    benchmark::DoNotOptimize(best);
  }
  ReportRates(state, state.iterations() * kItems);
}

// The same floats in a raw LMDB file, 1,000 vectors a value (each value's pages contiguous),
// scored in place: the floor of an exact search over LMDB.
struct RawPacked {
  TempDir dir;
  RawEnv env{dir.File("raw.mdb")};
  MDB_dbi dbi = env.CreateDbi("packed");
  RawPacked() {
    const std::vector<float>& packed = Shared().packed;
    MDB_txn* txn;
    CheckRc(mdb_txn_begin(env.get(), nullptr, 0, &txn), "mdb_txn_begin");
    const size_t per = kItems / kTenants;
    for (int t = 0; t < kTenants; ++t) {
      std::string key = fmt::format("{:04}", t);
      std::string_view value(reinterpret_cast<const char*>(packed.data() + t * per * kDims),
                             per * kDims * sizeof(float));
      MDB_val k = Val(key), v = Val(value);
      CheckRc(mdb_put(txn, dbi, &k, &v, 0), "mdb_put");
    }
    CheckRc(mdb_txn_commit(txn), "mdb_txn_commit");
  }
};

void BM_VectorSearch_LmdbPacked(benchmark::State& state) {
  static RawPacked raw;
  const std::vector<float> q = Query(1);
  const VectorScorer scorer(DistanceFunction::kCosine, q);
  for (auto _ : state) {
    MDB_txn* txn;
    CheckRc(mdb_txn_begin(raw.env.get(), nullptr, MDB_RDONLY, &txn), "mdb_txn_begin");
    MDB_cursor* c;
    CheckRc(mdb_cursor_open(txn, raw.dbi, &c), "mdb_cursor_open");
    TopK best(DistanceFunction::kCosine, kTopK);
    MDB_val k, v;
    size_t position = 0;
    for (int rc = mdb_cursor_get(c, &k, &v, MDB_FIRST); rc == 0;
         rc = mdb_cursor_get(c, &k, &v, MDB_NEXT)) {
      const char* p = static_cast<const char*>(v.mv_data);
      for (size_t o = 0; o < v.mv_size; o += kDims * sizeof(float)) {
        best.Offer(position++, scorer.Score(p + o, SquaredNorm(p + o, kDims)));
      }
    }
    mdb_cursor_close(c);
    mdb_txn_abort(txn);
    benchmark::DoNotOptimize(std::move(best).Take());
  }
  ReportRates(state, state.iterations() * kItems);
}

void BM_VectorSearch_MemoryScan(benchmark::State& state) {
  Data& d = Shared();
  for (auto _ : state) {
    benchmark::DoNotOptimize(SquaredNorm(d.packed.data(), d.packed.size()));
  }
  ReportRates(state, state.iterations() * kItems);
}

void TenantKeyhole(benchmark::State& state, size_t tenants) {
  Data& d = Shared();
  std::vector<SearchVectorsRequest> requests;
  for (int t = 0; t < kTenants; ++t) {
    SearchVectorsRequest r = Request(Query(static_cast<uint64_t>(t)));
    r.index_name = "byTenant";
    r.expressions.search_condition = "tenant = :t";
    r.expressions.values = std::map<std::string, AttributeValue>{{":t", S(Tenant(t))}};
    requests.push_back(std::move(r));
  }
  size_t n = 0;
  for (auto _ : state) {
    auto got = d.db->SearchVectors(requests[n++ % tenants]);
    if (!got.ok() || got->results.size() != kTopK) {
      state.SkipWithError(got.ok() ? "short result" : got.status().ToString().c_str());
      break;
    }
    benchmark::DoNotOptimize(got->results);
  }
  ReportRates(state, state.iterations() * (kItems / kTenants));
}

void TenantPackedLoop(benchmark::State& state, size_t tenants) {
  Data& d = Shared();
  const size_t per = kItems / kTenants;
  std::vector<std::vector<float>> queries;
  for (int t = 0; t < kTenants; ++t) queries.push_back(Query(static_cast<uint64_t>(t)));
  size_t n = 0;
  for (auto _ : state) {
    const size_t t = n++ % tenants;
    auto best = ExactTopK(DistanceFunction::kCosine, queries[t],
                          d.by_tenant.data() + t * per * kDims, per, kTopK);
    benchmark::DoNotOptimize(best);
  }
  ReportRates(state, state.iterations() * static_cast<int64_t>(per));
}

void BM_VectorSearchTenant_Keyhole(benchmark::State& state) { TenantKeyhole(state, kTenants); }
void BM_VectorSearchTenant_PackedLoop(benchmark::State& state) {
  TenantPackedLoop(state, kTenants);
}
// One tenant searched again and again: its 3 MB stay in the cache.
void BM_VectorSearchHotTenant_Keyhole(benchmark::State& state) { TenantKeyhole(state, 1); }
void BM_VectorSearchHotTenant_PackedLoop(benchmark::State& state) { TenantPackedLoop(state, 1); }

// PutItem of a new item with a 768-dimension vector: into the vector table (each of its two
// indexes rewrites the last block of the item's group: up to 128 KB) beside the same PutItem
// into a table without vector indexes. Every commit is synced on both sides.
void RunVectorPut(benchmark::State& state, const char* table) {
  Data& d = Shared();
  static uint64_t next = 0;
  std::vector<AttributeValue> e;
  for (int j = 0; j < kDims; ++j) {
    e.push_back(AttributeValue::N(*Number::Parse(fmt::format("{:.3f}", Element(7, j)))));
  }
  PutItemRequest r;
  r.table_name = table;
  r.item = {{"tenant", S(Tenant(3))}, {"e", AttributeValue::L(std::move(e))}};
  for (auto _ : state) {
    r.item["pk"] = S(fmt::format("new-{:08}", next++));
    auto put = d.db->PutItem(r);
    if (!put.ok()) {
      state.SkipWithError(put.status().ToString().c_str());
      break;
    }
  }
  ReportRates(state, state.iterations());
}
void BM_VectorPut_Keyhole(benchmark::State& state) { RunVectorPut(state, kTable); }
void BM_VectorPut_NoVectorIndex(benchmark::State& state) { RunVectorPut(state, kPlainTable); }

}  // namespace

BENCHMARK(BM_VectorSearch_Keyhole)->Arg(kItems)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_VectorSearch_PackedLoop)->Arg(kItems)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_VectorSearch_LmdbPacked)->Arg(kItems)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_VectorSearch_MemoryScan)->Arg(kItems)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_VectorSearchTenant_Keyhole)
    ->Arg(kItems / kTenants)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_VectorSearchTenant_PackedLoop)
    ->Arg(kItems / kTenants)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);

}  // namespace keyhole::bench

namespace keyhole::bench {
BENCHMARK(BM_VectorSearchHotTenant_Keyhole)
    ->Arg(kItems / kTenants)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_VectorSearchHotTenant_PackedLoop)
    ->Arg(kItems / kTenants)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
// After the searches: the new items would add to what they read.
BENCHMARK(BM_VectorPut_Keyhole)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_VectorPut_NoVectorIndex)->UseRealTime()->Unit(benchmark::kMicrosecond);
}  // namespace keyhole::bench
