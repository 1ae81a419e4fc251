// Time to Live (reference §6.1): UpdateTimeToLive / DescribeTimeToLive, and the sweep that
// deletes expired items.
//
// An item is expired when its TTL attribute is a top-level Number of epoch seconds below the
// clock's now and not more than five years in the past (older values are presumed mistakes and
// ignored, as DynamoDB does); other types never expire. As in DynamoDB, an expired item stays
// readable until a sweep deletes it. keyhole sweeps deterministically instead of in the
// background: when a database is opened read-write, and on request (SweepExpiredItems, the
// shell's `.ttl sweep`). A sweep deletes each item like DeleteItem (indexes maintained) in one
// write transaction per table, consumes no capacity, and marks its stream records as service
// deletions (userIdentity dynamodb.amazonaws.com).
//
// Messages (DynamoDB's, as DynamoDB Local and moto report them; not in the reference, so
// unverified): enabling the attribute already enabled "TimeToLive is already enabled";
// disabling when disabled "TimeToLive is already disabled"; naming another attribute while
// enabled "TimeToLive is active on a different AttributeName: current AttributeName is <a>";
// a second change within an hour "Time to live has been modified multiple times within a fixed
// interval".
#include <fmt/format.h>

#include <cstdlib>

#include "core/item.h"
#include "core/item_codec.h"
#include "core/time.h"
#include "storage/database.h"
#include "storage/engine.h"

namespace keyhole::storage {

namespace {

constexpr double kOneHour = 3600;

Item KeyOf(const KeySchema& key, const Item& item) {
  Item out;
  out[key.partition.name] = item.at(key.partition.name);
  if (key.sort) out[key.sort->name] = item.at(key.sort->name);
  return out;
}

}  // namespace

Result<UpdateTimeToLiveResponse> Database::UpdateTimeToLive(const UpdateTimeToLiveRequest& r) {
  KH_RETURN_IF_ERROR(ValidateTableName(r.table_name));
  const std::string& name = r.specification.attribute_name;
  if (name.empty() || name.size() > 255) {
    return Status::Validation(fmt::format(
        "1 validation error detected: Value '{}' at 'timeToLiveSpecification.attributeName' "
        "failed to satisfy constraint: Member must have length {} 255",
        name, name.empty() ? "greater than or equal to 1" : "less than or equal to"));
  }
  UpdateTimeToLiveResponse resp;
  resp.specification = r.specification;
  KH_RETURN_IF_ERROR(
      impl_->WithTable(r.table_name, true, [&](Txn& txn, const TableHandle& h) -> Status {
        TableDescription t = h.desc;
        const double now = impl_->clock();
        if (r.specification.enabled) {
          if (t.ttl_attribute == name) return Status::Validation("TimeToLive is already enabled");
        } else if (!t.ttl_attribute) {
          return Status::Validation("TimeToLive is already disabled");
        }
        if (t.ttl_attribute && *t.ttl_attribute != name) {
          return Status::Validation(fmt::format(
              "TimeToLive is active on a different AttributeName: current AttributeName is {}",
              *t.ttl_attribute));
        }
        if (t.ttl_changed_at > 0 && now - t.ttl_changed_at < kOneHour) {
          return Status::Validation(
              "Time to live has been modified multiple times within a fixed interval");
        }
        if (r.specification.enabled) {
          t.ttl_attribute = name;
        } else {
          t.ttl_attribute.reset();
        }
        t.ttl_changed_at = now;
        return impl_->WriteTable(txn, t);
      }));
  return resp;
}

Result<DescribeTimeToLiveResponse> Database::DescribeTimeToLive(
    const DescribeTimeToLiveRequest& r) {
  KH_RETURN_IF_ERROR(ValidateTableName(r.table_name));
  KH_ASSIGN_OR_RETURN(TableSchemaPtr t, TableSchema(r.table_name));
  DescribeTimeToLiveResponse resp;
  if (t->ttl_attribute) {
    resp.status = "ENABLED";
    resp.attribute_name = t->ttl_attribute;
  }
  return resp;
}

Result<int64_t> Database::SweepExpiredItems(const std::string& table_name) {
  std::vector<std::string> names;
  if (!table_name.empty()) {
    names.push_back(table_name);
  } else {
    KH_ASSIGN_OR_RETURN(ListTablesResponse all, ListTables({}));
    names = all.table_names;
  }
  int64_t deleted = 0;
  for (const std::string& name : names) {
    KH_ASSIGN_OR_RETURN(TableSchemaPtr schema, TableSchema(name));
    if (!schema->ttl_attribute) continue;
    KH_RETURN_IF_ERROR(impl_->WithTable(name, true, [&](Txn& txn, const TableHandle& h) -> Status {
      if (!h.desc.ttl_attribute) return Status::OK();
      const double now = impl_->clock();
      std::vector<Item> keys;
      {
        Cursor c(&txn, h.dbi);
        for (bool ok = c.SeekFirst(); ok; ok = c.Next()) {
          KH_ASSIGN_OR_RETURN(Item item, DecodeItem(c.value()));
          if (TtlExpired(item, *h.desc.ttl_attribute, now)) keys.push_back(KeyOf(h.desc.key, item));
        }
        KH_RETURN_IF_ERROR(c.status());
      }
      for (const Item& key : keys) {
        ItemWrite w;
        w.kind = WriteKind::kDelete;
        w.table = &h;
        w.input = &key;
        w.service_deletion = true;
        KH_RETURN_IF_ERROR(EvaluateWrite(txn, &w));
        ConsumedCapacity unused;  // TTL deletions consume no capacity (reference §5.2)
        KH_RETURN_IF_ERROR(ApplyWrite(txn, w, &unused));
      }
      deleted += static_cast<int64_t>(keys.size());
      return Status::OK();
    }));
  }
  return deleted;
}

void Database::SetClock(std::function<double()> clock) {
  impl_->clock = clock ? std::move(clock) : WallClockNow;
}

}  // namespace keyhole::storage
