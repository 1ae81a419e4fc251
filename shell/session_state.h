// The session's own state (Session::State): its backend, connection and settings, where output
// goes, the running statement and transaction, .quiet's totals. What the statements and
// dot-commands call is in commands.h. Not part of the shell's interface: include only from
// shell/*.cpp. One session, one thread: nothing here is shared.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "api/connection.h"
#include "api/service.h"
#include "core/status.h"
#include "shell/commands.h"
#include "shell/quiet.h"
#include "shell/redirect.h"
#include "shell/session.h"

namespace keyhole::shell {

using Clock = std::chrono::steady_clock;

// Set by Session::Interrupt; Execute's cancel flag. The epoch counts Session::ClearInterrupt
// calls. g_termination is the signal Session::Terminate was given first (0: none).
extern std::atomic<bool> g_interrupted;
extern std::atomic<uint64_t> g_interrupt_epoch;
extern std::atomic<int> g_termination;

struct Session::State {
  State(Backend& db, LocalControl* local, std::string db_path, Sink& sink, Settings& settings,
        bool& quit);
  ~State();

  // The session's backend. Statements and dot-commands run on db(): it, or while a pattern of
  // a cost plan runs, modeling's recorder over it (patterns.cpp attaches one for the run).
  Backend& backend;
  Backend* active;
  Backend& db() const { return *active; }
  LocalControl* local;  // null when the backend is not a local file
  api::Service service() const { return api::Service(*active); }
  // Runs the session's SELECT, INSERT, UPDATE, DELETE and NEXT (api/connection.h); it keeps
  // what NEXT continues. A pattern runs on a connection of its own.
  std::unique_ptr<api::Connection> active_connection;
  api::Connection& connection() const { return *active_connection; }
  // The connection's options from the settings (.pagesize, .consistent) and Ctrl-C.
  void SetConnectionOptions();
  // The context of the calls a statement makes: Ctrl-C (Session::Interrupt) cancels.
  api::CallContext Context() const;
  // The local-only control, or ValidationException naming `what` when there is none.
  Result<LocalControl*> Local(std::string_view what) const;
  // Session::SetAsk's function (null: none).
  std::function<std::optional<std::string>(const std::string&)> ask;
  std::string db_path;
  Sink* sink;  // .patterns points it at a StringSink while a pattern runs
  Settings& settings;
  bool& quit;

  Redirect redirect;   // .output FILE / .once FILE: results go there instead of the sink's
  int read_depth = 0;  // nesting of .read, bounded
  // When the running statement started (parse, plan, run and print: .timer's figure).
  Clock::time_point statement_start;
  bool timed = false;  // the running statement's footer carried its time already
  // With .timer on: `footer` + " · <elapsed>" (and the statement counts as timed).
  std::string Timed(std::string footer);
  // With .timer on, after a statement: "-- <elapsed>" unless its footer said it already.
  // (Dot-commands that do work print "-- .import · <elapsed>".)
  void NoteTime();

  // The text of the statement RunOneStatement is running (what the connection remembers a point
  // read by), or "".
  std::string_view statement_text;
  std::optional<Item> start_key;         // .startkey: the ExclusiveStartKey of the next SELECT
  bool continuing = false;               // NEXT is printing a later page of the last SELECT
  std::vector<std::string> csv_columns;  // the columns of the last CSV printed

  // BEGIN ... COMMIT: the connection queues the statements (api::Connection::Begin); the shell
  // keeps where its BEGIN was.
  Location transaction_begun;  // where its BEGIN was (source points at ...source)
  std::string transaction_source;
  int transaction_depth = 0;  // read_depth at BEGIN: the file that opened it must close it
  // Marks the open transaction failed by the statement that just failed at `at`, and says so
  // on the error stream with what COMMIT and ROLLBACK will do (transaction_queue.cpp).
  void MarkTransactionFailed(Location at);
  // Whether statements come from a person at the prompt (the REPL), not a script or -c.
  bool AtPrompt(Location at) const { return ask && at.source.empty() && read_depth == 0; }

  // The running statement's report, and (when set) where each finished statement's report goes.
  StatementReport report;
  std::vector<StatementReport>* collect = nullptr;
  // Results and notices are dropped (not errors) while .patterns runs a pattern.
  bool suppress_out = false;
  Quiet quiet;  // .quiet on
  // Statements that ran (to success or failure) in this session; one Ctrl-C stopped part way
  // did not run, and is counted neither here nor in .quiet's summary, so that the script's
  // "interrupted at ...; M statements ran" and "-- M statements ran quietly" agree.
  int64_t statements_run = 0;

  // Attribute names seen per table (keys, results), for completion: every name, and the last
  // item's (RememberAttributes skips an item of the same names).
  struct SeenNames {
    std::set<std::string> all;
    std::vector<std::string> last;
  };
  std::map<std::string, SeenNames> attributes;

  // Results (redirected by .output/.once).
  void Out(std::string_view text);
  // Footers, hints and other "-- " lines about the results (see Sink): inline through Out in
  // the human modes, the sink's notice stream in the machine modes; dropped under .quiet and
  // while a pattern runs. `mode` is the mode the results around it are printed in.
  void Notice(std::string_view text) { Notice(text, settings.mode); }
  void Notice(std::string_view text, OutputMode mode);
  // Errors: "Error: <Type>: <message>", then "  at <source> line <line>" in a script, then a
  // TransactionCanceledException's CancellationReasons, one line per action in order:
  //   [0] None
  //   [1] ConditionalCheckFailed: The conditional request failed {"pk":{"S":"a"}}
  bool Fail(const Status& status, Location at);
  // DynamoDB answers an item or read operation on a missing table with a bare "Requested
  // resource not found"; `status` when it is not that, else `status` with a hint naming
  // `table` and the closest existing name, as Fail gives DescribeTable's message.
  Status NameMissingTable(Status status, std::string_view table);
  // --echo / .echo: the statement or dot-command about to run, with the notices (inline in the
  // human modes, on the notice stream in the machine modes), also under .quiet.
  void Echo(std::string_view text);
  bool echo_suppressed = false;  // a dot-command running a statement of its own (.tables)
  // Ends .quiet (when on): prints "-- N statements ran quietly[, F failed] · U WCU".
  void EndQuiet();
  // Records `status` in the report when it is the statement's first error (Fail does).
  void NoteError(const Status& status);
  // After a statement: ends a .once redirection, and reports (false) when writing the
  // .output/.once file failed.
  bool EndStatement(Location at);
  // Flushes (and with `close` closes) the .output/.once file; false, with the OS's reason, when
  // anything written to it was lost.
  bool CloseRedirect(bool close, Location at);

  // Runs a script (see Session::RunScript).
  bool RunScript(std::string_view text, std::string_view source, int first_line);
  // Runs a script file (.read, -f, standard input; see Session::RunFile).
  bool RunFile(std::string_view text, const std::string& source);
  // Set to the interrupt's epoch once its interruption of the running input was reported
  // ("interrupted at ..."), so that the scripts around it stop without a word; stale once the
  // interrupt is cleared (Session::ClearInterrupt starts a new epoch).
  uint64_t interrupt_reported_epoch = ~uint64_t{0};
  bool InterruptReported() const {
    return interrupt_reported_epoch == g_interrupt_epoch.load(std::memory_order_relaxed);
  }
  // Runs one statement (no dot-commands), filling `report` (and `collect`, .quiet's totals).
  bool RunStatement(std::string_view text, Location at);
  bool RunOneStatement(std::string_view text, Location at);
  // BEGIN, COMMIT, ROLLBACK, and any statement while a transaction is open (transaction_queue.cpp).
  bool RunTransactionStatement(const parser::Statement& st, Location at);
  // When a transaction is open: discards it and says so on the error stream ("<why>: the BEGIN
  // at FILE line N was not committed; its 2 queued statements were discarded, nothing was
  // sent"), and returns false. True when none was open.
  bool DiscardTransaction(std::string_view why);
  // Runs one dot-command line (starting with '.').
  bool RunDotCommand(std::string_view line, Location at);
  // The schemas of the running DML statement (set by it while it runs), else null: KeyColumns
  // and NoteExpired read the catalog through it when set.
  const planner::SchemaSource* statement_schemas = nullptr;
  Result<TableSchemaPtr> Schema(const std::string& table) {
    return statement_schemas ? statement_schemas->TableSchema(table) : db().TableSchema(table);
  }

  // The session's clock (.clock): fixed epoch seconds, or the system clock when unset. The
  // database reads the same clock (Database::SetClock).
  std::optional<double> fixed_clock;
  double now() const;
};

// The planner's view of the catalog.
using Schemas = api::BackendSchemas;

}  // namespace keyhole::shell
