// How items print in each of the shell's output modes (design.md "The shell's contract").
//
//   box    Unicode box-drawn table (the default on a terminal). Heterogeneous items share one
//          table: key columns first, then every other top-level attribute name in alphabetical
//          order; an attribute an item lacks is an empty cell.
//   table  the same layout drawn with ASCII (+, -, |).
//   line   one `name = value` per line, a blank line between items (for wide items).
//   json   plain JSON, one object per line (numbers as JSON numbers, sets as arrays, binary as
//          base64 strings): lossy, for people and jq.
//   ddb    DynamoDB JSON, one item per line (core/ddb_json.h ItemToJsonText): lossless and
//          stable, the machine interface and the default when output is not a terminal.
//   csv    RFC 4180: a header row (with .headers on), then one row per item, same columns as box.
//          For spreadsheets, strings and numbers are written raw (quoted per RFC 4180 only when
//          they contain a comma, a quote or a line break); other types as FormatCell.
//
// Cells (box, table, line; csv for types other than S and N) show a value so that its type is
// visible where it matters (core/value_text.h FormatCell): a string prints as is unless it could be
// read as another type, then it is quoted; numbers print exactly; sets, lists and maps print as
// PartiQL literals.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/attribute_value.h"
#include "core/capacity.h"
#include "core/value_text.h"

namespace keyhole::shell {

enum class OutputMode { kBox, kTable, kLine, kJson, kDdb, kCsv };

// csv, json and ddb: output for programs, which carries data only (no footers or notices).
inline bool IsMachineMode(OutputMode mode) {
  return mode == OutputMode::kCsv || mode == OutputMode::kJson || mode == OutputMode::kDdb;
}

// "box", "table", "line", "json", "ddb", "csv" (case-insensitive) -> mode; nullopt otherwise.
std::optional<OutputMode> ParseOutputMode(std::string_view name);
// The lower-case name of `mode`.
std::string_view OutputModeName(OutputMode mode);

struct RenderOptions {
  OutputMode mode = OutputMode::kDdb;
  bool headers = true;  // box, table, csv: print the header row
  // Shown first, in this order, when at least one item has them (the table's key attributes,
  // then the read index's). The other columns follow in alphabetical order.
  std::vector<std::string> key_columns;
  // When set: exactly these columns, in this order (a SELECT's projection), whether or not an
  // item has them; key_columns is then unused.
  std::vector<std::string> columns;
  // box, table: a cell wider than this many display columns is cut and ends with "…"
  // (0 = never cut).
  size_t max_cell_width = 0;
  // box, table: when the grid would be wider than this many display columns (a terminal's
  // width), the items print in line mode instead, as psql's \x auto does (0 = never switch).
  size_t max_width = 0;
};

// The column names RenderItems uses for `items` (box, table, csv, line order): key_columns that
// some item has, then the other attribute names in byte order.
std::vector<std::string> Columns(const std::vector<Item>& items,
                                 const std::vector<std::string>& key_columns);
// options.columns when set, else Columns(items, options.key_columns).
std::vector<std::string> ColumnsFor(const std::vector<Item>& items, const RenderOptions& options);

// Renders `items` in `options.mode`. The text ends with '\n' unless it is empty. No items (or
// only empty items): box, table and csv print nothing (no columns are known), json and ddb one
// `{}` per empty item. json is JSON Lines: one plain JSON object per line.
std::string RenderItems(const std::vector<Item>& items, const RenderOptions& options);

}  // namespace keyhole::shell
