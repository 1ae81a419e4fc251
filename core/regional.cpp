// RegionalBehaviour (regional.h): the regions known to answer unlike the majority.
#include "core/regional.h"

#include <algorithm>
#include <array>

#include "core/schema.h"

namespace keyhole {
namespace {

template <size_t N>
bool In(const std::array<std::string_view, N>& regions, std::string_view region) {
  return std::find(regions.begin(), regions.end(), region) != regions.end();
}

RegionalBehaviour Make(std::string_view region) {
  static constexpr std::array<std::string_view, 3> kTransactionRollout = {
      "ap-northeast-2", "eu-north-1", "eu-west-2"};
  static constexpr std::array<std::string_view, 5> kScanNewer = {
      "ap-east-2", "ap-northeast-2", "eu-central-1", "eu-west-2", "us-west-1"};
  static constexpr std::array<std::string_view, 5> kBatchWriteGeneric = {
      "ap-east-2", "ap-southeast-1", "eu-central-1", "eu-north-1", "eu-west-2"};
  static constexpr std::array<std::string_view, 2> kOldCohort = {"eu-south-2", "me-central-1"};
  RegionalBehaviour b;
  b.transactions_checked_up_front = In(kTransactionRollout, region);
  b.scan_newer_wording = In(kScanNewer, region);
  b.batch_write_empty_generic = In(kBatchWriteGeneric, region);
  b.batch_get_empty_generic = region != "me-central-1";
  b.old_cohort = In(kOldCohort, region);
  b.update_size_by_statement = !b.old_cohort;
  return b;
}

}  // namespace

const RegionalBehaviour& BehaviourOf(std::string_view region) {
  // The few regions that differ, each made once; every other region shares the majority's.
  static const RegionalBehaviour kMajority = Make("");
  static constexpr std::array<std::string_view, 9> kDiffering = {
      "ap-northeast-2", "eu-north-1",     "eu-west-2",  "ap-east-2",   "eu-central-1",
      "us-west-1",      "ap-southeast-1", "eu-south-2", "me-central-1"};
  static const auto kTable = [] {
    std::array<RegionalBehaviour, kDiffering.size()> t;
    for (size_t i = 0; i < kDiffering.size(); ++i) t[i] = Make(kDiffering[i]);
    return t;
  }();
  for (size_t i = 0; i < kDiffering.size(); ++i) {
    if (kDiffering[i] == region) return kTable[i];
  }
  return kMajority;
}

const RegionalBehaviour& Regional() { return BehaviourOf(ArnRegion()); }

}  // namespace keyhole
