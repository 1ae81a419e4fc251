// keyhole-serve: `keyhole serve` as a program of its own, which `keyhole serve ...` execs (see
// cli/CMakeLists.txt for why). Takes `keyhole-serve FILE [options]` or, as keyhole passes them,
// `keyhole serve FILE [options]`.
#include <string_view>
#include <vector>

#include "cli/malloc_tuning.h"
#include "cli/serve.h"

int main(int argc, char** argv) {
  keyhole::TuneMalloc();
  if (argc > 1 && std::string_view(argv[1]) == "serve") return keyhole::cli::ServeMain(argc, argv);
  std::vector<char*> args(argv, argv + argc);
  static char serve[] = "serve";
  args.insert(args.begin() + 1, serve);
  args.push_back(nullptr);
  return keyhole::cli::ServeMain(argc + 1, args.data());
}
