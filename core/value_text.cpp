// How a value reads to people (see value_text.h).
#include "core/value_text.h"

#include <fmt/format.h>

#include <cstdint>

#include "core/ddb_json.h"
#include "core/json.h"
#include "core/utf8.h"

namespace keyhole {

namespace {

// C0 controls, DEL and C1 controls.
bool IsControl(uint32_t cp) { return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F); }

// Appends `s` with every control character escaped (\n, \r, \t, else \u00xx).
void AppendEscaped(std::string_view s, std::string* out) {
  for (size_t i = 0; i < s.size();) {
    const size_t start = i;
    const uint32_t cp = utf8::Next(s, &i);
    if (!IsControl(cp)) {
      out->append(s.substr(start, i - start));
    } else if (cp == '\n') {
      *out += "\\n";
    } else if (cp == '\r') {
      *out += "\\r";
    } else if (cp == '\t') {
      *out += "\\t";
    } else {
      *out += fmt::format("\\u{:04x}", cp);
    }
  }
}

// The syntax Number::Parse accepts: [+-] digits [. digits] [(e|E) [+-] digits], at least one
// digit before the exponent. (Out-of-range spellings such as 1e999 still read as numbers.)
bool LooksLikeNumber(std::string_view s) {
  size_t i = 0, digits = 0;
  auto is_digit = [&](size_t k) { return k < s.size() && s[k] >= '0' && s[k] <= '9'; };
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  for (; is_digit(i); ++i) ++digits;
  if (i < s.size() && s[i] == '.') {
    for (++i; is_digit(i); ++i) ++digits;
  }
  if (digits == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (!is_digit(i)) return false;
    while (is_digit(i)) ++i;
  }
  return i == s.size();
}

// Whether `a` equals `lower` (which is lower case) ignoring ASCII case.
bool EqualsIgnoreCase(std::string_view a, std::string_view lower) {
  return a.size() == lower.size() &&
         std::equal(a.begin(), a.end(), lower.begin(),
                    [](char x, char y) { return (x >= 'A' && x <= 'Z' ? x + 32 : x) == y; });
}

// Unicode white space that is not a control character.
bool IsSpace(uint32_t cp) {
  return cp == ' ' || cp == 0xA0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) ||
         cp == 0x2028 || cp == 0x2029 || cp == 0x202F || cp == 0x205F || cp == 0x3000;
}

// Whether a top-level S cell must be quoted to be told apart from another type (or from
// nothing, or to show its edges).
bool NeedsQuotes(std::string_view s) {
  if (s.empty()) return true;
  uint32_t first = 0, last = 0;
  for (size_t i = 0; i < s.size();) {
    last = utf8::Next(s, &i);
    if (IsControl(last)) return true;
    if (first == 0) first = last;
  }
  if (IsSpace(first) || IsSpace(last) || LooksLikeNumber(s)) return true;
  if (EqualsIgnoreCase(s, "true") || EqualsIgnoreCase(s, "false") || EqualsIgnoreCase(s, "null"))
    return true;
  return s.front() == '\'' || s.front() == '[' || s.front() == '{' || s.starts_with("<<");
}

// Appends 's' as a PartiQL string literal: ' doubled, control characters escaped.
void AppendQuoted(std::string_view s, std::string* out) {
  *out += '\'';
  for (size_t start = 0;;) {
    const size_t quote = s.find('\'', start);
    AppendEscaped(s.substr(start, quote - start), out);
    if (quote == std::string_view::npos) break;
    *out += "''";
    start = quote + 1;
  }
  *out += '\'';
}

// Appends `v` as a PartiQL literal (strings always quoted).
void AppendLiteral(const AttributeValue& v, std::string* out) {
  auto join = [&](std::string_view open, size_t n, auto&& one, std::string_view close) {
    *out += open;
    for (size_t i = 0; i < n; ++i) {
      if (i > 0) *out += ", ";
      one(i);
    }
    *out += close;
  };
  switch (v.type()) {
    case ValueType::kS:
      AppendQuoted(v.s(), out);
      break;
    case ValueType::kN:
      *out += v.n().ToString();
      break;
    case ValueType::kB:
      *out += "b'" + Base64Encode(v.s()) + "'";
      break;
    case ValueType::kBool:
      *out += v.boolean() ? "true" : "false";
      break;
    case ValueType::kNull:
      *out += "null";
      break;
    case ValueType::kSS:
      join(
          "<<", v.strings().size(), [&](size_t i) { AppendQuoted(v.strings()[i], out); }, ">>");
      break;
    case ValueType::kNS:
      join(
          "<<", v.numbers().size(), [&](size_t i) { *out += v.numbers()[i].ToString(); }, ">>");
      break;
    case ValueType::kBS:
      join(
          "<<", v.strings().size(),
          [&](size_t i) { *out += "b'" + Base64Encode(v.strings()[i]) + "'"; }, ">>");
      break;
    case ValueType::kL:
      join(
          "[", v.l().size(), [&](size_t i) { AppendLiteral(v.l()[i], out); }, "]");
      break;
    case ValueType::kM: {
      auto it = v.m().begin();
      join(
          "{", v.m().size(),
          [&](size_t) {
            AppendQuoted(it->first, out);
            *out += ": ";
            AppendLiteral(it->second, out);
            ++it;
          },
          "}");
      break;
    }
  }
}

}  // namespace

std::string EscapeControls(std::string_view s) {
  std::string out;
  AppendEscaped(s, &out);
  return out;
}

void AppendPlainJson(const AttributeValue& v, std::string* out) {
  auto list = [&](const auto& elements, auto&& append) {
    out->push_back('[');
    bool first = true;
    for (const auto& e : elements) {
      if (!first) out->push_back(',');
      first = false;
      append(e);
    }
    out->push_back(']');
  };
  switch (v.type()) {
    case ValueType::kS:
      json::AppendQuoted(v.s(), out);
      return;
    case ValueType::kN:
      out->append(v.n().ToString());  // canonical digits, never a double
      return;
    case ValueType::kB:
      json::AppendQuoted(Base64Encode(v.s()), out);
      return;
    case ValueType::kBool:
      out->append(v.boolean() ? "true" : "false");
      return;
    case ValueType::kNull:
      out->append("null");
      return;
    case ValueType::kSS:
      list(v.strings(), [&](const std::string& e) { json::AppendQuoted(e, out); });
      return;
    case ValueType::kNS:
      list(v.numbers(), [&](const Number& e) { out->append(e.ToString()); });
      return;
    case ValueType::kBS:
      list(v.strings(), [&](const std::string& e) { json::AppendQuoted(Base64Encode(e), out); });
      return;
    case ValueType::kL:
      list(v.l(), [&](const AttributeValue& e) { AppendPlainJson(e, out); });
      return;
    case ValueType::kM: {
      out->push_back('{');
      bool first = true;
      for (const auto& [k, e] : v.m()) {
        if (!first) out->push_back(',');
        first = false;
        json::AppendQuoted(k, out);
        out->push_back(':');
        AppendPlainJson(e, out);
      }
      out->push_back('}');
      return;
    }
  }
}

std::string FormatCell(const AttributeValue& value) {
  if (value.is(ValueType::kS) && !NeedsQuotes(value.s())) return value.s();
  std::string out;
  AppendLiteral(value, &out);
  return out;
}

}  // namespace keyhole
