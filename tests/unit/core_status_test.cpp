// Status and Result<T>: what a caller may hold on to.
#include "core/status.h"

#include <gtest/gtest.h>

#include <string>

// Checked in this file whatever the build type (CoreStatusTest.RequireAbortsNamingTheCondition).
#define KEYHOLE_CHECK_REQUIRES 1
#include "core/require.h"

namespace keyhole {
namespace {

Result<int> Failing(std::string message) { return Status::Validation(std::move(message)); }

// The shell's .import held `r.status().message()` by reference; when status() returned a copy,
// the reference dangled and an import interrupted after its reading phase crashed
// (std::length_error). status() of a named Result is now a reference into it.
TEST(CoreStatusResultTest, StatusOfANamedResultIsAReferenceIntoIt) {
  Result<int> r = Failing(std::string(200, 'x'));  // longer than the small-string buffer
  const std::string& message = r.status().message();
  EXPECT_EQ(&r.status(), &r.status());
  EXPECT_EQ(message, std::string(200, 'x'));
  Result<int> ok = 7;
  EXPECT_TRUE(ok.status().ok());
  EXPECT_EQ(ok.status().code(), ErrorCode::kOk);
}

TEST(CoreStatusResultTest, StatusOfATemporaryResultIsItsOwn) {
  Status s = Failing("gone").status();
  EXPECT_EQ(s.code(), ErrorCode::kValidation);
  EXPECT_EQ(s.message(), "gone");
  EXPECT_TRUE(Result<int>(3).status().ok());
}

}  // namespace
}  // namespace keyhole

namespace keyhole {
namespace {

// KH_REQUIRE (core/require.h), compiled in here whatever the build type: a violated
// precondition aborts naming its file, line and condition; a kept one does nothing.
int Checked(int divisor) {
  KH_REQUIRE(divisor != 0);
  return 10 / divisor;
}

TEST(CoreStatusTest, RequireAbortsNamingTheCondition) {
  EXPECT_EQ(Checked(2), 5);
  EXPECT_DEATH(Checked(0), "core_status_test.cpp:[0-9]+: REQUIRES failed: divisor != 0");
}

}  // namespace
}  // namespace keyhole
