#include "storage/hash.h"

namespace keyhole::storage {

namespace {

// The 64-bit finalizer of MurmurHash3: every input bit affects every output bit.
uint64_t Mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

uint64_t Load64(const unsigned char* p, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i) v |= static_cast<uint64_t>(p[i]) << (8 * i);
  return v;
}

}  // namespace

uint64_t Hash64(std::string_view data, uint64_t seed) {
  const auto* p = reinterpret_cast<const unsigned char*>(data.data());
  size_t n = data.size();
  uint64_t h = Mix(seed ^ (0x9e3779b97f4a7c15ULL * (n + 1)));
  while (n >= 8) {
    h = Mix(h ^ Load64(p, 8)) * 0x9e3779b97f4a7c15ULL;
    p += 8;
    n -= 8;
  }
  if (n) h = Mix(h ^ Load64(p, n) ^ (static_cast<uint64_t>(n) << 59)) * 0x9e3779b97f4a7c15ULL;
  return Mix(h);
}

}  // namespace keyhole::storage
