// Database::ImportItems: many Puts in ONE write transaction (the shell's .import).
#include <fmt/format.h>

#include "storage/engine.h"

namespace keyhole::storage {

Result<ImportResult> Database::ImportItems(const std::string& table_name,
                                           const std::vector<Item>& items,
                                           const std::atomic<bool>* cancel) {
  KH_RETURN_IF_ERROR(ValidateTableName(table_name));
  for (const Item& item : items) KH_RETURN_IF_ERROR(ValidateItem(item));
  const expr::ParsedExpressions none;
  ImportResult out;
  KH_RETURN_IF_ERROR(impl_->WithTable(table_name, true, [&](Txn& txn, const TableHandle& h) {
    out = ImportResult();
    ConsumedCapacity cc;
    cc.table_name = h.desc.name;
    for (const Item& item : items) {
      if (cancel && cancel->load(std::memory_order_relaxed)) {
        return Status(ErrorCode::kInterrupted,
                      fmt::format("Interrupted after {} of {} items: nothing was imported",
                                  out.written, items.size()));
      }
      ItemWrite w{WriteKind::kPut, &h, &item, &none, ReturnValues::kNone, false};
      KH_RETURN_IF_ERROR(CheckWrite(w));
      KH_RETURN_IF_ERROR(EvaluateWrite(txn, &w));
      KH_RETURN_IF_ERROR(ApplyWrite(txn, w, &cc));
      ++out.written;
    }
    out.write_units = Report(ReturnConsumedCapacity::kTotal, std::move(cc))->total.capacity_units;
    return Status::OK();
  }));
  return out;
}

}  // namespace keyhole::storage
