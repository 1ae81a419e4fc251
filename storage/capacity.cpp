// What ReturnConsumedCapacity reports (reference §5); the unit rules are core/capacity.h's.
#include <cmath>

#include "storage/engine.h"

namespace keyhole::storage {

std::optional<ConsumedCapacity> Report(ReturnConsumedCapacity rcc, ConsumedCapacity cc) {
  if (rcc == ReturnConsumedCapacity::kNone) return std::nullopt;
  Capacity total = cc.table;
  for (const auto* m : {&cc.global_indexes, &cc.local_indexes}) {
    for (const auto& [name, c] : *m) {
      total.AddRead(c.read_units);
      total.AddWrite(c.write_units);
    }
  }
  cc.total = total;
  if (rcc == ReturnConsumedCapacity::kTotal) {
    cc.table = Capacity();
    cc.global_indexes.clear();
    cc.local_indexes.clear();
    cc.vector_indexes.clear();
  }
  return cc;
}

void ScaleCapacity(double factor, ConsumedCapacity* cc) {
  auto scale = [factor](Capacity* c) {
    c->capacity_units *= factor;
    c->read_units *= factor;
    c->write_units *= factor;
  };
  scale(&cc->total);
  scale(&cc->table);
  for (auto* m : {&cc->global_indexes, &cc->local_indexes}) {
    for (auto& [name, c] : *m) scale(&c);
  }
}

std::vector<ConsumedCapacity> ReportAll(ReturnConsumedCapacity rcc,
                                        std::map<std::string, ConsumedCapacity> per_table) {
  std::vector<ConsumedCapacity> out;
  for (auto& [name, cc] : per_table) {
    cc.table_name = name;
    if (std::optional<ConsumedCapacity> r = Report(rcc, std::move(cc)))
      out.push_back(std::move(*r));
  }
  return out;
}

}  // namespace keyhole::storage
