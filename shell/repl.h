// The interactive REPL (libedit): prompt `keyhole> ` (`keyhole@us-east-1> ` on an endpoint),
// continuation prompt `   ...> ` (aligned under it) while a statement is incomplete, questions
// the session asks (Session::SetAsk: a DROP TABLE on an endpoint) answered on a line of their own,
// persistent history (one entry per statement or dot-command), tab completion through
// Session::Complete, Ctrl-C that discards the line being typed or interrupts the running statement
// (never exits), Ctrl-D on an empty line to leave. Once Session::Terminate ran (the caller's
// SIGTERM or SIGHUP handler), the running statement stops and the loop ends as at end of input.
#pragma once

#include <string>

#include "shell/session.h"

namespace keyhole::shell {

struct ReplOptions {
  std::string banner;        // printed once at start
  std::string history_path;  // "" = no persistent history
  // The prompt: NAME> , NAME*> inside a transaction ("keyhole", or "keyhole@us-east-1" on an
  // endpoint).
  std::string prompt_name = "keyhole";
};

// Runs the interactive loop until .quit/.exit, end of input (Ctrl-D on an empty line) or
// Session::Terminate.
// Returns 0 when no statement failed, else 1. Standard input and output should be a terminal.
int RunRepl(Session& session, const ReplOptions& options);

}  // namespace keyhole::shell
