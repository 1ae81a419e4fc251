// Retries as the AWS SDKs' "standard" mode (botocore retries/standard.py, the SDKs and Tools
// reference guide "Retry behavior"):
//  - at most max_attempts attempts in all (3 by default);
//  - retried: throttling errors (ThrottlingException, ProvisionedThroughputExceededException,
//    RequestLimitExceeded, TransactionInProgressException, LimitExceededException, ...),
//    transient ones (HTTP 500, 502, 503, 504; RequestTimeout; a connection that failed, reset
//    or timed out; a response whose x-amz-crc32 does not match its body);
//  - before retry n (n = 1 after the first attempt failed): a random wait in [0, min(2^(n-1),
//    20)) seconds ("full jitter");
//  - a retry quota shared by the client: 500 tokens, a retry takes 5 (10 after a timeout), a
//    success gives back what its retry took (1 when it needed none); with too few tokens left
//    the error is returned instead of retried.
// Not retried: a DNS failure or an untrusted TLS certificate (no retry can fix them; botocore
// would try again), and any write that is not idempotent when the failure may have come after
// the server received it (the caller says which requests are safe; RemoteBackend).
//
// Thread-safety: RetryQuota is safe to share; Backoff uses a thread-local generator.
#pragma once

#include <atomic>
#include <string_view>

namespace keyhole::aws {

// Whether DynamoDB's error named `code` (the part of __type after '#') is a throttling error.
bool IsThrottlingError(std::string_view code);
// Whether an answer with HTTP `status` and error `code` is transient (5xx, RequestTimeout...).
bool IsTransientError(int status, std::string_view code);

// The wait before retry `retry` (1 for the first retry), in seconds.
double Backoff(int retry);

class RetryQuota {
 public:
  static constexpr int kCapacity = 500, kRetryCost = 5, kTimeoutCost = 10;
  // Takes the tokens of one retry; false when there are too few (then do not retry).
  bool Acquire(bool timeout);
  // A call succeeded: returns `taken` tokens (the cost of its last retry), or 1 when it needed
  // none.
  void Release(int taken);
  int available() const { return tokens_.load(); }

 private:
  std::atomic<int> tokens_{kCapacity};
};

}  // namespace keyhole::aws
