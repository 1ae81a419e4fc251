// Reading a whole file, for every layer that takes one in (scripts, AWS config files, export
// folders).
//
// Thread-safety: a pure function (errno is per thread).
#pragma once

#include <string>

namespace keyhole {

// Reads the whole file at `path` into *text. False with errno set (ENOENT, EACCES, EISDIR, ...)
// when it cannot.
bool ReadWholeFile(const std::string& path, std::string* text);

}  // namespace keyhole
