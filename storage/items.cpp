// Item operations: PutItem, GetItem, DeleteItem, UpdateItem, index maintenance, and the
// per-item write steps (CheckWrite / EvaluateWrite / ApplyWrite, storage/engine.h) that the
// single-item writes, BatchWriteItem (batches.cpp) and TransactWriteItems (transactions.cpp)
// share.
#include <fmt/format.h>
#include <algorithm>

#include <functional>

#include "core/evaluate.h"
#include "core/item_codec.h"
#include "core/regional.h"
#include "core/vector_index.h"
#include "storage/engine.h"
#include "storage/key_codec.h"

namespace keyhole::storage {

namespace {

constexpr std::string_view kInvalid = "One or more parameter values were invalid: ";
constexpr std::string_view kNotValid = "One or more parameter values are not valid. ";

// Checks the value of one key attribute: empty S/B and the byte limits.
Status CheckKeyValue(const AttributeValue& v, const std::string& name, bool partition) {
  if (v.is(ValueType::kN)) return Status::OK();
  if (v.s().empty()) {
    return Status::Validation(fmt::format(
        "{}The AttributeValue for a key attribute cannot contain an empty {} value. Key: {}",
        kNotValid, v.is(ValueType::kS) ? "string" : "binary", name));
  }
  if (partition && v.s().size() > kMaxPartitionKeyBytes) {
    return Status::Validation(fmt::format(
        "{}Size of hashkey has exceeded the maximum size limit of2048 bytes", kInvalid));
  }
  if (!partition && v.s().size() > kMaxSortKeyBytes) {
    return Status::Validation(fmt::format(
        "{}Aggregated size of all range keys has exceeded the size limit of 1024 bytes", kInvalid));
  }
  return Status::OK();
}

Status MismatchedKey() {
  return Status::Validation("The provided key element does not match the schema");
}

// On a table with LSIs the 400 KB limit covers the item plus its projected copies in the LSIs
// (reference §1.9).
size_t SizeWithLocalIndexes(const TableDescription& t, const Item& item, size_t size) {
  for (const auto& idx : t.indexes) {
    if (idx.kind == IndexKind::kLocal && InIndex(idx, item))
      size += ItemSize(ProjectItem(idx, t.key, item));
  }
  return size;
}

// One index key attribute of CheckIndexKeys.
Status CheckIndexKey(const IndexDescription& idx, const KeyAttribute& a, bool partition,
                     const Item& item, bool from_update) {
  auto it = item.find(a.name);
  if (it == item.end()) return Status::OK();
  const AttributeValue& v = it->second;
  if (v.type() != a.type) {
    return Status::Validation(
        fmt::format("{}Type mismatch for Index Key {} Expected: {} Actual: {} IndexName: {}",
                    kInvalid, a.name, TypeName(a.type), TypeName(v.type()), idx.name));
  }
  if (!v.is(ValueType::kN) && v.s().empty()) {
    const char* kind = v.is(ValueType::kS) ? "string" : "binary";
    if (from_update) {
      return Status::Validation(fmt::format(
          "{}The update expression attempted to update a secondary index key to a value that "
          "is not "
          "supported. The AttributeValue for a key attribute cannot contain an empty {} value.",
          kNotValid, kind));
    }
    return Status::Validation(fmt::format(
        "{}A value specified for a secondary index key is not supported. The AttributeValue "
        "for a "
        "key attribute cannot contain an empty {} value. IndexName: {}, IndexKey: {}",
        kNotValid, kind, idx.name, a.name));
  }
  return CheckKeyValue(v, a.name, partition);
}

// Checks the index key attributes an item has (sparse: absent ones are fine): declared type,
// non-empty, and the key byte limits. DynamoDB words the empty-value error differently for
// PutItem and for an UpdateExpression (`from_update`).
Status CheckIndexKeys(const TableDescription& t, const Item& item, bool from_update) {
  for (const auto& idx : t.indexes) {
    Status s;  // the first attribute that fails, in key order
    idx.key.ForEachAttribute([&](const KeyAttribute& a, bool partition) {
      if (s.ok()) s = CheckIndexKey(idx, a, partition, item, from_update);
    });
    KH_RETURN_IF_ERROR(s);
  }
  // A present vector, and the search attributes, as each vector index takes them.
  for (const auto& v : t.vector_indexes) KH_RETURN_IF_ERROR(CheckVectorItem(v, item, from_update));
  return Status::OK();
}

Status ReturnValuesNoneOrAllOld(ReturnValues rv) {
  if (rv == ReturnValues::kNone || rv == ReturnValues::kAllOld) return Status::OK();
  return Status::Validation("ReturnValues can only be ALL_OLD or NONE");
}

}  // namespace

Status ValidateKey(const KeySchema& schema, const Item& key, bool exact) {
  size_t n = schema.sort ? 2 : 1;
  if (exact && key.size() != n) return MismatchedKey();
  for (const KeyAttribute* a : {&schema.partition, schema.sort ? &*schema.sort : nullptr}) {
    if (!a) continue;
    auto it = key.find(a->name);
    if (it == key.end() || it->second.type() != a->type) return MismatchedKey();
    KH_RETURN_IF_ERROR(CheckKeyValue(it->second, a->name, a == &schema.partition));
  }
  return Status::OK();
}

Status ValidatePutKeys(const TableDescription& t, const Item& item) {
  for (const KeyAttribute* a : {&t.key.partition, t.key.sort ? &*t.key.sort : nullptr}) {
    if (!a) continue;
    auto it = item.find(a->name);
    if (it == item.end())
      return Status::Validation(fmt::format("{}Missing the key {} in the item", kInvalid, a->name));
    if (it->second.type() != a->type) {
      return Status::Validation(fmt::format("{}Type mismatch for key {} expected: {} actual: {}",
                                            kInvalid, a->name, TypeName(a->type),
                                            TypeName(it->second.type())));
    }
    KH_RETURN_IF_ERROR(CheckKeyValue(it->second, a->name, a == &t.key.partition));
  }
  return CheckIndexKeys(t, item, /*from_update=*/false);
}

bool IndexKeyWithinLimits(const IndexDescription& index, const Item& item) {
  bool within = true;
  index.key.ForEachAttribute([&](const KeyAttribute& a, bool partition) {
    auto it = within ? item.find(a.name) : item.end();
    if (it != item.end() && !CheckKeyValue(it->second, a.name, partition).ok()) within = false;
  });
  return within;
}

namespace {

// An index's projection of an item: the item itself for ALL (no copy), else a copy of the
// projected attributes.
struct Projected {
  const Item* item = nullptr;
  Item owned;
  Projected(const IndexDescription& index, const KeySchema& table_key, const Item& from) {
    if (index.projection.type == ProjectionType::kAll) {
      item = &from;
    } else {
      owned = ProjectItem(index, table_key, from);
      item = &owned;
    }
  }
};

}  // namespace

namespace {

// MaintainIndexes' work: with `txn`, the writes to `dbis` (parallel to t.indexes) and their
// units; without, the units alone.
Status ChangeIndexes(Txn* txn, const std::vector<MDB_dbi>* dbis, const TableDescription& t,
                     const Item* old_item, const Item* new_item, std::string_view new_encoded,
                     ConsumedCapacity* cc) {
  for (size_t i = 0; i < t.indexes.size(); ++i) {
    const IndexDescription& idx = t.indexes[i];
    bool was = old_item && InIndex(idx, *old_item);
    bool is = new_item && InIndex(idx, *new_item);
    if (!was && !is) continue;
    std::string old_key = was ? EncodeIndexKey(idx.key, t.key, *old_item) : std::string();
    // (Counting alone, a new entry's key matters only against an old one.)
    std::string new_key =
        is && (txn || was) ? EncodeIndexKey(idx.key, t.key, *new_item) : std::string();
    std::optional<Projected> old_p, new_p;
    if (was) old_p.emplace(idx, t.key, *old_item);
    if (is) new_p.emplace(idx, t.key, *new_item);
    if (was && is && old_key == new_key && *old_p->item == *new_p->item)
      continue;  // nothing projected changed
    Capacity& units =
        idx.kind == IndexKind::kGlobal ? cc->global_indexes[idx.name] : cc->local_indexes[idx.name];
    if (was && (!is || old_key != new_key)) {
      if (txn) KH_RETURN_IF_ERROR(txn->Del((*dbis)[i], old_key));
      units.AddWrite(WriteUnits(ItemSize(*old_p->item)));
    }
    if (is) {
      if (new_p->item == new_item && !new_encoded.empty()) {
        // ALL: the index entry's bytes are the table entry's.
        if (txn) KH_RETURN_IF_ERROR(txn->Put((*dbis)[i], new_key, new_encoded));
        units.AddWrite(WriteUnits(EncodedItemSize(new_encoded)));
      } else {
        size_t size = ItemSize(*new_p->item);
        if (txn) KH_RETURN_IF_ERROR(txn->Put((*dbis)[i], new_key, EncodeItem(*new_p->item, size)));
        units.AddWrite(WriteUnits(size));
      }
    }
  }
  return Status::OK();
}

}  // namespace

Status MaintainIndexes(Txn& txn, const TableHandle& h, const Item* old_item, const Item* new_item,
                       std::string_view new_encoded, ConsumedCapacity* cc) {
  KH_RETURN_IF_ERROR(
      ChangeIndexes(&txn, &h.index_dbis, h.desc, old_item, new_item, new_encoded, cc));
  return ChangeVectorIndexes(&txn, &h.vector_dbis, h.desc, old_item, new_item, cc);
}

void AddIndexUnits(const TableDescription& t, const Item* old_item, const Item* new_item,
                   ConsumedCapacity* cc) {
  (void)ChangeIndexes(nullptr, nullptr, t, old_item, new_item, {}, cc);
  (void)ChangeVectorIndexes(nullptr, nullptr, t, old_item, new_item, cc);
}

namespace {

// Reads the item with the primary key of `key_attrs`. Decodes it when `decode` (or when the key
// is long enough to be truncated, to rule out a digest collision). A stored item whose key
// attributes differ is a collision: InternalServerError, never a silent overwrite.
Result<Current> ReadCurrent(Txn& txn, const TableHandle& h, const Item& key_attrs, bool decode) {
  Current c;
  c.key = EncodeTableKey(h.desc.key, key_attrs);
  std::string_view bytes;
  KH_RETURN_IF_ERROR(txn.Get(h.dbi, c.key, &bytes, &c.found));
  if (!c.found) return c;
  c.size = EncodedItemSize(bytes);
  // A stored key that holds a digest (key_codec.h) may be another key's: compare the values.
  // Every such key is longer than 200 bytes (8 + 192 + 16 at the least); a shorter one is the
  // exact encoding of the values, which equal encodings pin.
  const bool maybe_cut = c.key.size() > 200;
  if (decode || maybe_cut) {
    KH_ASSIGN_OR_RETURN(c.item, DecodeItem(bytes));
    if (maybe_cut && ExtractKey(h.desc.key, *c.item) != ExtractKey(h.desc.key, key_attrs)) {
      return Status::Internal("long-key digest collision: two distinct keys share one stored key");
    }
  }
  return c;
}

// ConditionalCheckFailedException when `condition` is false on the current item (an absent item
// is evaluated as an empty one).
Status CheckCondition(const expr::Condition* condition, const Current& cur,
                      ReturnValues on_failure) {
  if (!condition) return Status::OK();
  static const Item kEmpty;
  if (expr::Evaluate(*condition, cur.item ? *cur.item : kEmpty)) return Status::OK();
  Status s = Status::ConditionFailed("The conditional request failed");
  if (on_failure == ReturnValues::kAllOld && cur.item)
    s.WithItem(std::make_shared<const Item>(*cur.item));
  return s;
}

}  // namespace

Status OnFailureNoneOrAllOld(ReturnValues rv) {
  if (rv == ReturnValues::kNone || rv == ReturnValues::kAllOld) return Status::OK();
  return Status::Validation(
      "1 validation error detected: Value at 'returnValuesOnConditionCheckFailure' failed to "
      "satisfy "
      "constraint: Member must satisfy enum value set: [ALL_OLD, NONE]");
}

Result<expr::ParsedExpressions> ParseWithCondition(const Database::Impl& impl,
                                                   const expr::ExpressionInput& in) {
  KH_ASSIGN_OR_RETURN(expr::ParsedExpressions parsed, impl.ParseExpressions(in));
  if (parsed.condition)
    KH_RETURN_IF_ERROR(expr::ValidateCondition(*parsed.condition, expr::Kind::kCondition));
  if (parsed.projection) KH_RETURN_IF_ERROR(expr::ValidateProjection(*parsed.projection));
  return parsed;
}

Result<std::optional<Item>> ReadItem(Txn& txn, const TableHandle& h, const Item& key,
                                     size_t* size) {
  KH_RETURN_IF_ERROR(ValidateKey(h.desc.key, key, true));
  KH_ASSIGN_OR_RETURN(Current cur, ReadCurrent(txn, h, key, true));
  *size = cur.size;
  return std::move(cur.item);
}

Status CheckWrite(const ItemWrite& w) {
  const TableDescription& t = w.table->desc;
  if (w.kind == WriteKind::kPut) {
    KH_RETURN_IF_ERROR(ValidatePutKeys(t, *w.input));
    if (const size_t size = SizeWithLocalIndexes(t, *w.input, ItemSize(*w.input));
        size > kMaxItemSize) {
      return Status::Validation("Item size has exceeded the maximum allowed size")
          .WithHint(OversizeHint(size));
    }
    return w.parsed ? expr::CheckKeyPathsOf(w.parsed->condition, t) : Status::OK();
  }
  KH_RETURN_IF_ERROR(ValidateKey(t.key, *w.input, true));
  if (w.kind == WriteKind::kUpdate && w.parsed && w.parsed->update)
    KH_RETURN_IF_ERROR(expr::ValidateUpdate(*w.parsed->update, t.key));
  if (w.parsed) {
    KH_RETURN_IF_ERROR(expr::CheckKeyPathsOf(w.parsed->condition, t));
    if (w.kind == WriteKind::kUpdate)
      KH_RETURN_IF_ERROR(expr::CheckKeyPathsOf(w.parsed->update, t));
  }
  return Status::OK();
}

Status EvaluateWrite(Txn& txn, ItemWrite* w) {
  const TableHandle& h = *w->table;
  const expr::Condition* condition = w->parsed ? w->parsed->condition.get() : nullptr;
  bool decode = w->kind != WriteKind::kPut || !h.desc.indexes.empty() ||
                !h.desc.vector_indexes.empty() || w->want_old || condition ||
                h.desc.stream_view_type.has_value();  // a stream record compares and shows it
  KH_ASSIGN_OR_RETURN(w->cur, ReadCurrent(txn, h, *w->input, decode));
  if (w->statement_sized && w->parsed && w->parsed->update) {
    const size_t charge =
        expr::UpdateStatementCharge(*w->parsed->update, w->cur.item ? &*w->cur.item : nullptr);
    if (charge > kMaxItemSize) {
      return Status::Validation("Item size to update has exceeded the maximum allowed size")
          .WithHint(fmt::format(
              "DynamoDB sizes an UpdateItem by what its statement writes: each attribute it "
              "sets (name and value), 19 bytes a SET or ADD clause and 3 for the update, here "
              "{} bytes of 409,600. The key and the attributes it leaves alone do not count; "
              "with a short key the ceiling falls below 400 KB",
              charge));
    }
  }
  KH_RETURN_IF_ERROR(CheckCondition(condition, w->cur, w->on_failure));
  if (w->kind == WriteKind::kPut) {
    w->next_size = ItemSize(*w->input);  // the item is w->input itself (NextItem)
  } else if (w->kind == WriteKind::kUpdate) {
    w->next = w->cur.item ? *w->cur.item : *w->input;
    // Removing from an item that is not there creates nothing: REMOVE, and AttributeUpdates'
    // DELETE (of the attribute, or of set elements) as DynamoDB answers it (the issue's
    // Parity Suite record; an UpdateExpression DELETE creates the key-only item).
    const bool legacy = w->parsed && w->parsed->legacy;
    if (!w->cur.item && w->parsed && w->parsed->update && !w->parsed->update->actions.empty() &&
        std::all_of(w->parsed->update->actions.begin(), w->parsed->update->actions.end(),
                    [&](const expr::UpdateAction& a) {
                      return a.kind == expr::UpdateActionKind::kRemove ||
                             (legacy && a.kind == expr::UpdateActionKind::kDelete);
                    })) {
      w->no_op = true;
    }
    if (w->parsed && w->parsed->update) {
      KH_RETURN_IF_ERROR(expr::ApplyUpdate(*w->parsed->update, w->cur.item.has_value(), &w->next,
                                           w->parsed->legacy));
    }
    for (const auto& [name, value] : w->next) KH_RETURN_IF_ERROR(ValidateValue(value));
    KH_RETURN_IF_ERROR(CheckIndexKeys(h.desc, w->next, /*from_update=*/true));
    w->next_size = ItemSize(w->next);
    if (const size_t size = SizeWithLocalIndexes(h.desc, w->next, w->next_size);
        size > kMaxItemSize) {
      return Status::Validation("Item size to update has exceeded the maximum allowed size")
          .WithHint(OversizeHint(size));
    }
  }
  return Status::OK();
}

// The size a write of `item` is billed at (BilledItemSize; `size` when the table has no vector
// index or there is no item).
size_t Billed(const TableHandle& h, const Item* item, size_t size) {
  return item && !h.desc.vector_indexes.empty() ? BilledItemSize(h.desc, *item, size) : size;
}

static Status ApplyItemWrite(Txn& txn, const ItemWrite& w, ConsumedCapacity* cc) {
  const TableHandle& h = *w.table;
  const Item* old_item = w.cur.item ? &*w.cur.item : nullptr;
  switch (w.kind) {
    case WriteKind::kPut:
    case WriteKind::kUpdate:
      if (w.no_op) {
        cc->table.AddWrite(1);
        return Status::OK();
      }
      {
        const Item& next = NextItem(w);
        const std::string encoded = EncodeItem(next, w.next_size);
        KH_RETURN_IF_ERROR(txn.Put(h.dbi, w.cur.key, encoded));
        cc->table.AddWrite(
            WriteUnits(std::max(Billed(h, &next, w.next_size), Billed(h, old_item, w.cur.size))));
        KH_RETURN_IF_ERROR(MaintainIndexes(txn, h, old_item, &next, encoded, cc));
        return WriteStreamRecord(txn, h, old_item, &next, w.service_deletion);
      }
    case WriteKind::kDelete:
      if (!w.cur.found) {
        cc->table.AddWrite(1);  // deleting a missing item costs 1 WCU
        return Status::OK();
      }
      KH_RETURN_IF_ERROR(txn.Del(h.dbi, w.cur.key));
      cc->table.AddWrite(WriteUnits(Billed(h, old_item, w.cur.size)));
      KH_RETURN_IF_ERROR(MaintainIndexes(txn, h, old_item, nullptr, {}, cc));
      return WriteStreamRecord(txn, h, old_item, nullptr, w.service_deletion);
    case WriteKind::kCheck:
      // keyhole choice (reference §5.2 does not say): a ConditionCheck is charged like a
      // write of the item it checked (1 unit per KB, minimum 1), doubled with the transaction.
      cc->table.AddWrite(WriteUnits(w.cur.size));
      return Status::OK();
  }
  return Status::OK();
}

Status ApplyWrite(Txn& txn, ItemWrite& w, ConsumedCapacity* cc) {
  KH_RETURN_IF_ERROR(ApplyItemWrite(txn, w, cc));
  const TableHandle& h = *w.table;
  if (w.kind == WriteKind::kCheck || !HasLocalIndexes(h.desc)) return Status::OK();
  const AttributeValue& pk = w.input->at(h.desc.key.partition.name);
  // A write that grows its item collection (the item and its LSI entries) may not take it past
  // the limit; one that keeps or shrinks it always may (reference §4.4).
  // The sizes are compared only when some collection could be past the limit at all.
  if ((w.kind == WriteKind::kPut || w.kind == WriteKind::kUpdate) && !w.no_op &&
      CollectionsMayPassLimit(txn, h)) {
    const size_t before = w.cur.item ? SizeWithLocalIndexes(h.desc, *w.cur.item, w.cur.size) : 0;
    if (SizeWithLocalIndexes(h.desc, NextItem(w), w.next_size) > before) {
      KH_RETURN_IF_ERROR(CheckCollectionLimit(txn, h, pk));
    }
  }
  if (w.want_metrics) {
    KH_ASSIGN_OR_RETURN(w.metrics, CollectionMetrics(txn, h, pk));
  }
  return Status::OK();
}

namespace {

// One single-item write (PutItem, UpdateItem, DeleteItem) in its own transaction: check,
// evaluate, apply. `respond` reads the outcome (old item, new item, capacity) before the
// transaction commits.
Status WriteOne(Database::Impl& impl, const std::string& table, WriteKind kind, const Item& input,
                const expr::ParsedExpressions& parsed, ReturnValues on_failure, bool want_old,
                bool want_metrics,
                const std::function<void(ItemWrite&, ConsumedCapacity&&)>& respond,
                bool statement_sized = false) {
  return impl.WithTable(table, true, [&](Txn& txn, const TableHandle& h) -> Status {
    ItemWrite w{kind, &h, &input, &parsed, on_failure, want_old};
    w.want_metrics = want_metrics;
    w.statement_sized = statement_sized;
    KH_RETURN_IF_ERROR(CheckWrite(w));
    KH_RETURN_IF_ERROR(EvaluateWrite(txn, &w));
    ConsumedCapacity cc;
    cc.table_name = h.desc.name;
    KH_RETURN_IF_ERROR(ApplyWrite(txn, w, &cc));
    respond(w, std::move(cc));
    return Status::OK();
  });
}

}  // namespace

Result<PutItemResponse> Database::PutItem(const PutItemRequest& r) {
  KH_RETURN_IF_ERROR(ValidateDataTableName(r.table_name));
  KH_RETURN_IF_ERROR(ReturnValuesNoneOrAllOld(r.return_values));
  KH_RETURN_IF_ERROR(OnFailureNoneOrAllOld(r.return_values_on_condition_check_failure));
  KH_RETURN_IF_ERROR(ValidateItem(r.item));
  KH_ASSIGN_OR_RETURN(expr::ParsedExpressions parsed, ParseWithCondition(*impl_, r.expressions));
  PutItemResponse resp;
  KH_RETURN_IF_ERROR(
      WriteOne(*impl_, r.table_name, WriteKind::kPut, r.item, parsed,
               r.return_values_on_condition_check_failure, r.return_values == ReturnValues::kAllOld,
               r.return_item_collection_metrics, [&](ItemWrite& w, ConsumedCapacity&& cc) {
                 if (r.return_values == ReturnValues::kAllOld && w.cur.item)
                   resp.attributes = std::move(w.cur.item);
                 resp.item_collection_metrics = std::move(w.metrics);
                 resp.consumed_capacity = Report(r.return_consumed_capacity, std::move(cc));
               }));
  return resp;
}

Result<GetItemResponse> Database::GetItem(const GetItemRequest& r) {
  KH_RETURN_IF_ERROR(ValidateDataTableName(r.table_name));
  KH_ASSIGN_OR_RETURN(expr::ParsedExpressions parsed, ParseWithCondition(*impl_, r.expressions));
  GetItemResponse resp;
  KH_RETURN_IF_ERROR(
      impl_->WithTable(r.table_name, false, [&](Txn& txn, const TableHandle& h) -> Status {
        size_t size = 0;
        KH_ASSIGN_OR_RETURN(std::optional<Item> item, ReadItem(txn, h, r.key, &size));
        KH_RETURN_IF_ERROR(expr::CheckKeyPathsOf(parsed.projection, h.desc));
        if (item) {
          // An existing item with none of the projected attributes is returned as {}.
          resp.item =
              parsed.projection ? expr::Project(*item, parsed.projection->paths) : std::move(*item);
        }
        ConsumedCapacity cc;
        cc.table_name = h.desc.name;
        cc.table.AddRead(ReadUnits(size, r.consistent_read));
        resp.consumed_capacity = Report(r.return_consumed_capacity, std::move(cc));
        return Status::OK();
      }));
  return resp;
}

Result<DeleteItemResponse> Database::DeleteItem(const DeleteItemRequest& r) {
  KH_RETURN_IF_ERROR(ValidateDataTableName(r.table_name));
  KH_RETURN_IF_ERROR(ReturnValuesNoneOrAllOld(r.return_values));
  KH_RETURN_IF_ERROR(OnFailureNoneOrAllOld(r.return_values_on_condition_check_failure));
  KH_ASSIGN_OR_RETURN(expr::ParsedExpressions parsed, ParseWithCondition(*impl_, r.expressions));
  DeleteItemResponse resp;
  KH_RETURN_IF_ERROR(
      WriteOne(*impl_, r.table_name, WriteKind::kDelete, r.key, parsed,
               r.return_values_on_condition_check_failure, false, r.return_item_collection_metrics,
               [&](ItemWrite& w, ConsumedCapacity&& cc) {
                 if (r.return_values == ReturnValues::kAllOld && w.cur.item)
                   resp.attributes = std::move(w.cur.item);
                 resp.item_collection_metrics = std::move(w.metrics);
                 resp.consumed_capacity = Report(r.return_consumed_capacity, std::move(cc));
               }));
  return resp;
}

Result<UpdateItemResponse> Database::UpdateItem(const UpdateItemRequest& r) {
  KH_RETURN_IF_ERROR(ValidateDataTableName(r.table_name));
  KH_RETURN_IF_ERROR(OnFailureNoneOrAllOld(r.return_values_on_condition_check_failure));
  KH_ASSIGN_OR_RETURN(expr::ParsedExpressions parsed, ParseWithCondition(*impl_, r.expressions));
  UpdateItemResponse resp;
  KH_RETURN_IF_ERROR(WriteOne(
      *impl_, r.table_name, WriteKind::kUpdate, r.key, parsed,
      r.return_values_on_condition_check_failure, false, r.return_item_collection_metrics,
      [&](ItemWrite& w, ConsumedCapacity&& cc) {
        resp.item_collection_metrics = std::move(w.metrics);
        std::vector<expr::Path> touched =
            parsed.update ? expr::UpdatedPaths(*parsed.update) : std::vector<expr::Path>{};
        switch (r.return_values) {
          case ReturnValues::kNone:
            break;
          case ReturnValues::kAllOld:
            if (w.cur.item) resp.attributes = *w.cur.item;
            break;
          case ReturnValues::kAllNew:
            if (!w.no_op) resp.attributes = w.next;
            break;
          case ReturnValues::kUpdatedOld:
            if (w.cur.item) resp.attributes = expr::Project(*w.cur.item, touched);
            break;
          case ReturnValues::kUpdatedNew:
            resp.attributes = expr::Project(w.next, touched);
            break;
        }
        if (resp.attributes && resp.attributes->empty()) resp.attributes.reset();
        resp.consumed_capacity = Report(r.return_consumed_capacity, std::move(cc));
      },
      // An UpdateExpression sent as text (not PartiQL's UPDATE, not AttributeUpdates).
      Regional().update_size_by_statement && r.expressions.update.has_value() && !parsed.legacy));
  return resp;
}

}  // namespace keyhole::storage
