// Reads: Query and Scan, paged by Limit and 1 MB, on a table or an index.
#include <fmt/format.h>

#include "core/ddb_json.h"
#include "core/evaluate.h"
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
  // A projection or filter on an LSI naming attributes the index does not hold reads the base
  // item (at extra cost, as DynamoDB does), so results never depend on what was projected. On a
  // GSI such attributes are simply absent: DynamoDB's behaviour there is not pinned down
  // (reference Appendix D); keyhole chooses omission.
  if (partial && src.index->kind == IndexKind::kLocal) {
    std::vector<std::string> names;
    if (projection) {
      for (const auto& path : projection->paths) names.push_back(path.elements.front().name);
    }
    if (filter) CollectTopNames(*filter, &names);
    for (const auto& top : names) {
      bool held = top == src.key->partition.name || (src.key->sort && top == src.key->sort->name) ||
                  top == table_key.partition.name ||
                  (table_key.sort && top == table_key.sort->name);
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
      return Status::Validation(
          "The provided starting key is invalid: The provided key element does not match the "
          "schema");
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
  // are not evaluated at all.
  std::function<bool(const Item&)> accept;
  const expr::Condition* filter = nullptr;  // applied after the read
  const expr::ProjectionExpression* projection = nullptr;
};

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
  for (; ok; ok = spec.forward ? c.Next() : c.Prev()) {
    std::string_view k = c.key();
    if (k < range.lower) break;
    if (range.end && k >= *range.end) break;
    KH_ASSIGN_OR_RETURN(Item item, DecodeItem(c.value()));
    if (spec.accept && !spec.accept(item)) continue;
    ++resp->scanned_count;
    bytes += EncodedItemSize(c.value());
    bool stop = (spec.limit && resp->scanned_count >= *spec.limit) || bytes >= kPageBytes;
    if (stop) resp->last_evaluated_key = PositionKey(h, src, item);
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

// Charges a read of `bytes` (plus LSI fetches) to the table or index.
void ChargeRead(const Source& src, const std::string& table, size_t bytes, bool consistent,
                double fetch_units, ReturnConsumedCapacity rcc, ReadResponse* resp) {
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
  return fmt::format(
      "AttributeValue: {{{}:{}}}", TypeName(v.type()),
      v.is(ValueType::kN) ? v.n().ToString() : (v.is(ValueType::kS) ? v.s() : Base64Encode(v.s())));
}

// Validates the structured key condition against the source's key schema.
Status CheckKeyCondition(const KeyCondition& kc, const KeySchema& key) {
  if (kc.partition_name != key.partition.name) {
    return Status::Validation(
        fmt::format("Query condition missed key schema element: {}", key.partition.name));
  }
  const AttributeValue& pv = kc.partition_value;
  if (pv.type() != key.partition.type) {
    return Status::Validation(
        "One or more parameter values were invalid: Condition parameter type does not match schema "
        "type");
  }
  if (!pv.is(ValueType::kN) && pv.s().empty()) {
    return Status::Validation(fmt::format(
        "One or more parameter values are not valid. The AttributeValue for a key attribute cannot "
        "contain an empty {} value. Key: {}",
        pv.is(ValueType::kS) ? "string" : "binary", key.partition.name));
  }
  // No stored item can have a longer partition key (reference §1.5); DynamoDB refuses it as it
  // refuses it in a Key.
  if (!pv.is(ValueType::kN) && pv.s().size() > kMaxPartitionKeyBytes) {
    return Status::Validation(
        "One or more parameter values were invalid: Size of hashkey has exceeded the maximum size "
        "limit of2048 bytes");
  }
  if (kc.op == SortKeyOp::kNone) return Status::OK();
  if (!key.sort) return Status::Validation("Query key condition not supported");
  if (kc.sort_name != key.sort->name) {
    return Status::Validation(
        fmt::format("Query condition missed key schema element: {}", key.sort->name));
  }
  bool between = kc.op == SortKeyOp::kBetween;
  for (const AttributeValue* v : {&kc.sort_value, between ? &kc.sort_value2 : nullptr}) {
    if (v && v->type() != key.sort->type) {
      return Status::Validation(
          "One or more parameter values were invalid: Condition parameter type does not match "
          "schema type");
    }
  }
  if (kc.op == SortKeyOp::kBeginsWith && key.sort->type == ValueType::kN) {
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
    case SortKeyOp::kNone:
      break;
    case SortKeyOp::kEq:
      r.lower = SortPrefix(p, kc.sort_value, src.sort_bound);
      r.end = Successor(r.lower);
      break;
    case SortKeyOp::kLt:
    case SortKeyOp::kLe:
      upto(kc.sort_value);
      break;
    case SortKeyOp::kGt:
    case SortKeyOp::kGe:
      r.lower = SortPrefix(p, kc.sort_value, src.sort_bound);
      break;
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

// Parses a read's expressions and checks the filter and projection statically.
static Result<expr::ParsedExpressions> ParseReadExpressions(const Database::Impl& impl,
                                                            const expr::ExpressionInput& in) {
  KH_ASSIGN_OR_RETURN(expr::ParsedExpressions parsed, impl.ParseExpressions(in));
  if (parsed.filter)
    KH_RETURN_IF_ERROR(expr::ValidateCondition(*parsed.filter, expr::Kind::kFilter));
  if (parsed.key_condition) {
    KH_RETURN_IF_ERROR(expr::ValidateCondition(*parsed.key_condition, expr::Kind::kKeyCondition));
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
        if (parsed.filter) {
          std::vector<std::string> keys{h.desc.key.partition.name, src.key->partition.name};
          if (h.desc.key.sort) keys.push_back(h.desc.key.sort->name);
          if (src.key->sort) keys.push_back(src.key->sort->name);
          KH_RETURN_IF_ERROR(expr::CheckFilterAvoidsKeys(*parsed.filter, keys, parsed.legacy));
        }
        if (r.exclusive_start_key) {
          KH_ASSIGN_OR_RETURN(spec.start_after, StartKey(h, src, *r.exclusive_start_key));
          const Item& esk = *r.exclusive_start_key;
          if (!(esk.at(src.key->partition.name) == kc.partition_value)) {
            return Status::Validation(
                "The provided starting key is outside query boundaries based on provided "
                "conditions");
          }
          if (src.key->sort && !SortMatches(kc, esk.at(src.key->sort->name))) {
            return Status::Validation(
                "The provided starting key does not match the range key predicate");
          }
        }
        spec.forward = r.scan_index_forward;
        spec.limit = r.limit;
        spec.consistent = r.consistent_read;
        spec.filter = parsed.filter.get();
        spec.projection = parsed.projection.get();
        spec.accept = [&](const Item& item) {
          auto pk = item.find(src.key->partition.name);
          if (pk == item.end() || !(pk->second == kc.partition_value)) return false;
          if (kc.op == SortKeyOp::kNone) return true;
          auto sk = item.find(src.key->sort->name);
          return sk != item.end() && SortMatches(kc, sk->second);
        };
        double fetch_units = 0;
        KH_ASSIGN_OR_RETURN(size_t bytes,
                            ReadPage(txn, h, src, QueryRange(kc, src), spec, &resp, &fetch_units));
        ChargeRead(src, h.desc.name, bytes, r.consistent_read, fetch_units,
                   r.return_consumed_capacity, &resp);
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
  if (segment < 0 || segment > 999999) {
    return Status::Validation(
        fmt::format("1 validation error detected: Value '{}' at 'segment' failed to satisfy "
                    "constraint: Member must "
                    "have value {} {}",
                    segment, segment < 0 ? "greater than or equal to" : "less than or equal to",
                    segment < 0 ? 0 : 999999));
  }
  if (segment >= total) {
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
        KH_ASSIGN_OR_RETURN(spec.out,
                            ResolveSelect(r.select, src, h.desc.key, parsed.projection.get(),
                                          parsed.filter.get(), "", parsed.legacy));
        if (r.exclusive_start_key) {
          KH_ASSIGN_OR_RETURN(spec.start_after, StartKey(h, src, *r.exclusive_start_key));
          if (*spec.start_after < range.lower || (range.end && *spec.start_after >= *range.end)) {
            return Status::Validation(
                fmt::format("Invalid ExclusiveStartKey. Please use ExclusiveStartKey with correct "
                            "Segment. TotalSegments: {} "
                            "Segment: {}",
                            total, segment));
          }
        }
        spec.limit = r.limit;
        spec.consistent = r.consistent_read;
        spec.filter = parsed.filter.get();
        spec.projection = parsed.projection.get();
        double fetch_units = 0;
        KH_ASSIGN_OR_RETURN(size_t bytes, ReadPage(txn, h, src, range, spec, &resp, &fetch_units));
        ChargeRead(src, h.desc.name, bytes, r.consistent_read, fetch_units,
                   r.return_consumed_capacity, &resp);
        return Status::OK();
      }));
  return resp;
}

}  // namespace keyhole::storage
