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

// A token bucket of write units: refilled at `rate` a second, holding at most one second's.
class Limiter {
 public:
  explicit Limiter(double rate) : rate_(rate), tokens_(rate) {}
  // Waits until `units` may be spent (a request larger than a second's worth waits for a
  // full bucket and leaves it in debt). False when `cancel` was set while waiting.
  bool Acquire(double units, const std::atomic<bool>* cancel) {
    if (rate_ <= 0) return true;
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      Refill();
      const double need = std::min(units, rate_);
      if (tokens_ >= need) {
        tokens_ -= units;
        return true;
      }
      if (cancel && cancel->load()) return false;
      const double wait = std::min(0.05, (need - tokens_) / rate_);
      lock.unlock();
      std::this_thread::sleep_for(std::chrono::duration<double>(wait));
      lock.lock();
    }
  }
  // Units spent beyond what was acquired (index writes the response reported).
  void Charge(double units) {
    if (rate_ <= 0 || units <= 0) return;
    std::lock_guard<std::mutex> lock(mutex_);
    Refill();
    tokens_ -= units;
  }

 private:
  void Refill() {
    const auto now = std::chrono::steady_clock::now();
    tokens_ = std::min(rate_, tokens_ + rate_ * std::chrono::duration<double>(now - last_).count());
    last_ = now;
  }
  double rate_;
  double tokens_;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
  std::mutex mutex_;
};

// One thread's batches, in order.
struct Lane {
  std::vector<Item> current;
  std::set<std::string> keys;  // of `current`
  std::mutex mutex;
  std::condition_variable ready, room;
  std::deque<std::vector<Item>> queue;
  bool closing = false;
  std::thread thread;
};

}  // namespace

struct BatchWriter::Impl {
  Backend& backend;
  std::string table;
  std::vector<std::string> key_attributes;
  Options options;
  Limiter limiter;
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
        limiter(options.max_write_units_per_second) {}

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
      }
      lane->room.notify_one();
      Send(std::move(batch));
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
