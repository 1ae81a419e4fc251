// Content codings (content_coding.h) on zlib.
#include "aws/content_coding.h"

#include <zlib.h>

namespace keyhole::aws {

bool Inflate(std::string_view in, bool raw_deflate, size_t limit, std::string* out,
             bool* too_large) {
  *too_large = false;
  z_stream z{};
  if (inflateInit2(&z, raw_deflate ? -MAX_WBITS : MAX_WBITS + 32) != Z_OK) return false;
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  char buffer[65536];
  int rc = Z_OK;
  while (rc == Z_OK) {
    z.next_out = reinterpret_cast<Bytef*>(buffer);
    z.avail_out = sizeof buffer;
    rc = inflate(&z, Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END) break;
    out->append(buffer, sizeof buffer - z.avail_out);
    if (out->size() > limit) {
      *too_large = true;
      break;
    }
    if (rc == Z_STREAM_END && !raw_deflate && z.avail_in > 0) {  // the next gzip member
      if (inflateReset(&z) != Z_OK) break;
      rc = Z_OK;
      continue;
    }
    if (rc == Z_OK && z.avail_in == 0 && z.avail_out != 0) break;  // truncated input
  }
  inflateEnd(&z);
  return rc == Z_STREAM_END && !*too_large;
}

}  // namespace keyhole::aws
