// ScanLog (scan_log.h).
#include "server/scan_log.h"

#include <fmt/format.h>

#include <utility>

#include "core/json.h"

namespace keyhole::server {

ScanLog::ScanLog(std::function<void(std::string_view line)> log) : log_(std::move(log)) {}

std::string ScanLog::LogLine(const api::ScanEvent& e) {
  std::string line = fmt::format("keyhole serve: {} scans \"{}\"{}: {}", e.operation, e.table,
                                 e.index ? fmt::format(".\"{}\"", *e.index) : "", e.statement);
  if (!e.advice) return line;
  line += " -- " + e.advice->reason;
  if (!e.advice->fixes.empty()) {
    line += "; without a scan: ";
    for (size_t i = 0; i < e.advice->fixes.size(); ++i) {
      line += (i == 0 ? "" : i + 1 == e.advice->fixes.size() ? ", or " : ", ") + e.advice->fixes[i];
    }
  }
  if (std::string s = e.advice->suggestion; !s.empty()) {
    if (s[0] >= 'a' && s[0] <= 'z') s[0] = static_cast<char>(s[0] - 'a' + 'A');
    line += ". " + s;
  }
  return line;
}

void ScanLog::Scanned(const api::ScanEvent& e) {
  std::string key = fmt::format("{}\n{}", e.operation, e.statement);
  std::string line;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = by_statement_.find(key);
    if (it != by_statement_.end()) {
      Entry& entry = entries_[it->second];
      ++entry.calls;
      entry.items_scanned += e.scanned_count;
      return;
    }
    if (entries_.size() >= kMaxEntries) {
      ++unlisted_calls_;
      return;
    }
    Entry entry;
    entry.operation = e.operation;
    entry.statement = e.statement;
    entry.table = e.table;
    if (e.index) entry.index = std::string(*e.index);
    if (e.advice) entry.advice = *e.advice;
    entry.calls = 1;
    entry.items_scanned = e.scanned_count;
    by_statement_.emplace(std::move(key), entries_.size());
    entries_.push_back(std::move(entry));
    // The log tells of the statements DynamoDB scans where keyhole's shell would refuse them;
    // Scan calls and SCAN SELECT say they scan, and are in the report only.
    if (log_ && e.advice && e.operation == "ExecuteStatement") line = LogLine(e);
  }
  if (!line.empty()) log_(line);
}

std::string ScanLog::Report() const {
  std::lock_guard<std::mutex> lock(mutex_);
  json::Value scans = json::Value::MakeArray();
  for (const Entry& e : entries_) {
    json::Value o = json::Value::MakeObject();
    o.Add("operation", json::Value::String(e.operation));
    o.Add("statement", json::Value::String(e.statement));
    o.Add("table", json::Value::String(e.table));
    if (e.index) o.Add("index", json::Value::String(*e.index));
    o.Add("calls", json::Value::Int(e.calls));
    o.Add("items_scanned", json::Value::Int(e.items_scanned));
    if (e.advice) {
      o.Add("reason", json::Value::String(e.advice->reason));
      json::Value fixes = json::Value::MakeArray();
      for (const std::string& f : e.advice->fixes) fixes.Push(json::Value::String(f));
      o.Add("fixes", std::move(fixes));
      if (!e.advice->suggestion.empty()) {
        o.Add("suggestion", json::Value::String(e.advice->suggestion));
      }
    }
    scans.Push(std::move(o));
  }
  json::Value report = json::Value::MakeObject();
  report.Add("scans", std::move(scans));
  report.Add("unlisted_calls", json::Value::Int(unlisted_calls_));
  return json::WriteIndented(report) + "\n";
}

}  // namespace keyhole::server
