// Content codings of HTTP bodies (zlib): what the server inflates of a compressed request and
// the client of a compressed answer (remote/), in one place.
//
// Thread-safety: free functions without shared state.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace keyhole::aws {

// Inflates a gzip body (several members, one after another, read whole: RFC 1952 §2.2) or a
// zlib one, told apart by their headers, or a raw deflate body when `raw_deflate`, into *out,
// at most `limit` bytes. False when it is not valid or is cut short; *too_large (false
// otherwise) when it inflates past the limit.
bool Inflate(std::string_view in, bool raw_deflate, size_t limit, std::string* out,
             bool* too_large);

}  // namespace keyhole::aws
