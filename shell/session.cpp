// Session: runs scripts of statements and dot-commands; statements are planned (planner/),
// executed on the engine, rendered (render.h) and followed by a footer (session.h).
#include "shell/session.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "api/api_json.h"
#include "api/partiql_api.h"
#include "core/ddb_json.h"
#include "core/expression_text.h"
#include "core/item.h"
#include "core/strings.h"
#include "core/table_definition.h"
#include "core/utf8.h"
#include "core/vector_index.h"
#include "modeling/model.h"
#include "parser/partiql.h"
#include "parser/suggest.h"
#include "planner/plan.h"
#include "shell/session_state.h"
#include "shell/terminal.h"

namespace keyhole::shell {

std::atomic<bool> g_interrupted{false};
std::atomic<uint64_t> g_interrupt_epoch{0};
namespace {
std::atomic<int> g_termination{0};  // Session::Terminate's signal
static_assert(std::atomic<int>::is_always_lock_free, "set from a signal handler");
}  // namespace

namespace {

double Since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

// ---- Session ----

namespace {

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

Session::Session(Backend& backend, LocalControl* local, std::string db_path, Sink& sink)
    : db_(backend),
      db_path_(db_path),
      sink_(sink),
      state_(std::make_unique<State>(backend, local, std::move(db_path), sink, settings_, quit_)) {}

Result<LocalControl*> Session::State::Local(std::string_view what) const {
  if (local) return local;
  if (settings.endpoint.empty()) {
    return Status::Validation(fmt::format("{} needs a local keyhole file", what));
  }
  std::string why = fmt::format("{} is for a keyhole file: this shell is connected to {}", what,
                                settings.endpoint);
  if (what == ".clock") {
    why += ", which keeps its own time";
  } else if (what == ".ttl sweep") {
    why += ", which deletes expired items by itself (DynamoDB: within a few days of expiry)";
  } else if (what == ".check") {
    why += ", which keeps its indexes itself";
  }
  return Status::Validation(why);
}

void Session::SetAsk(std::function<std::optional<std::string>(const std::string&)> ask) {
  state_->ask = std::move(ask);
}

std::optional<std::string> Ask(Session::State& s, const std::string& question) {
  if (!s.ask) return std::nullopt;
  std::optional<std::string> answer = s.ask(question);
  if (answer) {
    const size_t b = answer->find_first_not_of(" \t");
    const size_t e = answer->find_last_not_of(" \t\r\n");
    *answer = b == std::string::npos ? "" : answer->substr(b, e - b + 1);
  }
  return answer;
}

bool Confirm(Session::State& s, std::string_view statement, const std::string& question,
             const std::string& expected, Location at, bool* declined) {
  *declined = false;
  if (s.settings.endpoint.empty() || s.settings.yes || s.settings.read_only) return true;
  if (!s.ask) {
    s.Fail(Status::Validation(fmt::format(
               "{} on {} asks for confirmation, and there is nobody to ask: run keyhole with --yes "
               "to allow it in a script",
               statement, s.settings.endpoint)),
           at);
    return false;
  }
  std::optional<std::string> answer = Ask(s, question);
  if (answer && *answer == expected) return true;
  *declined = true;
  s.Notice(fmt::format("-- {} was not run\n", statement));
  return false;
}

Session::~Session() = default;

bool Session::RunScript(std::string_view text, std::string_view source, int first_line) {
  return state_->RunScript(text, source, first_line);
}

bool Session::RunFile(std::string_view text, const std::string& source) {
  return state_->RunFile(text, source);
}

bool Session::Finish() {
  bool ok = state_->DiscardTransaction("the input ended");
  return state_->CloseRedirect(/*close=*/true, {}) && ok;
}

bool Session::in_transaction() const { return state_->connection().in_transaction(); }

bool Session::interrupted() const { return state_->InterruptReported(); }

bool Session::RunPatterns(std::string_view text, std::string_view source, const PlanOptions* plan) {
  return shell::RunPatterns(*state_, text, source, plan);
}

namespace {

// A line holding one word (with or without ';'), lowercased; "" for anything else.
std::string BareWord(std::string_view line) {
  size_t b = line.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return "";
  size_t e = line.find_last_not_of(" \t\r\n;");
  if (e == std::string_view::npos || e < b) return "";
  const std::string word = AsciiLower(line.substr(b, e - b + 1));
  return word.find_first_of(" \t") == std::string::npos ? word : "";
}

}  // namespace

bool Session::IsQuitWord(std::string_view line) {
  const std::string word = BareWord(line);
  return word == "exit" || word == "quit" || word == "\\q" || word == "bye";
}

std::optional<std::string> Session::AnswerBareWord(std::string_view line) {
  const std::string word = BareWord(line);
  if (word.empty()) return std::nullopt;
  if (word == "help" || word == "\\?" || word == "\\h" || word == "?") {
    return "-- .help lists the commands; .help SELECT (or INSERT, CREATE TABLE, ...) shows a "
           "statement's syntax\n";
  }
  return std::nullopt;
}

bool Session::NeedsMoreInput(std::string_view pending) { return !parser::IsComplete(pending); }

void Session::Interrupt() { g_interrupted.store(true, std::memory_order_relaxed); }
void Session::ClearInterrupt() {
  g_interrupted.store(g_termination.load(std::memory_order_relaxed) != 0,
                      std::memory_order_relaxed);
  g_interrupt_epoch.fetch_add(1, std::memory_order_relaxed);
}
void Session::Terminate(int signal) {
  int none = 0;  // the first signal is the one the process ends by
  g_termination.compare_exchange_strong(none, signal, std::memory_order_relaxed);
  Interrupt();
}
int Session::termination_signal() { return g_termination.load(std::memory_order_relaxed); }
const std::atomic<bool>* Session::interrupt_flag() { return &g_interrupted; }

// ---- State ----

Session::State::State(Backend& db, LocalControl* local, std::string db_path, Sink& sink,
                      Settings& settings, bool& quit)
    : backend(db),
      active(&db),
      local(local),
      active_connection(std::make_unique<api::Connection>(db)),
      db_path(std::move(db_path)),
      sink(&sink),
      settings(settings),
      quit(quit) {}

Session::State::~State() = default;

api::CallContext Session::State::Context() const {
  api::CallContext c;
  c.cancel = &g_interrupted;
  return c;
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

void Session::State::NoteError(const Status& status) { report.NoteError(status); }

namespace {

// For a missing table `name`: the closest existing table name ("did you mean Social? names
// are case-sensitive"), or what SHOW TABLES would say.
std::string TableNameHint(Backend& db, const std::string& name) {
  Result<ListTablesResponse> tables = db.ListTables({});
  if (!tables.ok()) return "";
  if (tables->table_names.empty()) {
    return "the database has no tables yet: CREATE TABLE makes one (.help CREATE TABLE)";
  }
  if (std::optional<std::string> best = parser::ClosestName(name, tables->table_names)) {
    return fmt::format("did you mean {}? Table names are case-sensitive", *best);
  }
  std::string names;
  for (const std::string& t : tables->table_names) names += (names.empty() ? "" : ", ") + t;
  return "the tables are " + names + " (SHOW TABLES lists them)";
}

// For "Requested resource not found: Table: X not found": TableNameHint for X.
std::string MissingTableHint(Backend& db, const std::string& message) {
  static constexpr std::string_view kPrefix = "Requested resource not found: Table: ";
  if (!message.starts_with(kPrefix) || !message.ends_with(" not found")) return "";
  return TableNameHint(
      db, message.substr(kPrefix.size(),
                         message.size() - kPrefix.size() - std::string_view(" not found").size()));
}

}  // namespace

Status Session::State::NameMissingTable(Status status, std::string_view table) {
  if (!status.IsNotFound() || table.empty()) return status;
  // On DynamoDB a table takes reads and writes only once ACTIVE: before that, it is "not
  // found" though DescribeTable shows it.
  if (!settings.endpoint.empty()) {
    if (Result<DescribeTableResponse> d = db().DescribeTable({std::string(table)});
        d.ok() && d->table.status != "ACTIVE") {
      return status.WithHint(fmt::format(
          "table {} is {} on {}: it takes reads and writes once it is ACTIVE (the shell's CREATE "
          "TABLE waits for that; DESCRIBE \"{}\" shows its status)",
          table, d->table.status, settings.endpoint, table));
    }
  }
  if (status.message() != "Requested resource not found" || !status.hint().empty()) {
    return status;
  }
  std::string hint = TableNameHint(db(), std::string(table));
  return status.WithHint(
      fmt::format("there is no table {}{}{}", table, hint.empty() ? "" : ": ", hint));
}

// "  hint: <hint>\n"; for a person at a terminal, word-wrapped to its width, the lines after
// the first indented under the hint's start.
std::string HintLines(std::string_view hint, bool terminal) {
  constexpr std::string_view kHead = "  hint: ";
  if (!terminal) return fmt::format("{}{}\n", kHead, hint);
  const size_t width = std::max<size_t>(40, TerminalColumns());
  std::string out(kHead), line;
  size_t column = kHead.size();
  for (size_t i = 0; i < hint.size();) {
    const size_t space = hint.find(' ', i);
    const std::string_view word =
        hint.substr(i, space == std::string_view::npos ? std::string_view::npos : space - i);
    const size_t length = utf8::TextWidth(word);
    if (column > kHead.size() && column + 1 + length > width) {
      out += "\n" + std::string(kHead.size(), ' ');
      column = kHead.size();
    } else if (column > kHead.size()) {
      out += ' ';
      ++column;
    }
    out += word;
    column += length;
    if (space == std::string_view::npos) break;
    i = space + 1;
  }
  return out + "\n";
}

bool Session::State::Fail(const Status& given, Location at) {
  Status status = given;
  if (status.hint().empty() && status.IsNotFound()) {
    status.WithHint(MissingTableHint(db(), status.message()));
  }
  NoteError(status);
  // A script stopped by Ctrl-C says so in one line ("interrupted at FILE line N; ..."), not
  // with an error for the statement it stopped (unless that has more to say).
  if (status.code() == ErrorCode::kInterrupted && status.message() == "Interrupted" &&
      !at.source.empty()) {
    return false;
  }
  std::string text = fmt::format("Error: {}\n", status.ToString());
  if (!at.source.empty()) text += fmt::format("  at {} line {}\n", at.source, at.line);
  if (!status.hint().empty()) text += HintLines(status.hint(), settings.terminal);
  // A failed condition with ReturnValuesOnConditionCheckFailure=ALL_OLD carries the item.
  if (const auto& item = status.item()) text += fmt::format("  item: {}\n", ItemToJsonText(*item));
  if (const auto& reasons = status.cancellation_reasons()) {
    for (size_t i = 0; i < reasons->size(); ++i) {
      const Status::CancellationReason& r = (*reasons)[i];
      text += fmt::format("  [{}] {}", i, r.code);
      if (!r.message.empty()) text += ": " + r.message;
      if (r.item) text += " " + ItemToJsonText(*r.item);
      text += "\n";
    }
  }
  sink->Err(text);
  return false;
}

bool Session::State::EndStatement(Location at) { return CloseRedirect(redirect.once(), at); }

bool Session::State::RunScript(std::string_view text, std::string_view source, int first_line) {
  bool ok = true;
  // Statements run from here (those of scripts it .reads included; dot-commands are not
  // statements), for the interruption notice.
  const int64_t run_before = statements_run;
  // Ctrl-C stops the script: one line says where, instead of an error per remaining statement.
  bool started = false;  // whether a piece of `text` ran
  auto interrupted = [&](int at_line) {
    if (!g_interrupted.load(std::memory_order_relaxed)) return false;
    if (!InterruptReported()) {
      interrupt_reported_epoch = g_interrupt_epoch.load(std::memory_order_relaxed);
      if (source.empty()) {
        // The REPL: a statement stopped says so in its own error; input stopped before it
        // started (SIGTERM, SIGHUP, or a Ctrl-C just as it was entered) is said here.
        if (!started) {
          sink->Err(g_termination.load(std::memory_order_relaxed) != 0
                        ? "-- not run: keyhole is stopping\n"
                        : "-- not run: interrupted\n");
        }
        ok = started && ok;
        return true;
      }
      const int64_t ran = statements_run - run_before;
      sink->Err(fmt::format("interrupted at {} line {}; {} ran\n", Shorten(source), at_line,
                            Count(ran, "statement")));
    }
    ok = false;
    return true;
  };
  auto stop = [&] { return quit || (settings.bail && !ok) || InterruptReported(); };
  // A script saved with a byte order mark (as some editors on Windows do) starts after it.
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  parser::ScriptWalker walker(text, /*dot_commands=*/true);
  while (!stop()) {
    std::optional<parser::ScriptPiece> piece = walker.Next();
    if (!piece) break;
    const int at_line = first_line + piece->start.line - 1;
    if (interrupted(at_line)) break;
    started = true;
    if (piece->dot_command) {
      if (settings.echo) Echo(std::string(piece->text) + "\n");
      ok &= RunDotCommand(piece->text, {source, at_line});
      if (interrupted(at_line)) break;
    } else {
      ok &= RunStatement(piece->text, {source, at_line});
      ok &= EndStatement({source, at_line});
      // A statement Ctrl-C stopped did not run; one that finished did (the next check says
      // where the script stopped).
      if (report.error.starts_with(ErrorName(ErrorCode::kInterrupted)) && interrupted(at_line)) {
        break;
      }
    }
  }
  return ok;
}

bool Session::State::RunFile(std::string_view text, const std::string& source) {
  if (Status binary = CheckScriptText(text, source); !binary.ok()) return Fail(binary, {});
  const bool was_quiet = quiet.on;
  ++read_depth;
  bool ok = RunScript(text, source, 1);
  --read_depth;
  // What the file began ends with it: its transaction (discarded, said out loud) and .quiet.
  if (connection().in_transaction() && transaction_depth > read_depth) {
    ok &= DiscardTransaction(InterruptReported() ? "interrupted" : source + " ended");
  }
  if (!was_quiet) EndQuiet();
  return ok;
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
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
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
  std::set<std::string>& names = s.attributes[table];
  for (const Item& item : items) {
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

bool ApplyConsistentRead(const Settings& settings, planner::Plan& plan) {
  return settings.consistent && api::ApplyConsistentRead(plan);
}

namespace {

// Prints what a statement the connection ran did: its items and the footer, or its error.
bool PrintOutcome(Session::State& s, api::StatementOutcome outcome, Location at) {
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
  s.Notice(s.Timed(footer) + "\n");
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

// Runs `plan` on the session's connection (from `start_key`) and prints what it did.
bool RunPlan(Session::State& s, planner::Plan plan, std::optional<Item> start_key, Location at) {
  s.SetConnectionOptions();
  return PrintOutcome(s, s.connection().Execute(std::move(plan), std::move(start_key)), at);
}

namespace {

void CollectPaths(const expr::Operand& o, std::vector<std::string>* out) {
  if (o.kind == expr::OperandKind::kPath && !o.path.elements.empty() &&
      std::find(out->begin(), out->end(), o.path.elements.front().name) == out->end()) {
    out->push_back(o.path.elements.front().name);
  }
  for (const auto& a : o.args) CollectPaths(a, out);
}
void CollectPaths(const expr::Condition& c, std::vector<std::string>* out) {
  for (const auto& o : c.operands) CollectPaths(o, out);
  for (const auto& child : c.children) CollectPaths(child, out);
}

}  // namespace

// A refused SELECT's advice, checked against the table's items (on a file, the first 200; not on
// an endpoint, where reading costs): a WHERE attribute no item has is named, with the closest
// name items do have, instead of advice to index it; and index advice names the table's own type
// attribute (Type, _type, ...) where it said a generic `entityType`.
Status WithDataHints(Session::State& s, Status status, const parser::Statement& st) {
  if (!s.settings.endpoint.empty() || st.kind() != parser::StatementKind::kSelect ||
      !status.message().starts_with("keyhole refuses to scan") ||
      status.hint().starts_with("did you mean")) {  // a key's name in another case
    return status;
  }
  const auto& select = st.as<parser::SelectStatement>();
  Result<TableSchemaPtr> table = s.db().TableSchema(select.table);
  if (!table.ok() || !select.where) return status;
  ScanRequest scan;
  scan.table_name = select.table;
  scan.limit = 200;
  Result<ScanResponse> page = s.db().Scan(scan);
  if (!page.ok() || page->items.empty()) return status;
  std::vector<Item> items(page->items.begin(), page->items.end());
  std::vector<std::string> names;
  CollectPaths(*select.where, &names);
  std::set<std::string> seen;
  for (const Item& item : items) {
    for (const auto& [name, value] : item) seen.insert(name);
  }
  for (const std::string& name : names) {
    bool key = (*table)->key.Has(name);
    for (const IndexDescription& idx : (*table)->indexes) key = key || idx.key.Has(name);
    if (key || seen.contains(name)) continue;
    const std::vector<std::string> have(seen.begin(), seen.end());
    std::string hint = fmt::format(
        "no item of {} has an attribute {}{}", select.table, name,
        page->last_evaluated_key ? fmt::format(" (of the first {} read)", items.size()) : "");
    if (std::optional<std::string> close = parser::ClosestName(name, have)) {
      hint += fmt::format(": did you mean {}? Attribute names are case-sensitive", *close);
    }
    return Status(status).WithHint(hint);
  }
  const std::string generic = "(entityType S,";
  if (status.hint().find(generic) == std::string::npos) return status;
  const std::string type = modeling::TypeAttributeOf(items);
  if (type.empty() || type == "entityType") return status;
  std::string hint = status.hint();
  const std::string named = parser::NameInStatement(type);
  for (size_t at = 0; (at = hint.find("entityType", at)) != std::string::npos;) {
    hint.replace(at, 10, named);
    at += named.size();
  }
  return Status(status).WithHint(hint);
}

bool RunDml(Session::State& s, const parser::Statement& st, Location at) {
  if (st.kind() == parser::StatementKind::kSelect && st.as<parser::SelectStatement>().nearest) {
    return RunVectorSearch(s, st, at);
  }
  s.statement_schemas = &s.connection().schemas();
  struct Reset {
    Session::State& s;
    ~Reset() { s.statement_schemas = nullptr; }
  } reset{s};
  Result<planner::Plan> plan = s.connection().Plan(st, s.statement_text);
  std::optional<Item> start_key = std::move(s.start_key);
  s.start_key.reset();
  if (!plan.ok()) return s.Fail(WithDataHints(s, plan.status(), st), at);
  if (plan->explain) return RunExplain(s, *plan, at);
  const bool scans =
      !plan->operations.empty() && std::holds_alternative<ScanRequest>(plan->operations[0]);
  if (s.settings.read_only && plan->per_item_write) {
    // Its writes would be refused item by item after a read of the whole table: refuse it
    // before anything is read.
    return s.Fail(Status::AccessDenied(fmt::format(
                      "keyhole was started with --readonly: {} was refused before anything was "
                      "read or sent to {}",
                      plan->kind == parser::StatementKind::kDelete ? "SCAN DELETE" : "SCAN UPDATE",
                      s.settings.endpoint.empty() ? s.db_path : s.settings.endpoint)),
                  at);
  }
  bool stale_counts = false;
  if (!s.settings.endpoint.empty() && scans) {
    // On an endpoint, a Scan's size and cost are said before it runs (and a write to every item
    // matched asks first).
    int64_t table_items = -1;
    const std::string size =
        ScanEstimate(s.db(), std::get<ScanRequest>(plan->operations[0]), &table_items);
    if (plan->per_item_write) {
      const std::string what =
          plan->kind == parser::StatementKind::kDelete ? "SCAN DELETE" : "SCAN UPDATE";
      bool declined = false;
      if (!Confirm(
              s, what,
              fmt::format("{} reads all of \"{}\" on {} ({}) and {} every item that "
                          "matches. Type yes to go on: ",
                          what, plan->table, s.settings.endpoint, size,
                          plan->kind == parser::StatementKind::kDelete ? "deletes" : "updates"),
              "yes", at, &declined)) {
        return declined;
      }
    } else {
      // DynamoDB refreshes ItemCount and TableSizeBytes about every six hours: a table written
      // since may hold far more than DescribeTable says.
      stale_counts = table_items == 0;
      s.Notice(fmt::format(
          "-- Scan of {} on {}: {}{}\n", plan->table, s.settings.endpoint, size,
          stale_counts ? " (if DescribeTable's counts are current: DynamoDB refreshes ItemCount "
                         "and TableSizeBytes about every six hours, so a table written since "
                         "may hold more)"
                       : ""));
    }
  }
  if (stale_counts && !start_key) {
    const bool ok = RunPlan(s, std::move(*plan), std::nullopt, at);
    if (ok && s.report.read > 0) {
      s.Notice(fmt::format(
          "-- DescribeTable counted 0 items in {}, but the Scan read {}: its counts are stale, "
          "not the table empty (DynamoDB refreshes them about every six hours)\n",
          s.report.target, s.report.read));
    }
    return ok;
  }
  if (start_key) {
    if (plan->kind != parser::StatementKind::kSelect || plan->operations.size() != 1 ||
        std::holds_alternative<GetItemRequest>(plan->operations[0])) {
      return s.Fail(Status::Validation(".startkey applies to a SELECT that runs one Query or "
                                       "Scan; continue other statements with NEXT"),
                    at);
    }
    return RunPlan(s, std::move(*plan), std::move(start_key), at);
  }
  return RunPlan(s, std::move(*plan), std::nullopt, at);
}

bool RunNext(Session::State& s, Location at) {
  s.SetConnectionOptions();
  s.continuing = true;
  const bool ok = PrintOutcome(s, s.connection().Next(), at);
  s.continuing = false;
  return ok;
}

bool PrintJson(Session::State& s, const Result<json::Value>& r, Location at) {
  if (!r.ok()) return s.Fail(r.status(), at);
  s.Out(json::Write(*r) + "\n");
  return true;
}

// After CREATE TABLE, ALTER TABLE ADD GLOBAL INDEX or DROP TABLE on an endpoint that takes
// time (DynamoDB: seconds to minutes), the shell waits as `keyhole copy` does, so that the next
// statement of a schema script finds the table ACTIVE (or gone). It says what it waits on once,
// then every 10 seconds; Ctrl-C stops the wait (not the change). A keyhole file answers ACTIVE
// at once: nothing is printed. Returns the seconds waited, or the failure.
Result<double> WaitForTable(Session::State& s, const std::string& table, bool gone) {
  double waited = 0, said = -1;
  WaitProgress progress = [&](const std::string& state, double seconds) {
    waited = seconds;
    if (said < 0 || seconds - said >= 10) {
      s.Notice(said < 0 ? fmt::format("-- waiting: {} (Ctrl-C stops waiting)\n", state)
                        : fmt::format("-- still waiting: {} ({:.0f} s)\n", state, seconds));
      said = seconds;
    }
  };
  const auto limit = std::chrono::minutes(30);
  Status st = gone ? WaitUntilGone(s.db(), table, limit, &g_interrupted, progress)
                   : WaitUntilActive(s.db(), table, limit, &g_interrupted, progress);
  if (st.code() == ErrorCode::kInterrupted) {
    return st.WithHint(fmt::format("the change goes on on {}: DESCRIBE \"{}\" shows its status",
                                   s.settings.endpoint, table));
  }
  if (!st.ok()) return st;
  return said < 0 ? 0.0 : waited;
}

// " (ACTIVE after 12 s)" when the wait took any time.
std::string Waited(double seconds, std::string_view state) {
  return seconds > 0 ? fmt::format(" ({} after {:.0f} s)", state, std::max(1.0, seconds)) : "";
}

bool RunCreate(Session::State& s, const parser::CreateTableStatement& c, Location at) {
  Result<CreateTableResponse> r = s.db().CreateTable(parser::ToCreateTableRequest(c));
  if (!r.ok() && !(c.if_not_exists && r.status().code() == ErrorCode::kResourceInUse)) {
    return s.Fail(r.status(), at);
  }
  if (!r.ok()) {
    s.Notice(fmt::format("-- table {} exists\n", c.table));
    return true;
  }
  std::string done = fmt::format("-- table {} created", c.table);
  if (r->table_description.status != "ACTIVE") {
    Result<double> waited = WaitForTable(s, c.table, /*gone=*/false);
    if (!waited.ok()) return s.Fail(waited.status(), at);
    done += Waited(*waited, "ACTIVE");
  }
  if (c.ttl_attribute) {  // TTL is UpdateTimeToLive's, not CreateTable's (as in DynamoDB)
    UpdateTimeToLiveRequest ttl{c.table, {*c.ttl_attribute, true}};
    Result<UpdateTimeToLiveResponse> t = s.db().UpdateTimeToLive(ttl);
    if (!t.ok()) return s.Fail(t.status(), at);
    done += fmt::format(" · TTL on {}", *c.ttl_attribute);
  }
  if (c.stream_view_type) done += fmt::format(" · stream {}", *c.stream_view_type);
  s.Notice(done + "\n");
  return true;
}

// ALTER TABLE ... SET TTL / DISABLE TTL: UpdateTimeToLive.
bool RunAlterTtl(Session::State& s, const parser::AlterTableStatement& a, Location at) {
  UpdateTimeToLiveRequest request{a.table, {a.name, true}};
  if (a.action == parser::AlterAction::kDisableTtl) {
    Result<TableSchemaPtr> t = s.db().TableSchema(a.table);
    if (!t.ok()) return s.Fail(t.status(), at);
    if (!(*t)->ttl_attribute)
      return s.Fail(Status::Validation("TimeToLive is already disabled"), at);
    request.specification = {*(*t)->ttl_attribute, false};
  }
  Result<UpdateTimeToLiveResponse> r = s.db().UpdateTimeToLive(request);
  if (!r.ok()) return s.Fail(r.status(), at);
  s.Notice(request.specification.enabled
               ? fmt::format("-- TTL on {} enabled for {}\n", a.name, a.table)
               : fmt::format("-- TTL disabled for {}\n", a.table));
  return true;
}

bool RunAlter(Session::State& s, const parser::AlterTableStatement& a, Location at) {
  UpdateTableRequest request;
  request.table_name = a.table;
  std::string done;
  switch (a.action) {
    case parser::AlterAction::kAddGlobalIndex: {
      const parser::IndexDefinition& def = *a.index;
      AddAttributeDefinitions(def.key, &request.attribute_definitions);
      IndexSpec spec = IndexSpecOf(def.name, def.key, def.projection);
      // A PROVISIONED table's new GSI needs throughput: the table's, as CREATE TABLE gives.
      if (Result<TableSchemaPtr> t = s.db().TableSchema(a.table);
          t.ok() && (*t)->billing_mode == "PROVISIONED") {
        spec.read_capacity_units = (*t)->read_capacity;
        spec.write_capacity_units = (*t)->write_capacity;
      }
      request.create_global_index = std::move(spec);
      done = fmt::format("index {} added to {}", def.name, a.table);
      break;
    }
    case parser::AlterAction::kAddVectorIndex: {
      request.create_vector_index =
          parser::VectorIndexSpecOf(*a.vector_index, &request.attribute_definitions);
      done = fmt::format("vector index {} added to {}", a.vector_index->name, a.table);
      break;
    }
    case parser::AlterAction::kDropIndex: {
      // DROP INDEX names a GSI or a vector index (names are unique across both).
      Result<TableSchemaPtr> t = s.db().TableSchema(a.table);
      const bool vector = t.ok() && (*t)->FindVectorIndex(a.name);
      (vector ? request.delete_vector_index : request.delete_global_index) = a.name;
      done = fmt::format("{}index {} dropped from {}", vector ? "vector " : "", a.name, a.table);
      break;
    }
    case parser::AlterAction::kSetTtl:
    case parser::AlterAction::kDisableTtl:
      return RunAlterTtl(s, a, at);
    case parser::AlterAction::kSetStream:
      request.stream_specification = StreamSpecification{true, a.name};
      done = fmt::format("stream {} enabled for {}", a.name, a.table);
      break;
    case parser::AlterAction::kDisableStream:
      request.stream_specification = StreamSpecification{false, std::nullopt};
      done =
          fmt::format("stream disabled for {} (its records stay readable for 24 hours)", a.table);
      break;
  }
  Result<UpdateTableResponse> r = s.db().UpdateTable(request);
  if (!r.ok()) return s.Fail(r.status(), at);
  if (request.create_global_index || request.delete_global_index) {
    const IndexDescription* idx =
        request.create_global_index
            ? r->table_description.FindIndex(request.create_global_index->name)
            : nullptr;
    if (r->table_description.status != "ACTIVE" || (idx && idx->status != "ACTIVE")) {
      Result<double> waited = WaitForTable(s, a.table, /*gone=*/false);
      if (!waited.ok()) return s.Fail(waited.status(), at);
      done += Waited(*waited, "ACTIVE");
    }
  }
  if (request.create_global_index) {  // how many items the new index holds
    Result<DescribeTableResponse> d = s.db().DescribeTable({a.table});
    const IndexDescription* idx =
        d.ok() ? d->table.FindIndex(request.create_global_index->name) : nullptr;
    if (idx && idx->status != "ACTIVE") {
      done += fmt::format(" (IndexStatus {}: the index is being filled)", idx->status);
    } else if (idx) {
      done +=
          fmt::format(": {} of {} indexed", idx->item_count, Count(d->table.item_count, "item"));
      if (idx->item_count < d->table.item_count) {
        done +=
            " (the others lack a key attribute of the index, or hold one of another type: "
            "a sparse index)";
      }
    }
  }
  s.Notice(s.Timed("-- " + done) + "\n");
  return true;
}

// DESCRIBE in box, table and line modes: a row for the table and each index (keys, projection,
// items, bytes, status), then its billing, stream and protection. (csv, json and ddb print
// DescribeTable's JSON answer, for programs.)
bool DescribeForPeople(Session::State& s, const std::string& table, Location at) {
  Result<DescribeTableResponse> d = s.db().DescribeTable({table});
  if (!d.ok()) return s.Fail(s.NameMissingTable(d.status(), table), at);
  const TableDescription& t = d->table;
  auto key_text = [](const std::vector<const KeyAttribute*>& attributes) {
    std::string out;
    for (const KeyAttribute* a : attributes) {
      out += fmt::format("{}{} {}", out.empty() ? "" : ", ", a->name, TypeName(a->type));
    }
    return out;
  };
  auto row = [&](const std::string& name, const std::string& kind, const KeySchema& key,
                 const std::string& projection, int64_t items, int64_t bytes,
                 const std::string& status) {
    Item r;
    r["name"] = AttributeValue::S(name);
    r["kind"] = AttributeValue::S(kind);
    r["partition key"] = AttributeValue::S(key_text(key.PartitionAttributes()));
    r["sort key"] = AttributeValue::S(key.sort ? key_text(key.SortAttributes()) : "-");
    r["projection"] = AttributeValue::S(projection);
    r["items"] = AttributeValue::N(Number::FromInt(items));
    r["bytes"] = AttributeValue::N(Number::FromInt(bytes));
    r["status"] = AttributeValue::S(status);
    return r;
  };
  std::vector<Item> rows = {row(t.name, "table", t.key, "-", t.item_count, t.size_bytes, t.status)};
  for (const IndexDescription& i : t.indexes) {
    std::string projection(ProjectionTypeName(i.projection.type));
    if (i.projection.type == ProjectionType::kInclude) {
      projection +=
          " (" + fmt::format("{}", fmt::join(i.projection.non_key_attributes, ", ")) + ")";
    }
    rows.push_back(row(i.name, i.kind == IndexKind::kGlobal ? "global index" : "local index", i.key,
                       projection, i.item_count, i.size_bytes,
                       i.kind == IndexKind::kGlobal ? i.status : t.status));
  }
  RenderOptions options;
  options.mode = s.settings.mode;
  options.headers = s.settings.headers;
  options.columns = {"name",       "kind",  "partition key", "sort key",
                     "projection", "items", "bytes",         "status"};
  options.max_cell_width = s.settings.max_cell_width;
  s.Out(RenderItems(rows, options));
  std::string about =
      t.billing_mode == "PROVISIONED"
          ? fmt::format("PROVISIONED ({} RCU, {} WCU)", t.read_capacity, t.write_capacity)
          : std::string("PAY_PER_REQUEST");
  about += t.stream_view_type ? " · stream " + *t.stream_view_type : " · no stream";
  if (t.deletion_protection) about += " · deletion protection";
  s.Notice(fmt::format("-- {}: {} · {} (DescribeTable; .mode json shows its whole answer)\n",
                       t.name, about, t.TableArn()));
  return true;
}

bool RunParsed(Session::State& s, const parser::Statement& st, Location at) {
  using parser::StatementKind;
  if (s.connection().in_transaction()) {
    switch (st.kind()) {
      case StatementKind::kSelect:
      case StatementKind::kInsert:
      case StatementKind::kUpdate:
      case StatementKind::kDelete:
      case StatementKind::kExists:
      case StatementKind::kBegin:
      case StatementKind::kCommit:
      case StatementKind::kRollback:
        return s.RunTransactionStatement(st, at);
      default:
        return s.Fail(Status::Validation(fmt::format(
                          "{} cannot run inside a transaction: COMMIT or ROLLBACK it first",
                          parser::StatementKindName(st.kind()))),
                      at);
    }
  }
  switch (st.kind()) {
    case StatementKind::kSelect:
    case StatementKind::kInsert:
    case StatementKind::kUpdate:
    case StatementKind::kDelete:
    case StatementKind::kExists:
      return RunDml(s, st, at);
    case StatementKind::kNext:
      return RunNext(s, at);
    case StatementKind::kCreateTable:
      return RunCreate(s, st.as<parser::CreateTableStatement>(), at);
    case StatementKind::kDropTable: {
      const auto& d = st.as<parser::DropTableStatement>();
      bool declined = false;
      if (!Confirm(s, "DROP TABLE",
                   fmt::format("DROP TABLE \"{}\" on {} deletes the table and every item in it. "
                               "Type the table's name to go on: ",
                               d.table, s.settings.endpoint),
                   d.table, at, &declined)) {
        return declined;
      }
      Result<DeleteTableResponse> r = s.db().DeleteTable({d.table});
      if (!r.ok() && !(d.if_exists && r.status().IsNotFound())) return s.Fail(r.status(), at);
      std::string waited_text;
      if (r.ok() && !s.settings.endpoint.empty()) {  // DELETING for a while on DynamoDB
        Result<double> waited = WaitForTable(s, d.table, /*gone=*/true);
        if (!waited.ok()) return s.Fail(waited.status(), at);
        waited_text = Waited(*waited, "gone");
      }
      // IF EXISTS on a missing table is routine (a schema script on a new file): said so, not
      // in words that read as an error.
      s.Notice(r.ok() ? fmt::format("-- table {} dropped{}\n", d.table, waited_text)
                      : fmt::format("-- no table {} to drop (IF EXISTS)\n", d.table));
      s.connection().ForgetTable(d.table);
      return true;
    }
    case StatementKind::kAlterTable:
      return RunAlter(s, st.as<parser::AlterTableStatement>(), at);
    case StatementKind::kShowTables: {
      Result<ListTablesResponse> r = s.db().ListTables({});
      if (!r.ok()) return s.Fail(r.status(), at);
      std::vector<Item> rows;
      for (const std::string& n : r->table_names)
        rows.push_back({{"TableName", AttributeValue::S(n)}});
      PrintItems(s, rows, "", std::nullopt);
      s.Notice(s.Timed(fmt::format("-- {} table{}", rows.size(), rows.size() == 1 ? "" : "s")) +
               "\n");
      return true;
    }
    case StatementKind::kDescribe: {
      const std::string& table = st.as<parser::DescribeStatement>().table;
      if (!IsMachineMode(s.settings.mode)) return DescribeForPeople(s, table, at);
      json::Value body = json::Value::MakeObject();
      body.Add("TableName", json::Value::String(table));
      return PrintJson(s, s.service().Call("DescribeTable", body, s.Context()), at);
    }
    case StatementKind::kShowCreateTable: {
      Result<TableSchemaPtr> t =
          s.db().TableSchema(st.as<parser::ShowCreateTableStatement>().table);
      if (!t.ok()) return s.Fail(t.status(), at);
      s.Out(parser::CreateTableText(**t) + "\n");
      return true;
    }
    case StatementKind::kCall: {
      const auto& c = st.as<parser::CallStatement>();
      if (c.operation == "DeleteTable") {  // asks on an endpoint, as DROP TABLE does
        const json::Value* name = c.body.IsObject() ? c.body.Find("TableName") : nullptr;
        const std::string table = name && name->IsString() ? name->str() : "";
        bool declined = false;
        if (!Confirm(s, "CALL DeleteTable",
                     fmt::format("DeleteTable of \"{}\" on {} deletes the table and every item in "
                                 "it. Type the table's name to go on: ",
                                 table, s.settings.endpoint),
                     table, at, &declined)) {
          return declined;
        }
      }
      return PrintJson(s, s.service().Call(c.operation, c.body, s.Context()), at);
    }
    case StatementKind::kBegin:
    case StatementKind::kCommit:
    case StatementKind::kRollback:
      return s.RunTransactionStatement(st, at);
  }
  return s.Fail(Status::Internal("unknown statement kind"), at);
}

// The source line to show under a parse error and the caret line under `column` (1-based, in
// characters). A long line is cut to a window of kCaretWindow characters on either side of the
// column, marked with "…"; tabs show as spaces and bytes that are not UTF-8 or control
// characters as '?', so the caret lines up and the terminal gets printable text.
constexpr size_t kCaretWindow = 60;
std::pair<std::string, std::string> CaretExcerpt(std::string_view line, int column) {
  std::vector<std::string> chars;  // one printable character each
  for (size_t i = 0; i < line.size();) {
    const auto c = static_cast<unsigned char>(line[i]);
    const size_t n = utf8::SequenceLength(line.substr(i));
    if (n == 0) {
      chars.emplace_back("?");
      ++i;
      continue;
    }
    std::string ch(line.substr(i, n));
    if (ch == "\t") ch = " ";
    if (n == 1 && (c < 0x20 || c == 0x7F)) ch = "?";
    chars.push_back(std::move(ch));
    i += n;
  }
  const size_t col = static_cast<size_t>(std::max(column, 1)) - 1;
  size_t from = col > kCaretWindow ? col - kCaretWindow : 0;
  size_t to = std::min(chars.size(), col + kCaretWindow);
  std::string shown = from > 0 ? "…" : "";
  for (size_t i = from; i < to; ++i) shown += chars[i];
  if (to < chars.size()) shown += "…";
  std::string caret(col - from + (from > 0 ? 1 : 0), ' ');
  return {shown, caret + "^"};
}

// A parse error with the offending line and a caret under its column, then the hint.
// An INSERT past ExecuteStatement's 8,192 characters: the same item as the API form's PutItem,
// which has no statement limit (an item may be 400 KB). "" for anything else.
std::string LongInsertHint(Session::State& s, const Status& error, std::string_view text) {
  if (error.message().find("Member must have length less than or equal to") == std::string::npos) {
    return "";
  }
  parser::ParseResult parsed = parser::ParseStatementIgnoringLength(text);
  if (!parsed.ok() || parsed.statement().kind() != parser::StatementKind::kInsert) return "";
  const auto& insert = parsed.statement().as<parser::InsertStatement>();
  json::Value request = json::Value::MakeObject();
  request.Add("TableName", json::Value::String(insert.table));
  request.Add("Item", ItemToJson(insert.item));
  if (Result<TableSchemaPtr> schema = s.db().TableSchema(insert.table); schema.ok()) {
    // PartiQL's INSERT never replaces an item: nor does this.
    request.Add("ConditionExpression", json::Value::String("attribute_not_exists(#pk)"));
    json::Value names = json::Value::MakeObject();
    names.Add("#pk", json::Value::String((*schema)->key.partition.name));
    request.Add("ExpressionAttributeNames", std::move(names));
  }
  std::string form = "PutItem " + json::Write(request) + ";";
  constexpr size_t kShown = 64 * 1024;
  if (form.size() > kShown) form = Shorten(form, kShown);
  return fmt::format(
      "ExecuteStatement takes a statement of at most 8,192 characters; an item this large goes "
      "in the API form, whose request may be 16 MB and whose item 400 KB. The same INSERT as a "
      "PutItem: {}",
      form);
}

bool FailParse(Session::State& s, const parser::ParseError& e, std::string_view text, Location at) {
  std::string out = fmt::format("Error: {}\n", e.status.ToString());
  size_t begin = 0;
  for (int l = 1; l < e.position.line && begin != std::string_view::npos; ++l) {
    begin = text.find('\n', begin);
    if (begin != std::string_view::npos) ++begin;
  }
  if (begin != std::string_view::npos) {
    std::string_view rest = text.substr(begin);
    auto [line, caret] = CaretExcerpt(rest.substr(0, rest.find('\n')), e.position.column);
    std::string where = at.source.empty() ? "" : fmt::format("{} ", at.source);
    out += fmt::format("  at {}line {}, column {}:\n  {}\n  {}\n", where,
                       at.line + e.position.line - 1, e.position.column, line, caret);
  }
  std::string hint = e.status.hint();
  if (hint.empty()) hint = LongInsertHint(s, e.status, text);
  if (!hint.empty()) out += HintLines(hint, s.settings.terminal);
  s.NoteError(e.status);
  s.sink->Err(out);
  return false;
}

}  // namespace

std::string Session::State::Timed(std::string footer) {
  if (!settings.timer) return footer;
  timed = true;
  return footer + " · " + FormatElapsed(Since(statement_start));
}

void Session::State::NoteTime() {
  if (settings.timer && !timed) Notice("-- " + FormatElapsed(Since(statement_start)) + "\n");
}

void Session::State::SetConnectionOptions() {
  api::ConnectionOptions& options = connection().options();
  options.page_size = settings.pagesize;
  options.consistent_reads = settings.consistent;
  options.cancel = &g_interrupted;
}

bool Session::State::RunStatement(std::string_view text, Location at) {
  report = StatementReport();
  timed = false;
  const bool in_transaction = connection().in_transaction();
  bool ok = RunOneStatement(text, at);
  // A statement that failed inside BEGIN ... COMMIT (refused, a syntax error, one that cannot
  // be queued) fails the whole transaction: nothing of it may be written.
  if (!ok && in_transaction && connection().in_transaction()) MarkTransactionFailed(at);
  NoteTime();
  if (collect) collect->push_back(report);
  if (!ok && report.error.starts_with(ErrorName(ErrorCode::kInterrupted)) &&
      g_interrupted.load(std::memory_order_relaxed)) {
    return ok;  // stopped by Ctrl-C: it did not run
  }
  ++statements_run;
  quiet.Count(report, ok);
  return ok;
}

bool Session::State::RunOneStatement(std::string_view text, Location at) {
  statement_start = Clock::now();
  if (settings.echo && !echo_suppressed) Echo(std::string(text) + ";\n");
  // `<Operation> <JSON>`: the API form, as `CALL <Operation> <JSON>` without the keyword.
  size_t start = text.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos) return true;
  size_t end = text.find_first_of(" \t\r\n{", start);
  std::string_view first =
      text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
  if (api::Service::IsOperation(first)) {
    if (connection().in_transaction()) {  // it would be sent now, outside the transaction
      return Fail(Status::Validation(fmt::format(
                      "{} cannot run inside a transaction: it would be sent now, not with the "
                      "queued statements; COMMIT or ROLLBACK it first",
                      first)),
                  at);
    }
    std::string_view body =
        end == std::string_view::npos ? std::string_view("{}") : text.substr(end);
    Result<json::Value> v = json::Parse(body);
    if (!v.ok()) return Fail(v.status(), at);
    if (collect && v->IsObject() && !v->Find("ReturnConsumedCapacity")) {
      v->Add("ReturnConsumedCapacity", json::Value::String("TOTAL"));  // for the report
    }
    Result<json::Value> response = service().Call(first, *v, Context());
    if (response.ok()) ReportOperation(report, first, *v, *response);
    if (!response.ok() && v->IsObject()) {
      const json::Value* table = v->Find("TableName");
      if (table && table->IsString()) {
        return Fail(NameMissingTable(response.status(), table->str()), at);
      }
    }
    return PrintJson(*this, response, at);
  }
  // A point read of a shape the connection remembers, with new key values: run without parsing
  // or planning again (not inside BEGIN ... COMMIT, which queues it, nor after .startkey).
  if (!connection().in_transaction() && !start_key) {
    SetConnectionOptions();
    if (std::optional<api::StatementOutcome> remembered = connection().RunRemembered(text)) {
      statement_schemas = &connection().schemas();  // the key columns and TTL of its table
      const bool ok = PrintOutcome(*this, std::move(*remembered), at);
      statement_schemas = nullptr;
      return ok;
    }
  }
  parser::ParseResult parsed = parser::ParseStatement(text);
  if (!parsed.ok()) return FailParse(*this, parsed.error(), text, at);
  statement_text = text;
  const bool ok = RunParsed(*this, parsed.statement(), at);
  statement_text = {};
  return ok;
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

Status CheckScriptText(std::string_view text, std::string_view source) {
  const std::string_view head = text.substr(0, 4096);
  if (head.find('\0') == std::string_view::npos) return Status::OK();
  return Status::Validation(fmt::format(
      "{} is not a script: it holds binary data (a keyhole database? open it as keyhole {})",
      Shorten(source), Shorten(source)));
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
