// .plan FILE / --plan: what a data model's access patterns cost at their request rates
// (`-- rate: N/s` under each `-- pattern:`), from what each pattern really consumed when it ran
// once (modeling/usage.h):
//  - per pattern: requests, RCU and WCU per second, every index write it causes, item sizes;
//  - per table and index: the units per second, provisioned capacity at a 70% auto-scaling
//    target, items and bytes;
//  - cost per month: on demand, provisioned, storage (× --scale), at modeling/prices.h's prices;
//  - hot partitions: the units per second each partition key value takes against DynamoDB's
//    per-partition limits (3,000 RCU, 1,000 WCU per second), collections growing toward 10 GB on
//    tables with local secondary indexes, and write sharding with its read fan-out.
//
// How a pattern's rate lands on partitions: a pattern ran with one partition key value (say
// 'USER#alice'). When the table or index holds other values of the same class ('USER#...',
// partitions.h KeyClass), the requests are taken to spread over them as the items do, so the
// busiest value gets its share of the items' share of the rate; a value alone in its class
// ('ALL_POSTS', a status) gets every request.
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "modeling/partitions.h"
#include "modeling/usage.h"
#include "shell/render.h"
#include "shell/session_state.h"

namespace keyhole::shell {

using namespace modeling;  // NOLINT: until the plan's figures move to modeling/ (issue 43)

namespace {

constexpr double kReadLimit = 3000, kWriteLimit = 1000;  // per partition, per second
constexpr double kTargetUtilization = 0.7;
constexpr double kCollectionLimit = 10.0 * 1024 * 1024 * 1024;  // with LSIs
constexpr double kSecondsPerMonth = kHoursPerMonth * 3600;
constexpr double kItemOverhead = 100;  // bytes DynamoDB bills per item for storage
constexpr double kGiB = 1024.0 * 1024 * 1024;
// DynamoDB bills a vector search or write 1 KB at least (keyhole's VectorWriteRequestBytes is
// floored already; its search count is not).
constexpr double kVectorMinimum = 1024;

// 1234.5 -> "1,234.5"; at most `decimals` decimals, trailing zeros dropped.
std::string Num(double v, int decimals = 2) {
  std::string text = fmt::format("{:.{}f}", std::abs(v), decimals);
  if (text.find('.') != std::string::npos) {
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
  }
  size_t dot = std::min(text.find('.'), text.size());
  for (int i = static_cast<int>(dot) - 3; i > 0; i -= 3) text.insert(static_cast<size_t>(i), ",");
  return (v < 0 ? "-" : "") + text;
}

// "$1,234.50", "<$0.01" (more than nothing, less than a cent), "$0.00".
std::string Money(double v) {
  if (v > 0 && v < 0.005) return "<$0.01";
  std::string text = Num(v, 2);
  size_t dot = text.find('.');
  if (dot == std::string::npos) return "$" + text + ".00";
  return "$" + text + std::string(3 - (text.size() - dot), '0');
}

AttributeValue N(double v) {
  if (!std::isfinite(v)) v = 0;
  v = std::clamp(v, -9.9e125, 9.9e125);  // DynamoDB's number range (rates and prices are capped)
  Result<Number> n = Number::Parse(fmt::format("{:.15g}", v));
  return AttributeValue::N(n.ok() ? *n : Number::FromInt(0));
}

// A figure for people: two decimals, or three significant digits under 1 (10/h is 0.00278/s).
double Round(double v) {
  if (v > 0 && v < 1) return std::stod(fmt::format("{:.3g}", v));
  return std::round(v * 100) / 100;
}

// Provisioned units for `load` at the target utilization: at least 1.
int64_t Provisioned(double load) {
  return std::max<int64_t>(1, static_cast<int64_t>(std::ceil(load / kTargetUtilization - 1e-9)));
}

std::string Bytes(double b) {
  static constexpr const char* kUnits[] = {"bytes", "KB", "MB", "GB", "TB"};
  int u = 0;
  while (b >= 1024 && u < 4) {
    b /= 1024;
    ++u;
  }
  return u == 0 ? fmt::format("{} bytes", Num(b, 0)) : fmt::format("{} {}", Num(b, 1), kUnits[u]);
}

std::string Percent(double share) {
  if (share > 0 && share < 0.001) return "<0.1%";
  std::string text = Num(100 * share, share < 0.1 ? 1 : 0);
  if (share < 1 && text == "100") text = "99.9";  // not over until it is
  return text + "%";
}

struct TargetLoad {
  double rcu = 0, wcu = 0;
};

// A vector index's metered bytes per second (DynamoDB bills them per GB, apart from units).
struct VectorLoad {
  double searches = 0;  // SearchVectors per second
  double search_bytes = 0, write_bytes = 0;
};

struct PartitionLoad {
  double rcu = 0, wcu = 0;
  double new_bytes = 0;  // per second, items created there
  std::set<std::string> patterns;
  std::set<std::string> readers;  // patterns that read it, with their rate
  double read_requests = 0;       // per second
  bool everything = false;        // a value alone in its class: every request
  bool new_value = false;         // a write that makes a new value each request
};

// A nested value as a csv cell: its plain JSON text.
AttributeValue JsonCell(const AttributeValue& v) {
  std::string text;
  AppendPlainJson(v, &text);
  return AttributeValue::S(std::move(text));
}

// The partition key values of one class in a table or index.
struct ClassSummary {
  int64_t items = 0, values = 0;
  const PartitionStat* busiest = nullptr;  // the most items; the first of equals
};
struct TargetKinds {
  bool words_are_names = false;
  std::map<std::string, ClassSummary> by_class;
  std::string ClassOf(const std::string& key) const {
    std::string c = KeyClass(key);
    return c == key && words_are_names ? std::string("<word>") : c;
  }
};

struct TargetInfo {
  std::string table, index;  // index "" for the table
  bool lsi = false;
};

double Share(const PartitionLoad& p) { return std::max(p.rcu / kReadLimit, p.wcu / kWriteLimit); }

}  // namespace

void PrintCostPlan(Session::State& s, const std::vector<PatternRun>& runs, const PlanOptions& plan,
                   const Prices& prices) {
  const bool machine = IsMachineMode(s.settings.mode);
  std::vector<const PatternRun*> rated;
  std::string unrated, failed;
  for (const PatternRun& r : runs) {
    if (!r.served) {
      if (r.operation != "refused" || r.rate)
        failed += (failed.empty() ? "" : ", ") + ("\"" + r.name + "\"");
      continue;
    }
    if (r.rate) {
      rated.push_back(&r);
    } else if (!r.rate_error) {
      unrated += (unrated.empty() ? "" : ", ") + ("\"" + r.name + "\"");
    }
  }
  // The tables the patterns touched, and so their indexes.
  std::set<std::string> tables;
  for (const PatternRun* r : rated) {
    for (const OperationUse& u : r->usage) tables.insert(u.tables.begin(), u.tables.end());
  }
  const bool one_table = tables.size() == 1;
  std::map<std::string, TableSchemaPtr> schemas;
  std::map<std::string, DescribeTableResponse> described;
  for (const std::string& t : tables) {
    if (Result<TableSchemaPtr> schema = s.db.TableSchema(t); schema.ok()) schemas[t] = *schema;
    if (Result<DescribeTableResponse> d = s.db.DescribeTable({t}); d.ok()) described[t] = *d;
  }

  // ---- per pattern ----
  std::vector<Item> rows;
  std::map<std::string, TargetLoad> loads;
  std::map<std::string, TargetInfo> info;  // "T" or "T.I" -> table and index (names may hold '.')
  for (const std::string& t : tables) {
    loads[t];
    info[t] = {t, "", false};
    if (auto sc = schemas.find(t); sc != schemas.end()) {
      for (const IndexDescription& idx : sc->second->indexes) {
        loads[t + "." + idx.name];
        info[t + "." + idx.name] = {t, idx.name, idx.kind == IndexKind::kLocal};
      }
    }
  }
  std::map<std::string, VectorLoad> vectors;  // "T.I" of a vector index -> its load
  double total_requests = 0;
  for (const PatternRun* r : rated) {
    const double rate = *r->rate;
    std::map<std::string, Capacity> per_call;
    std::vector<size_t> sizes;
    double search_bytes = 0, vector_write_bytes = 0;  // per call
    for (const OperationUse& u : r->usage) {
      for (const auto& [target, c] : u.units) {
        per_call[target].read_units += c.read_units;
        per_call[target].write_units += c.write_units;
      }
      sizes.insert(sizes.end(), u.item_sizes.begin(), u.item_sizes.end());
      for (const auto& [target, metered] : u.vector_search_bytes) {
        const double b = std::max(metered, kVectorMinimum);  // billed: 1 KB at least a search
        search_bytes += b;
        vectors[target].search_bytes += b * rate;
        vectors[target].searches += rate;
      }
      for (const auto& [target, b] : u.vector_write_bytes) {
        vector_write_bytes += b;
        vectors[target].write_bytes += b * rate;
      }
    }
    double rcu = 0, wcu = 0;
    for (const auto& [target, c] : per_call) {
      rcu += c.read_units;
      wcu += c.write_units;
      loads[target].rcu += c.read_units * rate;
      loads[target].wcu += c.write_units * rate;
    }
    const double requests = static_cast<double>(r->usage.size()) * rate;
    total_requests += requests;
    double mean = 0;
    size_t largest = 0;
    for (size_t z : sizes) {
      mean += static_cast<double>(z);
      largest = std::max(largest, z);
    }
    if (!sizes.empty()) mean /= static_cast<double>(sizes.size());
    Item row;
    if (machine) {
      row["section"] = AttributeValue::S("pattern");
      row["rate_per_s"] = N(rate);
      row["requests_per_s"] = N(requests);
      row["rcu_per_s"] = N(rcu * rate);
      row["wcu_per_s"] = N(wcu * rate);
      row["item_bytes_mean"] = N(std::round(mean));
      row["item_bytes_max"] = N(static_cast<double>(largest));
      Map per;
      for (const auto& [target, c] : per_call) {
        Map m;
        m["rcu"] = N(c.read_units);
        m["wcu"] = N(c.write_units);
        per[target] = AttributeValue::M(std::move(m));
      }
      row["units_per_call"] = AttributeValue::M(std::move(per));
      if (search_bytes > 0) row["vector_search_bytes_per_s"] = N(search_bytes * rate);
      if (vector_write_bytes > 0) row["vector_write_bytes_per_s"] = N(vector_write_bytes * rate);
    } else {
      row["rate"] = AttributeValue::S(r->rate_text);
      row["requests/s"] = N(Round(requests));
      row["RCU/s"] = N(Round(rcu * rate));
      row["WCU/s"] = N(Round(wcu * rate));
      std::string units = UnitsText(per_call, one_table ? *tables.begin() : "", "RCU");
      if (search_bytes > 0 && rcu + wcu == 0) units = Bytes(search_bytes) + " searched";
      if (vector_write_bytes > 0) units += ", " + Bytes(vector_write_bytes) + " vector";
      row["per call"] = AttributeValue::S(units);
      if (search_bytes + vector_write_bytes > 0) {
        row["vector bytes/s"] = AttributeValue::S(
            search_bytes > 0 && vector_write_bytes > 0
                ? fmt::format("{} searched, {} written", Bytes(search_bytes * rate),
                              Bytes(vector_write_bytes * rate))
                : fmt::format("{} {}", Bytes((search_bytes + vector_write_bytes) * rate),
                              search_bytes > 0 ? "searched" : "written"));
      }
      row["item bytes"] =
          AttributeValue::S(sizes.empty() ? "-"
                                          : fmt::format("{} avg, {} max", Num(mean, 0),
                                                        Num(static_cast<double>(largest), 0)));
    }
    row["pattern"] = AttributeValue::S(r->name);
    row["operation"] = AttributeValue::S(r->operation);
    rows.push_back(std::move(row));
  }
  RenderOptions options;
  options.mode = s.settings.mode;
  options.headers = s.settings.headers;
  options.key_columns = {"section",
                         "pattern",
                         "rate",
                         "rate_per_s",
                         "operation",
                         "requests/s",
                         "requests_per_s",
                         "RCU/s",
                         "rcu_per_s",
                         "WCU/s",
                         "wcu_per_s",
                         "per call",
                         "units_per_call",
                         "vector bytes/s",
                         "vector_search_bytes_per_s",
                         "vector_write_bytes_per_s",
                         "item bytes"};
  std::vector<Item> all_rows;  // machine modes: every section in one set of rows
  auto print = [&](std::string_view title, std::vector<Item>& section) {
    if (machine) {
      for (Item& i : section) all_rows.push_back(std::move(i));
      return;
    }
    s.Notice(fmt::format("-- {}\n", title));
    s.Out(RenderItems(section, options));
  };
  if (rated.empty()) {
    s.Notice(failed.empty()
                 ? "-- no plan: no key-addressed pattern has a rate; add '-- rate: N/s' (or /min, "
                   "/h, /day) under a '-- pattern:' line\n"
                 : fmt::format("-- no plan: no pattern with a rate ran; failed or refused: {}\n",
                               failed));
    return;
  }
  print(fmt::format("the plan: {} at {} rate{}, {} requests/s",
                    rated.size() == 1 ? "1 pattern" : fmt::format("{} patterns", rated.size()),
                    rated.size() == 1 ? "its" : "their", rated.size() == 1 ? "" : "s",
                    Num(total_requests)),
        rows);

  // ---- per table and index ----
  rows.clear();
  double od_reads = 0, od_writes = 0, prov = 0, storage_bytes = 0;
  for (const auto& [target, load] : loads) {
    const TargetInfo& ti = info[target];
    const bool is_table = ti.index.empty();
    const std::string& table = ti.table;
    bool lsi = false;
    int64_t items = 0, bytes = 0;
    if (auto d = described.find(table); d != described.end()) {
      if (is_table) {
        items = d->second.table.item_count;
        bytes = d->second.table.size_bytes;
      }
      for (const IndexDescription& idx : d->second.table.indexes) {
        if (table + "." + idx.name != target) continue;
        items = idx.item_count;
        bytes = idx.size_bytes;
        lsi = idx.kind == IndexKind::kLocal;
      }
    }
    storage_bytes +=
        (static_cast<double>(bytes) + kItemOverhead * static_cast<double>(items)) * plan.scale;
    const double reads = load.rcu * kSecondsPerMonth / 1e6 * prices.on_demand_read_per_million;
    const double writes = load.wcu * kSecondsPerMonth / 1e6 * prices.on_demand_write_per_million;
    od_reads += reads;
    od_writes += writes;
    // An LSI shares its table's provisioned capacity; the table and each GSI have their own.
    int64_t prcu = 0, pwcu = 0;
    if (!lsi) {
      prcu = Provisioned(load.rcu);
      pwcu = Provisioned(load.wcu);
      if (is_table) {  // its LSIs' units come out of the table's
        TargetLoad sum = load;
        for (const auto& [other, l] : loads) {
          if (info[other].table == table && info[other].lsi) {
            sum.rcu += l.rcu;
            sum.wcu += l.wcu;
          }
        }
        prcu = Provisioned(sum.rcu);
        pwcu = Provisioned(sum.wcu);
      }
      prov += (static_cast<double>(prcu) * prices.rcu_hour +
               static_cast<double>(pwcu) * prices.wcu_hour) *
              kHoursPerMonth;
    }
    Item row;
    row["on"] = AttributeValue::S(target);
    if (machine) {
      row["section"] = AttributeValue::S(is_table ? "table" : lsi ? "lsi" : "gsi");
      row["rcu_per_s"] = N(load.rcu);
      row["wcu_per_s"] = N(load.wcu);
      row["items"] = N(static_cast<double>(items));
      row["bytes"] = N(static_cast<double>(bytes));
      row["provisioned_rcu"] = N(static_cast<double>(prcu));
      row["provisioned_wcu"] = N(static_cast<double>(pwcu));
      row["on_demand_per_month"] = N(reads + writes);
    } else {
      row["RCU/s"] = N(Round(load.rcu));
      row["WCU/s"] = N(Round(load.wcu));
      row["items"] = N(static_cast<double>(items));
      row["size"] = AttributeValue::S(Bytes(static_cast<double>(bytes)));
      row["provisioned"] =
          AttributeValue::S(lsi ? "(the table's)" : fmt::format("{} RCU, {} WCU", prcu, pwcu));
      row["on demand/month"] = AttributeValue::S(Money(reads + writes));
    }
    rows.push_back(std::move(row));
  }
  // Vector indexes: their bytes, billed per GB whatever the table's mode, and their storage
  // (which DynamoDB counts as the table's).
  double vector_cost = 0;
  const bool vector_prices = prices.vector_search_per_gb && prices.vector_write_per_gb;
  for (const auto& [target, v] : vectors) {
    const double search =
        v.search_bytes * kSecondsPerMonth / kGiB * prices.vector_search_per_gb.value_or(0);
    const double write =
        v.write_bytes * kSecondsPerMonth / kGiB * prices.vector_write_per_gb.value_or(0);
    vector_cost += search + write;
    int64_t items = 0, bytes = 0;
    for (const auto& [table, d] : described) {
      for (const VectorIndexDescription& vi : d.table.vector_indexes) {
        if (table + "." + vi.name != target) continue;
        items = vi.item_count;
        bytes = vi.size_bytes;
      }
    }
    storage_bytes +=
        (static_cast<double>(bytes) + kItemOverhead * static_cast<double>(items)) * plan.scale;
    Item row;
    row["on"] = AttributeValue::S(target);
    if (machine) {
      row["section"] = AttributeValue::S("vector");
      row["searches_per_s"] = N(v.searches);
      row["vector_search_bytes_per_s"] = N(v.search_bytes);
      row["vector_write_bytes_per_s"] = N(v.write_bytes);
      row["items"] = N(static_cast<double>(items));
      row["bytes"] = N(static_cast<double>(bytes));
      row["on_demand_per_month"] = N(search + write);
    } else {
      row["vector bytes/s"] = AttributeValue::S(
          fmt::format("{} searched ({} searches/s), {} written", Bytes(v.search_bytes),
                      Num(Round(v.searches)), Bytes(v.write_bytes)));
      row["items"] = N(static_cast<double>(items));
      row["size"] = AttributeValue::S(Bytes(static_cast<double>(bytes)));
      row["provisioned"] = AttributeValue::S("(on demand only)");
      row["on demand/month"] =
          AttributeValue::S(vector_prices ? Money(search + write) : std::string("no prices"));
    }
    rows.push_back(std::move(row));
  }
  options.key_columns = {"section",
                         "on",
                         "RCU/s",
                         "rcu_per_s",
                         "WCU/s",
                         "wcu_per_s",
                         "vector bytes/s",
                         "searches_per_s",
                         "vector_search_bytes_per_s",
                         "vector_write_bytes_per_s",
                         "items",
                         "size",
                         "bytes",
                         "provisioned",
                         "provisioned_rcu",
                         "provisioned_wcu",
                         "on demand/month",
                         "on_demand_per_month"};
  print("per table and index, at these rates", rows);

  // ---- cost per month ----
  rows.clear();
  const double gb = storage_bytes / kGiB;
  const double storage = gb * prices.storage_gb_month;
  for (bool on_demand : {true, false}) {
    Item row;
    const double throughput = (on_demand ? od_reads + od_writes : prov) + vector_cost;
    if (machine) {
      row["section"] = AttributeValue::S("cost");
      row["billing"] = AttributeValue::S(on_demand ? "PAY_PER_REQUEST" : "PROVISIONED");
      if (on_demand) {
        row["reads_per_month"] = N(od_reads);
        row["writes_per_month"] = N(od_writes);
      }
      if (!vectors.empty()) row["vector_per_month"] = N(vector_cost);
      row["throughput_per_month"] = N(throughput);
      row["storage_gb"] = N(gb);
      row["storage_per_month"] = N(storage);
      row["total_per_month"] = N(throughput + storage);
      row["region"] = AttributeValue::S(prices.region);
    } else {
      row["billing"] = AttributeValue::S(on_demand ? "on demand" : "provisioned, 70% target");
      const std::string vector_part =
          vectors.empty() ? "" : fmt::format(", {} vector", Money(vector_cost));
      row["throughput"] =
          AttributeValue::S(on_demand ? fmt::format("{} ({} reads, {} writes{})", Money(throughput),
                                                    Money(od_reads), Money(od_writes), vector_part)
                            : vectors.empty() ? Money(throughput)
                                              : fmt::format("{} ({} vector, on demand)",
                                                            Money(throughput), Money(vector_cost)));
      row["storage"] =
          AttributeValue::S(fmt::format("{} ({})", Money(storage), Bytes(storage_bytes)));
      row["per month"] = AttributeValue::S(Money(throughput + storage));
    }
    rows.push_back(std::move(row));
  }
  options.key_columns = {"section",
                         "billing",
                         "throughput",
                         "reads_per_month",
                         "writes_per_month",
                         "vector_per_month",
                         "throughput_per_month",
                         "storage",
                         "storage_gb",
                         "storage_per_month",
                         "per month",
                         "total_per_month"};
  print(fmt::format("cost per month in {} (prices {}, read {})", prices.region, prices.source,
                    prices.date.empty() ? "undated" : prices.date),
        rows);

  // ---- hot partitions ----
  std::map<std::string, PartitionStats> stats;  // target -> its spread over key values
  std::set<std::string> wanted;
  for (const PatternRun* r : rated) {
    for (const OperationUse& u : r->usage) {
      for (const PartitionUse& p : u.partitions) wanted.insert(p.target);
    }
  }
  for (const auto& [target, load] : loads) {
    // GSIs with few values; LSIs for the size of their tables' item collections.
    if (!info[target].index.empty()) wanted.insert(target);
  }
  bool scanned = true;
  if (!s.settings.endpoint.empty() && !s.settings.yes) {
    scanned = false;  // no Scan of an endpoint's tables without --yes
  } else {
    for (const std::string& target : wanted) {
      auto ti = info.find(target);
      if (ti == info.end()) continue;
      std::optional<std::string> index;
      if (!ti->second.index.empty()) index = ti->second.index;
      Result<PartitionStats> st = CollectPartitions(s.db, ti->second.table, index, &g_interrupted);
      if (st.ok()) stats[target] = std::move(*st);
    }
  }
  // Each target's partition key values by class (KeyClass), once: the items of a class and its
  // busiest value. Words are constants while an index has ten or fewer; more are names, one
  // class.
  std::map<std::string, TargetKinds> kinds;
  for (const auto& [target, st] : stats) {
    TargetKinds& tk = kinds[target];
    size_t words = 0;
    for (const PartitionStat& ps : st.partitions) words += KeyClass(ps.key) == ps.key;
    tk.words_are_names = words > 10;
    for (const PartitionStat& ps : st.partitions) {
      ClassSummary& c = tk.by_class[tk.ClassOf(ps.key)];
      c.items += ps.items;
      ++c.values;
      if (!c.busiest || ps.items > c.busiest->items) c.busiest = &ps;
    }
  }
  std::map<std::pair<std::string, std::string>, PartitionLoad> hot;
  for (const PatternRun* r : rated) {
    const double rate = *r->rate;
    for (const OperationUse& u : r->usage) {
      for (const PartitionUse& p : u.partitions) {
        std::string key = p.key;
        double share = 1;
        bool everything = true;
        if (p.new_value) {
          // A new value each request (a new post id): each value takes one request, whatever
          // the rate, and the existing values of its class none of them.
          PartitionLoad& l = hot[{p.target, key}];
          l.rcu = std::max(l.rcu, p.read_units);
          l.wcu = std::max(l.wcu, p.write_units);
          l.new_value = true;
          l.patterns.insert(r->name);
          continue;
        }
        if (auto t = kinds.find(p.target); t != kinds.end()) {
          auto k = t->second.by_class.find(t->second.ClassOf(p.key));
          if (k != t->second.by_class.end() && k->second.values > 1 && k->second.items > 0) {
            key = k->second.busiest->key;
            share = static_cast<double>(k->second.busiest->items) /
                    static_cast<double>(k->second.items);
            everything = false;
          }
        }
        PartitionLoad& l = hot[{p.target, key}];
        l.rcu += p.read_units * rate * share;
        l.wcu += p.write_units * rate * share;
        l.everything |= everything;
        l.patterns.insert(r->name);
        if (p.read_units > 0 && u.operation == "Query") {  // a GetItem knows its shard
          l.readers.insert(r->name);
          l.read_requests += rate * share;
        }
        l.new_bytes += p.bytes_added * rate * share;
      }
    }
  }
  std::vector<std::pair<std::pair<std::string, std::string>, PartitionLoad>> ranked(hot.begin(),
                                                                                    hot.end());
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto& a, const auto& b) { return Share(a.second) > Share(b.second); });
  rows.clear();
  std::string notes;
  int over = 0;
  for (size_t i = 0; i < ranked.size(); ++i) {
    const auto& [where, l] = ranked[i];
    const double share = Share(l);
    const bool is_over = l.rcu > kReadLimit || l.wcu > kWriteLimit;
    over += is_over;
    if (!machine && i >= 10 && !is_over) continue;
    Item row;
    row["on"] = AttributeValue::S(where.first);
    row["partition"] = KeyCell(where.second);
    std::string from;  // the first three, for people
    size_t named = 0;
    for (const std::string& p : l.patterns) {
      if (!machine && named == 3) {
        from += fmt::format(" and {} more", l.patterns.size() - 3);
        break;
      }
      from += (from.empty() ? "" : ", ") + p;
      ++named;
    }
    if (machine) {
      row["section"] = AttributeValue::S("partition");
      row["rcu_per_s"] = N(l.rcu);
      row["wcu_per_s"] = N(l.wcu);
      row["of_limit"] = N(share);
      row["status"] = AttributeValue::S(is_over ? "over" : share >= 0.5 ? "warm" : "ok");
      row["every_request"] = AttributeValue::Bool(l.everything && !l.new_value);
      row["new_value"] = AttributeValue::Bool(l.new_value);
      std::vector<AttributeValue> names;
      for (const std::string& p : l.patterns) names.push_back(AttributeValue::S(p));
      row["patterns"] = AttributeValue::L(std::move(names));
    } else {
      row["RCU/s"] = N(Round(l.rcu));
      row["WCU/s"] = N(Round(l.wcu));
      row["of limit"] = AttributeValue::S(Percent(share) + (is_over ? " OVER" : ""));
      row["gets"] = AttributeValue::S(l.new_value    ? "one request: a new value each time"
                                      : l.everything ? "every request"
                                                     : "its share of the items");
      row["from"] = AttributeValue::S(from);
    }
    rows.push_back(std::move(row));
    if (!is_over) continue;
    // What to do about it.
    if (l.wcu > kWriteLimit) {
      const int64_t shards =
          std::max<int64_t>(2, static_cast<int64_t>(std::ceil(l.wcu / (0.8 * kWriteLimit))));
      // The shard keys: a string value with a suffix; another key becomes a string first.
      const AttributeValue cell = KeyCell(where.second);
      const std::string bare = cell.is(ValueType::kS) && where.second.front() == '\''
                                   ? cell.s()
                                   : "<" + where.second + " as a string>";
      notes += fmt::format(
          "-- HOT: {} partition {} takes {} WCU/s, over DynamoDB's {} WCU per second per "
          "partition: its writes will be throttled\n"
          "--   shard it: write to {} keys ({}#0 … {}#{}, the suffix from a hash of the item's id) "
          "to bring each to about {} WCU/s\n",
          where.first, where.second, Num(l.wcu), Num(kWriteLimit, 0), shards, bare, bare,
          shards - 1, Num(l.wcu / static_cast<double>(shards)));
      if (l.read_requests > 0) {
        notes += fmt::format(
            "--   the cost: every Query of it becomes {} Queries, one per shard (then merged): "
            "{} more requests/s, at least {} more RCU/s ({}); a GetItem works out its shard "
            "from the id and stays one request\n",
            shards, Num(l.read_requests * static_cast<double>(shards - 1)),
            Num(l.read_requests * static_cast<double>(shards - 1) * 0.5), [&] {
              std::string names;
              for (const std::string& n : l.readers) names += (names.empty() ? "" : ", ") + n;
              return names;
            }());
      } else {
        notes += fmt::format(
            "--   the cost: a pattern that reads the whole of it must Query all {} shards and "
            "merge them\n",
            shards);
      }
    }
    if (l.rcu > kReadLimit) {
      notes += fmt::format(
          "-- HOT: {} partition {} takes {} RCU/s, over DynamoDB's {} RCU per second per "
          "partition: cache its reads (DAX), read fewer items a request (a Limit, a narrower "
          "sort-key condition), or copy the hot items to several keys and read one at random\n",
          where.first, where.second, Num(l.rcu), Num(kReadLimit, 0));
    }
  }
  options.key_columns = {
      "section",  "on",       "partition", "RCU/s", "rcu_per_s",     "WCU/s",     "wcu_per_s",
      "of limit", "of_limit", "status",    "gets",  "every_request", "new_value", "from"};
  if (!rows.empty()) {
    print(fmt::format("the busiest partitions against {} RCU and {} WCU per second each",
                      Num(kReadLimit, 0), Num(kWriteLimit, 0)),
          rows);
  }
  // Indexes whose partition key has one or few values.
  for (const auto& [target, st] : stats) {
    if (info[target].index.empty() || info[target].lsi) continue;  // GSIs only
    const size_t values = st.partitions.size();
    const TargetLoad& l = loads[target];
    if (values == 0 || values > 3 || st.items < 2 || l.wcu <= 0) continue;
    std::string names;
    for (const PartitionStat& p : st.partitions) names += (names.empty() ? "" : ", ") + p.key;
    notes += values == 1 ? fmt::format(
                               "-- {} has 1 partition key value ({}): all its writes land on one "
                               "partition, which takes {} WCU/s; at these rates it gets {} WCU/s\n",
                               target, names, Num(kWriteLimit, 0), Num(l.wcu))
                         : fmt::format(
                               "-- {} has {} partition key values ({}): all its writes land on "
                               "that few partitions, {} WCU/s each at most; at these rates they "
                               "get {} WCU/s together\n",
                               target, values, names, Num(kWriteLimit, 0), Num(l.wcu));
  }
  // Item collections toward 10 GB on tables with LSIs.
  for (const auto& [table, schema] : schemas) {
    bool has_lsi = std::ranges::any_of(
        schema->indexes, [](const IndexDescription& i) { return i.kind == IndexKind::kLocal; });
    if (!has_lsi) continue;
    for (const auto& [where, l] : hot) {
      if (where.first != table || l.new_bytes <= 0) continue;
      double now = 0;  // the collection: the table's items and their LSI entries
      for (const auto& [target, st] : stats) {
        if (info[target].table != table || !(info[target].index.empty() || info[target].lsi)) {
          continue;
        }
        if (auto pos = st.position.find(where.second); pos != st.position.end()) {
          now += static_cast<double>(st.partitions[pos->second].bytes);
        }
      }
      const double days = (kCollectionLimit - now) / l.new_bytes / 86400;
      if (days < 365) {
        notes += fmt::format(
            "-- GROWING: {}'s item collection {} ({} now) grows {} a day and reaches the 10 GB "
            "limit of a table with local secondary indexes in {}; writes to it then fail "
            "(ItemCollectionSizeLimitExceededException)\n",
            table, where.second, Bytes(now), Bytes(l.new_bytes * 86400),
            days * 24 < 1 ? std::string("less than an hour")
            : days < 1    ? fmt::format("{} hours", Num(days * 24, 1))
                          : fmt::format("{} days", Num(days, 0)));
      }
    }
  }
  if (machine) {
    options.key_columns = {"section", "pattern", "on", "partition", "billing", "operation"};
    if (options.mode == OutputMode::kCsv) {
      // Nested values as their plain JSON text (programs read JSON, not the shell's literals).
      for (Item& row : all_rows) {
        for (auto& [name, v] : row) {
          if (v.is(ValueType::kM) || v.is(ValueType::kL)) v = JsonCell(v);
        }
      }
    }
    s.Out(RenderItems(all_rows, options));
  }
  std::string tail;
  if (!scanned) {
    tail +=
        "-- the data's spread over partition key values was not read: it needs a Scan of "
        "each table and index on the endpoint (run with --yes to allow it); every request "
        "is counted against the value the pattern named\n";
  }
  if (!vectors.empty()) {
    tail += vector_prices
                ? fmt::format(
                      "-- vector indexes are billed per GB of the bytes DynamoDB meters ({}/GB "
                      "written, ${}/GB searched, 1 KB at least a request), apart from RCU and "
                      "WCU, and only on demand: a table with one cannot be provisioned; keyhole's "
                      "VectorSearchRequestBytes is its own count (DynamoDB's varies from search to "
                      "search)\n",
                      Money(*prices.vector_write_per_gb), Num(*prices.vector_search_per_gb, 4))
                : fmt::format(
                      "-- {} gives no vector prices (vector_write_per_gb, "
                      "vector_search_per_gb): vector indexes' bytes are not costed\n",
                      prices.source);
  }
  if (!unrated.empty()) tail += fmt::format("-- no rate, left out of the plan: {}\n", unrated);
  if (!failed.empty()) {
    tail += fmt::format("-- failed or refused, left out of the plan: {} (see below)\n", failed);
  }
  // The collections the patterns query, by class, as the advice's examples.
  std::vector<std::string> collections;
  for (const auto& [where, l] : hot) {
    if (l.readers.empty() || l.new_value) continue;
    std::string c = KeyClass(where.second);
    if (c.starts_with("'")) c = c.substr(1);
    if (c.starts_with("<") || c == where.second) continue;  // an id, a number, a constant
    if (std::ranges::find(collections, c) == collections.end()) collections.push_back(c);
  }
  std::string examples;
  for (size_t i = 0; i < collections.size() && i < 3; ++i) {
    examples += (i == 0                                             ? ""
                 : i + 1 == std::min<size_t>(collections.size(), 3) ? " and "
                                                                    : ", ") +
                collections[i] + "…";
  }
  tail += fmt::format(
      "-- each pattern is costed as it ran, with the key values it names: name typical ones "
      "({}a value with an average number of items, not the largest)\n",
      examples.empty() ? "" : "for " + examples + ", ");
  tail += fmt::format(
      "-- a month is {} hours; storage is the table's and its indexes' bytes plus 100 bytes "
      "per item{}; the free tier (25 GB, 25 RCU and 25 WCU) is not taken off\n",
      Num(kHoursPerMonth, 0),
      plan.scale != 1 ? fmt::format(", times {} (--scale)", Num(plan.scale)) : "");
  if (over == 0 && !ranked.empty()) {
    tail += fmt::format(
        "-- no partition is over its limit at these rates (the busiest takes {} "
        "of it)\n",
        Percent(Share(ranked[0].second)));
  }
  s.Notice(notes + tail);
}

bool RunPlanCommand(Session::State& s, const std::vector<std::string>& args, Location at) {
  const std::string usage = "usage: .plan FILE [--scale N] [--region R] [--prices FILE]";
  PlanOptions plan;
  std::string file;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if ((a == "--scale" || a == "--region" || a == "--prices") && i + 1 < args.size()) {
      const std::string& v = args[++i];
      if (a == "--scale") {
        char* end = nullptr;
        plan.scale = std::strtod(v.c_str(), &end);
        if (end == v.c_str() || *end != '\0' || !(plan.scale >= 1) || !std::isfinite(plan.scale)) {
          return s.Fail(
              Status::Validation(fmt::format(
                  "--scale {}: give N of at least 1 (the file holds 1/N of the items)", v)),
              at);
        }
      } else if (a == "--region") {
        plan.region = v;
      } else {
        plan.prices_path = v;
      }
    } else if (file.empty() && !a.starts_with("--")) {
      file = a;
    } else {
      return s.Fail(Status::Validation(usage), at);
    }
  }
  if (file.empty()) return s.Fail(Status::Validation(usage), at);
  if (s.read_depth >= 16) {
    return s.Fail(Status::Validation(".plan nested more than 16 deep (a file reading itself?)"),
                  at);
  }
  std::string text;
  if (!ReadWholeFile(file, &text)) {
    return s.Fail(
        Status::Validation(fmt::format("cannot read {}: {}", Shorten(file), std::strerror(errno))),
        at);
  }
  ++s.read_depth;
  bool ok = RunPatterns(s, text, file, &plan);
  --s.read_depth;
  return ok;
}

}  // namespace keyhole::shell
