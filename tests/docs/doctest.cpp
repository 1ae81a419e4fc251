// keyhole_doctest: runs the commands a Markdown file shows and checks their output, so README.md
// and the samples' documentation cannot go stale (tests/docs/README.md).
//
//   keyhole_doctest --keyhole BIN --root REPO FILE.md [--rewrite]
//
// Fenced blocks tagged
//   console      a shell transcript: `$ command` lines (a trailing `\` continues the command),
//                each followed by its expected output (standard output and error together).
//                Run with bash in a scratch directory holding a `samples` link to REPO/samples,
//                with BIN's directory first on PATH (so `keyhole` is the built executable).
//   keyhole DB   a REPL transcript on database file DB (in the same scratch directory):
//                `keyhole> ` starts a statement or dot-command (`keyhole*> ` inside BEGIN ...
//                COMMIT, as the REPL prompts there), `   ...> ` continues it, the
//                other lines are its expected output. Run in-process through a Session in box
//                mode, as the interactive shell runs it; each block opens the database anew.
// Blocks run in file order and share the scratch directory. Other blocks are not run: `sh`
// blocks hold the install and build commands that CI's clean-clone run (scripts/test.sh)
// proves, `text`/`sql` blocks are excerpts; any other tag is an error, so a transcript cannot
// be skipped by a typo. With --rewrite the file is written back with the actual outputs.
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "parser/expression_parser.h"
#include "shell/session.h"
#include "storage/database.h"

namespace {

namespace fs = std::filesystem;

// Out and Err into one string, in the order they are written (as a terminal shows them).
class TranscriptSink : public keyhole::shell::Sink {
 public:
  void Out(std::string_view text) override { text_.append(text); }
  void Notice(std::string_view text) override { text_.append(text); }
  void Err(std::string_view text) override { text_.append(text); }
  std::string Take() { return std::exchange(text_, {}); }

 private:
  std::string text_;
};

struct Step {
  std::vector<std::string> input;   // the command's lines as written (with prompts)
  std::vector<std::string> output;  // expected output lines
};

struct Block {
  std::string tag;        // "console", "keyhole", ...
  std::string argument;   // the database for keyhole blocks
  size_t first_line = 0;  // index of the first content line in the file
  size_t end_line = 0;    // index of the closing fence
};

constexpr std::string_view kPrompt = "keyhole> ";
constexpr std::string_view kTransactionPrompt = "keyhole*> ";
constexpr std::string_view kMore = "   ...> ";

bool StartsStatement(const std::string& line) {
  return line.starts_with(kPrompt) || line.starts_with(kTransactionPrompt);
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string RTrim(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\r')) s.pop_back();
  return s;
}

std::vector<Step> ParseSteps(const std::vector<std::string>& lines, bool console) {
  std::vector<Step> steps;
  bool continuing = false;
  for (const std::string& line : lines) {
    bool starts = console ? line.starts_with("$ ") : StartsStatement(line);
    bool continues = console ? continuing : line.starts_with(kMore);
    if (starts || (continues && !steps.empty() && steps.back().output.empty())) {
      if (starts) steps.push_back({});
      steps.back().input.push_back(line);
      continuing = console && line.ends_with("\\");
      continue;
    }
    continuing = false;
    if (steps.empty()) {
      steps.push_back({});  // output before any command: always a mismatch, shown as such
    }
    steps.back().output.push_back(line);
  }
  return steps;
}

std::string RunConsole(const std::vector<std::string>& input) {
  std::string command;
  for (const std::string& line : input) {
    std::string l = line.starts_with("$ ") ? line.substr(2) : line;
    command += l + "\n";  // a trailing backslash continues the command, as in bash
  }
  // Quote for a single-quoted bash argument.
  std::string quoted;
  for (char c : command) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  std::FILE* p = ::popen(("bash -c '" + quoted + "' 2>&1").c_str(), "r");
  if (!p) return "doctest: cannot run bash\n";
  std::string out;
  char buffer[4096];
  for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, p)) > 0;) out.append(buffer, n);
  ::pclose(p);
  return out;
}

std::string StatementText(const std::vector<std::string>& input) {
  std::string text;
  for (const std::string& line : input) {
    if (line.starts_with(kPrompt)) {
      text += line.substr(kPrompt.size());
    } else if (line.starts_with(kTransactionPrompt)) {
      text += line.substr(kTransactionPrompt.size());
    } else if (line.starts_with(kMore)) {
      text += line.substr(kMore.size());
    } else {
      text += line;
    }
    text += "\n";
  }
  return text;
}

}  // namespace

int main(int argc, char** argv) {
  std::string keyhole, root, file;
  bool rewrite = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--keyhole" && i + 1 < argc) {
      keyhole = argv[++i];
    } else if (a == "--root" && i + 1 < argc) {
      root = argv[++i];
    } else if (a == "--rewrite") {
      rewrite = true;
    } else {
      file = a;
    }
  }
  if (keyhole.empty() || root.empty() || file.empty()) {
    std::cerr << "usage: keyhole_doctest --keyhole BIN --root REPO FILE.md [--rewrite]\n";
    return 2;
  }
  file = fs::absolute(file).string();
  keyhole = fs::absolute(keyhole).string();
  root = fs::absolute(root).string();
  std::ifstream in(file);
  if (!in) {
    std::cerr << "doctest: cannot read " << file << "\n";
    return 2;
  }
  std::vector<std::string> lines =
      Lines(std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()));

  std::vector<Block> blocks;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (!lines[i].starts_with("```")) continue;
    Block b;
    std::string info = lines[i].substr(3);
    size_t space = info.find(' ');
    b.tag = info.substr(0, space);
    if (space != std::string::npos) b.argument = info.substr(space + 1);
    b.first_line = i + 1;
    size_t j = i + 1;
    while (j < lines.size() && !lines[j].starts_with("```")) ++j;
    b.end_line = j;
    blocks.push_back(b);
    i = j;
  }

  char scratch_template[] = "/tmp/keyhole-doctest-XXXXXX";
  const char* scratch = ::mkdtemp(scratch_template);
  if (!scratch) {
    std::cerr << "doctest: cannot create a scratch directory\n";
    return 2;
  }
  fs::create_directory_symlink(fs::path(root) / "samples", fs::path(scratch) / "samples");
  std::string path = fs::path(keyhole).parent_path().string() + ":" + std::getenv("PATH");
  ::setenv("PATH", path.c_str(), 1);
  ::setenv("KEYHOLE_HISTORY", "/dev/null", 1);
  // The credentials and region the README's `keyhole serve` section exports, and none of the
  // user's own AWS configuration.
  ::setenv("AWS_ACCESS_KEY_ID", "keyhole", 1);
  ::setenv("AWS_SECRET_ACCESS_KEY", "keyhole", 1);
  ::setenv("AWS_DEFAULT_REGION", "us-east-1", 1);
  ::setenv("AWS_PAGER", "", 1);
  ::setenv("AWS_CONFIG_FILE", "/dev/null", 1);
  ::setenv("AWS_SHARED_CREDENTIALS_FILE", "/dev/null", 1);
  ::unsetenv("AWS_PROFILE");
  ::unsetenv("AWS_SESSION_TOKEN");
  if (::chdir(scratch) != 0) return 2;

  static const keyhole::parser::NativeExpressionParser parser;
  int failures = 0, commands = 0;
  std::vector<std::string> result = lines;  // the rewritten file
  // Blocks are replaced back to front so earlier indexes stay valid.
  std::vector<std::pair<const Block*, std::vector<std::string>>> replacements;
  for (const Block& b : blocks) {
    if (b.tag == "sh" || b.tag == "text" || b.tag == "sql" || b.tag.empty()) continue;
    if (b.tag != "console" && b.tag != "keyhole") {
      std::cerr << file << ":" << b.first_line << ": unknown block tag '" << b.tag
                << "' (console, keyhole DB, sh, text or sql)\n";
      ++failures;
      continue;
    }
    std::vector<std::string> body(lines.begin() + b.first_line, lines.begin() + b.end_line);
    bool console = b.tag == "console";
    std::vector<Step> steps = ParseSteps(body, console);
    TranscriptSink sink;
    std::unique_ptr<keyhole::storage::Database> db;
    std::unique_ptr<keyhole::shell::Session> session;
    if (!console) {
      if (b.argument.empty()) {
        std::cerr << file << ":" << b.first_line << ": a keyhole block names its database\n";
        ++failures;
        continue;
      }
      keyhole::storage::Database::Options options;
      options.expression_parser = &parser;
      auto opened = keyhole::storage::Database::Open(b.argument, options);
      if (!opened.ok()) {
        std::cerr << file << ":" << b.first_line << ": " << opened.status().ToString() << "\n";
        ++failures;
        continue;
      }
      db = std::move(*opened);
      session = std::make_unique<keyhole::shell::Session>(*db, db.get(), b.argument, sink);
      session->settings().mode = keyhole::shell::OutputMode::kBox;
    }
    std::vector<std::string> actual_block;
    size_t line_no = b.first_line + 1;  // 1-based line of the step's first line
    for (const Step& step : steps) {
      std::string actual;
      std::vector<std::string> input = step.input;
      if (!step.input.empty()) {
        ++commands;
        if (console) {
          actual = RunConsole(step.input);
        } else {
          // The prompt the REPL shows here: a transcript with another one differs.
          const std::string_view prompt = session->in_transaction() ? kTransactionPrompt : kPrompt;
          if (!input[0].starts_with(prompt)) {
            input[0] = std::string(prompt) +
                       StatementText({input[0]}).substr(0, StatementText({input[0]}).size() - 1);
          }
          session->RunScript(StatementText(step.input), "", 1);
          actual = sink.Take();
        }
      }
      std::vector<std::string> got = Lines(actual);
      for (std::string& l : got) l = RTrim(l);
      std::vector<std::string> want = step.output;
      for (std::string& l : want) l = RTrim(l);
      while (!want.empty() && want.back().empty()) want.pop_back();
      while (!got.empty() && got.back().empty()) got.pop_back();
      const bool differs = got != want || input != step.input;
      if (differs) {
        ++failures;
      }
      if (differs && !rewrite) {
        if (input != step.input) std::cerr << "(the REPL's prompt here is " << input[0] << ")\n";
        std::cerr << file << ":" << line_no << ": output differs for\n";
        for (const std::string& l : step.input) std::cerr << "  " << l << "\n";
        std::cerr << "--- expected\n";
        for (const std::string& l : want) std::cerr << l << "\n";
        std::cerr << "--- actual\n";
        for (const std::string& l : got) std::cerr << l << "\n";
        std::cerr << "---\n";
      }
      actual_block.insert(actual_block.end(), input.begin(), input.end());
      actual_block.insert(actual_block.end(), got.begin(), got.end());
      line_no += step.input.size() + step.output.size();
    }
    replacements.push_back({&b, actual_block});
  }
  if (rewrite) {
    for (auto it = replacements.rbegin(); it != replacements.rend(); ++it) {
      result.erase(result.begin() + it->first->first_line, result.begin() + it->first->end_line);
      result.insert(result.begin() + it->first->first_line, it->second.begin(), it->second.end());
    }
    std::ofstream out(file);
    for (const std::string& l : result) out << l << "\n";
  }
  fs::remove_all(scratch);
  std::cout << file << ": " << commands << " commands, " << failures << " differ"
            << (rewrite ? " (rewritten)" : "") << "\n";
  return failures == 0 || rewrite ? 0 : 1;
}
