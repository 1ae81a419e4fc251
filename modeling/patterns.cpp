// Access patterns as checkable code (see patterns.h).
#include "modeling/patterns.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

#include "core/strings.h"
#include "parser/partiql.h"

namespace keyhole::modeling {

namespace {

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

}  // namespace

PatternsFile ParsePatterns(std::string_view text) {
  PatternsFile file;
  size_t pos = 0;
  int line_no = 1;
  while (pos <= text.size()) {
    size_t eol = text.find('\n', pos);
    std::string_view line =
        text.substr(pos, eol == std::string_view::npos ? std::string_view::npos : eol - pos);
    PatternBlock b;
    if (ParseMarker(line, &b.expect_refusal, &b.name)) {
      b.line = line_no;
      file.blocks.push_back(std::move(b));
    } else {
      std::string& into = file.blocks.empty() ? file.preamble : file.blocks.back().text;
      into.append(line);
      into += '\n';
    }
    if (eol == std::string_view::npos) break;
    pos = eol + 1;
    ++line_no;
  }
  // The rate goes right under the marker, before the pattern's first statement.
  for (PatternBlock& b : file.blocks) {
    size_t at = 0;
    bool statements = false;
    for (int line = b.line + 1; at < b.text.size(); ++line) {
      size_t eol = std::min(b.text.find('\n', at), b.text.size());
      std::string_view text = std::string_view(b.text).substr(at, eol - at);
      double rate = 0;
      std::string error, rate_text;
      if (ParseRate(text, &rate, &rate_text, &error)) {
        if (error.empty() && statements) {
          error = fmt::format(
              "'-- rate: {}' follows this pattern's statement: a rate goes right under its "
              "'-- pattern:' line (this one would be read as \"{}\"'s)",
              rate_text, b.name);
        } else if (error.empty() && !b.rate_text.empty()) {
          error = fmt::format("a second rate, '-- rate: {}', after '-- rate: {}'", rate_text,
                              b.rate_text);
        }
        b.rate_text = rate_text;
        if (!error.empty()) {
          b.rate_errors.emplace_back(line, std::move(error));
          b.rate.reset();
        } else {
          b.rate = rate;
        }
      }
      statements |= IsStatementLine(text);
      at = eol + 1;
    }
  }
  return file;
}

bool PatternWrites(std::string_view text) {
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

api::StatementReport CombineReports(const std::vector<api::StatementReport>& reports) {
  api::StatementReport total;
  bool mixed_units = false;
  for (const api::StatementReport& r : reports) {
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

PatternsCheck CheckPatterns(const PatternsFile& file, const PatternRunner& run,
                            const PatternCheckOptions& options) {
  PatternsCheck check;
  const std::string& source = options.source;
  const std::string where = source.empty() ? "" : source + " ";
  if (!run(file.preamble, 1, nullptr).empty()) {
    check.failures.push_back(
        fmt::format("{}: a statement before the first '-- pattern:' line; name "
                    "every statement with '-- pattern: <name>'",
                    source.empty() ? "the patterns" : source));
  }
  for (const PatternBlock& b : file.blocks) {
    PatternResult result;
    result.name = b.name;
    result.line = b.line;
    result.expect_refusal = b.expect_refusal;
    if (!options.writes_allowed && !b.expect_refusal && PatternWrites(b.text)) {
      result.operation = "not run";
      check.patterns.push_back(std::move(result));
      check.failures.push_back(fmt::format(
          "\"{}\" ({}line {}): not run: it writes, and {} is not a file of your own; run with "
          "--yes to let the patterns write there",
          b.name, where, b.line, options.endpoint));
      continue;
    }
    result.rate = b.rate;
    result.rate_text = b.rate_text;
    result.rate_error = !b.rate_errors.empty();
    for (const auto& [line, error] : b.rate_errors) {
      check.failures.push_back(fmt::format("\"{}\" ({}line {}): {}", b.name, where, line, error));
    }
    const std::string at = fmt::format("{}line {}", where, b.line);
    std::vector<api::StatementReport> reports =
        run(b.text, b.line + 1, options.record ? &result.usage : nullptr);
    const api::StatementReport r = CombineReports(reports);
    result.operation = r.refused             ? "refused"
                       : !r.error.empty()    ? "error"
                       : r.operation.empty() ? "-"
                                             : r.operation;
    result.report = r;
    if (b.expect_refusal) {
      if (r.refused) {
        ++check.refused;
        result.refused_as_expected = true;
      } else if (!r.error.empty()) {
        check.failures.push_back(
            fmt::format("\"{}\" ({}): expected a refusal, but it failed: {}", b.name, at, r.error));
      } else {
        check.failures.push_back(
            fmt::format("\"{}\" ({}): expected a refusal, but it ran as {} on {}", b.name, at,
                        result.operation, r.target));
      }
    } else if (reports.empty()) {
      check.failures.push_back(fmt::format("\"{}\" ({}): no statement", b.name, at));
    } else if (!r.error.empty()) {
      std::string failure = fmt::format("\"{}\" ({}): {}", b.name, at, r.error);
      // A write whose condition found its item: on a file where the patterns ran before.
      if (r.error.starts_with("ConditionalCheckFailedException") ||
          r.error.starts_with("DuplicateItemException") ||
          (r.error.starts_with("TransactionCanceledException") &&
           r.error.find("ConditionalCheckFailed") != std::string::npos)) {
        failure +=
            options.endpoint.empty()
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
                      options.endpoint, options.endpoint);
      }
      check.failures.push_back(std::move(failure));
    } else if (r.operation.starts_with("Scan")) {
      check.failures.push_back(fmt::format(
          "\"{}\" ({}): needs a Scan of {}; an access pattern must be served by GetItem, Query "
          "or BatchGetItem",
          b.name, at, r.target));
    } else {
      ++check.served;
      result.served = true;
    }
    check.patterns.push_back(std::move(result));
  }
  return check;
}

namespace {

// A COMMIT's outcome as a report: the operation DynamoDB served it with, its table, capacity.
api::StatementReport CommitReport(const api::CommitOutcome& c) {
  api::StatementReport report;
  auto total = [](const std::vector<ConsumedCapacity>& consumed) {
    double units = 0;
    for (const ConsumedCapacity& cc : consumed) units += cc.total.capacity_units;
    return units;
  };
  if (!c.ok()) {
    report.NoteError(c.status);
    return report;
  }
  if (c.transaction) {
    const api::TransactionOutcome& t = *c.transaction;
    report.operation = t.reads ? "TransactGetItems" : "TransactWriteItems";
    report.target = t.first_table;
    report.capacity = total(t.consumed_capacity);
    report.units = t.reads ? "RCU" : "WCU";
    if (t.reads) {
      report.read = static_cast<int64_t>(t.responses.size());
      for (const std::optional<Item>& item : t.responses) report.returned += item.has_value();
    }
  } else if (c.batch_response) {
    report.operation = "BatchExecuteStatement";
    for (const BatchStatementResult& r : c.batch_response->responses) {
      if (r.error_code) {
        report.error = *r.error_code + ": " + r.error_message;
        break;
      }
    }
    report.capacity = total(c.batch_response->consumed_capacity);
    report.units = "capacity units";
  }
  return report;
}

}  // namespace

PatternRunner ConnectionRunner(api::Connection& connection, RecordingBackend& recorder) {
  return [&connection, &recorder](std::string_view text, int first_line, UsageLog* usage) {
    (void)first_line;
    std::vector<api::StatementReport> reports;
    UsageLog* outer = recorder.log();
    recorder.Attach(usage ? usage : outer);
    parser::ScriptWalker walker(text, /*dot_commands=*/true);
    while (std::optional<parser::ScriptPiece> piece = walker.Next()) {
      api::StatementReport report;
      if (piece->dot_command) {
        report.NoteError(Status::Validation(
            fmt::format("{} is a shell command: a pattern run on a connection runs PartiQL "
                        "statements",
                        piece->text.substr(0, piece->text.find(' ')))));
        reports.push_back(std::move(report));
        continue;
      }
      parser::ParseResult parsed = parser::ParseStatement(piece->text);
      if (!parsed.ok()) {
        report.NoteError(parsed.status());
        if (connection.in_transaction()) connection.MarkFailed(parsed.status().ToString());
        reports.push_back(std::move(report));
        continue;
      }
      const parser::Statement& statement = parsed.statement();
      if (const auto* begin = std::get_if<parser::BeginStatement>(&statement.body)) {
        if (Status s = connection.Begin(begin->batch); !s.ok()) report.NoteError(s);
      } else if (std::holds_alternative<parser::CommitStatement>(statement.body)) {
        report = CommitReport(connection.Commit());
      } else if (std::holds_alternative<parser::RollbackStatement>(statement.body)) {
        connection.Rollback();
      } else if (connection.in_transaction()) {
        if (Status s = connection.Queue(statement); !s.ok()) {
          report.NoteError(s);
          connection.MarkFailed(s.ToString());
        }
      } else {
        report = connection.Run(statement).report;
      }
      reports.push_back(std::move(report));
    }
    if (connection.in_transaction()) {  // BEGIN without COMMIT: discard it, and say so
      connection.Rollback();
      api::StatementReport open;
      open.error = "ValidationException: BEGIN without COMMIT in this pattern";
      reports.push_back(open);
    }
    recorder.Attach(outer);
    return reports;
  };
}

}  // namespace keyhole::modeling
