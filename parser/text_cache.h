// A small cache of values computed from a text (syntax trees), keyed by a string: SDKs send
// the same expression or statement text again and again with new values, and only the part
// that depends on the values needs redoing.
//
// Internal to parser/ (not part of the library's interface).
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace keyhole::parser {

// At most `capacity` entries; when full, the next Add starts over from empty (no bookkeeping
// on a hit). Values are shared and immutable. Thread-safe.
template <typename V>
class TextCache {
 public:
  explicit TextCache(size_t capacity) : capacity_(capacity) {}

  // The value added under `key`, or null.
  std::shared_ptr<const V> Find(std::string_view key) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = map_.find(key);
    return it == map_.end() ? nullptr : it->second;
  }
  void Add(std::string_view key, std::shared_ptr<const V> value) {
    std::lock_guard<std::mutex> lock(mu_);
    if (map_.size() >= capacity_) map_.clear();
    map_.emplace(std::string(key), std::move(value));
  }

 private:
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };
  const size_t capacity_;
  std::mutex mu_;
  std::unordered_map<std::string, std::shared_ptr<const V>, Hash, std::equal_to<>> map_;
};

}  // namespace keyhole::parser
