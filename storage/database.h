// storage::Database: one keyhole file, executing DynamoDB operations on LMDB.
//
// Every operation takes a request struct from core/operations.h and returns the response or a
// Status with DynamoDB's error type and message. Writes of one operation are one LMDB write
// transaction: a failed operation changes nothing. Reads see one consistent snapshot.
//
// storage::Database implements Backend (every DynamoDB operation) and LocalControl (what only a
// local file offers: the clock, TTL sweeps, bulk import, integrity checks).
//
// Thread-safety: one Database may be called from many threads at once (keyhole serve does):
// reads run in parallel, each on its own LMDB read transaction; writes are serialized (one
// write transaction of this process at a time, and LMDB's writer lock across processes);
// readers are never blocked by a write, only briefly by what needs the process to itself (the
// map growing, a table or index being dropped, a sub-database handle opened the first time).
// SetClock is the exception: it requires that no other call is in progress. Several processes
// may open the same file at once (one writer at a time, readers never blocked), and each sees
// the others' commits, schema changes included.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/backend.h"
#include "core/operations.h"
#include "core/status.h"

namespace keyhole::storage {

struct TableHandle;  // storage/engine.h
using ImportResult = LocalControl::ImportResult;

class Database : public Backend, public LocalControl {
 public:
  struct Options {
    bool create_if_missing = true;
    bool read_only = false;
    size_t initial_map_size = size_t{64} << 20;  // grows by doubling when full
    // false: commits are not flushed to disk (LMDB's MDB_NOSYNC). A process crash still loses
    // nothing acknowledged; an OS crash or power loss may lose the last commits (never
    // integrity). For tests and bulk loads.
    bool sync = true;
    // Clock for CreationDateTime etc., epoch seconds. Defaults to the system clock.
    std::function<double()> clock;
    // Parses expression parameters (parser::NativeExpressionParser). Without one, a request
    // that carries expressions is refused. Not owned; must outlive the Database.
    const expr::ExpressionParser* expression_parser = nullptr;
    // Delete expired TTL items when opening read-write (SweepExpiredItems).
    bool sweep_on_open = true;
    // The item collection limit of tables with local secondary indexes: a write that grows a
    // collection (the items of one partition key and their LSI entries) past it fails with
    // ItemCollectionSizeLimitExceededException. DynamoDB's is 10 GB; tests set a small one.
    uint64_t item_collection_limit_bytes = uint64_t{10} << 30;
  };

  // Opens the keyhole database at `path` (one file plus "<path>-lock"), creating it when it
  // does not exist and options.create_if_missing. Errors:
  //  - DatabaseFormatException: not a keyhole database ("it is a text file" when it has no NUL
  //    byte in its first 4 KB: a script given as the database), or written by a newer format;
  //    such a file is refused before LMDB opens it, and a failed open leaves no lock file;
  //  - ResourceNotFoundException: missing and !create_if_missing (or read_only);
  //  - AccessDeniedException: the OS refused to open the file or its lock file (its words);
  //  - InternalServerError: I/O.
  // With options.read_only every write returns AccessDeniedException and nothing is written.
  static Result<std::unique_ptr<Database>> Open(const std::string& path, const Options& options);
  static Result<std::unique_ptr<Database>> Open(const std::string& path) {
    return Open(path, Options{});
  }
  ~Database();

  const std::string& path() const;

  // Tables. ResourceInUseException when creating an existing table;
  // ResourceNotFoundException for a missing one; ValidationException for a bad request.
  Result<CreateTableResponse> CreateTable(const CreateTableRequest& request) override;
  Result<DeleteTableResponse> DeleteTable(const DeleteTableRequest& request) override;
  Result<DescribeTableResponse> DescribeTable(const DescribeTableRequest& request) override;
  Result<ListTablesResponse> ListTables(const ListTablesRequest& request) override;
  // Adds (and backfills from existing items) or removes one GSI.
  Result<UpdateTableResponse> UpdateTable(const UpdateTableRequest& request) override;

  // Tags (control.cpp): the ResourceArn is the table's ARN (core/tags.h has the ARN and tag
  // rules); tags live in the table's catalog record, survive reopening and go with the table.
  // TagResource adds or replaces (at most 50 in all), UntagResource removes (absent keys are
  // fine), ListTagsOfResource lists them by key, in one page.
  Result<TagResourceResponse> TagResource(const TagResourceRequest& request) override;
  Result<UntagResourceResponse> UntagResource(const UntagResourceRequest& request) override;
  Result<ListTagsOfResourceResponse> ListTagsOfResource(
      const ListTagsOfResourceRequest& request) override;
  // Point-in-time recovery as a setting (control.cpp): keyhole keeps no backups, it records and
  // reports the setting as DynamoDB does (ContinuousBackupsStatus ENABLED; the recovery window
  // while enabled). TableNotFoundException "Table not found: <name>" for a missing table.
  Result<DescribeContinuousBackupsResponse> DescribeContinuousBackups(
      const DescribeContinuousBackupsRequest& request) override;
  Result<UpdateContinuousBackupsResponse> UpdateContinuousBackups(
      const UpdateContinuousBackupsRequest& request) override;

  // Items. A ConditionExpression that is false gives ConditionalCheckFailedException "The
  // conditional request failed" (carrying the old item with ReturnValuesOnConditionCheckFailure
  // ALL_OLD) and changes nothing.
  Result<PutItemResponse> PutItem(const PutItemRequest& request) override;
  Result<GetItemResponse> GetItem(const GetItemRequest& request) override;
  Result<DeleteItemResponse> DeleteItem(const DeleteItemRequest& request) override;
  // Applies an UpdateExpression (creating the item when missing) under an optional condition.
  Result<UpdateItemResponse> UpdateItem(const UpdateItemRequest& request) override;

  // Batches (reference §4.7). Every table must exist (ResourceNotFoundException) and every
  // request is validated before anything is read or written.
  //
  // BatchWriteItem: 1..25 PutRequest/DeleteRequest in total, each checked like PutItem /
  // DeleteItem (key schema, index keys, 400 KB), no two on one key of a table
  // (ValidationException "Provided list of item keys contains duplicates"); more than 25 is
  // "Too many items requested for the BatchWriteItem call". All writes of the call are ONE LMDB
  // write transaction, so keyhole always processes the whole batch and UnprocessedItems is
  // always empty (DynamoDB may return some under throttling; keyhole never throttles). Each
  // item is charged like its single-item write, summed per table.
  Result<BatchWriteItemResponse> BatchWriteItem(const BatchWriteItemRequest& request) override;
  // BatchGetItem: 1..100 keys in total ("Too many items requested for the BatchGetItem call"),
  // no duplicates within a table ("Provided list of item keys contains duplicates"), each
  // table with its own ProjectionExpression and ConsistentRead. One read snapshot. Keys are
  // read in request order; once the returned items would pass 16 MB, that key and the rest go
  // to UnprocessedKeys. Each item read costs like a GetItem (rounded individually).
  Result<BatchGetItemResponse> BatchGetItem(const BatchGetItemRequest& request) override;

  // Transactions (reference §3.10).
  //
  // TransactWriteItems: 1..100 Put / Update / Delete / ConditionCheck actions over one or
  // more tables, no two on one item ("Transaction request cannot include multiple operations
  // on one item"), 4 MB of items and keys. Errors that need only the request and the schemas
  // (bad key, item too large, bad expression, missing table) are plain exceptions, before any
  // read. Then, in ONE LMDB write transaction, every action's condition (and update) is
  // evaluated; if any fails, TransactionCanceledException "Transaction cancelled, please refer
  // cancellation reasons for specific reasons [None, ConditionalCheckFailed, ...]" carries
  // Status::cancellation_reasons(), one per action in order (None; ConditionalCheckFailed "The
  // conditional request failed" with the item under ReturnValuesOnConditionCheckFailure
  // ALL_OLD; ValidationError with the item-level message), and nothing is written. Writes cost
  // double (ConditionCheck: as a write of the item it read). ClientRequestToken: see
  // Impl::TokenEntry — remembered in memory by this Database object (per process) for 10
  // minutes after success; the same request again succeeds without writing (reporting read
  // units), another request with the token is IdempotentParameterMismatchException.
  Result<TransactWriteItemsResponse> TransactWriteItems(
      const TransactWriteItemsRequest& request) override;
  // TransactGetItems: 1..100 Gets in one snapshot, no two on one item, 2 RCU per 4 KB of each
  // item; returned items passing 4 MB cancel the transaction.
  Result<TransactGetItemsResponse> TransactGetItems(
      const TransactGetItemsRequest& request) override;

  // Reads: at most Limit items evaluated and 1 MB per page, LastEvaluatedKey to continue.
  Result<QueryResponse> Query(const QueryRequest& request) override;
  Result<ScanResponse> Scan(const ScanRequest& request) override;
  // SearchVectors (storage/vectors.cpp): the exact top K, every item of the table a candidate.
  Result<SearchVectorsResponse> SearchVectors(const SearchVectorsRequest& request) override;

  // The catalog description of a table, without the statistics DescribeTable computes (cheap:
  // served from the cached catalog), shared with the engine's handle of the table.
  // ResourceNotFoundException "Requested resource not found: Table: <name> not found" when it
  // does not exist.
  Result<TableSchemaPtr> TableSchema(const std::string& table_name) override;

  // Time to Live (ttl.cpp, reference §6.1). UpdateTimeToLive enables or disables TTL on an
  // attribute, with DynamoDB's rules (one change per hour, disable before changing the
  // attribute); DescribeTimeToLive reports ENABLED (with the attribute) or DISABLED.
  Result<UpdateTimeToLiveResponse> UpdateTimeToLive(
      const UpdateTimeToLiveRequest& request) override;
  Result<DescribeTimeToLiveResponse> DescribeTimeToLive(
      const DescribeTimeToLiveRequest& request) override;
  // Deletes the expired items of `table_name` (every table when empty) whose TTL is enabled,
  // as DeleteItem would (indexes, stream records marked as service deletions), without
  // consuming capacity. Returns how many were deleted.
  Result<int64_t> SweepExpiredItems(const std::string& table_name) override;
  // Replaces the clock (epoch seconds) for everything that reads it from now on: TTL expiry,
  // CreationDateTime, stream record times, token expiry. Null: the system clock. REQUIRES: no
  // other call on this Database is in progress (a clock that changes while threads use the
  // Database is a clock function whose result changes: Options::clock).
  void SetClock(std::function<double()> clock) override;

  // DynamoDB Streams (streams.cpp, reference §6.2): one shard per stream, records kept 24 hours,
  // a disabled stream readable for 24 hours. Errors: ResourceNotFoundException for an unknown
  // table, stream or shard; ValidationException for a bad argument; ExpiredIteratorException for
  // an iterator older than 15 minutes; TrimmedDataAccessException for a sequence number whose
  // record was trimmed.
  Result<ListStreamsResponse> ListStreams(const ListStreamsRequest& request) override;
  Result<DescribeStreamResponse> DescribeStream(const DescribeStreamRequest& request) override;
  Result<GetShardIteratorResponse> GetShardIterator(
      const GetShardIteratorRequest& request) override;
  Result<GetRecordsResponse> GetRecords(const GetRecordsRequest& request) override;

  // Local-only (not a DynamoDB operation): puts every item `source` gives into `table_name`,
  // each checked and applied as PutItem without a condition (key attributes, index keys,
  // 400 KB), all or nothing: the first bad item, an error from the source, or `cancel` seen set
  // (checked before each item: InterruptedException "Interrupted after N items: nothing was
  // imported") aborts it and the table is left as it was. An empty table without a stream or
  // local secondary indexes gets a sorted bulk load (storage/import.cpp): the items are sorted
  // by key (in memory up to 32 MB, in runs in an unlinked temporary file beside the database
  // past that), written in key order into staging sub-databases a transaction at a time, and
  // switched in by one catalog write at the end, so memory stays bounded however large the
  // import. The switch fails with ResourceInUseException, importing nothing, if another writer
  // changed the table in the meantime. Any other table gets ONE write transaction (streams get
  // a record per item), whose pages LMDB keeps in memory until the commit (spilling them to
  // the file past 512 MB).
  Result<ImportResult> ImportItems(const std::string& table_name, const ImportSource& source,
                                   const std::atomic<bool>* cancel = nullptr) override;
  using LocalControl::ImportItems;
  Result<bool> ImportIsBulkLoad(const std::string& table_name) override;

  // Checks that every index of every table agrees with its base table entry for entry.
  // InternalServerError naming the first disagreement. (Used by crash and concurrency tests.)
  Status VerifyIntegrity() override;

  struct Impl;

 private:
  explicit Database(std::unique_ptr<Impl> impl);
  // Whether an import into `table` is a sorted bulk load (import.cpp).
  Result<bool> BulkLoads(const TableHandle& table);
  // The sorted bulk load into the empty `table` (import.cpp).
  Result<ImportResult> ImportStaged(const TableHandle& table, const ImportSource& source,
                                    const std::atomic<bool>* cancel);
  // Drops a staged import's sub-databases `dbs` and its catalog record `record_key`.
  Status DropStaging(const std::string& record_key, const std::vector<std::string>& dbs);
  // Drops the staging of imports whose process is gone (run by a read-write open).
  Status DropAbandonedImports();
  static Result<std::unique_ptr<Database>> OpenChecked(const std::string& path,
                                                       const Options& options);
  std::unique_ptr<Impl> impl_;
};

}  // namespace keyhole::storage
