// TtlSweeper (ttl_sweeper.h).
#include "server/ttl_sweeper.h"

namespace keyhole::server {

TtlSweeper::TtlSweeper(LocalControl& local, std::chrono::milliseconds period)
    : local_(local), period_(period) {
  if (period_.count() <= 0) return;
  thread_ = std::thread([this] {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!wake_.wait_for(lock, period_, [&] { return stopping_; })) {
      lock.unlock();
      // A sweep that fails (a full disk, say) deletes nothing; the next one retries.
      Result<int64_t> n = local_.SweepExpiredItems("");
      lock.lock();
      ++sweeps_;
      if (n.ok()) deleted_ += *n;
    }
  });
}

TtlSweeper::~TtlSweeper() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

int64_t TtlSweeper::deleted() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return deleted_;
}

int64_t TtlSweeper::sweeps() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return sweeps_;
}

}  // namespace keyhole::server
