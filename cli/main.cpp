// keyhole: the shell on a keyhole file (design.md "The shell's contract"; the command line is
// cli/shell_main.h's). `keyhole serve ...` runs keyhole-serve in its place; a command line that
// asks for an endpoint (--endpoint, --region, --profile), and `keyhole copy ...`, run
// keyhole-remote in its place.
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "cli/malloc_tuning.h"
#include "cli/shell_main.h"
#include "parser/expression_parser.h"
#include "storage/database.h"

namespace {

// What keeps `path` from being opened or created, found before LMDB is asked (LMDB reports
// the OS's error without the culprit: a missing directory, a file used as one). OK when nothing
// is known to be wrong. The OS's words come first; what they mean follows in parentheses.
keyhole::Status OpenProblem(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) == 0) return keyhole::Status::OK();
  const int error = errno;
  const std::string os = path + ": " + std::strerror(error);
  if (error == ENOENT) {
    const size_t slash = path.find_last_of('/');
    const std::string dir = slash == std::string::npos ? "."
                            : slash == 0               ? "/"
                                                       : path.substr(0, slash);
    struct stat ds;
    if (::stat(dir.c_str(), &ds) != 0 && errno == ENOENT) {
      return keyhole::Status::NotFound(os + " (the directory " + dir +
                                       " does not exist: create it first, or give another path)");
    }
    return keyhole::Status::OK();  // a new database
  }
  if (error == ENOTDIR) {
    // The first leading part of the path that exists and is not a directory.
    for (size_t slash = path.find('/', 1); slash != std::string::npos;
         slash = path.find('/', slash + 1)) {
      const std::string part = path.substr(0, slash);
      struct stat ps;
      if (::stat(part.c_str(), &ps) == 0 && !S_ISDIR(ps.st_mode)) {
        return keyhole::Status::NotFound(os + " (" + part + " is a file, not a directory)");
      }
    }
    return keyhole::Status::NotFound(os);
  }
  if (error == EACCES || error == EPERM) return keyhole::Status::AccessDenied(os);
  if (error == ENAMETOOLONG || error == ELOOP) return keyhole::Status::Validation(os);
  return keyhole::Status::OK();
}

// Whether the start of `path` reads like a script (a ';' in its first 4 KB).
bool LooksLikeScript(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  char head[4096];
  const size_t n = std::fread(head, 1, sizeof head, f);
  std::fclose(f);
  return std::memchr(head, ';', n) != nullptr;
}

// Runs `program` (keyhole-serve, keyhole-remote) from this executable's directory in this
// process's place (same PID, same arguments). Returns only when it cannot be run.
int ExecBeside(const char* program, const char* what, char** argv) {
  std::string self(4096, '\0');
  const ssize_t n = ::readlink("/proc/self/exe", self.data(), self.size() - 1);
  self.resize(n > 0 ? static_cast<size_t>(n) : 0);
  const size_t slash = self.rfind('/');
  const std::string path =
      (slash == std::string::npos ? std::string(".") : self.substr(0, slash)) + "/" + program;
  ::execv(path.c_str(), argv);
  std::fprintf(stderr, "keyhole: %s: cannot run %s: %s (%s is built beside keyhole)\n", what,
               path.c_str(), std::strerror(errno), program);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  keyhole::TuneMalloc();
  if (argc > 1 && std::string_view(argv[1]) == "serve") {
    return ExecBeside("keyhole-serve", "serve", argv);
  }
  if (argc > 1 && std::string_view(argv[1]) == "copy") {
    return ExecBeside("keyhole-remote", "copy", argv);
  }
  keyhole::cli::ShellArgs args;
  if (int status = keyhole::cli::ParseShellArgs(argc, argv, &args); status >= 0) return status;
  if (keyhole::cli::WantsEndpoint(args)) return ExecBeside("keyhole-remote", "endpoint", argv);
  const std::string& path = args.path;

  // Open the database: a new file (or an empty one, as sqlite3 takes it) is said to be new; a
  // file this user may not write opens read-only, as sqlite3 does.
  if (keyhole::Status problem = OpenProblem(path); !problem.ok()) {
    std::fprintf(stderr, "keyhole: %s\n", problem.ToString().c_str());
    return 1;
  }
  bool read_only = args.read_only;
  struct stat st;
  const bool missing = ::stat(path.c_str(), &st) != 0 && errno == ENOENT;
  const bool is_new = missing || (S_ISREG(st.st_mode) && st.st_size == 0);
  if (!missing && !read_only && S_ISREG(st.st_mode) && ::access(path.c_str(), W_OK) != 0) {
    read_only = true;
  }
  static const keyhole::parser::NativeExpressionParser parser;
  keyhole::storage::Database::Options options;
  options.expression_parser = &parser;
  options.read_only = read_only;
  auto db = keyhole::storage::Database::Open(path, options);
  if (!db.ok()) {
    const keyhole::Status& s = db.status();
    std::string message = s.message();
    if (s.code() == keyhole::ErrorCode::kDatabaseFormat &&
        message.find("text file") != std::string::npos && LooksLikeScript(path)) {
      message += "; to run it as a script: keyhole DB -f " + path;
    }
    std::fprintf(stderr, "keyhole: %s: %s\n", std::string(s.name()).c_str(), message.c_str());
    return 1;
  }
  std::string opened;
  if (is_new) opened = "a new, empty database";
  if (read_only) opened = "read-only: writes are refused";
  keyhole::cli::Where where;
  where.name = path;
  where.banner = path + (opened.empty() ? "" : " (" + opened + ")");
  if (!opened.empty()) where.note = "-- " + path + ": " + opened;
  return keyhole::cli::RunShell(args, **db, db->get(), where);
}
