// What the operations of a statement consume, operation by operation and partition by
// partition, for the cost plan (modeling/cost_plan.h): RecordingBackend forwards every call to the
// backend it wraps and, while a UsageLog is attached, records each successful item operation with
// its consumed capacity per table and index, the sizes of the items it read or wrote, and the
// partition key values it touched.
//
// How a write is attributed to partitions: the table's units go to the item's partition; a
// GSI's units to the index's partition key values of the item before and after the write
// (shared evenly when the write moves the item from one to another); an LSI's to the table's
// partition (an LSI lives in its table's partitions). A batch or transaction shares each table's
// and index's units evenly among the items written. A Query's units go to the partition it
// names; a Scan reads every partition and is recorded without partitions.
//
// Recording reads each written item before and after the write (strongly consistent GetItems
// on the wrapped backend, not recorded), counts the items of each partition a write put a new
// item in (a Query with a small Limit: is the value new?), and reads again, whole, the items a
// projected or filtered read returned in part; so a pattern run costs more than its
// statements. Nothing is recorded, and nothing extra read, while no log is attached.
//
// Thread-safety: none; one shell session uses it.
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/forwarding_backend.h"

namespace keyhole::modeling {

// Units spent in one partition of a table or index.
struct PartitionUse {
  std::string target;  // "Social" or "Social.GSI2"
  std::string key;     // the partition key value as the shell prints it ('USER#alice'), values of a
                       // multi-attribute key joined with ", "
  double read_units = 0, write_units = 0;
  double bytes_added = 0;  // a table's item collection: the bytes the write added (or, < 0, freed)
  // A write that made this value: the partition held no item before it but the ones the write
  // put there (a new post id). --plan spreads such a pattern's requests over new values.
  bool new_value = false;
};

// One operation sent (a Query's pages are one each).
struct OperationUse {
  std::string operation;  // "PutItem", "Query", "TransactWriteItems", ...
  bool write = false;
  bool scan = false;                      // it read every partition of `scan_target`
  std::string scan_target;                // "Social" or "Social.GSI1"
  std::map<std::string, Capacity> units;  // per target ("Social", "Social.GSI1")
  // What the units were paid for: a read's items as read (whole, or as the index holds them,
  // before a projection or filter narrowed them), a write's items at the larger of before and
  // after (a delete: the item deleted).
  std::vector<size_t> item_sizes;
  // Vector indexes, per index ("T.I"): a SearchVectors' VectorSearchRequestBytes, and the
  // VectorWriteRequestBytes a write replicated.
  std::map<std::string, double> vector_search_bytes, vector_write_bytes;
  std::vector<PartitionUse> partitions;
  std::set<std::string>
      tables;  // the tables it named (targets are "T" or "T.I"; names may hold '.')
};

using UsageLog = std::vector<OperationUse>;

// Units per table and index as a footer says them: "3 WCU: table 1, GSI1 1, GSI2 1" (a
// write's amplification; "table" is `table`, an index its name), "0.5 RCU", "1.5 RCU, 3 WCU"
// (a SCAN UPDATE's reads and writes apart). Targets of other tables keep their full names.
// "0 <unit>" when nothing was consumed (`unit` "RCU" or "WCU").
std::string UnitsText(const std::map<std::string, Capacity>& units, const std::string& table,
                      std::string_view unit);

class RecordingBackend : public ForwardingBackend {
 public:
  explicit RecordingBackend(Backend& inner) : ForwardingBackend(inner) {}

  // Records into `log` from now on; null stops recording. log(): the one attached.
  void Attach(UsageLog* log) { log_ = log; }
  UsageLog* log() const { return log_; }

  Result<PutItemResponse> PutItem(const PutItemRequest& r) override;
  Result<GetItemResponse> GetItem(const GetItemRequest& r) override;
  Result<DeleteItemResponse> DeleteItem(const DeleteItemRequest& r) override;
  Result<UpdateItemResponse> UpdateItem(const UpdateItemRequest& r) override;
  Result<BatchWriteItemResponse> BatchWriteItem(const BatchWriteItemRequest& r) override;
  Result<BatchGetItemResponse> BatchGetItem(const BatchGetItemRequest& r) override;
  Result<TransactWriteItemsResponse> TransactWriteItems(
      const TransactWriteItemsRequest& r) override;
  Result<TransactGetItemsResponse> TransactGetItems(const TransactGetItemsRequest& r) override;
  Result<QueryResponse> Query(const QueryRequest& r) override;
  Result<ScanResponse> Scan(const ScanRequest& r) override;
  Result<SearchVectorsResponse> SearchVectors(const SearchVectorsRequest& r) override;

 private:
  // One item written: its table, and the item before and after (absent: none).
  struct Written {
    std::string table;
    std::optional<Item> before, after;
    bool check_only = false;  // a ConditionCheck: read, not written
  };
  std::optional<Item> Fetch(const std::string& table, const Item& key);
  // How many items the partition of `values` (its partition key attributes) holds in `table` or
  // its `index`, counting to `limit` at most; -1 when the Query fails.
  int64_t CountPartition(const std::string& table, const std::string& index, const Item& values,
                         int limit);
  // The sizes of the items a Query read: `r` again, unrecorded, without its projection and
  // filter, when it had either.
  std::vector<size_t> ReadSizes(const QueryRequest& r, const QueryResponse& out);
  // The sizes of the items a keyed read paid for: each returned item whole.
  std::vector<size_t> KeyedSizes(const std::vector<std::pair<std::string, Item>>& keys,
                                 const std::vector<const Item*>& returned, bool projected);
  // Each written item as it is after the write (`keys` parallel to `items`).
  void FetchAfter(std::vector<Written>& items,
                  const std::vector<std::pair<std::string, Item>>& keys);
  void RecordQuery(const QueryRequest& r, const QueryResponse& out);
  std::optional<Item> KeyOf(const std::string& table, const Item& item);
  // Records a write of `items` that consumed `consumed` (per table).
  void RecordWrite(std::string operation, const std::vector<Written>& items,
                   const std::vector<ConsumedCapacity>& consumed);
  // Records a read of `keys` per table (GetItem, BatchGetItem, TransactGetItems).
  void RecordKeyedRead(std::string operation, const std::vector<std::pair<std::string, Item>>& keys,
                       const std::vector<const Item*>& returned,
                       const std::vector<ConsumedCapacity>& consumed, bool projected);

  UsageLog* log_ = nullptr;
};

}  // namespace keyhole::modeling
