// Capacity unit math (reference §5).
#include <cmath>

#include "storage/engine.h"

namespace keyhole::storage {

double ReadUnits(size_t bytes, bool consistent) {
  double blocks = std::max<double>(1, std::ceil(static_cast<double>(bytes) / 4096.0));
  return blocks * (consistent ? 1.0 : 0.5);
}

double WriteUnits(size_t bytes) { return std::max<double>(1, std::ceil(static_cast<double>(bytes) / 1024.0)); }

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

}  // namespace keyhole::storage
