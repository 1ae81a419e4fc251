// Where `keyhole copy` reads tables from and writes them to (design.md: a copy is Backend to
// Backend and belongs to neither end). A Place is one of:
//  - a Backend (a keyhole file, an endpoint, DynamoDB itself): BackendPlace (backend_place.cpp);
//  - a folder in the layout of DynamoDB's export to S3 (DYNAMODB_JSON): ExportFolder
//    (export_folder.cpp).
// Reading is in parts (a parallel Scan's segments, or an export's data files) that can be
// resumed from a position; writing is puts (BatchWriteItem, or gzip'd JSON lines) that the
// copier checkpoints after each page.
//
// Thread-safety: different parts are read, and different writers written, on different threads
// at once; the other calls are made from one thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/backend.h"
#include "core/schema.h"

namespace keyhole::copy {

// What the copier shares with a place's readers and writers.
struct Limits {
  // Read and write capacity units a second, shared by every part (0: no limit).
  double max_read_units = 0, max_write_units = 0;
  const std::atomic<bool>* cancel = nullptr;  // Ctrl-C: stop after the page in hand
  // Strongly consistent reads (the read-back after a copy: an eventually consistent Scan might
  // miss the last writes).
  bool consistent = false;
  // The read-back of the destination after a copy. A keyhole file reads it without the
  // capacity limits, which protect a service's tables (a file has none to protect).
  bool read_back = false;
};

// One page a part produced: its items and the position to resume after it ("" at the start;
// nullopt: the part is done).
struct Page {
  std::vector<Item> items;
  std::optional<std::string> next;
  double read_units = 0;
  int64_t bytes = 0;  // the items' size, for progress
};

// Writes the items of one part of one table, in order; each Write returns once its items are
// stored (so the copier may checkpoint after it).
class PartWriter {
 public:
  virtual ~PartWriter() = default;
  virtual Status Write(std::vector<Item> items) = 0;
  // After the last Write: anything the part still holds, stored.
  virtual Status Close() = 0;
  virtual double write_units() const = 0;
  // True when Write only hands the items on and Close stores all of the part's at once (a
  // bulk load into a keyhole file): the copier then checkpoints the part only after Close.
  virtual bool stores_at_close() const { return false; }
};

class Place {
 public:
  virtual ~Place() = default;
  // "keyhole file music.kh", "https://dynamodb.us-east-1.amazonaws.com/", "export folder out/".
  virtual std::string Name() const = 0;

  // Reading.
  virtual Result<std::vector<std::string>> Tables() = 0;
  // The table's definition (keys, indexes, billing, stream, TTL, tags); nullopt when the place
  // does not know it (an export made by DynamoDB, which holds only items).
  virtual Result<std::optional<TableDescription>> Definition(const std::string& table) = 0;
  // About how many items the table holds (for progress; -1 unknown).
  virtual int64_t ItemCountEstimate(const std::string& table) = 0;
  // How many parts the table is read in when `wanted` are asked for.
  virtual int Parts(const std::string& table, int wanted) = 0;
  // The page of part `part` (of `parts`) after `position` ("" for its start).
  virtual Result<Page> Read(const std::string& table, int part, int parts,
                            const std::string& position, const Limits& limits) = 0;

  // Writing.
  // Whether the table exists, and whether it holds any item.
  virtual Result<bool> Exists(const std::string& table) = 0;
  virtual Result<bool> Empty(const std::string& table) = 0;
  // Creates the table as `definition` says (named `table`) and waits until it is ACTIVE, TTL
  // and tags included. `note` is told what could not be carried.
  virtual Status Create(const std::string& table, const TableDescription& definition,
                        const std::function<void(const std::string&)>& note) = 0;
  // Before the writers of one pass over `table` are made: how many there will be (one for each
  // part still to copy).
  virtual Status WillWrite(const std::string& table, int writers, const Limits& limits) {
    return Status::OK();
  }
  // A writer for part `part`; `resume` says where its earlier run stopped (a place that writes
  // files names them by part and sequence, so a resumed part rewrites the same names).
  virtual Result<std::unique_ptr<PartWriter>> Writer(const std::string& table, int part,
                                                     int64_t sequence, const Limits& limits) = 0;
  // After every part was written: what makes the copy whole (an export's manifests).
  virtual Status Finish(const std::string& table,
                        const std::optional<TableDescription>& definition) {
    return Status::OK();
  }
};

// A backend as a place. `name` says what it is ("keyhole file x.kh", an endpoint's URL).
// `local`, for a keyhole file, writes through LocalControl::ImportItems instead of
// BatchWriteItems of 25: into an empty table, every part's items as one sorted bulk load, stored
// when the last part closes; otherwise a write transaction per chunk.
std::unique_ptr<Place> BackendPlace(Backend& backend, std::string name,
                                    LocalControl* local = nullptr);

// A folder in the layout of DynamoDB's export to S3 (export_folder.cpp says which).
Result<std::unique_ptr<Place>> ExportFolder(const std::string& path, bool for_writing);

// An order-free digest of items: the sum (mod 2^64) of the first 8 bytes of the SHA-256 of each
// item's canonical bytes (core/item_codec.h AppendItemBody: attributes by name, sets sorted,
// numbers normalized).
uint64_t ItemDigest(const Item& item);

}  // namespace keyhole::copy
