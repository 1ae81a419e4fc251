// Internal to storage/: the state behind Database, shared by its .cpp files.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

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
// Sub-databases: "t<id>" for a table, "t<id>/<index>" for each of its indexes.
constexpr int kFormatVersion = 1;
constexpr char kCatalogDb[] = "__catalog";

// A table resolved for one operation: its schema and open sub-database handles.
struct TableHandle {
  TableDescription desc;
  MDB_dbi dbi = 0;
  std::vector<MDB_dbi> index_dbis;  // parallel to desc.indexes
};

std::string TableDbName(uint64_t id);
std::string IndexDbName(uint64_t id, const std::string& index);

struct Database::Impl {
  std::unique_ptr<Env> env;
  MDB_dbi catalog = 0;
  std::function<double()> clock;
  const expr::ExpressionParser* parser = nullptr;
  uint64_t generation = ~uint64_t{0};
  std::map<std::string, TableDescription> tables;
  // Resolved tables, valid for `generation`; cleared whenever the catalog is reloaded.
  std::map<std::string, std::shared_ptr<const TableHandle>, std::less<>> handles;

  // Reloads the table cache when the catalog generation moved (another process or an
  // earlier operation changed a schema).
  Status Refresh(Txn& txn);
  Result<uint64_t> ReadGeneration(Txn& txn);
  Status BumpGeneration(Txn& txn);
  Status WriteTable(Txn& txn, const TableDescription& t);
  // Parses a request's expressions (none: an empty result).
  Result<expr::ParsedExpressions> ParseExpressions(const expr::ExpressionInput& input) const;

  // Resolves `name` to a handle with open sub-databases, outside any transaction.
  // ResourceNotFoundException "Requested resource not found" when the table does not exist.
  Result<std::shared_ptr<const TableHandle>> Resolve(const std::string& name);
  // Runs fn in a write (or read) transaction in which `table` is known to be current. The
  // common case is one transaction: the cached handle is used and the catalog generation read
  // inside the transaction confirms it; when the catalog changed, resolves again and retries.
  Status WithTable(const std::string& name, bool write,
                   const std::function<Status(Txn&, const TableHandle&)>& fn);
};

// ---- shared helpers (items.cpp) ----

// Validates a full primary key given as an item's key attributes (PutItem) or as a Key
// (GetItem/DeleteItem, `exact` = the key has no other attributes).
Status ValidateKey(const KeySchema& schema, const Item& key, bool exact);
Status ValidatePutKeys(const TableDescription& t, const Item& item);
// The primary key attributes of `item`.
Item ExtractKey(const KeySchema& schema, const Item& item);
// Whether `item` has all key attributes of `index` (sparse indexes).
bool InIndex(const IndexDescription& index, const Item& item);
// The attributes of `item` an index entry holds.
Item ProjectItem(const IndexDescription& index, const KeySchema& table_key, const Item& item);

// Applies the index maintenance of replacing `old_item` (nullptr: none) by `new_item`
// (nullptr: deleted) and adds the index writes to `cc` per DynamoDB's rules.
Status MaintainIndexes(Txn& txn, const TableHandle& h, const Item* old_item, const Item* new_item,
                       ConsumedCapacity* cc);

// ---- capacity (capacity.cpp) ----
double ReadUnits(size_t bytes, bool consistent);  // ceil(bytes/4K) × (1 | 0.5), minimum 1 unit
double WriteUnits(size_t bytes);                  // ceil(bytes/1K), minimum 1
// Keeps only what ReturnConsumedCapacity asked for; nullopt for NONE.
std::optional<ConsumedCapacity> Report(ReturnConsumedCapacity rcc, ConsumedCapacity cc);

}  // namespace keyhole::storage
