// WorkerPool (worker_pool.h).
#include "server/worker_pool.h"

#include <algorithm>

namespace keyhole::server {

WorkerPool::WorkerPool(int max_threads)
    : max_threads_(static_cast<size_t>(std::max(1, max_threads))) {}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  work_ready_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void WorkerPool::Submit(std::function<void()> work) {
  std::lock_guard<std::mutex> lock(mutex_);
  queue_.push_back(std::move(work));
  if (idle_ < queue_.size() && threads_.size() < max_threads_) {
    threads_.emplace_back([this] { Loop(); });
  } else {
    work_ready_.notify_one();
  }
}

void WorkerPool::Drain() {
  std::unique_lock<std::mutex> lock(mutex_);
  drained_.wait(lock, [&] { return queue_.empty() && running_ == 0; });
}

size_t WorkerPool::threads() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return threads_.size();
}

void WorkerPool::Loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    ++idle_;
    work_ready_.wait(lock, [&] { return !queue_.empty() || stopping_; });
    --idle_;
    if (queue_.empty()) return;  // stopping, with nothing left to do
    std::function<void()> work = std::move(queue_.front());
    queue_.pop_front();
    ++running_;
    lock.unlock();
    work();
    work = nullptr;
    lock.lock();
    --running_;
    if (queue_.empty() && running_ == 0) drained_.notify_all();
  }
}

}  // namespace keyhole::server
