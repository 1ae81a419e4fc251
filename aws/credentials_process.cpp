// 6. credential_process: a command whose standard output is the credentials as JSON.
#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <string>
#include <vector>

#include "aws/credential_sources.h"

namespace keyhole::aws::internal {

namespace {

// POSIX shell-like splitting of a credential_process command (shlex.split): blanks separate
// words, '...' is literal, "..." allows \" \\ \$ \`, a backslash outside quotes escapes.
std::vector<std::string> SplitCommand(std::string_view s) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
    } else if (c == '\'') {
      in_word = true;
      const size_t end = s.find('\'', i + 1);
      word.append(s.substr(i + 1, (end == std::string_view::npos ? s.size() : end) - i - 1));
      i = end == std::string_view::npos ? s.size() : end;
    } else if (c == '"') {
      in_word = true;
      for (++i; i < s.size() && s[i] != '"'; ++i) {
        if (s[i] == '\\' && i + 1 < s.size() && std::strchr("\"\\$`", s[i + 1]) != nullptr) {
          ++i;
        }
        word += s[i];
      }
    } else if (c == '\\' && i + 1 < s.size()) {
      in_word = true;
      word += s[++i];
    } else {
      in_word = true;
      word += c;
    }
  }
  if (in_word) words.push_back(std::move(word));
  return words;
}

// Runs argv; its standard output in *out, its standard error in *err; the exit status (or -1
// when it could not run, with *err saying why). Everything the child needs is prepared before
// fork (it only calls async-signal-safe functions); the pipes are close-on-exec, so other
// children do not inherit them; a command that runs more than kProcessSeconds is killed.
int RunProcess(const std::vector<std::string>& argv, std::string* out, std::string* err) {
  constexpr int kProcessSeconds = 60;
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const std::string cannot_run = "cannot run " + argv[0] + "\n";
  int out_pipe[2], err_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0) {
    *err = std::strerror(errno);
    return -1;
  }
  if (pipe2(err_pipe, O_CLOEXEC) != 0) {
    *err = std::strerror(errno);
    close(out_pipe[0]);
    close(out_pipe[1]);
    return -1;
  }
  const pid_t pid = fork();
  if (pid < 0) {
    *err = std::strerror(errno);
    for (int fd : {out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]}) close(fd);
    return -1;
  }
  if (pid == 0) {
    dup2(out_pipe[1], 1);  // dup2 clears close-on-exec on the copies
    dup2(err_pipe[1], 2);
    execvp(args[0], args.data());
    const ssize_t ignored = write(2, cannot_run.data(), cannot_run.size());
    (void)ignored;
    _exit(127);
  }
  close(out_pipe[1]);
  close(err_pipe[1]);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(kProcessSeconds);
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  int open_fds = 2;
  bool timed_out = false;
  char buf[4096];
  while (open_fds > 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    const int ready = poll(fds, 2, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t n = read(fds[i].fd, buf, sizeof buf);
      if (n > 0) {
        (i == 0 ? out : err)->append(buf, static_cast<size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
      }
    }
  }
  for (pollfd& f : fds) {
    if (f.fd >= 0) close(f.fd);
  }
  if (timed_out) kill(pid, SIGKILL);
  int status = 0;
  pid_t waited;
  while ((waited = waitpid(pid, &status, 0)) < 0 && errno == EINTR) {
  }
  if (timed_out) {
    *err = fmt::format("it ran more than {} seconds and was stopped", kProcessSeconds);
    return -1;
  }
  if (waited < 0) return 0;  // SIGCHLD ignored: the status is lost; the output decides
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// 6. credential_process.
class ProcessSource : public CredentialSource {
 public:
  ProcessSource(Context ctx, std::string profile)
      : ctx_(std::move(ctx)), profile_(std::move(profile)) {}
  std::string Name() const override {
    return fmt::format("credential_process of profile {}", profile_);
  }
  Result<std::optional<Credentials>> Load(std::string* why_not) override {
    const ConfigSection profile = ctx_.shared().Profile(profile_);
    const std::string* command = profile.Find("credential_process");
    if (!command || command->empty()) {
      *why_not = "not set";
      return std::optional<Credentials>();
    }
    const std::vector<std::string> argv = SplitCommand(*command);
    const auto failed = [&](std::string why) {
      return NamedError("CredentialRetrievalError",
                        fmt::format("Error when retrieving credentials from custom-process "
                                    "(credential_process of profile {}): {}",
                                    profile_, why));
    };
    if (argv.empty()) return failed("the command is empty");
    std::string out, err;
    const int status = RunProcess(argv, &out, &err);
    while (!err.empty() && (err.back() == '\n' || err.back() == '\r')) err.pop_back();
    if (status < 0) return failed(fmt::format("{}: {}", argv[0], err));
    if (status != 0) {
      return failed(fmt::format("{} exited with status {}{}{}", argv[0], status,
                                err.empty() ? "" : ": ", err));
    }
    Result<json::Value> v = json::Parse(out);
    if (!v.ok() || !v->IsObject()) return failed("its output is not a JSON object");
    const json::Value* version = v->Find("Version");
    if (!version || !version->IsNumber() || version->number_text() != "1") {
      return failed(fmt::format(
          "Unsupported version '{}' for credential process provider, supported versions: 1",
          version ? json::Write(*version) : "<Version key not provided>"));
    }
    Credentials c;
    c.access_key_id = JsonString(*v, "AccessKeyId");
    c.secret_access_key = JsonString(*v, "SecretAccessKey");
    if (c.access_key_id.empty()) return failed("Missing required key in response: 'AccessKeyId'");
    if (c.secret_access_key.empty()) {
      return failed("Missing required key in response: 'SecretAccessKey'");
    }
    c.session_token = JsonString(*v, "SessionToken");
    c.account_id = JsonString(*v, "AccountId");
    if (c.account_id.empty()) {
      if (const std::string* a = profile.Find("aws_account_id")) c.account_id = *a;
    }
    if (std::string exp = JsonString(*v, "Expiration"); !exp.empty()) {
      c.expiration = ParseIso8601(exp);
      if (!c.expiration) return failed(fmt::format("Expiration '{}' is not an ISO 8601 time", exp));
    }
    c.source = fmt::format("credential_process of profile {}", profile_);
    return std::optional<Credentials>(std::move(c));
  }

 private:
  Context ctx_;
  std::string profile_;
};

}  // namespace

std::unique_ptr<CredentialSource> MakeProcessSource(Context ctx, std::string profile) {
  return std::make_unique<ProcessSource>(std::move(ctx), std::move(profile));
}

}  // namespace keyhole::aws::internal
