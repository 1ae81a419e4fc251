// ReadWholeFile (file.h).
#include "core/file.h"

#include <cerrno>
#include <cstdio>

namespace keyhole {

bool ReadWholeFile(const std::string& path, std::string* text) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  text->clear();
  char buf[1 << 16];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) text->append(buf, n);
  const int error = std::ferror(f) ? errno : 0;
  std::fclose(f);
  if (error) {
    errno = error;
    return false;
  }
  return true;
}

}  // namespace keyhole
