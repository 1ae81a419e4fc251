// Stable hashes for the on-disk key layout.
//
// DO NOT CHANGE: these values are part of the file format (partition order, parallel-scan
// segments, long-key digests). They are deterministic across platforms (little-endian loads
// done bytewise) and processes.
#pragma once

#include <cstdint>
#include <string_view>

namespace keyhole::storage {

// 64-bit hash of `data` with `seed`.
uint64_t Hash64(std::string_view data, uint64_t seed = 0);

}  // namespace keyhole::storage
