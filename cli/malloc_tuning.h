// Process-wide allocator settings for keyhole's executables.
#pragma once

#include <malloc.h>

namespace keyhole {

// A 1 MB Query/Scan page decodes into several MB of short-lived Items. glibc returns freed
// memory at the top of the heap to the kernel (trim) and then faults it back in for the next
// page; profiles showed a quarter of Scan time in those page faults. Keep up to 256 MB.
inline void TuneMalloc() {
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
  mallopt(M_TOP_PAD, 16 << 20);
}

}  // namespace keyhole
