// Database::ImportItems: many Puts in ONE write transaction (the shell's .import).
#include <fmt/format.h>

#include "storage/engine.h"

namespace keyhole::storage {

Result<ImportResult> Database::ImportItems(const std::string& table_name,
                                           const ImportSource& source,
                                           const std::atomic<bool>* cancel) {
  KH_RETURN_IF_ERROR(ValidateTableName(table_name));
  if (Result<TableSchemaPtr> t = TableSchema(table_name); t.ok() && source.expected_bytes) {
    // Room for the items, their index entries and half-full B-tree pages: growing the map
    // mid-import would start the transaction over.
    KH_RETURN_IF_ERROR(impl_->env->Reserve(source.expected_bytes * 2 * (1 + (*t)->indexes.size())));
  }
  const expr::ParsedExpressions none;
  ImportResult out;
  KH_RETURN_IF_ERROR(impl_->WithTable(table_name, true, [&](Txn& txn, const TableHandle& h) {
    // Each attempt starts from the first item (a transaction that fills the map is retried).
    KH_RETURN_IF_ERROR(source.rewind());
    out = ImportResult();
    ConsumedCapacity cc;
    cc.table_name = h.desc.name;
    std::vector<Item> batch;
    for (;;) {
      batch.clear();
      KH_ASSIGN_OR_RETURN(bool more, source.next(&batch));
      if (!more) break;
      for (const Item& item : batch) {
        if (cancel && cancel->load(std::memory_order_relaxed)) {
          return Status(
              ErrorCode::kInterrupted,
              fmt::format("Interrupted after {} items: nothing was imported", out.written));
        }
        ItemWrite w{WriteKind::kPut, &h, &item, &none, ReturnValues::kNone, false};
        Status st = ValidateItem(item);
        if (st.ok()) st = CheckWrite(w);
        if (st.ok()) st = EvaluateWrite(txn, &w);
        if (st.ok()) st = ApplyWrite(txn, w, &cc);
        if (!st.ok()) {
          if (source.refused && !txn.map_full()) source.refused(out.written);
          return st;
        }
        ++out.written;
      }
    }
    out.write_units = Report(ReturnConsumedCapacity::kTotal, std::move(cc))->total.capacity_units;
    return Status::OK();
  }));
  return out;
}

}  // namespace keyhole::storage
