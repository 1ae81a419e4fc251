// BatchWriter (batch_writer.h).
#include "api/batch_writer.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <random>
#include <set>
#include <thread>

#include "core/ddb_json.h"
#include "core/item.h"

namespace keyhole::api {

namespace {

// Write units of a put of `item`, as DynamoDB counts a table write: 1 per KB, rounded up.
double UnitsOf(const Item& item) { return std::max(1.0, std::ceil(ItemSize(item) / 1024.0)); }

// One thread's batches, in order.
struct Lane {
  std::vector<Item> current;
  std::set<std::string> keys;  // of `current`
  std::mutex mutex;
  std::condition_variable ready, room;
  std::deque<std::vector<Item>> queue;
  bool busy = false;             // its thread is sending a batch
  std::condition_variable idle;  // the queue is empty and nothing is being sent
  bool closing = false;
  std::thread thread;
};

}  // namespace

struct RateLimiter::State {
  std::mutex mutex;
  double tokens = 0;
  std::chrono::steady_clock::time_point last = std::chrono::steady_clock::now();
  void Refill(double rate) {
    const auto now = std::chrono::steady_clock::now();
    tokens = std::min(rate, tokens + rate * std::chrono::duration<double>(now - last).count());
    last = now;
  }
};

RateLimiter::RateLimiter(double rate) : rate_(rate), state_(std::make_unique<State>()) {
  state_->tokens = rate;
}
RateLimiter::~RateLimiter() = default;

bool RateLimiter::Acquire(double units, const std::atomic<bool>* cancel) {
  if (rate_ <= 0) return true;
  std::unique_lock<std::mutex> lock(state_->mutex);
  for (;;) {
    state_->Refill(rate_);
    const double need = std::min(units, rate_);
    if (state_->tokens >= need) {
      state_->tokens -= units;
      return true;
    }
    if (cancel && cancel->load()) return false;
    const double wait = std::min(0.05, (need - state_->tokens) / rate_);
    lock.unlock();
    std::this_thread::sleep_for(std::chrono::duration<double>(wait));
    lock.lock();
  }
}

void RateLimiter::Charge(double units) {
  if (rate_ <= 0 || units <= 0) return;
  std::lock_guard<std::mutex> lock(state_->mutex);
  state_->Refill(rate_);
  state_->tokens -= units;
}

struct BatchWriter::Impl {
  Backend& backend;
  std::string table;
  std::vector<std::string> key_attributes;
  Options options;
  RateLimiter own_limiter;
  RateLimiter& limiter;
  std::vector<std::unique_ptr<Lane>> lanes;
  std::atomic<int64_t> written{0};
  std::mutex units_mutex;
  double units = 0;
  std::mutex error_mutex;
  Status error;
  std::atomic<bool> failed{false};
  bool finished = false;

  Impl(Backend& b, std::string t, std::vector<std::string> keys, Options o)
      : backend(b),
        table(std::move(t)),
        key_attributes(std::move(keys)),
        options(std::move(o)),
        own_limiter(options.max_write_units_per_second),
        limiter(options.limiter ? *options.limiter : own_limiter) {}

  void Fail(Status s) {
    std::lock_guard<std::mutex> lock(error_mutex);
    if (error.ok()) error = std::move(s);
    failed = true;
  }
  Status FirstError() {
    std::lock_guard<std::mutex> lock(error_mutex);
    return error;
  }
  bool Cancelled() const { return options.cancel && options.cancel->load(); }

  std::string KeyOf(const Item& item) const {
    Item key;
    for (const std::string& name : key_attributes) {
      auto it = item.find(name);
      if (it != item.end()) key[name] = it->second;
    }
    return ItemToJsonText(key);
  }

  void Sleep(double seconds) {
    if (options.sleep) return options.sleep(seconds);
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < until && !Cancelled()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }

  // Sends one batch until every item of it is written (or an error).
  void Send(std::vector<Item> batch) {
    if (failed) return;
    double estimate = 0;
    for (const Item& item : batch) estimate += UnitsOf(item);
    if (!limiter.Acquire(estimate, options.cancel) || Cancelled()) {
      return Fail(Status(ErrorCode::kInterrupted, "Interrupted"));
    }
    BatchWriteItemRequest request;
    request.return_consumed_capacity = ReturnConsumedCapacity::kTotal;
    std::vector<WriteRequest>& writes = request.request_items[table];
    for (Item& item : batch) {
      WriteRequest w;
      w.put_request.emplace();
      w.put_request->item = std::move(item);
      writes.push_back(std::move(w));
    }
    thread_local std::mt19937_64 rng{std::random_device{}()};
    for (int round = 1;; ++round) {
      const size_t sent = request.request_items[table].size();
      Result<BatchWriteItemResponse> r = backend.BatchWriteItem(request);
      if (!r.ok()) return Fail(r.status());
      auto left = r->unprocessed_items.find(table);
      const size_t unprocessed = left == r->unprocessed_items.end() ? 0 : left->second.size();
      written += static_cast<int64_t>(sent - unprocessed);
      double reported = 0;
      for (const ConsumedCapacity& c : r->consumed_capacity) reported += c.total.capacity_units;
      {
        std::lock_guard<std::mutex> lock(units_mutex);
        units += r->consumed_capacity.empty()
                     ? estimate * (sent - unprocessed) / std::max<size_t>(sent, 1)
                     : reported;
      }
      if (round == 1) limiter.Charge(reported - estimate);
      if (unprocessed == 0) return;
      if (round >= kMaxRounds) {
        return Fail(Status::Named(
            "ProvisionedThroughputExceededException",
            fmt::format("{} items of a batch to {} were still unprocessed after {} rounds of "
                        "BatchWriteItem: the table's write capacity is exhausted (lower the "
                        "write rate, or raise the table's capacity)",
                        unprocessed, table, round)));
      }
      if (Cancelled()) return Fail(Status(ErrorCode::kInterrupted, "Interrupted"));
      std::uniform_real_distribution<double> unit(0.0, 1.0);
      Sleep(unit(rng) * std::min(std::ldexp(0.05, round), 5.0));
      request.request_items = std::move(r->unprocessed_items);
    }
  }

  void Run(Lane* lane) {
    for (;;) {
      std::vector<Item> batch;
      {
        std::unique_lock<std::mutex> lock(lane->mutex);
        lane->ready.wait(lock, [&] { return !lane->queue.empty() || lane->closing; });
        if (lane->queue.empty()) return;
        batch = std::move(lane->queue.front());
        lane->queue.pop_front();
        lane->busy = true;
      }
      lane->room.notify_one();
      Send(std::move(batch));
      {
        std::lock_guard<std::mutex> lock(lane->mutex);
        lane->busy = false;
      }
      lane->idle.notify_all();
    }
  }

  // Hands the lane's current batch to its thread (or sends it, without threads).
  void Flush(Lane* lane) {
    if (lane->current.empty()) return;
    std::vector<Item> batch = std::move(lane->current);
    lane->current.clear();
    lane->keys.clear();
    if (!lane->thread.joinable()) return Send(std::move(batch));
    {
      std::unique_lock<std::mutex> lock(lane->mutex);
      lane->room.wait(lock, [&] { return lane->queue.size() < 2 || failed; });
      lane->queue.push_back(std::move(batch));
    }
    lane->ready.notify_one();
  }

  void Close() {
    for (auto& lane : lanes) {
      if (!lane->thread.joinable()) continue;
      {
        std::lock_guard<std::mutex> lock(lane->mutex);
        lane->closing = true;
      }
      lane->ready.notify_all();
      lane->thread.join();
    }
  }
};

BatchWriter::BatchWriter(Backend& backend, std::string table,
                         std::vector<std::string> key_attributes, Options options)
    : impl_(std::make_unique<Impl>(backend, std::move(table), std::move(key_attributes),
                                   std::move(options))) {
  const int threads = std::max(1, impl_->options.threads);
  for (int i = 0; i < threads; ++i) {
    impl_->lanes.push_back(std::make_unique<Lane>());
    if (threads > 1) {
      Lane* lane = impl_->lanes.back().get();
      lane->thread = std::thread([this, lane] { impl_->Run(lane); });
    }
  }
}

BatchWriter::~BatchWriter() {
  if (!impl_->finished) impl_->Close();
}

Status BatchWriter::Add(Item item) {
  Impl& im = *impl_;
  if (im.failed) return im.FirstError();
  if (im.Cancelled()) return Status(ErrorCode::kInterrupted, "Interrupted");
  std::string key = im.KeyOf(item);
  Lane* lane = im.lanes[std::hash<std::string>{}(key) % im.lanes.size()].get();
  if (lane->keys.count(key)) im.Flush(lane);  // a batch holds each key once
  lane->keys.insert(std::move(key));
  lane->current.push_back(std::move(item));
  if (lane->current.size() >= kBatchSize) im.Flush(lane);
  return im.failed ? im.FirstError() : Status::OK();
}

Status BatchWriter::Flush() {
  Impl& im = *impl_;
  for (auto& lane : im.lanes) {
    if (!im.failed) im.Flush(lane.get());
  }
  for (auto& lane : im.lanes) {
    if (!lane->thread.joinable()) continue;
    std::unique_lock<std::mutex> lock(lane->mutex);
    lane->idle.wait(lock, [&] { return lane->queue.empty() && !lane->busy; });
  }
  return im.FirstError();
}

Status BatchWriter::Finish() {
  Impl& im = *impl_;
  if (!im.finished) {
    for (auto& lane : im.lanes) {
      if (!im.failed) im.Flush(lane.get());
    }
    im.Close();
    im.finished = true;
  }
  return im.FirstError();
}

int64_t BatchWriter::written() const { return impl_->written; }

double BatchWriter::write_units() const {
  std::lock_guard<std::mutex> lock(impl_->units_mutex);
  return impl_->units;
}

}  // namespace keyhole::api
