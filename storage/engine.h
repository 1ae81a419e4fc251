// Internal to storage/: the state behind Database, shared by its .cpp files.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "core/capacity.h"
#include "core/item.h"
#include "core/operations.h"
#include "core/schema.h"
#include "storage/database.h"
#include "storage/env.h"

namespace keyhole::storage {

// Catalog layout, in sub-database "__catalog":
//   "format"         -> "keyhole <version>"
//   "generation"     -> 8-byte big-endian counter, bumped by every schema change
//   "next_table_id"  -> 8-byte big-endian counter
//   "table/<name>"   -> the table's TableDescription as JSON (core/schema.h TableToJson)
//   "import/<id>"    -> a staged import in progress (import.cpp): "<pid>\n" then the names of
//                       its sub-databases, one per line (pid 0: sub-databases to drop)
// Sub-databases: "t<id>" for a table, "t<id>/<index>" for each of its indexes (<id> is the data
// id: DataId below), "t<id>#stream" for its stream records once a stream was enabled
// (storage/streams.cpp documents its layout).
// The catalog format this build reads and writes: 2 since tables may have a data id (a sorted
// import switched in, import.cpp). A new file is created as format 1 (which older builds read)
// and becomes 2 with its first data id.
constexpr int kFormatVersion = 2;
constexpr int kNewFileFormatVersion = 1;
constexpr char kCatalogDb[] = "__catalog";

// A table resolved for one operation: its schema and open sub-database handles. Valid while its
// catalog entry is unchanged: checked inside each transaction that uses it, cheaply by the
// catalog's generation, and when that moved (another table changed) by the entry's own bytes.
struct TableHandle {
  TableDescription desc;
  uint64_t generation = 0;  // the catalog generation it was resolved at
  // The id of the newest read snapshot in which this handle was found current (kNotVerified:
  // none). While the file's last committed transaction is still that one, nothing can have
  // changed the catalog, and the check of the generation is skipped. Only read transactions
  // record it: a write's id is not committed until it commits. A copy starts unverified.
  static constexpr uint64_t kNotVerified = ~uint64_t{0};
  struct VerifiedTxn : std::atomic<uint64_t> {
    VerifiedTxn() : std::atomic<uint64_t>(kNotVerified) {}
    VerifiedTxn(const VerifiedTxn&) : VerifiedTxn() {}
    VerifiedTxn& operator=(const VerifiedTxn&) {
      store(kNotVerified);
      return *this;
    }
  };
  mutable VerifiedTxn verified_txn;
  std::string catalog_entry;  // the "table/<name>" value it was resolved from
  MDB_dbi dbi = 0;
  std::vector<MDB_dbi> index_dbis;   // parallel to desc.indexes
  std::vector<MDB_dbi> vector_dbis;  // parallel to desc.vector_indexes
  // The stream sub-database, open when the table ever had a stream (a latest_stream_label).
  bool has_stream_db = false;
  MDB_dbi stream_dbi = 0;
  // Impl::clock (stream record times). Not owned.
  const std::function<double()>* clock = nullptr;
  // Options::item_collection_limit_bytes (tables with local secondary indexes).
  uint64_t collection_limit = uint64_t{10} << 30;
};

std::string TableDbName(uint64_t id);
std::string IndexDbName(uint64_t id, const std::string& index);
std::string StreamDbName(uint64_t id);  // "t<id>#stream"
// The id in the names of a table's and its indexes' sub-databases: its own, or the data id a
// staged import switched in (import.cpp). The stream's sub-database keeps the table's id.
inline uint64_t DataId(const TableDescription& t) { return t.data_id ? t.data_id : t.id; }

using TableMap = std::map<std::string, TableDescription>;

// Takes the next table id from the catalog's counter (tables.cpp).
Result<uint64_t> NextTableId(Txn& txn, MDB_dbi catalog);
// Deletes sub-database `dbi` and closes its handle (mdb_drop): a write in WriteMode::kExclusive,
// after which the caller forgets the name (Env::ForgetDbi).
Status Drop(Txn& txn, MDB_dbi dbi);

// Thread-safety: the catalog cache (generation, tables, handles) is guarded by cache_mutex;
// tokens by token_mutex. env is thread-safe (env.h); clock is replaced only by SetClock, which
// requires that no other call is in progress.
struct Database::Impl {
  std::unique_ptr<Env> env;
  MDB_dbi catalog = 0;
  std::function<double()> clock;
  const expr::ExpressionParser* parser = nullptr;
  uint64_t collection_limit = uint64_t{10} << 30;  // Options::item_collection_limit_bytes

  std::mutex cache_mutex;
  uint64_t generation = ~uint64_t{0};  // of `tables`; ~0: none loaded
  std::shared_ptr<const TableMap> tables = std::make_shared<const TableMap>();
  // Resolved tables; each checked against the catalog generation when used, and all dropped
  // when a newer catalog is loaded.
  std::map<std::string, std::shared_ptr<const TableHandle>, std::less<>> handles;

  // The tables as of `txn`'s snapshot: the cached map, reloaded first when the catalog
  // generation moved (another process or an earlier operation changed a schema). *gen, when
  // given, receives that generation.
  Result<std::shared_ptr<const TableMap>> Refresh(Txn& txn, uint64_t* gen = nullptr);
  Result<uint64_t> ReadGeneration(Txn& txn);
  Status BumpGeneration(Txn& txn);
  Status WriteTable(Txn& txn, const TableDescription& t);
  // Parses a request's expressions (none: an empty result).
  Result<expr::ParsedExpressions> ParseExpressions(const expr::ExpressionInput& input) const;

  // Resolves `name` to a handle with open sub-databases, outside any transaction.
  // ResourceNotFoundException "Requested resource not found" when the table does not exist.
  Result<std::shared_ptr<const TableHandle>> Resolve(const std::string& name);
  // The cached handle of `name` when the catalog still describes the table as it does (checked
  // in a short read transaction: StillCurrent), else Resolve(name).
  Result<std::shared_ptr<const TableHandle>> Current(const std::string& name);
  // The handle of `name` in the cache, or null.
  std::shared_ptr<const TableHandle> Cached(const std::string& name);
  // Whether `h` still describes its table in `txn`, whose catalog generation is `generation`:
  // the generation h was resolved at, or else the table's own catalog entry unchanged.
  Result<bool> StillCurrent(Txn& txn, const TableHandle& h, uint64_t generation);
  // Runs fn in a write (or read) transaction in which `table` is known to be current. The
  // common case is one transaction: the cached handle is used and the catalog generation read
  // inside the transaction confirms it; when the catalog changed, resolves again and retries.
  // `exclusive`: a write that drops sub-databases (Env::WriteMode::kExclusive).
  Status WithTable(const std::string& name, bool write,
                   FunctionRef<Status(Txn&, const TableHandle&)> fn, bool exclusive = false);
  // The same for several tables in ONE transaction (batches, transactions): `names` are
  // resolved in order (ResourceNotFoundException for the first missing one) and fn receives the
  // handles parallel to `names`.
  using Handles = std::span<const TableHandle* const>;
  Status WithTables(std::span<const std::string> names, bool write,
                    FunctionRef<Status(Txn&, const Handles&)> fn, bool exclusive = false);

  // ClientRequestToken idempotency of TransactWriteItems (transactions.cpp). Kept in memory,
  // per Database object (so per process): a token is remembered for 10 minutes after the
  // request that used it succeeded. A retry through another process, or after reopening the
  // file, runs as a new request.
  struct TokenEntry {
    std::string fingerprint;  // the request's canonical JSON, without ReturnConsumedCapacity
    double completed_at = 0;  // clock() seconds
    // What a replay reports: read units on the items the request wrote, per table.
    std::vector<ConsumedCapacity> replay_capacity;
  };
  // Held by a TransactWriteItems with a token from its check to its record, so that two
  // requests with one token never both run.
  std::mutex token_mutex;
  std::map<std::string, TokenEntry> tokens;
};

// ---- shared helpers (items.cpp) ----

// Validates a full primary key given as an item's key attributes (PutItem) or as a Key
// (GetItem/DeleteItem, `exact` = the key has no other attributes).
Status ValidateKey(const KeySchema& schema, const Item& key, bool exact);
Status ValidatePutKeys(const TableDescription& t, const Item& item);
// Whether an item that is InIndex has index key values within DynamoDB's key size limits
// (partition key at most 2048 bytes, sort key at most 1024).
bool IndexKeyWithinLimits(const IndexDescription& index, const Item& item);

// Applies the index maintenance of replacing `old_item` (nullptr: none) by `new_item`
// (nullptr: deleted) and adds the index writes to `cc` per DynamoDB's rules. `new_encoded`,
// when not empty, is EncodeItem(*new_item): an index projecting ALL stores those bytes as they
// are.
Status MaintainIndexes(Txn& txn, const TableHandle& h, const Item* old_item, const Item* new_item,
                       std::string_view new_encoded, ConsumedCapacity* cc);
// The index write units MaintainIndexes would add to `cc` for replacing `old_item` by
// `new_item` in a table described by `t`, writing nothing (bulk loads build indexes apart).
void AddIndexUnits(const TableDescription& t, const Item* old_item, const Item* new_item,
                   ConsumedCapacity* cc);

// ---- vector indexes (vectors.cpp) ----
// A vector index's sub-database is "t<id>/<index>" (IndexDbName: the name is unique among the
// table's indexes of every kind). It holds the vectors in blocks, packed, grouped by the HASH
// search attribute's value, and an entry record per item the index holds (InVectorIndex):
//   block key   := 'v' group u32be(number)     numbered from 0 within a group
//   block value := u32 count | count slots | count owners
//   slot        := f32 squared norm | f32 x Dimensions
//   owner       := u32 length, the entry key | u32 length, attrs
//   attrs       := for each SearchSchema attribute in order: u32 length (0xFFFFFFFF: absent)
//                  and value(v) (key_codec.h)
//   entry key   := 'e' group bounded(table key, 400)
//   entry value := u32 size | u32 block | u32 slot | EncodeItem(the attributes the index
//                  projects, but the vector)
// group is empty without a HASH attribute, else 16 bytes: two Hash64 seeds over value(HASH
// value). A search (which must name the HASH value) reads only its group's blocks, and keeps
// only slots whose stored HASH value equals its own (two values sharing a group are never
// mixed). Every block of a group but its last is full (about 128 KB of vectors,
// SlotsPerBlock): a new entry goes at the end of the last block, a removed one's place takes
// the group's last slot. So a search streams through contiguous vectors, and a write rewrites
// one or two blocks. `size` is the entry's DynamoDB size as the index projects it, its vector
// counted at 4 bytes an element (IndexSizeBytes, and VectorWriteRequestBytes when written).
// Integers and floats are in the machine's byte order, as LMDB's own pages are.
constexpr size_t kVectorTableKeyBound = 400;

// VectorWriteRequestBytes' floor, per index and write.
constexpr uint32_t kMinVectorWriteBytes = 1024;
// The size a write of `item` (of DynamoDB size `size`) is billed at in a table with vector
// indexes: each attribute a vector index reads counted as its name plus 4 bytes a dimension,
// whatever numbers it holds (the Parity Suite's vectorSearch/consumedCapacity.test.ts, eu-west-2
// and us-east-1, 2026-10-09). Reads and the 400 KB limit size the vector by its numbers.
size_t BilledItemSize(const TableDescription& t, const Item& item, size_t size);

// Applies the vector index maintenance of replacing `old_item` by `new_item` (either may be
// null) with `txn` (null: counting alone) to `dbis` (parallel to t.vector_indexes), and adds
// VectorWriteRequestBytes to cc->vector_indexes for each index whose entry changed.
Status ChangeVectorIndexes(Txn* txn, const std::vector<MDB_dbi>* dbis, const TableDescription& t,
                           const Item* old_item, const Item* new_item, ConsumedCapacity* cc);
// The same for one index (sub-database `dbi`) of a table keyed `table_key`, writing always
// (UpdateTable's backfill).
Status ChangeVectorIndex(Txn& txn, MDB_dbi dbi, const VectorIndexDescription& index,
                         const KeySchema& table_key, const Item* old_item, const Item* new_item);
// Fills `index`'s ItemCount and IndexSizeBytes from its sub-database.
Status VectorIndexStats(Txn& txn, MDB_dbi dbi, VectorIndexDescription* index);
// InternalServerError unless the sub-database holds exactly the entries of `held` (the items
// the index holds) in the layout above.
Status VerifyVectorIndex(Txn& txn, MDB_dbi dbi, const VectorIndexDescription& index,
                         const KeySchema& table_key, const std::vector<Item>& held);

// ---- one item write, usable inside any write transaction (items.cpp) ----
// PutItem, UpdateItem and DeleteItem run CheckWrite, EvaluateWrite and ApplyWrite in one
// transaction; BatchWriteItem and TransactWriteItems run them for many items (of several
// tables) in one transaction: every check and evaluation first, then every write.

enum class WriteKind { kPut, kUpdate, kDelete, kCheck };

// The item stored under a key, read inside a write transaction.
struct Current {
  std::string key;  // the stored key
  bool found = false;
  size_t size = 0;           // its DynamoDB size (0 when absent)
  std::optional<Item> item;  // decoded when asked for
};

struct ItemWrite {
  WriteKind kind = WriteKind::kPut;
  const TableHandle* table = nullptr;
  const Item* input = nullptr;  // Put: the item; the others: the key. Not owned.
  const expr::ParsedExpressions* parsed = nullptr;  // may be null: no expressions. Not owned.
  ReturnValues on_failure = ReturnValues::kNone;    // ReturnValuesOnConditionCheckFailure
  bool want_old = false;                            // decode the old item of a Put
  // The stream record of this write carries userIdentity {"Type": "Service", "PrincipalId":
  // "dynamodb.amazonaws.com"} (TTL deletions).
  bool service_deletion = false;
  // Filled by EvaluateWrite:
  Current cur;
  Item next;  // Update: the item to store (a Put stores *input: see NextItem)
  size_t next_size = 0;
  // ReturnItemCollectionMetrics=SIZE: ApplyWrite fills `metrics` when the table has local
  // secondary indexes.
  bool want_metrics = false;
  std::optional<ItemCollectionMetrics> metrics;
  // An Update whose actions are all REMOVE, on a missing item: DynamoDB creates nothing (no
  // item, no stream record, no Attributes) and charges 1 WCU, as for deleting a missing item.
  bool no_op = false;
  // UpdateItem with an UpdateExpression as text: also refused when its statement's charge
  // (expr::UpdateStatementCharge) passes 400 KB, before the condition is evaluated, where the
  // region sizes updates so (core/regional.h). PartiQL's UPDATE, the legacy AttributeUpdates and
  // a transaction's Update size the finished item only, as DynamoDB does.
  bool statement_sized = false;
};

// The item a Put or Update stores (after EvaluateWrite).
inline const Item& NextItem(const ItemWrite& w) {
  return w.kind == WriteKind::kPut ? *w.input : w.next;
}

// What the table's schema decides without reading data. Put: key attributes, index keys and
// the 400 KB limit (with LSI projections); others: the Key against the key schema, and an
// UpdateExpression that would touch a key attribute. ValidationException.
Status CheckWrite(const ItemWrite& w);
// Reads the current item and checks the condition (ConditionalCheckFailedException "The
// conditional request failed", carrying the item with on_failure ALL_OLD); an Update computes
// its new item (ValidationException when the update cannot apply to this item, or the result is
// too large or has a bad index key). Writes nothing.
Status EvaluateWrite(Txn& txn, ItemWrite* w);
// Writes the result of EvaluateWrite (the item, or its deletion, and its index entries) and adds
// the units to *cc (cc->table_name is set by the caller). A ConditionCheck writes nothing and is
// charged as a write of the item it read (minimum 1).
Status ApplyWrite(Txn& txn, ItemWrite& w, ConsumedCapacity* cc);

// ---- item collections of tables with local secondary indexes (collections.cpp) ----
bool HasLocalIndexes(const TableDescription& t);
// The DynamoDB size of the collection of partition key `pk`: its items and their LSI entries.
Result<uint64_t> CollectionBytes(Txn& txn, const TableHandle& h, const AttributeValue& pk);
// Whether any collection of the table could be past TableHandle::collection_limit: false when
// the table's and its LSIs' pages (one mdb_stat each) are under it, which is the common case.
bool CollectionsMayPassLimit(Txn& txn, const TableHandle& h);
// ItemCollectionSizeLimitExceededException when the collection of `pk` is past
// TableHandle::collection_limit (reads the whole collection).
Status CheckCollectionLimit(Txn& txn, const TableHandle& h, const AttributeValue& pk);
// The ItemCollectionMetrics DynamoDB returns for a write to the collection of `pk`.
Result<ItemCollectionMetrics> CollectionMetrics(Txn& txn, const TableHandle& h,
                                                const AttributeValue& pk);

// Parses a request's expressions and checks condition and projection statically.
Result<expr::ParsedExpressions> ParseWithCondition(const Database::Impl& impl,
                                                   const expr::ExpressionInput& in);
// ReturnValuesOnConditionCheckFailure must be NONE or ALL_OLD.
Status OnFailureNoneOrAllOld(ReturnValues rv);
// The item under `key` (validated), read in any transaction; nullopt when absent. *size is its
// DynamoDB size (0 when absent).
Result<std::optional<Item>> ReadItem(Txn& txn, const TableHandle& h, const Item& key, size_t* size);

// ---- streams (streams.cpp) ----

// Appends the stream record of replacing `old_item` (nullptr: none) by `new_item` (nullptr:
// deleted) when the table's stream is enabled; nothing when the item did not change. Also trims
// a bounded number of records older than 24 hours. Called by ApplyWrite, in its transaction.
Status WriteStreamRecord(Txn& txn, const TableHandle& h, const Item* old_item, const Item* new_item,
                         bool service_deletion);
// Validates a StreamSpecification that needs no table (ValidationException).
Status CheckStreamSpecification(const StreamSpecification& spec);
// Applies CreateTable's or UpdateTable's SSESpecification to `t` (tables.cpp), with DynamoDB's
// messages for SSEType or KMSMasterKeyId given with Enabled false and for SSEType AES256.
Status ApplySse(const SSESpecification& spec, TableDescription* t);
// Applies an enable or disable to `t` (id assigned) inside the write transaction: creates the
// stream sub-database and the stream's entry, or closes the open stream.
Status ApplyStreamSpecification(Database::Impl& impl, Txn& txn, const StreamSpecification& spec,
                                TableDescription* t);

// ---- capacity (capacity.cpp; the unit rules are core/capacity.h's) ----
using keyhole::ReadUnits;
using keyhole::WriteUnits;
// Keeps only what ReturnConsumedCapacity asked for; nullopt for NONE.
std::optional<ConsumedCapacity> Report(ReturnConsumedCapacity rcc, ConsumedCapacity cc);
// Multiplies every figure of `cc` (transactions cost double).
void ScaleCapacity(double factor, ConsumedCapacity* cc);
// Report() for each table's entry, in table-name order; empty for NONE.
std::vector<ConsumedCapacity> ReportAll(ReturnConsumedCapacity rcc,
                                        std::map<std::string, ConsumedCapacity> per_table);

}  // namespace keyhole::storage
