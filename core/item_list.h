// ItemList: the items of a Query or Scan page (ReadResponse::items, core/operations.h).
//
// An item is held either as an Item or in the stored encoding (core/item_codec.h), which storage
// copies out of its transaction into one buffer per page. An encoded item is decoded the first
// time it is read, so a reader pays only for the items it looks at, and a writer of another
// format (DynamoDB JSON, core/ddb_json.h) can read Encoded(i) and never build the Item. Decoding
// a page's items was most of a Query's time (issue 14).
//
// To everything else it is a vector of Items: size(), operator[], iteration in order,
// push_back, == (by content, however each side holds its items). Reading through a non-const
// reference or iterator decodes the item for good, since the caller may change it; Encoded(i)
// is then empty.
//
// Thread-safety: none. Even const reads decode into the list, so a list must not be read from
// two threads at once without a lock (a response belongs to its request's thread).
#pragma once

#include <compare>
#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/attribute_value.h"

namespace keyhole {

class ItemList {
  template <bool kConst>
  class Iter;

 public:
  using value_type = Item;
  using size_type = size_t;
  using reference = Item&;
  using const_reference = const Item&;
  using iterator = Iter<false>;
  using const_iterator = Iter<true>;

  ItemList() = default;
  ItemList(std::initializer_list<Item> items);
  explicit ItemList(std::vector<Item> items);

  size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }
  void reserve(size_t n) { entries_.reserve(n); }
  void clear();

  void push_back(Item item);
  // Appends an item in the stored encoding, copying `bytes`.
  // REQUIRES: ValidItemEncoding(bytes) (core/item_codec.h); decoding it cannot fail then.
  void PushEncoded(std::string_view bytes);
  // The stored encoding of item i while the list still holds it (pushed encoded and not read
  // through a non-const reference since); empty otherwise.
  std::string_view Encoded(size_t i) const {
    const Entry& e = entries_[i];
    return e.size ? std::string_view(bytes_).substr(e.offset, e.size) : std::string_view();
  }

  const Item& operator[](size_t i) const { return Get(i); }
  Item& operator[](size_t i);
  const Item& front() const { return Get(0); }
  const Item& back() const { return Get(size() - 1); }

  iterator begin() { return iterator(this, 0); }
  iterator end() { return iterator(this, size()); }
  const_iterator begin() const { return const_iterator(this, 0); }
  const_iterator end() const { return const_iterator(this, size()); }

  // The items as a vector, decoding those still encoded.
  std::vector<Item> ToVector() &&;

  friend bool operator==(const ItemList& a, const ItemList& b);
  friend bool operator==(const ItemList& a, const std::vector<Item>& b);

 private:
  struct Entry {
    size_t offset = 0;             // into bytes_
    size_t size = 0;               // 0: not (or no longer) held encoded
    mutable bool decoded = false;  // items_[i] holds the item
  };
  // Decodes item i into items_ when it has not been yet.
  const Item& Get(size_t i) const;

  std::string bytes_;  // the encoded items, one after another
  std::vector<Entry> entries_;
  mutable std::vector<Item> items_;  // sized like entries_ once any item is held decoded

  template <bool kConst>
  class Iter {
   public:
    using List = std::conditional_t<kConst, const ItemList, ItemList>;
    using iterator_category = std::random_access_iterator_tag;
    using value_type = Item;
    using difference_type = std::ptrdiff_t;
    using pointer = std::conditional_t<kConst, const Item*, Item*>;
    using reference = std::conditional_t<kConst, const Item&, Item&>;

    Iter() = default;
    Iter(List* list, size_t i) : list_(list), i_(i) {}
    operator Iter<true>() const { return Iter<true>(list_, i_); }  // NOLINT: as vector's

    reference operator*() const { return (*list_)[i_]; }
    pointer operator->() const { return &(*list_)[i_]; }
    reference operator[](difference_type n) const { return (*list_)[i_ + n]; }
    Iter& operator++() { return ++i_, *this; }
    Iter operator++(int) { return Iter(list_, i_++); }
    Iter& operator--() { return --i_, *this; }
    Iter operator--(int) { return Iter(list_, i_--); }
    Iter& operator+=(difference_type n) { return i_ += n, *this; }
    Iter& operator-=(difference_type n) { return i_ -= n, *this; }
    friend Iter operator+(Iter it, difference_type n) { return it += n; }
    friend Iter operator+(difference_type n, Iter it) { return it += n; }
    friend Iter operator-(Iter it, difference_type n) { return it -= n; }
    friend difference_type operator-(const Iter& a, const Iter& b) {
      return static_cast<difference_type>(a.i_) - static_cast<difference_type>(b.i_);
    }
    friend bool operator==(const Iter& a, const Iter& b) { return a.i_ == b.i_; }
    friend auto operator<=>(const Iter& a, const Iter& b) { return a.i_ <=> b.i_; }

   private:
    List* list_ = nullptr;
    size_t i_ = 0;
  };
};

}  // namespace keyhole
