// KH_REQUIRE(condition): checks a precondition a header states with "REQUIRES:", as LevelDB
// asserts its own. In a debug build (NDEBUG not defined), or with KEYHOLE_CHECK_REQUIRES defined,
// a violated one prints "<file>:<line>: REQUIRES failed: <condition>" on standard error and
// aborts; otherwise it compiles to nothing and `condition` is not evaluated (so it must have no
// effects of its own).
#pragma once

#if !defined(NDEBUG) || defined(KEYHOLE_CHECK_REQUIRES)
#include <cstdio>
#include <cstdlib>
#define KH_REQUIRE(condition)                                                               \
  do {                                                                                      \
    if (!(condition)) {                                                                     \
      std::fprintf(stderr, "%s:%d: REQUIRES failed: %s\n", __FILE__, __LINE__, #condition); \
      std::abort();                                                                         \
    }                                                                                       \
  } while (0)
#else
#define KH_REQUIRE(condition) \
  do {                        \
  } while (0)
#endif
