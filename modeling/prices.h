// DynamoDB prices for the cost plan's cost per month (cost_plan.h): a small built-in table and
// the `--prices FILE` that overrides it.
//
// The built-in table holds us-east-1 (US East, N. Virginia), Standard table class, as read on
// 2026-11-28 (see kBuiltInDate and docs/cost.md for the sources): on-demand $0.625 per million
// write request units and $0.125 per million read request units (the prices since AWS halved
// them on 2024-11-01), provisioned $0.00065 per WCU-hour and $0.00013 per RCU-hour, storage
// $0.25 per GB-month; vector indexes $0.52 per GB of VectorWriteRequestBytes and $0.002 per GB
// of VectorSearchRequestBytes (their storage is the table's). Other regions come from a prices
// file:
//
//   {"date": "2026-11-28", "regions": {"eu-west-1": {"on_demand_read_per_million": 0.1415,
//     "on_demand_write_per_million": 0.7075, "rcu_hour": 0.000147, "wcu_hour": 0.000735,
//     "storage_gb_month": 0.283}}}
//
// (a file may also be one region's object, with "region" naming it). Every member is required
// but the two vector prices ("vector_write_per_gb", "vector_search_per_gb"), which a file may
// leave out (the plan then says vector costs are not counted); an unknown member is refused, so
// that a misspelt price is not silently left at zero.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/status.h"

namespace keyhole::modeling {

struct Prices {
  std::string region;  // "us-east-1"
  std::string date;    // when the figures were read
  std::string source;  // "built in" or the prices file's path
  double on_demand_read_per_million = 0, on_demand_write_per_million = 0;
  double rcu_hour = 0, wcu_hour = 0;
  double storage_gb_month = 0;
  // Vector indexes, per GB (2^30 bytes) of what DynamoDB meters; unset when a prices file
  // does not give them.
  std::optional<double> vector_write_per_gb, vector_search_per_gb;
};

inline constexpr std::string_view kBuiltInDate = "2026-11-28";
inline constexpr double kHoursPerMonth = 730;  // AWS's pricing month

// The prices of `region` (empty: us-east-1, or the file's one region): from the prices file at
// `path` when it is not empty, else the built-in table. ValidationException naming the regions
// there are when `region` is not one, or what is wrong with the file.
Result<Prices> LoadPrices(const std::string& region, const std::string& path);

}  // namespace keyhole::modeling
