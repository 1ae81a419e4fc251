#include "storage/key_codec.h"

#include "storage/hash.h"

namespace keyhole::storage {

void AppendEscapedPrefix(std::string_view bytes, std::string* out) {
  for (char c : bytes) {
    out->push_back(c);
    if (c == '\0') out->push_back('\xFF');
  }
}

void AppendKeyValue(const AttributeValue& v, std::string* out) {
  if (v.is(ValueType::kN)) {
    v.n().AppendKeyEncoding(out);
    return;
  }
  AppendEscapedPrefix(v.s(), out);
  out->push_back('\0');
  out->push_back('\0');
}

void AppendBigEndian64(uint64_t v, std::string* out) {
  for (int i = 7; i >= 0; --i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
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

uint64_t PartitionHash(const AttributeValue& v) {
  std::string raw;
  if (v.is(ValueType::kN)) {
    raw.push_back('N');
    v.n().AppendKeyEncoding(&raw);
  } else {
    raw.push_back(v.is(ValueType::kS) ? 'S' : 'B');
    raw.append(v.s());
  }
  return Hash64(raw);
}

std::string PartitionPrefix(const AttributeValue& pk, size_t partition_bound) {
  std::string out, enc;
  AppendBigEndian64(PartitionHash(pk), &out);
  AppendKeyValue(pk, &enc);
  AppendBounded(enc, partition_bound, &out);
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

namespace {
void AppendBoundedValue(const AttributeValue& v, size_t bound, std::string* out) {
  std::string enc;
  AppendKeyValue(v, &enc);
  AppendBounded(enc, bound, out);
}
}  // namespace

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
