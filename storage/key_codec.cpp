#include "storage/key_codec.h"

#include "core/require.h"
#include "storage/hash.h"

namespace keyhole::storage {

void AppendEscapedPrefix(std::string_view bytes, std::string* out) {
  // Runs without a zero byte are appended whole; each zero is followed by 0xFF.
  for (size_t at; (at = bytes.find('\0')) != std::string_view::npos;) {
    out->append(bytes.substr(0, at + 1));
    out->push_back('\xFF');
    bytes.remove_prefix(at + 1);
  }
  out->append(bytes);
}

void AppendKeyValue(const AttributeValue& v, std::string* out) {
  KH_REQUIRE(v.is(ValueType::kS) || v.is(ValueType::kN) || v.is(ValueType::kB));
  if (v.is(ValueType::kN)) {
    v.n().AppendKeyEncoding(out);
    return;
  }
  AppendEscapedPrefix(v.s(), out);
  out->push_back('\0');
  out->push_back('\0');
}

void AppendBigEndian64(uint64_t v, std::string* out) {
  char bytes[8];
  for (int i = 0; i < 8; ++i) bytes[i] = static_cast<char>((v >> (8 * (7 - i))) & 0xff);
  out->append(bytes, 8);
}

uint64_t ReadBigEndian64(std::string_view s) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | static_cast<unsigned char>(s[i]);
  return v;
}

void AppendBounded(std::string_view e, size_t limit, std::string* out) {
  if (e.size() <= limit) {
    out->append(e);
    return;
  }
  out->append(e.substr(0, limit));
  AppendBigEndian64(Hash64(e, 0x6b6579686f6c6531ULL), out);
  AppendBigEndian64(Hash64(e, 0x6b6579686f6c6532ULL), out);
}

namespace {
// bounded(value(v), bound) appended to *out: the value is encoded in place and, in the rare
// case it is longer than the bound, cut and followed by its digest.
void AppendBoundedValue(const AttributeValue& v, size_t bound, std::string* out) {
  const size_t start = out->size();
  AppendKeyValue(v, out);
  if (out->size() - start <= bound) return;
  const std::string enc = out->substr(start);
  out->resize(start);
  AppendBounded(enc, bound, out);
}
}  // namespace

uint64_t PartitionHash(const AttributeValue& v) {
  // The type's letter and the value's bytes, in a buffer kept per thread (no allocation once
  // it has grown to the longest key seen).
  thread_local std::string raw;
  if (v.is(ValueType::kN)) {
    raw.assign(1, 'N');
    v.n().AppendKeyEncoding(&raw);
  } else {
    raw.assign(1, v.is(ValueType::kS) ? 'S' : 'B');
    raw.append(v.s());
  }
  return Hash64(raw);
}

std::string PartitionPrefix(const AttributeValue& pk, size_t partition_bound) {
  std::string out;
  // Room for the sort key a table or index key appends next (a number's 42 bytes at most, a
  // short string's), so that most keys are one allocation.
  out.reserve(8 + (pk.is(ValueType::kN) ? 42 : pk.s().size() + 2) + 48);
  AppendBigEndian64(PartitionHash(pk), &out);
  AppendBoundedValue(pk, partition_bound, &out);
  return out;
}

std::string ConcatenatedKeyValues(const std::vector<const AttributeValue*>& values) {
  std::string enc;
  for (const AttributeValue* v : values) AppendKeyValue(*v, &enc);
  return enc;
}

std::string PartitionPrefixOf(const std::vector<const AttributeValue*>& values,
                              size_t partition_bound) {
  if (values.size() == 1) return PartitionPrefix(*values[0], partition_bound);
  std::string enc = "M" + ConcatenatedKeyValues(values);
  std::string out;
  AppendBigEndian64(Hash64(enc), &out);
  AppendBounded(std::string_view(enc).substr(1), partition_bound, &out);
  return out;
}

std::string EncodeTableKey(const KeySchema& schema, const Item& key) {
  std::string out = PartitionPrefix(key.at(schema.partition.name), kTablePartitionBound);
  if (schema.sort) AppendBoundedValue(key.at(schema.sort->name), kTableSortBound, &out);
  return out;
}

std::string EncodeIndexKey(const KeySchema& index_key, const KeySchema& table_key,
                           const Item& item) {
  auto values = [&](const std::vector<const KeyAttribute*>& attrs) {
    std::vector<const AttributeValue*> out;
    for (const KeyAttribute* a : attrs) out.push_back(&item.at(a->name));
    return out;
  };
  std::string out;
  if (!index_key.IsMultiAttribute()) {
    out = PartitionPrefix(item.at(index_key.partition.name), kIndexPartitionBound);
    if (index_key.sort) AppendBoundedValue(item.at(index_key.sort->name), kIndexSortBound, &out);
  } else {
    out = PartitionPrefixOf(values(index_key.PartitionAttributes()), kIndexPartitionBound);
    if (index_key.sort) {
      AppendBounded(ConcatenatedKeyValues(values(index_key.SortAttributes())), kIndexSortBound,
                    &out);
    }
  }
  std::string tk;
  AppendKeyValue(item.at(table_key.partition.name), &tk);
  if (table_key.sort) AppendKeyValue(item.at(table_key.sort->name), &tk);
  AppendBounded(tk, kIndexTableKeyBound, &out);
  return out;
}

}  // namespace keyhole::storage
