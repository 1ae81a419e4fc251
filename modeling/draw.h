// .draw: a picture of a table or an index, in the style of NoSQL Workbench's aggregate view, as
// an SVG or a self-contained HTML page (no network requests, no external fonts or scripts):
//  - one band per item collection (partition key value), its items in sort-key order, each a
//    row of cells: the sort key, then the item's other attributes, name above value;
//  - items coloured by entity type (.model's: the type attribute, or key prefixes), with a
//    legend;
//  - an index drawn as the same items re-keyed by the index's keys and cut to its projection:
//    items without its key are absent, and the picture says how many were left out (a sparse
//    index made visible);
//  - long values cut with an ellipsis, keys never (their columns are as wide as the widest
//    drawn); the item and partition counts and sizes under it, the picture as wide as they are.
// Sized for a 1280x720 slide at about 30 items; `partitions` picks how many bands are drawn,
// `items_per_partition` how many rows each (a 100,000-item partition is 12 rows and a count).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/attribute_value.h"
#include "core/schema.h"

namespace keyhole::modeling {

struct DrawOptions {
  std::optional<std::string> index;  // draw this index of the table instead
  size_t partitions = 8;             // at most this many bands (item collections)
  size_t items_per_partition = 12;   // at most this many rows a band, then "… and N more"

  std::optional<AttributeValue> partition;  // only this partition key value
  size_t max_value_chars = 22;              // longer values end with "…"
};

// The index `name` of `table` as .draw shows it: a GSI or LSI as it is; a vector index with a
// HASH search attribute as that attribute's groups (the vectors a search of one HASH value
// reads): the HASH attribute as its partition key, no sort key, the vector and the filters
// shown with its projection. nullopt, with *why, when the table has no such index or the vector
// index has no HASH attribute.
std::optional<IndexDescription> DrawnIndex(const TableDescription& table, const std::string& name,
                                           std::string* why);

// The picture as SVG text (an <svg> element with its xmlns, UTF-8).
std::string DrawSvg(const TableDescription& table, const std::vector<Item>& items,
                    const DrawOptions& options);

// The same picture in a self-contained HTML page.
std::string DrawHtml(const TableDescription& table, const std::vector<Item>& items,
                     const DrawOptions& options);

}  // namespace keyhole::modeling
