// The cost plan's figures (see cost_plan.h).
#include "modeling/cost_plan.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "modeling/figures.h"
#include "modeling/partitions.h"

namespace keyhole::modeling {

namespace {

constexpr double kCollectionLimit = 10.0 * 1024 * 1024 * 1024;  // with LSIs
constexpr double kSecondsPerMonth = kHoursPerMonth * 3600;
constexpr double kItemOverhead = 100;  // bytes DynamoDB bills per item for storage
constexpr double kGiB = 1024.0 * 1024 * 1024;
// DynamoDB bills a vector search or write 1 KB at least (keyhole's VectorWriteRequestBytes is
// floored already; its search count is not).
constexpr double kVectorMinimum = 1024;

// Provisioned units for `load` at the target utilization: at least 1.
int64_t Provisioned(double load) {
  return std::max<int64_t>(1, static_cast<int64_t>(std::ceil(load / kTargetUtilization - 1e-9)));
}

struct TargetLoad {
  double rcu = 0, wcu = 0;
};

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

double Share(const HotPartition& p) {
  return std::max(p.rcu / kPartitionReadLimit, p.wcu / kPartitionWriteLimit);
}

// The advice for a partition over a limit.
void AdviseHot(const HotPartition& l, std::vector<std::string>* advice) {
  if (l.wcu > kPartitionWriteLimit) {
    const int64_t shards =
        std::max<int64_t>(2, static_cast<int64_t>(std::ceil(l.wcu / (0.8 * kPartitionWriteLimit))));
    // The shard keys: a string value with a suffix; another key becomes a string first.
    const AttributeValue cell = KeyCell(l.key);
    const std::string bare =
        cell.is(ValueType::kS) && l.key.front() == '\'' ? cell.s() : "<" + l.key + " as a string>";
    std::string text = fmt::format(
        "HOT: {} partition {} takes {} WCU/s, over DynamoDB's {} WCU per second per "
        "partition: its writes will be throttled\n"
        "  shard it: write to {} keys ({}#0 … {}#{}, the suffix from a hash of the item's id) "
        "to bring each to about {} WCU/s",
        l.target, l.key, Num(l.wcu), Num(kPartitionWriteLimit, 0), shards, bare, bare, shards - 1,
        Num(l.wcu / static_cast<double>(shards)));
    if (l.read_requests > 0) {
      std::string names;
      for (const std::string& n : l.readers) names += (names.empty() ? "" : ", ") + n;
      text += fmt::format(
          "\n  the cost: every Query of it becomes {} Queries, one per shard (then merged): "
          "{} more requests/s, at least {} more RCU/s ({}); a GetItem works out its shard "
          "from the id and stays one request",
          shards, Num(l.read_requests * static_cast<double>(shards - 1)),
          Num(l.read_requests * static_cast<double>(shards - 1) * 0.5), names);
    } else {
      text += fmt::format(
          "\n  the cost: a pattern that reads the whole of it must Query all {} shards and "
          "merge them",
          shards);
    }
    advice->push_back(std::move(text));
  }
  if (l.rcu > kPartitionReadLimit) {
    advice->push_back(fmt::format(
        "HOT: {} partition {} takes {} RCU/s, over DynamoDB's {} RCU per second per "
        "partition: cache its reads (DAX), read fewer items a request (a Limit, a narrower "
        "sort-key condition), or copy the hot items to several keys and read one at random",
        l.target, l.key, Num(l.rcu), Num(kPartitionReadLimit, 0)));
  }
}

}  // namespace

CostPlan ComputeCostPlan(Backend& db, const std::vector<PlannedPattern>& patterns,
                         const Prices& prices, const CostPlanOptions& options) {
  CostPlan plan;
  plan.prices = prices;
  plan.scale = options.scale;
  std::vector<const PlannedPattern*> rated;
  for (const PlannedPattern& r : patterns) {
    if (!r.served) {
      if (r.operation != "refused" || r.rate) plan.failed.push_back(r.name);
      continue;
    }
    if (r.rate) {
      rated.push_back(&r);
    } else if (!r.rate_error) {
      plan.unrated.push_back(r.name);
    }
  }
  // The tables the patterns touched, and so their indexes.
  std::set<std::string> tables;
  for (const PlannedPattern* r : rated) {
    for (const OperationUse& u : r->usage) tables.insert(u.tables.begin(), u.tables.end());
  }
  if (tables.size() == 1) plan.table = *tables.begin();
  std::map<std::string, TableSchemaPtr> schemas;
  std::map<std::string, DescribeTableResponse> described;
  for (const std::string& t : tables) {
    if (Result<TableSchemaPtr> schema = db.TableSchema(t); schema.ok()) schemas[t] = *schema;
    if (Result<DescribeTableResponse> d = db.DescribeTable({t}); d.ok()) described[t] = *d;
  }

  // ---- per pattern ----
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
  std::map<std::string, VectorCost> vectors;  // "T.I" of a vector index -> its load
  for (const PlannedPattern* r : rated) {
    PatternCost pc;
    pc.name = r->name;
    pc.operation = r->operation;
    pc.rate_text = r->rate_text;
    pc.rate = *r->rate;
    const double rate = pc.rate;
    std::vector<size_t> sizes;
    for (const OperationUse& u : r->usage) {
      for (const auto& [target, c] : u.units) {
        pc.per_call[target].read_units += c.read_units;
        pc.per_call[target].write_units += c.write_units;
      }
      sizes.insert(sizes.end(), u.item_sizes.begin(), u.item_sizes.end());
      for (const auto& [target, metered] : u.vector_search_bytes) {
        const double b = std::max(metered, kVectorMinimum);  // billed: 1 KB at least a search
        pc.search_bytes += b;
        vectors[target].search_bytes += b * rate;
        vectors[target].searches += rate;
      }
      for (const auto& [target, b] : u.vector_write_bytes) {
        pc.vector_write_bytes += b;
        vectors[target].write_bytes += b * rate;
      }
    }
    double rcu = 0, wcu = 0;
    for (const auto& [target, c] : pc.per_call) {
      rcu += c.read_units;
      wcu += c.write_units;
      loads[target].rcu += c.read_units * rate;
      loads[target].wcu += c.write_units * rate;
    }
    pc.rcu = rcu * rate;
    pc.wcu = wcu * rate;
    pc.requests = static_cast<double>(r->usage.size()) * rate;
    plan.total_requests += pc.requests;
    for (size_t z : sizes) {
      pc.item_bytes_mean += static_cast<double>(z);
      pc.item_bytes_max = std::max(pc.item_bytes_max, z);
    }
    pc.item_sizes = !sizes.empty();
    if (!sizes.empty()) pc.item_bytes_mean /= static_cast<double>(sizes.size());
    plan.patterns.push_back(std::move(pc));
  }

  // ---- per table and index ----
  double od_reads = 0, od_writes = 0, prov = 0;
  for (const auto& [target, load] : loads) {
    const TargetInfo& ti = info[target];
    const bool is_table = ti.index.empty();
    const std::string& table = ti.table;
    TargetCost tc;
    tc.target = target;
    bool lsi = false;
    if (auto d = described.find(table); d != described.end()) {
      if (is_table) {
        tc.items = d->second.table.item_count;
        tc.bytes = d->second.table.size_bytes;
      }
      for (const IndexDescription& idx : d->second.table.indexes) {
        if (table + "." + idx.name != target) continue;
        tc.items = idx.item_count;
        tc.bytes = idx.size_bytes;
        lsi = idx.kind == IndexKind::kLocal;
      }
    }
    tc.kind = is_table ? "table" : lsi ? "lsi" : "gsi";
    tc.rcu = load.rcu;
    tc.wcu = load.wcu;
    plan.storage_bytes +=
        (static_cast<double>(tc.bytes) + kItemOverhead * static_cast<double>(tc.items)) *
        options.scale;
    const double reads = load.rcu * kSecondsPerMonth / 1e6 * prices.on_demand_read_per_million;
    const double writes = load.wcu * kSecondsPerMonth / 1e6 * prices.on_demand_write_per_million;
    tc.on_demand_per_month = reads + writes;
    od_reads += reads;
    od_writes += writes;
    // An LSI shares its table's provisioned capacity; the table and each GSI have their own.
    if (!lsi) {
      TargetLoad sum = load;
      if (is_table) {  // its LSIs' units come out of the table's
        for (const auto& [other, l] : loads) {
          if (info[other].table == table && info[other].lsi) {
            sum.rcu += l.rcu;
            sum.wcu += l.wcu;
          }
        }
      }
      tc.provisioned_rcu = Provisioned(sum.rcu);
      tc.provisioned_wcu = Provisioned(sum.wcu);
      prov += (static_cast<double>(tc.provisioned_rcu) * prices.rcu_hour +
               static_cast<double>(tc.provisioned_wcu) * prices.wcu_hour) *
              kHoursPerMonth;
    }
    plan.targets.push_back(std::move(tc));
  }
  // Vector indexes: their bytes, billed per GB whatever the table's mode, and their storage
  // (which DynamoDB counts as the table's).
  double vector_cost = 0;
  plan.vector_prices = prices.vector_search_per_gb && prices.vector_write_per_gb;
  for (auto& [target, v] : vectors) {
    v.target = target;
    const double search =
        v.search_bytes * kSecondsPerMonth / kGiB * prices.vector_search_per_gb.value_or(0);
    const double write =
        v.write_bytes * kSecondsPerMonth / kGiB * prices.vector_write_per_gb.value_or(0);
    v.on_demand_per_month = search + write;
    vector_cost += search + write;
    for (const auto& [table, d] : described) {
      for (const VectorIndexDescription& vi : d.table.vector_indexes) {
        if (table + "." + vi.name != target) continue;
        v.items = vi.item_count;
        v.bytes = vi.size_bytes;
      }
    }
    plan.storage_bytes +=
        (static_cast<double>(v.bytes) + kItemOverhead * static_cast<double>(v.items)) *
        options.scale;
    plan.vectors.push_back(v);
  }

  // ---- cost per month ----
  const double gb = plan.storage_bytes / kGiB;
  for (bool on_demand : {true, false}) {
    BillingCost& b = on_demand ? plan.on_demand : plan.provisioned;
    b.on_demand = on_demand;
    if (on_demand) {
      b.reads = od_reads;
      b.writes = od_writes;
    }
    b.vector = vector_cost;
    b.throughput = (on_demand ? od_reads + od_writes : prov) + vector_cost;
    b.storage_gb = gb;
    b.storage = gb * prices.storage_gb_month;
    b.total = b.throughput + b.storage;
  }

  // ---- hot partitions ----
  std::map<std::string, PartitionStats> stats;  // target -> its spread over key values
  std::set<std::string> wanted;
  for (const PlannedPattern* r : rated) {
    for (const OperationUse& u : r->usage) {
      for (const PartitionUse& p : u.partitions) wanted.insert(p.target);
    }
  }
  for (const auto& [target, load] : loads) {
    // GSIs with few values; LSIs for the size of their tables' item collections.
    if (!info[target].index.empty()) wanted.insert(target);
  }
  plan.scanned = options.scan_partitions;
  if (options.scan_partitions) {
    for (const std::string& target : wanted) {
      auto ti = info.find(target);
      if (ti == info.end()) continue;
      std::optional<std::string> index;
      if (!ti->second.index.empty()) index = ti->second.index;
      Result<PartitionStats> st = CollectPartitions(db, ti->second.table, index, options.cancel);
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
  std::map<std::pair<std::string, std::string>, HotPartition> hot;
  for (const PlannedPattern* r : rated) {
    const double rate = *r->rate;
    for (const OperationUse& u : r->usage) {
      for (const PartitionUse& p : u.partitions) {
        std::string key = p.key;
        double share = 1;
        bool everything = true;
        if (p.new_value) {
          // A new value each request (a new post id): each value takes one request, whatever
          // the rate, and the existing values of its class none of them.
          HotPartition& l = hot[{p.target, key}];
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
        HotPartition& l = hot[{p.target, key}];
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
  for (auto& [where, l] : hot) {
    l.target = where.first;
    l.key = where.second;
    l.share = Share(l);
    l.over = l.rcu > kPartitionReadLimit || l.wcu > kPartitionWriteLimit;
    plan.partitions.push_back(l);
  }
  std::stable_sort(plan.partitions.begin(), plan.partitions.end(),
                   [](const HotPartition& a, const HotPartition& b) { return a.share > b.share; });
  for (const HotPartition& l : plan.partitions) {
    if (!l.over) continue;
    ++plan.over;
    AdviseHot(l, &plan.advice);
  }
  // Indexes whose partition key has one or few values.
  for (const auto& [target, st] : stats) {
    if (info[target].index.empty() || info[target].lsi) continue;  // GSIs only
    const size_t values = st.partitions.size();
    const TargetLoad& l = loads[target];
    if (values == 0 || values > 3 || st.items < 2 || l.wcu <= 0) continue;
    std::string names;
    for (const PartitionStat& p : st.partitions) names += (names.empty() ? "" : ", ") + p.key;
    plan.advice.push_back(
        values == 1 ? fmt::format("{} has 1 partition key value ({}): all its writes land on one "
                                  "partition, which takes {} WCU/s; at these rates it gets {} "
                                  "WCU/s",
                                  target, names, Num(kPartitionWriteLimit, 0), Num(l.wcu))
                    : fmt::format("{} has {} partition key values ({}): all its writes land on "
                                  "that few partitions, {} WCU/s each at most; at these rates "
                                  "they get {} WCU/s together",
                                  target, values, names, Num(kPartitionWriteLimit, 0), Num(l.wcu)));
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
        plan.advice.push_back(fmt::format(
            "GROWING: {}'s item collection {} ({} now) grows {} a day and reaches the 10 GB "
            "limit of a table with local secondary indexes in {}; writes to it then fail "
            "(ItemCollectionSizeLimitExceededException)",
            table, where.second, Bytes(now), Bytes(l.new_bytes * 86400),
            days * 24 < 1 ? std::string("less than an hour")
            : days < 1    ? fmt::format("{} hours", Num(days * 24, 1))
                          : fmt::format("{} days", Num(days, 0))));
      }
    }
  }
  // The collections the patterns query, by class, as the advice's examples.
  for (const auto& [where, l] : hot) {
    if (l.readers.empty() || l.new_value) continue;
    std::string c = KeyClass(where.second);
    if (c.starts_with("'")) c = c.substr(1);
    if (c.starts_with("<") || c == where.second) continue;  // an id, a number, a constant
    if (std::ranges::find(plan.collections, c) == plan.collections.end()) {
      plan.collections.push_back(c);
    }
  }
  return plan;
}

}  // namespace keyhole::modeling
