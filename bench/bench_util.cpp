#include "bench/bench_util.h"

#include <fmt/format.h>
#include <stdlib.h>

#include <cstdio>
#include <filesystem>

namespace keyhole::bench {

void Check(const Status& s, std::string_view what) {
  if (s.ok()) return;
  fmt::print(stderr, "keyhole_bench: {}: {}\n", what, s.ToString());
  std::abort();
}

void CheckRc(int rc, std::string_view what) {
  if (rc == 0) return;
  fmt::print(stderr, "keyhole_bench: {}: {}\n", what, mdb_strerror(rc));
  std::abort();
}

TempDir::TempDir() {
  char tmpl[] = "/tmp/keyhole-bench-XXXXXX";
  if (::mkdtemp(tmpl) == nullptr) {
    std::perror("keyhole_bench: mkdtemp");
    std::abort();
  }
  path_ = tmpl;
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::string TempDir::File(std::string_view name) const { return path_ + "/" + std::string(name); }

std::unique_ptr<storage::Database> OpenKeyhole(const std::string& path) {
  storage::Database::Options options;
  options.initial_map_size = kMapSize;
  auto db = storage::Database::Open(path, options);
  Check(db.status(), "open " + path);
  return std::move(db).value();
}

TableDescription CreateTable(storage::Database& db, const std::string& name, bool with_sort,
                             bool with_gsis) {
  CreateTableRequest r;
  r.table_name = name;
  r.attribute_definitions = {{"pk", "S"}};
  r.key_schema = {{"pk", "HASH"}};
  if (with_sort) {
    r.attribute_definitions.push_back({"sk", "N"});
    r.key_schema.push_back({"sk", "RANGE"});
  }
  if (with_gsis) {
    r.attribute_definitions.push_back({"g1", "S"});
    r.attribute_definitions.push_back({"g1s", "N"});
    r.attribute_definitions.push_back({"g2", "S"});
    r.global_secondary_indexes.push_back(
        IndexSpec{"by_g1", {{"g1", "HASH"}, {"g1s", "RANGE"}}, "ALL", std::nullopt});
    r.global_secondary_indexes.push_back(IndexSpec{"by_g2", {{"g2", "HASH"}}, "ALL", std::nullopt});
  }
  auto created = db.CreateTable(r);
  Check(created.status(), "CreateTable " + name);
  return created->table_description;
}

RawEnv::RawEnv(const std::string& path) {
  CheckRc(mdb_env_create(&env_), "mdb_env_create");
  CheckRc(mdb_env_set_maxdbs(env_, 1024), "mdb_env_set_maxdbs");
  CheckRc(mdb_env_set_maxreaders(env_, 254), "mdb_env_set_maxreaders");
  CheckRc(mdb_env_set_mapsize(env_, kMapSize), "mdb_env_set_mapsize");
  CheckRc(mdb_env_open(env_, path.c_str(), MDB_NOSUBDIR | MDB_NOTLS, 0644), path);
}

RawEnv::~RawEnv() { mdb_env_close(env_); }

MDB_dbi RawEnv::CreateDbi(const char* name) {
  MDB_txn* txn;
  CheckRc(mdb_txn_begin(env_, nullptr, 0, &txn), "mdb_txn_begin");
  MDB_dbi dbi;
  CheckRc(mdb_dbi_open(txn, name, MDB_CREATE, &dbi), "mdb_dbi_open");
  CheckRc(mdb_txn_commit(txn), "mdb_txn_commit");
  return dbi;
}

void SetHashPrefix(uint64_t h, std::string* key) {
  for (int i = 0; i < 8; ++i) (*key)[i] = static_cast<char>(h >> (8 * (7 - i)));
}

std::string Payload(uint64_t seed, size_t n) {
  std::string s(n, ' ');
  uint64_t x = seed;
  for (size_t i = 0; i < n; ++i) {
    if (i % 8 == 0) x = Mix64(x);
    s[i] = static_cast<char>('a' + (x >> (8 * (i % 8))) % 26);
  }
  return s;
}

void ReportRates(benchmark::State& state, int64_t items) {
  state.SetItemsProcessed(items);
  state.counters["ops_per_second"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

}  // namespace keyhole::bench
