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
#include "core/strings.h"
#include "core/utf8.h"
#include "core/value_text.h"

namespace keyhole::shell {

namespace {

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
      rows.back().push_back({utf8::CutToWidth(EscapeControls(name), options.max_cell_width)});
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
  for (const auto& name : columns) width = std::max(width, utf8::TextWidth(EscapeControls(name)));
  std::string out;
  for (const Item& item : items) {
    if (!out.empty() && !item.empty()) out += '\n';
    for (const auto& name : columns) {
      auto it = item.find(name);
      if (it == item.end()) continue;  // absent attributes are not listed
      const std::string shown = EscapeControls(name);
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

std::optional<OutputMode> ParseOutputMode(std::string_view name) {
  for (OutputMode mode : {OutputMode::kBox, OutputMode::kTable, OutputMode::kLine,
                          OutputMode::kJson, OutputMode::kDdb, OutputMode::kCsv}) {
    if (AsciiEqualIgnoringCase(name, OutputModeName(mode))) return mode;
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
      out.reserve(256 * items.size());
      for (const Item& item : items) {
        AppendItemToJsonText(item, &out);
        out.push_back('\n');
      }
      return out;
  }
  return out;
}

}  // namespace keyhole::shell
