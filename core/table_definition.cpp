#include "core/table_definition.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <thread>

#include "core/throughput.h"
#include "core/vector_index.h"

namespace keyhole {

namespace {

// A table's or a GSI's OnDemandThroughput as CreateTable takes it (nullopt: no limit).
template <typename T>
std::optional<OnDemandThroughputSpec> OnDemandOf(const T& t) {
  if (!t.max_read_request_units && !t.max_write_request_units) return std::nullopt;
  return OnDemandThroughputSpec{t.max_read_request_units, t.max_write_request_units};
}

}  // namespace

CreateTableRequest CreateRequestFor(const std::string& table, const TableDescription& def,
                                    const std::function<void(const std::string&)>& note) {
  CreateTableRequest c;
  c.table_name = table;
  AddAttributeDefinitions(def.key, &c.attribute_definitions);
  c.key_schema = ToKeySchemaElements(def.key);
  c.billing_mode = def.billing_mode;
  const bool provisioned = def.billing_mode == "PROVISIONED";
  if (provisioned) {
    c.read_capacity_units = def.read_capacity;
    c.write_capacity_units = def.write_capacity;
  }
  // OnDemandThroughput is a limit, and is carried. WarmThroughput above what a new table has
  // anyway is billed (pre-warming), so it is named, not carried.
  auto note_warm = [&](const std::string& what, const auto& d) {
    const int64_t read = provisioned ? d.read_capacity : kOnDemandWarmReadUnits;
    const int64_t write = provisioned ? d.write_capacity : kOnDemandWarmWriteUnits;
    if (d.warm_read_units <= read && d.warm_write_units <= write) return;
    note(
        fmt::format("{}: its WarmThroughput ({} reads, {} writes per second) is not carried, "
                    "because pre-warming is billed; UpdateTable sets it",
                    what, d.warm_read_units, d.warm_write_units));
  };
  c.on_demand_throughput = OnDemandOf(def);
  note_warm(table, def);
  for (const IndexDescription& idx : def.indexes) {
    AddAttributeDefinitions(idx.key, &c.attribute_definitions);
    IndexSpec spec = IndexSpecOf(idx.name, idx.key, idx.projection);
    if (idx.kind == IndexKind::kGlobal) {
      if (provisioned) {
        spec.read_capacity_units = std::max<int64_t>(1, idx.read_capacity);
        spec.write_capacity_units = std::max<int64_t>(1, idx.write_capacity);
      }
      spec.on_demand_throughput = OnDemandOf(idx);
      note_warm(fmt::format("{}'s index {}", table, idx.name), idx);
      c.global_secondary_indexes.push_back(std::move(spec));
    } else {
      c.local_secondary_indexes.push_back(std::move(spec));
    }
  }
  for (const VectorIndexDescription& v : def.vector_indexes) {
    VectorIndexSpec spec;
    spec.name = v.name;
    spec.vector_attribute = v.vector_attribute;
    for (const SearchAttribute& a : v.search_schema) {
      spec.search_schema.push_back({a.name, a.hash ? "HASH" : "INLINE_FILTER"});
      if (std::ranges::none_of(c.attribute_definitions,
                               [&](const AttributeDefinition& d) { return d.name == a.name; })) {
        c.attribute_definitions.push_back({a.name, std::string(TypeName(a.type))});
      }
    }
    const IndexSpec projection = IndexSpecOf(v.name, def.key, v.projection);
    spec.projection_type = projection.projection_type;
    spec.non_key_attributes = projection.non_key_attributes;
    spec.dimensions = v.dimensions;
    spec.distance_function = std::string(DistanceFunctionName(v.distance));
    c.vector_indexes.push_back(std::move(spec));
  }
  if (def.stream_view_type) {
    StreamSpecification stream;
    stream.stream_enabled = true;
    stream.stream_view_type = def.stream_view_type;
    c.stream_specification = stream;
  }
  if (def.sse_enabled) {
    note(fmt::format(
        "{}: its KMS key ({}) belongs to the source's account and is not carried; "
        "the new table has the destination's default encryption",
        table, def.kms_master_key_arn.empty() ? "AWS managed" : def.kms_master_key_arn));
  }
  for (const auto& [k, v] : def.tags) c.tags.push_back({k, v});
  if (def.deletion_protection) c.deletion_protection_enabled = true;
  return c;
}

namespace {

// Sleeps `seconds` in steps of a tenth, false as soon as `cancel` is set.
bool SleepUnlessCancelled(double seconds, const std::atomic<bool>* cancel) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point until = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                     std::chrono::duration<double>(seconds));
  while (Clock::now() < until) {
    if (cancel && cancel->load(std::memory_order_relaxed)) return false;
    const Clock::duration left = until - Clock::now();
    std::this_thread::sleep_for(std::min<Clock::duration>(std::chrono::milliseconds(100), left));
  }
  return !(cancel && cancel->load(std::memory_order_relaxed));
}

// Asks `done` (nullopt: wait on; a Status: finished with it) at growing intervals.
Status Poll(const std::string& table, std::chrono::minutes limit, const std::atomic<bool>* cancel,
            const WaitProgress& progress, std::string_view goal,
            const std::function<std::optional<Status>(std::string* state)>& done) {
  const auto start = std::chrono::steady_clock::now();
  const auto deadline = start + limit;
  for (double wait = 0.05;; wait = std::min(wait * 2, 5.0)) {
    std::string state;
    if (std::optional<Status> finished = done(&state)) return *finished;
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (progress) progress(state, seconds);
    if (std::chrono::steady_clock::now() > deadline) {
      return Status::Internal(
          fmt::format("{} did not {} in {} minutes ({})", table, goal, limit.count(), state));
    }
    if (!SleepUnlessCancelled(wait, cancel)) {
      return Status(ErrorCode::kInterrupted, fmt::format("Interrupted while waiting: {}", state));
    }
  }
}

}  // namespace

Status WaitUntilActive(Backend& db, const std::string& table, std::chrono::minutes limit,
                       const std::atomic<bool>* cancel, const WaitProgress& progress) {
  return Poll(table, limit, cancel, progress, "become ACTIVE",
              [&](std::string* state) -> std::optional<Status> {
                Result<DescribeTableResponse> d = db.DescribeTable({table});
                if (!d.ok()) return d.status();
                // An index being made is why its table is UPDATING: name the index.
                for (const IndexDescription& idx : d->table.indexes) {
                  if (idx.kind != IndexKind::kGlobal || idx.status == "ACTIVE") continue;
                  *state = fmt::format("index {} of {} is {}", idx.name, table, idx.status);
                  return std::nullopt;
                }
                if (d->table.status != "ACTIVE") {
                  *state = fmt::format("table {} is {}", table, d->table.status);
                  return std::nullopt;
                }
                return Status::OK();
              });
}

Status WaitUntilGone(Backend& db, const std::string& table, std::chrono::minutes limit,
                     const std::atomic<bool>* cancel, const WaitProgress& progress) {
  return Poll(table, limit, cancel, progress, "go",
              [&](std::string* state) -> std::optional<Status> {
                Result<DescribeTableResponse> d = db.DescribeTable({table});
                if (!d.ok()) return d.status().IsNotFound() ? Status::OK() : d.status();
                *state = fmt::format("table {} is {}", table, d->table.status);
                return std::nullopt;
              });
}

}  // namespace keyhole
