// Status and Result<T>: what a caller may hold on to.
#include "core/status.h"

#include <gtest/gtest.h>

#include <string>

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
