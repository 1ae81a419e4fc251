// Reads: Query and Scan, paged by Limit and 1 MB, on a table or an index.
#include <fmt/format.h>

#include "core/ddb_json.h"
#include "storage/engine.h"
#include "storage/item_codec.h"
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
  return Status::Validation(fmt::format("The table does not have the specified index: {}", *index_name));
}

// Resolves Select: COUNT, whole items, or index entries (possibly fetching base items).
struct Output {
  bool count_only = false;
  bool fetch_base = false;  // LSI with ALL_ATTRIBUTES and a partial projection
};

Result<Output> ResolveSelect(Select select, const Source& src) {
  Output out;
  bool partial = src.index && src.index->projection.type != ProjectionType::kAll;
  switch (select) {
    case Select::kUnset:
    case Select::kAllProjectedAttributes:
      if (select == Select::kAllProjectedAttributes && !src.index) {
        return Status::Validation(
            "One or more parameter values were invalid: Select type ALL_PROJECTED_ATTRIBUTES is "
            "supported only for index queries and scans");
      }
      break;
    case Select::kAllAttributes:
      if (partial && src.index->kind == IndexKind::kGlobal) {
        return Status::Validation(fmt::format(
            "One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported for "
            "global secondary index {} because its projection type is not ALL",
            src.index->name));
      }
      out.fetch_base = partial;
      break;
    case Select::kCount: out.count_only = true; break;
    case Select::kSpecificAttributes:
      return Status::Validation(
          "One or more parameter values were invalid: Select type SPECIFIC_ATTRIBUTES requires a "
          "ProjectionExpression");
  }
  return out;
}

Status CheckLimit(const std::optional<int>& limit) {
  if (limit && *limit < 1) {
    return Status::Validation(fmt::format(
        "1 validation error detected: Value '{}' at 'limit' failed to satisfy constraint: Member must "
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
struct Range {
  std::string lower;
  std::optional<std::string> end;
};

// The keys that identify an item in a page: the table key, plus the index key on an index.
Item PositionKey(const TableHandle& h, const Source& src, const Item& item) {
  Item k = ExtractKey(h.desc.key, item);
  if (src.index) {
    for (const KeyAttribute* a : {&src.key->partition, src.key->sort ? &*src.key->sort : nullptr}) {
      if (a) k.emplace(a->name, item.at(a->name));
    }
  }
  return k;
}

// Validates an ExclusiveStartKey's shape against the source and returns its stored key.
Result<std::string> StartKey(const TableHandle& h, const Source& src, const Item& esk) {
  Item expected_names;
  size_t n = 1 + (h.desc.key.sort ? 1 : 0);
  auto check = [&](const KeyAttribute& a) -> Status {
    auto it = esk.find(a.name);
    if (it == esk.end()) return Status::Validation("The provided starting key is invalid");
    if (it->second.type() != a.type || (!it->second.is(ValueType::kN) && it->second.s().empty())) {
      return Status::Validation("The provided starting key is invalid: The provided key element does not match the schema");
    }
    return Status::OK();
  };
  KH_RETURN_IF_ERROR(check(h.desc.key.partition));
  if (h.desc.key.sort) KH_RETURN_IF_ERROR(check(*h.desc.key.sort));
  if (src.index) {
    for (const KeyAttribute* a : {&src.key->partition, src.key->sort ? &*src.key->sort : nullptr}) {
      if (!a) continue;
      KH_RETURN_IF_ERROR(check(*a));
      if (*a != h.desc.key.partition && !(h.desc.key.sort && *a == *h.desc.key.sort)) ++n;
    }
  }
  if (esk.size() != n) return Status::Validation("The provided starting key is invalid");
  return src.index ? EncodeIndexKey(src.index->key, h.desc.key, esk) : EncodeTableKey(h.desc.key, esk);
}

// Reads one page of [range) in the given direction, resuming strictly after `start_after`.
// `accept` re-checks an entry exactly (key conditions, given long-key truncation); entries it
// rejects are not evaluated. Fills resp and returns the bytes read.
Result<size_t> ReadPage(Txn& txn, const TableHandle& h, const Source& src, const Range& range, bool forward,
                        const std::optional<std::string>& start_after, std::optional<int> limit,
                        const Output& out, const std::function<bool(const Item&)>& accept,
                        ReadResponse* resp, size_t* fetched_units_bytes, double* fetch_units,
                        bool consistent) {
  Cursor c(&txn, src.dbi);
  bool ok;
  if (forward) {
    std::string start = range.lower;
    if (start_after && *start_after > start) start = *start_after;
    ok = c.Seek(start);
    if (ok && start_after && c.key() == *start_after) ok = c.Next();
  } else {
    std::optional<std::string> end = range.end;
    if (start_after && (!end || *start_after < *end)) end = *start_after;
    if (end) {
      ok = c.Seek(*end) ? c.Prev() : c.SeekLast();
      if (!c.status().ok()) return c.status();
    } else {
      ok = c.SeekLast();
    }
  }
  size_t bytes = 0;
  for (; ok; ok = forward ? c.Next() : c.Prev()) {
    std::string_view k = c.key();
    if (k < range.lower) break;
    if (range.end && k >= *range.end) break;
    KH_ASSIGN_OR_RETURN(Item item, DecodeItem(c.value()));
    if (!accept(item)) continue;
    size_t size = EncodedItemSize(c.value());
    ++resp->scanned_count;
    ++resp->count;
    bytes += size;
    if (out.fetch_base) {  // an LSI entry without all attributes: read the base item
      std::string_view base;
      bool found;
      KH_RETURN_IF_ERROR(txn.Get(h.dbi, EncodeTableKey(h.desc.key, item), &base, &found));
      if (found) {
        KH_ASSIGN_OR_RETURN(Item full, DecodeItem(base));
        *fetch_units += ReadUnits(EncodedItemSize(base), consistent);
        item = std::move(full);
      }
    }
    bool stop = (limit && resp->scanned_count >= *limit) || bytes >= kPageBytes;
    if (stop) resp->last_evaluated_key = PositionKey(h, src, item);
    if (!out.count_only) resp->items.push_back(std::move(item));
    if (stop) break;
  }
  KH_RETURN_IF_ERROR(c.status());
  (void)fetched_units_bytes;
  return bytes;
}

// Charges a read of `bytes` (plus LSI fetches) to the table or index.
void ChargeRead(const Source& src, const std::string& table, size_t bytes, bool consistent, double fetch_units,
                ReturnConsumedCapacity rcc, ReadResponse* resp) {
  ConsumedCapacity cc;
  cc.table_name = table;
  double units = ReadUnits(bytes, consistent);
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
  return fmt::format("AttributeValue: {{{}:{}}}", TypeName(v.type()),
                     v.is(ValueType::kN) ? v.n().ToString() : (v.is(ValueType::kS) ? v.s() : Base64Encode(v.s())));
}

// Validates the structured key condition against the source's key schema.
Status CheckKeyCondition(const KeyCondition& kc, const KeySchema& key) {
  if (kc.partition_name != key.partition.name) {
    return Status::Validation(fmt::format("Query condition missed key schema element: {}", key.partition.name));
  }
  const AttributeValue& pv = kc.partition_value;
  if (pv.type() != key.partition.type) {
    return Status::Validation("One or more parameter values were invalid: Condition parameter type does not match schema type");
  }
  if (!pv.is(ValueType::kN) && pv.s().empty()) {
    return Status::Validation(fmt::format(
        "One or more parameter values are not valid. The AttributeValue for a key attribute cannot "
        "contain an empty {} value. Key: {}",
        pv.is(ValueType::kS) ? "string" : "binary", key.partition.name));
  }
  if (kc.op == SortKeyOp::kNone) return Status::OK();
  if (!key.sort) return Status::Validation("Query key condition not supported");
  if (kc.sort_name != key.sort->name) {
    return Status::Validation(fmt::format("Query condition missed key schema element: {}", key.sort->name));
  }
  bool between = kc.op == SortKeyOp::kBetween;
  for (const AttributeValue* v : {&kc.sort_value, between ? &kc.sort_value2 : nullptr}) {
    if (v && v->type() != key.sort->type) {
      return Status::Validation(
          "One or more parameter values were invalid: Condition parameter type does not match schema type");
    }
  }
  if (kc.op == SortKeyOp::kBeginsWith && key.sort->type == ValueType::kN) {
    return Status::Validation(
        "Invalid KeyConditionExpression: Incorrect operand type for operator or function; operator or "
        "function: begins_with, operand type: N");
  }
  if (between && kc.sort_value.CompareKey(kc.sort_value2) > 0) {
    return Status::Validation(fmt::format(
        "Invalid KeyConditionExpression: The BETWEEN operator requires upper bound to be greater than or "
        "equal to lower bound; lower bound operand: {}, upper bound operand: {}",
        Operand(kc.sort_value), Operand(kc.sort_value2)));
  }
  return Status::OK();
}

bool SortMatches(const KeyCondition& kc, const AttributeValue& v) {
  switch (kc.op) {
    case SortKeyOp::kNone: return true;
    case SortKeyOp::kEq: return v.CompareKey(kc.sort_value) == 0;
    case SortKeyOp::kLt: return v.CompareKey(kc.sort_value) < 0;
    case SortKeyOp::kLe: return v.CompareKey(kc.sort_value) <= 0;
    case SortKeyOp::kGt: return v.CompareKey(kc.sort_value) > 0;
    case SortKeyOp::kGe: return v.CompareKey(kc.sort_value) >= 0;
    case SortKeyOp::kBetween: return v.CompareKey(kc.sort_value) >= 0 && v.CompareKey(kc.sort_value2) <= 0;
    case SortKeyOp::kBeginsWith: return v.s().starts_with(kc.sort_value.s());
  }
  return false;
}

// P || the first `bound` bytes of value(v): a prefix of every key whose sort value is v (and,
// when truncated, of the group of long values sharing those bytes).
std::string SortPrefix(const std::string& partition, const AttributeValue& v, size_t bound) {
  std::string enc;
  AppendKeyValue(v, &enc);
  return partition + enc.substr(0, std::min(enc.size(), bound));
}

// The conservative byte range of a key condition; ReadPage re-checks each entry exactly.
Range QueryRange(const KeyCondition& kc, const Source& src) {
  std::string p = PartitionPrefix(kc.partition_value, src.partition_bound);
  Range r{p, Successor(p)};
  auto upto = [&](const AttributeValue& v) { r.end = Successor(SortPrefix(p, v, src.sort_bound)); };
  switch (kc.op) {
    case SortKeyOp::kNone: break;
    case SortKeyOp::kEq:
      r.lower = SortPrefix(p, kc.sort_value, src.sort_bound);
      r.end = Successor(r.lower);
      break;
    case SortKeyOp::kLt:
    case SortKeyOp::kLe: upto(kc.sort_value); break;
    case SortKeyOp::kGt:
    case SortKeyOp::kGe: r.lower = SortPrefix(p, kc.sort_value, src.sort_bound); break;
    case SortKeyOp::kBetween:
      r.lower = SortPrefix(p, kc.sort_value, src.sort_bound);
      upto(kc.sort_value2);
      break;
    case SortKeyOp::kBeginsWith: {
      std::string esc;
      AppendEscapedPrefix(kc.sort_value.s(), &esc);
      r.lower = p + esc.substr(0, std::min(esc.size(), src.sort_bound));
      r.end = Successor(r.lower);
      break;
    }
  }
  return r;
}

}  // namespace

Result<QueryResponse> Database::Query(const QueryRequest& r) {
  KH_RETURN_IF_ERROR(ValidateTableName(r.table_name));
  KH_RETURN_IF_ERROR(CheckLimit(r.limit));
  QueryResponse resp;
  KH_RETURN_IF_ERROR(impl_->WithTable(r.table_name, false, [&](Txn& txn, const TableHandle& h) -> Status {
    KH_ASSIGN_OR_RETURN(Source src, ResolveSource(h, r.index_name, r.consistent_read));
    KH_ASSIGN_OR_RETURN(Output out, ResolveSelect(r.select, src));
    const KeyCondition& kc = r.key_condition;
    KH_RETURN_IF_ERROR(CheckKeyCondition(kc, *src.key));
    std::optional<std::string> start;
    if (r.exclusive_start_key) {
      KH_ASSIGN_OR_RETURN(start, StartKey(h, src, *r.exclusive_start_key));
      const Item& esk = *r.exclusive_start_key;
      if (!(esk.at(src.key->partition.name) == kc.partition_value)) {
        return Status::Validation("The provided starting key is outside query boundaries based on provided conditions");
      }
      if (src.key->sort && !SortMatches(kc, esk.at(src.key->sort->name))) {
        return Status::Validation("The provided starting key does not match the range key predicate");
      }
    }
    auto accept = [&](const Item& item) {
      auto pk = item.find(src.key->partition.name);
      if (pk == item.end() || !(pk->second == kc.partition_value)) return false;
      if (kc.op == SortKeyOp::kNone) return true;
      auto sk = item.find(src.key->sort->name);
      return sk != item.end() && SortMatches(kc, sk->second);
    };
    double fetch_units = 0;
    KH_ASSIGN_OR_RETURN(size_t bytes, ReadPage(txn, h, src, QueryRange(kc, src), r.scan_index_forward, start,
                                               r.limit, out, accept, &resp, nullptr, &fetch_units,
                                               r.consistent_read));
    ChargeRead(src, h.desc.name, bytes, r.consistent_read, fetch_units, r.return_consumed_capacity, &resp);
    return Status::OK();
  }));
  return resp;
}

Result<ScanResponse> Database::Scan(const ScanRequest& r) {
  KH_RETURN_IF_ERROR(ValidateTableName(r.table_name));
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
    return Status::Validation(fmt::format(
        "1 validation error detected: Value '{}' at 'totalSegments' failed to satisfy constraint: Member "
        "must have value {} {}",
        total, total < 1 ? "greater than or equal to" : "less than or equal to", total < 1 ? 1 : 1000000));
  }
  if (segment < 0 || segment > 999999) {
    return Status::Validation(fmt::format(
        "1 validation error detected: Value '{}' at 'segment' failed to satisfy constraint: Member must "
        "have value {} {}",
        segment, segment < 0 ? "greater than or equal to" : "less than or equal to", segment < 0 ? 0 : 999999));
  }
  if (segment >= total) {
    return Status::Validation(fmt::format(
        "The Segment parameter is zero-based and must be less than parameter TotalSegments: Segment: {} is "
        "not less than TotalSegments: {}",
        segment, total));
  }
  // Segment s covers partition hashes [s·2^64/T, (s+1)·2^64/T).
  auto bound = [&](int s) -> uint64_t {
    return static_cast<uint64_t>((static_cast<unsigned __int128>(s) << 64) / static_cast<unsigned>(total));
  };
  Range range;
  AppendBigEndian64(bound(segment), &range.lower);
  if (segment + 1 < total) {
    range.end.emplace();
    AppendBigEndian64(bound(segment + 1), &*range.end);
  }
  ScanResponse resp;
  KH_RETURN_IF_ERROR(impl_->WithTable(r.table_name, false, [&](Txn& txn, const TableHandle& h) -> Status {
    KH_ASSIGN_OR_RETURN(Source src, ResolveSource(h, r.index_name, r.consistent_read));
    KH_ASSIGN_OR_RETURN(Output out, ResolveSelect(r.select, src));
    std::optional<std::string> start;
    if (r.exclusive_start_key) {
      KH_ASSIGN_OR_RETURN(start, StartKey(h, src, *r.exclusive_start_key));
      if (*start < range.lower || (range.end && *start >= *range.end)) {
        return Status::Validation(fmt::format(
            "Invalid ExclusiveStartKey. Please use ExclusiveStartKey with correct Segment. TotalSegments: {} "
            "Segment: {}",
            total, segment));
      }
    }
    double fetch_units = 0;
    KH_ASSIGN_OR_RETURN(size_t bytes, ReadPage(txn, h, src, range, true, start, r.limit, out,
                                               [](const Item&) { return true; }, &resp, nullptr,
                                               &fetch_units, r.consistent_read));
    ChargeRead(src, h.desc.name, bytes, r.consistent_read, fetch_units, r.return_consumed_capacity, &resp);
    return Status::OK();
  }));
  return resp;
}

}  // namespace keyhole::storage
