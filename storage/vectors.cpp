// Vector indexes in storage: their entries, kept in the item's own write transaction
// (ChangeVectorIndexes), and Database::SearchVectors, the exact top K of the entries a search
// admits. The layout is engine.h's ("vector indexes").
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "core/evaluate.h"
#include "core/item.h"
#include "core/item_codec.h"
#include "core/vector_index.h"
#include "storage/engine.h"
#include "storage/hash.h"
#include "storage/key_codec.h"

namespace keyhole::storage {

namespace {

constexpr uint32_t kAbsent = 0xFFFFFFFF;

void AppendU32(uint32_t v, std::string* out) {
  out->append(reinterpret_cast<const char*>(&v), sizeof v);
}

uint32_t LoadU32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

float LoadF32(const char* p) {
  float v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// group(v): the 16 bytes all entries of one HASH value start with.
std::string GroupOf(const AttributeValue& v) {
  std::string enc;
  AppendKeyValue(v, &enc);
  std::string out;
  AppendBigEndian64(Hash64(enc, 0x76656374), &out);  // "vect"
  AppendBigEndian64(Hash64(enc, 0x67726f75), &out);  // "grou"
  return out;
}

// The attributes of `item` an entry of `index` holds: the table's key, the search attributes,
// the vector, and the projection's.
Item VectorEntry(const VectorIndexDescription& index, const KeySchema& table_key,
                 const Item& item) {
  if (index.projection.type == ProjectionType::kAll) return item;
  Item entry = ExtractKey(table_key, item);
  auto copy = [&](const std::string& name) {
    if (auto it = item.find(name); it != item.end()) entry.emplace(name, it->second);
  };
  for (const SearchAttribute& a : index.search_schema) copy(a.name);
  copy(index.vector_attribute);
  for (const std::string& name : index.projection.non_key_attributes) copy(name);
  return entry;
}

// The entry's size as VectorIndexes count it: the projected attributes, the vector at 4 bytes
// an element.
uint32_t EntrySize(const VectorIndexDescription& index, const Item& entry) {
  size_t size =
      index.vector_attribute.size() + sizeof(float) * static_cast<size_t>(index.dimensions);
  for (const auto& [name, value] : entry) {
    if (name != index.vector_attribute) size += name.size() + ValueSize(value);
  }
  return static_cast<uint32_t>(size);
}

// The vector as the index keeps it: each element rounded to float32.
AttributeValue Float32Copy(const char* floats, size_t n) {
  std::vector<AttributeValue> list;
  list.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    list.push_back(
        AttributeValue::N(*Number::Parse(fmt::format("{}", LoadF32(floats + i * sizeof(float))))));
  }
  return AttributeValue::L(std::move(list));
}

// ---- the layout (engine.h) ----

constexpr char kEntryTag = 'e', kBlockTag = 'v';

// Slots per block: about 128 KB of vectors, 1 to 1,024 (bench/vector_bench.cpp: 32 KB blocks
// searched 100,000 x 768 at 1.95x the packed loop, 64 KB at 1.52x, 128 KB at 1.12x).
uint32_t SlotsPerBlock(const VectorIndexDescription& index) {
  const size_t slot = sizeof(float) * (1 + static_cast<size_t>(index.dimensions));
  return static_cast<uint32_t>(std::clamp<size_t>(131072 / slot, 1, 1024));
}

size_t SlotBytes(const VectorIndexDescription& index) {
  return sizeof(float) * (1 + static_cast<size_t>(index.dimensions));
}

std::string GroupOfItem(const VectorIndexDescription& index, const Item& item) {
  const SearchAttribute* hash = index.Hash();
  return hash ? GroupOf(item.at(hash->name)) : std::string();
}

std::string BlockKey(const std::string& group, uint32_t number) {
  std::string key(1, kBlockTag);
  key += group;
  for (int i = 3; i >= 0; --i) key += static_cast<char>(number >> (8 * i));
  return key;
}

uint32_t BlockNumber(std::string_view key) {
  uint32_t n = 0;
  for (size_t i = key.size() - 4; i < key.size(); ++i) n = (n << 8) | static_cast<uint8_t>(key[i]);
  return n;
}

// One item's parts: its entry record's key, its slot (squared norm and vector), its owner
// record in the block (the entry key and the search attributes' values), and the entry
// record's tail (the projected attributes, but the vector) with its size.
struct Parts {
  std::string group, key, slot, attrs, projected;
  uint32_t size = 0;
};

// The entry key of `item`, after its group (*group).
std::string EntryKeyOf(const VectorIndexDescription& index, const KeySchema& table_key,
                       const Item& item, std::string* group) {
  *group = GroupOfItem(index, item);
  std::string key = std::string(1, kEntryTag) + *group;
  AppendBounded(EncodeTableKey(table_key, item), kVectorTableKeyBound, &key);
  return key;
}

// `entry` is VectorEntry(index, table_key, item).
Parts PartsOf(const VectorIndexDescription& index, const KeySchema& table_key, const Item& item,
              Item entry) {
  Parts p;
  p.key = EntryKeyOf(index, table_key, item, &p.group);
  const std::vector<float> vector = VectorOf(index, item);
  const float norm = SquaredNorm(vector.data(), vector.size());
  p.slot.append(reinterpret_cast<const char*>(&norm), sizeof norm);
  p.slot.append(reinterpret_cast<const char*>(vector.data()), vector.size() * sizeof(float));
  for (const SearchAttribute& a : index.search_schema) {
    auto it = item.find(a.name);
    if (it == item.end()) {
      AppendU32(kAbsent, &p.attrs);
      continue;
    }
    std::string enc;
    AppendKeyValue(it->second, &enc);
    AppendU32(static_cast<uint32_t>(enc.size()), &p.attrs);
    p.attrs += enc;
  }
  p.size = EntrySize(index, entry);
  entry.erase(index.vector_attribute);
  p.projected = EncodeItem(entry, ItemSize(entry));
  return p;
}

Parts PartsOf(const VectorIndexDescription& index, const KeySchema& table_key, const Item& item) {
  return PartsOf(index, table_key, item, VectorEntry(index, table_key, item));
}

// An entry record: u32 size | u32 block | u32 slot | the projected attributes.
std::string EntryValue(const Parts& p, uint32_t block, uint32_t slot) {
  std::string v;
  AppendU32(p.size, &v);
  AppendU32(block, &v);
  AppendU32(slot, &v);
  return v + p.projected;
}

// A block, decoded for a change: its slots and their owners (entry key, attrs).
struct Block {
  std::vector<std::string> slots;
  std::vector<std::pair<std::string, std::string>> owners;
};

// A block record: u32 count | count slots | count owners (u32 key length, key, u32 attrs
// length, attrs).
std::string EncodeBlock(const Block& b) {
  std::string v;
  AppendU32(static_cast<uint32_t>(b.slots.size()), &v);
  for (const std::string& s : b.slots) v += s;
  for (const auto& [key, attrs] : b.owners) {
    AppendU32(static_cast<uint32_t>(key.size()), &v);
    v += key;
    AppendU32(static_cast<uint32_t>(attrs.size()), &v);
    v += attrs;
  }
  return v;
}

// Walks the owners of a block record, after its slots.
class Owners {
 public:
  Owners(std::string_view block, size_t slot_bytes)
      : p_(block.data() + sizeof(uint32_t) + LoadU32(block.data()) * slot_bytes) {}
  // The next owner's key and attrs.
  void Next(std::string_view* key, const char** attrs) {
    const uint32_t k = LoadU32(p_);
    *key = std::string_view(p_ + sizeof k, k);
    p_ += sizeof k + k;
    *attrs = p_ + sizeof(uint32_t);
    p_ += sizeof(uint32_t) + LoadU32(p_);
  }

 private:
  const char* p_;
};

Result<Block> DecodeBlock(const VectorIndexDescription& index, std::string_view v) {
  Block b;
  const size_t slot = SlotBytes(index);
  if (v.size() < sizeof(uint32_t)) return Status::Internal("vector index: a short block");
  const uint32_t n = LoadU32(v.data());
  if (v.size() < sizeof(uint32_t) + n * slot)
    return Status::Internal("vector index: a short block");
  for (uint32_t i = 0; i < n; ++i)
    b.slots.emplace_back(v.substr(sizeof(uint32_t) + i * slot, slot));
  Owners owners(v, slot);
  for (uint32_t i = 0; i < n; ++i) {
    std::string_view key;
    const char* attrs;
    owners.Next(&key, &attrs);
    b.owners.emplace_back(std::string(key), std::string(attrs, LoadU32(attrs - sizeof(uint32_t))));
  }
  return b;
}

Result<Block> ReadBlock(Txn& txn, MDB_dbi dbi, const VectorIndexDescription& index,
                        const std::string& key) {
  std::string_view v;
  bool found = false;
  KH_RETURN_IF_ERROR(txn.Get(dbi, key, &v, &found));
  if (!found) return Status::Internal("vector index: a block named by an entry is missing");
  return DecodeBlock(index, v);
}

Status WriteBlock(Txn& txn, MDB_dbi dbi, const std::string& key, const Block& b) {
  return b.slots.empty() ? txn.Del(dbi, key) : txn.Put(dbi, key, EncodeBlock(b));
}

// The number of the last block of `group`, or nullopt when it has none.
Result<std::optional<uint32_t>> LastBlock(Txn& txn, MDB_dbi dbi, const std::string& group) {
  const std::string prefix = std::string(1, kBlockTag) + group;
  Cursor c(&txn, dbi);
  bool ok = c.Seek(BlockKey(group, 0xFFFFFFFF));
  if (ok && c.key() == BlockKey(group, 0xFFFFFFFF)) return std::optional<uint32_t>(0xFFFFFFFF);
  ok = ok ? c.Prev() : c.SeekLast();
  KH_RETURN_IF_ERROR(c.status());
  if (!ok || !c.key().starts_with(prefix) || c.key().size() != prefix.size() + 4) {
    return std::optional<uint32_t>();
  }
  return std::optional<uint32_t>(BlockNumber(c.key()));
}

struct Place {
  uint32_t block = 0, slot = 0;
};

Result<Place> ReadPlace(Txn& txn, MDB_dbi dbi, std::string_view entry_key, std::string* value) {
  std::string_view v;
  bool found = false;
  KH_RETURN_IF_ERROR(txn.Get(dbi, entry_key, &v, &found));
  if (!found || v.size() < 12) return Status::Internal("vector index: an entry is missing");
  if (value) *value = std::string(v);
  return Place{LoadU32(v.data() + 4), LoadU32(v.data() + 8)};
}

// Adds `p` at the end of its group's last block (or a new one).
Status Insert(Txn& txn, MDB_dbi dbi, const VectorIndexDescription& index, const Parts& p) {
  KH_ASSIGN_OR_RETURN(std::optional<uint32_t> last, LastBlock(txn, dbi, p.group));
  Block b;
  uint32_t number = 0;
  if (last) {
    KH_ASSIGN_OR_RETURN(b, ReadBlock(txn, dbi, index, BlockKey(p.group, *last)));
    number = *last;
    if (b.slots.size() >= SlotsPerBlock(index)) {
      b = Block();
      number = *last + 1;
    }
  }
  const uint32_t slot = static_cast<uint32_t>(b.slots.size());
  b.slots.push_back(p.slot);
  b.owners.emplace_back(p.key, p.attrs);
  KH_RETURN_IF_ERROR(WriteBlock(txn, dbi, BlockKey(p.group, number), b));
  return txn.Put(dbi, p.key, EntryValue(p, number, slot));
}

// Takes the entry `entry_key` of `group` out: the group's last slot moves into its place, so
// that every block of a group but its last is full.
Status Remove(Txn& txn, MDB_dbi dbi, const VectorIndexDescription& index, const std::string& group,
              const std::string& entry_key) {
  KH_ASSIGN_OR_RETURN(Place at, ReadPlace(txn, dbi, entry_key, nullptr));
  KH_ASSIGN_OR_RETURN(std::optional<uint32_t> last, LastBlock(txn, dbi, group));
  if (!last) return Status::Internal("vector index: an entry's group has no block");
  const std::string last_key = BlockKey(group, *last);
  KH_ASSIGN_OR_RETURN(Block tail, ReadBlock(txn, dbi, index, last_key));
  if (tail.slots.empty()) return Status::Internal("vector index: an empty block");
  const uint32_t tail_slot = static_cast<uint32_t>(tail.slots.size() - 1);
  if (at.block == *last) {
    if (at.slot > tail_slot) return Status::Internal("vector index: an entry past its block");
    if (at.slot != tail_slot) {
      tail.slots[at.slot] = tail.slots.back();
      tail.owners[at.slot] = tail.owners.back();
    }
  } else {
    const std::string key = BlockKey(group, at.block);
    KH_ASSIGN_OR_RETURN(Block b, ReadBlock(txn, dbi, index, key));
    if (at.slot >= b.slots.size()) return Status::Internal("vector index: an entry past its block");
    b.slots[at.slot] = tail.slots.back();
    b.owners[at.slot] = tail.owners.back();
    KH_RETURN_IF_ERROR(WriteBlock(txn, dbi, key, b));
  }
  const std::string moved = tail.owners.back().first;
  tail.slots.pop_back();
  tail.owners.pop_back();
  KH_RETURN_IF_ERROR(WriteBlock(txn, dbi, last_key, tail));
  KH_RETURN_IF_ERROR(txn.Del(dbi, entry_key));
  if (moved != entry_key) {  // the moved entry's record names its new place
    std::string value;
    KH_RETURN_IF_ERROR(ReadPlace(txn, dbi, moved, &value).status());
    std::memcpy(value.data() + 4, &at.block, sizeof at.block);
    std::memcpy(value.data() + 8, &at.slot, sizeof at.slot);
    KH_RETURN_IF_ERROR(txn.Put(dbi, moved, value));
  }
  return Status::OK();
}

// Replaces the entry of `p.key` (same group) in its place.
Status Replace(Txn& txn, MDB_dbi dbi, const VectorIndexDescription& index, const Parts& p) {
  KH_ASSIGN_OR_RETURN(Place at, ReadPlace(txn, dbi, p.key, nullptr));
  const std::string key = BlockKey(p.group, at.block);
  KH_ASSIGN_OR_RETURN(Block b, ReadBlock(txn, dbi, index, key));
  if (at.slot >= b.slots.size()) return Status::Internal("vector index: an entry past its block");
  b.slots[at.slot] = p.slot;
  b.owners[at.slot].second = p.attrs;
  KH_RETURN_IF_ERROR(WriteBlock(txn, dbi, key, b));
  return txn.Put(dbi, p.key, EntryValue(p, at.block, at.slot));
}

}  // namespace

namespace {

// Replaces the entry of `old_item` (null: none) by that of `new_item` (null: none), whose
// projected entry is `new_entry`. REQUIRES: the index holds each item given.
Status ApplyChange(Txn& txn, MDB_dbi dbi, const VectorIndexDescription& index,
                   const KeySchema& table_key, const Item* old_item, const Item* new_item,
                   Item new_entry) {
  std::optional<Parts> after;
  if (new_item) after = PartsOf(index, table_key, *new_item, std::move(new_entry));
  if (!old_item) return after ? Insert(txn, dbi, index, *after) : Status::OK();
  std::string group;  // the old entry's key and group (its vector is not needed)
  const std::string key = EntryKeyOf(index, table_key, *old_item, &group);
  if (after && after->key == key) return Replace(txn, dbi, index, *after);
  KH_RETURN_IF_ERROR(Remove(txn, dbi, index, group, key));
  return after ? Insert(txn, dbi, index, *after) : Status::OK();
}

}  // namespace

Status ChangeVectorIndex(Txn& txn, MDB_dbi dbi, const VectorIndexDescription& index,
                         const KeySchema& table_key, const Item* old_item, const Item* new_item) {
  if (old_item && !InVectorIndex(index, *old_item)) old_item = nullptr;
  if (new_item && !InVectorIndex(index, *new_item)) new_item = nullptr;
  return ApplyChange(txn, dbi, index, table_key, old_item, new_item,
                     new_item ? VectorEntry(index, table_key, *new_item) : Item());
}

size_t BilledItemSize(const TableDescription& t, const Item& item, size_t size) {
  for (size_t i = 0; i < t.vector_indexes.size(); ++i) {
    const VectorIndexDescription& index = t.vector_indexes[i];
    // An attribute two indexes read is counted once.
    bool seen = false;
    for (size_t j = 0; j < i && !seen; ++j) {
      seen = t.vector_indexes[j].vector_attribute == index.vector_attribute;
    }
    if (seen) continue;
    auto it = item.find(index.vector_attribute);
    if (it == item.end() || !it->second.is(ValueType::kL) ||
        it->second.l().size() != static_cast<size_t>(index.dimensions)) {
      continue;
    }
    const size_t stored = ValueSize(it->second);
    const size_t billed = sizeof(float) * static_cast<size_t>(index.dimensions);
    size = size - stored + billed;
  }
  return size;
}

Status ChangeVectorIndexes(Txn* txn, const std::vector<MDB_dbi>* dbis, const TableDescription& t,
                           const Item* old_item, const Item* new_item, ConsumedCapacity* cc) {
  for (size_t i = 0; i < t.vector_indexes.size(); ++i) {
    const VectorIndexDescription& index = t.vector_indexes[i];
    const bool was = old_item && InVectorIndex(index, *old_item);
    const bool is = new_item && InVectorIndex(index, *new_item);
    if (!was && !is) continue;
    // A write that changes nothing the index holds replicates nothing, and costs nothing.
    std::optional<Item> old_entry, new_entry;
    if (was) old_entry = VectorEntry(index, t.key, *old_item);
    if (is) new_entry = VectorEntry(index, t.key, *new_item);
    if (was && is && *old_entry == *new_entry) continue;
    // VectorWriteRequestBytes: the entry's size held to a 1,024-byte floor, per index (the
    // Parity Suite's vectorSearch/consumedCapacity.test.ts, eu-west-2, 2026-08-18).
    cc->vector_indexes[index.name] +=
        std::max<uint32_t>(kMinVectorWriteBytes, EntrySize(index, is ? *new_entry : *old_entry));
    if (txn) {
      KH_RETURN_IF_ERROR(ApplyChange(*txn, (*dbis)[i], index, t.key, was ? old_item : nullptr,
                                     is ? new_item : nullptr, is ? std::move(*new_entry) : Item()));
    }
  }
  return Status::OK();
}

Status VectorIndexStats(Txn& txn, MDB_dbi dbi, VectorIndexDescription* index) {
  index->item_count = 0;
  index->size_bytes = 0;
  Cursor c(&txn, dbi);
  for (bool ok = c.Seek(std::string(1, kEntryTag)); ok && c.key()[0] == kEntryTag; ok = c.Next()) {
    ++index->item_count;
    index->size_bytes += LoadU32(c.value().data());
  }
  return c.status();
}

Status VerifyVectorIndex(Txn& txn, MDB_dbi dbi, const VectorIndexDescription& index,
                         const KeySchema& table_key, const std::vector<Item>& held) {
  auto bad = [&](std::string_view what) {
    return Status::Internal(fmt::format("vector index {}: {}", index.name, what));
  };
  std::map<std::string, Parts> expected;
  for (const Item& item : held) {
    Parts p = PartsOf(index, table_key, item);
    expected.emplace(p.key, std::move(p));
  }
  // Every entry record is an item's, and its place holds the item's slot and owner.
  size_t entries = 0;
  std::map<std::string, uint32_t> slots_per_group;  // the slots the entries name
  Cursor c(&txn, dbi);
  for (bool ok = c.Seek(std::string(1, kEntryTag)); ok && c.key()[0] == kEntryTag; ok = c.Next()) {
    ++entries;
    auto it = expected.find(std::string(c.key()));
    if (it == expected.end()) return bad("an entry has no matching item");
    const Parts& p = it->second;
    const std::string_view v = c.value();
    if (v.size() < 12 || v.substr(12) != p.projected || LoadU32(v.data()) != p.size) {
      return bad("an entry's record differs from its item's");
    }
    const Place at{LoadU32(v.data() + 4), LoadU32(v.data() + 8)};
    KH_ASSIGN_OR_RETURN(Block b, ReadBlock(txn, dbi, index, BlockKey(p.group, at.block)));
    if (at.slot >= b.slots.size() || b.slots[at.slot] != p.slot ||
        b.owners[at.slot] != std::make_pair(p.key, p.attrs)) {
      return bad("an entry's slot differs from its item's");
    }
    ++slots_per_group[p.group];
  }
  KH_RETURN_IF_ERROR(c.status());
  if (entries != expected.size()) {
    return bad(fmt::format("{} entries, {} expected", entries, expected.size()));
  }
  // Every group's blocks are numbered from 0, all full but the last, and hold exactly the
  // slots its entries name.
  std::map<std::string, uint32_t> slots_found, blocks_found;
  for (bool ok = c.Seek(std::string(1, kBlockTag)); ok && c.key()[0] == kBlockTag; ok = c.Next()) {
    const std::string group(c.key().substr(1, c.key().size() - 5));
    const uint32_t number = BlockNumber(c.key());
    if (number != blocks_found[group]++) return bad("a group's blocks are not numbered from 0");
    const uint32_t n = LoadU32(c.value().data());
    if (n == 0 || n > SlotsPerBlock(index)) return bad("a block is empty or overfull");
    if (slots_found[group] != number * SlotsPerBlock(index)) {
      return bad("a block before its group's last is not full");
    }
    slots_found[group] += n;
  }
  KH_RETURN_IF_ERROR(c.status());
  if (slots_found != slots_per_group) return bad("the blocks hold slots no entry names");
  return Status::OK();
}

namespace {

// Whether the stored attrs at `p` hold the values `want` asks for (per SearchSchema attribute:
// the value(v) it must equal, or nullopt for no condition).
bool Admits(const char* p, const std::vector<std::optional<std::string>>& want) {
  for (const std::optional<std::string>& w : want) {
    const uint32_t n = LoadU32(p);
    p += sizeof n;
    const uint32_t len = n == kAbsent ? 0 : n;
    if (w && (n == kAbsent || w->size() != n || std::memcmp(w->data(), p, n) != 0)) return false;
    p += len;
  }
  return true;
}

}  // namespace

Result<SearchVectorsResponse> Database::SearchVectors(const SearchVectorsRequest& r) {
  KH_RETURN_IF_ERROR(CheckTopK(r.top_k));
  KH_ASSIGN_OR_RETURN(TableSchemaPtr schema, TableSchema(r.table_name));
  const VectorIndexDescription* described = schema->FindVectorIndex(r.index_name);
  auto no_index = [&] {
    return Status::Validation(
        fmt::format("The table does not have the specified index: {}", r.index_name));
  };
  if (!described) return no_index();
  KH_ASSIGN_OR_RETURN(expr::ParsedExpressions parsed, impl_->ParseExpressions(r.expressions));
  if (parsed.projection) KH_RETURN_IF_ERROR(expr::ValidateProjection(*parsed.projection));
  KH_ASSIGN_OR_RETURN(std::vector<float> query, SearchVectorOf(*described, r.search_vector));
  KH_ASSIGN_OR_RETURN(std::vector<SearchTerm> terms,
                      SearchConditionTerms(*described, parsed.search_condition.get()));

  SearchVectorsResponse out;
  Status s = impl_->WithTable(r.table_name, false, [&](Txn& txn, const TableHandle& h) -> Status {
    out = SearchVectorsResponse();
    const VectorIndexDescription* found = h.desc.FindVectorIndex(r.index_name);
    if (!found) return no_index();
    const VectorIndexDescription& index = *found;
    const size_t at = static_cast<size_t>(found - h.desc.vector_indexes.data());
    if (static_cast<size_t>(index.dimensions) != query.size()) return no_index();  // replaced

    // What the entries must hold: the HASH value's group, and each term's value(v).
    std::string group;
    std::vector<std::optional<std::string>> want(index.search_schema.size());
    for (const SearchTerm& term : terms) {
      for (size_t j = 0; j < index.search_schema.size(); ++j) {
        if (index.search_schema[j].name != term.name) continue;
        want[j].emplace();
        AppendKeyValue(term.value, &*want[j]);
        if (index.search_schema[j].hash) group = GroupOf(term.value);
      }
    }
    const bool filtered = !terms.empty();

    // The group's blocks (every block without a HASH attribute): a cursor step reads the
    // B-tree's leaf pages only, not the blocks' own pages.
    const std::string prefix = std::string(1, kBlockTag) + group;
    std::vector<std::string_view> blocks;
    Cursor c(&txn, h.vector_dbis[at]);
    for (bool ok = c.Seek(prefix); ok && c.key().starts_with(prefix); ok = c.Next()) {
      blocks.push_back(c.value());
    }
    KH_RETURN_IF_ERROR(c.status());
    // Every slot the condition admits is scored in place in the file (the views stay valid
    // until the read transaction ends): a block's vectors lie one after another, which the
    // memory system streams; the start of the next block is fetched meanwhile. A candidate's
    // position is its place in block order.
    const VectorScorer scorer(index.distance, query);
    const size_t slot_bytes = SlotBytes(index);
    constexpr size_t kLine = 64, kAheadBytes = 1024;
    TopK best(index.distance, static_cast<size_t>(r.top_k));
    std::vector<size_t> first(blocks.size());  // the position of each block's first slot
    size_t position = 0, admitted = 0;
    for (size_t b = 0; b < blocks.size(); ++b) {
      if (b + 1 < blocks.size()) {
        const std::string_view next = blocks[b + 1];
        for (size_t o = 0; o < std::min(next.size(), kAheadBytes); o += kLine) {
          __builtin_prefetch(next.data() + o);
        }
      }
      const char* slots = blocks[b].data() + sizeof(uint32_t);
      const uint32_t n = LoadU32(blocks[b].data());
      first[b] = position;
      std::optional<Owners> owners;
      if (filtered) owners.emplace(blocks[b], slot_bytes);
      for (uint32_t i = 0; i < n; ++i, ++position) {
        const char* slot = slots + i * slot_bytes;
        if (owners) {
          std::string_view key;
          const char* attrs;
          owners->Next(&key, &attrs);
          if (!Admits(attrs, want)) continue;
        }
        best.Offer(position, scorer.Score(slot + sizeof(float), LoadF32(slot)));
        ++admitted;
      }
    }

    int64_t bytes = static_cast<int64_t>(admitted * query.size() * sizeof(float));
    for (const ScoredCandidate& sc : std::move(best).Take()) {
      const size_t b = static_cast<size_t>(
          std::upper_bound(first.begin(), first.end(), sc.position) - first.begin() - 1);
      const size_t i = sc.position - first[b];
      const char* slot = blocks[b].data() + sizeof(uint32_t) + i * slot_bytes;
      Owners owners(blocks[b], slot_bytes);
      std::string_view key;
      const char* attrs;
      for (size_t k = 0; k <= i; ++k) owners.Next(&key, &attrs);
      std::string_view record;
      bool found = false;
      KH_RETURN_IF_ERROR(txn.Get(h.vector_dbis[at], key, &record, &found));
      if (!found || record.size() < 12) {
        return Status::Internal(fmt::format("vector index {}: a slot has no entry", index.name));
      }
      KH_ASSIGN_OR_RETURN(Item entry, DecodeItem(record.substr(12)));
      // The vector comes back only when the ProjectionExpression names it, as the index's copy.
      if (parsed.projection) {
        const bool named = std::ranges::any_of(parsed.projection->paths, [&](const auto& path) {
          return !path.elements.empty() && path.elements[0].name == index.vector_attribute;
        });
        if (named) {
          entry[index.vector_attribute] = Float32Copy(slot + sizeof(float), query.size());
        }
        entry = expr::Project(entry, parsed.projection->paths);
      }
      bytes += static_cast<int64_t>(ItemSize(entry));
      out.results.push_back({std::move(entry), sc.score});
    }
    if (r.return_consumed_capacity != ReturnConsumedCapacity::kNone) {
      out.search_request_bytes = bytes;
    }
    return Status::OK();
  });
  KH_RETURN_IF_ERROR(s);
  return out;
}

}  // namespace keyhole::storage
