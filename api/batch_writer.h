// api::BatchWriter: puts many items into one table through BatchWriteItem, 25 at a time, as
// boto3's batch_writer does, with what a bulk load needs besides:
//  - batches in flight on several threads at once (Options::threads). An item goes to the
//    thread its key hashes to, and each thread sends its batches in order, so of two puts of
//    one key the later one always lands last;
//  - a batch never holds one key twice (DynamoDB refuses such a batch): a repeated key sends
//    the batch before it first;
//  - a write-capacity limit (Options::max_write_units_per_second), a token bucket charged with
//    each item's units (1 per KB) before its batch is sent, and with what the response's
//    ConsumedCapacity shows beyond that (index writes) after;
//  - unprocessed items sent again with backoff until none are left (a RemoteBackend already
//    does a few rounds itself), up to kMaxRounds rounds; then the error says how many were
//    not written.
// Not a transaction: what was written before an error stays written, and written() says how
// much that is.
//
// Thread-safety: Add and Finish are called from one thread; the backend is called from the
// writer's threads (Options::threads of them), so it must be safe for that.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/backend.h"

namespace keyhole::api {

// A token bucket of capacity units: refilled at `rate` a second, holding at most one second's
// worth. Acquire waits until units may be spent; Charge spends units already consumed (the
// bucket may go into debt, which later Acquires wait out). A rate of 0 never waits.
// Thread-safety: safe to share between threads.
class RateLimiter {
 public:
  explicit RateLimiter(double rate);
  ~RateLimiter();
  // Waits until `units` may be spent (more than a second's worth waits for a full bucket and
  // leaves it in debt). False when `cancel` was set while waiting.
  bool Acquire(double units, const std::atomic<bool>* cancel = nullptr);
  void Charge(double units);
  double rate() const { return rate_; }

 private:
  struct State;
  double rate_;
  std::unique_ptr<State> state_;
};

class BatchWriter {
 public:
  static constexpr size_t kBatchSize = 25;  // BatchWriteItem's limit
  static constexpr int kMaxRounds = 20;     // rounds for unprocessed items

  struct Options {
    int threads = 1;
    double max_write_units_per_second = 0;  // 0: no limit
    // A limit shared with other writers (used instead of max_write_units_per_second when set).
    RateLimiter* limiter = nullptr;
    const std::atomic<bool>* cancel = nullptr;  // set: stop; Finish says how far it got
    // Waits between rounds for unprocessed items (tests give their own).
    std::function<void(double seconds)> sleep;
  };

  // `key_attributes`: the table's key attribute names (a repeated key is found by them).
  BatchWriter(Backend& backend, std::string table, std::vector<std::string> key_attributes,
              Options options);
  ~BatchWriter();  // waits for what is in flight (Finish's result is lost if not called)
  BatchWriter(const BatchWriter&) = delete;
  BatchWriter& operator=(const BatchWriter&) = delete;

  // Queues `item`. Returns the first error any batch met so far (then nothing more is sent).
  Status Add(Item item);
  // Sends what is queued and waits until every item given so far is written: OK, or the first
  // error. The writer goes on taking items after it.
  Status Flush();
  // Sends what is queued and waits for every batch: OK, or the first error.
  Status Finish();

  // Items acknowledged by the backend, and the write units its responses reported (or, when a
  // response has no ConsumedCapacity, 1 per KB of each item).
  int64_t written() const;
  double write_units() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace keyhole::api
