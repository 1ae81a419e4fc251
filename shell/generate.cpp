#include "shell/generate.h"

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
#include "shell/model.h"

namespace keyhole::shell {

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
  const std::time_t t = static_cast<std::time_t>(epoch);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof text, date_only ? "%Y-%m-%d" : "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
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

const Entity* FindEntity(const Model& model, const std::string& name) {
  for (const Entity& e : model.entities) {
    if (e.name.size() == name.size() &&
        std::equal(e.name.begin(), e.name.end(), name.begin(), [](char a, char b) {
          return std::tolower(static_cast<unsigned char>(a)) ==
                 std::tolower(static_cast<unsigned char>(b));
        })) {
      return &e;
    }
  }
  return nullptr;
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

}  // namespace

Result<Generated> GenerateItems(const TableDescription& table, const std::vector<Item>& existing,
                                const GenerateOptions& options) {
  const Model model = InferModel(table, existing);
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
  const Entity* entity = FindEntity(model, options.entity);
  if (!entity) return missing(options.entity);
  const Entity* parent = nullptr;
  if (options.per) {
    parent = FindEntity(model, *options.per);
    if (!parent) return missing(*options.per);
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
  Generated out;
  for (const KeyTemplate& k : shape.keys) {
    out.shape += (out.shape.empty() ? "" : ", ") + k.attribute + " = " + k.text;
  }
  Maker make(options.seed);
  std::set<std::string> keys_taken;
  for (const Item& item : existing) {
    std::string k;
    for (const std::string& name : table.key.Names()) {
      if (auto it = item.find(name); it != item.end()) k += ValueToJsonText(it->second) + "\n";
    }
    keys_taken.insert(k);
  }
  const double examples = static_cast<double>(entity->items);
  for (int64_t n = 0; n < options.count; ++n) {
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
        item.emplace(name, make.Value(p, n * 10 + attempt));
      }
      bool complete = true;
      for (const KeyTemplate* k : templates) {
        const bool table_key = table.key.Has(k->attribute);
        if (!table_key &&
            make.Uniform() * static_cast<double>(shape.items) >= static_cast<double>(k->items)) {
          continue;  // a sparse index stays as sparse
        }
        std::string text = k->text;
        for (size_t at = text.find('<'); at != std::string::npos; at = text.find('<')) {
          const size_t end = text.find('>', at);
          if (end == std::string::npos) break;
          const std::string name = text.substr(at + 1, end - at - 1);
          std::string value;
          if (auto it = item.find(name); it != item.end()) {
            value = it->second.is(ValueType::kS)   ? it->second.s()
                    : it->second.is(ValueType::kN) ? it->second.n().ToString()
                                                   : make.Id(8, false);
          } else if (name == "timestamp") {
            value = make.Time(nullptr);
          } else if (name == "number") {
            value = fmt::format("{:06}", n);
          } else {
            value = make.Id(8, false);
          }
          text.replace(at, end - at + 1, value);
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

}  // namespace keyhole::shell
