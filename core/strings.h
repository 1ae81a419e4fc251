// Small text helpers every layer shares, so that each file does not write its own: ASCII case
// (bytes outside A-Z and a-z are kept as they are, whatever the locale) and blanks trimmed.
// Header-only; thread-safe (no state).
#pragma once

#include <string>
#include <string_view>

namespace keyhole {

// `s` with A-Z as a-z.
inline std::string AsciiLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

// `s` with a-z as A-Z.
inline std::string AsciiUpper(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return out;
}

// Whether `a` and `b` are equal but for the case of A-Z.
inline bool AsciiEqualIgnoringCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

// Whether `s` begins with `prefix` but for the case of A-Z.
inline bool AsciiStartsWithIgnoringCase(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && AsciiEqualIgnoringCase(s.substr(0, prefix.size()), prefix);
}

// The blanks of C's isspace in the "C" locale.
inline constexpr std::string_view kBlanks = " \t\n\r\f\v";

// `s` without the bytes of `front` at its start and of `back` at its end (a view into `s`).
inline std::string_view Trim(std::string_view s, std::string_view front = kBlanks,
                             std::string_view back = kBlanks) {
  const size_t b = s.find_first_not_of(front);
  if (b == std::string_view::npos) return {};
  s.remove_prefix(b);
  return s.substr(0, s.find_last_not_of(back) + 1);
}

}  // namespace keyhole
