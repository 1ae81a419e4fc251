#include "core/capacity.h"

#include <algorithm>
#include <cmath>

namespace keyhole {

double ReadUnits(size_t bytes, bool consistent) {
  double blocks = std::max<double>(1, std::ceil(static_cast<double>(bytes) / 4096.0));
  return blocks * (consistent ? 1.0 : 0.5);
}

double WriteUnits(size_t bytes) {
  return std::max<double>(1, std::ceil(static_cast<double>(bytes) / 1024.0));
}

}  // namespace keyhole
