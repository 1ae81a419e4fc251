// The shell's command line and its run, shared by the two programs that open a shell:
// `keyhole` (a keyhole file) and `keyhole-remote` (an endpoint: DynamoDB, a compatible engine,
// keyhole serve), which keyhole runs in its place when the command line asks for an endpoint,
// so that the file shell never loads libcurl and OpenSSL (3.4 ms of every start).
//
//   keyhole [FILE] [-f SCRIPT]... [-c STATEMENT]... [--patterns FILE]... [--bail] [--echo]
//           [--mode MODE] [--readonly] [--yes] [--version]
//           [--endpoint URL] [--region R] [--profile P] [--ca-bundle FILE]
//           [--max-attempts N] [--connect-timeout S] [--read-timeout S]
//           [--plan [--scale N] [--prices FILE]]
//
// With -f / -c the statements run in the order given and keyhole exits; without them, a REPL
// when standard input is a terminal, else a script read from standard input. The exit status
// is 1 when any statement failed (or a transaction was left open), 2 for a bad command line,
// 130 when Ctrl-C stopped a script.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/backend.h"
#include "shell/render.h"
#include "shell/session.h"

namespace keyhole::cli {

struct ShellArgs {
  std::string path = "keyhole.kh";
  bool have_path = false;
  // ('f', file), ('c', statement) or ('p', patterns file), in command-line order
  std::vector<std::pair<char, std::string>> actions;
  bool bail = false, echo = false, read_only = false, yes = false;
  std::optional<shell::OutputMode> mode;
  // An endpoint (keyhole-remote).
  std::string endpoint, region, profile, ca_bundle;
  int max_attempts = 0;
  // --plan (with --scale, --prices, and --region on a file): the --patterns files' plans.
  bool plan = false;
  shell::CostPlanSettings plan_options;
  double connect_timeout = 0, read_timeout = 0;  // seconds; 0: the defaults
};

// Parses argv into *args. Returns -1 to go on, or the exit status to end with (after --help,
// --version, or a bad command line, which it reports).
int ParseShellArgs(int argc, char** argv, ShellArgs* args);

// Whether the command line (or, without a FILE, AWS_ENDPOINT_URL_DYNAMODB / AWS_ENDPOINT_URL)
// asks for an endpoint rather than a keyhole file.
bool WantsEndpoint(const ShellArgs& args);

// How the shell presents where it runs.
struct Where {
  std::string name;    // in messages: the file's path, or the endpoint's URL
  std::string banner;  // the REPL's first line, after "keyhole VERSION — "
  std::string note;    // without a REPL: a "-- ..." line on standard error ("" for none)
  std::string prompt_name = "keyhole";  // "keyhole" or "keyhole@us-east-1"
  std::string endpoint;                 // Settings::endpoint ("" for a file)
};

// Runs the shell on `backend` (and `local`, for a keyhole file) as the command line says: the
// REPL or the scripts, with Ctrl-C, SIGTERM and SIGHUP handled. Returns the exit status.
int RunShell(const ShellArgs& args, Backend& backend, LocalControl* local, const Where& where);

// The flag that Ctrl-C sets (shell::Session::Interrupt), for an HTTP client to stop on.
const std::atomic<bool>* InterruptFlag();

}  // namespace keyhole::cli
