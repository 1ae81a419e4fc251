// keyhole copy FROM TO: tables between keyhole files, endpoints, DynamoDB itself and folders in
// DynamoDB's S3 export layout (copy/copier.h says how). Run by keyhole-remote, which keyhole
// execs for `keyhole copy`.
#include "cli/copy_main.h"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "cli/open_endpoint.h"
#include "copy/copier.h"
#include "parser/expression_parser.h"
#include "storage/database.h"

namespace keyhole::cli {

namespace {

constexpr char kUsage[] =
    "usage: keyhole copy FROM TO [--table NAME]... [--items-only] [--append]\n"
    "                    [--max-rcu N] [--max-wcu N] [--segments N]\n"
    "                    [--profile P] [--from-profile P] [--to-profile P] [--region R]\n"
    "                    [--ca-bundle FILE] [--max-attempts N]\n"
    "FROM and TO are each:\n"
    "  a keyhole file        PATH (TO is created when missing)\n"
    "  an endpoint           http://HOST:PORT or https://HOST (keyhole serve, DynamoDB Local, "
    "...)\n"
    "  DynamoDB itself       aws:REGION\n"
    "  an S3 export folder   a folder holding DynamoDB's export to S3 (DYNAMODB_JSON):\n"
    "                        AWSDynamoDB/<ExportId>/manifest-summary.json, data/*.json.gz;\n"
    "                        as TO, an existing folder or a PATH ending in '/' (keyhole writes\n"
    "                        that layout, with the table's definition beside it)\n"
    "  --table NAME      copy this table (repeatable; default: every table of FROM)\n"
    "  --items-only      the tables exist at TO: copy only their items\n"
    "  --append          copy into a TO table that already holds items\n"
    "  --max-rcu N       read at most N read capacity units a second (default: no limit)\n"
    "  --max-wcu N       write at most N write capacity units a second (default: no limit)\n"
    "  --segments N      parts read and written at once (parallel Scan segments; default 8)\n"
    "  --profile P       AWS profile for both ends (--from-profile, --to-profile for one)\n"
    "  --region R        region of an endpoint given by URL (signing); aws:REGION names its own\n"
    "Ctrl-C stops the copy, saying how far it got; the same command run again finishes it.\n"
    "At the end both sides' item counts and digests are compared.\n";

std::atomic<bool> g_cancel{false};

void OnStop(int) { g_cancel.store(true); }

int BadUsage(const std::string& message) {
  std::fprintf(stderr, "keyhole copy: %s\n%s", message.c_str(), kUsage);
  return 2;
}

// One end of the copy, opened.
struct End {
  std::string spec;  // as given
  std::string key;   // what identifies it in the state file (absolute paths)
  std::unique_ptr<storage::Database> db;
  std::unique_ptr<Endpoint> endpoint;
  std::unique_ptr<copy::Place> place;
};

bool IsUrl(const std::string& s) { return s.starts_with("http://") || s.starts_with("https://"); }

Result<End> Open(const std::string& spec, bool destination, const EndpointFlags& base) {
  End end;
  end.spec = spec;
  std::error_code ec;
  if (spec.starts_with("aws:") || IsUrl(spec)) {
    EndpointFlags flags = base;
    if (spec.starts_with("aws:")) {
      flags.region = spec.substr(4);
      flags.endpoint.clear();
      if (flags.region.empty())
        return Status::Validation("aws:REGION needs a region: aws:us-east-1");
    } else {
      flags.endpoint = spec;
    }
    KH_ASSIGN_OR_RETURN(end.endpoint, OpenEndpoint(flags));
    end.key = end.endpoint->url;
    end.place = copy::BackendPlace(*end.endpoint->backend, end.endpoint->url);
    return end;
  }
  const bool folder =
      std::filesystem::is_directory(spec, ec) || (destination && spec.ends_with('/'));
  end.key = std::filesystem::absolute(spec, ec).lexically_normal().string();
  if (folder) {
    KH_ASSIGN_OR_RETURN(end.place, copy::ExportFolder(spec, destination));
    end.key = "folder:" + end.key;
    return end;
  }
  struct stat st;
  if (!destination && ::stat(spec.c_str(), &st) != 0) {
    return Status::NotFound(fmt::format(
        "{}: no such keyhole file, folder, endpoint (http://, https://) or aws:REGION", spec));
  }
  static const parser::NativeExpressionParser parser;
  storage::Database::Options options;
  options.expression_parser = &parser;
  options.read_only = !destination;
  KH_ASSIGN_OR_RETURN(end.db, storage::Database::Open(spec, options));
  end.place = copy::BackendPlace(*end.db, "keyhole file " + spec, end.db.get());
  return end;
}

}  // namespace

int CopyMain(int argc, char** argv) {
  std::vector<std::string> positional;
  copy::Options options;
  EndpointFlags from_flags, to_flags;
  std::string profile, from_profile, to_profile;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    const bool takes_value = a == "--table" || a == "--max-rcu" || a == "--max-wcu" ||
                             a == "--segments" || a == "--profile" || a == "--from-profile" ||
                             a == "--to-profile" || a == "--region" || a == "--ca-bundle" ||
                             a == "--max-attempts";
    if (takes_value && i + 1 >= argc) return BadUsage(a + " needs a value");
    const auto number = [&](double low, double high, double* out) {
      char* end = nullptr;
      const double v = std::strtod(argv[++i], &end);
      if (*end != '\0' || end == argv[i] || !(v >= low && v <= high)) return false;
      *out = v;
      return true;
    };
    if (a == "--table") {
      options.tables.push_back(argv[++i]);
    } else if (a == "--items-only") {
      options.items_only = true;
    } else if (a == "--append") {
      options.append = true;
    } else if (a == "--max-rcu" || a == "--max-wcu") {
      double* target = a == "--max-rcu" ? &options.max_read_units : &options.max_write_units;
      if (!number(1, 1e9, target)) return BadUsage("bad " + a + " '" + argv[i] + "'");
    } else if (a == "--segments") {
      double n = 0;
      if (!number(1, 1000, &n) || n != std::floor(n)) {
        return BadUsage(std::string("bad --segments '") + argv[i] + "' (1 to 1000)");
      }
      options.segments = static_cast<int>(n);
    } else if (a == "--profile") {
      profile = argv[++i];
    } else if (a == "--from-profile") {
      from_profile = argv[++i];
    } else if (a == "--to-profile") {
      to_profile = argv[++i];
    } else if (a == "--region") {
      from_flags.region = to_flags.region = argv[++i];
    } else if (a == "--ca-bundle") {
      from_flags.ca_bundle = to_flags.ca_bundle = argv[++i];
    } else if (a == "--max-attempts") {
      double n = 0;
      if (!number(1, 100, &n)) return BadUsage(std::string("bad --max-attempts '") + argv[i] + "'");
      from_flags.max_attempts = to_flags.max_attempts = static_cast<int>(n);
    } else if (a == "-h" || a == "--help") {
      std::printf("%s", kUsage);
      return 0;
    } else if (!a.empty() && a[0] != '-') {
      positional.push_back(a);
    } else {
      return BadUsage("unexpected argument '" + a + "'");
    }
  }
  if (positional.size() != 2) return BadUsage("give FROM and TO");
  from_flags.profile = from_profile.empty() ? profile : from_profile;
  to_flags.profile = to_profile.empty() ? profile : to_profile;
  from_flags.cancel = to_flags.cancel = &g_cancel;
  from_flags.read_only = true;

  struct sigaction stop {};
  stop.sa_handler = OnStop;
  sigemptyset(&stop.sa_mask);
  stop.sa_flags = SA_RESTART | SA_RESETHAND;  // a second Ctrl-C ends the process at once
  sigaction(SIGINT, &stop, nullptr);
  sigaction(SIGTERM, &stop, nullptr);
  signal(SIGPIPE, SIG_IGN);

  const auto fail = [](const Status& s) {
    std::fprintf(stderr, "keyhole copy: %s: %s\n", std::string(s.name()).c_str(),
                 s.message().c_str());
    if (!s.hint().empty()) std::fprintf(stderr, "  hint: %s\n", s.hint().c_str());
    return 1;
  };
  Result<End> from = Open(positional[0], false, from_flags);
  if (!from.ok()) return fail(from.status());
  Result<End> to = Open(positional[1], true, to_flags);
  if (!to.ok()) return fail(to.status());
  if (from->key == to->key) return BadUsage("FROM and TO are the same");

  options.cancel = &g_cancel;
  options.state_path =
      copy::StatePath(from->key, to->key, options.tables, options.items_only, options.append);
  options.progress_bar = ::isatty(2);
  options.say = [](const std::string& text) {
    std::fputs(text.c_str(), stderr);
    std::fflush(stderr);
  };
  std::vector<copy::TableResult> results;
  Status s = copy::Copy(*from->place, *to->place, options, &results);
  if (s.code() == ErrorCode::kInterrupted) {
    std::fprintf(stderr, "keyhole copy: interrupted; progress saved in %s\n",
                 options.state_path.c_str());
    return 130;
  }
  if (!s.ok()) return fail(s);
  return 0;
}

}  // namespace keyhole::cli
