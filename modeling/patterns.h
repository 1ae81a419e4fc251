// Access patterns as checkable code (samples/README.md): a patterns file read, its patterns run
// by a front end's runner (the shell runs them as script text with its output hidden; a
// Connection runs their PartiQL), and each one's outcome checked, as data. The shell's
// `.patterns` / `--patterns` renders the result (shell/patterns.cpp).
//
// A patterns file is a script whose statements are named by comment lines:
//
//   -- pattern: get a user's posts, newest first
//   -- rate: 500/s
//   SELECT * FROM "Social" WHERE PK = 'USER#alice' AND begins_with(SK, 'POST#') ORDER BY SK DESC;
//
//   -- refused: find users by city
//   SELECT * FROM "Social" WHERE city = 'Berlin';
//
// A marker names every statement after it up to the next marker (one statement, or a whole
// BEGIN; ...; COMMIT;). Before the first marker only comments and dot-commands may appear. A
// `-- rate:` line (N/s, /min, /h, /day; "1,000" and "1_000" read as 1000) goes right under its
// marker. The check fails when a `pattern:` needs a Scan, is refused or fails, or a `refused:`
// statement is not refused by the planner. Stateless but for the runner; thread-safe as it is.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/connection.h"
#include "modeling/usage.h"

namespace keyhole::modeling {

struct PatternBlock {
  bool expect_refusal = false;  // `-- refused:`
  std::string name;
  int line = 0;                // the marker's line
  std::string text;            // the lines after the marker, up to the next marker
  std::optional<double> rate;  // requests per second, from its `-- rate:` line
  std::string rate_text;       // as written: "500/s"
  // The rate lines that could not be read or are misplaced: their line and why (then no rate).
  std::vector<std::pair<int, std::string>> rate_errors;
};

struct PatternsFile {
  std::string preamble;  // the text before the first marker
  std::vector<PatternBlock> blocks;
};

PatternsFile ParsePatterns(std::string_view text);

// Whether a pattern's text changes data: a statement (at the start, or after a ';') that begins
// with a write's word, the API form of a write, or a dot-command that writes. Read as words, not
// parsed: a ';' inside a string may start a false one, which only asks once more.
bool PatternWrites(std::string_view text);

// The reports of one block's statements as one: the last operation, summed counts, the first
// error.
api::StatementReport CombineReports(const std::vector<api::StatementReport>& reports);

// Runs `text` (a block, from its line `first_line` of the file) and returns one report per
// statement; records its operations in `usage` when not null.
using PatternRunner = std::function<std::vector<api::StatementReport>(
    std::string_view text, int first_line, UsageLog* usage)>;

struct PatternCheckOptions {
  std::string source;    // the file's name in messages ("" : "the patterns")
  std::string endpoint;  // "" on a file of one's own; else the endpoint's URL
  // Whether patterns that write may run (on an endpoint: --yes, or a yes at the prompt). When
  // not, a pattern that writes is "not run", and a failure.
  bool writes_allowed = true;
  bool record = false;  // record each pattern's operations (for the cost plan)
};

struct PatternResult {
  std::string name;
  int line = 0;
  bool expect_refusal = false;
  std::optional<double> rate;
  std::string rate_text;
  bool rate_error = false;
  // "GetItem", "Query ×2", ... as the report shows it; "refused", "error", "-" (nothing ran),
  // "not run" (a write not allowed).
  std::string operation;
  api::StatementReport report;
  UsageLog usage;       // with options.record
  bool served = false;  // a key-addressed pattern that ran without error
  bool refused_as_expected = false;
};

struct PatternsCheck {
  std::vector<PatternResult> patterns;
  int served = 0, refused = 0;
  // Why the check failed, one message each ("\"name\" (FILE line N): ..."); empty: it passed.
  std::vector<std::string> failures;
  bool ok() const { return failures.empty(); }
};

// Runs every pattern of `file` with `run`, in order, and checks each.
PatternsCheck CheckPatterns(const PatternsFile& file, const PatternRunner& run,
                            const PatternCheckOptions& options);

// A runner of PartiQL on `connection`, recording on `recorder` (the backend `connection` runs
// on): DML and NEXT, BEGIN [BATCH] ... COMMIT / ROLLBACK. A dot-command or a statement a
// connection does not run (DDL, an API call) is reported as a ValidationException.
PatternRunner ConnectionRunner(api::Connection& connection, RecordingBackend& recorder);

}  // namespace keyhole::modeling
