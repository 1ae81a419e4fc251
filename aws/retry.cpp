// Standard-mode retries (retry.h).
#include "aws/retry.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace keyhole::aws {

bool IsThrottlingError(std::string_view code) {
  static constexpr std::string_view kCodes[] = {
      "Throttling",
      "ThrottlingException",
      "ThrottledException",
      "RequestThrottledException",
      "TooManyRequestsException",
      "ProvisionedThroughputExceededException",
      "TransactionInProgressException",
      "RequestLimitExceeded",
      "BandwidthLimitExceeded",
      "LimitExceededException",
      "RequestThrottled",
      "SlowDown",
      "PriorRequestNotComplete",
      "EC2ThrottledException",
  };
  return std::find(std::begin(kCodes), std::end(kCodes), code) != std::end(kCodes);
}

bool IsTransientError(int status, std::string_view code) {
  return status == 500 || status == 502 || status == 503 || status == 504 ||
         code == "RequestTimeout" || code == "RequestTimeoutException" ||
         code == "PriorRequestNotComplete" || code == "ReplicatedWriteConflictException";
}

double Backoff(int retry) {
  thread_local std::mt19937_64 rng{std::random_device{}()};
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const double cap = std::min(std::ldexp(1.0, std::max(0, retry - 1)), 20.0);
  return unit(rng) * cap;
}

bool RetryQuota::Acquire(bool timeout) {
  const int cost = timeout ? kTimeoutCost : kRetryCost;
  int have = tokens_.load();
  while (have >= cost) {
    if (tokens_.compare_exchange_weak(have, have - cost)) return true;
  }
  return false;
}

void RetryQuota::Release(int taken) {
  const int give = taken > 0 ? taken : 1;
  int have = tokens_.load();
  while (!tokens_.compare_exchange_weak(have, std::min(kCapacity, have + give))) {
  }
}

}  // namespace keyhole::aws
