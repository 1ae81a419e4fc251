// What the session's statements and dot-commands call, apart from its state (session_state.h):
// the handlers of EXPLAIN, vector searches, .stream, .patterns and .plan, and the modeling
// commands (model_commands.cpp), and the text helpers shell/*.cpp share. Not part of the
// shell's interface: include only from shell/*.cpp. Each handler runs on the session's state
// (one session, one thread) and reports failures through State::Fail.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/connection.h"
#include "api/partiql_api.h"
#include "core/backend.h"
#include "core/json.h"
#include "modeling/patterns.h"
#include "modeling/prices.h"
#include "parser/partiql.h"
#include "planner/plan.h"
#include "shell/session.h"

namespace keyhole::shell {

// Where a statement or dot-command came from, for error messages.
struct Location {
  std::string_view source;  // script name, or "" (REPL, -c)
  int line = 0;
};

// What one statement did, as its footer says it: filled where footers are printed, read by
// .patterns (patterns.cpp) and .quiet.
using StatementReport = api::StatementReport;

// Asking the person at the prompt (session.cpp). Ask: what they typed to `question`, without
// surrounding blanks; nullopt when there is nobody to ask or the input ended. Confirm: whether
// `statement` (its first words: "DROP TABLE", "SCAN DELETE") may run on the endpoint: always on
// a file and with --yes; at the prompt when the person types `expected` (a table name, or
// "yes") to `question`; otherwise it fails, saying --yes allows it. `*declined` is set when the
// person said no (nothing failed, nothing ran).
std::optional<std::string> Ask(Session::State& s, const std::string& question);
bool Confirm(Session::State& s, std::string_view statement, const std::string& question,
             const std::string& expected, Location at, bool* declined);

// The statements the session dispatches (session.cpp), apart from DML and NEXT.
// schema_statements.cpp: CREATE TABLE (then UpdateTimeToLive for its TTL), ALTER TABLE (an
// index, TTL or stream), DROP TABLE (asking first on an endpoint), SHOW TABLES, SHOW CREATE
// TABLE, and DESCRIBE (a table for people; DescribeTable's JSON in csv, json and ddb). On an
// endpoint, a change that takes time is waited on until ACTIVE (or gone); Ctrl-C stops the wait.
bool RunCreate(Session::State& s, const parser::CreateTableStatement& c, Location at);
bool RunAlter(Session::State& s, const parser::AlterTableStatement& a, Location at);
bool RunDropTable(Session::State& s, const parser::DropTableStatement& d, Location at);
bool RunShowTables(Session::State& s, Location at);
bool RunShowCreateTable(Session::State& s, const std::string& table, Location at);
bool RunDescribe(Session::State& s, const std::string& table, Location at);

// What a statement did, printed (output.cpp). PrintOutcome: the items and the footer
// ("-- N returned, N read · Query on T · 0.5 RCU"), or the error through State::Fail (a missing
// table named with the closest name). PrintJson: an API call's answer as one line of JSON, or
// its error.
bool PrintOutcome(Session::State& s, api::StatementOutcome&& outcome, Location at);
bool PrintJson(Session::State& s, const Result<json::Value>& r, Location at);

// Errors and hints (errors.cpp). FailParse: a parse error with its line and a caret under the
// column, then the hint (for an INSERT too long for ExecuteStatement, the same item as a
// PutItem). WithDataHints: a refused SELECT's advice checked against the table's first items on
// a file (an attribute no item has is named, with the closest one items do have).
bool FailParse(Session::State& s, const parser::ParseError& e, std::string_view text, Location at);
Status WithDataHints(Session::State& s, Status status, const parser::Statement& st);

// A result's items (output.cpp). PrintItems renders them in the current mode with `table`'s
// (and `index`'s) key attributes first (KeyColumns), `columns` (a SELECT's projection,
// Plan::columns) in that order. RememberAttributes keeps their names for completion.
// NoteExpired, after a SELECT, counts in a footer line the items whose TTL has expired (they
// stay readable until a sweep, as in DynamoDB).
void PrintItems(Session::State& s, const std::vector<Item>& items, const std::string& table,
                const std::optional<std::string>& index,
                const std::vector<std::string>& columns = {});
std::vector<std::string> KeyColumns(Session::State& s, const std::string& table,
                                    const std::optional<std::string>& index);
void RememberAttributes(Session::State& s, const std::string& table,
                        const std::vector<Item>& items);
void NoteExpired(Session::State& s, const std::string& table, const std::vector<Item>& items);

// EXPLAIN [ANALYZE] of a planned statement (explain.cpp): each operation's exact request, what
// keyhole does after it, and its estimated capacity; ANALYZE also runs it (reads only).
bool RunExplain(Session::State& s, const planner::Plan& plan, Location at);
// .consistent on: a SELECT's reads ask for ConsistentRead. True when it applied (a SELECT with
// the setting on), for the footer to say so.
bool ApplyConsistentRead(const Settings& settings, planner::Plan& plan);

// SELECT ... FROM "T"."VectorIndex" [WHERE ...] ORDER BY VECTOR_DISTANCE(attr, [...]) LIMIT k
// (vector_search.cpp): runs it as SearchVectors and prints the items with their scores, or
// with EXPLAIN shows the request.
bool RunVectorSearch(Session::State& s, const parser::Statement& st, Location at);

// .stream TABLE [N] | .stream TABLE FROM <sequence number> (stream_command.cpp): the latest N
// records (default 10) of the table's latest stream, or those after a sequence number, one per
// line as compact JSON in the GetRecords record shape (in every output mode), then
// "-- N records · stream <label>".
bool RunStreamCommand(Session::State& s, const std::vector<std::string>& args, Location at);

// How many of `items` have expired at `now` under TTL attribute `attribute` (a Number of epoch
// seconds in the past, not more than five years: reference §6.1).
int64_t CountExpired(const std::vector<Item>& items, const std::string& attribute, double now);

// .patterns FILE / --patterns FILE (patterns.cpp): runs every named access pattern of `text`
// with its output hidden and prints one row per pattern; false when a pattern needs a Scan, is
// refused or fails, or a `-- refused:` statement is not refused.
// With `plan` (.plan FILE / --plan): each pattern's operations are recorded (modeling/usage.h),
// and a plan of its rates follows the report (PrintCostPlan); in csv, json and ddb the plan's
// rows replace the report's.
bool RunPatterns(Session::State& s, std::string_view text, std::string_view source,
                 const CostPlanSettings* plan = nullptr);

// The plan of the patterns' rates (cost_plan.cpp): per pattern, per table and index, cost per
// month, and hot partitions. `prices` from modeling/prices.h.
void PrintCostPlan(Session::State& s, const std::vector<modeling::PatternResult>& runs,
                   const CostPlanSettings& plan, const modeling::Prices& prices);

// .partitions TABLE [INDEX] (partitions.cpp).
bool RunPartitions(Session::State& s, const std::vector<std::string>& args, Location at);
// .plan FILE [--scale N] [--region R] [--prices FILE] (cost_plan.cpp).
bool RunPlanCommand(Session::State& s, const std::vector<std::string>& args, Location at);

// .model TABLE (model.cpp): the entity types the table's items imply, with key templates.
bool RunModel(Session::State& s, const std::vector<std::string>& args, Location at);

// .import-model FILE and .export-model FILE [TABLE...] [--format F] [--name N]
// (model_commands.cpp): NoSQL Workbench data models in and out, CloudFormation and create-table
// input out.
bool RunImportModel(Session::State& s, const std::vector<std::string>& args, Location at);
bool RunExportModel(Session::State& s, const std::vector<std::string>& args, Location at);
// .draw TABLE [INDEX] [TO FILE] (model_commands.cpp, modeling/draw.h): a picture of the table or
// index.
bool RunDraw(Session::State& s, const std::vector<std::string>& args, Location at);
// .generate TABLE ENTITY COUNT [PER PARENT] (model_commands.cpp, modeling/generate.h): more items
// of an entity type, shaped like the table's.
bool RunGenerate(Session::State& s, const std::vector<std::string>& args, Location at);

// Fills `report` from an API-form statement's request and response (patterns.cpp): the
// operation, its table(s), Count/ScannedCount or the items returned, ConsumedCapacity.
void ReportOperation(StatementReport& report, std::string_view operation,
                     const json::Value& request, const json::Value& response);

// `.help SELECT`, `.help CREATE TABLE`, ... (statement_help.cpp): the statement's syntax and an
// example, or "" for a name that is not a statement. StatementHelpNames lists the names.
std::string StatementHelpText(std::string_view name);
std::string StatementHelpNames();

// .import FILE INTO TABLE and .export TABLE TO FILE (import_export.cpp): lines of DynamoDB JSON
// ({"Item": ...}, the layout of DynamoDB's export to S3), plain JSON in; the export's layout
// out. `args` are the words after the command ("orders.jsonl", "INTO", "Orders").
bool RunImport(Session::State& s, const std::vector<std::string>& args, Location at);
bool RunExport(Session::State& s, const std::vector<std::string>& args, Location at);

// The dot-command names, for completion (".help", ".tables", ...).
std::vector<std::string> DotCommandNames();

// Whole-word command-line style splitting: blanks separate words; '...' and "..." group.
std::vector<std::string> SplitWords(std::string_view text);

// `text` when it is at most `max` bytes, else its first `max` bytes (whole characters) and
// "… (N bytes)": for file names and arguments quoted in messages.
std::string Shorten(std::string_view text, size_t max = 200);

// `text` with every byte that is not part of valid UTF-8 replaced by U+FFFD.
std::string ValidUtf8(std::string_view text);

// What a Scan of the whole table (or index) `r` reads costs: "about 400 RCU to read the whole
// table (12345 items, 3276800 bytes, 4 pages of up to 1 MB)", from DescribeTable (explain.cpp).
// `table_items`, when given, gets DescribeTable's ItemCount of the table (-1 when it failed).
std::string ScanEstimate(Backend& db, const ScanRequest& r, int64_t* table_items = nullptr);

// A script's text must not be binary (a NUL byte in its first 4 KB): ValidationException
// "<source> is not a script: it holds binary data ...".
Status CheckScriptText(std::string_view text, std::string_view source);

// "1 item", "2 items": `n` and `noun`, plural when n != 1 (adds "s").
std::string Count(int64_t n, std::string_view noun);

// A formatted duration ("850 µs", "12.3 ms", "1.25 s").
std::string FormatElapsed(double seconds);

}  // namespace keyhole::shell
