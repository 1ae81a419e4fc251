#include "modeling/draw.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "core/capacity.h"
#include "core/item.h"
#include "core/utf8.h"
#include "core/value_text.h"
#include "core/vector_index.h"
#include "modeling/model.h"

namespace keyhole::modeling {

namespace {

// Geometry, in pixels: a monospace font of 12 px is about 7.2 px a character.
constexpr double kCharWidth = 7.2;
constexpr int kRowHeight = 34, kPad = 6, kKeyWidthChars = 18, kMargin = 16, kHeader = 44;
// Pastel fills, one per entity type in order of appearance (then again).
constexpr const char* kPalette[] = {"#cfe2ff", "#d1f2d9", "#ffe5b4", "#f8d7e3",
                                    "#e2d9f3", "#d2f4f7", "#fff3c4", "#e9ecef"};

std::string Escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        // XML 1.0 has no other control characters, even escaped: shown as U+FFFD.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') {
          out += "\uFFFD";
        } else {
          out += c;
        }
    }
  }
  return out;
}

std::string KeyText(const Item& item, const std::vector<const KeyAttribute*>& attributes) {
  std::string out;
  for (const KeyAttribute* a : attributes) {
    auto it = item.find(a->name);
    out +=
        (out.empty() ? "" : " · ") + (it == item.end() ? std::string("-") : FormatCell(it->second));
  }
  return out;
}

int CompareKeys(const Item& a, const Item& b, const std::vector<const KeyAttribute*>& attributes) {
  for (const KeyAttribute* k : attributes) {
    auto x = a.find(k->name), y = b.find(k->name);
    if (x == a.end() || y == b.end()) continue;
    if (int c = x->second.CompareKey(y->second); c != 0) return c;
  }
  return 0;
}

// Whether `item` is in an index keyed by `key`: every key attribute there, of its type.
bool HasKey(const Item& item, const KeySchema& key) {
  for (const KeyAttribute* a : key.Attributes()) {
    auto it = item.find(a->name);
    if (it == item.end() || it->second.type() != a->type) return false;
  }
  return true;
}

struct Row {
  const Item* item;
  size_t entity;
};

}  // namespace

std::optional<IndexDescription> DrawnIndex(const TableDescription& table, const std::string& name,
                                           std::string* why) {
  if (const IndexDescription* index = table.FindIndex(name)) return *index;
  const VectorIndexDescription* v = table.FindVectorIndex(name);
  const SearchAttribute* hash = v ? v->Hash() : nullptr;
  if (!hash) {
    if (why) {
      *why = v ? fmt::format(
                     "vector index {} has no HASH search attribute: .draw shows a "
                     "vector index by its HASH values",
                     name)
               : fmt::format("{} has no index {}", table.name, name);
    }
    return std::nullopt;
  }
  IndexDescription view;
  view.name = v->name;
  view.key.partition = KeyAttribute{hash->name, hash->type};
  view.projection = v->projection;
  if (view.projection.type == ProjectionType::kInclude) {
    view.projection.non_key_attributes.push_back(v->vector_attribute);
    for (const SearchAttribute& a : v->search_schema) {
      view.projection.non_key_attributes.push_back(a.name);
    }
  } else if (view.projection.type == ProjectionType::kKeysOnly) {
    view.projection.type = ProjectionType::kInclude;
    view.projection.non_key_attributes = {v->vector_attribute};
    for (const SearchAttribute& a : v->search_schema) {
      view.projection.non_key_attributes.push_back(a.name);
    }
  }
  return view;
}

namespace {

// 99990 -> "99,990".
std::string GroupedCount(size_t n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

}  // namespace

std::string DrawSvg(const TableDescription& table, const std::vector<Item>& items,
                    const DrawOptions& options) {
  const std::optional<IndexDescription> view =
      options.index ? DrawnIndex(table, *options.index, nullptr) : std::nullopt;
  const IndexDescription* index = view ? &*view : nullptr;
  // A vector index holds the items with its vector (and its HASH attribute, the view's key).
  const VectorIndexDescription* vector =
      options.index ? table.FindVectorIndex(*options.index) : nullptr;
  const KeySchema& key = index ? index->key : table.key;
  const std::vector<const KeyAttribute*> pk = key.PartitionAttributes();
  const std::vector<const KeyAttribute*> sk = key.SortAttributes();
  // Entity types over all of the table's items, so that colours agree between views.
  const Model model = InferModel(table, items);
  std::vector<size_t> entity_of(items.size(), 0);
  for (size_t e = 0; e < model.entities.size(); ++e) {
    for (size_t i : model.entities[e].item_indexes) entity_of[i] = e;
  }
  // The attributes shown: all, or the index's projection.
  std::set<std::string> projected;
  for (const std::string& n : table.key.Names()) projected.insert(n);
  for (const std::string& n : key.Names()) projected.insert(n);
  if (index && index->projection.type == ProjectionType::kInclude) {
    for (const std::string& n : index->projection.non_key_attributes) projected.insert(n);
  }
  const bool all = !index || index->projection.type == ProjectionType::kAll;
  // Items in the view, grouped by partition key value, each group in sort-key order.
  // Keyed by the partition key values, in key order (numbers as numbers), shown as text.
  struct PartitionLess {
    const std::vector<const KeyAttribute*>* pk;
    bool operator()(const Item& a, const Item& b) const { return CompareKeys(a, b, *pk) < 0; }
  };
  std::map<Item, std::pair<std::string, std::vector<Row>>, PartitionLess> partitions(
      PartitionLess{&pk});
  size_t left_out = 0;
  int64_t bytes = 0;
  for (size_t i = 0; i < items.size(); ++i) {
    if (index &&
        (!HasKey(items[i], key) || (vector && !items[i].count(vector->vector_attribute)))) {
      ++left_out;
      continue;
    }
    if (options.partition && pk.size() == 1) {
      auto it = items[i].find(pk[0]->name);
      if (it == items[i].end() || !(it->second == *options.partition)) continue;
    }
    Item partition_key;
    for (const KeyAttribute* a : pk) {
      if (auto it = items[i].find(a->name); it != items[i].end()) {
        partition_key.emplace(a->name, it->second);
      }
    }
    auto& [text, rows] = partitions[partition_key];
    text = KeyText(items[i], pk);
    rows.push_back({&items[i], entity_of[i]});
    bytes += static_cast<int64_t>(ItemSize(items[i]));
  }
  size_t in_view = 0;
  for (auto& [partition_key, group] : partitions) {
    auto& rows = group.second;
    std::stable_sort(rows.begin(), rows.end(), [&](const Row& a, const Row& b) {
      return CompareKeys(*a.item, *b.item, sk) < 0;
    });
    in_view += rows.size();
  }
  // The key columns are as wide as the widest key drawn and their header: keys are never cut
  // (a composite sort key is what the picture is about).
  auto names = [](const std::vector<const KeyAttribute*>& attributes) {
    std::string out;
    for (const KeyAttribute* a : attributes) out += (out.empty() ? "" : " · ") + a->name;
    return out.empty() ? std::string("(no sort key)") : out;
  };
  const std::string pk_label = names(pk) + " (partition)", sk_label = names(sk) + " (sort)";
  size_t pk_chars = std::max<size_t>(kKeyWidthChars, utf8::TextWidth(pk_label) + 1);
  size_t sk_chars = std::max<size_t>(kKeyWidthChars, utf8::TextWidth(sk_label) + 1);
  {
    size_t bands = 0;
    for (const auto& [partition_key, group] : partitions) {
      if (bands++ == options.partitions) break;
      pk_chars = std::max(pk_chars, utf8::TextWidth(group.first));
      size_t rows = 0;
      for (const Row& r : group.second) {
        if (rows++ == options.items_per_partition) break;
        if (!sk.empty()) sk_chars = std::max(sk_chars, utf8::TextWidth(KeyText(*r.item, sk)));
      }
    }
  }
  const double pk_width = static_cast<double>(pk_chars) * kCharWidth + 2 * kPad;
  const double sk_width = static_cast<double>(sk_chars) * kCharWidth + 2 * kPad;
  // Layout: a header, then per drawn partition a band of rows, at most items_per_partition of
  // them and a last row saying how many more the partition holds.
  std::string body;
  double y = kMargin + kHeader, width = kMargin * 2 + pk_width + sk_width;
  size_t drawn = 0, drawn_items = 0, cut_partitions = 0;
  std::set<size_t> entities_drawn;
  for (const auto& [partition_key, group] : partitions) {
    const auto& [value, rows] = group;
    if (drawn == options.partitions) break;
    ++drawn;
    const double band_top = y;
    std::string band;
    size_t in_band = 0;
    for (const Row& r : rows) {
      if (in_band == options.items_per_partition) break;
      ++in_band;
      ++drawn_items;
      entities_drawn.insert(r.entity);
      const char* fill = kPalette[r.entity % std::size(kPalette)];
      double x = kMargin + pk_width;
      std::string cells = fmt::format(
          R"(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{}" fill="{}" stroke="#8a94a6"/>)"
          R"(<text x="{:.1f}" y="{:.1f}" class="k">{}</text>)",
          x, y, sk_width, kRowHeight, fill, x + kPad, y + kRowHeight / 2.0 + 4,
          Escape(sk.empty() ? std::string("-") : KeyText(*r.item, sk)));
      x += sk_width;
      for (const auto& [name, v] : *r.item) {
        // The row's keys are its first two cells; on an index, the table's keys are attributes.
        if (key.Has(name) || (!index && table.key.Has(name)) ||
            (!all && !projected.contains(name))) {
          continue;
        }
        const std::string shown = utf8::CutToWidth(FormatCell(v), options.max_value_chars);
        const std::string label = utf8::CutToWidth(name, options.max_value_chars);
        const double w =
            static_cast<double>(std::max(utf8::TextWidth(shown), utf8::TextWidth(label))) *
                kCharWidth +
            2 * kPad;
        cells += fmt::format(
            R"(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{}" fill="{}" stroke="#c3c9d4"/>)"
            R"(<text x="{:.1f}" y="{:.1f}" class="n">{}</text>)"
            R"(<text x="{:.1f}" y="{:.1f}" class="v">{}</text>)",
            x, y, w, kRowHeight, fill, x + kPad, y + 12, Escape(label), x + kPad, y + 27,
            Escape(shown));
        x += w;
      }
      width = std::max(width, x + kMargin);
      band += "<g class=\"item\">" + cells + "</g>";
      y += kRowHeight;
    }
    if (in_band < rows.size()) {  // the rest of a big partition: counted, not drawn
      ++cut_partitions;
      const std::string more =
          fmt::format("… and {} more item{}", GroupedCount(rows.size() - in_band),
                      rows.size() - in_band == 1 ? "" : "s");
      band += fmt::format(R"(<g class="more"><text x="{:.1f}" y="{:.1f}" class="f">{}</text></g>)",
                          kMargin + pk_width + kPad, y + 16, Escape(more));
      width =
          std::max(width, kMargin + pk_width + kPad +
                              static_cast<double>(utf8::TextWidth(more)) * kCharWidth + kMargin);
      y += 24;
    }
    body += fmt::format(
        R"(<g class="partition"><rect x="{}" y="{:.1f}" width="{:.1f}" height="{:.1f}" )"
        R"(fill="#f4f6f9" stroke="#8a94a6"/><text x="{:.1f}" y="{:.1f}" class="k">{}</text>{}</g>)",
        kMargin, band_top, pk_width, y - band_top, double{kMargin + kPad},
        band_top + kRowHeight / 2.0 + 4, Escape(value), band);
    y += 6;
  }
  // Header: what is drawn, the key columns' names.
  const std::string title =
      vector  ? fmt::format("{} · vector index {} ({}, {} dimensions)", table.name, vector->name,
                            DistanceFunctionName(vector->distance), vector->dimensions)
      : index ? fmt::format("{} · index {} ({})", table.name, index->name,
                            ProjectionTypeName(index->projection.type))
              : table.name;
  std::string header = fmt::format(
      R"(<text x="{}" y="{}" class="t">{}</text>)"
      R"(<text x="{}" y="{}" class="h">{}</text><text x="{:.1f}" y="{}" class="h">{}</text>)",
      kMargin, kMargin + 14, Escape(title), kMargin + kPad, kMargin + kHeader - 8, Escape(pk_label),
      kMargin + pk_width + kPad, kMargin + kHeader - 8, Escape(sk_label));
  width = std::max(width, kMargin * 2 + static_cast<double>(utf8::TextWidth(title)) * 9.6);
  // Under it: the counts, what is left out, the legend; the picture is as wide as its lines.
  auto fit = [&](const std::string& line) {
    width = std::max(width, kMargin * 2 + static_cast<double>(utf8::TextWidth(line)) * kCharWidth);
  };
  y += 18;
  std::string drawn_text;
  if (drawn < partitions.size() || cut_partitions > 0) {
    drawn_text = fmt::format(
        " · drawn: {} partition{}, {} items{}",
        drawn < partitions.size() ? fmt::format("the first {}", drawn)
                                  : fmt::format("all {}", drawn),
        drawn == 1 ? "" : "s", drawn_items,
        cut_partitions > 0 ? fmt::format(" (at most {} a partition)", options.items_per_partition)
                           : std::string());
  }
  const std::string counts =
      fmt::format("{} item{} in {} partition{} · {} bytes{}", in_view, in_view == 1 ? "" : "s",
                  partitions.size(), partitions.size() == 1 ? "" : "s", bytes, drawn_text);
  fit(counts);
  std::string footer =
      fmt::format(R"(<text x="{}" y="{:.1f}" class="f">{}</text>)", kMargin, y, Escape(counts));
  if (index) {
    y += 18;
    const std::string sparse =
        fmt::format("{} of the table's {} item{} not in {}: they lack its key ({})", left_out,
                    items.size(), items.size() == 1 ? " is" : "s are", index->name,
                    vector ? fmt::format("{}, {}", vector->vector_attribute, key.partition.name)
                           : fmt::format("{}", fmt::join(key.Names(), ", ")));
    fit(sparse);
    footer += fmt::format(R"(<text x="{}" y="{:.1f}" class="f sparse">{}</text>)", kMargin, y,
                          Escape(sparse));
  }
  y += 12;
  double lx = kMargin;
  for (size_t e : entities_drawn) {
    const std::string name = utf8::CutToWidth(model.entities[e].name, 24);
    footer += fmt::format(
        R"(<g class="legend"><rect x="{:.1f}" y="{:.1f}" width="14" height="14" fill="{}" )"
        R"(stroke="#8a94a6"/><text x="{:.1f}" y="{:.1f}" class="f">{}</text></g>)",
        lx, y, kPalette[e % std::size(kPalette)], lx + 18, y + 11, Escape(name));
    lx += 18 + static_cast<double>(utf8::TextWidth(name)) * kCharWidth + 16;
  }
  width = std::max(width, lx + kMargin);
  y += 14 + kMargin;
  return fmt::format(
      R"(<svg xmlns="http://www.w3.org/2000/svg" width="{:.0f}" height="{:.0f}" )"
      R"(viewBox="0 0 {:.0f} {:.0f}" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" )"
      R"(font-size="12"><style>.t{{font-size:16px;font-weight:bold}} .h{{fill:#4a5568}} )"
      R"(.k{{font-weight:bold}} .n{{font-size:10px;fill:#4a5568}} .f{{fill:#2d3748}})"
      R"(</style><rect width="100%" height="100%" fill="#ffffff"/>{}{}{}</svg>)"
      "\n",
      width, y, width, y, header, body, footer);
}

std::string DrawHtml(const TableDescription& table, const std::vector<Item>& items,
                     const DrawOptions& options) {
  const std::string title = options.index ? table.name + " · " + *options.index : table.name;
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<title>{}</title>\n<style>body{{margin:0;background:#ffffff}} svg{{display:block;"
      "max-width:100%;height:auto}}</style>\n</head>\n<body>\n{}</body>\n</html>\n",
      Escape(title), DrawSvg(table, items, options));
}

}  // namespace keyhole::modeling
