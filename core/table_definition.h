// The CreateTable request that makes a table like an existing one: what a copy sends to its
// destination, and what the shell writes as `aws dynamodb create-table --cli-input-json` input
// and as a CloudFormation resource.
#pragma once

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

// Waits until `table` and each of its GSIs is ACTIVE (on DynamoDB, seconds to minutes after
// CreateTable), asking DescribeTable at growing intervals up to 5 s; InternalError past
// `limit`.
Status WaitUntilActive(Backend& db, const std::string& table, std::chrono::minutes limit);

}  // namespace keyhole
