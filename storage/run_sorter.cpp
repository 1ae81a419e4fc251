#include "storage/run_sorter.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "core/item_codec.h"

namespace keyhole::storage {

namespace {

Status OsError(const char* what) {
  return Status::Internal(fmt::format("bulk load: {} failed: {}", what, std::strerror(errno)));
}

bool Less(std::string_view ak, uint64_t as, std::string_view bk, uint64_t bs) {
  int c = ak.compare(bk);
  return c < 0 || (c == 0 && as < bs);
}

// The heap's order: a run whose current record comes later sorts first (std's heaps are
// max-heaps), so the heap's front is the run with the least record.
constexpr auto kAfter = [](const auto* a, const auto* b) {
  return Less(b->key, b->seq, a->key, a->seq);
};

}  // namespace

// A sorted run in the file: [begin, end) of records varint(key) key varint(seq) varint(value)
// value, read through a buffer.
struct RunSorter::Run {
  uint64_t pos, end;
  size_t chunk = 64 << 10;  // the least one read takes (less when there are many runs)
  std::string buf;          // the current record's bytes (and what was read after them)
  size_t at = 0;            // start of the current record in buf
  std::string_view key, value;
  uint64_t seq = 0;

  // Reads the next record; false at the end or on an error (*error set).
  bool Advance(int fd, Status* error) {
    if (at >= chunk) {  // drop what was read, not at every record
      buf.erase(0, at);
      at = 0;
    }
    size_t p = at;
    uint64_t klen, vlen;
    if (!Fill(fd, p + 30, error)) return false;  // three varints fit in 30 bytes
    if (p >= buf.size()) return false;           // the run's end
    if (!Varint(&p, &klen)) return Corrupt(error);
    if (!Fill(fd, p + klen + 20, error)) return false;
    const size_t key_at = p;
    p += klen;
    if (p > buf.size() || !Varint(&p, &seq) || !Varint(&p, &vlen)) return Corrupt(error);
    if (!Fill(fd, p + vlen, error)) return false;
    if (p + vlen > buf.size()) return Corrupt(error);
    key = std::string_view(buf).substr(key_at, klen);
    value = std::string_view(buf).substr(p, vlen);
    at = p + vlen;
    return true;
  }
  // Makes buf hold at least `want` bytes (fewer at the run's end), reading `chunk` or more.
  bool Fill(int fd, size_t want, Status* error) {
    while (buf.size() < want && pos < end) {
      size_t n = std::min<uint64_t>(std::max(want - buf.size(), chunk), end - pos);
      size_t old = buf.size();
      buf.resize(old + n);
      ssize_t r = ::pread(fd, buf.data() + old, n, static_cast<off_t>(pos));
      if (r < 0 && errno == EINTR) {
        buf.resize(old);
        continue;
      }
      if (r <= 0) {
        *error = r < 0 ? OsError("reading a sorted run") : Status::Internal("bulk load: short run");
        return false;
      }
      buf.resize(old + static_cast<size_t>(r));
      pos += static_cast<uint64_t>(r);
    }
    return true;
  }
  bool Varint(size_t* p, uint64_t* v) const {
    std::string_view in = std::string_view(buf).substr(*p);
    if (!ReadVarint(&in, v)) return false;
    *p = buf.size() - in.size();
    return true;
  }
  static bool Corrupt(Status* error) {
    *error = Status::Internal("bulk load: a sorted run is damaged");
    return false;
  }
};

RunSorter::RunSorter(std::string directory, size_t memory_bytes)
    : directory_(std::move(directory)), memory_bytes_(memory_bytes) {}

RunSorter::~RunSorter() {
  if (fd_ >= 0) ::close(fd_);
}

Status RunSorter::Add(std::string_view key, uint64_t seq, std::string_view value) {
  if (!status_.ok()) return status_;
  // The budget counts the arena and the entries (the vector's capacity stays for the next run).
  const size_t used = arena_.size() + (entries_.size() + 1) * sizeof(Entry);
  if (!entries_.empty() && used + key.size() + value.size() > memory_bytes_) {
    status_ = Spill();
    if (!status_.ok()) return status_;
  }
  if (arena_.capacity() < memory_bytes_ &&
      arena_.size() + key.size() + value.size() <= memory_bytes_)
    arena_.reserve(std::min(memory_bytes_, std::max(arena_.capacity() * 2, size_t{1} << 20)));
  uint64_t prefix = 0;
  for (size_t i = 0; i < 8; ++i)
    prefix = (prefix << 8) | (i < key.size() ? static_cast<unsigned char>(key[i]) : 0u);
  entries_.push_back({prefix, arena_.size(), static_cast<uint32_t>(key.size()),
                      static_cast<uint32_t>(value.size()), seq});
  arena_.append(key);
  arena_.append(value);
  return Status::OK();
}

void RunSorter::SortBuffer() {
  std::sort(entries_.begin(), entries_.end(), [this](const Entry& a, const Entry& b) {
    if (a.prefix != b.prefix) return a.prefix < b.prefix;
    return Less(KeyOf(a), a.seq, KeyOf(b), b.seq);
  });
}

Status RunSorter::Spill() {
  if (fd_ < 0) {
    std::string path = directory_ + "/.keyhole-import-XXXXXX";
    fd_ = ::mkstemp(path.data());
    if (fd_ < 0) return OsError(fmt::format("creating a temporary file in {}", directory_).c_str());
    ::unlink(path.c_str());  // gone with the descriptor, however the process ends
  }
  SortBuffer();
  std::string out;
  const uint64_t begin = file_size_;
  auto flush = [&]() -> Status {
    size_t done = 0;
    while (done < out.size()) {
      ssize_t w = ::pwrite(fd_, out.data() + done, out.size() - done,
                           static_cast<off_t>(file_size_ + done));
      if (w < 0 && errno == EINTR) continue;
      if (w < 0) return OsError("writing a sorted run");
      done += static_cast<size_t>(w);
    }
    file_size_ += out.size();
    out.clear();
    return Status::OK();
  };
  for (const Entry& e : entries_) {
    AppendVarint(e.key_size, &out);
    out.append(KeyOf(e));
    AppendVarint(e.seq, &out);
    AppendVarint(e.value_size, &out);
    out.append(arena_.data() + e.offset + e.key_size, e.value_size);
    if (out.size() >= (1 << 20)) KH_RETURN_IF_ERROR(flush());
  }
  KH_RETURN_IF_ERROR(flush());
  auto run = std::make_unique<Run>();
  run->pos = begin;
  run->end = file_size_;
  runs_.push_back(std::move(run));
  entries_.clear();
  arena_.clear();
  return Status::OK();
}

Status RunSorter::Finish() {
  if (!status_.ok()) return status_;
  if (runs_.empty()) {  // everything fits in memory
    SortBuffer();
    return Status::OK();
  }
  if (!entries_.empty()) KH_RETURN_IF_ERROR(status_ = Spill());
  std::string().swap(arena_);
  std::vector<Entry>().swap(entries_);
  // The runs' read buffers share the budget (a record larger than its share still fits).
  const size_t chunk =
      std::max<size_t>(4 << 10, std::min<size_t>(64 << 10, memory_bytes_ / 2 / runs_.size()));
  for (auto& r : runs_) {
    r->chunk = chunk;
    if (r->Advance(fd_, &status_)) heap_.push_back(r.get());
    if (!status_.ok()) return status_;
  }
  std::make_heap(heap_.begin(), heap_.end(), kAfter);
  return Status::OK();
}

bool RunSorter::Next(std::string_view* key, uint64_t* seq, std::string_view* value) {
  if (!status_.ok()) return false;
  if (runs_.empty()) {
    if (next_entry_ >= entries_.size()) return false;
    const Entry& e = entries_[next_entry_++];
    *key = KeyOf(e);
    *seq = e.seq;
    *value = std::string_view(arena_.data() + e.offset + e.key_size, e.value_size);
    return true;
  }
  return NextFromRuns(key, seq, value);
}

bool RunSorter::NextFromRuns(std::string_view* key, uint64_t* seq, std::string_view* value) {
  if (last_) {  // the record given last is consumed now: advance its run
    if (last_->Advance(fd_, &status_)) {
      heap_.push_back(last_);
      std::push_heap(heap_.begin(), heap_.end(), kAfter);
    }
    last_ = nullptr;
    if (!status_.ok()) return false;
  }
  if (heap_.empty()) return false;
  std::pop_heap(heap_.begin(), heap_.end(), kAfter);
  last_ = heap_.back();
  heap_.pop_back();
  *key = last_->key;
  *seq = last_->seq;
  *value = last_->value;
  return true;
}

}  // namespace keyhole::storage
