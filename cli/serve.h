// `keyhole serve FILE [options]`: DynamoDB's HTTP API on a keyhole file (server/).
#pragma once

namespace keyhole::cli {

// Runs `keyhole serve` with argv[2..] (argv[1] is "serve"); the process's exit status.
int ServeMain(int argc, char** argv);

}  // namespace keyhole::cli
