// DynamoDB's capacity unit rules (reference §5), in one place for the engine that charges them
// and the front ends that estimate them (EXPLAIN).
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <string_view>

#include "core/operations.h"

namespace keyhole {

// Read units for `bytes` read at once: ceil(bytes / 4 KB), at least 1, halved when eventually
// consistent (so 0.5 is the least an eventually consistent read costs).
double ReadUnits(size_t bytes, bool consistent);

// Write units for an item of `bytes`: ceil(bytes / 1 KB), at least 1.
double WriteUnits(size_t bytes);

// Adds `consumed` (one response's ConsumedCapacity) to `units`, per table and index: "T" for
// the table, "T.I" for each index, each with its read and write units. Without the per-index
// breakdown (ReturnConsumedCapacity TOTAL) all of it counts on the table; a capacity without
// per-kind figures (an endpoint's CapacityUnits alone) counts as reads or, when `write`,
// writes.
void AddUnitsByTarget(const ConsumedCapacity& consumed, bool write,
                      std::map<std::string, Capacity>* units);

// Capacity units and their unit, "1077433 WCU", "0.5 RCU": whole and half units (what
// DynamoDB charges) exactly, at any size; anything else as {:g} prints it.
std::string CapacityText(double units, std::string_view unit);

}  // namespace keyhole
