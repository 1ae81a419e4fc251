// WorkerPool: the threads keyhole serve runs requests that may block on (a write waiting for
// its group commit and sync, a 1 MB Scan page) while the HTTP event threads go on serving other
// connections. Threads are started as work arrives, up to a bound, and then reused; work past
// the bound waits in arrival order.
//
// Thread-safety: Submit and Drain may be called from any thread at once; the destructor waits
// for the work already submitted.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace keyhole::server {

class WorkerPool {
 public:
  // At most `max_threads` (at least 1) threads at once.
  explicit WorkerPool(int max_threads);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // Runs `work` on a pool thread: an idle one, a new one below the bound, or the first to
  // finish what it is doing. `work` must not throw.
  void Submit(std::function<void()> work);
  // Waits until no work is running or waiting.
  void Drain();
  // Threads started so far (for tests and the bench).
  size_t threads() const;

 private:
  void Loop();

  const size_t max_threads_;
  mutable std::mutex mutex_;
  std::condition_variable work_ready_, drained_;
  std::deque<std::function<void()>> queue_;  // guarded by mutex_, as are the fields below
  size_t idle_ = 0, running_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace keyhole::server
