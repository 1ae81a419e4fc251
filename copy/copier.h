// keyhole copy: tables from one place to another (place.h), each table's definition first (keys,
// indexes, projections, billing and throughput, stream, TTL, tags), then its items, read in
// parallel parts (Scan segments, or an export's files) and written as they come, within the
// read and write capacity limits given. Then the destination is read back and its item count
// and digest (place.h ItemDigest) compared with the source's.
//
// Resumable: after each page a part writes, where it got to is saved in a state file (the
// position to resume after, how many items and their digest). Ctrl-C (Options::cancel) stops
// every part after the page in hand, saves, and says how far the copy got; the same copy run
// again (same FROM, TO and tables) picks up from there, and rewrites at most the pages after
// the last save (puts of the same items, so nothing is doubled). The state file goes once the
// copy is whole.
//
// A destination table that exists and holds items is refused unless Options::append. Without
// a definition (an export made by DynamoDB), the destination table must exist.
//
// Thread-safety: Copy runs its parts on threads of its own; call it from one thread.
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "copy/place.h"

namespace keyhole::copy {

struct Options {
  std::vector<std::string> tables;                 // empty: every table of FROM
  bool items_only = false;                         // the tables exist at TO: copy items only
  bool append = false;                             // a TO table may already hold items
  double max_read_units = 0, max_write_units = 0;  // a second; 0: no limit
  int segments = 8;                                // parts read and written at once
  const std::atomic<bool>* cancel = nullptr;
  std::string state_path;  // where progress is saved ("" to keep none)
  // Text for the person running it (notes, progress, results), written as given: lines end
  // with '\n'; a progress bar rewrites its line with '\r'.
  std::function<void(const std::string&)> say;
  // Progress on one line rewritten in place (a terminal), rather than a line every 10 s.
  bool progress_bar = false;
};

struct TableResult {
  std::string table;
  int64_t items = 0;  // copied (this run and earlier ones)
  int64_t bytes = 0;
  double seconds = 0;      // this run
  uint64_t digest = 0;     // of the source's items
  int64_t read_back = -1;  // items found at TO when checked (-1: not checked)
  uint64_t read_back_digest = 0;
  bool same = false;  // counts and digests equal
};

// Copies; OK when every table was copied whole and read back the same. InterruptedException
// after Ctrl-C (the state is saved; `*results` says how far each table got).
Status Copy(Place& from, Place& to, const Options& options, std::vector<TableResult>* results);

// The state file for a copy of `tables` from `from` to `to`:
// $XDG_CACHE_HOME/keyhole/copy/<hash>.json (~/.cache when XDG_CACHE_HOME is unset).
std::string StatePath(const std::string& from, const std::string& to,
                      const std::vector<std::string>& tables, bool items_only, bool append);

}  // namespace keyhole::copy
