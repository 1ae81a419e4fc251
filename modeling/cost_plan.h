// The cost plan: what a data model's access patterns cost at their request rates, from what
// each pattern really consumed when it ran once (usage.h), as data for a front end to render
// (the shell's `.plan` / `--plan` in shell/cost_plan.cpp):
//  - per pattern: requests, RCU and WCU per second, every index write it causes, item sizes;
//  - per table and index: the units per second, provisioned capacity at a 70% auto-scaling
//    target, items and bytes;
//  - cost per month: on demand, provisioned, storage (× scale), at prices.h's prices;
//  - hot partitions: the units per second each partition key value takes against DynamoDB's
//    per-partition limits (3,000 RCU, 1,000 WCU per second), collections growing toward 10 GB on
//    tables with local secondary indexes, and write sharding with its read fan-out (advice).
//
// How a pattern's rate lands on partitions: a pattern ran with one partition key value (say
// 'USER#alice'). When the table or index holds other values of the same class ('USER#...',
// partitions.h KeyClass), the requests are taken to spread over them as the items do, so the
// busiest value gets its share of the items' share of the rate; a value alone in its class
// ('ALL_POSTS', a status) gets every request. A write that makes a new partition key value each
// time (a new post id) takes one request's units on a value, whatever the rate.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/backend.h"
#include "modeling/prices.h"
#include "modeling/usage.h"

namespace keyhole::modeling {

inline constexpr double kPartitionReadLimit = 3000;   // RCU per partition per second
inline constexpr double kPartitionWriteLimit = 1000;  // WCU per partition per second
inline constexpr double kTargetUtilization = 0.7;     // the provisioned figures' auto-scaling

// One access pattern as it ran once, the plan's input.
struct PlannedPattern {
  std::string name;
  std::optional<double> rate;  // requests of the pattern per second; none: left out
  std::string rate_text;       // as written: "500/s"
  bool rate_error = false;     // a rate that could not be read (said already): not "no rate"
  std::string operation;       // as a report shows it ("Query ×2", "refused", ...)
  bool served = false;         // key-addressed and ran without error
  UsageLog usage;              // what it consumed (RecordingBackend)
};

struct CostPlanOptions {
  double scale = 1;  // the data holds 1/scale of production's items (storage is multiplied)
  // Whether each touched table and index may be Scanned for its spread over partition key
  // values (CollectPartitions): false on an endpoint without consent; the hot partitions then
  // count every request against the value the pattern named.
  bool scan_partitions = true;
  const std::atomic<bool>* cancel = nullptr;  // stops the Scans
};

struct PatternCost {
  std::string name, operation, rate_text;
  double rate = 0;          // per second
  double requests = 0;      // operations sent per second (a Query's pages count one each)
  double rcu = 0, wcu = 0;  // per second
  std::map<std::string, Capacity> per_call;  // units per call, per target ("T", "T.I")
  double item_bytes_mean = 0;
  size_t item_bytes_max = 0;
  bool item_sizes = false;                          // any item was read or written
  double search_bytes = 0, vector_write_bytes = 0;  // per call, as billed
};

struct TargetCost {
  std::string target;       // "T" or "T.I"
  std::string kind;         // "table", "gsi", "lsi"
  double rcu = 0, wcu = 0;  // per second
  int64_t items = 0, bytes = 0;
  // At kTargetUtilization; a table's include its LSIs' units; an LSI has none of its own (0).
  int64_t provisioned_rcu = 0, provisioned_wcu = 0;
  double on_demand_per_month = 0;
};

struct VectorCost {
  std::string target;                                      // "T.I"
  double searches = 0, search_bytes = 0, write_bytes = 0;  // per second
  int64_t items = 0, bytes = 0;
  double on_demand_per_month = 0;
};

struct BillingCost {
  bool on_demand = true;
  double reads = 0, writes = 0;  // on demand only
  double vector = 0;             // vector indexes' bytes (on demand, in both)
  double throughput = 0;         // reads + writes + vector, or provisioned + vector
  double storage_gb = 0, storage = 0, total = 0;
};

struct HotPartition {
  std::string target, key;  // key as PartitionStat::key prints it
  double rcu = 0, wcu = 0;  // per second
  double share = 0;         // of the per-partition limit: the larger of reads' and writes'
  bool over = false;
  bool everything = false;  // alone in its class: every request
  bool new_value = false;   // a new value each request
  std::set<std::string> patterns;
  std::set<std::string> readers;  // patterns that Query it
  double read_requests = 0;       // per second
  double new_bytes = 0;           // per second, items created there
};

struct CostPlan {
  Prices prices;
  double scale = 1;
  std::string table;                  // the one table the patterns touch ("" when several)
  std::vector<PatternCost> patterns;  // the rated patterns that were served, in order
  double total_requests = 0;
  std::vector<std::string> unrated;  // served without a rate
  std::vector<std::string> failed;   // not served (failed, or refused with a rate)
  std::vector<TargetCost> targets;   // by target name
  std::vector<VectorCost> vectors;   // by target name
  bool vector_prices = false;        // prices has both vector figures
  BillingCost on_demand, provisioned;
  double storage_bytes = 0;              // × scale
  std::vector<HotPartition> partitions;  // the busiest first (share)
  int over = 0;                          // partitions over a limit
  bool scanned = true;                   // the spread over key values was read
  // What to do about it, one paragraph a string: sharding a hot write partition and its read
  // fan-out, hot reads, GSIs with few key values, item collections growing toward 10 GB.
  std::vector<std::string> advice;
  // The collections the patterns query, by class ('USER#', 'POST#'), for the closing advice.
  std::vector<std::string> collections;
};

// The plan of `patterns` on `db` (their tables' schemas, sizes and, with
// options.scan_partitions, spread over partition key values). A table that cannot be described
// is planned without its sizes; a target whose Scan fails (or is cancelled), without its spread.
CostPlan ComputeCostPlan(Backend& db, const std::vector<PlannedPattern>& patterns,
                         const Prices& prices, const CostPlanOptions& options);

}  // namespace keyhole::modeling
