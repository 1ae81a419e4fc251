#include "core/capacity.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace keyhole {

double ReadUnits(size_t bytes, bool consistent) {
  double blocks = std::max<double>(1, std::ceil(static_cast<double>(bytes) / 4096.0));
  return blocks * (consistent ? 1.0 : 0.5);
}

double WriteUnits(size_t bytes) {
  return std::max<double>(1, std::ceil(static_cast<double>(bytes) / 1024.0));
}

namespace {

Capacity ByKind(const Capacity& c, bool write) {
  if (c.read_units + c.write_units > 0 || c.capacity_units == 0) return c;
  Capacity out;
  write ? out.AddWrite(c.capacity_units) : out.AddRead(c.capacity_units);
  return out;
}

void Add(Capacity& into, const Capacity& c) {
  into.capacity_units += c.capacity_units;
  into.read_units += c.read_units;
  into.write_units += c.write_units;
}

}  // namespace

void AddUnitsByTarget(const ConsumedCapacity& consumed, bool write,
                      std::map<std::string, Capacity>* units) {
  const std::string& t = consumed.table_name;
  const bool breakdown = consumed.table.capacity_units > 0 || !consumed.global_indexes.empty() ||
                         !consumed.local_indexes.empty();
  const Capacity& table = breakdown ? consumed.table : consumed.total;
  if (table.capacity_units > 0) Add((*units)[t], ByKind(table, write));
  for (const auto* indexes : {&consumed.global_indexes, &consumed.local_indexes}) {
    for (const auto& [name, c] : *indexes) Add((*units)[t + "." + name], ByKind(c, write));
  }
}

std::string CapacityText(double units, std::string_view unit) {
  const double twice = units * 2;
  if (twice >= 0 && twice < 9e15 && twice == static_cast<double>(static_cast<int64_t>(twice))) {
    // Whole and half units (nearly every footer), without the formatter.
    const auto t = static_cast<int64_t>(twice);
    const fmt::format_int whole(t / 2);
    std::string out;
    out.reserve(whole.size() + 3 + unit.size());
    out.append(whole.data(), whole.size());
    if (t % 2 != 0) out.append(".5");
    out.push_back(' ');
    out.append(unit);
    return out;
  }
  return fmt::format("{:g} {}", units, unit);
}

}  // namespace keyhole
