// OnDemandThroughput and WarmThroughput of tables and GSIs: CreateTable's and UpdateTable's
// rules, and the warm throughput DynamoDB describes on every table and GSI.
//
// The rules and texts are DynamoDB's as live probes recorded them in 2026 (the ack-api-quirks
// catalogue, services/dynamodb: table-throughput-billing and findings 028, 032, 033, 153, 154,
// 178, 182, 382):
//  - OnDemandThroughput is for PAY_PER_REQUEST tables. CreateTable takes values from 1; UpdateTable
//    also takes -1, which removes that limit. DescribeTable shows only the members set. A table
//    that becomes PROVISIONED loses it, with its GSIs'.
//  - WarmThroughput is always described: 12000 reads / 4000 writes per second on demand, the
//    provisioned units on a PROVISIONED table or GSI, raised by provisioned increases and by a
//    switch to on demand, raised on request, never lowered. keyhole applies a raise at once, so
//    its Status is always ACTIVE (DynamoDB's is UPDATING for some minutes).
//  - At most 40,000 units per second per table (DescribeLimits' TableMax*CapacityUnits):
//    LimitExceededException past it.
// Where DynamoDB answers 500 (an empty WarmThroughput or OnDemandThroughput alone in UpdateTable),
// keyhole gives a ValidationException of its own wording.
#pragma once

#include "core/operations.h"
#include "core/schema.h"
#include "core/status.h"

namespace keyhole {

// The warm throughput of an on-demand table or GSI until raised.
inline constexpr int64_t kOnDemandWarmReadUnits = 12000, kOnDemandWarmWriteUnits = 4000;
// The account's per-table maximum (DescribeLimits' TableMaxReadCapacityUnits and
// TableMaxWriteCapacityUnits).
inline constexpr int64_t kTableMaxCapacityUnits = 40000;

// CreateTable's OnDemandThroughput and WarmThroughput, the table's then each GSI's, checked
// against `t` (its billing mode and provisioned units already set) and applied to it; every GSI
// and the table get their initial warm throughput.
Status ApplyCreateThroughput(const CreateTableRequest& r, TableDescription* t);

// UpdateTable's checks that need no table: what OnDemandThroughput and WarmThroughput may be
// combined with, empty structures, and the ranges of the values.
Status CheckUpdateThroughputRequest(const UpdateTableRequest& r);

// UpdateTable's table-level OnDemandThroughput and WarmThroughput applied to `t`, whose billing
// mode is already the new one.
Status ApplyTableThroughputUpdate(const UpdateTableRequest& r, TableDescription* t);

// One GlobalSecondaryIndexUpdates Update's OnDemandThroughput and WarmThroughput applied to
// `index` of `t` (after its ProvisionedThroughput, if it had one).
Status ApplyIndexThroughputUpdate(const UpdateTableRequest::IndexThroughput& u,
                                  const TableDescription& t, IndexDescription* index);

// A GSI that UpdateTable creates: its OnDemandThroughput and WarmThroughput from `spec`, checked
// as CreateTable's, and its initial warm throughput.
Status ApplyNewIndexThroughput(const IndexSpec& spec, const TableDescription& t,
                               IndexDescription* index);

// After a change of billing mode or provisioned units: a PROVISIONED table and its GSIs lose
// OnDemandThroughput and are warm for at least their units; an on-demand one for at least
// 12000 / 4000. Also fills a warm throughput a catalog from before it was recorded lacks.
void SettleWarmThroughput(TableDescription* t);

}  // namespace keyhole
