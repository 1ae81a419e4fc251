// ProjectionExpression: validation and projection of an item (contract in evaluate.h, shapes
// in reference §3.6).
//
// Project builds a selection tree from the paths (a trie of names and list indexes) and walks
// it alongside the item, so paths sharing a prefix (`a.b, a.c`, `l[0], l[2]`) land in one
// pruned structure. Selected list elements keep their order and are re-indexed from 0.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/evaluate.h"
#include "core/evaluate_internal.h"

namespace keyhole::expr {

namespace {

// A node of the selection tree. `whole`: the value at this node is selected entirely (a leaf
// of some path), which wins over any deeper selection.
struct Selection {
  bool whole = false;
  std::map<std::string, Selection> fields;  // map keys (or top-level names at the root)
  std::map<int64_t, Selection> elements;    // list indexes, in ascending order
};

// Adds one path to the tree rooted at *root. REQUIRES: the path starts with a name.
void AddPath(Selection* root, const Path& path) {
  Selection* node = root;
  for (const PathElement& e : path.elements) {
    node = e.is_index ? &node->elements[e.index] : &node->fields[e.name];
  }
  node->whole = true;
}

// The part of `v` that `s` selects, or nullopt when nothing of it is selected.
std::optional<AttributeValue> Pick(const Selection& s, const AttributeValue& v) {
  if (s.whole) return v;
  if (v.is(ValueType::kM) && !s.fields.empty()) {
    Map out;
    for (const auto& [name, sub] : s.fields) {
      auto it = v.m().find(name);
      if (it == v.m().end()) continue;
      std::optional<AttributeValue> picked = Pick(sub, it->second);
      if (picked) out.emplace(name, std::move(*picked));
    }
    if (!out.empty()) return AttributeValue::M(std::move(out));
  }
  if (v.is(ValueType::kL) && !s.elements.empty()) {
    List out;
    for (const auto& [index, sub] : s.elements) {
      if (index < 0 || static_cast<uint64_t>(index) >= v.l().size()) continue;
      std::optional<AttributeValue> picked = Pick(sub, v.l()[static_cast<size_t>(index)]);
      if (picked) out.push_back(std::move(*picked));
    }
    if (!out.empty()) return AttributeValue::L(std::move(out));
  }
  return std::nullopt;
}

}  // namespace

Status ValidateProjection(const ProjectionExpression& p) {
  std::vector<const Path*> paths;
  for (const Path& path : p.paths) {
    KH_RETURN_IF_ERROR(internal::CheckPathLength(path, Kind::kProjection));
    paths.push_back(&path);
  }
  return internal::CheckPathsDisjoint(paths, Kind::kProjection);
}

Item Project(const Item& item, const std::vector<Path>& paths) {
  Selection root;
  for (const Path& p : paths) {
    if (!p.elements.empty() && !p.elements[0].is_index) AddPath(&root, p);
  }
  Item out;
  for (const auto& [name, sub] : root.fields) {
    auto it = item.find(name);
    if (it == item.end()) continue;
    std::optional<AttributeValue> picked = Pick(sub, it->second);
    if (picked) out.emplace(name, std::move(*picked));
  }
  return out;
}

}  // namespace keyhole::expr
