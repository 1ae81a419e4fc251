// The sources of the credential chain (credentials.h), in the AWS CLI's order.
#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <set>
#include <thread>

#include "aws/credentials_internal.h"
#include "core/strings.h"

namespace keyhole::aws::internal {

namespace {

struct Context {
  const CredentialProvider::Options* options;
  std::function<double()> now;
  const SharedConfig& shared() const { return options->settings->shared; }
  const Environment& env() const { return options->env; }
  std::string region() const { return options->settings->region.value; }
};

// "profile dev in ~/.aws/credentials"
std::string InFile(std::string_view profile, const std::string& path) {
  return fmt::format("profile {} in {}", profile, path);
}

// Static keys of a profile section: nullopt when it has no aws_access_key_id.
Result<std::optional<Credentials>> StaticKeys(const ConfigSection* section, std::string source,
                                              std::string_view where) {
  const std::string* key = section ? section->Find("aws_access_key_id") : nullptr;
  if (!key || key->empty()) return std::optional<Credentials>();
  const std::string* secret = section->Find("aws_secret_access_key");
  if (!secret || secret->empty()) {
    return NamedError(
        "PartialCredentialsError",
        fmt::format("Partial credentials found in {}, missing: aws_secret_access_key", where));
  }
  Credentials c;
  c.access_key_id = *key;
  c.secret_access_key = *secret;
  if (const std::string* t = section->Find("aws_security_token"); t && !t->empty()) {
    c.session_token = *t;
  } else if (const std::string* s = section->Find("aws_session_token")) {
    c.session_token = *s;
  }
  if (const std::string* a = section->Find("aws_account_id")) c.account_id = *a;
  c.source = std::move(source);
  return std::optional<Credentials>(std::move(c));
}

// 1. The environment.
class EnvSource : public CredentialSource {
 public:
  explicit EnvSource(Context ctx) : ctx_(std::move(ctx)) {}
  std::string Name() const override { return "the environment"; }
  Result<std::optional<Credentials>> Load(std::string* why_not) override {
    const Environment& env = ctx_.env();
    std::optional<std::string> key = env.NonEmpty("AWS_ACCESS_KEY_ID");
    if (!key) {
      *why_not = "AWS_ACCESS_KEY_ID is not set";
      return std::optional<Credentials>();
    }
    std::optional<std::string> secret = env.NonEmpty("AWS_SECRET_ACCESS_KEY");
    if (!secret) {
      return NamedError("PartialCredentialsError",
                        "Partial credentials found in env, missing: AWS_SECRET_ACCESS_KEY");
    }
    Credentials c;
    c.access_key_id = *key;
    c.secret_access_key = *secret;
    c.session_token =
        env.NonEmpty("AWS_SECURITY_TOKEN").value_or(env.NonEmpty("AWS_SESSION_TOKEN").value_or(""));
    c.account_id = env.NonEmpty("AWS_ACCOUNT_ID").value_or("");
    if (std::optional<std::string> exp = env.NonEmpty("AWS_CREDENTIAL_EXPIRATION")) {
      c.expiration = ParseIso8601(*exp);
      if (!c.expiration) {
        return NamedError(
            "InvalidConfigError",
            fmt::format("AWS_CREDENTIAL_EXPIRATION '{}' is not an ISO 8601 time", *exp));
      }
    }
    c.source = "the environment (AWS_ACCESS_KEY_ID)";
    return std::optional<Credentials>(std::move(c));
  }

 private:
  Context ctx_;
};

// 5. and 7. Static keys in the credentials file or the config file.
class FileKeysSource : public CredentialSource {
 public:
  FileKeysSource(Context ctx, std::string profile, bool credentials_file)
      : ctx_(std::move(ctx)), profile_(std::move(profile)), credentials_file_(credentials_file) {}
  std::string Name() const override {
    return fmt::format(
        "the {} file {}", credentials_file_ ? "shared credentials" : "config",
        credentials_file_ ? ctx_.shared().credentials_path : ctx_.shared().config_path);
  }
  Result<std::optional<Credentials>> Load(std::string* why_not) override {
    const SharedConfig& shared = ctx_.shared();
    const auto& profiles = credentials_file_ ? shared.credential_profiles : shared.config_profiles;
    const bool exists = credentials_file_ ? shared.credentials_exists : shared.config_exists;
    const std::string& path = credentials_file_ ? shared.credentials_path : shared.config_path;
    auto it = profiles.find(profile_);
    if (it == profiles.end()) {
      *why_not = exists ? fmt::format("no profile {}", profile_) : "no such file";
      return std::optional<Credentials>();
    }
    KH_ASSIGN_OR_RETURN(std::optional<Credentials> c,
                        StaticKeys(&it->second, InFile(profile_, path),
                                   credentials_file_ ? "shared-credentials-file" : "config-file"));
    if (!c) {
      // A secret without its key id is skipped, as botocore skips it (NoCredentialsError in
      // the end, not PartialCredentialsError): said here, so that the list shows the half-made
      // profile.
      const std::string* secret = it->second.Find("aws_secret_access_key");
      *why_not = secret && !secret->empty()
                     ? fmt::format(
                           "profile {} has aws_secret_access_key but no "
                           "aws_access_key_id: the AWS CLI skips it too",
                           profile_)
                     : fmt::format("profile {} has no aws_access_key_id", profile_);
    }
    return c;
  }

 private:
  Context ctx_;
  std::string profile_;
  bool credentials_file_;
};

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

// An HTTP GET or PUT to a metadata service, with its own timeout.
HttpResult MetadataCall(const std::string& method, const std::string& url, Headers headers,
                        int timeout_ms) {
  HttpClient::Options o;
  o.connect_timeout_ms = timeout_ms;
  o.read_timeout_ms = timeout_ms;
  o.max_idle = 0;
  HttpClient client(o);
  HttpRequest r;
  r.method = method;
  r.url = url;
  r.headers = std::move(headers);
  return client.Send(r);
}

// Credentials from a metadata answer (container or instance): AccessKeyId, SecretAccessKey,
// Token, Expiration.
Result<Credentials> MetadataCredentials(const json::Value& v, std::string source,
                                        std::string_view what) {
  Credentials c;
  c.access_key_id = JsonString(v, "AccessKeyId");
  c.secret_access_key = JsonString(v, "SecretAccessKey");
  c.session_token = JsonString(v, "Token");
  c.account_id = JsonString(v, "AccountId");
  if (c.access_key_id.empty() || c.secret_access_key.empty()) {
    return NamedError("CredentialRetrievalError",
                      fmt::format("{} answered without AccessKeyId and SecretAccessKey", what));
  }
  if (std::string exp = JsonString(v, "Expiration"); !exp.empty()) c.expiration = ParseIso8601(exp);
  c.source = std::move(source);
  return c;
}

// 8. Container credentials (ECS, EKS Pod Identity).
class ContainerSource : public CredentialSource {
 public:
  explicit ContainerSource(Context ctx) : ctx_(std::move(ctx)) {}
  std::string Name() const override { return "the container credentials endpoint"; }
  Result<std::optional<Credentials>> Load(std::string* why_not) override {
    const Environment& env = ctx_.env();
    std::string url;
    if (auto rel = env.NonEmpty("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI")) {
      url = "http://169.254.170.2" + *rel;
    } else if (auto full = env.NonEmpty("AWS_CONTAINER_CREDENTIALS_FULL_URI")) {
      Result<Endpoint> e = ParseEndpoint(full->substr(0, full->find_first_of("?#")));
      const bool allowed =
          e.ok() && (e->scheme == "https" || e->loopback() || e->host == "169.254.170.2" ||
                     e->host == "169.254.170.23" || e->host == "[fd00:ec2::23]");
      if (!allowed) {
        return NamedError(
            "CredentialRetrievalError",
            fmt::format("Unsupported host in AWS_CONTAINER_CREDENTIALS_FULL_URI '{}'. Can only "
                        "retrieve metadata from a loopback address or one of these hosts: "
                        "169.254.170.2, 169.254.170.23, fd00:ec2::23, localhost",
                        *full));
      }
      url = *full;
    } else {
      *why_not = "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI and _FULL_URI are not set";
      return std::optional<Credentials>();
    }
    Headers headers = {{"Accept", "application/json"}};
    std::string token;
    if (auto file = env.NonEmpty("AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE")) {
      if (!ReadWholeFile(*file, &token)) {
        return NamedError("CredentialRetrievalError",
                          fmt::format("cannot read AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE {}: {}",
                                      *file, std::strerror(errno)));
      }
    } else if (auto t = env.NonEmpty("AWS_CONTAINER_AUTHORIZATION_TOKEN")) {
      token = *t;
    }
    if (!token.empty()) {
      if (token.find_first_of("\r\n") != std::string::npos) {
        return NamedError("CredentialRetrievalError",
                          "the container authorization token is not a legal header value");
      }
      headers.emplace_back("Authorization", token);
    }
    std::string last;
    for (int attempt = 1; attempt <= 3; ++attempt) {
      if (attempt > 1) std::this_thread::sleep_for(std::chrono::seconds(1));
      HttpResult r = MetadataCall("GET", url, headers, 2000);
      if (!r.ok()) {
        last = TransportFailure(r, url);
        continue;
      }
      if (r.response.status != 200) {
        last = fmt::format("Received non 200 response {} from container metadata: {}",
                           r.response.status, r.response.body.substr(0, 200));
        continue;
      }
      Result<json::Value> v = json::Parse(r.response.body);
      if (!v.ok() || !v->IsObject()) {
        last = "the container metadata answer is not JSON";
        continue;
      }
      KH_ASSIGN_OR_RETURN(Credentials c,
                          MetadataCredentials(*v, fmt::format("container credentials ({})", url),
                                              "the container credentials endpoint"));
      return std::optional<Credentials>(std::move(c));
    }
    return NamedError("CredentialRetrievalError",
                      "Error when retrieving credentials from container-role: " + last);
  }

 private:
  Context ctx_;
};

// 9. The EC2 instance metadata service.
class ImdsSource : public CredentialSource {
 public:
  explicit ImdsSource(Context ctx) : ctx_(std::move(ctx)) {}
  std::string Name() const override { return "the EC2 instance metadata service"; }
  Result<std::optional<Credentials>> Load(std::string* why_not) override {
    const Environment& env = ctx_.env();
    if (auto d = env.NonEmpty("AWS_EC2_METADATA_DISABLED"); d && AsciiLower(*d) == "true") {
      *why_not = "AWS_EC2_METADATA_DISABLED is true";
      return std::optional<Credentials>();
    }
    const ConfigSection profile = ctx_.shared().Profile(ctx_.options->settings->profile.value);
    const auto setting = [&](std::string_view var, std::string_view key) -> std::string {
      if (auto v = env.NonEmpty(var)) return *v;
      if (const std::string* p = profile.Find(key)) return *p;
      return "";
    };
    std::string base =
        setting("AWS_EC2_METADATA_SERVICE_ENDPOINT", "ec2_metadata_service_endpoint");
    if (base.empty()) {
      const std::string mode = AsciiLower(
          setting("AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE", "ec2_metadata_service_endpoint_mode"));
      base = mode == "ipv6" ? "http://[fd00:ec2::254]" : "http://169.254.169.254";
    }
    while (!base.empty() && base.back() == '/') base.pop_back();
    int timeout_ms = 1000, attempts = 1;
    if (std::string t = setting("AWS_METADATA_SERVICE_TIMEOUT", "metadata_service_timeout");
        !t.empty()) {
      timeout_ms = std::max(1, static_cast<int>(std::atof(t.c_str()) * 1000));
    }
    if (std::string a =
            setting("AWS_METADATA_SERVICE_NUM_ATTEMPTS", "metadata_service_num_attempts");
        !a.empty()) {
      attempts = std::max(1, std::atoi(a.c_str()));
    }
    const bool v1_disabled =
        AsciiLower(setting("AWS_EC2_METADATA_V1_DISABLED", "ec2_metadata_v1_disabled")) == "true";
    // IMDSv2's token; refused (403, 404, 405) or timed out: IMDSv1.
    std::string token;
    std::string unreachable;
    for (int i = 0; i < attempts; ++i) {
      HttpResult r = MetadataCall("PUT", base + "/latest/api/token",
                                  {{"x-aws-ec2-metadata-token-ttl-seconds", "21600"}}, timeout_ms);
      if (!r.ok()) {
        unreachable = TransportFailure(r, base);
        if (r.error == TransportError::kReadTimeout) break;
        continue;
      }
      unreachable.clear();
      if (r.response.status == 200) token = r.response.body;
      if (r.response.status == 400) {
        *why_not = fmt::format("{} refused a token (HTTP 400)", base);
        return std::optional<Credentials>();
      }
      break;
    }
    if (!unreachable.empty() && token.empty()) {
      *why_not = fmt::format("no answer from {}", unreachable);
      return std::optional<Credentials>();
    }
    if (token.empty() && v1_disabled) {
      return NamedError("MetadataRetrievalError",
                        "Unable to retrieve token for use in IMDSv2 call and IMDSv1 has been "
                        "disabled");
    }
    Headers headers;
    if (!token.empty()) headers.emplace_back("x-aws-ec2-metadata-token", token);
    const std::string roles_url = base + "/latest/meta-data/iam/security-credentials/";
    std::string role;
    for (int i = 0; i < attempts && role.empty(); ++i) {
      HttpResult r = MetadataCall("GET", roles_url, headers, timeout_ms);
      if (r.ok() && r.response.status == 200) role = r.response.body;
    }
    while (!role.empty() && (role.back() == '\n' || role.back() == '\r')) role.pop_back();
    if (role.empty()) {
      *why_not = fmt::format("{} has no IAM role", base);
      return std::optional<Credentials>();
    }
    for (int i = 0; i < attempts; ++i) {
      HttpResult r = MetadataCall("GET", roles_url + role, headers, timeout_ms);
      if (!r.ok() || r.response.status != 200) continue;
      Result<json::Value> v = json::Parse(r.response.body);
      if (!v.ok() || !v->IsObject()) continue;
      if (JsonString(*v, "AccessKeyId").empty()) break;
      KH_ASSIGN_OR_RETURN(Credentials c,
                          MetadataCredentials(*v, fmt::format("instance metadata (role {})", role),
                                              "the instance metadata service"));
      return std::optional<Credentials>(std::move(c));
    }
    *why_not = fmt::format("{} gave no credentials for role {}", base, role);
    return std::optional<Credentials>();
  }

 private:
  Context ctx_;
};

// The STS endpoint: a configured one (AWS_ENDPOINT_URL_STS, ...), else the region's, else the
// global one signed for us-east-1. `*region` is the region to sign for.
Result<std::string> StsUrl(const Context& ctx, std::string* region) {
  KH_ASSIGN_OR_RETURN(std::optional<Endpoint> configured,
                      ConfiguredServiceEndpoint(*ctx.options->settings, ctx.env(), "STS"));
  *region = ctx.region().empty() ? "us-east-1" : ctx.region();
  if (configured) return configured->Url();
  if (ctx.region().empty()) return std::string("https://sts.amazonaws.com/");
  const std::string_view suffix =
      ctx.region().starts_with("cn-") ? "amazonaws.com.cn" : "amazonaws.com";
  return fmt::format("https://sts.{}.{}/", ctx.region(), suffix);
}

// Credentials from an STS answer (AssumeRole or AssumeRoleWithWebIdentity), or its error.
Result<Credentials> StsCredentials(const HttpResult& r, const std::string& url,
                                   std::string_view action, std::string_view role_arn,
                                   std::string source) {
  if (!r.ok()) {
    return NamedError("EndpointConnectionError",
                      fmt::format("STS {} for {}: {}", action, role_arn, TransportFailure(r, url)));
  }
  const std::string& body = r.response.body;
  if (r.response.status != 200) {
    const std::string code = XmlText(body, "Code");
    const std::string message = XmlText(body, "Message");
    return Status::Named(
        code.empty() ? "STSError" : code,
        fmt::format("STS {} for {} failed (HTTP {}): {}", action, role_arn, r.response.status,
                    message.empty() ? body.substr(0, 200) : message),
        r.response.status);
  }
  const std::string creds = XmlText(body, "Credentials");
  Credentials c;
  c.access_key_id = XmlText(creds, "AccessKeyId");
  c.secret_access_key = XmlText(creds, "SecretAccessKey");
  c.session_token = XmlText(creds, "SessionToken");
  c.expiration = ParseIso8601(XmlText(creds, "Expiration"));
  if (c.access_key_id.empty() || c.secret_access_key.empty()) {
    return NamedError("CredentialRetrievalError",
                      fmt::format("STS {} for {}: the answer from {} holds no credentials", action,
                                  role_arn, url));
  }
  // arn:aws:sts::123456789012:assumed-role/R/S: the account is the fifth field.
  const std::string arn = XmlText(body, "Arn");
  size_t start = 0;
  for (int field = 0; field < 4 && start != std::string::npos; ++field) {
    start = arn.find(':', start);
    if (start != std::string::npos) ++start;
  }
  if (start != std::string::npos) c.account_id = arn.substr(start, arn.find(':', start) - start);
  c.source = std::move(source);
  return c;
}

// The AWS CLI's JSON file cache (~/.aws/cli/cache/KEY.json), shared with it.
class CliCache {
 public:
  CliCache(const Environment& env, std::string key)
      : path_(fmt::format("{}/.aws/cli/cache/{}.json", env.Home(), key)) {}
  // Credentials cached and valid for 15 more minutes.
  std::optional<Credentials> Read(double now, std::string source) const {
    std::string text;
    if (!ReadWholeFile(path_, &text)) return std::nullopt;
    Result<json::Value> v = json::Parse(text);
    if (!v.ok() || !v->IsObject()) return std::nullopt;
    const json::Value* c = v->Find("Credentials");
    if (!c || !c->IsObject()) return std::nullopt;
    Credentials out;
    out.access_key_id = JsonString(*c, "AccessKeyId");
    out.secret_access_key = JsonString(*c, "SecretAccessKey");
    out.session_token = JsonString(*c, "SessionToken");
    out.account_id = JsonString(*c, "AccountId");
    out.expiration = ParseIso8601(JsonString(*c, "Expiration"));
    if (out.access_key_id.empty() || !out.expiration || *out.expiration - now < 15 * 60) {
      return std::nullopt;
    }
    out.source = std::move(source) + " (cached in " + path_ + ")";
    return out;
  }
  // Writes `c` as the AWS CLI does (a file of mode 0600, replaced whole). Best effort: a cache
  // that cannot be written costs a call next time, nothing else.
  void Write(const Credentials& c, std::string_view provider_type = "") const {
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(path_).parent_path(), ec);
    json::Value creds = json::Value::MakeObject();
    creds.Add("AccessKeyId", json::Value::String(c.access_key_id));
    creds.Add("SecretAccessKey", json::Value::String(c.secret_access_key));
    creds.Add("SessionToken", json::Value::String(c.session_token));
    creds.Add("Expiration", json::Value::String(c.expiration ? IsoTime(*c.expiration) : ""));
    if (!c.account_id.empty()) creds.Add("AccountId", json::Value::String(c.account_id));
    json::Value o = json::Value::MakeObject();
    if (!provider_type.empty())
      o.Add("ProviderType", json::Value::String(std::string(provider_type)));
    o.Add("Credentials", std::move(creds));
    static std::atomic<int> counter{0};
    const std::string tmp = path_ + fmt::format(".tmp{}-{}", getpid(), counter++);
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) return;
    const std::string text = json::Write(o);
    const bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    ::close(fd);
    if (!written || std::rename(tmp.c_str(), path_.c_str()) != 0) std::remove(tmp.c_str());
  }

 private:
  std::string path_;
};

class AssumeRoleSource;
std::unique_ptr<CredentialSource> SourceFor(const Context& ctx, const std::string& profile,
                                            std::set<std::string> visited, std::string* error);

// 2. role_arn with source_profile or credential_source: STS AssumeRole.
class AssumeRoleSource : public CredentialSource {
 public:
  AssumeRoleSource(Context ctx, std::string profile, std::set<std::string> visited)
      : ctx_(std::move(ctx)), profile_(std::move(profile)), visited_(std::move(visited)) {}
  std::string Name() const override { return fmt::format("role_arn of profile {}", profile_); }
  Result<std::optional<Credentials>> Load(std::string* why_not) override {
    const ConfigSection p = ctx_.shared().Profile(profile_);
    const std::string* role_arn = p.Find("role_arn");
    if (!role_arn || role_arn->empty() || p.Find("web_identity_token_file")) {
      *why_not = "no role_arn";
      return std::optional<Credentials>();
    }
    const std::string* source_profile = p.Find("source_profile");
    const std::string* credential_source = p.Find("credential_source");
    if (source_profile && credential_source) {
      return NamedError("InvalidConfigError",
                        fmt::format("The profile \"{}\" contains both source_profile and "
                                    "credential_source.",
                                    profile_));
    }
    if (!source_profile && !credential_source) {
      return NamedError("PartialCredentialsError",
                        fmt::format("Partial credentials found in assume-role (profile {}), "
                                    "missing: source_profile or credential_source",
                                    profile_));
    }
    // The credentials that sign the AssumeRole call.
    std::unique_ptr<CredentialSource> source;
    std::string source_name;
    if (credential_source) {
      const std::string kind = AsciiLower(*credential_source);
      if (kind == "environment") {
        source = std::make_unique<EnvSource>(ctx_);
      } else if (kind == "ec2instancemetadata") {
        source = std::make_unique<ImdsSource>(ctx_);
      } else if (kind == "ecscontainer") {
        source = std::make_unique<ContainerSource>(ctx_);
      } else {
        return NamedError("InvalidConfigError",
                          fmt::format("The credential source \"{}\" referenced in profile \"{}\" "
                                      "is not valid.",
                                      *credential_source, profile_));
      }
      source_name = fmt::format("credential_source {}", *credential_source);
    } else {
      if (!ctx_.shared().HasProfile(*source_profile)) {
        return NamedError("InvalidConfigError",
                          fmt::format("The source_profile \"{}\" referenced in the profile \"{}\" "
                                      "does not exist.",
                                      *source_profile, profile_));
      }
      std::string error;
      source = SourceFor(ctx_, *source_profile, visited_, &error);
      if (!error.empty()) return NamedError("InfiniteLoopConfigError", error);
      source_name = fmt::format("source_profile {}", *source_profile);
    }
    std::string source_why;
    KH_ASSIGN_OR_RETURN(std::optional<Credentials> signer,
                        source ? source->Load(&source_why)
                               : Result<std::optional<Credentials>>(std::optional<Credentials>()));
    if (!signer) {
      if (credential_source) {
        return NamedError("CredentialRetrievalError",
                          fmt::format("No credentials found in credential_source referenced in "
                                      "profile {}",
                                      profile_));
      }
      return NamedError(
          "InvalidConfigError",
          fmt::format("The source profile \"{}\" must have credentials.", *source_profile));
    }
    // The AWS CLI's cache key: the call's arguments.
    std::vector<std::pair<std::string, std::string>> args = {
        {"RoleArn", PythonJsonString(*role_arn)}};
    std::string session = fmt::format("botocore-session-{}", static_cast<long>(ctx_.now()));
    if (const std::string* n = p.Find("role_session_name")) {
      session = *n;
      args.emplace_back("RoleSessionName", PythonJsonString(*n));
    }
    const std::string* external_id = p.Find("external_id");
    if (external_id) args.emplace_back("ExternalId", PythonJsonString(*external_id));
    const std::string* mfa = p.Find("mfa_serial");
    if (mfa) args.emplace_back("SerialNumber", PythonJsonString(*mfa));
    std::optional<long> duration;
    if (const std::string* d = p.Find("duration_seconds")) {
      char* end = nullptr;
      const long n = std::strtol(d->c_str(), &end, 10);
      if (!d->empty() && *end == '\0') {
        duration = n;
        args.emplace_back("DurationSeconds", std::to_string(n));
      }
    }
    const std::string description =
        fmt::format("role {} (profile {}, through {})", *role_arn, profile_, source_name);
    CliCache cache(ctx_.env(), CliCacheKey(args));
    if (std::optional<Credentials> cached = cache.Read(ctx_.now(), description)) {
      return std::optional<Credentials>(std::move(*cached));
    }
    if (mfa) {
      return NamedError("CredentialRetrievalError",
                        fmt::format("profile {} needs an MFA code (mfa_serial {}), which keyhole "
                                    "does not ask for: run an aws command with --profile {} "
                                    "first (keyhole uses the credentials it caches)",
                                    profile_, *mfa, profile_));
    }
    std::string region;
    KH_ASSIGN_OR_RETURN(std::string url, StsUrl(ctx_, &region));
    std::string body =
        fmt::format("Action=AssumeRole&Version=2011-06-15&RoleArn={}&RoleSessionName={}",
                    FormEncode(*role_arn), FormEncode(session));
    if (external_id) body += "&ExternalId=" + FormEncode(*external_id);
    if (duration) body += fmt::format("&DurationSeconds={}", *duration);
    KH_ASSIGN_OR_RETURN(Endpoint e, ParseEndpoint(url));
    HttpRequest request;
    request.url = url;
    request.body = body;
    request.headers = {{"Host", e.HostHeader()},
                       {"Content-Type", "application/x-www-form-urlencoded; charset=utf-8"}};
    SignRequest(signer->signing_key(), region, "sts", ctx_.now(), "POST", e.path, "", body,
                &request.headers);
    HttpResult r = ctx_.options->http->Send(request);
    KH_ASSIGN_OR_RETURN(Credentials c,
                        StsCredentials(r, url, "AssumeRole", *role_arn, description));
    cache.Write(c);
    return std::optional<Credentials>(std::move(c));
  }

 private:
  Context ctx_;
  std::string profile_;
  std::set<std::string> visited_;
};

// 3. Web identity: STS AssumeRoleWithWebIdentity with a token from a file.
class WebIdentitySource : public CredentialSource {
 public:
  WebIdentitySource(Context ctx, std::string profile, bool use_env)
      : ctx_(std::move(ctx)), profile_(std::move(profile)), use_env_(use_env) {}
  std::string Name() const override { return "web identity (AWS_WEB_IDENTITY_TOKEN_FILE)"; }
  Result<std::optional<Credentials>> Load(std::string* why_not) override {
    const ConfigSection p = ctx_.shared().Profile(profile_);
    const auto setting = [&](std::string_view var, std::string_view key) -> std::string {
      if (use_env_) {
        if (auto v = ctx_.env().NonEmpty(var)) return *v;
      }
      if (const std::string* s = p.Find(key)) return *s;
      return "";
    };
    const std::string token_file =
        ExpandHome(setting("AWS_WEB_IDENTITY_TOKEN_FILE", "web_identity_token_file"), ctx_.env());
    if (token_file.empty()) {
      *why_not = "AWS_WEB_IDENTITY_TOKEN_FILE is not set";
      return std::optional<Credentials>();
    }
    const std::string role_arn = setting("AWS_ROLE_ARN", "role_arn");
    if (role_arn.empty()) {
      return NamedError("InvalidConfigError",
                        "The provided profile or the current environment is configured to assume "
                        "role with web identity but has no role ARN configured. Ensure that the "
                        "profile has the role_arn configuration set or the AWS_ROLE_ARN env var "
                        "is set.");
    }
    std::string session = setting("AWS_ROLE_SESSION_NAME", "role_session_name");
    std::vector<std::pair<std::string, std::string>> args = {
        {"RoleArn", PythonJsonString(role_arn)}};
    if (!session.empty()) args.emplace_back("RoleSessionName", PythonJsonString(session));
    if (session.empty())
      session = fmt::format("botocore-session-{}", static_cast<long>(ctx_.now()));
    const std::string description =
        fmt::format("web identity role {} (token {})", role_arn, token_file);
    CliCache cache(ctx_.env(), CliCacheKey(args));
    if (std::optional<Credentials> cached = cache.Read(ctx_.now(), description)) {
      return std::optional<Credentials>(std::move(*cached));
    }
    std::string token;
    if (!ReadWholeFile(token_file, &token)) {
      return NamedError("CredentialRetrievalError",
                        fmt::format("cannot read the web identity token file {}: {}", token_file,
                                    std::strerror(errno)));
    }
    std::string region;
    KH_ASSIGN_OR_RETURN(std::string url, StsUrl(ctx_, &region));
    HttpRequest request;
    request.url = url;
    request.body = fmt::format(
        "Action=AssumeRoleWithWebIdentity&Version=2011-06-15&RoleArn={}&RoleSessionName={}"
        "&WebIdentityToken={}",
        FormEncode(role_arn), FormEncode(session), FormEncode(token));
    request.headers = {{"Content-Type", "application/x-www-form-urlencoded; charset=utf-8"}};
    HttpResult r = ctx_.options->http->Send(request);
    KH_ASSIGN_OR_RETURN(Credentials c,
                        StsCredentials(r, url, "AssumeRoleWithWebIdentity", role_arn, description));
    cache.Write(c);
    return std::optional<Credentials>(std::move(c));
  }

 private:
  Context ctx_;
  std::string profile_;
  bool use_env_;
};

// 4. SSO: the AWS CLI's token cache, then GetRoleCredentials.
class SsoSource : public CredentialSource {
 public:
  SsoSource(Context ctx, std::string profile)
      : ctx_(std::move(ctx)), profile_(std::move(profile)) {}
  std::string Name() const override { return fmt::format("SSO of profile {}", profile_); }
  Result<std::optional<Credentials>> Load(std::string* why_not) override {
    const ConfigSection p = ctx_.shared().Profile(profile_);
    const std::string* account = p.Find("sso_account_id");
    const std::string* role = p.Find("sso_role_name");
    if (!account && !role) {
      *why_not = "no sso_account_id or sso_role_name";
      return std::optional<Credentials>();
    }
    std::string start_url, sso_region, session_name;
    if (const std::string* s = p.Find("sso_session")) {
      auto it = ctx_.shared().sso_sessions.find(*s);
      if (it == ctx_.shared().sso_sessions.end()) {
        return NamedError("InvalidConfigError",
                          fmt::format("The specified sso-session does not exist: \"{}\"", *s));
      }
      session_name = *s;
      if (const std::string* u = it->second.Find("sso_start_url")) start_url = *u;
      if (const std::string* r = it->second.Find("sso_region")) sso_region = *r;
    } else {
      if (const std::string* u = p.Find("sso_start_url")) start_url = *u;
      if (const std::string* r = p.Find("sso_region")) sso_region = *r;
    }
    std::vector<std::string> missing;
    if (start_url.empty()) missing.push_back("sso_start_url");
    if (sso_region.empty()) missing.push_back("sso_region");
    if (!account) missing.push_back("sso_account_id");
    if (!role) missing.push_back("sso_role_name");
    if (!missing.empty()) {
      std::string list;
      for (const std::string& m : missing) list += (list.empty() ? "" : ", ") + m;
      return NamedError("InvalidConfigError",
                        fmt::format("The profile \"{}\" is configured to use SSO but is missing "
                                    "required configuration: {}",
                                    profile_, list));
    }
    const std::string login = fmt::format(
        "To refresh this SSO session run aws sso login with the corresponding profile (aws sso "
        "login --profile {}).",
        profile_);
    const std::string description =
        fmt::format("SSO role {} in account {} (profile {})", *role, *account, profile_);
    // The role credentials the AWS CLI cached.
    json::Value key_args = json::Value::MakeObject();
    std::vector<std::pair<std::string, std::string>> args = {
        {"accountId", PythonJsonString(*account)}, {"roleName", PythonJsonString(*role)}};
    if (!session_name.empty()) {
      args.emplace_back("sessionName", PythonJsonString(session_name));
    } else {
      args.emplace_back("startUrl", PythonJsonString(start_url));
    }
    CliCache cache(ctx_.env(), CliCacheKey(args, /*compact=*/true));
    if (std::optional<Credentials> cached = cache.Read(ctx_.now(), description)) {
      return std::optional<Credentials>(std::move(*cached));
    }
    // The token `aws sso login` cached.
    const std::string token_path =
        fmt::format("{}/.aws/sso/cache/{}.json", ctx_.env().Home(),
                    Sha1Hex(session_name.empty() ? start_url : session_name));
    std::string text;
    if (!ReadWholeFile(token_path, &text)) {
      return NamedError(
          "SSOTokenLoadError",
          fmt::format("Error loading SSO Token: Token for {} does not exist (no {}). "
                      "{}",
                      session_name.empty() ? start_url : session_name, token_path, login));
    }
    Result<json::Value> token = json::Parse(text);
    std::string access_token;
    std::optional<double> expires;
    if (token.ok() && token->IsObject()) {
      access_token = JsonString(*token, "accessToken");
      expires = ParseIso8601(JsonString(*token, "expiresAt"));
    }
    if (access_token.empty() || !expires) {
      return NamedError("SSOTokenLoadError",
                        fmt::format("Error loading SSO Token: Token for {} is invalid. {}",
                                    session_name.empty() ? start_url : session_name, login));
    }
    if (*expires <= ctx_.now()) {
      return NamedError("UnauthorizedSSOTokenError",
                        "The SSO session associated with this profile has expired or is otherwise "
                        "invalid. " +
                            login);
    }
    KH_ASSIGN_OR_RETURN(std::optional<Endpoint> configured,
                        ConfiguredServiceEndpoint(*ctx_.options->settings, ctx_.env(), "SSO"));
    const std::string base = configured
                                 ? configured->Url()
                                 : fmt::format("https://portal.sso.{}.amazonaws.com/", sso_region);
    HttpRequest request;
    request.method = "GET";
    request.url =
        fmt::format("{}{}federation/credentials?role_name={}&account_id={}", base,
                    base.ends_with('/') ? "" : "/", FormEncode(*role), FormEncode(*account));
    request.headers = {{"x-amz-sso_bearer_token", access_token}};
    HttpResult r = ctx_.options->http->Send(request);
    if (!r.ok()) {
      return NamedError("EndpointConnectionError",
                        fmt::format("SSO GetRoleCredentials: {}", TransportFailure(r, base)));
    }
    if (r.response.status == 401 || r.response.status == 403) {
      return NamedError("UnauthorizedSSOTokenError",
                        "The SSO session associated with this profile has expired or is otherwise "
                        "invalid. " +
                            login);
    }
    Result<json::Value> v = json::Parse(r.response.body);
    const json::Value* rc = v.ok() && v->IsObject() ? v->Find("roleCredentials") : nullptr;
    if (r.response.status != 200 || !rc || !rc->IsObject()) {
      return NamedError("CredentialRetrievalError",
                        fmt::format("SSO GetRoleCredentials for role {} in account {} answered "
                                    "HTTP {}",
                                    *role, *account, r.response.status));
    }
    Credentials c;
    c.access_key_id = JsonString(*rc, "accessKeyId");
    c.secret_access_key = JsonString(*rc, "secretAccessKey");
    c.session_token = JsonString(*rc, "sessionToken");
    c.account_id = *account;
    if (const json::Value* e = rc->Find("expiration"); e && e->IsNumber()) {
      c.expiration = std::atof(e->number_text().c_str()) / 1000;
    }
    c.source = description;
    cache.Write(c, "sso");
    return std::optional<Credentials>(std::move(c));
  }

 private:
  Context ctx_;
  std::string profile_;
};

// The first source of `profile` that has credentials, for a source_profile: its role_arn
// (role chaining) unless it holds keys itself; else web identity, SSO, the credentials file,
// credential_process, the config file. `*error` is set on a loop of profiles.
class FirstOf : public CredentialSource {
 public:
  explicit FirstOf(std::vector<std::unique_ptr<CredentialSource>> sources)
      : sources_(std::move(sources)) {}
  std::string Name() const override { return sources_.empty() ? "" : sources_[0]->Name(); }
  Result<std::optional<Credentials>> Load(std::string* why_not) override {
    for (const auto& s : sources_) {
      std::string why;
      KH_ASSIGN_OR_RETURN(std::optional<Credentials> c, s->Load(&why));
      if (c) return c;
      *why_not += (why_not->empty() ? "" : "; ") + why;
    }
    return std::optional<Credentials>();
  }

 private:
  std::vector<std::unique_ptr<CredentialSource>> sources_;
};

std::unique_ptr<CredentialSource> SourceFor(const Context& ctx, const std::string& profile,
                                            std::set<std::string> visited, std::string* error) {
  const ConfigSection p = ctx.shared().Profile(profile);
  const bool has_keys = p.Find("aws_access_key_id") != nullptr;
  std::vector<std::unique_ptr<CredentialSource>> sources;
  if (p.Find("role_arn") && !has_keys) {
    if (visited.count(profile)) {
      *error = fmt::format(
          "Infinite loop in credential configuration detected. Attempting to load "
          "from profile {} which has already been visited.",
          profile);
      return nullptr;
    }
    visited.insert(profile);
    sources.push_back(std::make_unique<AssumeRoleSource>(ctx, profile, visited));
  } else {
    sources.push_back(std::make_unique<WebIdentitySource>(ctx, profile, false));
    sources.push_back(std::make_unique<SsoSource>(ctx, profile));
    sources.push_back(std::make_unique<FileKeysSource>(ctx, profile, true));
    sources.push_back(std::make_unique<ProcessSource>(ctx, profile));
    sources.push_back(std::make_unique<FileKeysSource>(ctx, profile, false));
  }
  return std::make_unique<FirstOf>(std::move(sources));
}

}  // namespace

std::vector<std::unique_ptr<CredentialSource>> BuildChain(
    const CredentialProvider::Options& options, std::function<double()> now) {
  Context ctx{&options, std::move(now)};
  const ClientSettings& s = *options.settings;
  const std::string& profile = s.profile.value;
  std::vector<std::unique_ptr<CredentialSource>> chain;
  if (!s.profile_explicit) chain.push_back(std::make_unique<EnvSource>(ctx));
  chain.push_back(std::make_unique<AssumeRoleSource>(ctx, profile, std::set<std::string>{profile}));
  chain.push_back(std::make_unique<WebIdentitySource>(ctx, profile, !s.profile_explicit));
  chain.push_back(std::make_unique<SsoSource>(ctx, profile));
  chain.push_back(std::make_unique<FileKeysSource>(ctx, profile, true));
  chain.push_back(std::make_unique<ProcessSource>(ctx, profile));
  chain.push_back(std::make_unique<FileKeysSource>(ctx, profile, false));
  chain.push_back(std::make_unique<ContainerSource>(ctx));
  chain.push_back(std::make_unique<ImdsSource>(ctx));
  return chain;
}

}  // namespace keyhole::aws::internal
