// The interactive REPL on libedit (see repl.h).
//
// Why libedit's native API (<histedit.h>) and not its readline emulation: Ctrl-C and
// completion both need control the emulation does not give reliably.
//  - Ctrl-C. libedit's own signal handling (EL_SIGNAL, which the readline emulation turns on
//    through rl_catch_signals) restores the previous SIGINT disposition and re-raises the
//    signal with kill(0, ...) to the whole process group, which kills the shell when that
//    disposition is SIG_DFL. And its built-in reader retries a read() interrupted by a signal
//    once, so the first Ctrl-C would be swallowed. Here EL_SIGNAL stays off, our SIGINT handler
//    (sigaction, SA_RESTART, no SA_RESETHAND) only sets flags, and our own EL_GETCFN reader
//    waits with ppoll() under a mask that lets SIGINT through only while waiting, so a Ctrl-C
//    always ends el_gets() at once with count -1 and the REPL discards the input.
//  - Completion. An EL_ADDFN function bound to Tab sees the line before the cursor and edits
//    it with el_deletestr/el_insertstr, so Session::Complete decides the candidates (keywords
//    upper-case even when the word was typed in lower case) instead of a filename completer.
//
// libedit is opened with dlopen() when the prompt starts, not linked: a shell that runs -c, -f
// or a pipe never maps it. With libtinfo, libbsd and libmd it took about 1.2 ms of every
// process start (a quarter of the time to a first result). Only <histedit.h>'s declarations
// are used at build time, for the types of the functions looked up.
#include "shell/repl.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <histedit.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <clocale>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <cwchar>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/strings.h"
#include "core/utf8.h"

namespace keyhole::shell {
namespace {

// The libedit functions the REPL calls, looked up in libedit.so.2 (see the top of this file).
struct LibEdit {
  decltype(&::el_init) el_init = nullptr;
  decltype(&::el_end) el_end = nullptr;
  decltype(&::el_gets) el_gets = nullptr;
  decltype(&::el_set) el_set = nullptr;
  decltype(&::el_wset) el_wset = nullptr;
  decltype(&::el_get) el_get = nullptr;
  decltype(&::el_source) el_source = nullptr;
  decltype(&::el_line) el_line = nullptr;
  decltype(&::el_insertstr) el_insertstr = nullptr;
  decltype(&::el_deletestr) el_deletestr = nullptr;
  decltype(&::el_cursor) el_cursor = nullptr;
  decltype(&::history_init) history_init = nullptr;
  decltype(&::history_end) history_end = nullptr;
  decltype(&::history) history = nullptr;

  // Opens the library once (it stays loaded). Empty on success, else what went wrong.
  std::string Load() {
    void* h = ::dlopen("libedit.so.2", RTLD_NOW | RTLD_LOCAL);
    if (h == nullptr) return ::dlerror();
    std::string missing;
    auto get = [&](auto* fn, const char* name) {
      *fn = reinterpret_cast<std::remove_pointer_t<decltype(fn)>>(::dlsym(h, name));
      if (*fn == nullptr) missing += std::string(missing.empty() ? "" : ", ") + name;
    };
    get(&el_init, "el_init");
    get(&el_end, "el_end");
    get(&el_gets, "el_gets");
    get(&el_set, "el_set");
    get(&el_wset, "el_wset");
    get(&el_get, "el_get");
    get(&el_source, "el_source");
    get(&el_line, "el_line");
    get(&el_insertstr, "el_insertstr");
    get(&el_deletestr, "el_deletestr");
    get(&el_cursor, "el_cursor");
    get(&history_init, "history_init");
    get(&history_end, "history_end");
    get(&history, "history");
    return missing.empty() ? std::string() : "libedit.so.2 lacks " + missing;
  }
};

LibEdit lib;  // filled by RunRepl before any callback can run

constexpr int kHistorySize = 1000;

volatile sig_atomic_t g_sigint = 0;  // set by OnSigint, cleared before each line and statement

void OnSigint(int) {
  g_sigint = 1;
  Session::Interrupt();  // stops a running statement; cleared before the next one runs
}

// What the libedit callbacks (prompt, reader, completion) reach through EL_CLIENTDATA.
struct ReplState {
  Session* session;
  const char* prompt;
  int fd;
  const std::string* pending;  // the earlier lines of the statement being typed
};

ReplState* StateOf(EditLine* el) {
  void* data = nullptr;
  lib.el_get(el, EL_CLIENTDATA, &data);
  return static_cast<ReplState*>(data);
}

char* Prompt(EditLine* el) { return const_cast<char*>(StateOf(el)->prompt); }

// EL_GETCFN: reads one character. Returns 1 with *out set, 0 at end of input (and once the
// process was asked to end: SIGTERM, SIGHUP), -1 with errno EINTR after a Ctrl-C. Those
// signals are blocked except inside ppoll(), so one that arrives between the flag check and
// the wait still ends the wait. The read after the wait is non-blocking and still under the
// mask: a Ctrl-C typed between the two makes the terminal flush its input (ISIG without
// NOFLSH), and a blocking read of the character ppoll saw would then wait for a key that
// never comes, with the Ctrl-C already handled (the history search hung this way).
int ReadChar(EditLine* el, wchar_t* out) {
  const int fd = StateOf(el)->fd;
  std::mbstate_t state{};
  sigset_t stops, old_mask;
  sigemptyset(&stops);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&stops, sig);
  while (true) {
    pthread_sigmask(SIG_BLOCK, &stops, &old_mask);
    sigset_t wait_mask = old_mask;
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigdelset(&wait_mask, sig);
    int ready = 0;
    if (!g_sigint && !Session::termination_signal()) {
      pollfd p{fd, POLLIN, 0};
      ready = ppoll(&p, 1, nullptr, &wait_mask);
    }
    const int wait_errno = errno;
    char byte = 0;
    ssize_t n = -1;
    int read_errno = 0;
    if (ready > 0 && !g_sigint && !Session::termination_signal()) {
      const int flags = ::fcntl(fd, F_GETFL);
      if (flags >= 0 && (flags & O_NONBLOCK) == 0) ::fcntl(fd, F_SETFL, flags | O_NONBLOCK);
      n = read(fd, &byte, 1);
      read_errno = errno;
      if (flags >= 0 && (flags & O_NONBLOCK) == 0) ::fcntl(fd, F_SETFL, flags);
    }
    pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);
    if (Session::termination_signal()) {
      *out = L'\0';
      return 0;
    }
    if (g_sigint) {
      *out = L'\0';
      errno = EINTR;
      return -1;
    }
    if (ready < 0) {
      if (wait_errno == EINTR) continue;  // another signal (SIGWINCH, SIGCONT)
      errno = wait_errno;
      return -1;
    }
    if (n < 0) {
      // EAGAIN: the input was flushed; the next wait lets a pending Ctrl-C in.
      if (read_errno == EINTR || read_errno == EAGAIN) continue;
      errno = read_errno;
      return -1;
    }
    if (n == 0) {
      *out = L'\0';
      return 0;
    }
    wchar_t wc;
    const size_t used = std::mbrtowc(&wc, &byte, 1, &state);
    if (used == static_cast<size_t>(-2)) continue;  // inside a multibyte character
    if (used == static_cast<size_t>(-1)) {          // invalid byte: drop it
      state = {};
      continue;
    }
    *out = wc;
    return 1;
  }
}

// Characters that end a word for completion ('.' too, so `"App".by` completes `by`).
bool IsWordBreak(char c) { return std::strchr(" \t\n()[]{},;:=<>!+-*/%|&'.", c) != nullptr; }

// Where the word before the cursor starts in `line` (the text before the cursor): at the
// opening quote of an unterminated "name", at the '.' of a dot-command, else after the last
// word break; and a word right after `"T".` includes it (Session::Complete lists T's indexes
// for a word `"T".` or `"T"."pre`).
size_t WordStart(std::string_view line) {
  // A dot-command's argument (a file path such as samples/social/schema.sql): since the last
  // blank.
  const size_t first = line.find_first_not_of(" \t");
  if (first != std::string_view::npos && line[first] == '.') {
    const size_t blank = line.find_last_of(" \t");
    if (blank != std::string_view::npos && blank > first) return blank + 1;
  }
  bool in_single = false, in_double = false;
  size_t quote = 0;                                // the open quote of the current "name"
  size_t last_open = 0, last_close = line.size();  // the last closed "name"
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (in_single) {
      in_single = c != '\'';
    } else if (in_double) {
      if (c == '"') {
        in_double = false;
        last_open = quote;
        last_close = i;
      }
    } else if (c == '\'') {
      in_single = true;
    } else if (c == '"') {
      in_double = true;
      quote = i;
    }
  }
  size_t start = line.size();
  if (in_double) {
    start = quote;
  } else {
    while (start > 0 && !IsWordBreak(line[start - 1])) --start;
  }
  if (start >= 2 && line[start - 1] == '.' && last_close == start - 2) return last_open;
  if (start > 0 && line[start - 1] == '.' && line.find_first_not_of(" \t") == start - 1) --start;
  return start;
}

// Characters (not bytes) in UTF-8 text: el_deletestr counts characters.
int CharCount(std::string_view s) { return static_cast<int>(utf8::CountCharacters(s)); }

bool StartsWithIgnoreCase(std::string_view s, std::string_view prefix) {
  return AsciiStartsWithIgnoringCase(s, prefix);
}

// Prints candidates in columns below the line (libedit redraws the prompt and line after).
void ListCandidates(const std::vector<std::string>& candidates) {
  size_t width = 0;
  for (const auto& c : candidates) width = std::max<size_t>(width, CharCount(c));
  width += 2;
  winsize ws{};
  const size_t columns =
      ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 ? ws.ws_col : 80;
  const size_t per_row = std::max<size_t>(1, columns / width);
  std::string out = "\n";
  for (size_t i = 0; i < candidates.size(); ++i) {
    out += candidates[i];
    if ((i + 1) % per_row == 0 || i + 1 == candidates.size()) {
      out += '\n';
    } else {
      out.append(width - CharCount(candidates[i]), ' ');
    }
  }
  std::fputs(out.c_str(), ::isatty(STDOUT_FILENO) ? stdout : stderr);
}

// Tab: completes the word before the cursor with Session::Complete. One candidate replaces
// the word (plus a space unless it ends with '.' or '"'); several insert their common prefix
// when it is longer than the word, else are listed.
unsigned char CompleteWord(EditLine* el, int) {
  const LineInfo* info = lib.el_line(el);
  const std::string before(info->buffer, info->cursor);
  const std::string word = before.substr(WordStart(before));
  ReplState* state = StateOf(el);
  std::vector<std::string> candidates = state->session->Complete(*state->pending + before, word);
  if (candidates.empty()) return CC_REFRESH_BEEP;
  std::string insert;
  if (candidates.size() == 1) {
    insert = candidates[0];
    if (insert.back() != '.' && insert.back() != '"' && insert.back() != '/') insert += ' ';
  } else {
    std::string prefix = candidates[0];
    for (const auto& c : candidates) {
      size_t n = 0;
      while (n < prefix.size() && n < c.size() && prefix[n] == c[n]) ++n;
      prefix.resize(n);
    }
    prefix.resize(utf8::Boundary(candidates[0], prefix.size()));  // whole characters
    if (prefix.size() > word.size() && StartsWithIgnoreCase(prefix, word)) {
      insert = prefix;
    } else {
      ListCandidates(candidates);
      return CC_REDISPLAY;
    }
  }
  lib.el_deletestr(el, CharCount(word));
  lib.el_insertstr(el, insert.c_str());
  return CC_REFRESH;
}

// Ctrl-D: end of input on an empty line (without the "^D" libedit's em-delete-or-list
// prints), else deletes the character under the cursor.
unsigned char EofOrDelete(EditLine* el, int) {
  const LineInfo* info = lib.el_line(el);
  if (info->buffer == info->lastchar) return CC_EOF;
  if (info->cursor == info->lastchar) return CC_ERROR;
  lib.el_cursor(el, 1);
  lib.el_deletestr(el, 1);
  return CC_REFRESH;
}

}  // namespace

int RunRepl(Session& session, const ReplOptions& options) {
  static const std::string load_error = lib.Load();
  if (!load_error.empty()) {
    std::fprintf(stderr,
                 "keyhole: the interactive prompt needs libedit (Debian: apt install libedit2): "
                 "%s\nkeyhole: statements still run from -c, -f FILE or standard input.\n",
                 load_error.c_str());
    return 1;
  }
  // libedit decodes input by the locale's character set: UTF-8 input needs LC_CTYPE set.
  std::setlocale(LC_CTYPE, "");

  struct sigaction on_sigint {};
  on_sigint.sa_handler = OnSigint;
  sigemptyset(&on_sigint.sa_mask);
  on_sigint.sa_flags = SA_RESTART;  // ReadChar's ppoll() is interrupted regardless
  struct sigaction old_sigint {};
  sigaction(SIGINT, &on_sigint, &old_sigint);

  HistEvent ev;
  History* history_list = lib.history_init();
  lib.history(history_list, &ev, H_SETSIZE, kHistorySize);
  lib.history(history_list, &ev, H_SETUNIQUE, 1);
  if (!options.history_path.empty()) {
    lib.history(history_list, &ev, H_LOAD, options.history_path.c_str());  // may not exist yet
  }

  // NAME> ; NAME*> while BEGIN ... COMMIT is open (psql's =*>); ...> aligned under NAME>.
  const std::string prompt = options.prompt_name + "> ";
  const std::string transaction_prompt = options.prompt_name + "*> ";
  const std::string continuation_prompt =
      std::string(options.prompt_name.size() > 4 ? options.prompt_name.size() - 4 : 0, ' ') +
      "...> ";
  std::string pending;  // lines of an incomplete statement, each ending with '\n'
  ReplState state{&session, prompt.c_str(), STDIN_FILENO, &pending};
  // The prompt, the banner and the line being edited go to the terminal: standard output when it
  // is one, else standard error (`keyhole db > out.txt` keeps the file for results).
  std::FILE* term = ::isatty(STDOUT_FILENO) ? stdout : stderr;
  EditLine* el = lib.el_init("keyhole", stdin, term, stderr);
  lib.el_set(el, EL_CLIENTDATA, &state);
  lib.el_set(el, EL_EDITOR, "emacs");
  lib.el_set(el, EL_SIGNAL, 0);  // see the top of this file
  lib.el_set(el, EL_GETCFN, ReadChar);
  lib.el_set(el, EL_PROMPT, Prompt);
  lib.el_set(el, EL_HIST, lib.history, history_list);
  // el_wset: el_set's EL_ADDFN leaks the copies of name and help it makes (a known libedit
  // leak, which LeakSanitizer reports); el_wset keeps pointers to these static strings.
  lib.el_wset(el, EL_ADDFN, L"keyhole-complete", L"Complete the word before the cursor",
              CompleteWord);
  lib.el_set(el, EL_BIND, "^I", "keyhole-complete", nullptr);
  lib.el_wset(el, EL_ADDFN, L"keyhole-eof-or-delete", L"End of input or delete", EofOrDelete);
  lib.el_set(el, EL_BIND, "^D", "keyhole-eof-or-delete", nullptr);
  lib.el_source(el, nullptr);  // ~/.editrc (or $EDITRC) may rebind keys

  auto remember = [&](const std::string& entry) {
    lib.history(history_list, &ev, H_ENTER, entry.c_str());
    // Saved after every entry so that a killed shell keeps its history.
    if (!options.history_path.empty()) {
      lib.history(history_list, &ev, H_SAVE, options.history_path.c_str());
    }
  };
  bool failed = false;
  auto run = [&](const std::string& text) {
    Session::ClearInterrupt();
    g_sigint = 0;
    failed |= !session.RunScript(text);
    std::fflush(stdout);
    Session::ClearInterrupt();
  };

  // A question the session asks (a DROP TABLE on an endpoint): its answer on a line of its own,
  // not kept in the history. Ctrl-C or Ctrl-D: no answer.
  std::string question;
  session.SetAsk([&](const std::string& q) -> std::optional<std::string> {
    question = q;
    const char* saved = state.prompt;
    state.prompt = question.c_str();
    g_sigint = 0;
    lib.el_set(el, EL_PREP_TERM, 1);
    int count = 0;
    const char* got = lib.el_gets(el, &count);
    state.prompt = saved;
    if (got == nullptr || count <= 0) {
      std::fputs("\n", term);
      std::fflush(term);
      Session::ClearInterrupt();
      return std::nullopt;
    }
    return std::string(got);
  });

  std::fputs(options.banner.c_str(), term);
  std::fflush(term);
  while (!session.quit_requested()) {
    state.prompt = !pending.empty()           ? continuation_prompt.c_str()
                   : session.in_transaction() ? transaction_prompt.c_str()
                                              : prompt.c_str();
    g_sigint = 0;
    // Raw mode before el_gets prints the prompt (el_gets itself switches only at its first
    // read): keys typed once the prompt shows are then never echoed or eaten by the cooked
    // tty (a ^D there would be an EOF that libedit never sees).
    lib.el_set(el, EL_PREP_TERM, 1);
    int count = 0;
    const char* got = lib.el_gets(el, &count);
    if (got == nullptr || count <= 0) {
      // A Ctrl-C ends el_gets with count -1, or, inside an incremental search (Ctrl-R), with
      // the search's end-of-input (count 0): either way, only the line is discarded.
      const bool interrupted = g_sigint != 0;
      std::fputs("\n", term);
      std::fflush(term);
      if (!interrupted) {  // Ctrl-D on an empty line, input is gone, or SIGTERM / SIGHUP
        if (pending.find_first_not_of(" \t\r\n") != std::string::npos) {
          std::fputs("-- the statement being typed was not run (it had no ';')\n", stderr);
        }
        break;
      }
      pending.clear();  // Ctrl-C: discard what was typed
      continue;
    }
    std::string line(got);  // count is in characters, not bytes
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
    if (pending.empty()) {
      const size_t first = line.find_first_not_of(" \t");
      if (first == std::string::npos) continue;
      if (line[first] == '.') {  // a dot-command: its line alone
        remember(line.substr(0, line.find_last_not_of(" \t") + 1));
        run(line);
        continue;
      }
      if (Session::IsQuitWord(line)) {  // psql's `\q`, `exit`, `quit`: as .quit
        remember(line);
        run(".quit");
        continue;
      }
      if (std::optional<std::string> answer = Session::AnswerBareWord(line)) {
        std::fputs(answer->c_str(), term);  // `help`, `\?`: not PartiQL
        continue;
      }
    }
    pending += line;
    pending += '\n';
    if (Session::NeedsMoreInput(pending)) continue;
    remember(pending.substr(0, pending.size() - 1));  // the statement as typed, one entry
    run(pending);
    pending.clear();
  }

  session.SetAsk(nullptr);
  failed |= !session.Finish();  // an open transaction is discarded, and said so
  std::fflush(stdout);
  lib.el_end(el);
  lib.history_end(history_list);
  sigaction(SIGINT, &old_sigint, nullptr);
  return failed ? 1 : 0;
}

}  // namespace keyhole::shell
