// Entity and key-template inference for .model (model.h), and the dot-command itself.
#include "modeling/model.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>

#include "core/vector_index.h"

namespace keyhole::modeling {

namespace {

// The type attribute's usual names, in the order they are tried (model.h, docs/shell.md): the
// first kKeenTypeAttributes name an entity when half the items carry them; the rest, words
// that also name a sub-kind (a memory's kind: fact or preference), only when every item does.
constexpr const char* kTypeAttributes[] = {
    "EntityType", "entityType", "entity_type", "Type",        "type",       "_type",
    "__typename", "_et",        "Entity",      "entity",      "_t",         "etype",
    "entityKind", "__type",     "kind",        "Kind",        "ItemType",   "itemType",
    "item_type",  "RecordType", "recordType",  "record_type", "objectType", "docType"};
constexpr size_t kKeenTypeAttributes = 14;  // up to __type

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// The text of a scalar value (S, N), or nullopt.
std::optional<std::string> Text(const AttributeValue& v) {
  if (v.type() == ValueType::kS) return v.s();
  if (v.type() == ValueType::kN) return v.n().ToString();
  return std::nullopt;
}

bool IsWord(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) {
    return std::isalpha(c) || c == '_' || c == '-';
  });
}

// A key value's prefix tag: its first segment when that is a word followed by more segments,
// or the whole value when it is one segment; "" for none.
std::string Tag(const Item& item, const std::string& attribute) {
  auto it = item.find(attribute);
  if (it == item.end()) return "";
  // A number (a sort key of 1, 2, 5) is a value, never an entity's tag.
  if (it->second.type() == ValueType::kN) return "";
  std::optional<std::string> text = Text(it->second);
  if (!text) return "";
  KeySegments s = SplitKeyValue(*text);
  if (s.parts.size() == 1) return "=" + s.parts[0];
  return IsWord(s.parts[0]) ? s.parts[0] : "";
}

// The separators of an item's key value ("#" for USER#alice), or "-" when it lacks the key.
std::string ShapeOf(const Item& item, const std::string& attribute) {
  auto it = item.find(attribute);
  if (it == item.end()) return "-";
  std::optional<std::string> text = Text(it->second);
  return text ? SplitKeyValue(*text).separators : "?";
}

bool LooksLikeTimestamp(const std::string& s) {
  return s.size() >= 10 && IsDigit(s[0]) && IsDigit(s[1]) && IsDigit(s[2]) && IsDigit(s[3]) &&
         s[4] == '-' && IsDigit(s[5]) && IsDigit(s[6]) && s[7] == '-';
}

// The name of a varying segment at `position` of the values of `items` (all shaped alike).
std::string PlaceholderName(const std::vector<const Item*>& items,
                            const std::vector<KeySegments>& values, size_t position,
                            const std::set<std::string>& key_attributes) {
  // An attribute every item carries with exactly this segment's text. One item is no evidence
  // (its username equals its key's segment by construction or by chance), and a number that
  // equals a segment is a coincidence (a likeCount of 4 beside POST#4) unless the segment
  // varies over at least three items, or is zero-padded (00042: written from a number).
  const bool varies = std::any_of(values.begin(), values.end(), [&](const KeySegments& v) {
    return v.parts[position] != values[0].parts[position];
  });
  const bool zero_padded = std::any_of(values.begin(), values.end(), [&](const KeySegments& v) {
    const std::string& p = v.parts[position];
    return p.size() > 1 && p[0] == '0' && std::all_of(p.begin(), p.end(), IsDigit);
  });
  std::set<std::string> candidates;
  for (const auto& [name, value] : *items[0]) {
    if (key_attributes.contains(name) || items.size() < 2) continue;
    if (value.type() == ValueType::kN && !(varies && (items.size() >= 3 || zero_padded))) continue;
    candidates.insert(name);
  }
  for (const std::string& name : candidates) {
    bool all = true;
    for (size_t i = 0; i < items.size() && all; ++i) {
      auto it = items[i]->find(name);
      std::optional<std::string> text = it == items[i]->end() ? std::nullopt : Text(it->second);
      const std::string& segment = values[i].parts[position];
      all = text && *text == segment;
      if (text && !all && it->second.type() == ValueType::kN) {  // zero-padded: 00042 is 42
        Result<Number> n = Number::Parse(segment);
        all = n.ok() && std::all_of(segment.begin(), segment.end(), IsDigit) &&
              n->ToString() == *text;
      }
    }
    if (all) return name;
  }
  bool timestamps = true, digits = true;
  for (const KeySegments& v : values) {
    const std::string& p = v.parts[position];
    timestamps &= LooksLikeTimestamp(p);
    digits &= !p.empty() && std::all_of(p.begin(), p.end(), IsDigit);
  }
  return timestamps ? "timestamp" : digits ? "number" : "id";
}

// The template of `attribute` over `items` (those carrying it); items.empty() -> "".
std::string Template(const std::vector<const Item*>& all, const std::string& attribute,
                     const std::set<std::string>& key_attributes, int64_t* carried,
                     KeySegments* segments) {
  std::vector<const Item*> items;
  std::vector<KeySegments> values;
  bool numeric = false;
  for (const Item* item : all) {
    auto it = item->find(attribute);
    if (it == item->end()) continue;
    std::optional<std::string> text = Text(it->second);
    if (!text) return "<binary>";  // no segments
    numeric |= it->second.type() == ValueType::kN;
    items.push_back(item);
    values.push_back(SplitKeyValue(*text));
  }
  *carried = static_cast<int64_t>(items.size());
  if (items.empty()) return "";
  if (numeric) {
    // A number key is one value (number text has no separator): as stored when one item has
    // it, else named after an attribute holding it, else <number>.
    if (items.size() == 1) {
      segments->parts = {values[0].parts[0]};
      return values[0].parts[0];
    }
    std::string name = PlaceholderName(items, values, 0, key_attributes);
    segments->parts = {"<" + (name == "id" ? std::string("number") : name) + ">"};
    return segments->parts[0];
  }
  bool same_shape = std::all_of(values.begin(), values.end(), [&](const KeySegments& s) {
    return s.separators == values[0].separators;
  });
  std::string out;
  if (same_shape) {
    for (size_t p = 0; p < values[0].parts.size(); ++p) {
      bool same = std::all_of(values.begin(), values.end(), [&](const KeySegments& s) {
        return s.parts[p] == values[0].parts[p];
      });
      // A segment is a placeholder when it varies, or when an attribute holds it in every item
      // (one user's `USER#alice` with username 'alice' is still USER#<username>).
      std::string name = PlaceholderName(items, values, p, key_attributes);
      bool from_attribute = name != "timestamp" && name != "number" && name != "id";
      segments->parts.push_back(same && !from_attribute ? values[0].parts[p] : "<" + name + ">");
      out += segments->parts.back();
      if (p < values[0].separators.size()) out += values[0].separators[p];
    }
    segments->separators = values[0].separators;
    return out;
  }
  // Differing shapes: the common literal prefix, then <…>.
  for (size_t p = 0;; ++p) {
    bool common = std::all_of(values.begin(), values.end(), [&](const KeySegments& s) {
      return p + 1 < s.parts.size() && s.parts[p] == values[0].parts[p] &&
             s.separators[p] == values[0].separators[p];
    });
    if (!common) break;
    out += values[0].parts[p];
    out += values[0].separators[p];
  }
  return out + "<…>";
}

struct Group {
  std::string name;
  std::vector<const Item*> items;
  std::string pk_tag, sk_tag;
};

std::set<std::string> AttributeNames(const Group& g, const std::set<std::string>& keys) {
  std::set<std::string> names;
  for (const Item* item : g.items) {
    for (const auto& [name, value] : *item) {
      if (!keys.contains(name)) names.insert(name);
    }
  }
  return names;
}

double Jaccard(const std::set<std::string>& a, const std::set<std::string>& b) {
  size_t common = 0;
  for (const std::string& x : a) common += b.contains(x);
  size_t all = a.size() + b.size() - common;
  return all == 0 ? 1.0 : static_cast<double>(common) / static_cast<double>(all);
}

// The table's key attribute names: partition key, then sort key if any.
std::vector<std::string> TableKeys(const TableDescription& t) {
  std::vector<std::string> keys{t.key.partition.name};
  if (t.key.sort) keys.push_back(t.key.sort->name);
  return keys;
}

// The key shape signature of an item: the separators of each of `key_names`.
std::string Signature(const Item& item, const std::vector<std::string>& key_names) {
  std::string sig;
  for (const std::string& k : key_names) sig += ShapeOf(item, k) + "/";
  return sig;
}

// Groups items without a type attribute by their key prefixes, then merges groups with the
// same key shape and mostly the same attributes.
std::vector<Group> GroupByPrefix(const std::vector<const Item*>& items, const TableDescription& t,
                                 const std::set<std::string>& keys) {
  std::string pk = t.key.partition.name, sk = t.key.sort ? t.key.sort->name : "";
  std::vector<Group> groups;
  std::map<std::pair<std::string, std::string>, size_t> by_tags;
  for (const Item* item : items) {
    std::pair<std::string, std::string> tags{Tag(*item, pk), sk.empty() ? "" : Tag(*item, sk)};
    auto [it, inserted] = by_tags.emplace(tags, groups.size());
    if (inserted) groups.push_back({"", {}, tags.first, tags.second});
    groups[it->second].items.push_back(item);
  }
  const std::vector<std::string> key_order = TableKeys(t);
  // Merge: same shape (separators of the table keys), attributes mostly the same.
  std::vector<Group> merged;
  for (Group& g : groups) {
    bool done = false;
    for (Group& m : merged) {
      if (Signature(*m.items[0], key_order) != Signature(*g.items[0], key_order)) continue;
      if (Jaccard(AttributeNames(m, keys), AttributeNames(g, keys)) < 0.75) continue;
      m.items.insert(m.items.end(), g.items.begin(), g.items.end());
      if (m.pk_tag != g.pk_tag) m.pk_tag = "";
      if (m.sk_tag != g.sk_tag) m.sk_tag = "";
      done = true;
      break;
    }
    if (!done) merged.push_back(std::move(g));
  }
  // Names: the tag both keys share, else the sort key's (its item within the partition's
  // collection), else the partition key's; "<sk> in <pk>" when that name is taken twice.
  auto word = [](const std::string& tag) { return tag.starts_with("=") ? "" : tag; };
  for (Group& g : merged) {
    std::string p = word(g.pk_tag), s = word(g.sk_tag);
    g.name = !s.empty() ? s : !p.empty() ? p : t.name;
    if (p.empty() && s.empty() && g.sk_tag.starts_with("=") && !g.pk_tag.empty()) {
      g.name = g.sk_tag.substr(1);
    }
  }
  for (Group& g : merged) {
    size_t same = std::count_if(merged.begin(), merged.end(),
                                [&](const Group& o) { return o.name == g.name; });
    std::string p = word(g.pk_tag);
    if (same > 1 && !p.empty() && p != g.name) g.name = g.name + " in " + p;
  }
  for (Group& g : merged) {          // a fixed sort key (PROFILE, metadata:account) names the
    std::string p = word(g.pk_tag);  // partition's own entity
    bool fixed_sk = !sk.empty() && std::all_of(g.items.begin(), g.items.end(), [&](const Item* i) {
      auto a = i->find(sk), b = g.items[0]->find(sk);
      return a != i->end() && b != g.items[0]->end() && a->second == b->second;
    });
    if (fixed_sk && (g.items.size() > 1 || g.sk_tag.starts_with("=")) && !p.empty()) {
      size_t same =
          std::count_if(merged.begin(), merged.end(), [&](const Group& o) { return o.name == p; });
      if (same == 0) g.name = p;
    }
  }
  return merged;
}

// `hidden`: the key attributes and the type attribute (never a placeholder's name).
EntityShape MakeShape(const std::vector<const Item*>& items, const TableDescription& t,
                      const std::set<std::string>& hidden) {
  EntityShape shape;
  shape.items = static_cast<int64_t>(items.size());
  auto add = [&](const KeySchema& k, std::vector<KeyTemplate>* out) {
    for (const KeyAttribute* a : k.Attributes()) {
      KeyTemplate kt{a->name, "", 0, {}};
      kt.text = Template(items, a->name, hidden, &kt.items, &kt.segments);
      if (kt.items > 0) out->push_back(std::move(kt));
    }
  };
  add(t.key, &shape.keys);
  for (const IndexDescription& index : t.indexes) {
    EntityShape::IndexKeys ik{index.name, {}};
    add(index.key, &ik.keys);
    // An index holds the items carrying its partition key (and its sort key, if any).
    bool in_index = !ik.keys.empty() && ik.keys[0].attribute == index.key.partition.name;
    // A multi-attribute key holds only the items carrying all of its attributes.
    if (index.key.IsMultiAttribute()) in_index = ik.keys.size() == index.key.Attributes().size();
    if (index.kind == IndexKind::kLocal) in_index = !ik.keys.empty();
    if (in_index) shape.indexes.push_back(std::move(ik));
  }
  // A vector index holds the items carrying its vector (and its HASH search attribute, if
  // any): "byMeaning: tenant = <tenant>, embedding = VECTOR(4) COSINE".
  for (const VectorIndexDescription& v : t.vector_indexes) {
    const SearchAttribute* hash = v.Hash();
    const auto held = std::count_if(items.begin(), items.end(), [&](const Item* item) {
      return item->count(v.vector_attribute) && (!hash || item->count(hash->name));
    });
    if (held == 0) continue;
    EntityShape::IndexKeys ik{v.name, {}};
    if (hash) {
      KeyTemplate kt{hash->name, "", 0, {}};
      kt.text = Template(items, hash->name, hidden, &kt.items, &kt.segments);
      ik.keys.push_back(std::move(kt));
    }
    ik.keys.push_back({v.vector_attribute,
                       fmt::format("VECTOR({}) {}", v.dimensions, DistanceFunctionName(v.distance)),
                       held,
                       {}});
    // The count shown is the items the index holds.
    if (hash) ik.keys[0].items = held;
    shape.indexes.push_back(std::move(ik));
  }
  return shape;
}

}  // namespace

KeySegments SplitKeyValue(const std::string& v) {
  KeySegments out;
  std::string current;
  for (size_t i = 0; i < v.size(); ++i) {
    char c = v[i];
    bool separator =
        c == '#' || c == '|' ||
        (c == ':' && !(i > 0 && i + 1 < v.size() && IsDigit(v[i - 1]) && IsDigit(v[i + 1])));
    // '-' and '_' after a word, before a run holding a digit: tenant-1, project_7, user-a1b2
    // (not in-progress, a date's 2024-03-03 or a UUID's 550e8400-e29b).
    if ((c == '-' || c == '_') && !current.empty() &&
        std::all_of(current.begin(), current.end(),
                    [](unsigned char x) { return std::isalpha(x) != 0; })) {
      bool digit = false;
      for (size_t j = i + 1; j < v.size(); ++j) {
        const char d = v[j];
        if (d == '#' || d == '|' || d == ':' || d == '-' || d == '_') break;
        digit |= IsDigit(d);
      }
      separator = digit;
    }
    if (separator) {
      out.parts.push_back(std::move(current));
      current.clear();
      out.separators += c;
    } else {
      current += c;
    }
  }
  out.parts.push_back(std::move(current));
  return out;
}

std::vector<std::string> TypeAttributeNames() {
  return {std::begin(kTypeAttributes), std::end(kTypeAttributes)};
}

std::string TypeAttributeOf(const std::vector<Item>& items) {
  for (size_t i = 0; i < std::size(kTypeAttributes); ++i) {
    const char* candidate = kTypeAttributes[i];
    size_t with = std::count_if(items.begin(), items.end(), [&](const Item& item) {
      auto it = item.find(candidate);
      return it != item.end() && it->second.type() == ValueType::kS;
    });
    const bool enough = i < kKeenTypeAttributes ? with * 2 >= items.size() : with == items.size();
    if (with > 0 && enough) return candidate;
  }
  return "";
}

Model InferModel(const TableDescription& t, const std::vector<Item>& items,
                 const std::string& type_attribute) {
  Model model;
  model.items = static_cast<int64_t>(items.size());
  std::set<std::string> keys{t.key.partition.name};
  if (t.key.sort) keys.insert(t.key.sort->name);
  for (const IndexDescription& index : t.indexes) {
    for (const std::string& name : index.key.Names()) keys.insert(name);
  }
  model.type_attribute = type_attribute.empty() ? TypeAttributeOf(items) : type_attribute;
  std::vector<Group> groups;
  std::vector<const Item*> untyped;
  std::map<std::string, size_t> by_type;
  for (const Item& item : items) {
    auto it = model.type_attribute.empty() ? item.end() : item.find(model.type_attribute);
    if (it == item.end() || it->second.type() != ValueType::kS) {
      untyped.push_back(&item);
      continue;
    }
    auto [g, inserted] = by_type.emplace(it->second.s(), groups.size());
    if (inserted) groups.push_back({it->second.s(), {}, "", ""});
    groups[g->second].items.push_back(&item);
  }
  if (!untyped.empty()) {
    for (Group& g : GroupByPrefix(untyped, t, keys)) {
      if (!model.type_attribute.empty()) g.name = "(no " + model.type_attribute + ") " + g.name;
      groups.push_back(std::move(g));
    }
  }
  std::set<std::string> hidden = keys;
  if (!model.type_attribute.empty()) hidden.insert(model.type_attribute);
  const std::vector<std::string> table_keys = TableKeys(t);
  for (const Group& g : groups) {
    Entity e;
    e.name = g.name;
    e.items = static_cast<int64_t>(g.items.size());
    for (const Item* item : g.items)
      e.item_indexes.push_back(static_cast<size_t>(item - items.data()));
    // Shapes: items whose keys have the same prefixes and separators.
    std::vector<std::pair<std::string, std::vector<const Item*>>> shapes;
    for (const Item* item : g.items) {
      std::string sig;  // prefix groups are one shape each
      if (!model.type_attribute.empty()) {
        for (const std::string& k : table_keys) sig += Tag(*item, k) + "/";
        sig += Signature(*item, table_keys);
      }
      auto it =
          std::find_if(shapes.begin(), shapes.end(), [&](const auto& s) { return s.first == sig; });
      if (it == shapes.end()) {
        shapes.push_back({sig, {}});
        it = shapes.end() - 1;
      }
      it->second.push_back(item);
    }
    std::stable_sort(shapes.begin(), shapes.end(), [](const auto& a, const auto& b) {
      return a.second.size() > b.second.size();
    });
    for (const auto& [sig, members] : shapes) e.shapes.push_back(MakeShape(members, t, hidden));
    std::map<std::string, AttributeSummary> attributes;
    for (const Item* item : g.items) {
      for (const auto& [name, value] : *item) {
        if (hidden.contains(name)) continue;
        AttributeSummary& a = attributes[name];
        a.name = name;
        ++a.items;
        std::string type(TypeName(value.type()));
        if (("|" + a.types + "|").find("|" + type + "|") == std::string::npos) {
          a.types += (a.types.empty() ? "" : "|") + type;
        }
      }
    }
    for (auto& [name, a] : attributes) e.attributes.push_back(std::move(a));
    model.entities.push_back(std::move(e));
  }
  return model;
}

std::string FormatModel(const TableDescription& t, const Model& model) {
  std::string out = fmt::format(
      "-- {}: {} item{}, {} entity type{} ({})\n", t.name, model.items, model.items == 1 ? "" : "s",
      model.entities.size(), model.entities.size() == 1 ? "" : "s",
      model.type_attribute.empty() ? "told apart by key prefixes"
                                   : "by the attribute " + model.type_attribute);
  auto of = [](int64_t some, int64_t all) {
    return some == all ? std::string() : fmt::format(" ({} of {})", some, all);
  };
  if (model.items == 0) {
    out += "-- no items: .model reads the entity types off the items; add some first\n";
  } else if (model.items < 3) {
    out += "-- too few items to tell which parts of the keys vary: the keys show as stored\n";
  }
  for (const Entity& e : model.entities) {
    out += fmt::format("\n{} · {} item{}\n", e.name, e.items, e.items == 1 ? "" : "s");
    if (e.items == 1 && model.items >= 3) {
      out += "  (one item: its keys show as stored; a template needs two or more)\n";
    }
    for (size_t i = 0; i < e.shapes.size(); ++i) {
      const EntityShape& shape = e.shapes[i];
      std::string indent = "  ";
      if (e.shapes.size() > 1) {
        out += fmt::format("  shape {} · {} item{}\n", i + 1, shape.items,
                           shape.items == 1 ? "" : "s");
        indent = "    ";
      }
      for (const KeyTemplate& k : shape.keys) {
        out += fmt::format("{}{} = {}{}\n", indent, k.attribute, k.text, of(k.items, shape.items));
      }
      for (const EntityShape::IndexKeys& ik : shape.indexes) {
        std::string keys;
        for (const KeyTemplate& k : ik.keys) {
          keys += fmt::format("{}{} = {}", keys.empty() ? "" : ", ", k.attribute, k.text);
        }
        out +=
            fmt::format("{}{}{}: {}\n", indent, ik.index, of(ik.keys[0].items, shape.items), keys);
      }
    }
    std::string attributes;
    for (const AttributeSummary& a : e.attributes) {
      attributes += fmt::format("{}{} {}{}", attributes.empty() ? "" : ", ", a.name, a.types,
                                of(a.items, e.items));
    }
    if (!attributes.empty()) out += "  attributes: " + attributes + "\n";
  }
  return out;
}

Status CheckTypeAttribute(const std::string& table, const std::vector<Item>& items,
                          const std::string& name) {
  if (name.empty()) return Status::OK();
  const bool carried = std::any_of(items.begin(), items.end(), [&](const Item& item) {
    auto it = item.find(name);
    return it != item.end() && it->second.type() == ValueType::kS;
  });
  if (carried) return Status::OK();
  return Status::Validation(
      fmt::format("no item of {} has a string attribute {} to name its entity type (names are "
                  "case-sensitive)",
                  table, name));
}

}  // namespace keyhole::modeling
