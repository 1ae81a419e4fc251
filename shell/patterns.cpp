// .patterns FILE / `keyhole DB --patterns FILE`: a data model's access patterns as checkable
// code (samples/README.md). A patterns file is a script whose statements are named by comment
// lines:
//
//   -- pattern: get a user's posts, newest first
//   SELECT * FROM "Social" WHERE PK = 'USER#alice' AND begins_with(SK, 'POST#') ORDER BY SK DESC;
//
//   -- refused: find users by city
//   -- (why it is refused and how to fix it)
//   SELECT * FROM "Social" WHERE city = 'Berlin';
//
// A marker names every statement after it up to the next marker (one statement, or a whole
// BEGIN; ...; COMMIT;). Before the first marker only comments and dot-commands may appear.
// Each pattern runs once, in order, with its output hidden (writes do write), and the report
// has one row per pattern: its name, the DynamoDB operation that served it (GetItem, Query,
// Query ×N for an IN, BatchGetItem, TransactWriteItems, ...; "refused" or "error" when it did
// not run), the table or index, items read and returned ("10+" when a LastEvaluatedKey was
// left), and the capacity consumed. Then each expected refusal with the planner's message, and
// a summary. The report prints in the output mode: a grid in box and table (`--mode table` on a
// pipe), rows of data in csv, json and ddb with the refusals and the summary on the notice
// stream (standard error). The check fails (exit status 1 for --patterns) when a `pattern:`
// needs a Scan, is refused or fails, or a `refused:` statement is not refused by the planner.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "core/strings.h"

#include "shell/session_state.h"

namespace keyhole::shell {

namespace {

struct PatternBlock {
  bool expect_refusal = false;
  std::string name;
  int line = 0;      // the marker's line
  std::string text;  // the lines after the marker, up to the next marker
};

// "-- pattern: name" / "-- refused: name" -> true with `refused` and `name` set.
bool ParseMarker(std::string_view line, bool* refused, std::string* name) {
  size_t i = line.find_first_not_of(" \t");
  if (i == std::string_view::npos || line.substr(i, 2) != "--") return false;
  line.remove_prefix(i + 2);
  line.remove_prefix(std::min(line.find_first_not_of(" \t"), line.size()));
  for (std::string_view tag : {"pattern:", "refused:"}) {
    if (!line.starts_with(tag)) continue;
    std::string_view rest = line.substr(tag.size());
    size_t b = rest.find_first_not_of(" \t");
    size_t e = rest.find_last_not_of(" \t\r");
    if (b == std::string_view::npos) return false;
    *refused = tag == "refused:";
    *name = std::string(rest.substr(b, e - b + 1));
    return true;
  }
  return false;
}

// A rate's number: digits with an optional fraction and exponent ("1.5", "1e3"), "_" between
// digits, and "," only as a thousands separator ("1,000"; "1,5" is refused, not read as 15).
bool ParseRateNumber(std::string_view text, double* out) {
  std::string digits;
  size_t group = std::string::npos;  // digits since the last ',' (npos: no ',' yet)
  size_t lead = 0;                   // digits before the first ','
  bool fraction = false;
  for (char c : text) {
    if (c == '_') continue;
    if (c == ',') {
      if (fraction || (group == std::string::npos ? lead == 0 || lead > 3 : group != 3)) {
        return false;
      }
      group = 0;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) && !fraction) {
      group == std::string::npos ? ++lead : ++group;
    } else {
      if (group != std::string::npos && group != 3) return false;
      fraction = true;
    }
    digits += c;
  }
  if (group != std::string::npos && group != 3) return false;
  if (digits.empty() || !std::isdigit(static_cast<unsigned char>(digits[0]))) return false;
  char* end = nullptr;
  *out = std::strtod(digits.c_str(), &end);
  return *end == '\0' && std::isfinite(*out) && *out >= 0;
}

// "-- rate: 500/s" (also /min, /h, /day, "per second", any case): true when `line` is a rate
// line, with the rate per second, or with `error` set when it cannot be read.
bool ParseRate(std::string_view line, double* per_second, std::string* text, std::string* error) {
  size_t i = line.find_first_not_of(" \t");
  if (i == std::string_view::npos || line.substr(i, 2) != "--") return false;
  line.remove_prefix(i + 2);
  line.remove_prefix(std::min(line.find_first_not_of(" \t"), line.size()));
  if (!line.starts_with("rate:")) return false;
  line.remove_prefix(5);
  size_t b = line.find_first_not_of(" \t"), e = line.find_last_not_of(" \t\r");
  *text = b == std::string_view::npos ? "" : std::string(line.substr(b, e - b + 1));
  const std::string lower = AsciiLower(*text);
  size_t slash = lower.find('/');
  size_t per = lower.find(" per ");
  size_t cut = std::min(slash, per);
  std::string number = lower.substr(0, cut);
  std::string unit = cut == std::string::npos ? "" : lower.substr(cut);
  number.erase(std::remove(number.begin(), number.end(), ' '), number.end());
  if (unit.starts_with(" per ")) unit = "/" + unit.substr(5);
  unit.erase(std::remove(unit.begin(), unit.end(), ' '), unit.end());
  static constexpr std::pair<std::string_view, double> kUnits[] = {
      {"/s", 1},    {"/sec", 1},     {"/second", 1}, {"/min", 60},  {"/minute", 60},
      {"/h", 3600}, {"/hour", 3600}, {"/hr", 3600},  {"/d", 86400}, {"/day", 86400}};
  double seconds = 0;
  for (const auto& [name, s] : kUnits) {
    if (unit == name) seconds = s;
  }
  double n = 0;
  if (seconds == 0 || !ParseRateNumber(number, &n)) {
    *error = fmt::format(
        "'-- rate: {}' cannot be read: write N/s, N/min, N/h or N/day (1000/s, 1,000/s, 2.5/min)",
        *text);
    return true;
  }
  if (n / seconds > 1e9) {  // beyond any table, and beyond what the plan's figures hold
    *error = fmt::format("'-- rate: {}' is more than 1,000,000,000 requests a second", *text);
    return true;
  }
  *per_second = n / seconds;
  return true;
}

// Whether `line` holds a statement's text rather than a comment or nothing.
bool IsStatementLine(std::string_view line) {
  size_t i = line.find_first_not_of(" \t\r");
  return i != std::string_view::npos && line.substr(i, 2) != "--";
}

// Whether a pattern's text changes data: a statement (at the start, or after a ';') that begins
// with a write's word, the API form of a write, or a dot-command that writes. Read as words, not
// parsed: a ';' inside a string may start a false one, which only asks once more.
bool Writes(std::string_view text) {
  static constexpr std::string_view kWrites[] = {"INSERT",
                                                 "UPDATE",
                                                 "DELETE",
                                                 "REPLACE",
                                                 "UPSERT",
                                                 "CREATE",
                                                 "ALTER",
                                                 "DROP",
                                                 "PUTITEM",
                                                 "UPDATEITEM",
                                                 "DELETEITEM",
                                                 "BATCHWRITEITEM",
                                                 "TRANSACTWRITEITEMS",
                                                 "EXECUTETRANSACTION",
                                                 "BATCHEXECUTESTATEMENT",
                                                 ".IMPORT",
                                                 ".GENERATE",
                                                 ".LOAD"};
  bool start = true;
  for (size_t i = 0; i < text.size();) {
    if (text.substr(i, 2) == "--") {  // a comment, to the end of its line
      i = std::min(text.find('\n', i), text.size());
      continue;
    }
    const char c = text[i];
    if (c == ';') {
      start = true;
      ++i;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) ||
                                 text[end] == '_' || text[end] == '.')) {
      ++end;
    }
    if (start) {
      std::string word;
      for (char w : text.substr(i, end - i)) {
        word += static_cast<char>(std::toupper(static_cast<unsigned char>(w)));
      }
      if (std::ranges::find(kWrites, word) != std::end(kWrites)) return true;
      if (word == "SCAN") {  // SCAN UPDATE / SCAN DELETE
        size_t next = text.find_first_not_of(" \t\r\n", end);
        std::string then;
        for (size_t j = next; j != std::string_view::npos && j < text.size() &&
                              std::isalpha(static_cast<unsigned char>(text[j]));
             ++j) {
          then += static_cast<char>(std::toupper(static_cast<unsigned char>(text[j])));
        }
        if (then == "UPDATE" || then == "DELETE") return true;
      }
      start = false;
    }
    i = std::max(end, i + 1);
  }
  return false;
}

// Splits a patterns file into its preamble (before the first marker) and its blocks.
std::vector<PatternBlock> SplitPatterns(std::string_view text, std::string* preamble) {
  std::vector<PatternBlock> blocks;
  size_t pos = 0;
  int line_no = 1;
  while (pos <= text.size()) {
    size_t eol = text.find('\n', pos);
    std::string_view line =
        text.substr(pos, eol == std::string_view::npos ? std::string_view::npos : eol - pos);
    PatternBlock b;
    if (ParseMarker(line, &b.expect_refusal, &b.name)) {
      b.line = line_no;
      blocks.push_back(std::move(b));
    } else {
      std::string& into = blocks.empty() ? *preamble : blocks.back().text;
      into.append(line);
      into += '\n';
    }
    if (eol == std::string_view::npos) break;
    pos = eol + 1;
    ++line_no;
  }
  return blocks;
}

// The reports of one block's statements as one: the last operation, summed counts.
StatementReport Combine(const std::vector<StatementReport>& reports) {
  StatementReport total;
  bool mixed_units = false;
  for (const StatementReport& r : reports) {
    if (total.error.empty() && !r.error.empty()) {
      total.error = r.error;
      total.refused = r.refused;
    }
    if (r.operation.empty()) continue;  // BEGIN, a queued statement, DDL
    total.operation = r.operation;
    total.target = r.target;
    total.read += r.read;
    total.returned += r.returned;
    total.more |= r.more;
    total.capacity += r.capacity;
    total.read_units += r.read_units;
    total.write_units += r.write_units;
    if (!total.units.empty() && total.units != r.units) mixed_units = true;
    total.units = r.units;
  }
  if (mixed_units) total.units = "capacity units";
  return total;
}

// Runs `text` with its output hidden and its errors captured; returns each statement's report.
std::vector<StatementReport> RunHidden(Session::State& s, std::string_view text,
                                       std::string_view source, int first_line,
                                       modeling::UsageLog* usage = nullptr) {
  std::vector<StatementReport> reports;
  StringSink capture;
  Sink* sink = s.sink;
  std::FILE* redirect = s.redirect;
  bool suppress = s.suppress_out, bail = s.settings.bail;
  s.sink = &capture;
  s.redirect = nullptr;
  s.suppress_out = true;
  s.settings.bail = false;
  s.collect = &reports;
  modeling::UsageLog* outer =
      s.recorder.log();  // a .patterns inside a pattern of a plan records on
  s.recorder.Attach(usage ? usage : outer);
  s.RunScript(text, source, first_line);
  s.recorder.Attach(outer);
  if (s.connection.in_transaction()) {  // BEGIN without COMMIT: discard it, and say so
    s.connection.Rollback();
    StatementReport open;
    open.error = "ValidationException: BEGIN without COMMIT in this pattern";
    reports.push_back(open);
  }
  s.collect = nullptr;
  s.settings.bail = bail;
  s.suppress_out = suppress;
  s.redirect = redirect;
  s.sink = sink;
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
                 const PlanOptions* plan) {
  std::optional<modeling::Prices> prices;
  if (plan) {
    Result<modeling::Prices> p = modeling::LoadPrices(plan->region, plan->prices_path);
    if (!p.ok()) {
      s.sink->Err("Error: " + p.status().ToString() + "\n");
      return false;
    }
    prices = std::move(*p);
  }
  std::vector<PatternRun> runs;
  std::string preamble;
  std::vector<PatternBlock> blocks = SplitPatterns(text, &preamble);
  std::vector<std::string> failures;
  std::string where = source.empty() ? "" : std::string(source) + " ";
  if (!RunHidden(s, preamble, source, 1).empty()) {
    failures.push_back(
        fmt::format("{}: a statement before the first '-- pattern:' line; name "
                    "every statement with '-- pattern: <name>'",
                    source.empty() ? "the patterns" : std::string(source)));
  }
  // On an endpoint, patterns that write need --yes or a yes at the prompt: the data is not
  // ours to change. Without either, they are not run, and the check says so.
  bool writes_allowed = s.settings.endpoint.empty() || s.settings.yes || s.settings.read_only;
  std::vector<bool> writes(blocks.size());  // the patterns that write, when that matters
  if (!writes_allowed) {
    std::vector<std::string> writers;
    for (size_t i = 0; i < blocks.size(); ++i) {
      writes[i] = !blocks[i].expect_refusal && Writes(blocks[i].text);
      if (writes[i]) writers.push_back("\"" + blocks[i].name + "\"");
    }
    if (writers.empty()) {
      writes_allowed = true;
    } else if (s.ask) {
      std::string names;
      for (size_t i = 0; i < writers.size() && i < 3; ++i) {
        names += (i ? ", " : "") + writers[i];
      }
      if (writers.size() > 3) names += fmt::format(" and {} more", writers.size() - 3);
      writes_allowed = s.Ask(fmt::format("{} of these patterns write ({}) to {}: type yes to "
                                         "let them: ",
                                         writers.size(), names, s.settings.endpoint)) == "yes";
    }
  }
  std::vector<Item> rows;
  std::string refusals;
  int served = 0, refused = 0;
  for (size_t i = 0; i < blocks.size(); ++i) {
    const PatternBlock& b = blocks[i];
    if (!writes_allowed && writes[i]) {
      PatternRun run;
      run.name = b.name;
      run.line = b.line;
      run.operation = "not run";
      StatementReport none;
      rows.push_back(Row(b.name, "not run", none, IsMachineMode(s.settings.mode)));
      runs.push_back(std::move(run));
      failures.push_back(fmt::format(
          "\"{}\" ({}line {}): not run: it writes, and {} is not a file of your own; run with "
          "--yes to let the patterns write there",
          b.name, where, b.line, s.settings.endpoint));
      continue;
    }
    PatternRun run;
    run.name = b.name;
    run.line = b.line;
    std::string at = fmt::format("{}line {}", where, b.line);
    // The rate goes right under the marker, before the pattern's first statement.
    size_t pos = 0;
    bool statements = false;
    for (int line = b.line + 1; pos < b.text.size(); ++line) {
      size_t eol = std::min(b.text.find('\n', pos), b.text.size());
      std::string_view text = std::string_view(b.text).substr(pos, eol - pos);
      double rate = 0;
      std::string error, rate_text;
      if (ParseRate(text, &rate, &rate_text, &error)) {
        if (error.empty() && statements) {
          error = fmt::format(
              "'-- rate: {}' follows this pattern's statement: a rate goes right under its "
              "'-- pattern:' line (this one would be read as \"{}\"'s)",
              rate_text, b.name);
        } else if (error.empty() && !run.rate_text.empty()) {
          error = fmt::format("a second rate, '-- rate: {}', after '-- rate: {}'", rate_text,
                              run.rate_text);
        }
        run.rate_text = rate_text;
        if (!error.empty()) {
          run.rate_error = true;
          run.rate.reset();
          failures.push_back(fmt::format("\"{}\" ({}line {}): {}", b.name, where, line, error));
        } else {
          run.rate = rate;
        }
      }
      statements |= IsStatementLine(text);
      pos = eol + 1;
    }
    std::vector<StatementReport> reports =
        RunHidden(s, b.text, source, b.line + 1, plan ? &run.usage : nullptr);
    StatementReport r = Combine(reports);
    std::string operation = r.refused             ? "refused"
                            : !r.error.empty()    ? "error"
                            : r.operation.empty() ? "-"
                                                  : r.operation;
    rows.push_back(Row(b.name, operation, r, IsMachineMode(s.settings.mode)));
    run.operation = operation;
    run.report = r;
    runs.push_back(std::move(run));
    if (b.expect_refusal) {
      if (r.refused) {
        ++refused;
        refusals += fmt::format("-- refused as expected: {}\n--   {}\n", b.name, r.error);
      } else if (!r.error.empty()) {
        failures.push_back(
            fmt::format("\"{}\" ({}): expected a refusal, but it failed: {}", b.name, at, r.error));
      } else {
        failures.push_back(fmt::format("\"{}\" ({}): expected a refusal, but it ran as {} on {}",
                                       b.name, at, operation, r.target));
      }
      continue;
    }
    if (reports.empty()) {
      failures.push_back(fmt::format("\"{}\" ({}): no statement", b.name, at));
    } else if (!r.error.empty()) {
      std::string failure = fmt::format("\"{}\" ({}): {}", b.name, at, r.error);
      // A write whose condition found its item: on a file where the patterns ran before.
      if (r.error.starts_with("ConditionalCheckFailedException") ||
          r.error.starts_with("DuplicateItemException") ||
          (r.error.starts_with("TransactionCanceledException") &&
           r.error.find("ConditionalCheckFailed") != std::string::npos)) {
        failure +=
            s.settings.endpoint.empty()
                ? std::string(
                      "\n  this pattern writes, and its condition failed: on this file it has "
                      "likely run before, and its write is done. A pattern that writes runs once "
                      "per file: load the schema again (keyhole FILE -f schema.sql) to run them "
                      "all again")
                : fmt::format(
                      "\n  this pattern writes, and its condition failed: on {} it has likely "
                      "run before, and its write is done. A pattern that writes runs once per "
                      "data set: drop the tables and load the schema again (keyhole --endpoint {} "
                      "-f schema.sql) to run them all again",
                      s.settings.endpoint, s.settings.endpoint);
      }
      failures.push_back(std::move(failure));
    } else if (r.operation.starts_with("Scan")) {
      failures.push_back(fmt::format(
          "\"{}\" ({}): needs a Scan of {}; an access pattern must be served by GetItem, Query or "
          "BatchGetItem",
          b.name, at, r.target));
    } else {
      ++served;
      runs.back().served = true;
    }
  }
  RenderOptions options;
  // The report follows the mode like any result: a table for people, rows of data (and the
  // summary on the notice stream) for programs; `--mode table` gives the table on a pipe.
  options.mode = s.settings.mode;
  options.headers = s.settings.headers;
  options.key_columns = {"pattern", "operation", "on", "read", "returned", "capacity"};
  // With a plan, programs get the plan's rows only (one set of rows parses as one table).
  if (!plan || !IsMachineMode(options.mode)) s.Out(RenderItems(rows, options));
  s.Notice(refusals, options.mode);
  std::string summary = fmt::format("-- {} pattern{}: {} key-addressed", blocks.size(),
                                    blocks.size() == 1 ? "" : "s", served);
  if (refused > 0) summary += fmt::format(", {} refused as expected", refused);
  if (!failures.empty()) summary += fmt::format(", {} failed", failures.size());
  s.Notice(summary + "\n", options.mode);
  if (plan) PrintCostPlan(s, runs, *plan, *prices);
  if (failures.empty()) return true;
  std::string err;
  for (const std::string& f : failures) err += "pattern check failed: " + f + "\n";
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
