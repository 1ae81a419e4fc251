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

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "shell/render.h"
#include "storage/database.h"

namespace keyhole::shell {

// Where a session writes. Out: results and footers; Err: errors and warnings.
class Sink {
 public:
  virtual ~Sink() = default;
  virtual void Out(std::string_view text) = 0;
  virtual void Err(std::string_view text) = 0;
};

// stdout / stderr; flushes stdout before each write to stderr so a script's output keeps its
// order when both go to one terminal or file.
class StdioSink : public Sink {
 public:
  void Out(std::string_view text) override;
  void Err(std::string_view text) override;
};

// Collects both streams into strings (tests, the sqllogictest runner).
class StringSink : public Sink {
 public:
  void Out(std::string_view text) override { out.append(text); }
  void Err(std::string_view text) override { err.append(text); }
  std::string out, err;
};

// What the dot-commands set.
struct Settings {
  OutputMode mode = OutputMode::kDdb;  // main.cpp picks box on a terminal
  bool headers = true;
  bool timer = false;    // elapsed time in the footer
  bool bail = false;     // stop a script at its first failing statement
  bool echo = false;     // print each statement before running it
  int64_t pagesize = 0;  // Limit on each Query/Scan of a SELECT (0: DynamoDB's 1 MB pages only)
};

class Session {
 public:
  // `db` must outlive the session. `db_path` is shown by .help/.databases.
  Session(storage::Database& db, std::string db_path, Sink& sink);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  Settings& settings() { return settings_; }

  // Runs every statement and dot-command of `text`. `source` names the script in error
  // messages ("" for the REPL and -c); `first_line` is the line number of text's first line.
  // Returns false if anything failed; with settings().bail, stops at the first failure.
  // A last statement without its `;` still runs.
  bool RunScript(std::string_view text, std::string_view source = "", int first_line = 1);

  // Runs the named access patterns of a patterns file (`source` names it) and prints the
  // report (see patterns.cpp). Returns false when a pattern needs a Scan, is refused or fails.
  bool RunPatterns(std::string_view text, std::string_view source);

  // True once `.quit` / `.exit` ran; RunScript stops there and the caller should exit.
  bool quit_requested() const { return quit_; }

  // True when `pending` (lines typed so far, not starting with a dot-command) is not yet a
  // complete statement: the REPL shows its continuation prompt.
  static bool NeedsMoreInput(std::string_view pending);

  // Completion candidates for the word ending at the cursor: `line` is the text before the
  // cursor (of the current line), `word` its last, partial word. Candidates: keywords
  // (upper-case, matched case-insensitively), dot-commands (after a leading '.'), table names
  // (quoted when the word starts with '"'), and after `FROM "T".` or in a statement naming T:
  // T's index names and the attribute names seen in T's keys and in results of this session.
  std::vector<std::string> Complete(std::string_view line, std::string_view word);

  // Asks the running statement to stop (async-signal-safe: only sets a flag). The statement
  // stops at its next operation or page with "Error: Interrupted" and changes nothing more.
  static void Interrupt();
  // Clears a pending interrupt (the REPL calls it before running input).
  static void ClearInterrupt();

  struct State;  // defined in session.cpp; dot-command and statement code share it

 private:
  storage::Database& db_;
  std::string db_path_;
  Sink& sink_;
  Settings settings_;
  bool quit_ = false;
  std::unique_ptr<State> state_;
};

}  // namespace keyhole::shell
