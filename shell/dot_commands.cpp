// The dot-commands: one table (kCommands) drives both dispatch and .help. Names follow the
// sqlite3 shell's where one exists (design.md); .collection, .pagesize and .startkey are
// keyhole's own.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include "api/batch_writer.h"
#include "core/ddb_json.h"
#include "core/item.h"
#include "core/item_codec.h"
#include "core/json.h"
#include "core/strings.h"
#include "core/time.h"
#include "parser/partiql.h"
#include "shell/session_state.h"
#include "shell/terminal.h"

namespace keyhole::shell {

namespace {

using State = Session::State;
using Args = std::vector<std::string>;  // words after the command name

struct DotCommand {
  const char* name;   // ".tables"
  const char* usage;  // arguments, for .help
  const char* help;   // one line
  bool (*run)(State& s, const Args& args, Location at);
  bool timed = false;  // does work that .timer measures (reads or writes data, runs files)
};

// "on" / "off" (or 1 / 0, yes / no) for switches.
bool ParseSwitch(const Args& args, bool* value) {
  if (args.size() != 1) return false;
  const std::string v = AsciiLower(args[0]);
  if (v == "on" || v == "1" || v == "yes" || v == "true") {
    *value = true;
  } else if (v == "off" || v == "0" || v == "no" || v == "false") {
    *value = false;
  } else {
    return false;
  }
  return true;
}

Result<std::string> ReadFile(const std::string& path) {
  std::string text;
  if (!ReadWholeFile(path, &text)) {
    return Status::Validation(
        fmt::format("cannot read {}: {}", Shorten(path), std::strerror(errno)));
  }
  return text;
}

// `.NAME [N]`: shows the setting, or sets it to a whole number >= 0.
template <typename T>
bool NumberSetting(State& s, const Args& args, Location at, const char* name, const char* meaning,
                   T* value) {
  if (args.empty()) {
    s.Notice(fmt::format("-- {} {}\n", name, *value));
    return true;
  }
  char* end = nullptr;
  long long n = args.size() == 1 ? std::strtoll(args[0].c_str(), &end, 10) : -1;
  if (args.size() != 1 || end == args[0].c_str() || *end != '\0' || n < 0) {
    return s.Fail(Status::Validation(fmt::format("usage: .{} N ({})", name, meaning)), at);
  }
  *value = static_cast<T>(n);
  return true;
}

bool Switch(State& s, const Args& args, Location at, bool* value, const char* what) {
  if (!ParseSwitch(args, value)) {
    return s.Fail(Status::Validation(fmt::format("usage: .{} on|off", what)), at);
  }
  return true;
}

bool RunHelp(State& s, const Args& args, Location at);

bool RunTables(State& s, const Args& args, Location at) {
  s.echo_suppressed = true;  // .tables was echoed already
  bool ok = s.RunStatement("SHOW TABLES", at);
  s.echo_suppressed = false;
  return ok;
}

bool RunSchema(State& s, const Args& args, Location at) {
  std::vector<std::string> names = args;
  if (names.empty()) {
    Result<ListTablesResponse> r = s.db().ListTables({});
    if (!r.ok()) return s.Fail(r.status(), at);
    names = r->table_names;
  }
  for (const std::string& n : names) {
    Result<TableSchemaPtr> t = s.db().TableSchema(n);
    if (!t.ok()) return s.Fail(t.status(), at);
    s.Out(parser::CreateTableText(**t) + "\n");
  }
  return true;
}

bool RunMode(State& s, const Args& args, Location at) {
  if (args.empty()) {
    s.Notice(fmt::format("-- mode {}\n", OutputModeName(s.settings.mode)));
    return true;
  }
  std::optional<OutputMode> m = args.size() == 1 ? ParseOutputMode(args[0]) : std::nullopt;
  if (!m) return s.Fail(Status::Validation("usage: .mode box|table|line|json|ddb|csv"), at);
  s.settings.mode = *m;
  return true;
}

// .expanded auto|off: on a terminal, box and table results wider than it print in line mode.
bool RunExpanded(State& s, const Args& args, Location at) {
  if (args.size() == 1 && (args[0] == "auto" || args[0] == "off")) {
    s.settings.expanded_auto = args[0] == "auto";
    return true;
  }
  if (args.empty()) {
    s.Notice(fmt::format("-- expanded {}\n", s.settings.expanded_auto ? "auto" : "off"));
    return true;
  }
  return s.Fail(Status::Validation("usage: .expanded auto|off"), at);
}

// .maxwidth [N]: box and table cells are cut to N display columns ("…"; 0: never).
bool RunMaxWidth(State& s, const Args& args, Location at) {
  return NumberSetting(s, args, at, "maxwidth", "display columns per cell; 0: no limit",
                       &s.settings.max_cell_width);
}

bool RunPager(State& s, const Args& a, Location at) {
  return Switch(s, a, at, &s.settings.pager, "pager");
}

bool RunHeaders(State& s, const Args& a, Location at) {
  return Switch(s, a, at, &s.settings.headers, "headers");
}
// .consistent on|off: SELECTs read the table strongly consistent (ConsistentRead), as
// ExecuteStatement's ConsistentRead does; a GSI refuses it, as DynamoDB's do.
bool RunConsistent(State& s, const Args& a, Location at) {
  return Switch(s, a, at, &s.settings.consistent, "consistent");
}
bool RunTimer(State& s, const Args& a, Location at) {
  return Switch(s, a, at, &s.settings.timer, "timer");
}
bool RunBail(State& s, const Args& a, Location at) {
  return Switch(s, a, at, &s.settings.bail, "bail");
}
bool RunEcho(State& s, const Args& a, Location at) {
  return Switch(s, a, at, &s.settings.echo, "echo");
}

// The text of .read's or .patterns' FILE, with the nesting of files bounded.
Result<std::string> NestedFile(State& s, const Args& args, const char* command) {
  if (args.size() != 1) return Status::Validation(fmt::format("usage: {} FILE", command));
  if (s.read_depth >= 16) {
    return Status::Validation(
        fmt::format("{} nested more than 16 deep (a file reading itself?)", command));
  }
  return ReadFile(args[0]);
}

bool RunRead(State& s, const Args& args, Location at) {
  Result<std::string> text = NestedFile(s, args, ".read");
  if (!text.ok()) return s.Fail(text.status(), at);
  return s.RunFile(*text, args[0]);
}

bool RunPatternsCommand(State& s, const Args& args, Location at) {
  Result<std::string> text = NestedFile(s, args, ".patterns");
  if (!text.ok()) return s.Fail(text.status(), at);
  ++s.read_depth;
  bool ok = RunPatterns(s, *text, args[0]);
  --s.read_depth;
  return ok;
}

// .quiet on: statements print their results and errors, not their footers and notices;
// .quiet off: one line sums up what ran (Session::State::EndQuiet).
bool RunQuiet(State& s, const Args& args, Location at) {
  bool on = false;
  if (!ParseSwitch(args, &on)) return s.Fail(Status::Validation("usage: .quiet on|off"), at);
  if (!on) {
    s.EndQuiet();
  } else {
    s.quiet.Start();
  }
  return true;
}

bool Redirect(State& s, const Args& args, Location at, bool once) {
  if (!s.CloseRedirect(/*close=*/true, at)) return false;
  if (args.empty() && !once) return true;  // .output alone: back to standard output
  if (args.size() != 1) {
    return s.Fail(Status::Validation(once ? "usage: .once FILE" : "usage: .output [FILE]"), at);
  }
  if (int error = s.redirect.Open(args[0], once)) {
    return s.Fail(Status::Validation(
                      fmt::format("cannot write {}: {}", Shorten(args[0]), std::strerror(error))),
                  at);
  }
  return true;
}
bool RunOutput(State& s, const Args& args, Location at) { return Redirect(s, args, at, false); }
// The file stays open until the next statement ends (RunScript's EndStatement).
bool RunOnce(State& s, const Args& args, Location at) { return Redirect(s, args, at, true); }

bool RunPagesize(State& s, const Args& args, Location at) {
  return NumberSetting(s, args, at, "pagesize", "items evaluated per page; 0: none",
                       &s.settings.pagesize);
}

bool RunStartKey(State& s, const Args& args, Location at) {
  if (args.size() != 1) {
    return s.Fail(Status::Validation("usage: .startkey {DynamoDB JSON key}"), at);
  }
  Result<Item> key = ItemFromJsonText(args[0]);
  if (!key.ok()) return s.Fail(key.status(), at);
  s.start_key = std::move(*key);
  return true;
}

// .clock [TIME | system]: the clock TTL expiry, creation times and stream records read, fixed
// for the session so that scripts give the same output every time.
bool RunClock(State& s, const Args& args, Location at) {
  if (args.empty()) {
    const double now = s.now();
    s.Notice(fmt::format("-- clock {} ({:.0f}){}\n", IsoSeconds(now), now,
                         s.fixed_clock ? "" : " · system"));
    return true;
  }
  if (args.size() != 1) {
    return s.Fail(
        Status::Validation("usage: .clock [YYYY-MM-DDTHH:MM:SSZ | epoch seconds | system]"), at);
  }
  Result<LocalControl*> local = s.Local(".clock");
  if (!local.ok()) return s.Fail(local.status(), at);
  if (args[0] == "system") {
    s.fixed_clock.reset();
    (*local)->SetClock(nullptr);
    return true;
  }
  const std::optional<double> seconds = ParseTimeArgument(args[0]);
  if (!seconds) {
    return s.Fail(
        Status::Validation(fmt::format(
            "cannot read '{}' as a time: give 2030-01-01T00:00:00Z or epoch seconds", args[0])),
        at);
  }
  s.fixed_clock = *seconds;
  double fixed = *seconds;
  (*local)->SetClock([fixed] { return fixed; });
  return true;
}

// .check: every index of every table agrees with its table (LocalControl::VerifyIntegrity),
// as sqlite3's PRAGMA integrity_check; a disagreement is an error (exit status 1 in a script).
bool RunCheck(State& s, const Args& args, Location at) {
  if (!args.empty()) return s.Fail(Status::Validation("usage: .check"), at);
  Result<LocalControl*> local = s.Local(".check");
  if (!local.ok()) return s.Fail(local.status(), at);
  Status ok = (*local)->VerifyIntegrity();
  if (!ok.ok()) return s.Fail(ok, at);
  s.Notice("-- integrity ok: every index agrees with its table\n");
  return true;
}

// .ttl: each table's TTL attribute; .ttl sweep [TABLE]: delete expired items now.
bool RunTtl(State& s, const Args& args, Location at) {
  if (!args.empty() && args[0] == "sweep" && args.size() <= 2) {
    Result<LocalControl*> local = s.Local(".ttl sweep");
    if (!local.ok()) return s.Fail(local.status(), at);
    Result<int64_t> n = (*local)->SweepExpiredItems(args.size() == 2 ? args[1] : "");
    if (!n.ok()) return s.Fail(n.status(), at);
    s.Notice(fmt::format("-- {} expired item{} deleted\n", *n, *n == 1 ? "" : "s"));
    return true;
  }
  if (!args.empty()) return s.Fail(Status::Validation("usage: .ttl [sweep [TABLE]]"), at);
  Result<ListTablesResponse> tables = s.db().ListTables({});
  if (!tables.ok()) return s.Fail(tables.status(), at);
  for (const std::string& name : tables->table_names) {
    Result<TableSchemaPtr> t = s.db().TableSchema(name);
    if (!t.ok()) return s.Fail(t.status(), at);
    s.Notice(fmt::format(
        "-- {}: {}\n", name,
        (*t)->ttl_attribute ? "TTL on " + *(*t)->ttl_attribute : std::string("no TTL")));
  }
  return true;
}

bool RunQuit(State& s, const Args& args, Location at) {
  s.quit = true;
  return true;
}

// .collection T 'pk': one item collection, drawn as NoSQL Workbench's aggregate view does:
// the partition key once, then the items in sort-key order with the sort key first.
bool RunCollection(State& s, const Args& args, Location at) {
  if (args.size() != 2) return s.Fail(Status::Validation("usage: .collection TABLE 'pk'"), at);
  Result<TableSchemaPtr> t = s.db().TableSchema(args[0]);
  if (!t.ok()) return s.Fail(t.status(), at);
  const KeyAttribute& pk = (*t)->key.partition;
  AttributeValue value = AttributeValue::S(args[1]);
  if (pk.type == ValueType::kN) {
    Result<Number> n = Number::Parse(args[1]);
    if (!n.ok()) return s.Fail(n.status(), at);
    value = AttributeValue::N(*n);
  } else if (pk.type == ValueType::kB) {
    std::string bytes;
    if (!Base64Decode(args[1], &bytes)) {
      return s.Fail(Status::Validation("the partition key is binary: give it in base64"), at);
    }
    value = AttributeValue::B(bytes);
  }
  QueryRequest q;
  q.table_name = args[0];
  q.key_condition.partition_name = pk.name;
  q.key_condition.partition_value = value;
  q.return_consumed_capacity = ReturnConsumedCapacity::kTotal;
  std::vector<Item> items;
  double units = 0;
  int64_t bytes = 0;
  while (true) {
    Result<QueryResponse> page = s.db().Query(q);
    if (!page.ok()) return s.Fail(page.status(), at);
    if (page->consumed_capacity) units += page->consumed_capacity->total.capacity_units;
    for (Item& item : page->items) {
      bytes += ItemSize(item);
      // A person sees the partition key once, in the header line; a program gets whole items.
      if (!IsMachineMode(s.settings.mode)) item.erase(pk.name);
      items.push_back(std::move(item));
    }
    if (!page->last_evaluated_key) break;
    q.exclusive_start_key = std::move(page->last_evaluated_key);
  }
  s.Notice(fmt::format("-- item collection {} = {} · {} · {} bytes\n", pk.name, FormatCell(value),
                       Count(static_cast<int64_t>(items.size()), "item"), bytes));
  // Rendered as SELECT renders (State::PrintItems): .maxwidth, .expanded auto, the pager.
  RenderOptions options;
  options.mode = s.settings.mode;
  options.headers = s.settings.headers;
  if ((*t)->key.sort) options.key_columns = {(*t)->key.sort->name};
  options.max_cell_width = s.settings.max_cell_width;
  const bool to_terminal = s.settings.terminal && !s.redirect.active() && !s.suppress_out;
  if (to_terminal && s.settings.expanded_auto) options.max_width = TerminalColumns();
  const std::string text = RenderItems(items, options);
  const size_t rows = to_terminal && s.settings.pager ? TerminalRows() : 0;
  if (rows <= 2 || static_cast<size_t>(std::count(text.begin(), text.end(), '\n')) <= rows - 2 ||
      !Page(text)) {
    s.Out(text);
  }
  s.Notice(fmt::format("-- {} returned · Query on {} · {}\n", items.size(), args[0],
                       CapacityText(units, "RCU")));
  return true;
}

// sqlite3's dot-commands that keyhole has under another name, or another way: what to use.
std::string_view SqliteCommandHint(std::string_view name) {
  static constexpr std::pair<std::string_view, std::string_view> kHints[] = {
      {".dump",
       "sqlite3's .dump is .export TABLE TO FILE here (a table's items as DynamoDB "
       "JSON lines); .schema prints the CREATE TABLE statements"},
      {".indexes",
       ".schema TABLE shows a table's indexes in its CREATE TABLE; DESCRIBE "
       "\"TABLE\" lists them"},
      {".indices",
       ".schema TABLE shows a table's indexes in its CREATE TABLE; DESCRIBE "
       "\"TABLE\" lists them"},
      {".open", "keyhole works on the file it was started with: quit, then keyhole FILE"},
      {".databases", "keyhole works on the file it was started with; .tables lists its tables"},
      {".show",
       ".mode, .headers, .timer and the other settings print theirs when given no "
       "argument"},
      {".width", ".maxwidth N cuts wide cells in box and table modes"},
      {".separator", ".mode csv writes comma-separated values"},
      {".save", "the database is one file: keyhole copy FILE OTHER.kh copies it"},
      {".backup", "the database is one file: keyhole copy FILE OTHER.kh copies it"},
      {".q", ".quit (or .exit, or Ctrl-D) leaves keyhole"},
  };
  for (const auto& [command, hint] : kHints) {
    if (name == command) return hint;
  }
  return "";
}

constexpr DotCommand kCommands[] = {
    {".help", "[COMMAND]", "this help, or one command's", RunHelp},
    {".tables", "", "list the tables", RunTables},
    {".schema", "[TABLE]", "the CREATE TABLE statement of each table (or of TABLE)", RunSchema,
     true},
    {".mode", "[box|table|line|json|ddb|csv]",
     "how results print: json is JSON Lines (one object per line), ddb DynamoDB JSON lines; in "
     "csv, json and ddb footers and notices go to standard error",
     RunMode},
    {".headers", "on|off", "column headers in box, table and csv modes", RunHeaders},
    {".timer", "on|off", "elapsed time in each footer", RunTimer},
    {".expanded", "auto|off", "on a terminal, results wider than it print in line mode",
     RunExpanded},
    {".maxwidth", "[N]", "cut box and table cells to N columns with … (0: never; default 80)",
     RunMaxWidth},
    {".pager", "on|off", "on a terminal, results longer than it go through $PAGER (less)",
     RunPager},
    {".read", "FILE", "run the statements and dot-commands of FILE", RunRead, true},
    {".output", "[FILE]", "send results to FILE (no argument: back to standard output)", RunOutput},
    {".once", "FILE", "send the next statement's results to FILE", RunOnce},
    {".bail", "on|off", "stop a script at the first failing statement", RunBail},
    {".echo", "on|off", "print each statement before running it", RunEcho},
    {".import", "FILE INTO TABLE",
     "put items from JSON lines: plain JSON, DynamoDB JSON, or {\"Item\": ...} (S3 export)",
     RunImport, true},
    {".export", "TABLE TO FILE", "write every item as {\"Item\": DynamoDB JSON} lines", RunExport,
     true},
    {".pagesize", "[N]",
     "evaluate at most N items per page of a SELECT; NEXT; reads on (0: 1 MB pages)", RunPagesize},
    {".startkey", "{KEY}", "the ExclusiveStartKey (DynamoDB JSON) of the next SELECT", RunStartKey},
    {".consistent", "on|off",
     "SELECTs read strongly consistent (ConsistentRead: twice the RCU; a GSI refuses it)",
     RunConsistent},
    {".collection", "TABLE 'pk'", "one item collection: its items in sort-key order", RunCollection,
     true},
    {".model", "[TABLE [BY TYPE-ATTRIBUTE]]",
     "the entity types the table's items imply, with their key templates", RunModel, true},
    {".draw", "TABLE [INDEX] [TO FILE.html|FILE.svg] [--partitions N] [--items N] [--partition V]",
     "a picture of the table (or index): item collections, entity types, what an index leaves out",
     RunDraw, true},
    {".generate", "TABLE ENTITY COUNT [PER PARENT] [BY TYPE-ATTRIBUTE] [--seed N] [--skew zipf:S]",
     "more items of an entity type, shaped like the table's (a skew makes a hot partition)",
     RunGenerate, true},
    {".import-model", "MODEL.json",
     "create the tables of a NoSQL Workbench data model, with its items", RunImportModel, true},
    {".export-model", "FILE [TABLE...] [--format workbench|cloudformation|cli]",
     "the tables (and items) as a Workbench model, a CloudFormation template or create-table "
     "input",
     RunExportModel, true},
    {".patterns", "FILE",
     "run the named access patterns of FILE: one row per pattern, fails on a Scan or refusal",
     RunPatternsCommand, true},
    {".plan", "FILE [--scale N] [--region R] [--prices FILE]",
     "the patterns of FILE at their rates ('-- rate: N/s'): units per second, cost per month, "
     "hot partitions",
     RunPlanCommand, true},
    {".partitions", "TABLE [INDEX]",
     "how the items spread over partition key values: the largest, the top 1%'s share, item "
     "sizes",
     RunPartitions, true},
    {".quiet", "on|off",
     "no footers or notices, only results and errors (a script's .quiet ends with it); off "
     "sums up what ran",
     RunQuiet},
    {".stream", "TABLE [N | FROM SEQ]",
     "the table's stream: the latest N records (10), or those after sequence number SEQ",
     RunStreamCommand, true},
    {".ttl", "[sweep [TABLE]]", "TTL per table; sweep deletes expired items now", RunTtl, true},
    {".check", "", "check that every index agrees with its table", RunCheck, true},
    {".clock", "[TIME | system]",
     "fix the clock (2030-01-01T00:00:00Z or epoch seconds) for TTL and streams", RunClock},
    {".quit", "", "leave keyhole (also .exit)", RunQuit},
    {".exit", "", "leave keyhole", RunQuit},
};

const DotCommand* Find(std::string_view name) {
  for (const DotCommand& c : kCommands) {
    if (name == c.name) return &c;
  }
  return nullptr;
}

bool RunHelp(State& s, const Args& args, Location at) {
  auto line = [](const DotCommand& c) {
    std::string head = std::string(c.name) + (*c.usage ? " " : "") + c.usage;
    return fmt::format("{:<34} {}\n", head, c.help);
  };
  std::string out;
  if (args.empty()) {
    out =
        "Statements end with ';' and may span lines: PartiQL SELECT / INSERT / UPDATE / DELETE\n"
        "(refused unless key-addressable; SCAN SELECT ... reads a whole table), EXPLAIN "
        "[ANALYZE],\n"
        "NEXT, BEGIN / COMMIT / ROLLBACK (ExecuteTransaction), CREATE / DROP / ALTER TABLE,\n"
        "SHOW TABLES, DESCRIBE, SHOW CREATE TABLE,\n"
        "CALL <Operation> {request JSON} or <Operation> {request JSON}.\n"
        ".help SELECT (or INSERT, UPDATE, CREATE TABLE, ...) shows a statement's syntax.\n";
    for (const DotCommand& c : kCommands) out += line(c);
  } else {
    std::string name;
    for (const std::string& a : args) name += (name.empty() ? "" : " ") + a;
    out = StatementHelpText(name);
    for (const DotCommand& c : kCommands) {
      if (out.empty() && (args[0] == c.name || "." + args[0] == c.name)) out = line(c);
    }
    if (out.empty()) {
      return s.Fail(Status::Validation(fmt::format(
                        "no help for {}: .help lists the dot-commands; the statements are {}", name,
                        StatementHelpNames())),
                    at);
    }
  }
  s.Out(out);
  return true;
}

}  // namespace

std::vector<std::string> DotCommandNames() {
  std::vector<std::string> out;
  for (const DotCommand& c : kCommands) out.emplace_back(c.name);
  return out;
}

std::vector<std::string> SplitWords(std::string_view text) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (i >= text.size()) break;
    std::string word;
    if (text[i] == '{') {  // a JSON argument runs to the end of the line
      word = std::string(text.substr(i));
      while (!word.empty() && std::isspace(static_cast<unsigned char>(word.back())))
        word.pop_back();
      out.push_back(std::move(word));
      break;
    }
    while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) {
      char q = text[i];
      if (q == '\'' || q == '"') {
        size_t close = text.find(q, i + 1);
        if (close == std::string_view::npos) close = text.size();
        word.append(text.substr(i + 1, close - i - 1));
        i = close == text.size() ? close : close + 1;
      } else {
        word += q;
        ++i;
      }
    }
    out.push_back(std::move(word));
  }
  return out;
}

bool Session::State::RunDotCommand(std::string_view line, Location at) {
  // `.tables;`: a ';' out of the habit of statements ends the line harmlessly.
  while (!line.empty() && (line.back() == ';' || line.back() == ' ' || line.back() == '\t')) {
    line.remove_suffix(1);
  }
  std::vector<std::string> words = SplitWords(line);
  if (words.empty()) return true;
  std::string name = words[0];
  const DotCommand* c = Find(name);
  if (!c) {
    Status unknown =
        Status::Validation(fmt::format("unknown command {}; .help lists them", Shorten(name, 40)));
    if (std::string_view hint = SqliteCommandHint(name); !hint.empty()) {
      unknown.WithHint(std::string(hint));
    }
    return Fail(unknown, at);
  }
  Args args(words.begin() + 1, words.end());
  const Clock::time_point start = Clock::now();
  bool ok = c->run(*this, args, at);
  if (c->timed && settings.timer) {
    Notice(fmt::format("-- {} · {}\n", c->name,
                       FormatElapsed(std::chrono::duration<double>(Clock::now() - start).count())));
  }
  return ok;
}

}  // namespace keyhole::shell
