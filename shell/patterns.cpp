// .patterns FILE / `keyhole DB --patterns FILE`: a data model's access patterns checked
// (modeling/patterns.h reads the file and checks each pattern; here they run as script text with
// their output hidden, writes writing) and reported: one row per pattern, its name, the
// DynamoDB operation that served it (GetItem, Query, Query ×N for an IN, BatchGetItem,
// TransactWriteItems, ...; "refused" or "error" when it did not run), the table or index, items
// read and returned ("10+" when a LastEvaluatedKey was left), and the capacity consumed. Then
// each expected refusal with the planner's message, and a summary. The report prints in the
// output mode: a grid in box and table (`--mode table` on a pipe), rows of data in csv, json and
// ddb with the refusals and the summary on the notice stream (standard error). The check fails
// (exit status 1 for --patterns) as modeling::CheckPatterns says.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "modeling/patterns.h"
#include "modeling/usage.h"
#include "shell/render.h"
#include "shell/session_state.h"

namespace keyhole::shell {

namespace {

// Runs `text` with its output hidden and its errors captured; returns each statement's report.
// It runs on a connection of its own (its NEXT, BEGIN and remembered reads stay in the pattern,
// and the session's stay as they were), and with `usage` on modeling's recorder over the
// session's backend, which logs what each operation consumed (a pattern inside a pattern without
// a log of its own records on into the outer one).
std::vector<StatementReport> RunHidden(Session::State& s, std::string_view text,
                                       std::string_view source, int first_line,
                                       modeling::UsageLog* usage = nullptr) {
  std::vector<StatementReport> reports;
  std::optional<modeling::RecordingBackend> recorder;
  Backend* const outer = s.active;
  Backend* db = outer;
  if (usage) {
    recorder.emplace(s.backend);
    recorder->Attach(usage);
    db = &*recorder;
  }
  StringSink capture;
  Sink* sink = s.sink;
  Redirect redirect = std::move(s.redirect);  // none while the pattern runs
  bool suppress = s.suppress_out, bail = s.settings.bail;
  const planner::SchemaSource* schemas = s.statement_schemas;
  // (Its options are set from the settings before each use, as the session's are.)
  std::unique_ptr<api::Connection> connection =
      std::exchange(s.active_connection, std::make_unique<api::Connection>(*db));
  s.active = db;
  s.statement_schemas = nullptr;
  s.sink = &capture;
  s.suppress_out = true;
  s.settings.bail = false;
  s.collect = &reports;
  s.RunScript(text, source, first_line);
  if (s.connection().in_transaction()) {  // BEGIN without COMMIT: discard it, and say so
    s.connection().Rollback();
    StatementReport open;
    open.error = "ValidationException: BEGIN without COMMIT in this pattern";
    reports.push_back(open);
  }
  s.collect = nullptr;
  s.settings.bail = bail;
  s.suppress_out = suppress;
  s.redirect = std::move(redirect);
  s.sink = sink;
  s.statement_schemas = schemas;
  s.active = outer;
  s.active_connection = std::move(connection);
  return reports;
}

// One pattern's row. For people, capacity reads "0.5 RCU" and a page with more "3+"; for
// programs (`machine`: csv, json, ddb), numbers: capacity and its unit apart, returned and
// whether there was more.
Item Row(const std::string& name, const std::string& operation, const StatementReport& r,
         bool machine) {
  Item row;
  row["pattern"] = AttributeValue::S(name);
  row["operation"] = AttributeValue::S(operation);
  row["on"] = AttributeValue::S(r.target.empty() ? "-" : r.target);
  bool ran = operation != "refused" && operation != "error" && operation != "not run";
  if (ran && machine) {
    row["read"] = AttributeValue::N(Number::FromInt(r.read));
    row["returned"] = AttributeValue::N(Number::FromInt(r.returned));
    row["more"] = AttributeValue::Bool(r.more);
    auto number = [](double v) {
      return AttributeValue::N(Number::Parse(fmt::format("{:g}", v)).value());
    };
    if (r.units == "capacity units" && r.read_units + r.write_units > 0) {  // kept apart
      row["rcu"] = number(r.read_units);
      row["wcu"] = number(r.write_units);
    } else if (!r.units.empty()) {
      row["capacity"] = number(r.capacity);
      row["unit"] = AttributeValue::S(r.units);
    }
  } else if (ran) {
    row["read"] = AttributeValue::N(Number::FromInt(r.read));
    row["returned"] = r.more ? AttributeValue::S(fmt::format("{}+", r.returned))
                             : AttributeValue::N(Number::FromInt(r.returned));
    row["capacity"] = AttributeValue::S(r.units.empty() ? "-" : CapacityText(r.capacity, r.units));
  }
  return row;
}

}  // namespace

bool RunPatterns(Session::State& s, std::string_view text, std::string_view source,
                 const CostPlanSettings* plan) {
  std::optional<modeling::Prices> prices;
  if (plan) {
    Result<modeling::Prices> p = modeling::LoadPrices(plan->region, plan->prices_path);
    if (!p.ok()) {
      s.sink->Err("Error: " + p.status().ToString() + "\n");
      return false;
    }
    prices = std::move(*p);
  }
  const modeling::PatternsFile file = modeling::ParsePatterns(text);
  modeling::PatternCheckOptions options;
  options.source = std::string(source);
  options.endpoint = s.settings.endpoint;
  options.record = plan != nullptr;
  // On an endpoint, patterns that write need --yes or a yes at the prompt: the data is not
  // ours to change. Without either, they are not run, and the check says so.
  options.writes_allowed = s.settings.endpoint.empty() || s.settings.yes || s.settings.read_only;
  if (!options.writes_allowed) {
    std::vector<std::string> writers;
    for (const modeling::PatternBlock& b : file.blocks) {
      if (!b.expect_refusal && modeling::PatternWrites(b.text)) {
        writers.push_back("\"" + b.name + "\"");
      }
    }
    if (writers.empty()) {
      options.writes_allowed = true;
    } else if (s.ask) {
      std::string names;
      for (size_t i = 0; i < writers.size() && i < 3; ++i) {
        names += (i ? ", " : "") + writers[i];
      }
      if (writers.size() > 3) names += fmt::format(" and {} more", writers.size() - 3);
      options.writes_allowed =
          Ask(s, fmt::format("{} of these patterns write ({}) to {}: type yes to let them: ",
                             writers.size(), names, s.settings.endpoint)) == "yes";
    }
  }
  const modeling::PatternsCheck check = modeling::CheckPatterns(
      file,
      [&](std::string_view block, int first_line, modeling::UsageLog* usage) {
        return RunHidden(s, block, source, first_line, usage);
      },
      options);
  const bool machine = IsMachineMode(s.settings.mode);
  std::vector<Item> rows;
  std::string refusals;
  for (const modeling::PatternResult& r : check.patterns) {
    rows.push_back(Row(r.name, r.operation, r.report, machine));
    if (r.refused_as_expected) {
      refusals += fmt::format("-- refused as expected: {}\n--   {}\n", r.name, r.report.error);
    }
  }
  RenderOptions render;
  // The report follows the mode like any result: a table for people, rows of data (and the
  // summary on the notice stream) for programs; `--mode table` gives the table on a pipe.
  render.mode = s.settings.mode;
  render.headers = s.settings.headers;
  render.key_columns = {"pattern", "operation", "on", "read", "returned", "capacity"};
  // With a plan, programs get the plan's rows only (one set of rows parses as one table).
  if (!plan || !machine) s.Out(RenderItems(rows, render));
  s.Notice(refusals, render.mode);
  const size_t n = file.blocks.size();
  std::string summary =
      fmt::format("-- {} pattern{}: {} key-addressed", n, n == 1 ? "" : "s", check.served);
  if (check.refused > 0) summary += fmt::format(", {} refused as expected", check.refused);
  if (!check.failures.empty()) summary += fmt::format(", {} failed", check.failures.size());
  s.Notice(summary + "\n", render.mode);
  if (plan) PrintCostPlan(s, check.patterns, *plan, *prices);
  if (check.ok()) return true;
  std::string err;
  for (const std::string& f : check.failures) err += "pattern check failed: " + f + "\n";
  s.sink->Err(err);
  return false;
}

void ReportOperation(StatementReport& report, std::string_view operation,
                     const json::Value& request, const json::Value& response) {
  report.operation = std::string(operation);
  bool reads = operation == "GetItem" || operation == "Query" || operation == "Scan" ||
               operation == "BatchGetItem" || operation == "TransactGetItems";
  report.units = reads ? "RCU" : "WCU";
  if (!request.IsObject() || !response.IsObject()) return;
  auto number = [](const json::Value* v) -> double {
    return v && v->IsNumber() ? std::stod(v->number_text()) : 0;
  };
  if (const json::Value* t = request.Find("TableName"); t && t->IsString()) {
    report.target = t->str();
    if (const json::Value* i = request.Find("IndexName"); i && i->IsString()) {
      report.target += "." + i->str();
    }
  } else if (const json::Value* items = request.Find("RequestItems"); items && items->IsObject()) {
    for (const auto& [table, _] : items->object()) {
      report.target += (report.target.empty() ? "" : ", ") + table;
    }
  }
  if (const json::Value* count = response.Find("Count")) {
    report.returned = static_cast<int64_t>(number(count));
    report.read = static_cast<int64_t>(number(response.Find("ScannedCount")));
    report.more = response.Find("LastEvaluatedKey") != nullptr;
  } else if (operation == "GetItem") {
    report.returned = report.read = response.Find("Item") ? 1 : 0;
  } else if (const json::Value* r = response.Find("Responses"); r && r->IsObject()) {
    for (const auto& [table, items] : r->object()) {
      if (items.IsArray()) report.returned += static_cast<int64_t>(items.array().size());
    }
    report.read = report.returned;
  } else if (r && r->IsArray()) {  // TransactGetItems
    for (const json::Value& one : r->array()) {
      if (one.IsObject() && one.Find("Item")) ++report.returned;
    }
    report.read = report.returned;
  }
  const json::Value* consumed = response.Find("ConsumedCapacity");
  if (consumed && consumed->IsObject()) {
    report.capacity = number(consumed->Find("CapacityUnits"));
  } else if (consumed && consumed->IsArray()) {
    for (const json::Value& one : consumed->array()) {
      if (one.IsObject()) report.capacity += number(one.Find("CapacityUnits"));
    }
  }
}

}  // namespace keyhole::shell
