// What the session prints: its sink and redirect, items in the output mode, a statement's
// footer, and the text helpers (Count, Shorten, FormatElapsed, ValidUtf8).

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "api/connection.h"
#include "core/ddb_json.h"
#include "core/item.h"
#include "core/table_definition.h"
#include "core/time.h"
#include "core/utf8.h"
#include "modeling/usage.h"
#include "shell/commands.h"
#include "shell/render.h"
#include "shell/session_state.h"
#include "shell/terminal.h"

namespace keyhole::shell {

namespace {

double Since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Whether stdout and stderr end in the same place (one terminal, file or pipe): then what was
// printed must reach it before what follows on stderr. Otherwise stdout keeps its buffer, as
// stdio's, and a script's output piped or sent to a file costs one write per buffer, not two
// per statement.
bool SharedDestination() {
  static const bool shared = [] {
    struct stat out, err;
    if (::fstat(STDOUT_FILENO, &out) != 0 || ::fstat(STDERR_FILENO, &err) != 0) return true;
    return out.st_dev == err.st_dev && out.st_ino == err.st_ino;
  }();
  return shared;
}

}  // namespace

void StdioSink::Out(std::string_view text) { std::fwrite(text.data(), 1, text.size(), stdout); }
void StdioSink::Err(std::string_view text) {
  if (SharedDestination()) std::fflush(stdout);
  // Errors quote what was typed; a terminal or log gets it as valid UTF-8.
  const std::string clean = ValidUtf8(text);
  std::fwrite(clean.data(), 1, clean.size(), stderr);
}

void Session::State::Out(std::string_view text) {
  if (suppress_out) return;
  if (redirect.active()) {
    redirect.Write(text);
  } else {
    sink->Out(text);
  }
}

bool Session::State::CloseRedirect(bool close, Location at) {
  const int error = redirect.Finish(close);
  if (!error) return true;
  return Fail(Status::Validation(fmt::format("writing {}: {} (the output there is incomplete)",
                                             Shorten(redirect.path()), std::strerror(error))),
              at);
}

void Session::State::Notice(std::string_view text, OutputMode mode) {
  if (suppress_out || quiet.on || text.empty()) return;
  if (IsMachineMode(mode)) {
    sink->Notice(text);
  } else {
    Out(text);
  }
}

void Session::State::Echo(std::string_view text) {
  if (suppress_out) return;
  if (IsMachineMode(settings.mode)) {
    sink->Notice(text);
  } else {
    Out(text);
  }
}

void Session::State::EndQuiet() {
  if (!quiet.on) return;
  quiet.on = false;
  Notice(quiet.Summary());
}

std::vector<std::string> KeyColumns(Session::State& s, const std::string& table,
                                    const std::optional<std::string>& index) {
  std::vector<std::string> out;
  Result<TableSchemaPtr> t = s.Schema(table);
  if (!t.ok()) return out;
  auto add = [&](const KeySchema& k) {
    for (const KeyAttribute* a : {&k.partition, k.sort ? &*k.sort : nullptr}) {
      if (a && std::find(out.begin(), out.end(), a->name) == out.end()) out.push_back(a->name);
    }
  };
  add((*t)->key);
  if (index) {
    if (const IndexDescription* idx = (*t)->FindIndex(*index)) add(idx->key);
  }
  return out;
}

double Session::State::now() const {
  if (fixed_clock) return *fixed_clock;
  return WallClockNow();
}

int64_t CountExpired(const std::vector<Item>& items, const std::string& attribute, double now) {
  int64_t n = 0;
  for (const Item& item : items) n += TtlExpired(item, attribute, now);
  return n;
}

void NoteExpired(Session::State& s, const std::string& table, const std::vector<Item>& items) {
  Result<TableSchemaPtr> t = s.Schema(table);
  if (!t.ok() || !(*t)->ttl_attribute || items.empty()) return;
  int64_t expired = CountExpired(items, *(*t)->ttl_attribute, s.now());
  if (expired == 0) return;
  s.Notice(fmt::format(
      "-- {} of these items expired ({} is in the past) and await the TTL sweep (.ttl sweep)\n",
      expired, *(*t)->ttl_attribute));
}

void RememberAttributes(Session::State& s, const std::string& table,
                        const std::vector<Item>& items) {
  Session::State::SeenNames& seen = s.attributes[table];
  std::set<std::string>& names = seen.all;
  // Items of one shape follow each other (a point read's, a page of one entity): an item whose
  // names are the last one's has nothing new, and costs a comparison, not a lookup per name.
  std::vector<std::string>& last = seen.last;
  for (const Item& item : items) {
    if (item.size() == last.size() &&
        std::equal(item.begin(), item.end(), last.begin(),
                   [](const auto& attribute, const std::string& name) {
                     return attribute.first == name;
                   })) {
      continue;
    }
    last.clear();
    for (const auto& [name, value] : item) last.push_back(name);
    if (names.size() > 10000) break;
    // An item's names come in order: each is looked for right after the one before (constant
    // time when the set has it already, as for every item after the first of a result).
    auto hint = names.begin();
    for (const auto& [name, value] : item) hint = std::next(names.insert(hint, name));
  }
}

void PrintItems(Session::State& s, const std::vector<Item>& items, const std::string& table,
                const std::optional<std::string>& index, const std::vector<std::string>& columns) {
  RenderOptions options;
  options.mode = s.settings.mode;
  options.headers = s.settings.headers;
  // (ddb mode prints each item as DynamoDB JSON, in name order: no key columns first.)
  if (s.settings.mode != OutputMode::kDdb) options.key_columns = KeyColumns(s, table, index);
  options.columns = columns;
  options.max_cell_width = s.settings.max_cell_width;
  const bool to_terminal = s.settings.terminal && !s.redirect.active() && !s.suppress_out;
  if (to_terminal && s.settings.expanded_auto) options.max_width = TerminalColumns();
  if (s.settings.mode == OutputMode::kCsv) {
    // NEXT continues the same CSV: no second header row when the columns are the same.
    std::vector<std::string> shown = ColumnsFor(items, options);
    if (s.continuing && shown == s.csv_columns) options.headers = false;
    if (!shown.empty()) s.csv_columns = std::move(shown);
  }
  std::string text = RenderItems(items, options);
  const size_t rows = to_terminal && s.settings.pager ? TerminalRows() : 0;
  if (rows > 2 && static_cast<size_t>(std::count(text.begin(), text.end(), '\n')) > rows - 2 &&
      Page(text)) {
    return;
  }
  s.Out(text);
}

// Prints what a statement the connection ran did: its items and the footer, or its error.
bool PrintOutcome(Session::State& s, api::StatementOutcome&& outcome, Location at) {
  if (!outcome.ok()) {
    if (outcome.plan && outcome.status.IsNotFound()) {
      return s.Fail(s.NameMissingTable(outcome.status, outcome.plan->table), at);
    }
    return s.Fail(outcome.status, at);
  }
  const planner::Plan& plan = *outcome.plan;
  const planner::ExecuteResult& r = outcome.result;
  RememberAttributes(s, plan.table, r.items);
  PrintItems(s, r.items, plan.table, plan.index, plan.columns);
  s.report = std::move(outcome.report);
  const std::string& target = s.report.target;
  std::string footer;
  if (plan.kind == parser::StatementKind::kSelect) {
    // "-- N returned, N read · <operation> on <target> · <units>", without the formatter: it
    // is written after every SELECT.
    const fmt::format_int returned(r.count), read(r.scanned_count);
    footer.reserve(64 + target.size());
    footer.append("-- ").append(returned.data(), returned.size()).append(" returned, ");
    footer.append(read.data(), read.size()).append(" read · ").append(plan.operation_name);
    if (plan.operations.size() > 1) footer += fmt::format(" ×{}", plan.operations.size());
    footer.append(" on ").append(target).append(" · ").append(
        CapacityText(r.capacity_units, "RCU"));
    if (outcome.consistent) footer.append(" · strongly consistent");
  } else if (plan.per_item_write) {
    footer = fmt::format("-- {} written, {} read · Scan, then {} per item on {} · {}", r.count,
                         r.scanned_count, plan.operation_name, target,
                         modeling::UnitsText(r.units, plan.table, "RCU"));
  } else {
    footer = r.items.empty() ? "-- " : fmt::format("-- {} returned · ", r.count);
    if (outcome.missing_deletes > 0) footer += "no item had this key, nothing deleted · ";
    footer += fmt::format(
        "{}{} on {} · {}", plan.operation_name,
        plan.operations.size() > 1 ? fmt::format(" ×{}", plan.operations.size()) : std::string(),
        target, modeling::UnitsText(r.units, plan.table, "WCU"));
  }
  footer = s.Timed(std::move(footer));
  footer.push_back('\n');
  s.Notice(footer);
  if (!outcome.nothing_matched.empty()) {
    s.Notice("-- nothing matched: " + outcome.nothing_matched + "\n");
  }
  if (plan.kind == parser::StatementKind::kSelect) {
    NoteExpired(s, plan.table, r.items);
    if (r.next) {
      std::string more = "-- more: ";
      if (r.last_evaluated_key) {
        more += fmt::format("LastEvaluatedKey {} · ", ItemToJsonText(*r.last_evaluated_key));
      }
      s.Notice(more + "NEXT; reads the next page\n");
    }
  }
  return true;
}

bool PrintJson(Session::State& s, const Result<json::Value>& r, Location at) {
  if (!r.ok()) return s.Fail(r.status(), at);
  s.Out(json::Write(*r) + "\n");
  return true;
}

std::string Session::State::Timed(std::string footer) {
  if (!settings.timer) return footer;
  timed = true;
  return footer + " · " + FormatElapsed(Since(statement_start));
}

void Session::State::NoteTime() {
  if (settings.timer && !timed) Notice("-- " + FormatElapsed(Since(statement_start)) + "\n");
}

std::string ValidUtf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    if (std::optional<size_t> bad = utf8::FindInvalid(text.substr(i))) {
      out.append(text.substr(i, *bad));
      out += "\uFFFD";
      i += *bad + 1;
    } else {
      out.append(text.substr(i));
      break;
    }
  }
  return out;
}

std::string Count(int64_t n, std::string_view noun) {
  return fmt::format("{} {}{}", n, noun, n == 1 ? "" : "s");
}

std::string Shorten(std::string_view text, size_t max) {
  if (text.size() <= max) return std::string(text);
  return fmt::format("{}… ({} bytes)", text.substr(0, utf8::Boundary(text, max)), text.size());
}

std::string FormatElapsed(double seconds) {
  if (seconds < 1e-3) return fmt::format("{:.0f} µs", seconds * 1e6);
  if (seconds < 1) return fmt::format("{:.3g} ms", seconds * 1e3);
  return fmt::format("{:.3g} s", seconds);
}

}  // namespace keyhole::shell
