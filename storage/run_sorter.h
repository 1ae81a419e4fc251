// RunSorter: sorts more (key, value) records than memory should hold, for bulk loads.
//
// Records are added with a sequence number; Finish() and then Next() give them back ordered by
// key bytewise, and records of equal key by sequence. Up to `memory_bytes` of records are kept
// in memory; past that, the buffer is sorted and written as a run to a temporary file in
// `directory` (unlinked at once, so that nothing is left behind however the process ends), and
// Next() merges the runs. Errors (a full disk) are InternalServerError with the OS's words.
//
// Thread-safety: none; one thread uses a RunSorter.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace keyhole::storage {

class RunSorter {
 public:
  RunSorter(std::string directory, size_t memory_bytes);
  ~RunSorter();
  RunSorter(const RunSorter&) = delete;
  RunSorter& operator=(const RunSorter&) = delete;

  Status Add(std::string_view key, uint64_t seq, std::string_view value);
  // Ends the adding; REQUIRES: called once, before Next().
  Status Finish();
  // The next record in order: true and the fields set (views valid until the next call), or
  // false at the end (or on an error, which status() then reports).
  bool Next(std::string_view* key, uint64_t* seq, std::string_view* value);
  const Status& status() const { return status_; }

 private:
  struct Entry {
    uint64_t prefix;  // the key's first 8 bytes, big-endian, zero-padded: most compares
    size_t offset;    // of the key in arena_; the value follows it
    uint32_t key_size, value_size;
    uint64_t seq;
  };
  struct Run;
  std::string_view KeyOf(const Entry& e) const { return {arena_.data() + e.offset, e.key_size}; }
  void SortBuffer();
  Status Spill();
  bool NextFromRuns(std::string_view* key, uint64_t* seq, std::string_view* value);

  std::string directory_;
  size_t memory_bytes_;
  std::string arena_;
  std::vector<Entry> entries_;
  size_t next_entry_ = 0;  // reading from memory (no run was written)
  int fd_ = -1;            // the runs' file
  uint64_t file_size_ = 0;
  std::vector<std::unique_ptr<Run>> runs_;
  std::vector<Run*> heap_;  // the runs with a current record, a min-heap by (key, seq)
  Run* last_ = nullptr;     // the run whose record Next() gave last: advanced at the next call
  Status status_;
};

}  // namespace keyhole::storage
