// ScanLog: what `keyhole serve` records of the scans its clients make. An ExecuteStatement
// SELECT that pins no partition key runs as a Scan, as on DynamoDB; the first time a statement
// text does, the log gets one line naming it and what would serve it without a scan (the
// index, or the key to pin). Report() lists every scanning statement and Scan call once, with
// how often it ran and how many items it read (`keyhole serve --scan-report FILE`).
//
// At most kMaxEntries distinct statements are kept; the calls of further ones are counted
// together, and the report says how many it could not list.
//
// Thread-safety: Scanned may be called from many threads at once; Report from any.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/service.h"

namespace keyhole::server {

class ScanLog : public api::ScanObserver {
 public:
  static constexpr size_t kMaxEntries = 10000;

  // `log` receives each line (without a newline) from the thread that scanned; empty: no log.
  explicit ScanLog(std::function<void(std::string_view line)> log);

  void Scanned(const api::ScanEvent& event) override;

  // The report, as one JSON document: {"scans": [{"operation", "statement", "table", "index"?,
  // "calls", "items_scanned", "reason"?, "fixes"?: [..], "suggestion"?}, ..] in the order
  // first seen, "unlisted_calls": n} (calls of statements past kMaxEntries).
  std::string Report() const;

  // The log line for a scanning statement's first run (exposed for tests).
  static std::string LogLine(const api::ScanEvent& event);

 private:
  struct Entry {
    std::string operation, statement, table;
    std::optional<std::string> index;
    std::optional<planner::ScanAdvice> advice;
    int64_t calls = 0, items_scanned = 0;
  };

  std::function<void(std::string_view)> log_;
  mutable std::mutex mutex_;
  std::map<std::string, size_t, std::less<>> by_statement_;  // operation + statement -> entries_
  std::vector<Entry> entries_;
  int64_t unlisted_calls_ = 0;
};

}  // namespace keyhole::server
