// UTF-8 text, one decoder for every layer. "Well-formed" is RFC 3629's (Unicode Table 3-7): no
// overlong forms, no surrogates, nothing above U+10FFFF. Display widths are terminal columns,
// an approximation of wcwidth() that needs no locale: East Asian wide and fullwidth characters
// (CJK, Hangul, fullwidth forms, most emoji) take 2, combining marks and zero-width characters 0,
// every other code point (and every byte that is not UTF-8) 1.
// Thread-safe (no state).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace keyhole::utf8 {

// The length (1..4) of the well-formed sequence at the start of `s`; 0 when `s` is empty or
// does not start with one (a continuation byte, C0, C1, F5..FF, a cut or malformed sequence).
inline size_t SequenceLength(std::string_view s) {
  if (s.empty()) return 0;
  const auto b = [&](size_t i) { return static_cast<unsigned char>(s[i]); };
  const auto cont = [&](size_t i) { return i < s.size() && (b(i) & 0xC0) == 0x80; };
  const unsigned char c = b(0);
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    if (!cont(1) || !cont(2)) return 0;
    if ((c == 0xE0 && b(1) < 0xA0) || (c == 0xED && b(1) > 0x9F)) return 0;  // overlong, surrogate
    return 3;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    if (!cont(1) || !cont(2) || !cont(3)) return 0;
    if ((c == 0xF0 && b(1) < 0x90) || (c == 0xF4 && b(1) > 0x8F)) return 0;  // overlong, > U+10FFFF
    return 4;
  }
  return 0;
}

// The offset of the first byte of `s` that does not begin a well-formed sequence (where the
// first malformed one starts); nullopt when all of `s` is UTF-8. Eight ASCII bytes at a time.
std::optional<size_t> FindInvalid(std::string_view s);
inline bool IsValid(std::string_view s) { return !FindInvalid(s).has_value(); }

// The code point at s[*i], advancing *i past it. A byte that does not begin a well-formed
// sequence reads as itself (U+0000..U+00FF) and advances by one, so every byte is read once.
// REQUIRES: *i < s.size().
char32_t Next(std::string_view s, size_t* i);

// Appends `cp` in UTF-8. REQUIRES: cp <= U+10FFFF.
void Append(char32_t cp, std::string* out);

// The characters of `s`: bytes that do not continue a sequence (for well-formed text, its code
// points).
size_t CountCharacters(std::string_view s);

// The longest prefix length <= `max` that does not end inside a character (s.size() when
// max >= s.size()): where to cut `s` to at most `max` bytes.
size_t Boundary(std::string_view s, size_t max);

// The columns one code point takes on a terminal: 0, 1 or 2.
int CodePointWidth(char32_t cp);
// The columns `s` takes on a terminal.
size_t TextWidth(std::string_view s);
// `s` cut to at most `max` columns, ending with "…" when it was cut (0: never cut).
std::string CutToWidth(std::string s, size_t max);

}  // namespace keyhole::utf8
