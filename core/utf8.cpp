// UTF-8 text (see utf8.h).
#include "core/utf8.h"

#include <cstdint>
#include <cstring>

namespace keyhole::utf8 {

std::optional<size_t> FindInvalid(std::string_view s) {
  constexpr uint64_t kHighBits = 0x8080808080808080ULL;
  for (size_t i = 0; i < s.size();) {
    if (s.size() - i >= 8) {
      uint64_t word;
      std::memcpy(&word, s.data() + i, 8);
      if ((word & kHighBits) == 0) {  // eight ASCII bytes
        i += 8;
        continue;
      }
    }
    const size_t n = SequenceLength(s.substr(i));
    if (n == 0) return i;
    i += n;
  }
  return std::nullopt;
}

char32_t Next(std::string_view s, size_t* i) {
  const auto lead = static_cast<unsigned char>(s[*i]);
  const size_t n = lead < 0x80 ? 1 : SequenceLength(s.substr(*i));
  if (n <= 1) {
    ++*i;
    return lead;
  }
  char32_t cp = lead & (0xFF >> (n + 1));
  for (size_t k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[*i + k]) & 0x3F);
  *i += n;
  return cp;
}

void Append(char32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

size_t CountCharacters(std::string_view s) {
  size_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

size_t Boundary(std::string_view s, size_t max) {
  if (max >= s.size()) return s.size();
  while (max > 0 && (static_cast<unsigned char>(s[max]) & 0xC0) == 0x80) --max;
  return max;
}

int CodePointWidth(char32_t cp) {
  if ((cp >= 0x0300 && cp <= 0x036F) || (cp >= 0x200B && cp <= 0x200F) ||
      (cp >= 0xFE00 && cp <= 0xFE0F)) {
    return 0;  // combining marks, zero-width spaces and joiners, variation selectors
  }
  if ((cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF && cp != 0x303F) ||
      (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) ||
      (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) ||
      (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x1F300 && cp <= 0x1F64F) ||
      (cp >= 0x1F900 && cp <= 0x1F9FF) || (cp >= 0x20000 && cp <= 0x3FFFD)) {
    return 2;
  }
  return 1;
}

size_t TextWidth(std::string_view s) {
  size_t width = 0;
  for (size_t i = 0; i < s.size();) width += CodePointWidth(Next(s, &i));
  return width;
}

std::string CutToWidth(std::string s, size_t max) {
  if (max == 0 || TextWidth(s) <= max) return s;
  size_t width = 0, i = 0;
  while (i < s.size()) {
    size_t next = i;
    width += CodePointWidth(Next(s, &next));
    if (width > max - 1) break;
    i = next;
  }
  s.resize(i);
  return s + "…";
}

}  // namespace keyhole::utf8
