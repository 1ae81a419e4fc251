// What one write of a TransactWriteItems acts on (see transact_target.h).
#include "core/transact_target.h"

namespace keyhole {

std::optional<TransactTarget> TargetOf(const TransactWriteItem& w, Backend& backend) {
  if (w.put) {
    Result<TableSchemaPtr> schema = backend.TableSchema(w.put->table_name);
    if (!schema.ok()) return std::nullopt;
    TransactTarget target{w.put->table_name, {}};
    for (const KeyAttribute* a : (*schema)->key.Attributes()) {
      auto it = w.put->item.find(a->name);
      if (it == w.put->item.end()) return std::nullopt;
      target.key.emplace(a->name, it->second);
    }
    return target;
  }
  if (w.update) return TransactTarget{w.update->table_name, w.update->key};
  if (w.delete_) return TransactTarget{w.delete_->table_name, w.delete_->key};
  if (w.condition_check)
    return TransactTarget{w.condition_check->table_name, w.condition_check->key};
  return std::nullopt;
}

}  // namespace keyhole
