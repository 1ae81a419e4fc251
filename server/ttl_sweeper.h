// TtlSweeper: deletes expired TTL items periodically while `keyhole serve` runs, as DynamoDB's
// background TTL process does (reference §6.1). Each sweep is LocalControl::SweepExpiredItems
// over every table: deletions like DeleteItem's (indexes, stream records marked as the service's),
// without capacity. Expiry is judged by the backend's clock, so a test that moves that clock
// sees items go at the next sweep.
//
// Thread-safety: the sweeper runs its own thread; `local` must be safe to call from it beside the
// server's requests (storage::Database is).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

#include "core/backend.h"

namespace keyhole::server {

class TtlSweeper {
 public:
  // Starts sweeping every `period` (the first sweep one period from now). `local` must outlive
  // the sweeper. A period of zero never sweeps.
  TtlSweeper(LocalControl& local, std::chrono::milliseconds period);
  // Stops the thread (a sweep in progress finishes first).
  ~TtlSweeper();
  TtlSweeper(const TtlSweeper&) = delete;
  TtlSweeper& operator=(const TtlSweeper&) = delete;

  // Items deleted by the sweeps so far, and sweeps done.
  int64_t deleted() const;
  int64_t sweeps() const;

 private:
  LocalControl& local_;
  const std::chrono::milliseconds period_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  int64_t deleted_ = 0, sweeps_ = 0;
  std::thread thread_;
};

}  // namespace keyhole::server
