// LoadPrices (prices.h): the built-in us-east-1 table and prices files.
#include "modeling/prices.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>

#include "core/file.h"
#include "core/json.h"

namespace keyhole::modeling {

namespace {

Prices BuiltIn() {
  Prices p;
  p.region = "us-east-1";
  p.date = std::string(kBuiltInDate);
  p.source = "built in";
  p.on_demand_read_per_million = 0.125;
  p.on_demand_write_per_million = 0.625;
  p.rcu_hour = 0.00013;
  p.wcu_hour = 0.00065;
  p.storage_gb_month = 0.25;
  p.vector_write_per_gb = 0.52;
  p.vector_search_per_gb = 0.002;
  return p;
}

Status FileError(const std::string& path, std::string_view what) {
  return Status::Validation(fmt::format("prices file {}: {}", path, what));
}

// One region's object: every price, each a number of at least 0.
Result<Prices> RegionPrices(const json::Value& v, const std::string& path, std::string region,
                            std::string date) {
  if (!v.IsObject()) return FileError(path, fmt::format("region {} is not an object", region));
  Prices p;
  p.region = std::move(region);
  p.date = std::move(date);
  p.source = path;
  const std::map<std::string_view, double*> members = {
      {"on_demand_read_per_million", &p.on_demand_read_per_million},
      {"on_demand_write_per_million", &p.on_demand_write_per_million},
      {"rcu_hour", &p.rcu_hour},
      {"wcu_hour", &p.wcu_hour},
      {"storage_gb_month", &p.storage_gb_month}};
  double vector_write = 0, vector_search = 0;
  const std::map<std::string_view, double*> optional = {{"vector_write_per_gb", &vector_write},
                                                        {"vector_search_per_gb", &vector_search}};
  std::set<std::string_view> seen;
  for (const auto& [name, value] : v.object()) {
    if (name == "region" || name == "date") continue;
    const std::pair<const std::string_view, double*>* m = nullptr;
    if (auto it = members.find(name); it != members.end()) m = &*it;
    if (auto it = optional.find(name); it != optional.end()) m = &*it;
    if (!m) {
      return FileError(path, fmt::format("unknown member \"{}\" (the prices are {})", name,
                                         "on_demand_read_per_million, on_demand_write_per_million, "
                                         "rcu_hour, wcu_hour, storage_gb_month, and optionally "
                                         "vector_write_per_gb, vector_search_per_gb"));
    }
    double d = value.IsNumber() ? std::strtod(value.number_text().c_str(), nullptr) : -1;
    if (!(d >= 0) || !std::isfinite(d) || d > 1e9) {
      return FileError(path, fmt::format("\"{}\" must be a number from 0 to 1,000,000,000", name));
    }
    if (!seen.insert(m->first).second) {
      return FileError(path, fmt::format("\"{}\" is given twice", name));
    }
    *m->second = d;
  }
  if (seen.contains("vector_write_per_gb")) p.vector_write_per_gb = vector_write;
  if (seen.contains("vector_search_per_gb")) p.vector_search_per_gb = vector_search;
  if (std::ranges::count_if(seen, [&](std::string_view n) { return members.contains(n); }) !=
      static_cast<std::ptrdiff_t>(members.size())) {
    for (const auto& [name, _] : members) {
      if (!v.Find(name))
        return FileError(path, fmt::format("region {} lacks \"{}\"", p.region, name));
    }
  }
  return p;
}

std::string StringMember(const json::Value& v, std::string_view name) {
  const json::Value* m = v.Find(name);
  return m && m->IsString() ? m->str() : "";
}

}  // namespace

Result<Prices> LoadPrices(const std::string& region, const std::string& path) {
  if (path.empty()) {
    if (region.empty() || region == "us-east-1") return BuiltIn();
    return Status::Validation(fmt::format(
        "no built-in prices for region {}: keyhole holds us-east-1's; give the region's prices "
        "with --prices FILE (docs/cost.md shows the file)",
        region));
  }
  std::string text;
  if (!ReadWholeFile(path, &text)) return FileError(path, "cannot be read");
  Result<json::Value> doc = json::Parse(text);
  if (!doc.ok()) return FileError(path, doc.status().message());
  if (!doc->IsObject()) return FileError(path, "must be a JSON object");
  std::string date = StringMember(*doc, "date");
  const json::Value* regions = doc->Find("regions");
  for (const auto& [name, _] : doc->object()) {  // a misspelt member is not silently ignored
    const bool known = name == "date" || name == "regions" ||
                       (!regions && (name == "region" || name.ends_with("_per_million") ||
                                     name.ends_with("_hour") || name.ends_with("_per_gb") ||
                                     name == "storage_gb_month"));
    if (!known) {
      return FileError(path, fmt::format("unknown member \"{}\" (a prices file holds \"date\" "
                                         "and \"regions\", or one region's prices and \"region\")",
                                         name));
    }
  }
  if (regions) {
    if (regions->IsObject() && regions->object().empty()) {
      return FileError(path, "\"regions\" holds no region");
    }
    if (!regions->IsObject()) return FileError(path, "\"regions\" must be an object");
    if (region.empty() && regions->object().size() == 1) {
      const auto& [name, v] = regions->object()[0];
      return RegionPrices(v, path, name, date);
    }
    std::string names;
    for (const auto& [name, v] : regions->object()) {
      if (name == region) return RegionPrices(v, path, name, date);
      names += (names.empty() ? "" : ", ") + name;
    }
    if (region.empty()) {
      return FileError(path,
                       fmt::format("holds several regions ({}): name one with --region", names));
    }
    return FileError(path, fmt::format("no prices for region {} (it has {})", region,
                                       names.empty() ? "none" : names));
  }
  std::string own = StringMember(*doc, "region");
  if (own.empty()) return FileError(path, "names no \"region\" (or give \"regions\": {...})");
  if (!region.empty() && own != region) {
    return FileError(path, fmt::format("holds region {}, not {} (--region)", own, region));
  }
  return RegionPrices(*doc, path, own, date);
}

}  // namespace keyhole::modeling
