// Reads: Query and Scan, paged by Limit and 1 MB, on a table or an index.
#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "core/ddb_json.h"
#include "core/evaluate.h"
#include "core/item_codec.h"
#include "core/regional.h"
#include "core/throughput.h"
#include "storage/engine.h"
#include "storage/key_codec.h"

namespace keyhole::storage {

namespace {

constexpr size_t kPageBytes = 1 << 20;  // 1 MB read per page, before filters

// Where a read runs: the base table or one index.
struct Source {
  MDB_dbi dbi = 0;
  const IndexDescription* index = nullptr;  // null: the base table
  const KeySchema* key = nullptr;           // the key schema of what is read
  size_t partition_bound = kTablePartitionBound;
  size_t sort_bound = kTableSortBound;
};

Result<Source> ResolveSource(const TableHandle& h, const std::optional<std::string>& index_name,
                             bool consistent_read) {
  Source src;
  src.dbi = h.dbi;
  src.key = &h.desc.key;
  if (!index_name) return src;
  KH_RETURN_IF_ERROR(ValidateTableName(*index_name, "indexName"));
  for (size_t i = 0; i < h.desc.indexes.size(); ++i) {
    if (h.desc.indexes[i].name != *index_name) continue;
    src.dbi = h.index_dbis[i];
    src.index = &h.desc.indexes[i];
    src.key = &src.index->key;
    src.partition_bound = kIndexPartitionBound;
    src.sort_bound = kIndexSortBound;
    if (consistent_read && src.index->kind == IndexKind::kGlobal) {
      return Status::Validation("Consistent reads are not supported on global secondary indexes");
    }
    return src;
  }
  return Status::Validation(
      fmt::format("The table does not have the specified index: {}", *index_name));
}

// Resolves Select: COUNT, whole items, or index entries (possibly fetching base items).
struct Output {
  bool count_only = false;
  bool fetch_base = false;      // LSI with a partial projection: read base items too
  bool all_attributes = false;  // Select ALL_ATTRIBUTES: return the whole base item
};

// The top-level attribute names a condition reads.
void CollectTopNames(const expr::Operand& o, std::vector<std::string>* out) {
  if (o.kind == expr::OperandKind::kPath) out->push_back(o.path.elements.front().name);
  for (const auto& a : o.args) CollectTopNames(a, out);
}
void CollectTopNames(const expr::Condition& c, std::vector<std::string>* out) {
  for (const auto& o : c.operands) CollectTopNames(o, out);
  for (const auto& child : c.children) CollectTopNames(child, out);
}

// Select and ProjectionExpression rules (reference §3.9). `prefix` is "1 validation error
// detected: " for Query, as DynamoDB words it there. A projection translated from the legacy
// AttributesToGet (`legacy`) is named so in the messages.
Result<Output> ResolveSelect(Select select, const Source& src, const KeySchema& table_key,
                             const expr::ProjectionExpression* projection,
                             const expr::Condition* filter, std::string_view prefix, bool legacy) {
  Output out;
  bool partial = src.index && src.index->projection.type != ProjectionType::kAll;
  auto fail = [&](std::string_view msg) {
    return Status::Validation(std::string(prefix) + std::string(msg));
  };
  if (projection && select != Select::kUnset && select != Select::kSpecificAttributes) {
    return fail(fmt::format("Cannot specify the {} when choosing to get {}",
                            legacy ? "AttributesToGet" : "ProjectionExpression",
                            select == Select::kCount           ? "only the Count"
                            : select == Select::kAllAttributes ? "ALL_ATTRIBUTES"
                                                               : "ALL_PROJECTED_ATTRIBUTES"));
  }
  switch (select) {
    case Select::kUnset:
      break;
    case Select::kAllProjectedAttributes:
      if (!src.index)
        return fail("ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName");
      break;
    case Select::kAllAttributes:
      if (partial && src.index->kind == IndexKind::kGlobal) {
        return Status::Validation(
            fmt::format("One or more parameter values were invalid: Select type ALL_ATTRIBUTES is "
                        "not supported for "
                        "global secondary index {} because its projection type is not ALL",
                        src.index->name));
      }
      out.fetch_base = partial;
      out.all_attributes = true;
      break;
    case Select::kCount:
      out.count_only = true;
      break;
    case Select::kSpecificAttributes:
      if (!projection) {
        return fail(
            "Must specify the AttributesToGet or ProjectionExpression when choosing to get "
            "SPECIFIC_ATTRIBUTES");
      }
      break;
  }
  // Attributes a GSI does not project cannot be asked for (the index holds nothing more); a
  // filter naming them sees them absent. On an LSI, a projection or filter naming attributes the
  // index does not hold reads the base item (at extra cost, as DynamoDB does), so results never
  // depend on what was projected.
  if (partial && projection) {
    std::vector<std::string> names;
    for (const auto& path : projection->paths) names.push_back(path.elements.front().name);
    if (Status st = CheckGsiProjects(*src.index, table_key, names); !st.ok()) return st;
  }
  if (partial && src.index->kind == IndexKind::kLocal) {
    std::vector<std::string> names;
    if (projection) {
      for (const auto& path : projection->paths) names.push_back(path.elements.front().name);
    }
    if (filter) CollectTopNames(*filter, &names);
    for (const auto& top : names) {
      bool held = src.key->Has(top) || table_key.Has(top);
      for (const auto& a : src.index->projection.non_key_attributes) held = held || a == top;
      if (!held) out.fetch_base = true;
    }
  }
  return out;
}

Status CheckLimit(const std::optional<int>& limit) {
  if (limit && *limit < 1) {
    return Status::Validation(
        fmt::format("1 validation error detected: Value '{}' at 'limit' failed to satisfy "
                    "constraint: Member must "
                    "have value greater than or equal to 1",
                    *limit));
  }
  return Status::OK();
}

// The smallest string greater than every string that starts with `x`; nullopt when none.
std::optional<std::string> Successor(std::string x) {
  while (!x.empty() && static_cast<unsigned char>(x.back()) == 0xff) x.pop_back();
  if (x.empty()) return std::nullopt;
  x.back() = static_cast<char>(static_cast<unsigned char>(x.back()) + 1);
  return x;
}

// A byte range [lower, end) over the source's keys; no `end`: to the end of the database.
// `exact` when the range holds exactly the entries that satisfy the key condition, so that
// entries need no re-check.
struct Range {
  std::string lower;
  std::optional<std::string> end;
  bool exact = false;
};

// The keys that identify an item in a page: the table key, plus the index key on an index.
Item PositionKey(const TableHandle& h, const Source& src, const Item& item) {
  Item k = ExtractKey(h.desc.key, item);
  if (src.index) {
    for (const KeyAttribute* a : src.key->Attributes()) k.emplace(a->name, item.at(a->name));
  }
  return k;
}

// Validates an ExclusiveStartKey's shape against the source and returns its stored key.
// `bare`: a mismatched element is the bare "The provided starting key is invalid", as a Scan is
// answered in the regions of its newer wording (core/regional.h).
Result<std::string> StartKey(const TableHandle& h, const Source& src, const Item& esk,
                             bool bare = false) {
  Item expected_names;
  size_t n = 1 + (h.desc.key.sort ? 1 : 0);
  auto check = [&](const KeyAttribute& a) -> Status {
    auto it = esk.find(a.name);
    if (it == esk.end()) return Status::Validation("The provided starting key is invalid");
    if (it->second.type() != a.type || (!it->second.is(ValueType::kN) && it->second.s().empty())) {
      if (bare) return Status::Validation("The provided starting key is invalid");
      return Status::Validation(
          "The provided starting key is invalid: The provided key element does not match the "
          "schema");
    }
    return Status::OK();
  };
  KH_RETURN_IF_ERROR(check(h.desc.key.partition));
  if (h.desc.key.sort) KH_RETURN_IF_ERROR(check(*h.desc.key.sort));
  if (src.index) {
    for (const KeyAttribute* a : src.key->Attributes()) {
      KH_RETURN_IF_ERROR(check(*a));
      if (!h.desc.key.Has(a->name)) ++n;
    }
  }
  if (esk.size() != n) return Status::Validation("The provided starting key is invalid");
  return src.index ? EncodeIndexKey(src.index->key, h.desc.key, esk)
                   : EncodeTableKey(h.desc.key, esk);
}

// What one page read needs beyond the range.
struct PageSpec {
  bool forward = true;
  std::optional<std::string> start_after;  // resume strictly after this stored key
  std::optional<int> limit;
  Output out;
  bool consistent = false;
  // Re-checks an entry exactly (key conditions, given long-key truncation); entries it rejects
  // are not evaluated at all. Unset when the range is exact.
  std::function<bool(const Item&)> accept;
  const expr::Condition* filter = nullptr;  // applied after the read
  const expr::ProjectionExpression* projection = nullptr;
  // A Scan's bytes per physical partition (ScanUnits); null for a Query.
  struct PartitionBytes* by_partition = nullptr;
};

// What a Scan page read of each of the source's physical partitions: its entries' bytes, and
// the last partition it reached when it stopped at a LastEvaluatedKey.
struct PartitionBytes {
  int partitions = 1;
  std::vector<size_t> bytes;
  std::optional<int> stopped_in;
  // The partition of a stored key: its leading 8 bytes are the partition hash (key_codec.h).
  int Of(std::string_view key) const {
    uint64_t hash = 0;
    for (size_t i = 0; i < 8 && i < key.size(); ++i) {
      hash = (hash << 8) | static_cast<uint8_t>(key[i]);
    }
    return static_cast<int>((static_cast<unsigned __int128>(hash) * partitions) >> 64);
  }
};

// The attributes of PositionKey, sorted (DecodeItemAttributes' `names`).
std::vector<std::string> PositionKeyNames(const TableHandle& h, const Source& src) {
  std::vector<std::string> names = h.desc.key.Names();
  for (std::string& name : src.key->Names()) names.push_back(std::move(name));
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

// The top-level attributes a page must decode: the table's and the source's key attributes
// (the exact re-check, LastEvaluatedKey, base-item fetches), the filter's, and the projection's.
// Nullopt (every attribute) when items are returned whole or base items are fetched.
std::optional<std::vector<std::string>> NeededAttributes(const TableHandle& h, const Source& src,
                                                         const PageSpec& spec) {
  if (spec.out.fetch_base || (!spec.out.count_only && !spec.projection)) return std::nullopt;
  std::vector<std::string> names = PositionKeyNames(h, src);
  if (spec.filter) CollectTopNames(*spec.filter, &names);
  if (spec.projection) {
    for (const auto& path : spec.projection->paths) names.push_back(path.elements.front().name);
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

// Reads one page of [range) and fills resp. Returns the bytes read (the capacity basis), and
// adds the units of LSI base-item fetches to *fetch_units.
Result<size_t> ReadPage(Txn& txn, const TableHandle& h, const Source& src, const Range& range,
                        const PageSpec& spec, ReadResponse* resp, double* fetch_units) {
  Cursor c(&txn, src.dbi);
  bool ok;
  if (spec.forward) {
    std::string start = range.lower;
    if (spec.start_after && *spec.start_after > start) start = *spec.start_after;
    ok = c.Seek(start);
    if (ok && spec.start_after && c.key() == *spec.start_after) ok = c.Next();
  } else {
    std::optional<std::string> end = range.end;
    if (spec.start_after && (!end || *spec.start_after < *end)) end = spec.start_after;
    if (end) {
      ok = c.Seek(*end) ? c.Prev() : c.SeekLast();
      if (!c.status().ok()) return c.status();
    } else {
      ok = c.SeekLast();
    }
  }
  size_t bytes = 0;
  const std::optional<std::vector<std::string>> needed = NeededAttributes(h, src, spec);
  // Select COUNT with nothing to re-check or filter: entries are counted, not decoded.
  const bool count_any = needed && spec.out.count_only && !spec.filter && !spec.accept;
  // Whole entries returned as stored, with nothing to re-check or filter: they are checked and
  // copied into the page still encoded, and decoded only when read (core/item_list.h).
  const bool copy_any = !needed && !spec.out.fetch_base && !spec.filter && !spec.accept;
  auto page_full = [&] {
    return (spec.limit && resp->scanned_count >= *spec.limit) || bytes >= kPageBytes;
  };
  auto add = [&](std::string_view key, size_t n) {
    bytes += n;
    if (spec.by_partition) spec.by_partition->bytes[spec.by_partition->Of(key)] += n;
  };
  // The seek put the cursor inside the range's near bound, and the walk moves away from it:
  // only the far bound needs a check.
  for (; ok; ok = spec.forward ? c.Next() : c.Prev()) {
    std::string_view k = c.key();
    if (spec.forward ? (range.end && k >= *range.end) : k < range.lower) break;
    if (count_any) {
      // Nothing to check or return: an item is decoded only for the LastEvaluatedKey.
      ++resp->scanned_count;
      ++resp->count;
      add(k, EncodedItemSize(c.value()));
      if (page_full()) {
        if (spec.by_partition) spec.by_partition->stopped_in = spec.by_partition->Of(k);
        KH_ASSIGN_OR_RETURN(Item item, DecodeItemAttributes(c.value(), *needed));
        resp->last_evaluated_key = PositionKey(h, src, item);
        break;
      }
      continue;
    }
    if (copy_any) {
      if (!ValidItemEncoding(c.value())) {
        Status why = DecodeItem(c.value()).status();  // the decoder's own message
        return why.ok() ? Status::Internal("corrupt item encoding") : why;
      }
      ++resp->scanned_count;
      ++resp->count;
      add(k, EncodedItemSize(c.value()));
      resp->items.PushEncoded(c.value());
      if (page_full()) {
        if (spec.by_partition) spec.by_partition->stopped_in = spec.by_partition->Of(k);
        KH_ASSIGN_OR_RETURN(Item item, DecodeItemAttributes(c.value(), PositionKeyNames(h, src)));
        resp->last_evaluated_key = PositionKey(h, src, item);
        break;
      }
      continue;
    }
    KH_ASSIGN_OR_RETURN(Item item,
                        needed ? DecodeItemAttributes(c.value(), *needed) : DecodeItem(c.value()));
    if (spec.accept && !spec.accept(item)) continue;
    ++resp->scanned_count;
    add(k, EncodedItemSize(c.value()));
    const bool stop = page_full();
    if (stop) resp->last_evaluated_key = PositionKey(h, src, item);
    if (stop && spec.by_partition) spec.by_partition->stopped_in = spec.by_partition->Of(k);
    // An LSI entry without all the attributes asked for (or filtered on): read the base item.
    std::optional<Item> full;
    if (spec.out.fetch_base) {
      std::string_view base;
      bool found;
      KH_RETURN_IF_ERROR(txn.Get(h.dbi, EncodeTableKey(h.desc.key, item), &base, &found));
      if (found) {
        KH_ASSIGN_OR_RETURN(full, DecodeItem(base));
        *fetch_units += ReadUnits(EncodedItemSize(base), spec.consistent);
      }
    }
    const Item& subject = full ? *full : item;
    if (!spec.filter || expr::Evaluate(*spec.filter, subject)) {
      ++resp->count;
      if (!spec.out.count_only) {
        if (spec.projection) {
          resp->items.push_back(expr::Project(subject, spec.projection->paths));
        } else if (full && spec.out.all_attributes) {
          resp->items.push_back(std::move(*full));
        } else {
          resp->items.push_back(std::move(item));  // the index's projected attributes
        }
      }
    }
    if (stop) break;
  }
  KH_RETURN_IF_ERROR(c.status());
  return bytes;
}

// The physical partitions a Scan of the table (or of its index `index`) reads: as many as its
// warm throughput takes, 3,000 reads or 1,000 writes a second each (4 for an on-demand table
// or GSI until raised).
int ScanPartitions(const TableDescription& t, const IndexDescription* index) {
  int64_t reads = index ? index->warm_read_units : t.warm_read_units;
  int64_t writes = index ? index->warm_write_units : t.warm_write_units;
  const bool on_demand = t.billing_mode == "PAY_PER_REQUEST";
  if (reads <= 0 && writes <= 0) {
    reads = on_demand ? kOnDemandWarmReadUnits : (index ? index->read_capacity : t.read_capacity);
    writes =
        on_demand ? kOnDemandWarmWriteUnits : (index ? index->write_capacity : t.write_capacity);
  }
  const int64_t n = std::max<int64_t>({1, (reads + 2999) / 3000, (writes + 999) / 1000});
  return static_cast<int>(std::min<int64_t>(n, 1024));
}

// Charges a read of `bytes` (plus LSI fetches) to the table or index: the bytes read, rounded
// up to 4 KB units, halved when eventually consistent, for a Query and a Scan alike.
//
// A Scan is charged per physical partition it goes through (issue 41 §8): each partition's bytes
// rounded up to 4 KB on their own, an empty one at the minimum of 1 unit (0.5 eventually
// consistent), over the partitions from where the page started to where it stopped. Alternator's
// test_returnconsumedcapacity.py records DynamoDB charging 4.0 for a consistent Scan of a new
// table holding one tiny item (2.0 eventually consistent), which is four partitions at the
// minimum: a new on-demand table's warm throughput, 12,000 reads and 4,000 writes a second, is
// four partitions' (3,000 and 1,000 each). The 128.5 units of a 1 MB page read eventually
// consistent fits too (a page crossing into one more partition). A Query reads one partition,
// by its bytes.
void ChargeRead(const Source& src, const std::string& table, size_t bytes, bool consistent,
                double fetch_units, ReturnConsumedCapacity rcc, ReadResponse* resp,
                std::optional<double> scan_units = std::nullopt) {
  ConsumedCapacity cc;
  cc.table_name = table;
  double units = scan_units ? *scan_units : ReadUnits(bytes, consistent);
  if (!src.index) {
    cc.table.AddRead(units);
  } else if (src.index->kind == IndexKind::kGlobal) {
    cc.global_indexes[src.index->name].AddRead(units);
  } else {
    cc.local_indexes[src.index->name].AddRead(units);
  }
  if (fetch_units > 0) cc.table.AddRead(fetch_units);
  resp->consumed_capacity = Report(rcc, std::move(cc));
}

std::string Operand(const AttributeValue& v) {
  return fmt::format(
      "AttributeValue: {{{}:{}}}", TypeName(v.type()),
      v.is(ValueType::kN) ? v.n().ToString() : (v.is(ValueType::kS) ? v.s() : Base64Encode(v.s())));
}

Status TypeMismatch() {
  return Status::Validation(
      "One or more parameter values were invalid: Condition parameter type does not match schema "
      "type");
}

Status Missed(const std::string& name) {
  return Status::Validation(fmt::format("Query condition missed key schema element: {}", name));
}

// A partition attribute's value in a key condition: declared type, non-empty, within 2048 bytes.
Status CheckPartitionValue(const AttributeValue& pv, const KeyAttribute& a) {
  if (pv.type() != a.type) return TypeMismatch();
  if (!pv.is(ValueType::kN) && pv.s().empty()) {
    return Status::Validation(fmt::format(
        "One or more parameter values are not valid. The AttributeValue for a key attribute cannot "
        "contain an empty {} value. Key: {}",
        pv.is(ValueType::kS) ? "string" : "binary", a.name));
  }
  // No stored item can have a longer partition key (reference §1.5); DynamoDB refuses it as it
  // refuses it in a Key.
  if (!pv.is(ValueType::kN) && pv.s().size() > kMaxPartitionKeyBytes) {
    return Status::Validation(
        "One or more parameter values were invalid: Size of hashkey has exceeded the maximum size "
        "limit of2048 bytes");
  }
  return Status::OK();
}

// The sort condition's operands against the attribute it constrains.
Status CheckSortOperands(const KeyCondition& kc, const KeyAttribute& a) {
  bool between = kc.op == SortKeyOp::kBetween;
  for (const AttributeValue* v : {&kc.sort_value, between ? &kc.sort_value2 : nullptr}) {
    if (v && v->type() != a.type) return TypeMismatch();
  }
  if (kc.op == SortKeyOp::kBeginsWith && a.type == ValueType::kN) {
    return Status::Validation(
        "Invalid KeyConditionExpression: Incorrect operand type for operator or function; operator "
        "or "
        "function: begins_with, operand type: N");
  }
  if (between && kc.sort_value.CompareKey(kc.sort_value2) > 0) {
    return Status::Validation(
        fmt::format("Invalid KeyConditionExpression: The BETWEEN operator requires upper bound to "
                    "be greater than or "
                    "equal to lower bound; lower bound operand: {}, upper bound operand: {}",
                    Operand(kc.sort_value), Operand(kc.sort_value2)));
  }
  return Status::OK();
}

// Validates the structured key condition against the source's key schema.
Status CheckKeyCondition(const KeyCondition& kc, const KeySchema& key) {
  if (kc.partition_name != key.partition.name) return Missed(key.partition.name);
  KH_RETURN_IF_ERROR(CheckPartitionValue(kc.partition_value, key.partition));
  if (kc.more_partition.size() > key.more_partition.size()) {
    return Status::Validation("Query key condition not supported");
  }
  for (size_t i = 0; i < key.more_partition.size(); ++i) {
    const KeyAttribute& a = key.more_partition[i];
    if (i >= kc.more_partition.size() || kc.more_partition[i].first != a.name)
      return Missed(a.name);
    KH_RETURN_IF_ERROR(CheckPartitionValue(kc.more_partition[i].second, a));
  }
  if (kc.op == SortKeyOp::kNone) {
    if (!kc.sort_prefix.empty()) return Status::Validation("Query key condition not supported");
    return Status::OK();
  }
  const std::vector<const KeyAttribute*> sorts = key.SortAttributes();
  if (kc.sort_prefix.size() >= sorts.size()) {
    return Status::Validation("Query key condition not supported");
  }
  for (size_t i = 0; i < kc.sort_prefix.size(); ++i) {
    if (kc.sort_prefix[i].first != sorts[i]->name) return Missed(sorts[i]->name);
    if (kc.sort_prefix[i].second.type() != sorts[i]->type) return TypeMismatch();
  }
  const KeyAttribute& a = *sorts[kc.sort_prefix.size()];
  if (kc.sort_name != a.name) return Missed(a.name);
  return CheckSortOperands(kc, a);
}

bool SortMatches(const KeyCondition& kc, const AttributeValue& v) {
  switch (kc.op) {
    case SortKeyOp::kNone:
      return true;
    case SortKeyOp::kEq:
      return v.CompareKey(kc.sort_value) == 0;
    case SortKeyOp::kLt:
      return v.CompareKey(kc.sort_value) < 0;
    case SortKeyOp::kLe:
      return v.CompareKey(kc.sort_value) <= 0;
    case SortKeyOp::kGt:
      return v.CompareKey(kc.sort_value) > 0;
    case SortKeyOp::kGe:
      return v.CompareKey(kc.sort_value) >= 0;
    case SortKeyOp::kBetween:
      return v.CompareKey(kc.sort_value) >= 0 && v.CompareKey(kc.sort_value2) <= 0;
    case SortKeyOp::kBeginsWith:
      return v.s().starts_with(kc.sort_value.s());
  }
  return false;
}

// Whether `item` (an entry, or an ExclusiveStartKey) has attribute `name` equal to `v`.
bool HasEqual(const Item& item, const std::string& name, const AttributeValue& v) {
  auto it = item.find(name);
  return it != item.end() && it->second.type() == v.type() && it->second.CompareKey(v) == 0;
}

// Whether `item`'s partition attributes are the checked condition's.
bool PartitionMatches(const KeyCondition& kc, const Item& item) {
  if (!HasEqual(item, kc.partition_name, kc.partition_value)) return false;
  for (const auto& [name, v] : kc.more_partition)
    if (!HasEqual(item, name, v)) return false;
  return true;
}

// Whether `item`'s sort attributes satisfy the checked condition.
bool SortKeyMatches(const KeyCondition& kc, const Item& item) {
  if (kc.op == SortKeyOp::kNone) return true;
  for (const auto& [name, v] : kc.sort_prefix)
    if (!HasEqual(item, name, v)) return false;
  auto sk = item.find(kc.sort_name);
  return sk != item.end() && sk->second.type() == kc.sort_value.type() &&
         SortMatches(kc, sk->second);
}

// The byte range of a key condition. `P` is the partition prefix and `pre` the encoding of the
// sort prefix's values (empty for a single-attribute key); a bound of the source's sort part
// applies to `pre` and the operand together, as it does to the stored concatenation.
//
// Where no bound had to be cut to its limit (key_codec.h's bounded()), the range is exact:
// value() is self-delimiting and order-preserving, and no stored key, cut or not, can differ
// from an uncut bound only after the bound's end. Then the entries whose value equals an
// operand are exactly those starting with P pre value(operand), and < and > leave them out.
// Where a bound was cut, the range is the conservative one and ReadPage re-checks each entry.
Range QueryRange(const KeyCondition& kc, const Source& src) {
  std::vector<const AttributeValue*> pvals{&kc.partition_value};
  for (const auto& [name, v] : kc.more_partition) pvals.push_back(&v);
  const std::string p = PartitionPrefixOf(pvals, src.partition_bound);
  bool cut = p.size() > 8 + src.partition_bound;  // hash8, then bounded() of the value(s)
  std::string pre;
  for (const auto& [name, v] : kc.sort_prefix) AppendKeyValue(v, &pre);
  auto bounded = [&](const std::string& e) {
    if (e.size() > src.sort_bound) cut = true;
    return p + e.substr(0, std::min(e.size(), src.sort_bound));
  };
  auto with = [&](const AttributeValue& v) {
    std::string e = pre;
    AppendKeyValue(v, &e);
    return bounded(e);
  };
  Range r{bounded(pre), Successor(bounded(pre))};
  switch (kc.op) {
    case SortKeyOp::kNone:
      break;
    case SortKeyOp::kEq:
      r.lower = with(kc.sort_value);
      r.end = Successor(r.lower);
      break;
    case SortKeyOp::kLt:
    case SortKeyOp::kLe: {
      std::string bound = with(kc.sort_value);
      // Uncut, the entries equal to the operand are those starting with `bound`.
      r.end =
          kc.op == SortKeyOp::kLt && !cut ? std::optional<std::string>(bound) : Successor(bound);
      break;
    }
    case SortKeyOp::kGt:
    case SortKeyOp::kGe: {
      std::string bound = with(kc.sort_value);
      if (kc.op == SortKeyOp::kGt && !cut) {
        std::optional<std::string> after = Successor(bound);
        if (!after) r.end = bound;  // nothing sorts after the operand: an empty range
        r.lower = after ? std::move(*after) : std::move(bound);
      } else {
        r.lower = std::move(bound);
      }
      break;
    }
    case SortKeyOp::kBetween:
      r.lower = with(kc.sort_value);
      r.end = Successor(with(kc.sort_value2));
      break;
    case SortKeyOp::kBeginsWith: {
      std::string e = pre;
      AppendEscapedPrefix(kc.sort_value.s(), &e);
      r.lower = bounded(e);
      r.end = Successor(r.lower);
      break;
    }
  }
  r.exact = !cut;
  return r;
}

}  // namespace

// Parses a read's expressions and checks the filter and projection statically.
static Result<expr::ParsedExpressions> ParseReadExpressions(const Database::Impl& impl,
                                                            const expr::ExpressionInput& in) {
  KH_ASSIGN_OR_RETURN(expr::ParsedExpressions parsed, impl.ParseExpressions(in));
  if (parsed.filter)
    KH_RETURN_IF_ERROR(expr::ValidateCondition(*parsed.filter, expr::Kind::kFilter));
  if (parsed.key_condition) {
    KH_RETURN_IF_ERROR(expr::ValidateCondition(*parsed.key_condition, expr::Kind::kKeyCondition));
    KH_RETURN_IF_ERROR(expr::CheckKeyConditionShape(*parsed.key_condition));
  }
  if (parsed.projection) KH_RETURN_IF_ERROR(expr::ValidateProjection(*parsed.projection));
  return parsed;
}

Result<QueryResponse> Database::Query(const QueryRequest& r) {
  KH_RETURN_IF_ERROR(ValidateDataTableName(r.table_name));
  KH_RETURN_IF_ERROR(CheckLimit(r.limit));
  KH_ASSIGN_OR_RETURN(expr::ParsedExpressions parsed, ParseReadExpressions(*impl_, r.expressions));
  QueryResponse resp;
  KH_RETURN_IF_ERROR(
      impl_->WithTable(r.table_name, false, [&](Txn& txn, const TableHandle& h) -> Status {
        KH_ASSIGN_OR_RETURN(Source src, ResolveSource(h, r.index_name, r.consistent_read));
        PageSpec spec;
        KH_ASSIGN_OR_RETURN(
            spec.out,
            ResolveSelect(r.select, src, h.desc.key, parsed.projection.get(), parsed.filter.get(),
                          "1 validation error detected: ", parsed.legacy));
        KeyCondition kc = r.key_condition;
        if (parsed.key_condition) {
          const bool global = src.index && src.index->kind == IndexKind::kGlobal;
          KH_ASSIGN_OR_RETURN(kc, expr::ToKeyCondition(*parsed.key_condition, *src.key, global));
        }
        KH_RETURN_IF_ERROR(CheckKeyCondition(kc, *src.key));
        if (r.exclusive_start_key) {
          KH_ASSIGN_OR_RETURN(spec.start_after, StartKey(h, src, *r.exclusive_start_key));
          const Item& esk = *r.exclusive_start_key;
          // A hash-only table's partition holds one item, after which nothing follows: DynamoDB
          // refuses the start key (Alternator's test_query_no_sort_key_exclusive_start_key
          // records its words, 2025).
          if (!src.index && !src.key->sort) {
            const auto& [name, value] = *esk.begin();
            return Status::Validation(fmt::format(
                "The provided exclusive start key is invalid: ExclusiveStartKey: {{{}={}}}", name,
                Operand(value)));
          }
          if (!PartitionMatches(kc, esk)) {
            return Status::Validation(
                "The provided starting key is outside query boundaries based on provided "
                "conditions");
          }
          if (src.key->sort && !SortKeyMatches(kc, esk)) {
            return Status::Validation(
                "The provided starting key does not match the range key predicate");
          }
        }
        // dynalite's order, recorded against DynamoDB: the projection's key paths, then the
        // filter's key attributes (those of the key queried: a filter on a GSI query may name
        // the table's key), then the filter's key paths.
        KH_RETURN_IF_ERROR(expr::CheckKeyPathsOf(parsed.projection, h.desc));
        if (parsed.filter) {
          KH_RETURN_IF_ERROR(
              expr::CheckFilterAvoidsKeys(*parsed.filter, src.key->Names(), parsed.legacy));
          KH_RETURN_IF_ERROR(expr::CheckKeyPathsOf(parsed.filter, h.desc));
        }
        spec.forward = r.scan_index_forward;
        spec.limit = r.limit;
        spec.consistent = r.consistent_read;
        spec.filter = parsed.filter.get();
        spec.projection = parsed.projection.get();
        const Range range = QueryRange(kc, src);
        if (!range.exact) {
          spec.accept = [&](const Item& item) {
            return PartitionMatches(kc, item) && SortKeyMatches(kc, item);
          };
        }
        double fetch_units = 0;
        PartitionBytes partitions;
        partitions.partitions = ScanPartitions(h.desc, src.index);
        partitions.bytes.assign(partitions.partitions, 0);
        spec.by_partition = &partitions;
        KH_ASSIGN_OR_RETURN(size_t bytes, ReadPage(txn, h, src, range, spec, &resp, &fetch_units));
        // The partitions the page went through: from where it started to where it stopped, or
        // to its range's end.
        std::string first = range.lower;
        if (spec.start_after && *spec.start_after > first) first = *spec.start_after;
        int last = partitions.partitions - 1;
        if (partitions.stopped_in) {
          last = *partitions.stopped_in;
        } else if (range.end) {
          last = partitions.Of(*range.end);
          // The end is exclusive: a bound on a partition's edge ends the one before it.
          std::string before = *range.end;
          for (size_t i = before.size(); i-- > 0;) {
            if (static_cast<uint8_t>(before[i]) != 0) {
              before[i] = static_cast<char>(static_cast<uint8_t>(before[i]) - 1);
              break;
            }
            before[i] = static_cast<char>(0xFF);
          }
          last = partitions.Of(before);
        }
        double units = 0;
        for (int p = partitions.Of(first); p <= last; ++p) {
          units += ReadUnits(partitions.bytes[p], r.consistent_read);
        }
        ChargeRead(src, h.desc.name, bytes, r.consistent_read, fetch_units,
                   r.return_consumed_capacity, &resp, units);
        return Status::OK();
      }));
  return resp;
}

Result<ScanResponse> Database::Scan(const ScanRequest& r) {
  KH_RETURN_IF_ERROR(ValidateDataTableName(r.table_name));
  KH_RETURN_IF_ERROR(CheckLimit(r.limit));
  if (r.total_segments && !r.segment) {
    return Status::Validation(
        "The Segment parameter is required but was not present in the request when parameter "
        "TotalSegments is present");
  }
  if (r.segment && !r.total_segments) {
    return Status::Validation(
        "The TotalSegments parameter is required but was not present in the request when Segment "
        "parameter is present");
  }
  int segment = r.segment.value_or(0), total = r.total_segments.value_or(1);
  if (total < 1 || total > 1000000) {
    return Status::Validation(
        fmt::format("1 validation error detected: Value '{}' at 'totalSegments' failed to satisfy "
                    "constraint: Member "
                    "must have value {} {}",
                    total, total < 1 ? "greater than or equal to" : "less than or equal to",
                    total < 1 ? 1 : 1000000));
  }
  if (segment < 0 && Regional().scan_newer_wording) {
    return Status::Validation(
        "1 validation error detected: Value at 'Segment' failed to satisfy constraint: Member must "
        "have value greater than or equal to 0");
  }
  if (segment < 0 || segment > 999999) {
    return Status::Validation(
        fmt::format("1 validation error detected: Value '{}' at 'segment' failed to satisfy "
                    "constraint: Member must "
                    "have value {} {}",
                    segment, segment < 0 ? "greater than or equal to" : "less than or equal to",
                    segment < 0 ? 0 : 999999));
  }
  if (segment >= total) {
    if (Regional().scan_newer_wording) {
      return Status::Validation(
          "The Segment parameter is zero-based and must be less than parameter TotalSegments");
    }
    return Status::Validation(
        fmt::format("The Segment parameter is zero-based and must be less than parameter "
                    "TotalSegments: Segment: {} is "
                    "not less than TotalSegments: {}",
                    segment, total));
  }
  // Segment s covers partition hashes [s·2^64/T, (s+1)·2^64/T).
  auto bound = [&](int s) -> uint64_t {
    return static_cast<uint64_t>((static_cast<unsigned __int128>(s) << 64) /
                                 static_cast<unsigned>(total));
  };
  Range range;
  AppendBigEndian64(bound(segment), &range.lower);
  if (segment + 1 < total) {
    range.end.emplace();
    AppendBigEndian64(bound(segment + 1), &*range.end);
  }
  KH_ASSIGN_OR_RETURN(expr::ParsedExpressions parsed, ParseReadExpressions(*impl_, r.expressions));
  if (parsed.key_condition) {
    return Status::Validation("KeyConditionExpression is not a Scan parameter");
  }
  ScanResponse resp;
  KH_RETURN_IF_ERROR(
      impl_->WithTable(r.table_name, false, [&](Txn& txn, const TableHandle& h) -> Status {
        KH_ASSIGN_OR_RETURN(Source src, ResolveSource(h, r.index_name, r.consistent_read));
        PageSpec spec;
        KH_ASSIGN_OR_RETURN(
            spec.out,
            ResolveSelect(r.select, src, h.desc.key, parsed.projection.get(), parsed.filter.get(),
                          Regional().scan_newer_wording ? "1 validation error detected: " : "",
                          parsed.legacy));
        if (r.exclusive_start_key) {
          KH_ASSIGN_OR_RETURN(spec.start_after, StartKey(h, src, *r.exclusive_start_key,
                                                         Regional().scan_newer_wording));
          if (*spec.start_after < range.lower || (range.end && *spec.start_after >= *range.end)) {
            return Status::Validation(
                fmt::format("The provided starting key is invalid: Invalid ExclusiveStartKey. "
                            "Please use ExclusiveStartKey with correct "
                            "Segment. TotalSegments: {} "
                            "Segment: {}",
                            total, segment));
          }
        }
        KH_RETURN_IF_ERROR(expr::CheckKeyPathsOf(parsed.projection, h.desc));
        KH_RETURN_IF_ERROR(expr::CheckKeyPathsOf(parsed.filter, h.desc));
        spec.limit = r.limit;
        spec.consistent = r.consistent_read;
        spec.filter = parsed.filter.get();
        spec.projection = parsed.projection.get();
        double fetch_units = 0;
        PartitionBytes partitions;
        partitions.partitions = ScanPartitions(h.desc, src.index);
        partitions.bytes.assign(partitions.partitions, 0);
        spec.by_partition = &partitions;
        KH_ASSIGN_OR_RETURN(size_t bytes, ReadPage(txn, h, src, range, spec, &resp, &fetch_units));
        // The partitions the page went through: from where it started to where it stopped, or
        // to its range's end.
        std::string first = range.lower;
        if (spec.start_after && *spec.start_after > first) first = *spec.start_after;
        int last = partitions.partitions - 1;
        if (partitions.stopped_in) {
          last = *partitions.stopped_in;
        } else if (range.end) {
          last = partitions.Of(*range.end);
          // The end is exclusive: a bound on a partition's edge ends the one before it.
          std::string before = *range.end;
          for (size_t i = before.size(); i-- > 0;) {
            if (static_cast<uint8_t>(before[i]) != 0) {
              before[i] = static_cast<char>(static_cast<uint8_t>(before[i]) - 1);
              break;
            }
            before[i] = static_cast<char>(0xFF);
          }
          last = partitions.Of(before);
        }
        double units = 0;
        for (int p = partitions.Of(first); p <= last; ++p) {
          units += ReadUnits(partitions.bytes[p], r.consistent_read);
        }
        ChargeRead(src, h.desc.name, bytes, r.consistent_read, fetch_units,
                   r.return_consumed_capacity, &resp, units);
        return Status::OK();
      }));
  return resp;
}

}  // namespace keyhole::storage
