// The interactive REPL (shell/repl.cpp) driven through a pseudo-terminal: each test forkpty()s
// the real `keyhole` executable (path in $KEYHOLE_BIN) on a fresh database in a fresh temp
// directory that is also its $HOME (so $HOME/.keyhole_history is the test's own), types
// keystrokes and waits for output. TERM=dumb: libedit then redraws a changed line in full
// ("\rkeyhole> SELECT "), so the text of the line appears contiguously in the output. Every
// wait has a deadline, so a hang fails the test instead of hanging it.
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <thread>

#include <gtest/gtest.h>

namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

constexpr auto kTimeout = seconds(10);

// A fresh directory, removed with everything in it.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "keyhole-repl-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) != nullptr) path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty()) fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// How the terminal keyhole runs on is set up.
struct PtyOptions {
  unsigned short rows = 40;
  unsigned short columns = 200;  // wide: no line of these tests wraps
  std::string pager;             // $PAGER ("": unset; then keyhole finds less)
  fs::path cwd;                  // the working directory ("": the test's own)
};

// `keyhole <db>` on a pseudo-terminal.
class KeyholePty {
 public:
  KeyholePty(const fs::path& home, const fs::path& db, const PtyOptions& options = {}) {
    const char* bin = std::getenv("KEYHOLE_BIN");
    if (bin == nullptr || *bin == '\0') {
      error_ = "KEYHOLE_BIN is not set";
      return;
    }
    winsize ws{};
    ws.ws_row = options.rows;
    ws.ws_col = options.columns;
    pid_ = ::forkpty(&fd_, nullptr, nullptr, &ws);
    if (pid_ < 0) {
      error_ = std::string("forkpty: ") + std::strerror(errno);
      return;
    }
    if (pid_ == 0) {  // the child: becomes keyhole
      ::setenv("HOME", home.c_str(), 1);
      ::setenv("TERM", "dumb", 1);
      ::setenv("LC_ALL", "C.UTF-8", 1);
      ::unsetenv("KEYHOLE_HISTORY");
      ::unsetenv("EDITRC");
      if (options.pager.empty()) {
        ::unsetenv("PAGER");
      } else {
        ::setenv("PAGER", options.pager.c_str(), 1);
      }
      if (!options.cwd.empty() && ::chdir(options.cwd.c_str()) != 0) ::_exit(126);
      ::execl(bin, "keyhole", db.c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
    ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) | O_NONBLOCK);
  }

  ~KeyholePty() {
    if (pid_ > 0 && !exited_) {
      ::kill(pid_, SIGKILL);
      int status;
      ::waitpid(pid_, &status, 0);
    }
    if (fd_ >= 0) ::close(fd_);
  }

  const std::string& error() const { return error_; }
  // Everything read so far.
  const std::string& output() const { return output_; }

  // Waits until `text` appears in output not yet matched by an earlier Expect, then marks
  // everything up to the end of the match as matched.
  ::testing::AssertionResult Expect(std::string_view text, Clock::duration timeout = kTimeout) {
    const auto deadline = Clock::now() + timeout;
    while (true) {
      size_t at = output_.find(text, matched_);
      if (at != std::string::npos) {
        matched_ = at + text.size();
        return ::testing::AssertionSuccess();
      }
      if (!ReadSome(deadline)) {
        return ::testing::AssertionFailure()
               << "did not see " << ::testing::PrintToString(std::string(text))
               << (eof_ ? " before the terminal closed" : " in time")
               << "; unmatched output: " << ::testing::PrintToString(output_.substr(matched_));
      }
    }
  }

  // Output not yet matched by Expect, after reading whatever else is there within `wait`.
  std::string Unmatched(Clock::duration wait = milliseconds(0)) {
    const auto deadline = Clock::now() + wait;
    while (ReadSome(deadline)) {
    }
    return output_.substr(matched_);
  }

  void Send(std::string_view keys) {
    while (!keys.empty()) {
      ssize_t n = ::write(fd_, keys.data(), keys.size());
      if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
        pollfd p{fd_, POLLOUT, 0};
        ::poll(&p, 1, 100);
        continue;
      }
      if (n <= 0) return;
      keys.remove_prefix(static_cast<size_t>(n));
    }
  }

  // Sends `sig` to the process.
  void Signal(int sig) { ::kill(pid_, sig); }

  // Waits for the process to end; its exit status, 128 + the signal that ended it (as a shell
  // reports it), or -1 if it did not end in time.
  int WaitExit(Clock::duration timeout = kTimeout) {
    const auto deadline = Clock::now() + timeout;
    while (true) {
      int status = 0;
      pid_t r = ::waitpid(pid_, &status, WNOHANG);
      if (r == pid_) {
        exited_ = true;
        if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      }
      if (Clock::now() >= deadline) return -1;
      // Drains the terminal (a child blocked on a full terminal cannot exit) and waits at
      // most 50 ms for more.
      if (!ReadSome(std::min(deadline, Clock::now() + milliseconds(50))) && eof_) {
        pollfd none{-1, 0, 0};
        ::poll(&none, 0, 10);  // the terminal is closed; the process is about to be reaped
      }
    }
  }

 private:
  // Reads what is available before `deadline`; false when nothing came (timeout or closed).
  bool ReadSome(Clock::time_point deadline) {
    if (eof_) return false;
    while (true) {
      char buf[4096];
      ssize_t n = ::read(fd_, buf, sizeof buf);
      if (n > 0) {
        output_.append(buf, static_cast<size_t>(n));
        return true;
      }
      if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {  // EIO: the child is gone
        eof_ = true;
        return false;
      }
      auto left = std::chrono::duration_cast<milliseconds>(deadline - Clock::now()).count();
      if (left <= 0) return false;
      pollfd p{fd_, POLLIN, 0};
      ::poll(&p, 1, static_cast<int>(left));
    }
  }

  pid_t pid_ = -1;
  int fd_ = -1;
  bool exited_ = false, eof_ = false;
  std::string output_;
  size_t matched_ = 0;
  std::string error_;
};

class ReplPtyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    SkipWithoutPty();
    ASSERT_FALSE(dir_.path().empty()) << "mkdtemp failed";
  }

  // Starts keyhole on <tmp>/t.kh and waits for its first prompt.
  std::unique_ptr<KeyholePty> Start(const PtyOptions& options = {}) {
    auto pty = std::make_unique<KeyholePty>(dir_.path(), dir_.path() / "t.kh", options);
    EXPECT_EQ(pty->error(), "");
    EXPECT_TRUE(pty->Expect("keyhole> "));
    return pty;
  }

  // Skips the test where this machine has no pseudo-terminals (a bare container).
  void SkipWithoutPty() {
    int fd = ::posix_openpt(O_RDWR | O_NOCTTY);
    if (fd < 0) GTEST_SKIP() << "no pseudo-terminals here: " << std::strerror(errno);
    ::close(fd);
  }

  fs::path HistoryFile() const { return dir_.path() / ".keyhole_history"; }

  // Starts keyhole, has it `.read` a script of 400,000 quiet SELECTs (its path in *script),
  // and returns 500 ms later, with the script still running. Null when the script could not be
  // written (a failure is recorded).
  std::unique_ptr<KeyholePty> StartLongRead(fs::path* script) {
    *script = dir_.path() / "big.sql";
    FILE* f = std::fopen(script->c_str(), "w");
    if (f == nullptr) {
      ADD_FAILURE() << "cannot write " << *script;
      return nullptr;
    }
    std::fputs(".quiet on\n", f);
    for (int i = 0; i < 400000; ++i) std::fputs("SELECT * FROM \"Txn\" WHERE pk = 'a';\n", f);
    std::fclose(f);
    auto pty = Start();
    pty->Send("CREATE TABLE \"Txn\" (pk S);\r");
    EXPECT_TRUE(pty->Expect("keyhole> "));
    pty->Send(".read " + script->string() + "\r");
    std::this_thread::sleep_for(milliseconds(500));
    return pty;
  }

  TempDir dir_;
};

TEST_F(ReplPtyTest, ShowsPromptAndQuitExitsWithZero) {
  auto pty = Start();
  pty->Send(".quit\r");
  EXPECT_EQ(pty->WaitExit(), 0) << pty->output();
}

TEST_F(ReplPtyTest, CtrlDOnEmptyLineExitsWithZero) {
  auto pty = Start();
  pty->Send("\x04");
  EXPECT_EQ(pty->WaitExit(), 0) << pty->output();
}

TEST_F(ReplPtyTest, MultiLineStatementShowsContinuationPromptThenRuns) {
  auto pty = Start();
  pty->Send("CREATE TABLE \"Orders\"\r");
  ASSERT_TRUE(pty->Expect("   ...> "));
  pty->Send("(pk S);\r");
  ASSERT_TRUE(pty->Expect("keyhole> "));
  pty->Send("SHOW TABLES;\r");
  ASSERT_TRUE(pty->Expect("SHOW TABLES;"));  // the echo
  ASSERT_TRUE(pty->Expect("Orders"));
  ASSERT_TRUE(pty->Expect("keyhole> "));
  pty->Send(".exit\r");
  EXPECT_EQ(pty->WaitExit(), 0) << pty->output();
  EXPECT_EQ(pty->output().find("Error"), std::string::npos) << pty->output();
}

TEST_F(ReplPtyTest, HistoryPersistsAcrossRunsOneEntryPerStatement) {
  {
    auto pty = Start();
    pty->Send("CREATE TABLE \"Hist\"\r");
    ASSERT_TRUE(pty->Expect("   ...> "));
    pty->Send("(pk S);\r");
    ASSERT_TRUE(pty->Expect("keyhole> "));
    pty->Send("SHOW TABLES;\r");
    ASSERT_TRUE(pty->Expect("Hist"));
    ASSERT_TRUE(pty->Expect("keyhole> "));
    pty->Send("\x04");
    ASSERT_EQ(pty->WaitExit(), 0) << pty->output();
  }
  EXPECT_TRUE(fs::exists(HistoryFile()));
  auto pty = Start();
  pty->Send("\x1b[A");  // Up: the last statement
  ASSERT_TRUE(pty->Expect("keyhole> SHOW TABLES;"));
  pty->Send("\x1b[A");  // Up: the two-line statement, as one entry
  ASSERT_TRUE(pty->Expect("keyhole> CREATE TABLE \"Hist\""));
  ASSERT_TRUE(pty->Expect("(pk S);"));
  pty->Send("\x1b[B");  // Down: back to SHOW TABLES;
  ASSERT_TRUE(pty->Expect("keyhole> SHOW TABLES;"));
  pty->Send("\r");  // runs the recalled statement
  ASSERT_TRUE(pty->Expect("Hist"));
  ASSERT_TRUE(pty->Expect("keyhole> "));
  pty->Send(".quit\r");
  EXPECT_EQ(pty->WaitExit(), 0) << pty->output();
}

TEST_F(ReplPtyTest, TabCompletesKeywordsAndTableNames) {
  auto pty = Start();
  pty->Send("CREATE TABLE \"Orders\" (pk S);\r");
  ASSERT_TRUE(pty->Expect("keyhole> "));
  pty->Send("SEL\t");
  ASSERT_TRUE(pty->Expect("keyhole> SELECT "));
  pty->Send("* FROM \"Ord\t");
  ASSERT_TRUE(pty->Expect("keyhole> SELECT * FROM \"Orders\""));
  pty->Send(" WHERE pk = 'a';\r");
  ASSERT_TRUE(pty->Expect("keyhole> "));
  pty->Send("sel\t");  // lower case completes to the keyword
  ASSERT_TRUE(pty->Expect("keyhole> SELECT "));
  pty->Send("\x03");
  ASSERT_TRUE(pty->Expect("keyhole> "));
  pty->Send(".quit\r");
  EXPECT_EQ(pty->WaitExit(), 0) << pty->output();
  EXPECT_EQ(pty->output().find("Error"), std::string::npos) << pty->output();
}

// Ctrl-C inside a Ctrl-R history search ends the search only: keyhole and an open transaction
// stay.
TEST_F(ReplPtyTest, CtrlCDuringAHistorySearchCancelsTheSearchOnly) {
  auto pty = Start();
  pty->Send("BEGIN;\r");
  ASSERT_TRUE(pty->Expect("keyhole*> "));
  pty->Send("\x12");
  ASSERT_TRUE(pty->Expect("bck:"));
  pty->Send("SEL");
  pty->Send("\x03");
  ASSERT_TRUE(pty->Expect("keyhole*> "));
  pty->Send("ROLLBACK;\r");
  ASSERT_TRUE(pty->Expect("-- rolled back"));
  pty->Send(".quit\r");
  EXPECT_EQ(pty->WaitExit(), 0) << pty->output();
  EXPECT_EQ(pty->output().find("the input ended"), std::string::npos) << pty->output();
}

TEST_F(ReplPtyTest, CtrlCDiscardsTheStatementBeingTyped) {
  auto pty = Start();
  pty->Send("CREATE TABLE \"Orders\" (pk S);\r");
  ASSERT_TRUE(pty->Expect("keyhole> "));
  // A half-typed line.
  pty->Send("SELECT * FROM");
  ASSERT_TRUE(pty->Expect("SELECT * FROM"));
  pty->Send("\x03");
  ASSERT_TRUE(pty->Expect("keyhole> "));
  // A pending continuation line and a half-typed one.
  pty->Send("SELECT *\r");
  ASSERT_TRUE(pty->Expect("   ...> "));
  pty->Send("FROM \"Ord");
  ASSERT_TRUE(pty->Expect("FROM \"Ord"));
  pty->Send("\x03");
  ASSERT_TRUE(pty->Expect("keyhole> "));
  // The shell keeps going and nothing of the discarded input is left over.
  pty->Send("SHOW TABLES;\r");
  ASSERT_TRUE(pty->Expect("Orders"));
  ASSERT_TRUE(pty->Expect("keyhole> "));
  EXPECT_EQ(pty->output().find("Error"), std::string::npos) << pty->output();
  EXPECT_EQ(pty->output().find("...> SHOW"), std::string::npos) << pty->output();
  pty->Send("\x04");
  EXPECT_EQ(pty->WaitExit(), 0) << pty->output();
}

TEST_F(ReplPtyTest, AnOpenTransactionShowsInThePromptAndCtrlDSaysItIsDiscarded) {
  auto pty = Start();
  pty->Send("CREATE TABLE \"Txn\" (pk S);\r");
  ASSERT_TRUE(pty->Expect("keyhole> "));
  pty->Send("BEGIN;\r");
  ASSERT_TRUE(pty->Expect("keyhole*> "));
  pty->Send("INSERT INTO \"Txn\" VALUE {'pk': 'a'};\r");
  ASSERT_TRUE(pty->Expect("-- queued as TransactStatements[0]"));
  ASSERT_TRUE(pty->Expect("keyhole*> "));
  // A read among writes is refused when it is queued; the transaction stays open.
  pty->Send("SELECT * FROM \"Txn\" WHERE pk = 'a';\r");
  ASSERT_TRUE(pty->Expect("takes all reads (SELECT) or all writes"));
  ASSERT_TRUE(pty->Expect("keyhole*> "));
  pty->Send("\x04");
  ASSERT_TRUE(pty->Expect("the BEGIN was not committed; its 1 queued statement was discarded"));
  EXPECT_EQ(pty->WaitExit(), 1) << pty->output();
}

TEST_F(ReplPtyTest, CtrlDWithAHalfTypedStatementSaysItWasNotRun) {
  auto pty = Start();
  pty->Send("SHOW TABLES\r");
  ASSERT_TRUE(pty->Expect("   ...> "));
  pty->Send("\x04");
  ASSERT_TRUE(pty->Expect("the statement being typed was not run"));
  EXPECT_EQ(pty->WaitExit(), 0) << pty->output();
}

// psql's and other shells' ways out leave keyhole at its prompt, as .quit does.
TEST_F(ReplPtyTest, ExitQuitAndBackslashQLeave) {
  for (const char* word : {"exit\r", "quit;\r", "\\q\r", "BYE\r"}) {
    auto pty = Start();
    pty->Send(word);
    EXPECT_EQ(pty->WaitExit(), 0) << word << pty->output();
    EXPECT_EQ(pty->output().find("Error"), std::string::npos) << pty->output();
  }
}

TEST_F(ReplPtyTest, WordsFromOtherShellsAreAnswered) {
  auto pty = Start();
  pty->Send("help\r");
  ASSERT_TRUE(pty->Expect("-- .help lists the commands"));
  ASSERT_TRUE(pty->Expect("keyhole> "));
  pty->Send(".help SELECT\r");
  ASSERT_TRUE(pty->Expect("Example:"));
  pty->Send(".quit\r");
  EXPECT_EQ(pty->WaitExit(), 0) << pty->output();
  EXPECT_EQ(pty->output().find("...>"), std::string::npos) << pty->output();
}

TEST_F(ReplPtyTest, TabCompletesFileNamesOfDotCommands) {
  fs::create_directories(dir_.path() / "samples" / "social");
  FILE* f = std::fopen((dir_.path() / "samples" / "social" / "schema.sql").c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::fputs("CREATE TABLE \"Social\" (PK S, SK S);\n", f);
  std::fclose(f);
  PtyOptions options;
  options.cwd = dir_.path();
  auto pty = Start(options);
  pty->Send(".read sam\t");
  ASSERT_TRUE(pty->Expect(".read samples/"));
  pty->Send("so\t");
  ASSERT_TRUE(pty->Expect(".read samples/social/"));
  pty->Send("sc\t");
  ASSERT_TRUE(pty->Expect(".read samples/social/schema.sql "));
  pty->Send("\r");
  ASSERT_TRUE(pty->Expect("-- table Social created"));
  ASSERT_TRUE(pty->Expect("keyhole> "));
  pty->Send(".quit\r");
  EXPECT_EQ(pty->WaitExit(), 0) << pty->output();
}

// A hint is word-wrapped to the terminal, its lines after the first under its text.
TEST_F(ReplPtyTest, HintsWrapToTheTerminal) {
  PtyOptions options;
  options.columns = 60;
  auto pty = Start(options);
  pty->Send("CREATE TABLE \"Wide\" (pk S);\r");
  ASSERT_TRUE(pty->Expect("keyhole> "));
  pty->Send("SELECT * FROM \"Wide\" WHERE colour = 'red';\r");
  ASSERT_TRUE(pty->Expect("  hint: "));
  ASSERT_TRUE(pty->Expect("keyhole> "));
  pty->Send(".quit\r");
  EXPECT_EQ(pty->WaitExit(), 1) << pty->output();  // a statement failed
  const std::string out = pty->output();
  const size_t hint = out.find("  hint: ");
  ASSERT_NE(hint, std::string::npos) << out;
  // Every line of the hint fits in 60 columns, and there is more than one.
  size_t lines = 0;
  for (size_t at = hint; at < out.size();) {
    size_t end = out.find("\r\n", at);
    if (end == std::string::npos) break;
    const std::string line = out.substr(at, end - at);
    if (line.starts_with("keyhole>")) break;
    EXPECT_LE(line.size(), 60u) << line;
    ++lines;
    at = end + 2;
    if (!out.substr(at).starts_with("        ")) break;
  }
  EXPECT_GT(lines, 1u) << out;
}

TEST_F(ReplPtyTest, ResultsWiderThanTheTerminalPrintInLineMode) {
  PtyOptions options;
  options.columns = 60;
  auto pty = Start(options);
  pty->Send("CREATE TABLE \"Wide\" (pk S);\r");
  ASSERT_TRUE(pty->Expect("keyhole> "));
  pty->Send(
      "INSERT INTO \"Wide\" VALUE {'pk': 'a', 'first': 'aaaaaaaaaaaaaaaaaaaa', 'second': "
      "'bbbbbbbbbbbbbbbbbbbb', 'third': 'cccccccccccccccccccc'};\r");
  ASSERT_TRUE(pty->Expect("keyhole> "));
  pty->Send("SELECT * FROM \"Wide\" WHERE pk = 'a';\r");
  ASSERT_TRUE(pty->Expect("  second = bbbbbbbbbbbbbbbbbbbb"));
  ASSERT_TRUE(pty->Expect("-- 1 returned, 1 read"));
  ASSERT_TRUE(pty->Expect("keyhole> "));
  // .expanded off keeps the grid.
  pty->Send(".expanded off\r");
  ASSERT_TRUE(pty->Expect("keyhole> "));
  pty->Send("SELECT * FROM \"Wide\" WHERE pk = 'a';\r");
  ASSERT_TRUE(pty->Expect("│ pk │ first"));
  pty->Send(".quit\r");
  EXPECT_EQ(pty->WaitExit(), 0) << pty->output();
}

TEST_F(ReplPtyTest, ResultsLongerThanTheTerminalGoThroughThePager) {
  PtyOptions options;
  options.rows = 10;
  options.pager = "sed s/^/PAGED:/";
  auto pty = Start(options);
  pty->Send("CREATE TABLE \"Paged\" (pk S, sk N);\r");
  ASSERT_TRUE(pty->Expect("keyhole> "));
  pty->Send(".quiet on\r");
  for (int i = 0; i < 12; ++i) {
    pty->Send("INSERT INTO \"Paged\" VALUE {'pk': 'a', 'sk': " + std::to_string(i) + "};\r");
  }
  pty->Send(".quiet off\r");
  ASSERT_TRUE(pty->Expect("-- 12 statements ran quietly"));
  pty->Send("SELECT * FROM \"Paged\" WHERE pk = 'a';\r");
  ASSERT_TRUE(pty->Expect("PAGED:│ a  │ 11 │"));
  ASSERT_TRUE(pty->Expect("-- 12 returned, 12 read"));
  ASSERT_TRUE(pty->Expect("keyhole> "));
  // A short result does not.
  pty->Send("SELECT * FROM \"Paged\" WHERE pk = 'a' AND sk = 3;\r");
  ASSERT_TRUE(pty->Expect("-- 1 returned"));
  EXPECT_EQ(pty->output().find("PAGED:", pty->output().rfind("AND sk = 3")), std::string::npos)
      << pty->output();
  pty->Send(".quit\r");
  EXPECT_EQ(pty->WaitExit(), 0) << pty->output();
}

TEST_F(ReplPtyTest, CtrlCStopsAReadWithOneLine) {
  fs::path script;
  auto pty = StartLongRead(&script);
  ASSERT_NE(pty, nullptr);
  pty->Send("\x03");
  ASSERT_TRUE(pty->Expect("interrupted at " + script.string() + " line "));
  ASSERT_TRUE(pty->Expect(" statements ran\r\n"));
  // The script's .quiet ended with it.
  ASSERT_TRUE(pty->Expect("statements ran quietly"));
  ASSERT_TRUE(pty->Expect("keyhole> "));
  const std::string out = pty->output();
  size_t errors = 0;  // no error per remaining statement
  for (size_t at = out.find("Error"); at != std::string::npos; at = out.find("Error", at + 1)) {
    ++errors;
  }
  EXPECT_LE(errors, 1u) << out;
  pty->Send(".quit\r");
  EXPECT_EQ(pty->WaitExit(), 1) << pty->output();  // the interrupted script counts as failed
}

// SIGTERM at the prompt with a transaction open: the transaction is discarded and said so,
// and the process ends by the signal. SIGTERM during a statement stops it first.
TEST_F(ReplPtyTest, SigtermDiscardsAnOpenTransactionOutLoudAndEndsByTheSignal) {
  auto pty = Start();
  pty->Send("CREATE TABLE \"Txn\" (pk S);\r");
  ASSERT_TRUE(pty->Expect("keyhole> "));
  pty->Send("BEGIN;\r");
  ASSERT_TRUE(pty->Expect("keyhole*> "));
  pty->Send("INSERT INTO \"Txn\" VALUE {'pk': 'a'};\r");
  ASSERT_TRUE(pty->Expect("keyhole*> "));
  pty->Signal(SIGTERM);
  ASSERT_TRUE(pty->Expect("its 1 queued statement was discarded"));
  ASSERT_TRUE(pty->Expect("keyhole: stopped by SIGTERM"));
  EXPECT_EQ(pty->WaitExit(), 128 + SIGTERM) << pty->output();
}

TEST_F(ReplPtyTest, SigtermStopsARunningReadAndEndsTheShell) {
  fs::path script;
  auto pty = StartLongRead(&script);
  ASSERT_NE(pty, nullptr);
  pty->Signal(SIGTERM);
  ASSERT_TRUE(pty->Expect("interrupted at " + script.string() + " line "));
  ASSERT_TRUE(pty->Expect("keyhole: stopped by SIGTERM"));
  EXPECT_EQ(pty->WaitExit(), 128 + SIGTERM) << pty->output();
}

}  // namespace
