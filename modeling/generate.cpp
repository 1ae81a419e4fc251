#include "modeling/generate.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <ctime>
#include <map>
#include <random>
#include <set>

#include "core/ddb_json.h"
#include "core/number.h"
#include "core/strings.h"
#include "core/time.h"
#include "modeling/model.h"

namespace keyhole::modeling {

namespace {

bool IsTimestamp(const std::string& s) {
  return s.size() >= 10 && std::isdigit(static_cast<unsigned char>(s[0])) && s[4] == '-' &&
         s[7] == '-' && std::isdigit(static_cast<unsigned char>(s[9]));
}

// Epoch seconds of "YYYY-MM-DD[THH:MM:SS...]" (UTC), or nullopt.
std::optional<int64_t> EpochOf(const std::string& s) {
  std::tm tm{};
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, se = 0;
  if (std::sscanf(s.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d", &y, &mo, &d, &h, &mi, &se) < 3) {
    return std::nullopt;
  }
  tm.tm_year = y - 1900;
  tm.tm_mon = mo - 1;
  tm.tm_mday = d;
  tm.tm_hour = h;
  tm.tm_min = mi;
  tm.tm_sec = se;
  return static_cast<int64_t>(timegm(&tm));
}

std::string IsoTime(int64_t epoch, bool date_only) {
  return date_only ? IsoDate(static_cast<double>(epoch)) : IsoSeconds(static_cast<double>(epoch));
}

bool LooksLikeId(const std::string& s) {
  return s.size() >= 5 && std::all_of(s.begin(), s.end(), [](char c) {
           return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
         });
}

// What the examples of one attribute look like.
struct Profile {
  std::string name;
  int64_t present = 0;
  std::vector<const AttributeValue*> values;
  bool in_key = false;  // a key template names it: new items need new values
};

class Maker {
 public:
  explicit Maker(uint64_t seed) : rng_(seed) {}

  double Uniform() { return std::uniform_real_distribution<double>(0, 1)(rng_); }
  size_t Index(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng_); }

  std::string Id(size_t length, bool lower_only) {
    static constexpr char kChars[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    std::string out;
    for (size_t i = 0; i < length; ++i) out += kChars[Index(lower_only ? 26 : 36)];
    return out;
  }

  // A time within the examples' range (a month around them when they are one time).
  std::string Time(const Profile* p) {
    int64_t lo = 1704067200, hi = 1735689600;  // 2024
    bool date_only = false;
    if (p) {
      std::optional<int64_t> min, max;
      for (const AttributeValue* v : p->values) {
        if (!v->is(ValueType::kS)) continue;
        date_only = v->s().size() == 10;
        if (std::optional<int64_t> e = EpochOf(v->s())) {
          min = min ? std::min(*min, *e) : *e;
          max = max ? std::max(*max, *e) : *e;
        }
      }
      if (min) {
        lo = *min;
        hi = std::max(*max, *min + 30 * 86400);
      }
    }
    return IsoTime(std::uniform_int_distribution<int64_t>(lo, hi)(rng_), date_only);
  }

  // A new value for an attribute, like its examples; `n` makes unique ones unique.
  AttributeValue Value(const Profile& p, int64_t n) {
    const AttributeValue& first = *p.values.front();
    const bool all_same = std::all_of(p.values.begin(), p.values.end(),
                                      [&](const AttributeValue* v) { return *v == first; });
    if (first.is(ValueType::kS)) {
      const bool strings =
          std::all_of(p.values.begin(), p.values.end(),
                      [](const AttributeValue* v) { return v->is(ValueType::kS); });
      if (strings && std::all_of(p.values.begin(), p.values.end(),
                                 [](const AttributeValue* v) { return IsTimestamp(v->s()); })) {
        return AttributeValue::S(Time(&p));
      }
      if (strings && first.s().find('@') != std::string::npos) {
        const std::string& s = p.values[Index(p.values.size())]->s();
        const size_t at = s.find('@');
        return AttributeValue::S(fmt::format("{}{}{}", s.substr(0, at), n, s.substr(at)));
      }
      if (strings && p.in_key) {
        const std::string& s = p.values[Index(p.values.size())]->s();
        if (LooksLikeId(s) && std::any_of(s.begin(), s.end(), [](char c) {
              return std::isdigit(static_cast<unsigned char>(c));
            })) {
          return AttributeValue::S(Id(s.size(), false));
        }
        std::string base = s;
        while (!base.empty() && std::isdigit(static_cast<unsigned char>(base.back()))) {
          base.pop_back();
        }
        return AttributeValue::S(fmt::format("{}{}", base, n));
      }
    }
    if (all_same) return first;
    if (first.is(ValueType::kN) &&
        std::all_of(p.values.begin(), p.values.end(),
                    [](const AttributeValue* v) { return v->is(ValueType::kN); })) {
      double lo = 0, hi = 0;
      bool whole = true, seen = false;
      for (const AttributeValue* v : p.values) {
        const double d = std::stod(v->n().ToString());
        whole = whole && d == std::floor(d);
        lo = seen ? std::min(lo, d) : d;
        hi = seen ? std::max(hi, d) : d;
        seen = true;
      }
      const double x = lo + (hi - lo) * Uniform();
      const std::string text = whole ? fmt::format("{}", static_cast<int64_t>(std::llround(x)))
                                     : fmt::format("{:.2f}", x);
      return AttributeValue::N(Number::Parse(text).value());
    }
    return *p.values[Index(p.values.size())];  // a recurring string, text, sets, documents
  }

  // A new value shaped as one of `examples` (an id): each digit, lower-case and upper-case
  // letter drawn anew, anything else (a '-' of a UUID) kept.
  std::string LikeExample(const std::vector<std::string>& examples) {
    std::vector<const std::string*> held;
    for (const std::string& e : examples) {
      if (!e.empty()) held.push_back(&e);
    }
    if (held.empty()) return Id(8, false);
    std::string out = *held[Index(held.size())];
    const bool hex = std::all_of(held.begin(), held.end(), [](const std::string* e) {
      return std::all_of(e->begin(), e->end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c)) || (c >= 'a' && c <= 'f') || c == '-';
      });
    });
    for (char& c : out) {
      if (hex && (std::isdigit(static_cast<unsigned char>(c)) || (c >= 'a' && c <= 'f'))) {
        c = "0123456789abcdef"[Index(16)];
      } else if (std::isdigit(static_cast<unsigned char>(c))) {
        c = static_cast<char>('0' + Index(10));
      } else if (c >= 'a' && c <= 'z') {
        c = static_cast<char>('a' + Index(26));
      } else if (c >= 'A' && c <= 'Z') {
        c = static_cast<char>('A' + Index(26));
      }
    }
    return out;
  }

  // Draws a parent: uniformly, or by Zipf's law with exponent `s` (rank 1 the most).
  size_t Parent(size_t parents, double s) {
    if (s <= 0) return Index(parents);
    if (cdf_.size() != parents) {
      cdf_.assign(parents, 0);
      double total = 0;
      for (size_t r = 0; r < parents; ++r) cdf_[r] = total += 1 / std::pow(double(r + 1), s);
      for (double& c : cdf_) c /= total;
    }
    const double u = Uniform();
    return std::min<size_t>(std::lower_bound(cdf_.begin(), cdf_.end(), u) - cdf_.begin(),
                            parents - 1);
  }

 private:
  std::mt19937_64 rng_;
  std::vector<double> cdf_;
};

// Whether a and b are the same word in any case.
bool SameName(const std::string& a, const std::string& b) { return AsciiEqualIgnoringCase(a, b); }

// The entities of `model` named `name` (any case).
std::vector<const Entity*> FindEntities(const Model& model, const std::string& name) {
  std::vector<const Entity*> out;
  for (const Entity& e : model.entities) {
    if (SameName(e.name, name)) out.push_back(&e);
  }
  return out;
}

// The attribute names between < and > in a template.
std::vector<std::string> Placeholders(const std::string& text) {
  std::vector<std::string> out;
  for (size_t at = text.find('<'); at != std::string::npos; at = text.find('<', at + 1)) {
    const size_t end = text.find('>', at);
    if (end == std::string::npos) break;
    out.push_back(text.substr(at + 1, end - at - 1));
  }
  return out;
}

bool IsPlaceholder(const std::string& part) {
  return part.size() >= 2 && part.front() == '<' && part.back() == '>';
}

// A placeholder segment of one of the entity's key templates, and what each of its items holds
// there ("" where an item lacks the attribute or has another shape).
// At most `n` of `v`, evenly spread, the first and the last kept: what shapes a new value
// (its form, its range) is read from a sample, so that the work per new item does not grow with
// the items the table holds (100,000 posts made under 100,000 others: seconds, not hours).
template <class T>
std::vector<T> Spread(const std::vector<T>& v, size_t n) {
  if (v.size() <= n || n < 2) return v;
  std::vector<T> out;
  out.reserve(n);
  for (size_t i = 0; i < n; ++i) out.push_back(v[i * (v.size() - 1) / (n - 1)]);
  return out;
}
constexpr size_t kShapingExamples = 1000;

struct Slot {
  size_t t = 0;      // the template
  size_t p = 0;      // the part
  std::string name;  // the placeholder: timestamp, number, id or an attribute's name
  std::vector<std::string> examples;
  std::vector<std::string> sample;  // Spread of the non-empty examples, for new values' shape
  // For a timestamp: the examples as values, for Maker::Time's range and form (time_profile
  // points into times: made once every slot is in place, and slots do not move after).
  std::vector<AttributeValue> times;
  Profile time_profile;
};

// What `item` holds in part `p` of the key template `k`, when its value has the template's shape.
std::optional<std::string> SegmentOf(const Item& item, const KeyTemplate& k, size_t p) {
  auto it = item.find(k.attribute);
  if (it == item.end()) return std::nullopt;
  std::string text;
  if (it->second.is(ValueType::kS)) {
    text = it->second.s();
  } else if (it->second.is(ValueType::kN)) {
    text = it->second.n().ToString();
  } else {
    return std::nullopt;
  }
  KeySegments seg = SplitKeyValue(text);
  if (seg.separators != k.segments.separators || p >= seg.parts.size()) return std::nullopt;
  return seg.parts[p];
}

}  // namespace

Result<Generated> GenerateItems(const TableDescription& table, const std::vector<Item>& existing,
                                const GenerateOptions& options) {
  KH_RETURN_IF_ERROR(CheckTypeAttribute(table.name, existing, options.type_attribute));
  const Model model = InferModel(table, existing, options.type_attribute);
  auto missing = [&](const std::string& name) {
    std::string names;
    for (const Entity& e : model.entities) names += (names.empty() ? "" : ", ") + e.name;
    return Status::Validation(
        names.empty()
            ? fmt::format("{} has no items to learn {} from: .generate makes more of an entity "
                          "type the table already has",
                          table.name, name)
            : fmt::format("{} has no entity type {}; .model finds {}", table.name, name, names));
  };
  // One entity of the name, or a refusal: several of one name are not picked from silently.
  auto find = [&](const std::string& name) -> Result<const Entity*> {
    std::vector<const Entity*> found = FindEntities(model, name);
    if (found.empty()) return missing(name);
    if (found.size() == 1) return found[0];
    std::string shapes;
    for (const Entity* e : found) {
      std::string keys;
      for (const KeyTemplate& k : e->shapes.front().keys) {
        keys += (keys.empty() ? "" : ", ") + k.attribute + " = " + k.text;
      }
      shapes += fmt::format("{}({}; {} items)", shapes.empty() ? "" : ", ", keys, e->items);
    }
    return Status::Validation(fmt::format(
        "{} entity types of {} are named {}: {}. .generate cannot tell which is meant; name "
        "their type attribute (.generate ... BY ATTRIBUTE, .model {} BY ATTRIBUTE) or give "
        "their items one",
        found.size(), table.name, found[0]->name, shapes, table.name));
  };
  KH_ASSIGN_OR_RETURN(const Entity* entity, find(options.entity));
  const Entity* parent = nullptr;
  if (options.per) {
    KH_ASSIGN_OR_RETURN(parent, find(*options.per));
  }
  const EntityShape& shape = entity->shapes.front();
  std::vector<const KeyTemplate*> templates;
  for (const KeyTemplate& k : shape.keys) templates.push_back(&k);
  for (const auto& ik : shape.indexes) {
    for (const KeyTemplate& k : ik.keys) templates.push_back(&k);
  }
  std::set<std::string> in_key;
  for (const KeyTemplate* k : templates) {
    for (const std::string& p : Placeholders(k->text)) in_key.insert(p);
  }
  std::set<std::string> key_attributes;
  for (const KeyTemplate* k : templates) key_attributes.insert(k->attribute);
  // Profiles of the non-key attributes, from the entity's items.
  std::map<std::string, Profile> profiles;
  for (size_t i : entity->item_indexes) {
    for (const auto& [name, value] : existing[i]) {
      if (key_attributes.contains(name) || table.key.Has(name)) continue;
      Profile& p = profiles[name];
      p.name = name;
      ++p.present;
      p.values.push_back(&value);
      p.in_key = in_key.contains(name);
    }
  }
  for (auto& [name, p] : profiles) p.values = Spread(p.values, kShapingExamples);
  Generated out;
  for (const KeyTemplate& k : shape.keys) {
    out.shape += (out.shape.empty() ? "" : ", ") + k.attribute + " = " + k.text;
  }
  // The placeholder segments of the templates, with what the examples hold in them.
  std::vector<Slot> slots;
  for (size_t t = 0; t < templates.size(); ++t) {
    const KeySegments& seg = templates[t]->segments;
    for (size_t p = 0; p < seg.parts.size(); ++p) {
      if (IsPlaceholder(seg.parts[p])) {
        slots.push_back({t, p, seg.parts[p].substr(1, seg.parts[p].size() - 2), {}, {}, {}});
      }
    }
  }
  for (size_t i : entity->item_indexes) {
    for (Slot& slot : slots) {
      std::optional<std::string> v = SegmentOf(existing[i], *templates[slot.t], slot.p);
      slot.examples.push_back(v ? *v : std::string());
    }
  }
  for (Slot& slot : slots) {  // made once, not for every new item
    for (const std::string& e : slot.examples) {
      if (!e.empty()) slot.sample.push_back(e);
    }
    slot.sample = Spread(slot.sample, kShapingExamples);
    if (slot.name != "timestamp") continue;
    for (const std::string& e : slot.sample) slot.times.push_back(AttributeValue::S(e));
    for (const AttributeValue& v : slot.times) slot.time_profile.values.push_back(&v);
  }
  // Segments equal in every example that has both are one value (union-find).
  std::vector<size_t> group(slots.size());
  for (size_t a = 0; a < slots.size(); ++a) group[a] = a;
  auto root = [&](size_t a) {
    while (group[a] != a) a = group[a] = group[group[a]];
    return a;
  };
  for (size_t a = 0; a < slots.size(); ++a) {
    for (size_t b = a + 1; b < slots.size(); ++b) {
      bool both = false, equal = true;
      for (size_t i = 0; i < slots[a].examples.size() && equal; ++i) {
        const std::string &x = slots[a].examples[i], &y = slots[b].examples[i];
        if (x.empty() || y.empty()) continue;
        both = true;
        equal = x == y;
      }
      if (both && equal) group[root(a)] = root(b);
    }
  }
  // PER a parent: a slot after the same literal as a slot of the parent's keys takes the
  // parent's value there.
  std::vector<const KeyTemplate*> parent_templates;
  if (parent) {
    const EntityShape& ps = parent->shapes.front();
    for (const KeyTemplate& k : ps.keys) parent_templates.push_back(&k);
    for (const auto& ik : ps.indexes) {
      for (const KeyTemplate& k : ik.keys) parent_templates.push_back(&k);
    }
  }
  struct ParentSource {
    const KeyTemplate* t = nullptr;
    size_t p = 0;
  };
  std::map<size_t, ParentSource> from_parent;  // group root -> the parent's segment
  for (size_t a = 0; a < slots.size() && parent; ++a) {
    const KeySegments& seg = templates[slots[a].t]->segments;
    const std::string before = slots[a].p > 0 ? seg.parts[slots[a].p - 1] : std::string();
    for (const KeyTemplate* pt : parent_templates) {
      const KeySegments& ps = pt->segments;
      for (size_t p = 0; p < ps.parts.size(); ++p) {
        if (!IsPlaceholder(ps.parts[p])) continue;
        const bool same_literal =
            p > 0 && slots[a].p > 0 && !IsPlaceholder(before) && SameName(ps.parts[p - 1], before);
        // A key made of one placeholder, as the parent's same key is (`<accountId>`).
        const bool same_whole = seg.parts.size() == 1 && ps.parts.size() == 1 &&
                                pt->attribute == templates[slots[a].t]->attribute;
        if ((same_literal || same_whole) && !from_parent.contains(root(a))) {
          from_parent[root(a)] = {pt, p};
        }
      }
    }
  }
  if (parent) {
    std::set<std::string> parent_names;
    for (const KeyTemplate* pt : parent_templates) {
      for (const std::string& n : Placeholders(pt->text)) parent_names.insert(n);
    }
    const bool shares_attribute = std::any_of(profiles.begin(), profiles.end(), [&](const auto& p) {
      return p.second.in_key && parent_names.contains(p.first);
    });
    if (from_parent.empty() && !shares_attribute) {
      std::string parent_shape;
      for (const KeyTemplate& k : parent->shapes.front().keys) {
        parent_shape += (parent_shape.empty() ? "" : ", ") + k.attribute + " = " + k.text;
      }
      return Status::Validation(fmt::format(
          "{}'s keys ({}) share no segment with {}'s ({}): .generate cannot put a {} under a "
          "{}. Items belong under a parent when a key holds the parent's value after the same "
          "literal (ACCOUNT#<id> in both), or an attribute the parent's key names",
          entity->name, out.shape, parent->name, parent_shape, entity->name, parent->name));
    }
  }
  // Numbers continue after the largest the entity holds, so that every run's keys are new.
  std::map<size_t, int64_t> next_number;
  std::map<size_t, size_t> number_width;
  for (size_t a = 0; a < slots.size(); ++a) {
    if (slots[a].name != "number") continue;
    int64_t max = 0;
    size_t width = 0;
    bool padded = false;
    for (const std::string& e : slots[a].examples) {
      if (e.empty() || e.size() > 18 ||
          !std::all_of(e.begin(), e.end(), [](unsigned char c) { return std::isdigit(c); }))
        continue;
      max = std::max<int64_t>(max, std::stoll(e));
      width = std::max(width, e.size());
      padded |= e.size() > 1 && e[0] == '0';
    }
    next_number[root(a)] = std::max(next_number[root(a)], max + 1);
    if (padded) number_width[root(a)] = std::max(number_width[root(a)], width);
  }
  // The seed and the table's size: a second run with the same seed draws new ids, not the
  // first run's again (each of which it would find taken).
  Maker make(options.seed * 0x9E3779B97F4A7C15ULL + existing.size());
  std::set<std::string> keys_taken;
  for (const Item& item : existing) {
    std::string k;
    for (const std::string& name : table.key.Names()) {
      if (auto it = item.find(name); it != item.end()) k += ValueToJsonText(it->second) + "\n";
    }
    keys_taken.insert(k);
  }
  const double examples = static_cast<double>(entity->items);
  // Values made unique by a counter start past the ones earlier runs made.
  const int64_t fresh = static_cast<int64_t>(existing.size()) * 10;
  for (int64_t n = 0; n < options.count; ++n) {
    if (options.cancel && (n & 1023) == 0 && options.cancel->load(std::memory_order_relaxed)) {
      out.interrupted = true;
      break;
    }
    bool made = false;
    for (int attempt = 0; attempt < 10 && !made; ++attempt) {
      Item item;
      const Item* from = nullptr;
      if (parent)
        from =
            &existing[parent->item_indexes[make.Parent(parent->item_indexes.size(), options.zipf)]];
      for (const auto& [name, p] : profiles) {
        if (from && p.in_key) {  // the parent's, so the item joins its collection
          if (auto it = from->find(name); it != from->end()) {
            item.emplace(name, it->second);
            continue;
          }
        }
        if (!p.in_key && make.Uniform() * examples >= static_cast<double>(p.present)) continue;
        item.emplace(name, make.Value(p, fresh + n * 10 + attempt));
      }
      // One value per group of segments: an attribute's, the parent's, or a new one.
      std::map<size_t, std::string> values;
      for (size_t a = 0; a < slots.size(); ++a) {
        const Slot& slot = slots[a];
        auto it = item.find(slot.name);
        if (it != item.end() && (it->second.is(ValueType::kS) || it->second.is(ValueType::kN))) {
          values[root(a)] =
              it->second.is(ValueType::kS) ? it->second.s() : it->second.n().ToString();
        }
      }
      for (size_t a = 0; a < slots.size(); ++a) {
        const size_t g = root(a);
        if (values.contains(g)) continue;
        if (auto src = from_parent.find(g); src != from_parent.end() && from) {
          if (std::optional<std::string> v = SegmentOf(*from, *src->second.t, src->second.p)) {
            values[g] = *v;
            continue;
          }
        }
        const Slot& slot = slots[a];
        if (slot.name == "timestamp") {
          values[g] = make.Time(slot.times.empty() ? nullptr : &slot.time_profile);
        } else if (slot.name == "number") {
          const int64_t x = next_number[g]++;
          values[g] = number_width.contains(g) ? fmt::format("{:0{}}", x, number_width[g])
                                               : fmt::format("{}", x);
        } else {
          values[g] = make.LikeExample(slot.sample);
        }
      }
      bool complete = true;
      for (size_t t = 0; t < templates.size(); ++t) {
        const KeyTemplate* k = templates[t];
        const bool table_key = table.key.Has(k->attribute);
        if (!table_key &&
            make.Uniform() * static_cast<double>(shape.items) >= static_cast<double>(k->items)) {
          continue;  // a sparse index stays as sparse
        }
        std::string text;
        if (k->segments.parts.empty()) {  // values of several shapes: as before, by text
          text = k->text;
        } else {
          for (size_t p = 0; p < k->segments.parts.size(); ++p) {
            const std::string& part = k->segments.parts[p];
            if (!IsPlaceholder(part)) {
              text += part;
            } else {
              for (size_t a = 0; a < slots.size(); ++a) {
                if (slots[a].t == t && slots[a].p == p) text += values[root(a)];
              }
            }
            if (p < k->segments.separators.size()) text += k->segments.separators[p];
          }
        }
        // The key's type: a number key takes the text as a number.
        const KeyAttribute* type = nullptr;
        for (const KeyAttribute* a : table.key.Attributes()) {
          if (a->name == k->attribute) type = a;
        }
        for (const IndexDescription& idx : table.indexes) {
          for (const KeyAttribute* a : idx.key.Attributes()) {
            if (a->name == k->attribute) type = a;
          }
        }
        if (type && type->type == ValueType::kN) {
          Result<Number> num = Number::Parse(text);
          if (!num.ok()) {
            complete = !table_key && complete;
            continue;
          }
          item.insert_or_assign(k->attribute, AttributeValue::N(std::move(num).value()));
        } else {
          item.insert_or_assign(k->attribute, AttributeValue::S(text));
        }
      }
      if (!complete) continue;
      std::string k;
      for (const std::string& name : table.key.Names()) {
        auto it = item.find(name);
        if (it == item.end()) break;
        k += ValueToJsonText(it->second) + "\n";
      }
      if (!keys_taken.insert(k).second) continue;
      out.items.push_back(std::move(item));
      made = true;
    }
    if (!made) ++out.skipped;
  }
  return out;
}

}  // namespace keyhole::modeling
