// keyhole-remote: the shell on an endpoint (Amazon DynamoDB, a compatible engine, keyhole
// serve), and `keyhole copy`. keyhole runs it in its own place when the command line asks for
// one of them (cli/shell_main.h says why it is a program of its own).
//
// The endpoint, region, profile, CA bundle and attempts are resolved as the AWS CLI v2 resolves
// them (aws/config.h), and the credentials by its chain (aws/credentials.h). A non-AWS endpoint
// (a local server) with no credentials configured anywhere gets placeholder keys, which such
// servers accept; AWS itself gets NoCredentialsError.
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

#include "aws/config.h"
#include "aws/endpoint.h"
#include "cli/copy_main.h"
#include "cli/malloc_tuning.h"
#include "cli/open_endpoint.h"
#include "cli/shell_main.h"

namespace keyhole::cli {
namespace {

int Fail(const Status& s) {
  std::fprintf(stderr, "keyhole: %s: %s\n", std::string(s.name()).c_str(), s.message().c_str());
  if (!s.hint().empty()) std::fprintf(stderr, "  hint: %s\n", s.hint().c_str());
  return 1;
}

}  // namespace
}  // namespace keyhole::cli

int main(int argc, char** argv) {
  keyhole::TuneMalloc();
  using namespace keyhole::cli;
  if (argc > 1 && std::string_view(argv[1]) == "copy") return CopyMain(argc, argv);
  ShellArgs args;
  if (int status = ParseShellArgs(argc, argv, &args); status >= 0) return status;
  if (!WantsEndpoint(args)) {
    std::fprintf(stderr, "keyhole-remote: no endpoint given (--endpoint, --region, --profile)\n");
    return 2;
  }
  EndpointFlags flags;
  flags.endpoint = args.endpoint;
  flags.region = args.region;
  flags.profile = args.profile;
  flags.ca_bundle = args.ca_bundle;
  flags.max_attempts = args.max_attempts;
  flags.connect_timeout = args.connect_timeout;
  flags.read_timeout = args.read_timeout;
  flags.read_only = args.read_only;
  flags.cancel = InterruptFlag();
  keyhole::Result<std::unique_ptr<Endpoint>> opened = OpenEndpoint(flags);
  if (!opened.ok()) return Fail(opened.status());
  Endpoint& e = **opened;
  const keyhole::aws::ClientSettings& s = e.settings;
  Where where;
  where.name = e.url;
  where.endpoint = e.url;
  const bool regional = !s.endpoint;
  std::string details =
      "region " + e.region + (e.region_source.empty() ? "" : " from " + e.region_source);
  if (s.profile_chosen) details += ", profile " + s.profile.value;
  details += ", credentials from " + e.credentials_source;
  if (args.read_only) details += ", read-only: writes are refused";
  where.banner = e.url + " (" + details + ")";
  where.prompt_name = "keyhole@" + std::string(s.profile_chosen ? s.profile.value + ":" : "") +
                      (regional ? e.region : keyhole::aws::ParseEndpoint(e.url)->HostHeader());
  return RunShell(args, *e.backend, nullptr, where);
}
