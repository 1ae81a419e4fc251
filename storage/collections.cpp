// Item collections of tables with local secondary indexes (reference §4.4): their size, for
// ReturnItemCollectionMetrics=SIZE and for the item collection limit.
#include <lmdb.h>

#include <cmath>

#include "core/item.h"
#include "core/item_codec.h"
#include "storage/engine.h"
#include "storage/key_codec.h"

namespace keyhole::storage {
namespace {

// The DynamoDB sizes (kept in each entry's header) of the entries of `dbi` under `prefix`.
Result<uint64_t> SumUnder(Txn& txn, MDB_dbi dbi, const std::string& prefix) {
  uint64_t total = 0;
  Cursor c(&txn, dbi);
  for (bool ok = c.Seek(prefix); ok && c.key().starts_with(prefix); ok = c.Next()) {
    total += EncodedItemSize(c.value());
  }
  KH_RETURN_IF_ERROR(c.status());
  return total;
}

// The bytes of `dbi`'s pages: more than the DynamoDB size of everything it holds.
uint64_t PagesBytes(Txn& txn, MDB_dbi dbi) {
  MDB_stat st;
  if (mdb_stat(txn.get(), dbi, &st) != 0) return ~uint64_t{0};
  return (uint64_t{st.ms_branch_pages} + st.ms_leaf_pages + st.ms_overflow_pages) * st.ms_psize;
}

}  // namespace

bool HasLocalIndexes(const TableDescription& t) {
  for (const auto& idx : t.indexes) {
    if (idx.kind == IndexKind::kLocal) return true;
  }
  return false;
}

Result<uint64_t> CollectionBytes(Txn& txn, const TableHandle& h, const AttributeValue& pk) {
  KH_ASSIGN_OR_RETURN(uint64_t total,
                      SumUnder(txn, h.dbi, PartitionPrefix(pk, kTablePartitionBound)));
  const std::string index_prefix = PartitionPrefix(pk, kIndexPartitionBound);
  for (size_t i = 0; i < h.desc.indexes.size(); ++i) {
    if (h.desc.indexes[i].kind != IndexKind::kLocal) continue;
    KH_ASSIGN_OR_RETURN(uint64_t part, SumUnder(txn, h.index_dbis[i], index_prefix));
    total += part;
  }
  return total;
}

bool CollectionsMayPassLimit(Txn& txn, const TableHandle& h) {
  // The table's and its local indexes' pages bound every collection from above.
  uint64_t bound = PagesBytes(txn, h.dbi);
  for (size_t i = 0; i < h.desc.indexes.size(); ++i) {
    if (h.desc.indexes[i].kind == IndexKind::kLocal) bound += PagesBytes(txn, h.index_dbis[i]);
  }
  return bound >= h.collection_limit;
}

Status CheckCollectionLimit(Txn& txn, const TableHandle& h, const AttributeValue& pk) {
  KH_ASSIGN_OR_RETURN(uint64_t bytes, CollectionBytes(txn, h, pk));
  if (bytes <= h.collection_limit) return Status::OK();
  // The API reference's text for the exception (its wording on the wire is not recorded).
  return Status(ErrorCode::kItemCollectionSizeLimit,
                "The total size of an item collection has exceeded the maximum limit of 10 "
                "gigabytes");
}

Result<ItemCollectionMetrics> CollectionMetrics(Txn& txn, const TableHandle& h,
                                                const AttributeValue& pk) {
  KH_ASSIGN_OR_RETURN(uint64_t bytes, CollectionBytes(txn, h, pk));
  ItemCollectionMetrics m;
  m.item_collection_key[h.desc.key.partition.name] = pk;
  // A range around the size in GB: its whole gigabytes and one more ([0.0, 1.0] for any
  // collection under 1 GB), as DynamoDB reports small collections.
  const double gb = std::floor(static_cast<double>(bytes) / double(uint64_t{1} << 30));
  m.size_estimate_lower_gb = gb;
  m.size_estimate_upper_gb = gb + 1;
  return m;
}

}  // namespace keyhole::storage
