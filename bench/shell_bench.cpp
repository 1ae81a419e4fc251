// The shell end to end: statements per second through Session::RunScript (the path `-f`,
// `-c` and standard input take: split, parse, plan, execute, render in ddb mode, footer) for a
// key-addressed SELECT and an INSERT, and the start-up time of a whole process,
// `keyhole FILE -c "SELECT ..."`, to its first result.
//
// Raw sides: for SELECT, a read transaction, one mdb_get and the value copied to the output
// buffer; for INSERT, a write transaction with mdb_put(MDB_NOOVERWRITE) and a synced commit
// (INSERT's attribute_not_exists condition); for start-up, this same benchmark binary re-run as
// `keyhole_bench --raw-get FILE DBI HEXKEY`: a process that opens the LMDB file as keyhole
// does, gets the item's bytes and writes them to standard output.
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench/bench_util.h"
#include "core/item_codec.h"
#include "shell/session.h"
#include "storage/key_codec.h"

namespace keyhole::bench {
namespace {

constexpr char kTable[] = "bench_shell";
constexpr int kPartitions = 200, kPerPartition = 10;  // 2,000 items of about 150 bytes

Item MakeItem(int p, int s) {
  Item item;
  item["pk"] = S(fmt::format("part-{:05}", p));
  item["sk"] = N(s);
  item["payload"] = S(Payload(uint64_t(p) * kPerPartition + s, 100));
  item["count"] = N(int64_t{p} * 1000 + s);
  return item;
}

std::string Hex(std::string_view bytes) {
  std::string out;
  for (unsigned char c : bytes) out += fmt::format("{:02x}", c);
  return out;
}

// The data set of both sides, built once per process: keyhole's file and a raw LMDB file with
// byte-identical keys and values.
struct ShellDataset {
  TempDir dir;
  std::string keyhole_path = dir.File("keyhole.kh");
  std::string raw_path = dir.File("raw.mdb");
  std::unique_ptr<storage::Database> db;
  RawEnv raw{raw_path};
  std::string dbi_name;
  MDB_dbi raw_dbi = 0;
  std::vector<std::string> raw_keys;  // p * kPerPartition + s

  ShellDataset() {
    db = OpenKeyhole(keyhole_path);
    TableDescription desc = CreateTable(*db, kTable, /*with_sort=*/true, /*with_gsis=*/false);
    dbi_name = fmt::format("t{}", desc.id);
    raw_dbi = raw.CreateDbi(dbi_name.c_str());
    MDB_txn* txn;
    CheckRc(mdb_txn_begin(raw.get(), nullptr, 0, &txn), "mdb_txn_begin");
    PutItemRequest put;
    put.table_name = kTable;
    for (int p = 0; p < kPartitions; ++p) {
      for (int s = 0; s < kPerPartition; ++s) {
        put.item = MakeItem(p, s);
        Check(db->PutItem(put).status(), "PutItem");
        std::string key = storage::EncodeTableKey(desc.key, put.item);
        std::string value = EncodeItem(put.item, ItemSize(put.item));
        MDB_val k = Val(key), v = Val(value);
        CheckRc(mdb_put(txn, raw_dbi, &k, &v, 0), "mdb_put");
        raw_keys.push_back(std::move(key));
      }
    }
    CheckRc(mdb_txn_commit(txn), "mdb_txn_commit");
  }
  static ShellDataset& Get() {
    static ShellDataset ds;
    return ds;
  }
};

std::string SelectText(uint64_t i) {
  return fmt::format("SELECT * FROM \"{}\" WHERE pk = 'part-{:05}' AND sk = {};", kTable,
                     (i / kPerPartition) % kPartitions, i % kPerPartition);
}

void BM_ShellSelect_Keyhole(benchmark::State& state) {
  ShellDataset& ds = ShellDataset::Get();
  shell::StringSink sink;
  shell::Session session(*ds.db, ds.db.get(), ds.keyhole_path, sink);
  // The statements are written before the clock starts, as the raw side's keys are.
  std::vector<std::string> texts;
  for (uint64_t k = 0; k < kPartitions * kPerPartition; ++k) texts.push_back(SelectText(k));
  uint64_t i = 0;
  for (auto _ : state) {
    sink.out.clear();
    if (!session.RunScript(texts[Mix64(i++) % texts.size()])) {
      state.SkipWithError(sink.err.c_str());
      break;
    }
    benchmark::DoNotOptimize(sink.out.size());
  }
  ReportRates(state, state.iterations());
}

void BM_ShellSelect_Lmdb(benchmark::State& state) {
  ShellDataset& ds = ShellDataset::Get();
  std::string out;
  uint64_t i = 0;
  for (auto _ : state) {
    out.clear();
    MDB_txn* txn;
    CheckRc(mdb_txn_begin(ds.raw.get(), nullptr, MDB_RDONLY, &txn), "mdb_txn_begin");
    MDB_val k = Val(ds.raw_keys[Mix64(i++) % ds.raw_keys.size()]), v;
    CheckRc(mdb_get(txn, ds.raw_dbi, &k, &v), "mdb_get");
    out.append(static_cast<const char*>(v.mv_data), v.mv_size);
    mdb_txn_abort(txn);
    benchmark::DoNotOptimize(out.size());
  }
  ReportRates(state, state.iterations());
}

void BM_ShellInsert_Keyhole(benchmark::State& state) {
  ShellDataset& ds = ShellDataset::Get();
  shell::StringSink sink;
  shell::Session session(*ds.db, ds.db.get(), ds.keyhole_path, sink);
  static uint64_t next = 0;
  for (auto _ : state) {
    sink.out.clear();
    uint64_t i = next++;
    std::string text = fmt::format(
        "INSERT INTO \"{}\" VALUE {{'pk': 'new-{:08}', 'sk': {}, 'payload': '{}', 'count': {}}};",
        kTable, i, i % 100, Payload(i, 100), i);
    if (!session.RunScript(text)) {
      state.SkipWithError(sink.err.c_str());
      break;
    }
  }
  ReportRates(state, state.iterations());
}

void BM_ShellInsert_Lmdb(benchmark::State& state) {
  ShellDataset& ds = ShellDataset::Get();
  static uint64_t next = 0;
  Item sample = MakeItem(0, 0);
  std::string value = EncodeItem(sample, ItemSize(sample));
  std::string key = ds.raw_keys[0];
  for (auto _ : state) {
    SetHashPrefix(Mix64(next++ + (uint64_t{1} << 40)), &key);
    MDB_txn* txn;
    CheckRc(mdb_txn_begin(ds.raw.get(), nullptr, 0, &txn), "mdb_txn_begin");
    MDB_val k = Val(key), v = Val(value);
    CheckRc(mdb_put(txn, ds.raw_dbi, &k, &v, MDB_NOOVERWRITE), "mdb_put");
    CheckRc(mdb_txn_commit(txn), "mdb_txn_commit");
  }
  ReportRates(state, state.iterations());
}

// Runs `argv` with standard output to /dev/null and waits for it; false on failure.
bool RunProcess(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = fork();
  if (pid == 0) {
    int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    execv(argv[0], argv.data());
    _exit(127);
  }
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid) return false;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

void BM_Startup_Keyhole(benchmark::State& state) {
  ShellDataset& ds = ShellDataset::Get();
  uint64_t i = 0;
  for (auto _ : state) {
    if (!RunProcess({KEYHOLE_BIN, ds.keyhole_path, "-c", SelectText(Mix64(i++))})) {
      state.SkipWithError("keyhole -c failed");
      break;
    }
  }
  ReportRates(state, state.iterations());
}

void BM_Startup_Lmdb(benchmark::State& state) {
  ShellDataset& ds = ShellDataset::Get();
  uint64_t i = 0;
  for (auto _ : state) {
    const std::string& key = ds.raw_keys[Mix64(i++) % ds.raw_keys.size()];
    if (!RunProcess({"/proc/self/exe", "--raw-get", ds.raw_path, ds.dbi_name, Hex(key)})) {
      state.SkipWithError("--raw-get failed");
      break;
    }
  }
  ReportRates(state, state.iterations());
}

BENCHMARK(BM_ShellSelect_Keyhole)->UseRealTime();
BENCHMARK(BM_ShellSelect_Lmdb)->UseRealTime();
BENCHMARK(BM_ShellInsert_Keyhole)->UseRealTime();
BENCHMARK(BM_ShellInsert_Lmdb)->UseRealTime();
BENCHMARK(BM_Startup_Keyhole)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Startup_Lmdb)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace

int RawGetMain(int argc, char** argv) {
  if (argc != 5) return 2;
  RawEnv env(argv[2]);
  MDB_txn* txn;
  CheckRc(mdb_txn_begin(env.get(), nullptr, MDB_RDONLY, &txn), "mdb_txn_begin");
  MDB_dbi dbi;
  CheckRc(mdb_dbi_open(txn, argv[3], 0, &dbi), "mdb_dbi_open");
  std::string key;
  std::string_view hex = argv[4];
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    key += static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16));
  }
  MDB_val k = Val(key), v;
  CheckRc(mdb_get(txn, dbi, &k, &v), "mdb_get");
  std::fwrite(v.mv_data, 1, v.mv_size, stdout);
  mdb_txn_abort(txn);
  return 0;
}

}  // namespace keyhole::bench
