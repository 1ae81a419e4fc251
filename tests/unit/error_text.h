// What a failed call said, for tests that check an error's type and message in one comparison:
// "<ErrorType>: <message>" (Status::ToString), or "OK" when it did not fail.
#pragma once

#include <string>

#include "core/status.h"

namespace keyhole::testing {

inline std::string ErrorText(const Status& status) {
  return status.ok() ? std::string("OK") : status.ToString();
}
template <typename T>
std::string ErrorText(const Result<T>& result) {
  return result.ok() ? std::string("OK") : result.status().ToString();
}

}  // namespace keyhole::testing
