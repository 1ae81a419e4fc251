// Capacity unit math (reference §5).
#include <cmath>

#include "storage/engine.h"

namespace keyhole::storage {

double ReadUnits(size_t bytes, bool consistent) {
  double blocks = std::max<double>(1, std::ceil(static_cast<double>(bytes) / 4096.0));
  return blocks * (consistent ? 1.0 : 0.5);
}

double WriteUnits(size_t bytes) {
  return std::max<double>(1, std::ceil(static_cast<double>(bytes) / 1024.0));
}

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
