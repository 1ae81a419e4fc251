// keyhole_bench's main: Google Benchmark's console output, then a summary pairing each
// keyhole benchmark with the raw LMDB benchmarks of the same operation and the same argument.
//
// Pairing is by name: BM_<Op>_Keyhole[/arg] against every BM_<Op>_Lmdb<Variant>[/arg]. The
// ratio is raw items/s over keyhole items/s: how many times slower keyhole is than LMDB
// doing the equivalent work. With --benchmark_repetitions the medians are paired.
#include <benchmark/benchmark.h>
#include <malloc.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace {

class SummaryReporter : public benchmark::ConsoleReporter {
 public:
  using ConsoleReporter::ConsoleReporter;

  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& run : runs) Record(run);
  }

  void PrintSummary() const {
    bool header = false;
    for (const std::string& op : order_) {
      const auto& sides = results_.at(op);
      auto keyhole = sides.find("Keyhole");
      if (keyhole == sides.end()) continue;
      for (const auto& [side, raw] : sides) {
        if (side == "Keyhole") continue;
        if (!header) {
          std::printf(
              "\nkeyhole vs raw LMDB (ratio = raw items/s / keyhole items/s: how many times "
              "slower keyhole is)\n");
          std::printf("%-22s %15s %12s  %-16s %15s %12s %8s\n", "operation", "keyhole items/s",
                      "keyhole op/s", "raw side", "raw items/s", "raw op/s", "ratio");
          header = true;
        }
        const Result& k = keyhole->second;
        std::printf("%-22s %15.0f %12s  %-16s %15.0f %12s %7.2fx\n", op.c_str(), k.items,
                    Rate(k.ops).c_str(), side.c_str(), raw.items, Rate(raw.ops).c_str(),
                    k.items > 0 ? raw.items / k.items : 0);
      }
    }
    std::fflush(stdout);
  }

 private:
  // Whole numbers for high rates, three significant digits for low ones (bulk loads).
  static std::string Rate(double r) {
    char buf[32];
    std::snprintf(buf, sizeof buf, r >= 100 ? "%.0f" : "%.3g", r);
    return buf;
  }

  struct Result {
    double items = 0;  // items per second
    double ops = 0;    // operations per second
    bool median = false;
  };

  void Record(const Run& run) {
    if (run.error_occurred) return;
    bool median = run.run_type == Run::RT_Aggregate;
    if (median && run.aggregate_name != "median") return;
    // function_name is "BM_<Op>_<Side>"; args such as "1000000" tell sizes apart.
    const std::string& fn = run.run_name.function_name;
    size_t us = fn.rfind('_');
    if (fn.rfind("BM_", 0) != 0 || us == std::string::npos || us < 3) return;
    std::string op = fn.substr(3, us - 3);
    if (!run.run_name.args.empty()) op += "/" + run.run_name.args;
    std::string side = fn.substr(us + 1);
    if (!results_.count(op)) order_.push_back(op);
    Result& r = results_[op][side];
    if (r.median && !median) return;
    auto counter = [&](const char* name) {
      auto it = run.counters.find(name);
      return it == run.counters.end() ? 0.0 : static_cast<double>(it->second);
    };
    r = Result{counter("items_per_second"), counter("ops_per_second"), median};
  }

  std::vector<std::string> order_;
  std::map<std::string, std::map<std::string, Result>> results_;
};

}  // namespace

namespace keyhole::bench {
int RawGetMain(int argc, char** argv);  // shell_bench.cpp: the raw side of BM_Startup
}

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "--raw-get")
    return keyhole::bench::RawGetMain(argc, argv);
  // The same allocator settings as the keyhole executable (cli/malloc_tuning.h).
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
  mallopt(M_TOP_PAD, 16 << 20);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  SummaryReporter reporter(benchmark::ConsoleReporter::OO_Tabular);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  reporter.PrintSummary();
  benchmark::Shutdown();
  return 0;
}
