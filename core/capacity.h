// DynamoDB's capacity unit rules (reference §5), in one place for the engine that charges them
// and the front ends that estimate them (EXPLAIN).
#pragma once

#include <cstddef>

namespace keyhole {

// Read units for `bytes` read at once: ceil(bytes / 4 KB), at least 1, halved when eventually
// consistent (so 0.5 is the least an eventually consistent read costs).
double ReadUnits(size_t bytes, bool consistent);

// Write units for an item of `bytes`: ceil(bytes / 1 KB), at least 1.
double WriteUnits(size_t bytes);

}  // namespace keyhole
