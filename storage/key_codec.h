// The order-preserving key codec: how primary keys and index keys become LMDB keys.
//
// Byte grammar (DO NOT CHANGE: it is the on-disk format; bump the catalog format version):
//
//   value(S|B)  := esc(bytes) 0x00 0x00            esc: 0x00 -> 0x00 0xFF, other bytes as is
//   value(N)    := Number::AppendKeyEncoding        (order-preserving, self-delimiting)
//   hash8(v)    := big-endian Hash64(tag || raw)    tag 'S' | 'N' | 'B'; raw = bytes, or the
//                                                   N encoding (so 1 and 1.0 hash alike)
//   bounded(e, T) := e                              if |e| <= T
//                 |  e[0, T) digest16(e)            otherwise; digest16 = two Hash64 seeds
//
//   table key   := hash8(pk) bounded(value(pk), 192) [bounded(value(sk), 272)]
//   index key   := hash8(ipk) bounded(value(ipk), 120) [bounded(value(isk), 160)]
//                  bounded(value(tpk) [value(tsk)], 150)
//
//   A multi-attribute GSI key (partition attributes p1..pn, sort attributes s1..sm) puts
//   concatenations of the attributes' values where one value was:
//   index key   := hashM(p1..pn) bounded(value(p1)..value(pn), 120)
//                  [bounded(value(s1)..value(sm), 160)] bounded(value(tpk) [value(tsk)], 150)
//   hashM       := big-endian Hash64('M' || value(p1)..value(pn))
//   Each value() is self-delimiting and order-preserving, so memcmp order of the concatenation
//   is the order by s1, then s2, ... (DynamoDB's order), and the items with equal s1..sk are
//   contiguous, which Query's prefix conditions use.
//
// Properties:
//  - Partitions are ordered by hash8, as in DynamoDB, so a Scan has no meaningful order and a
//    parallel-scan segment is a range of hash8 values. All items of one partition are
//    contiguous (hash8 and the partition value are a common prefix) and ordered by sort key:
//    memcmp order of value() is the order of S/B bytes and of numbers.
//  - The longest table key is 8 + 208 + 288 = 504 bytes and the longest index key
//    8 + 136 + 176 + 166 = 486 bytes, under LMDB's 511-byte limit, while DynamoDB allows
//    2048-byte partition keys and 1024-byte sort keys.
//  - The ordering compromise for very long keys: two sort keys whose encodings share their first
//    T bytes (272 on a table, 160 on an index) and are both longer than T are ordered among
//    themselves by digest, not by value. Every other pair keeps its true order (an encoding of
//    at most T bytes ends in 0x00 0x00, which cannot occur inside a longer one), so equality
//    lookups are exact and readers re-check key conditions on the decoded value.
//  - Index keys end with the table key so that equal index keys stay distinct entries; items
//    that share an index key come back in an unspecified order, as DynamoDB documents.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/attribute_value.h"
#include "core/schema.h"

namespace keyhole::storage {

constexpr size_t kTablePartitionBound = 192;
constexpr size_t kTableSortBound = 272;
constexpr size_t kIndexPartitionBound = 120;
constexpr size_t kIndexSortBound = 160;
constexpr size_t kIndexTableKeyBound = 150;
constexpr size_t kDigestBytes = 16;

// Appends value(v). REQUIRES: v is S, N or B.
void AppendKeyValue(const AttributeValue& v, std::string* out);
// Appends esc(bytes) without the terminator: the prefix every value() starting with `bytes` has.
void AppendEscapedPrefix(std::string_view bytes, std::string* out);
// Appends bounded(e, limit).
void AppendBounded(std::string_view e, size_t limit, std::string* out);
// hash8 of a partition key value. REQUIRES: S, N or B.
uint64_t PartitionHash(const AttributeValue& v);
void AppendBigEndian64(uint64_t v, std::string* out);
uint64_t ReadBigEndian64(std::string_view s);

// hash8(pk) bounded(value(pk), partition_bound): the prefix shared by one partition.
std::string PartitionPrefix(const AttributeValue& pk, size_t partition_bound);

// The partition prefix of a key's partition attribute values (one value: PartitionPrefix; more:
// hashM and the bounded concatenation). REQUIRES: each value is S, N or B.
std::string PartitionPrefixOf(const std::vector<const AttributeValue*>& values,
                              size_t partition_bound);
// value(v1)..value(vn): the unbounded encoding of the values of a (multi-attribute) sort key.
std::string ConcatenatedKeyValues(const std::vector<const AttributeValue*>& values);

// The LMDB key of the item (or key) `key` in a table with `schema`.
// REQUIRES: `key` holds the schema's key attributes with the declared types.
std::string EncodeTableKey(const KeySchema& schema, const Item& key);

// The LMDB key of `item` in an index with `index_key`, for a table with `table_key`.
// REQUIRES: the item has the index key attributes with the declared types.
std::string EncodeIndexKey(const KeySchema& index_key, const KeySchema& table_key,
                           const Item& item);

}  // namespace keyhole::storage
