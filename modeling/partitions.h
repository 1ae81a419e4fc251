// How a table's (or an index's) items spread over its partition key values: for .partitions
// TABLE [INDEX] and for the cost plan's hot partitions (modeling/cost_plan.h).
//
// A "partition" here is one partition key value: an item collection, which DynamoDB never
// splits across its physical partitions' per-partition limits (3,000 RCU and 1,000 WCU per
// second) unless it has a sort key and adaptive capacity splits it, and which is limited to
// 10 GB on a table with local secondary indexes. The figures come from a Scan of every item.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/backend.h"

namespace keyhole::modeling {

struct PartitionStat {
  std::string key;  // as the shell prints it: 'USER#alice', 42, or values joined by ", "
  int64_t items = 0, bytes = 0;
};

struct PartitionStats {
  std::string target;  // "Social" or "Social.GSI1"
  int64_t items = 0, bytes = 0;
  std::vector<PartitionStat> partitions;   // the largest (bytes, then items) first
  std::vector<size_t> sizes;               // every item's size in bytes, ascending
  std::map<std::string, size_t> position;  // key -> index in `partitions`
  double read_units = 0;                   // what the Scan consumed
};

// Scans `table` (or its `index`: the index's own items, as projected) and counts items and
// bytes per partition key value. `cancel` seen set stops it with InterruptedException.
Result<PartitionStats> CollectPartitions(Backend& db, const std::string& table,
                                         const std::optional<std::string>& index,
                                         const std::atomic<bool>* cancel);

// The class of a partition key value: the text up to and including its first separator as
// .model cuts values (modeling/model.h SplitKeyValue: '#', '|', ':' but not a time's, '-' or '_'
// between a word and an id, so 'tenant-1' is 'tenant-'), or up to a '/'; without one,
// "<number>", "<binary>", "<id>" for a string with a digit, or
// the value itself for a word ('ALL_POSTS' and each status are their own class; --plan counts
// words as one class when an index has more than ten of them). --plan assumes the requests of a
// pattern that named one value spread over its class's values like the items do.
std::string KeyClass(const std::string& key);

// A partition key value of `item` under `key`, printed as PartitionStat::key; "" when the item
// lacks one.
std::string PartitionKeyText(const KeySchema& key, const Item& item);

// PartitionStat::key as a cell: a single string value unquoted (as the shell prints a string),
// a single number as a number, several values as written.
AttributeValue KeyCell(const std::string& key);

// A key value as the shell prints it inside a list: strings quoted ('x'), numbers bare.
std::string KeyValueText(const AttributeValue& v);

}  // namespace keyhole::modeling
