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
uint32_t EntrySize(const VectorIndexDescription& index, Item entry) {
  entry.erase(index.vector_attribute);
  return static_cast<uint32_t>(ItemSize(entry) + index.vector_attribute.size() +
                               sizeof(float) * static_cast<size_t>(index.dimensions));
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

// Where the attrs of a stored value start.
size_t AttrsOffset(const VectorIndexDescription& index) {
  return kVectorHeaderBytes + sizeof(float) * static_cast<size_t>(index.dimensions);
}

}  // namespace

std::pair<std::string, std::string> VectorEntryOf(const VectorIndexDescription& index,
                                                  const KeySchema& table_key, const Item& item) {
  std::pair<std::string, std::string> out;
  std::string& key = out.first;
  if (const SearchAttribute* hash = index.Hash()) key = GroupOf(item.at(hash->name));
  AppendBounded(EncodeTableKey(table_key, item), kVectorTableKeyBound, &key);

  std::string& value = out.second;
  const std::vector<float> vector = VectorOf(index, item);
  AppendU32(EntrySize(index, VectorEntry(index, table_key, item)), &value);
  const float norm = SquaredNorm(vector.data(), vector.size());
  value.append(reinterpret_cast<const char*>(&norm), sizeof norm);
  value.append(reinterpret_cast<const char*>(vector.data()), vector.size() * sizeof(float));
  for (const SearchAttribute& a : index.search_schema) {
    auto it = item.find(a.name);
    if (it == item.end()) {
      AppendU32(kAbsent, &value);
      continue;
    }
    std::string enc;
    AppendKeyValue(it->second, &enc);
    AppendU32(static_cast<uint32_t>(enc.size()), &value);
    value += enc;
  }
  const Item key_attrs = ExtractKey(table_key, item);
  value += EncodeItem(key_attrs, ItemSize(key_attrs));
  return out;
}

uint32_t VectorEntrySize(std::string_view value) { return LoadU32(value.data()); }

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
    cc->vector_indexes[index.name] += EntrySize(index, is ? *new_entry : *old_entry);
    if (!txn) continue;
    std::string old_key;
    if (was) old_key = VectorEntryOf(index, t.key, *old_item).first;
    if (is) {
      auto [key, value] = VectorEntryOf(index, t.key, *new_item);
      if (was && old_key != key) KH_RETURN_IF_ERROR(txn->Del((*dbis)[i], old_key));
      KH_RETURN_IF_ERROR(txn->Put((*dbis)[i], key, value));
    } else {
      KH_RETURN_IF_ERROR(txn->Del((*dbis)[i], old_key));
    }
  }
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

// The table key attributes a stored value ends with.
Result<Item> KeyOfEntry(const VectorIndexDescription& index, std::string_view value) {
  const char* p = value.data() + AttrsOffset(index);
  for (size_t i = 0; i < index.search_schema.size(); ++i) {
    const uint32_t n = LoadU32(p);
    p += sizeof n + (n == kAbsent ? 0 : n);
  }
  return DecodeItem(value.substr(static_cast<size_t>(p - value.data())));
}

}  // namespace

Result<SearchVectorsResponse> Database::SearchVectors(const SearchVectorsRequest& r) {
  KH_RETURN_IF_ERROR(CheckTopK(r.top_k));
  KH_ASSIGN_OR_RETURN(TableSchemaPtr schema, TableSchema(r.table_name));
  const VectorIndexDescription* described = nullptr;
  for (const VectorIndexDescription& v : schema->vector_indexes) {
    if (v.name == r.index_name) described = &v;
  }
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
    size_t at = h.desc.vector_indexes.size();
    for (size_t i = 0; i < h.desc.vector_indexes.size(); ++i) {
      if (h.desc.vector_indexes[i].name == r.index_name) at = i;
    }
    if (at == h.desc.vector_indexes.size()) return no_index();
    const VectorIndexDescription& index = h.desc.vector_indexes[at];
    if (static_cast<size_t>(index.dimensions) != query.size()) return no_index();  // replaced

    // What the entries must hold: the HASH value's group, and each term's value(v).
    std::string prefix;
    std::vector<std::optional<std::string>> want(index.search_schema.size());
    for (const SearchTerm& term : terms) {
      for (size_t j = 0; j < index.search_schema.size(); ++j) {
        if (index.search_schema[j].name != term.name) continue;
        want[j].emplace();
        AppendKeyValue(term.value, &*want[j]);
        if (index.search_schema[j].hash) prefix = GroupOf(term.value);
      }
    }
    const bool filtered = !terms.empty();

    // Every admitted entry is scored, in place in the file; the views stay valid until the
    // read transaction ends.
    const VectorScorer scorer(index.distance, query);
    const size_t floats_at = kVectorHeaderBytes, attrs_at = AttrsOffset(index);
    TopK best(index.distance, static_cast<size_t>(r.top_k));
    std::vector<std::string_view> admitted;
    Cursor c(&txn, h.vector_dbis[at]);
    for (bool ok = prefix.empty() ? c.SeekFirst() : c.Seek(prefix);
         ok && c.key().starts_with(prefix); ok = c.Next()) {
      const std::string_view v = c.value();
      if (filtered && !Admits(v.data() + attrs_at, want)) continue;
      best.Offer(admitted.size(), scorer.Score(v.data() + floats_at, LoadF32(v.data() + 4)));
      admitted.push_back(v);
    }
    KH_RETURN_IF_ERROR(c.status());

    int64_t bytes = static_cast<int64_t>(admitted.size() * query.size() * sizeof(float));
    for (const ScoredCandidate& sc : std::move(best).Take()) {
      const std::string_view v = admitted[sc.position];
      KH_ASSIGN_OR_RETURN(Item key, KeyOfEntry(index, v));
      size_t size = 0;
      KH_ASSIGN_OR_RETURN(std::optional<Item> item, ReadItem(txn, h, key, &size));
      if (!item) {
        return Status::Internal(
            fmt::format("vector index {}: an entry has no item in the table", index.name));
      }
      Item entry = VectorEntry(index, h.desc.key, *item);
      // The vector comes back only when the ProjectionExpression names it, as the index's copy.
      if (parsed.projection) {
        entry[index.vector_attribute] = Float32Copy(v.data() + floats_at, query.size());
        entry = expr::Project(entry, parsed.projection->paths);
      } else {
        entry.erase(index.vector_attribute);
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
