// `keyhole copy FROM TO ...` (copy_main.cpp; copy/copier.h says what a copy does).
#pragma once

namespace keyhole::cli {

// argv[1] is "copy". Returns the exit status: 0 copied and read back the same, 1 an error, 2 a
// bad command line, 130 interrupted (progress saved: the same command goes on).
int CopyMain(int argc, char** argv);

}  // namespace keyhole::cli
