// Scripts: a text of statements and dot-commands run piece by piece (.read, -f, -c, the REPL's
// input), stopped by Ctrl-C with one line saying where, and the REPL's bare words.

#include <fmt/format.h>

#include <atomic>
#include <optional>
#include <string>

#include "core/strings.h"
#include "parser/partiql.h"
#include "shell/commands.h"
#include "shell/session_state.h"

namespace keyhole::shell {

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

Status CheckScriptText(std::string_view text, std::string_view source) {
  const std::string_view head = text.substr(0, 4096);
  if (head.find('\0') == std::string_view::npos) return Status::OK();
  return Status::Validation(fmt::format(
      "{} is not a script: it holds binary data (a keyhole database? open it as keyhole {})",
      Shorten(source), Shorten(source)));
}

}  // namespace keyhole::shell
