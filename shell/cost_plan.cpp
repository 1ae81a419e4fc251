// .plan FILE / --plan: the cost plan (modeling/cost_plan.h) printed in the session's output
// mode: for people, four tables (per pattern, per table and index, cost per month, the busiest
// partitions) each under a notice line, then the advice; for programs (csv, json, ddb), every
// section's rows in one set of rows, a `section` column telling them apart, and the advice on
// the notice stream.
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "modeling/cost_plan.h"
#include "modeling/figures.h"
#include "modeling/partitions.h"
#include "shell/render.h"
#include "shell/session_state.h"

namespace keyhole::shell {

namespace {

using modeling::Bytes;
using modeling::Money;
using modeling::Num;
using modeling::Percent;
using modeling::Round;

AttributeValue N(double v) {
  if (!std::isfinite(v)) v = 0;
  v = std::clamp(v, -9.9e125, 9.9e125);  // DynamoDB's number range (rates and prices are capped)
  Result<Number> n = Number::Parse(fmt::format("{:.15g}", v));
  return AttributeValue::N(n.ok() ? *n : Number::FromInt(0));
}

// A nested value as a csv cell: its plain JSON text.
AttributeValue JsonCell(const AttributeValue& v) {
  std::string text;
  AppendPlainJson(v, &text);
  return AttributeValue::S(std::move(text));
}

// "a", "b" -> "\"a\", \"b\"".
std::string Quoted(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + ("\"" + n + "\"");
  return out;
}

Item PatternRow(const modeling::PatternCost& p, const std::string& table, bool machine) {
  Item row;
  if (machine) {
    row["section"] = AttributeValue::S("pattern");
    row["rate_per_s"] = N(p.rate);
    row["requests_per_s"] = N(p.requests);
    row["rcu_per_s"] = N(p.rcu);
    row["wcu_per_s"] = N(p.wcu);
    row["item_bytes_mean"] = N(std::round(p.item_bytes_mean));
    row["item_bytes_max"] = N(static_cast<double>(p.item_bytes_max));
    Map per;
    for (const auto& [target, c] : p.per_call) {
      Map m;
      m["rcu"] = N(c.read_units);
      m["wcu"] = N(c.write_units);
      per[target] = AttributeValue::M(std::move(m));
    }
    row["units_per_call"] = AttributeValue::M(std::move(per));
    if (p.search_bytes > 0) row["vector_search_bytes_per_s"] = N(p.search_bytes * p.rate);
    if (p.vector_write_bytes > 0) {
      row["vector_write_bytes_per_s"] = N(p.vector_write_bytes * p.rate);
    }
  } else {
    row["rate"] = AttributeValue::S(p.rate_text);
    row["requests/s"] = N(Round(p.requests));
    row["RCU/s"] = N(Round(p.rcu));
    row["WCU/s"] = N(Round(p.wcu));
    double rcu = 0, wcu = 0;
    for (const auto& [target, c] : p.per_call) {
      rcu += c.read_units;
      wcu += c.write_units;
    }
    std::string units = modeling::UnitsText(p.per_call, table, "RCU");
    if (p.search_bytes > 0 && rcu + wcu == 0) units = Bytes(p.search_bytes) + " searched";
    if (p.vector_write_bytes > 0) units += ", " + Bytes(p.vector_write_bytes) + " vector";
    row["per call"] = AttributeValue::S(units);
    if (p.search_bytes + p.vector_write_bytes > 0) {
      row["vector bytes/s"] = AttributeValue::S(
          p.search_bytes > 0 && p.vector_write_bytes > 0
              ? fmt::format("{} searched, {} written", Bytes(p.search_bytes * p.rate),
                            Bytes(p.vector_write_bytes * p.rate))
              : fmt::format("{} {}", Bytes((p.search_bytes + p.vector_write_bytes) * p.rate),
                            p.search_bytes > 0 ? "searched" : "written"));
    }
    row["item bytes"] = AttributeValue::S(
        !p.item_sizes ? "-"
                      : fmt::format("{} avg, {} max", Num(p.item_bytes_mean, 0),
                                    Num(static_cast<double>(p.item_bytes_max), 0)));
  }
  row["pattern"] = AttributeValue::S(p.name);
  row["operation"] = AttributeValue::S(p.operation);
  return row;
}

Item TargetRow(const modeling::TargetCost& t, bool machine) {
  Item row;
  row["on"] = AttributeValue::S(t.target);
  if (machine) {
    row["section"] = AttributeValue::S(t.kind);
    row["rcu_per_s"] = N(t.rcu);
    row["wcu_per_s"] = N(t.wcu);
    row["items"] = N(static_cast<double>(t.items));
    row["bytes"] = N(static_cast<double>(t.bytes));
    row["provisioned_rcu"] = N(static_cast<double>(t.provisioned_rcu));
    row["provisioned_wcu"] = N(static_cast<double>(t.provisioned_wcu));
    row["on_demand_per_month"] = N(t.on_demand_per_month);
  } else {
    row["RCU/s"] = N(Round(t.rcu));
    row["WCU/s"] = N(Round(t.wcu));
    row["items"] = N(static_cast<double>(t.items));
    row["size"] = AttributeValue::S(Bytes(static_cast<double>(t.bytes)));
    row["provisioned"] = AttributeValue::S(
        t.kind == "lsi" ? "(the table's)"
                        : fmt::format("{} RCU, {} WCU", t.provisioned_rcu, t.provisioned_wcu));
    row["on demand/month"] = AttributeValue::S(Money(t.on_demand_per_month));
  }
  return row;
}

Item VectorRow(const modeling::VectorCost& v, bool vector_prices, bool machine) {
  Item row;
  row["on"] = AttributeValue::S(v.target);
  if (machine) {
    row["section"] = AttributeValue::S("vector");
    row["searches_per_s"] = N(v.searches);
    row["vector_search_bytes_per_s"] = N(v.search_bytes);
    row["vector_write_bytes_per_s"] = N(v.write_bytes);
    row["items"] = N(static_cast<double>(v.items));
    row["bytes"] = N(static_cast<double>(v.bytes));
    row["on_demand_per_month"] = N(v.on_demand_per_month);
  } else {
    row["vector bytes/s"] = AttributeValue::S(
        fmt::format("{} searched ({} searches/s), {} written", Bytes(v.search_bytes),
                    Num(Round(v.searches)), Bytes(v.write_bytes)));
    row["items"] = N(static_cast<double>(v.items));
    row["size"] = AttributeValue::S(Bytes(static_cast<double>(v.bytes)));
    row["provisioned"] = AttributeValue::S("(on demand only)");
    row["on demand/month"] =
        AttributeValue::S(vector_prices ? Money(v.on_demand_per_month) : std::string("no prices"));
  }
  return row;
}

Item BillingRow(const modeling::CostPlan& plan, const modeling::BillingCost& b, bool machine) {
  Item row;
  const bool vectors = !plan.vectors.empty();
  if (machine) {
    row["section"] = AttributeValue::S("cost");
    row["billing"] = AttributeValue::S(b.on_demand ? "PAY_PER_REQUEST" : "PROVISIONED");
    if (b.on_demand) {
      row["reads_per_month"] = N(b.reads);
      row["writes_per_month"] = N(b.writes);
    }
    if (vectors) row["vector_per_month"] = N(b.vector);
    row["throughput_per_month"] = N(b.throughput);
    row["storage_gb"] = N(b.storage_gb);
    row["storage_per_month"] = N(b.storage);
    row["total_per_month"] = N(b.total);
    row["region"] = AttributeValue::S(plan.prices.region);
  } else {
    row["billing"] = AttributeValue::S(b.on_demand ? "on demand" : "provisioned, 70% target");
    const std::string vector_part =
        vectors ? fmt::format(", {} vector", Money(b.vector)) : std::string();
    row["throughput"] = AttributeValue::S(
        b.on_demand ? fmt::format("{} ({} reads, {} writes{})", Money(b.throughput), Money(b.reads),
                                  Money(b.writes), vector_part)
        : !vectors
            ? Money(b.throughput)
            : fmt::format("{} ({} vector, on demand)", Money(b.throughput), Money(b.vector)));
    row["storage"] =
        AttributeValue::S(fmt::format("{} ({})", Money(b.storage), Bytes(plan.storage_bytes)));
    row["per month"] = AttributeValue::S(Money(b.total));
  }
  return row;
}

Item PartitionRow(const modeling::HotPartition& l, bool machine) {
  Item row;
  row["on"] = AttributeValue::S(l.target);
  row["partition"] = modeling::KeyCell(l.key);
  if (machine) {
    row["section"] = AttributeValue::S("partition");
    row["rcu_per_s"] = N(l.rcu);
    row["wcu_per_s"] = N(l.wcu);
    row["of_limit"] = N(l.share);
    row["status"] = AttributeValue::S(l.over ? "over" : l.share >= 0.5 ? "warm" : "ok");
    row["every_request"] = AttributeValue::Bool(l.everything && !l.new_value);
    row["new_value"] = AttributeValue::Bool(l.new_value);
    std::vector<AttributeValue> names;
    for (const std::string& p : l.patterns) names.push_back(AttributeValue::S(p));
    row["patterns"] = AttributeValue::L(std::move(names));
  } else {
    std::string from;  // the first three
    size_t named = 0;
    for (const std::string& p : l.patterns) {
      if (named == 3) {
        from += fmt::format(" and {} more", l.patterns.size() - 3);
        break;
      }
      from += (from.empty() ? "" : ", ") + p;
      ++named;
    }
    row["RCU/s"] = N(Round(l.rcu));
    row["WCU/s"] = N(Round(l.wcu));
    row["of limit"] = AttributeValue::S(Percent(l.share) + (l.over ? " OVER" : ""));
    row["gets"] = AttributeValue::S(l.new_value    ? "one request: a new value each time"
                                    : l.everything ? "every request"
                                                   : "its share of the items");
    row["from"] = AttributeValue::S(from);
  }
  return row;
}

// Each line of `paragraph` as a notice line, after "-- " (the lines after the first begin with
// their own indent).
std::string Commented(const std::string& paragraph) {
  std::string out;
  size_t pos = 0;
  while (pos <= paragraph.size()) {
    size_t eol = std::min(paragraph.find('\n', pos), paragraph.size());
    out += "-- " + paragraph.substr(pos, eol - pos) + "\n";
    pos = eol + 1;
  }
  return out;
}

// The closing notes: what the plan did not read or cost, and how to read it.
std::string Tail(const modeling::CostPlan& plan) {
  std::string tail;
  if (!plan.scanned) {
    tail +=
        "-- the data's spread over partition key values was not read: it needs a Scan of "
        "each table and index on the endpoint (run with --yes to allow it); every request "
        "is counted against the value the pattern named\n";
  }
  const modeling::Prices& prices = plan.prices;
  if (!plan.vectors.empty()) {
    tail += plan.vector_prices
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
  if (!plan.unrated.empty()) {
    tail += fmt::format("-- no rate, left out of the plan: {}\n", Quoted(plan.unrated));
  }
  if (!plan.failed.empty()) {
    tail += fmt::format("-- failed or refused, left out of the plan: {} (see below)\n",
                        Quoted(plan.failed));
  }
  std::string examples;
  const std::vector<std::string>& c = plan.collections;
  for (size_t i = 0; i < c.size() && i < 3; ++i) {
    examples += (i == 0                                   ? ""
                 : i + 1 == std::min<size_t>(c.size(), 3) ? " and "
                                                          : ", ") +
                c[i] + "…";
  }
  tail += fmt::format(
      "-- each pattern is costed as it ran, with the key values it names: name typical ones "
      "({}a value with an average number of items, not the largest)\n",
      examples.empty() ? "" : "for " + examples + ", ");
  tail += fmt::format(
      "-- a month is {} hours; storage is the table's and its indexes' bytes plus 100 bytes "
      "per item{}; the free tier (25 GB, 25 RCU and 25 WCU) is not taken off\n",
      Num(modeling::kHoursPerMonth, 0),
      plan.scale != 1 ? fmt::format(", times {} (--scale)", Num(plan.scale)) : "");
  if (plan.over == 0 && !plan.partitions.empty()) {
    tail += fmt::format(
        "-- no partition is over its limit at these rates (the busiest takes {} "
        "of it)\n",
        Percent(plan.partitions[0].share));
  }
  return tail;
}

}  // namespace

void PrintCostPlan(Session::State& s, const std::vector<modeling::PatternResult>& runs,
                   const CostPlanSettings& opts, const modeling::Prices& prices) {
  std::vector<modeling::PlannedPattern> patterns;
  for (const modeling::PatternResult& r : runs) {
    modeling::PlannedPattern p;
    p.name = r.name;
    p.rate = r.rate;
    p.rate_text = r.rate_text;
    p.rate_error = r.rate_error;
    p.operation = r.operation;
    p.served = r.served;
    p.usage = r.usage;
    patterns.push_back(std::move(p));
  }
  modeling::CostPlanOptions options;
  options.scale = opts.scale;
  // No Scan of an endpoint's tables without --yes.
  options.scan_partitions = s.settings.endpoint.empty() || s.settings.yes;
  options.cancel = &g_interrupted;
  const modeling::CostPlan plan = modeling::ComputeCostPlan(s.db(), patterns, prices, options);

  const bool machine = IsMachineMode(s.settings.mode);
  if (plan.patterns.empty()) {
    s.Notice(plan.failed.empty()
                 ? "-- no plan: no key-addressed pattern has a rate; add '-- rate: N/s' (or /min, "
                   "/h, /day) under a '-- pattern:' line\n"
                 : fmt::format("-- no plan: no pattern with a rate ran; failed or refused: {}\n",
                               Quoted(plan.failed)));
    return;
  }
  RenderOptions render;
  render.mode = s.settings.mode;
  render.headers = s.settings.headers;
  std::vector<Item> all_rows;  // machine modes: every section in one set of rows
  auto print = [&](std::string_view title, std::vector<Item> section,
                   std::vector<std::string> columns) {
    if (machine) {
      for (Item& i : section) all_rows.push_back(std::move(i));
      return;
    }
    render.key_columns = std::move(columns);
    s.Notice(fmt::format("-- {}\n", title));
    s.Out(RenderItems(section, render));
  };

  std::vector<Item> rows;
  for (const modeling::PatternCost& p : plan.patterns) {
    rows.push_back(PatternRow(p, plan.table, machine));
  }
  const size_t n = plan.patterns.size();
  print(fmt::format("the plan: {} at {} rate{}, {} requests/s",
                    n == 1 ? "1 pattern" : fmt::format("{} patterns", n), n == 1 ? "its" : "their",
                    n == 1 ? "" : "s", Num(plan.total_requests)),
        std::move(rows),
        {"section", "pattern", "rate", "rate_per_s", "operation", "requests/s", "requests_per_s",
         "RCU/s", "rcu_per_s", "WCU/s", "wcu_per_s", "per call", "units_per_call", "vector bytes/s",
         "vector_search_bytes_per_s", "vector_write_bytes_per_s", "item bytes"});

  rows.clear();
  for (const modeling::TargetCost& t : plan.targets) rows.push_back(TargetRow(t, machine));
  for (const modeling::VectorCost& v : plan.vectors) {
    rows.push_back(VectorRow(v, plan.vector_prices, machine));
  }
  print("per table and index, at these rates", std::move(rows),
        {"section", "on", "RCU/s", "rcu_per_s", "WCU/s", "wcu_per_s", "vector bytes/s",
         "searches_per_s", "vector_search_bytes_per_s", "vector_write_bytes_per_s", "items", "size",
         "bytes", "provisioned", "provisioned_rcu", "provisioned_wcu", "on demand/month",
         "on_demand_per_month"});

  rows.clear();
  rows.push_back(BillingRow(plan, plan.on_demand, machine));
  rows.push_back(BillingRow(plan, plan.provisioned, machine));
  print(fmt::format("cost per month in {} (prices {}, read {})", prices.region, prices.source,
                    prices.date.empty() ? "undated" : prices.date),
        std::move(rows),
        {"section", "billing", "throughput", "reads_per_month", "writes_per_month",
         "vector_per_month", "throughput_per_month", "storage", "storage_gb", "storage_per_month",
         "per month", "total_per_month"});

  rows.clear();
  for (size_t i = 0; i < plan.partitions.size(); ++i) {
    const modeling::HotPartition& l = plan.partitions[i];
    if (!machine && i >= 10 && !l.over) continue;  // people: the busiest ten, and every one over
    rows.push_back(PartitionRow(l, machine));
  }
  if (!rows.empty()) {
    print(
        fmt::format("the busiest partitions against {} RCU and {} WCU per second each",
                    Num(modeling::kPartitionReadLimit, 0), Num(modeling::kPartitionWriteLimit, 0)),
        std::move(rows),
        {"section", "on", "partition", "RCU/s", "rcu_per_s", "WCU/s", "wcu_per_s", "of limit",
         "of_limit", "status", "gets", "every_request", "new_value", "from"});
  }
  if (machine) {
    render.key_columns = {"section", "pattern", "on", "partition", "billing", "operation"};
    if (render.mode == OutputMode::kCsv) {
      // Nested values as their plain JSON text (programs read JSON, not the shell's literals).
      for (Item& row : all_rows) {
        for (auto& [name, v] : row) {
          if (v.is(ValueType::kM) || v.is(ValueType::kL)) v = JsonCell(v);
        }
      }
    }
    s.Out(RenderItems(all_rows, render));
  }
  std::string notes;
  for (const std::string& a : plan.advice) notes += Commented(a);
  s.Notice(notes + Tail(plan));
}

bool RunPlanCommand(Session::State& s, const std::vector<std::string>& args, Location at) {
  const std::string usage = "usage: .plan FILE [--scale N] [--region R] [--prices FILE]";
  CostPlanSettings plan;
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
