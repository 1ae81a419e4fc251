// FlatMap: the container behind Map and Item (core/attribute_value.h).
//
// A map from attribute names to values kept as ONE vector of (name, value) pairs sorted by
// name (bytewise, as std::string compares). An item decoded from storage arrives in name order,
// so it is built by appending, in one allocation, and read by walking contiguous memory: the
// std::map it replaces cost a heap node per attribute (about a third of a Query's time).
//
// The interface is the subset of std::map's that keyhole uses, with the same meaning (emplace
// and try_emplace never overwrite; operator[] inserts a default value; iteration is in key
// order; == compares content). Lookups take std::string_view. Two differences to keep in mind:
//  - Inserting or erasing invalidates every iterator and reference into the map (std::map kept
//    them). Take references after the last insertion, or re-find.
//  - One insertion out of order costs a move of the elements after it. Code that builds a map
//    from input in arbitrary order (JSON, a tuple literal) collects the pairs and calls
//    FromUnsorted once instead.
//
// Thread-safety: none of its own; like std::map, concurrent const use is safe.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace keyhole {

template <class V>
class FlatMap {
 public:
  using key_type = std::string;
  using mapped_type = V;
  using value_type = std::pair<std::string, V>;
  using Vector = std::vector<value_type>;
  using iterator = typename Vector::iterator;
  using const_iterator = typename Vector::const_iterator;
  using size_type = size_t;

  FlatMap() = default;
  // Like std::map's: the first of duplicate keys is kept.
  FlatMap(std::initializer_list<value_type> init) : v_(init) { SortKeepFirst(); }

  // Takes pairs in any order. Where keys repeat, `keep_last` keeps the last of them in input
  // order (a JSON object's usual reading), else the first (std::map's insert).
  static FlatMap FromUnsorted(Vector pairs, bool keep_last = false) {
    FlatMap m;
    m.v_ = std::move(pairs);
    if (keep_last) std::reverse(m.v_.begin(), m.v_.end());
    m.SortKeepFirst();
    return m;
  }

  iterator begin() { return v_.begin(); }
  iterator end() { return v_.end(); }
  const_iterator begin() const { return v_.begin(); }
  const_iterator end() const { return v_.end(); }

  size_t size() const { return v_.size(); }
  bool empty() const { return v_.empty(); }
  void clear() { v_.clear(); }
  void reserve(size_t n) { v_.reserve(n); }

  iterator lower_bound(std::string_view k) { return begin() + LowerIndex(k); }
  const_iterator lower_bound(std::string_view k) const { return begin() + LowerIndex(k); }
  iterator find(std::string_view k) {
    auto it = lower_bound(k);
    return it != end() && it->first == k ? it : end();
  }
  const_iterator find(std::string_view k) const {
    auto it = lower_bound(k);
    return it != end() && it->first == k ? it : end();
  }
  size_t count(std::string_view k) const { return find(k) != end() ? 1 : 0; }
  bool contains(std::string_view k) const { return find(k) != end(); }

  V& at(std::string_view k) {
    auto it = find(k);
    if (it == end()) throw std::out_of_range("FlatMap::at");
    return it->second;
  }
  const V& at(std::string_view k) const {
    auto it = find(k);
    if (it == end()) throw std::out_of_range("FlatMap::at");
    return it->second;
  }
  V& operator[](std::string_view k) { return try_emplace(k).first->second; }
  V& operator[](std::string&& k) { return try_emplace(std::move(k)).first->second; }
  V& operator[](const std::string& k) { return try_emplace(std::string_view(k)).first->second; }
  V& operator[](const char* k) { return try_emplace(std::string_view(k)).first->second; }

  // Inserts (k, V(args...)) unless k is present; never overwrites.
  template <class K, class... Args>
  std::pair<iterator, bool> try_emplace(K&& k, Args&&... args) {
    std::string_view key(k);
    if (v_.empty() || v_.back().first < key) {  // appending: the common case
      v_.emplace_back(std::piecewise_construct, std::forward_as_tuple(std::forward<K>(k)),
                      std::forward_as_tuple(std::forward<Args>(args)...));
      return {end() - 1, true};
    }
    size_t i = LowerIndex(key);
    if (v_[i].first == key) return {begin() + i, false};
    auto it =
        v_.emplace(begin() + i, std::piecewise_construct, std::forward_as_tuple(std::forward<K>(k)),
                   std::forward_as_tuple(std::forward<Args>(args)...));
    return {it, true};
  }
  template <class K, class M>
  std::pair<iterator, bool> emplace(K&& k, M&& m) {
    return try_emplace(std::forward<K>(k), std::forward<M>(m));
  }
  // Appends (k, V()) when k sorts after every key present and returns the new value; returns
  // nullptr, changing nothing, otherwise. Building in key order this way never searches.
  V* Append(std::string_view k) {
    if (!v_.empty() && !Before(v_.back().first, k)) return nullptr;
    return &v_.emplace_back(std::piecewise_construct, std::forward_as_tuple(k), std::tuple<>())
                .second;
  }
  std::pair<iterator, bool> insert(value_type p) {
    return try_emplace(std::move(p.first), std::move(p.second));
  }
  // `m` is taken by value: it may be an element of this map, which the insertion moves.
  template <class K>
  std::pair<iterator, bool> insert_or_assign(K&& k, V m) {
    auto r = try_emplace(std::forward<K>(k));
    r.first->second = std::move(m);
    return r;
  }

  size_t erase(std::string_view k) {
    auto it = find(k);
    if (it == end()) return 0;
    v_.erase(it);
    return 1;
  }
  iterator erase(const_iterator it) { return v_.erase(it); }
  iterator erase(const_iterator first, const_iterator last) { return v_.erase(first, last); }
  // Erases every pair for which pred(pair) holds, in one pass (std::erase_if for a map).
  template <class Pred>
  friend size_t erase_if(FlatMap& m, Pred pred) {
    return std::erase_if(m.v_, pred);
  }
  friend bool operator==(const FlatMap& a, const FlatMap& b) { return a.v_ == b.v_; }

 private:
  // a < b bytewise; the first bytes decide most pairs of attribute names without a memcmp call.
  static bool Before(std::string_view a, std::string_view b) {
    if (!a.empty() && !b.empty() && a[0] != b[0]) {
      return static_cast<unsigned char>(a[0]) < static_cast<unsigned char>(b[0]);
    }
    return a < b;
  }
  size_t LowerIndex(std::string_view k) const {
    size_t lo = 0, hi = v_.size();
    while (lo < hi) {
      size_t mid = (lo + hi) / 2;
      if (Before(v_[mid].first, k)) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
  // A stable sort by key, then the first of each run of equal keys kept. An item's handful of
  // pairs is sorted by insertion on their positions, then moved once each into a new vector
  // (moving the pairs themselves at every insertion cost several times more).
  void SortKeepFirst() {
    auto less = [](const value_type& a, const value_type& b) { return Before(a.first, b.first); };
    if (std::is_sorted(v_.begin(), v_.end(), less)) {
      // already in order
    } else if (v_.size() > 32) {
      std::stable_sort(v_.begin(), v_.end(), less);
    } else {
      uint8_t order[32];
      const size_t n = v_.size();
      for (size_t i = 0; i < n; ++i) {
        size_t j = i;
        for (; j > 0 && less(v_[i], v_[order[j - 1]]); --j) order[j] = order[j - 1];
        order[j] = static_cast<uint8_t>(i);
      }
      Vector sorted;
      sorted.reserve(n);
      for (size_t i = 0; i < n; ++i) sorted.push_back(std::move(v_[order[i]]));
      v_ = std::move(sorted);
    }
    v_.erase(
        std::unique(v_.begin(), v_.end(),
                    [](const value_type& a, const value_type& b) { return a.first == b.first; }),
        v_.end());
  }

  Vector v_;
};

}  // namespace keyhole
