#include "core/item_list.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "core/item_codec.h"

namespace keyhole {

ItemList::ItemList(std::initializer_list<Item> items) {
  entries_.reserve(items.size());
  for (const Item& item : items) push_back(item);
}

ItemList::ItemList(std::vector<Item> items)
    : entries_(items.size(), Entry{0, 0, true}), items_(std::move(items)) {}

void ItemList::clear() {
  bytes_.clear();
  entries_.clear();
  items_.clear();
}

void ItemList::push_back(Item item) {
  if (items_.empty()) items_.resize(entries_.size());
  items_.push_back(std::move(item));
  entries_.push_back(Entry{0, 0, true});
}

void ItemList::PushEncoded(std::string_view bytes) {
  // A page's items are about the same size: room for a few dozen at the first.
  if (bytes_.capacity() == 0) bytes_.reserve(std::max<size_t>(4096, 32 * bytes.size()));
  if (entries_.capacity() == 0) entries_.reserve(32);
  entries_.push_back(Entry{bytes_.size(), bytes.size(), false});
  bytes_.append(bytes);
  if (!items_.empty()) items_.emplace_back();  // items_ stays empty or as long as entries_
}

const Item& ItemList::Get(size_t i) const {
  const Entry& e = entries_[i];
  if (e.decoded) return items_[i];
  // Sized at the first decode, when no reference into items_ has been handed out yet; after
  // that every push keeps it as long as entries_, so references stay valid as a vector's do.
  if (items_.empty()) items_.resize(entries_.size());
  if (!DecodeItemInto(std::string_view(bytes_).substr(e.offset, e.size), &items_[i])) {
    // PushEncoded's caller checked the bytes with ValidItemEncoding, which accepts exactly what
    // DecodeItem accepts (ItemEncodingCheck tests): this is a bug in keyhole, not bad data.
    std::fprintf(stderr, "keyhole: internal error: a checked item encoding failed to decode\n");
    std::abort();
  }
  e.decoded = true;
  return items_[i];
}

Item& ItemList::operator[](size_t i) {
  Get(i);
  entries_[i].size = 0;  // the caller may change the item: its encoding no longer says it
  return items_[i];
}

std::vector<Item> ItemList::ToVector() && {
  for (size_t i = 0; i < size(); ++i) Get(i);
  std::vector<Item> out = std::move(items_);
  clear();
  return out;
}

bool operator==(const ItemList& a, const ItemList& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a.Get(i) != b.Get(i)) return false;
  }
  return true;
}

bool operator==(const ItemList& a, const std::vector<Item>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a.Get(i) != b[i]) return false;
  }
  return true;
}

}  // namespace keyhole
