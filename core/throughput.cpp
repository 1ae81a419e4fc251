#include "core/throughput.h"

#include <fmt/format.h>

#include <algorithm>

namespace keyhole {

namespace {

constexpr std::string_view kInvalid = "One or more parameter values were invalid: ";
constexpr std::string_view kInitialOnDemandGuide =
    "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/"
    "on-demand-capacity-mode.html#on-demand-capacity-mode-initial";

bool Empty(const OnDemandThroughputSpec& s) {
  return !s.max_read_request_units && !s.max_write_request_units;
}
bool Empty(const WarmThroughputSpec& s) {
  return !s.read_units_per_second && !s.write_units_per_second;
}

// What a message says it is about: "table", or the index in one of DynamoDB's two spellings
// ("index : g" in some texts, "index: g" or "index g" in others).
struct Subject {
  bool index = false;  // false: the table
  std::string name;
  std::string Spaced() const { return index ? "index : " + name : "table"; }
  std::string Colon() const { return index ? "index: " + name : "table"; }
  std::string Plain() const { return index ? "index " + name : "table"; }
};

Subject Table() { return Subject{false, ""}; }
Subject Index(std::string_view name) { return Subject{true, std::string(name)}; }

// OnDemandThroughput's values: from 1 (or -1 when `may_clear`: UpdateTable), at most the
// account's per-table maximum. The read member is checked first.
Status CheckOnDemandValues(const OnDemandThroughputSpec& s, const Subject& who, bool may_clear) {
  struct Member {
    const std::optional<int64_t>& value;
    std::string_view name, limit;
  };
  const Member members[] = {
      {s.max_read_request_units, "MaxReadRequestUnits", "TableMaxReadCapacityUnits"},
      {s.max_write_request_units, "MaxWriteRequestUnits", "TableMaxWriteCapacityUnits"}};
  for (const Member& m : members) {
    if (!m.value) continue;
    if (*m.value < 1 && !(may_clear && *m.value == -1)) {
      return Status::Validation(
          fmt::format("{}Requested {} for OnDemandThroughput for {} is outside of valid range",
                      kInvalid, m.name, who.Spaced()));
    }
    if (*m.value > kTableMaxCapacityUnits) {
      return Status::LimitExceeded(fmt::format(
          "Subscriber limit exceeded: Requested {} for OnDemandThroughput for {} exceeds {} of "
          "the account in region {}",
          m.name, who.Spaced(), m.limit, ArnRegion()));
    }
  }
  return Status::OK();
}

// WarmThroughput's values against the account's per-table maximum.
Status CheckWarmLimit(const WarmThroughputSpec& s, const Subject& who) {
  if (s.read_units_per_second && *s.read_units_per_second > kTableMaxCapacityUnits) {
    return Status::LimitExceeded(fmt::format(
        "Subscriber limit exceeded: Requested ReadUnitsPerSecond for WarmThroughput for {} "
        "exceeds TableMaxReadCapacityUnits of the account in region {}",
        who.Plain(), ArnRegion()));
  }
  if (s.write_units_per_second && *s.write_units_per_second > kTableMaxCapacityUnits) {
    return Status::LimitExceeded(fmt::format(
        "Subscriber limit exceeded: Requested WriteUnitsPerSecond for WarmThroughput for {} "
        "exceeds TableMaxWriteCapacityUnits of the account in region {}",
        who.Plain(), ArnRegion()));
  }
  return Status::OK();
}

// The member OnDemandThroughput's refusals name: the read one when it was given.
std::string_view FirstOnDemandMember(const OnDemandThroughputSpec& s) {
  return s.max_read_request_units ? "MaxReadRequestUnits" : "MaxWriteRequestUnits";
}

// T: TableDescription or IndexDescription, whose members are named alike.
template <typename T>
void MergeOnDemand(const OnDemandThroughputSpec& s, T* t) {
  auto merge = [](const std::optional<int64_t>& given, std::optional<int64_t>* kept) {
    if (!given) return;
    if (*given == -1) {
      kept->reset();
    } else {
      *kept = *given;
    }
  };
  merge(s.max_read_request_units, &t->max_read_request_units);
  merge(s.max_write_request_units, &t->max_write_request_units);
}

// The warm throughput of something new (CreateTable, or a GSI UpdateTable creates): the given
// values, at least the floor of its mode (12000 / 4000 on demand, the provisioned units).
template <typename T>
Status InitialWarm(const std::optional<WarmThroughputSpec>& spec, bool on_demand,
                   const Subject& who, T* t) {
  const int64_t floor_read = on_demand ? kOnDemandWarmReadUnits : t->read_capacity;
  const int64_t floor_write = on_demand ? kOnDemandWarmWriteUnits : t->write_capacity;
  t->warm_read_units = floor_read;
  t->warm_write_units = floor_write;
  if (!spec) return Status::OK();
  struct Member {
    const std::optional<int64_t>& value;
    int64_t floor;
    std::string_view name, capacity;
    int64_t* kept;
  };
  const Member members[] = {{spec->read_units_per_second, floor_read, "ReadUnitsPerSecond",
                             "ReadCapacityUnits", &t->warm_read_units},
                            {spec->write_units_per_second, floor_write, "WriteUnitsPerSecond",
                             "WriteCapacityUnits", &t->warm_write_units}};
  for (const Member& m : members) {
    if (!m.value) continue;
    if (*m.value < m.floor) {
      if (on_demand) {
        return Status::Validation(fmt::format(
            "{}Requested {} for WarmThroughput for {} is lower than initial throughput for "
            "OnDemand. See: {}",
            kInvalid, m.name, who.Plain(), kInitialOnDemandGuide));
      }
      return Status::Validation(
          fmt::format("{}Requested {} for WarmThroughput for {} is lower than {} of "
                      "ProvisionedThroughput",
                      kInvalid, m.name, who.Plain(), m.capacity));
    }
  }
  KH_RETURN_IF_ERROR(CheckWarmLimit(*spec, who));
  if (spec->read_units_per_second) t->warm_read_units = *spec->read_units_per_second;
  if (spec->write_units_per_second) t->warm_write_units = *spec->write_units_per_second;
  return Status::OK();
}

// CreateTable's OnDemandThroughput (of the table or a GSI: `who`).
template <typename T>
Status InitialOnDemand(const std::optional<OnDemandThroughputSpec>& spec, bool on_demand,
                       const Subject& who, T* t) {
  if (!spec || Empty(*spec)) return Status::OK();
  if (!on_demand) {
    return Status::Validation(fmt::format(
        "{}{} for OnDemandThroughput {}cannot be specified when table BillingMode is "
        "PROVISIONED.",
        kInvalid, FirstOnDemandMember(*spec), who.index ? "for " + who.Colon() + " " : ""));
  }
  KH_RETURN_IF_ERROR(CheckOnDemandValues(*spec, who, false));
  MergeOnDemand(*spec, t);
  return Status::OK();
}

// UpdateTable's WarmThroughput on an existing table or GSI: never lower than it is.
template <typename T>
Status RaiseWarm(const WarmThroughputSpec& spec, const Subject& who, T* t) {
  if (spec.read_units_per_second && *spec.read_units_per_second < t->warm_read_units) {
    return Status::Validation(
        fmt::format("{}Requested ReadUnitsPerSecond for WarmThroughput for {} is lower than "
                    "current WarmThroughput, decreasing WarmThroughput is not supported",
                    kInvalid, who.Plain()));
  }
  if (spec.write_units_per_second && *spec.write_units_per_second < t->warm_write_units) {
    return Status::Validation(
        fmt::format("{}Requested WriteUnitsPerSecond for WarmThroughput for {} is lower than "
                    "current WarmThroughput, decreasing WarmThroughput is not supported",
                    kInvalid, who.Plain()));
  }
  if (spec.read_units_per_second) t->warm_read_units = *spec.read_units_per_second;
  if (spec.write_units_per_second) t->warm_write_units = *spec.write_units_per_second;
  return Status::OK();
}

// UpdateTable's OnDemandThroughput on an existing table or GSI.
template <typename T>
Status UpdateOnDemand(const OnDemandThroughputSpec& spec, bool on_demand, const Subject& who,
                      T* t) {
  if (Empty(spec)) return Status::OK();
  if (!on_demand) {
    return Status::Validation(fmt::format(
        "{}{} for OnDemandThroughput {}cannot be specified when the table BillingMode is "
        "PROVISIONED",
        kInvalid, FirstOnDemandMember(spec), who.index ? "for " + who.Spaced() + " " : ""));
  }
  MergeOnDemand(spec, t);
  return Status::OK();
}

template <typename T>
void Settle(bool on_demand, T* t) {
  if (on_demand) {
    t->warm_read_units = std::max(t->warm_read_units, kOnDemandWarmReadUnits);
    t->warm_write_units = std::max(t->warm_write_units, kOnDemandWarmWriteUnits);
    return;
  }
  t->max_read_request_units.reset();
  t->max_write_request_units.reset();
  t->warm_read_units = std::max(t->warm_read_units, t->read_capacity);
  t->warm_write_units = std::max(t->warm_write_units, t->write_capacity);
}

}  // namespace

Status ApplyCreateThroughput(const CreateTableRequest& r, TableDescription* t) {
  const bool on_demand = t->billing_mode == "PAY_PER_REQUEST";
  const Subject table = Table();
  KH_RETURN_IF_ERROR(InitialOnDemand(r.on_demand_throughput, on_demand, table, t));
  KH_RETURN_IF_ERROR(InitialWarm(r.warm_throughput, on_demand, table, t));
  for (IndexDescription& index : t->indexes) {
    if (index.kind != IndexKind::kGlobal) continue;
    auto spec = std::ranges::find_if(r.global_secondary_indexes,
                                     [&](const IndexSpec& s) { return s.name == index.name; });
    if (spec == r.global_secondary_indexes.end()) continue;
    KH_RETURN_IF_ERROR(ApplyNewIndexThroughput(*spec, *t, &index));
  }
  return Status::OK();
}

Status ApplyNewIndexThroughput(const IndexSpec& spec, const TableDescription& t,
                               IndexDescription* index) {
  const bool on_demand = t.billing_mode == "PAY_PER_REQUEST";
  const Subject who = Index(index->name);
  KH_RETURN_IF_ERROR(InitialOnDemand(spec.on_demand_throughput, on_demand, who, index));
  return InitialWarm(spec.warm_throughput, on_demand, who, index);
}

Status CheckUpdateThroughputRequest(const UpdateTableRequest& r) {
  const bool warm = r.warm_throughput && !Empty(*r.warm_throughput);
  const bool on_demand = r.on_demand_throughput && !Empty(*r.on_demand_throughput);
  const bool index_actions =
      r.create_global_index || r.delete_global_index || !r.update_global_indexes.empty();
  const bool others = r.stream_specification || r.sse_specification ||
                      r.deletion_protection_enabled || index_actions;
  if (warm) {
    if (r.create_global_index) {
      return Status::Validation(fmt::format(
          "{}Create global secondary index cannot be specified when updating WarmThroughput",
          kInvalid));
    }
    if (others || on_demand || r.billing_mode || r.has_provisioned_throughput) {
      return Status::Validation(
          fmt::format("{}WarmThroughput must be the only operation in the request", kInvalid));
    }
    KH_RETURN_IF_ERROR(CheckWarmLimit(*r.warm_throughput, Table()));
  }
  if (on_demand) {
    if (others || r.has_provisioned_throughput) {
      return Status::Validation(fmt::format(
          "{}OnDemandThroughput can only be combined with BillingMode in an UpdateTable request",
          kInvalid));
    }
    KH_RETURN_IF_ERROR(CheckOnDemandValues(*r.on_demand_throughput, Table(), true));
  }
  // Alone, an empty structure asks for nothing (DynamoDB answers 500 InternalFailure); beside
  // another member it is ignored.
  const bool anything_else = others || r.billing_mode || r.has_provisioned_throughput;
  if (r.warm_throughput && !warm && !on_demand && !anything_else) {
    return Status::Validation(fmt::format(
        "{}WarmThroughput must have at least one of ReadUnitsPerSecond or WriteUnitsPerSecond "
        "specified",
        kInvalid));
  }
  if (r.on_demand_throughput && !on_demand && !warm && !anything_else) {
    return Status::Validation(
        fmt::format("{}OnDemandThroughput must have at least one of MaxReadRequestUnits or "
                    "MaxWriteRequestUnits specified",
                    kInvalid));
  }
  for (const UpdateTableRequest::IndexThroughput& u : r.update_global_indexes) {
    if (u.warm_throughput && Empty(*u.warm_throughput)) {
      return Status::Validation(
          fmt::format("{}WarmThroughput must have at least one of ReadUnitsPerSecond or "
                      "WriteUnitsPerSecond specified for index: {}",
                      kInvalid, u.index_name));
    }
    if (u.on_demand_throughput) {
      if (Empty(*u.on_demand_throughput) && !u.has_provisioned_throughput && !u.warm_throughput) {
        return Status::Validation(
            fmt::format("{}OnDemandThroughput must have at least one of MaxReadRequestUnits or "
                        "MaxWriteRequestUnits specified for index: {}",
                        kInvalid, u.index_name));
      }
      KH_RETURN_IF_ERROR(CheckOnDemandValues(*u.on_demand_throughput, Index(u.index_name), true));
    }
    if (u.warm_throughput) {
      KH_RETURN_IF_ERROR(CheckWarmLimit(*u.warm_throughput, Index(u.index_name)));
    }
  }
  return Status::OK();
}

Status ApplyTableThroughputUpdate(const UpdateTableRequest& r, TableDescription* t) {
  const bool on_demand = t->billing_mode == "PAY_PER_REQUEST";
  const Subject table = Table();
  if (r.on_demand_throughput) {
    KH_RETURN_IF_ERROR(UpdateOnDemand(*r.on_demand_throughput, on_demand, table, t));
  }
  if (r.warm_throughput) KH_RETURN_IF_ERROR(RaiseWarm(*r.warm_throughput, table, t));
  return Status::OK();
}

Status ApplyIndexThroughputUpdate(const UpdateTableRequest::IndexThroughput& u,
                                  const TableDescription& t, IndexDescription* index) {
  const bool on_demand = t.billing_mode == "PAY_PER_REQUEST";
  const Subject who = Index(index->name);
  if (u.on_demand_throughput) {
    KH_RETURN_IF_ERROR(UpdateOnDemand(*u.on_demand_throughput, on_demand, who, index));
  }
  Settle(on_demand, index);  // a raised ProvisionedThroughput raises the floor first
  if (u.warm_throughput) KH_RETURN_IF_ERROR(RaiseWarm(*u.warm_throughput, who, index));
  return Status::OK();
}

void SettleWarmThroughput(TableDescription* t) {
  const bool on_demand = t->billing_mode == "PAY_PER_REQUEST";
  Settle(on_demand, t);
  for (IndexDescription& index : t->indexes) {
    if (index.kind == IndexKind::kGlobal) Settle(on_demand, &index);
  }
}

}  // namespace keyhole
