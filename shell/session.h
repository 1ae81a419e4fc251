// A shell session: one open database, the settings the dot-commands change, and the state
// NEXT continues from. The REPL (repl.h), `-f` / `-c` / standard input (main.cpp), `.read`
// and the sqllogictest runner (tests/sql) all run input through Session::RunScript.
//
// Input is statements ending with `;` (they may span lines) and dot-commands: a line whose
// first non-blank character is `.` while no statement is pending. Every statement prints its
// result in the output mode (render.h) and then a footer:
//   -- 2 returned, 5 read · Query on App.byEmail · 0.5 RCU
// plus ` · 1.2 ms` with .timer on, and when the read stopped at a LastEvaluatedKey:
//   -- more: LastEvaluatedKey {"pk":{"S":"a"},"sk":{"N":"3"}} · NEXT; reads the next page
// Errors go to the sink's error stream as `Error: <DynamoDBErrorType>: <message>`, followed in a
// script by `  at <file> line <line>`; a syntax error adds `, column <c>:`, the source line and
// a caret under the column.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/backend.h"
#include "core/file.h"
#include "shell/render.h"

namespace keyhole::shell {

// Where a session writes, in three kinds:
//   Out     results: items, API responses, the text a statement was asked for;
//   Notice  what is said about them: footers, `-- more:` hints, `-- table T created`, echoed
//           input. In the human modes (box, table, line) the session writes notices inline
//           through Out, in order with the results; in the machine modes (csv, json, ddb) it
//           sends them here, so that standard output carries data only and parses whole;
//   Err     errors and warnings.
class Sink {
 public:
  virtual ~Sink() = default;
  virtual void Out(std::string_view text) = 0;
  virtual void Notice(std::string_view text) = 0;
  virtual void Err(std::string_view text) = 0;
};

// stdout, and stderr for notices and errors; flushes stdout before each write to stderr so a
// script's output keeps its order when both go to one terminal or file.
class StdioSink : public Sink {
 public:
  void Out(std::string_view text) override;
  void Notice(std::string_view text) override { Err(text); }
  void Err(std::string_view text) override;
};

// Collects the streams into strings (tests, the sqllogictest runner). Notices go into `out`,
// in order with the results, unless `separate_notices` is set (then into `notices`).
class StringSink : public Sink {
 public:
  void Out(std::string_view text) override { out.append(text); }
  void Notice(std::string_view text) override { (separate_notices ? notices : out).append(text); }
  void Err(std::string_view text) override { err.append(text); }
  std::string out, notices, err;
  bool separate_notices = false;
};

// What the dot-commands set.
struct Settings {
  OutputMode mode = OutputMode::kDdb;  // main.cpp picks box on a terminal
  bool headers = true;
  bool timer = false;       // elapsed time in the footer
  bool bail = false;        // stop a script at its first failing statement
  bool echo = false;        // print each statement before running it
  int64_t pagesize = 0;     // Limit on each Query/Scan of a SELECT (0: DynamoDB's 1 MB pages only)
  bool consistent = false;  // .consistent: SELECTs send ConsistentRead true
  // Output goes to a person at a terminal (the REPL): wide results may switch to line mode,
  // long ones go through the pager.
  bool terminal = false;
  // box, table: cells are cut to this many display columns, ending with "…" (0: never).
  size_t max_cell_width = 80;
  // On a terminal, box and table results wider than it print in line mode (.expanded).
  bool expanded_auto = true;
  // On a terminal, results longer than it go through $PAGER (.pager).
  bool pager = true;
  // Set when the session runs on an endpoint (keyhole --endpoint, --region, --profile): its
  // URL, named in notices and confirmations. Then DROP TABLE, SCAN UPDATE and SCAN DELETE ask
  // before they run (or need `yes`), and a SCAN SELECT first says how large the table is and
  // about what reading it all costs. Empty for a keyhole file.
  std::string endpoint;
  // --yes: those statements run without asking (scripts).
  bool yes = false;
  // --readonly on an endpoint: the backend refuses every write, so nothing asks first.
  bool read_only = false;
};

// `--plan` / `.plan FILE`'s settings (shell/cost_plan.cpp; not planner::PlanOptions, which
// steer how a statement is planned, nor modeling::CostPlanOptions, which these become).
struct CostPlanSettings {
  double scale = 1;         // --scale N: the file holds 1/N of production's items
  std::string region;       // --region R: the prices' region ("": us-east-1)
  std::string prices_path;  // --prices FILE ("": the built-in table, modeling/prices.h)
};

class Session {
 public:
  // The session runs on `backend` (statements, API calls) and, when it is a local file, on
  // `local` for what only a file offers (.clock, .ttl sweep, .import); null otherwise. Both
  // must outlive the session. `db_path` names the database in messages.
  Session(Backend& backend, LocalControl* local, std::string db_path, Sink& sink);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  Settings& settings() { return settings_; }

  // Runs every statement and dot-command of `text`. `source` names the script in error
  // messages ("" for the REPL and -c); `first_line` is the line number of text's first line.
  // Returns false if anything failed; with settings().bail, stops at the first failure.
  // A last statement without its `;` still runs.
  bool RunScript(std::string_view text, std::string_view source = "", int first_line = 1);

  // Runs a script file (-f, standard input; .read runs the same): RunScript, and what the file
  // began ends with it. A transaction it left open is discarded and said out loud on the error
  // stream (how many queued statements; the result is then false), and a `.quiet on` it left
  // on is turned off (its summary printed). Ctrl-C stops the file with one line,
  // "interrupted at FILE line N; M statements ran".
  bool RunFile(std::string_view text, const std::string& source);

  // The end of all input (the last -c, Ctrl-D, .quit): an open transaction is discarded and
  // said out loud as RunFile does; returns false then, true otherwise.
  bool Finish();

  // True while BEGIN ... COMMIT (or BEGIN BATCH) is open: the REPL's prompt shows it.
  bool in_transaction() const;
  // Whether the last input was stopped by Ctrl-C (Interrupt) rather than finishing.
  bool interrupted() const;

  // Runs the named access patterns of a patterns file (`source` names it) and prints the
  // report (see patterns.cpp); with `plan`, the plan of their rates after it (cost_plan.cpp).
  // Returns false when a pattern needs a Scan, is refused or fails.
  bool RunPatterns(std::string_view text, std::string_view source,
                   const CostPlanSettings* plan = nullptr);

  // How the session asks the person at the prompt before a statement that needs it (see
  // Settings::endpoint): `question` is printed, and the function returns what was typed (nullopt
  // for Ctrl-C or end of input). Without one, such statements need Settings::yes.
  void SetAsk(std::function<std::optional<std::string>(const std::string& question)> ask);

  // True once `.quit` / `.exit` ran; RunScript stops there and the caller should exit.
  bool quit_requested() const { return quit_; }

  // Whether a line typed at the prompt is another shell's way out, alone (`exit`, `quit`,
  // `\q`, `bye`, any case, with or without `;`): the REPL then leaves as .quit does.
  static bool IsQuitWord(std::string_view line);
  // What to answer when a person types another shell's word for help alone at the prompt
  // (`help`, `\?`, `\h`, `?`): "-- .help lists ...". nullopt for anything else.
  static std::optional<std::string> AnswerBareWord(std::string_view line);

  // True when `pending` (lines typed so far, not starting with a dot-command) is not yet a
  // complete statement: the REPL shows its continuation prompt.
  static bool NeedsMoreInput(std::string_view pending);

  // Completion candidates for the word ending at the cursor (complete.cpp): `line` is the text
  // of the statement before the cursor (earlier lines of a multi-line statement included),
  // `word` its last, partial word. Candidates fit the position: dot-command names at the start
  // of a line, then their arguments (file names, table names, on|off, modes); in a statement,
  // the keywords that can follow the word before (upper-case, matched case-insensitively),
  // table names (quoted when the word starts with '"'; after `"T".` T's indexes) where a table
  // goes, and attribute names where one goes: the key attributes of the table the statement
  // names, the names its items hold (a sample), and those seen in this session's results.
  std::vector<std::string> Complete(std::string_view line, std::string_view word);

  // Asks the running statement to stop (async-signal-safe: only sets a flag). The statement
  // stops at its next operation or page with "Error: Interrupted" and changes nothing more.
  static void Interrupt();
  // Clears a pending interrupt (the REPL calls it before running input). Once Terminate ran,
  // the interrupt stays.
  static void ClearInterrupt();
  // Asks the process to end (SIGTERM, SIGHUP; async-signal-safe): Interrupt(), remembered
  // until the process ends. The running statement stops as for Ctrl-C (an import imports
  // nothing, an export leaves FILE as it was, each said out loud); the caller then reads no
  // more input, runs Finish() (an open transaction is discarded and said so) and ends by the
  // signal.
  static void Terminate(int signal);
  // The signal passed to Terminate, 0 before.
  static int termination_signal();
  // The flag Interrupt sets and ClearInterrupt clears, for what must stop with a statement (an
  // HTTP client's requests in flight).
  static const std::atomic<bool>* interrupt_flag();

  struct State;  // defined in session_state.h; dot-command and statement code share it

 private:
  Backend& db_;
  std::string db_path_;
  Sink& sink_;
  Settings settings_;
  bool quit_ = false;
  std::unique_ptr<State> state_;
};

// Reads the whole file at `path` (core/file.h).
using keyhole::ReadWholeFile;

}  // namespace keyhole::shell
