// The CreateTable request that makes a table like an existing one: what a copy sends to its
// destination, and what the shell writes as `aws dynamodb create-table --cli-input-json` input
// and as a CloudFormation resource.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <string>

#include "core/backend.h"

#include "core/operations.h"
#include "core/schema.h"

namespace keyhole {

// The CreateTable request for a table named `table` defined as `def`: attribute definitions,
// keys, indexes and projections, billing mode and provisioned throughput (a GSI's at least 1),
// OnDemandThroughput, stream, tags and deletion protection. What it leaves out is passed to
// `note`, a sentence each naming `table`: the source account's KMS key (the copy gets the
// destination's default encryption) and a WarmThroughput above what a new table has anyway
// (pre-warming is billed). TTL is not CreateTable's: the caller sets it (UpdateTimeToLive).
CreateTableRequest CreateRequestFor(const std::string& table, const TableDescription& def,
                                    const std::function<void(const std::string&)>& note);

// What a wait reports after each DescribeTable that found it not done: what it waits on
// ("table T is CREATING", "index I of T is CREATING (backfilling)") and the seconds so far.
using WaitProgress = std::function<void(const std::string& state, double seconds)>;

// Waits until `table` and each of its GSIs is ACTIVE (on DynamoDB, seconds to minutes after
// CreateTable or an UpdateTable that adds an index), asking DescribeTable at growing intervals
// up to 5 s; InternalError past `limit`, InterruptedException when `cancel` is seen set (within
// a tenth of a second). `progress`, when set, is told each state that is not yet ACTIVE.
Status WaitUntilActive(Backend& db, const std::string& table, std::chrono::minutes limit,
                       const std::atomic<bool>* cancel = nullptr,
                       const WaitProgress& progress = {});

// Waits until DescribeTable of `table` answers ResourceNotFoundException (after DeleteTable: on
// DynamoDB the table is DELETING for a while), as WaitUntilActive waits.
Status WaitUntilGone(Backend& db, const std::string& table, std::chrono::minutes limit,
                     const std::atomic<bool>* cancel = nullptr, const WaitProgress& progress = {});

}  // namespace keyhole
