// Backend: DynamoDB's operations on the operation model (operations.h), the seam between every
// front end (the shell, the HTTP server) and what runs the operations (storage::Database for a
// keyhole file; a remote endpoint later). design.md, "The shape".
//
// Every operation takes a request struct and returns the response or a Status with DynamoDB's
// error type and message, exactly as DynamoDB answers the same request. A failed operation
// changes nothing.
//
// Thread-safety: an implementation states its own. storage::Database: see its header.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/operations.h"
#include "core/schema.h"
#include "core/status.h"

namespace keyhole {

// A table's schema as the planner sees it (keys, indexes, projections, TTL attribute, stream),
// shared rather than copied: the implementation keeps it alive as long as a caller holds it.
using TableSchemaPtr = std::shared_ptr<const TableDescription>;

class Backend {
 public:
  virtual ~Backend() = default;

  // Every operation of core/operations.def (the table's comments group them): the request of
  // core/operations.h in, the response or DynamoDB's error out.
#define KH_BACKEND_OPERATION(Name) \
  virtual Result<Name##Response> Name(const Name##Request& request) = 0;
#include "core/operations.def"

  // The planner's view of a table, without the statistics DescribeTable computes.
  // ResourceNotFoundException "Requested resource not found: Table: <name> not found" when
  // there is no such table.
  virtual Result<TableSchemaPtr> TableSchema(const std::string& table_name) = 0;
};

// What a keyhole file offers beyond DynamoDB's operations, for the shell's local commands
// (.clock, .ttl sweep, .import, integrity checks). A remote backend has none: front ends take
// it as an optional pointer.
class LocalControl {
 public:
  virtual ~LocalControl() = default;
  // Replaces the clock (epoch seconds) TTL, creation times and stream records read; null: the
  // system clock.
  virtual void SetClock(std::function<double()> clock) = 0;
  // Deletes the expired items of `table_name` (every table when empty) now; how many.
  virtual Result<int64_t> SweepExpiredItems(const std::string& table_name) = 0;
  // Puts items into `table_name`, all or nothing, each checked and applied as PutItem without a
  // condition (storage::Database::ImportItems says how: a sorted bulk load into an empty
  // table, one write transaction otherwise). The source's `next` is called for batch after
  // batch (the vector comes cleared) until it returns false; an error it returns aborts the
  // import. `rewind` starts it over: a single transaction that outgrows the file's map is
  // retried from the first item. `cancel` seen set stops it with InterruptedException. Either
  // way nothing is written. Returns how many were written and the write units PutItem would
  // have consumed.
  struct ImportResult {
    int64_t written = 0;
    double write_units = 0;
  };
  struct ImportSource {
    std::function<Status()> rewind;
    std::function<Result<bool>(std::vector<Item>* batch)> next;
    // About how many bytes the items take (their input's size, say): the file's map is grown
    // once, up front, rather than on retries. 0: unknown.
    size_t expected_bytes = 0;
    // Called (when set) with the 0-based position, among the items given, of the item that
    // was refused (the import's error is that item's), so the caller can name its line.
    std::function<void(int64_t item)> refused;
  };
  virtual Result<ImportResult> ImportItems(const std::string& table_name,
                                           const ImportSource& source,
                                           const std::atomic<bool>* cancel = nullptr) = 0;
  // Whether ImportItems into `table_name` would now be a sorted bulk load (the table is empty,
  // without a stream or local secondary indexes): such an import reads its source once, as a
  // stream, and never calls `rewind` after the first batch.
  virtual Result<bool> ImportIsBulkLoad(const std::string& table_name) = 0;
  // The same for items already in memory.
  Result<ImportResult> ImportItems(const std::string& table_name, const std::vector<Item>& items,
                                   const std::atomic<bool>* cancel = nullptr) {
    bool given = false;
    ImportSource source;
    source.rewind = [&] {
      given = false;
      return Status::OK();
    };
    source.next = [&](std::vector<Item>* batch) -> Result<bool> {
      if (given) return false;
      given = true;
      *batch = items;
      return true;
    };
    return ImportItems(table_name, source, cancel);
  }
  // Checks that every index agrees with its table; InternalServerError naming the first
  // disagreement.
  virtual Status VerifyIntegrity() = 0;
};

}  // namespace keyhole
