// Output modes (see render.h).
//
// Display width: a cell's width is the number of terminal columns it takes (core/utf8.h
// TextWidth), good enough to keep tables aligned for common text.
#include "shell/render.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <set>

#include "core/ddb_json.h"
#include "core/json.h"
#include "core/utf8.h"

namespace keyhole::shell {

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

std::string Escaped(std::string_view s) {
  std::string out;
  AppendEscaped(s, &out);
  return out;
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

// One item as a plain JSON object: key columns first, then the rest in name order.
std::string ItemToPlainJsonText(const Item& item, const std::vector<std::string>& key_columns) {
  std::string out = "{";
  bool first = true;
  auto member = [&](const std::string& name, const AttributeValue& value) {
    if (!first) out.push_back(',');
    first = false;
    json::AppendQuoted(name, &out);
    out.push_back(':');
    AppendPlainJson(value, &out);
  };
  auto is_key = [&](const std::string& name, size_t before) {
    return std::find(key_columns.begin(), key_columns.begin() + before, name) !=
           key_columns.begin() + before;
  };
  for (size_t i = 0; i < key_columns.size(); ++i) {
    auto it = item.find(key_columns[i]);
    if (it != item.end() && !is_key(key_columns[i], i)) member(key_columns[i], it->second);
  }
  for (const auto& [name, value] : item) {
    if (!is_key(name, key_columns.size())) member(name, value);
  }
  out.push_back('}');
  return out;
}

// RFC 4180 field: quoted when it holds a comma, a double quote, CR or LF (quotes doubled).
std::string CsvField(std::string_view s) {
  if (s.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(s);
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string CsvCell(const AttributeValue& v) {
  if (v.is(ValueType::kS)) return v.s();
  if (v.is(ValueType::kN)) return v.n().ToString();
  return FormatCell(v);
}

// The characters a grid is drawn with.
struct Frame {
  const char* horizontal;
  const char* vertical;
  const char* corners[3][3];  // [top, middle, bottom][left, inner, right]
};
constexpr Frame kBoxFrame = {"─", "│", {{"┌", "┬", "┐"}, {"├", "┼", "┤"}, {"└", "┴", "┘"}}};
constexpr Frame kTableFrame = {"-", "|", {{"+", "+", "+"}, {"+", "+", "+"}, {"+", "+", "+"}}};

struct Cell {
  std::string text;
  bool right = false;  // right-aligned (numbers)
};

std::string RenderGrid(const std::vector<Item>& items, const RenderOptions& options,
                       const Frame& frame) {
  const std::vector<std::string> columns = ColumnsFor(items, options);
  if (columns.empty()) return "";  // no items, or only items without attributes
  std::vector<std::vector<Cell>> rows;
  if (options.headers) {
    rows.emplace_back();
    for (const auto& name : columns)
      rows.back().push_back({utf8::CutToWidth(Escaped(name), options.max_cell_width)});
  }
  for (const Item& item : items) {
    rows.emplace_back();
    for (const auto& name : columns) {
      auto it = item.find(name);
      if (it == item.end()) {
        rows.back().push_back({});
      } else {
        rows.back().push_back({utf8::CutToWidth(FormatCell(it->second), options.max_cell_width),
                               it->second.is(ValueType::kN)});
      }
    }
  }
  std::vector<size_t> widths(columns.size(), 0);
  for (const auto& row : rows) {
    for (size_t c = 0; c < row.size(); ++c)
      widths[c] = std::max(widths[c], utf8::TextWidth(row[c].text));
  }

  std::string out;
  auto rule = [&](int level) {
    out += frame.corners[level][0];
    for (size_t c = 0; c < widths.size(); ++c) {
      if (c > 0) out += frame.corners[level][1];
      for (size_t k = 0; k < widths[c] + 2; ++k) out += frame.horizontal;
    }
    out += frame.corners[level][2];
    out += '\n';
  };
  rule(0);
  for (size_t r = 0; r < rows.size(); ++r) {
    out += frame.vertical;
    for (size_t c = 0; c < columns.size(); ++c) {
      const Cell& cell = rows[r][c];
      const std::string pad(widths[c] - utf8::TextWidth(cell.text), ' ');
      out += ' ';
      out += cell.right ? pad + cell.text : cell.text + pad;
      out += ' ';
      out += frame.vertical;
    }
    out += '\n';
    if (r == 0 && options.headers) rule(1);
  }
  rule(2);
  return out;
}

// `cut`: values wider than this many display columns end with "…" (0: never).
std::string RenderLines(const std::vector<Item>& items, const RenderOptions& options,
                        size_t cut = 0) {
  const std::vector<std::string> columns = ColumnsFor(items, options);
  size_t width = 0;
  for (const auto& name : columns) width = std::max(width, utf8::TextWidth(Escaped(name)));
  std::string out;
  for (const Item& item : items) {
    if (!out.empty() && !item.empty()) out += '\n';
    for (const auto& name : columns) {
      auto it = item.find(name);
      if (it == item.end()) continue;  // absent attributes are not listed
      const std::string shown = Escaped(name);
      out += "  " + shown + std::string(width - utf8::TextWidth(shown), ' ') + " = " +
             utf8::CutToWidth(FormatCell(it->second), cut) + "\n";
    }
  }
  return out;
}

std::string RenderCsv(const std::vector<Item>& items, const RenderOptions& options) {
  const std::vector<std::string> columns = ColumnsFor(items, options);
  if (columns.empty()) return "";
  std::string out;
  auto row = [&](auto&& field) {
    for (size_t c = 0; c < columns.size(); ++c) {
      if (c > 0) out += ',';
      out += CsvField(field(columns[c]));
    }
    out += '\n';
  };
  if (options.headers) row([](const std::string& name) { return name; });
  for (const Item& item : items) {
    row([&](const std::string& name) {
      auto it = item.find(name);
      return it == item.end() ? std::string() : CsvCell(it->second);
    });
  }
  return out;
}

}  // namespace

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

std::optional<OutputMode> ParseOutputMode(std::string_view name) {
  for (OutputMode mode : {OutputMode::kBox, OutputMode::kTable, OutputMode::kLine,
                          OutputMode::kJson, OutputMode::kDdb, OutputMode::kCsv}) {
    if (EqualsIgnoreCase(name, OutputModeName(mode))) return mode;
  }
  return std::nullopt;
}

std::string_view OutputModeName(OutputMode mode) {
  switch (mode) {
    case OutputMode::kBox:
      return "box";
    case OutputMode::kTable:
      return "table";
    case OutputMode::kLine:
      return "line";
    case OutputMode::kJson:
      return "json";
    case OutputMode::kDdb:
      return "ddb";
    case OutputMode::kCsv:
      return "csv";
  }
  return "ddb";
}

std::vector<std::string> Columns(const std::vector<Item>& items,
                                 const std::vector<std::string>& key_columns) {
  std::vector<std::string> columns;
  std::set<std::string_view> keys;
  for (const auto& key : key_columns) {
    if (keys.count(key)) continue;
    bool present = std::any_of(items.begin(), items.end(),
                               [&](const Item& item) { return item.count(key) > 0; });
    if (present) {
      columns.push_back(key);
      keys.insert(key);
    }
  }
  std::set<std::string_view> others;  // bytewise order, as Item keeps its names
  for (const Item& item : items) {
    for (const auto& [name, value] : item) {
      if (!keys.count(name)) others.insert(name);
    }
  }
  columns.insert(columns.end(), others.begin(), others.end());
  return columns;
}

std::vector<std::string> ColumnsFor(const std::vector<Item>& items, const RenderOptions& options) {
  if (!options.columns.empty() && !items.empty()) return options.columns;
  return Columns(items, options.key_columns);
}

std::string RenderItems(const std::vector<Item>& items, const RenderOptions& options) {
  std::string out;
  switch (options.mode) {
    case OutputMode::kBox:
    case OutputMode::kTable: {
      out = RenderGrid(items, options, options.mode == OutputMode::kBox ? kBoxFrame : kTableFrame);
      if (options.max_width > 0 &&
          utf8::TextWidth(out.substr(0, out.find('\n'))) > options.max_width) {
        // Wider than the terminal: one line per attribute, long values still cut.
        return RenderLines(items, options, options.max_cell_width);
      }
      return out;
    }
    case OutputMode::kLine:
      return RenderLines(items, options);
    case OutputMode::kCsv:
      return RenderCsv(items, options);
    case OutputMode::kJson:
      for (const Item& item : items) out += ItemToPlainJsonText(item, options.key_columns) + "\n";
      return out;
    case OutputMode::kDdb:
      for (const Item& item : items) out += ItemToJsonText(item) + "\n";
      return out;
  }
  return out;
}

std::string CapacityText(double units, std::string_view unit) {
  const double twice = units * 2;
  if (twice >= 0 && twice < 9e15 && twice == static_cast<double>(static_cast<int64_t>(twice))) {
    const auto t = static_cast<int64_t>(twice);
    return fmt::format("{}{} {}", t / 2, t % 2 != 0 ? ".5" : "", unit);
  }
  return fmt::format("{:g} {}", units, unit);
}

std::string FormatCell(const AttributeValue& value) {
  if (value.is(ValueType::kS) && !NeedsQuotes(value.s())) return value.s();
  std::string out;
  AppendLiteral(value, &out);
  return out;
}

}  // namespace keyhole::shell
