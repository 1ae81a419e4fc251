// Shared pieces of the benchmarks: temporary directories, keyhole tables, a raw LMDB
// environment opened the way storage/env.cpp opens keyhole's, and deterministic keys.
//
// Fairness rules every keyhole/raw pair follows:
//  - Both sides run in the same process, on the same kind of file (one LMDB file plus
//    "<file>-lock" in a fresh mkdtemp directory under /tmp), with the same environment setup:
//    MDB_NOSUBDIR | MDB_NOTLS, maxdbs 1024, maxreaders 254, the same map size, and LMDB's
//    default durability (every commit is synced: no MDB_NOSYNC / MDB_NOMETASYNC).
//  - The raw side stores keys and values of the same sizes as keyhole's, in the same
//    (hash-scattered) key order: it uses keyhole's own codecs (storage/key_codec.h,
//    core/item_codec.h) to build them, outside the timed loops.
//  - The raw side does the same number of transactions, gets, puts and cursor steps that a
//    DynamoDB-style engine needs at minimum; anything keyhole does beyond that (catalog
//    checks, decoding, validation, allocation) is what the ratio measures.
#pragma once

#include <benchmark/benchmark.h>
#include <lmdb.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "core/attribute_value.h"
#include "core/item.h"
#include "core/schema.h"
#include "core/status.h"
#include "storage/database.h"

namespace keyhole::bench {

// Map size of both sides: large enough that neither grows its map during a measurement.
constexpr size_t kMapSize = size_t{2} << 30;

// Aborts the process with `what` and the error when `s` is not OK (benchmark setup only).
void Check(const Status& s, std::string_view what);
// Same for an LMDB return code.
void CheckRc(int rc, std::string_view what);

// A fresh directory under /tmp (mkdtemp), removed with its contents at destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  // `path()/name`.
  std::string File(std::string_view name) const;

 private:
  std::string path_;
};

// Opens (creating) a keyhole database at `path` with kMapSize as its initial map size.
std::unique_ptr<storage::Database> OpenKeyhole(const std::string& path);

// Creates table `name` with key pk (S, HASH) [+ sk (N, RANGE) when `with_sort`]. With
// `with_gsis`, also two GSIs projecting ALL: "by_g1" (g1 S HASH, g1s N RANGE) and
// "by_g2" (g2 S HASH). Returns the table's description (key schemas for the codecs).
TableDescription CreateTable(storage::Database& db, const std::string& name, bool with_sort,
                             bool with_gsis);

// A raw LMDB environment set up exactly as storage/env.cpp sets up keyhole's.
class RawEnv {
 public:
  explicit RawEnv(const std::string& path);
  ~RawEnv();
  RawEnv(const RawEnv&) = delete;
  RawEnv& operator=(const RawEnv&) = delete;

  MDB_env* get() const { return env_; }
  // Creates (in its own write transaction) and returns sub-database `name`.
  MDB_dbi CreateDbi(const char* name);

 private:
  MDB_env* env_ = nullptr;
};

inline MDB_val Val(std::string_view s) { return MDB_val{s.size(), const_cast<char*>(s.data())}; }

// splitmix64's finalizer: a cheap bijective scramble of a counter.
inline uint64_t Mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Overwrites key[0, 8) with `h` big-endian: keyhole keys start with an 8-byte partition hash,
// so this gives a raw key of the same size landing at a scattered position, as keyhole's do.
// REQUIRES: key->size() >= 8.
void SetHashPrefix(uint64_t h, std::string* key);

// `n` deterministic printable bytes derived from `seed`.
std::string Payload(uint64_t seed, size_t n);

inline AttributeValue S(std::string s) { return AttributeValue::S(std::move(s)); }
inline AttributeValue N(int64_t v) { return AttributeValue::N(Number::FromInt(v)); }

// Sets the counters every benchmark reports: items_per_second (SetItemsProcessed) and
// ops_per_second, from `items` processed over the run.
void ReportRates(benchmark::State& state, int64_t items);

}  // namespace keyhole::bench
