// Quiet: .quiet on's totals. While it is on, footers and notices are dropped (results and errors
// print); .quiet off (or the end of the script that said .quiet on) prints what ran in one line.
// One session, one thread.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <map>
#include <string>

#include "api/connection.h"
#include "core/capacity.h"

namespace keyhole::shell {

struct Quiet {
  bool on = false;
  int64_t statements = 0;
  int64_t failed = 0;
  std::map<std::string, double> units;  // "WCU" -> 52

  // .quiet on: from nothing (a second .quiet on keeps counting).
  void Start() {
    if (on) return;
    *this = Quiet();
    on = true;
  }
  // One statement that ran (`ok`: without an error), with what its report says it consumed.
  void Count(const api::StatementReport& report, bool ok) {
    if (!on) return;
    ++statements;
    failed += !ok;
    if (report.read_units + report.write_units > 0) {  // RCU and WCU apart
      if (report.read_units > 0) units["RCU"] += report.read_units;
      if (report.write_units > 0) units["WCU"] += report.write_units;
    } else if (!report.units.empty()) {
      units[report.units] += report.capacity;
    }
  }
  // "-- N statements ran quietly[, F failed] · U WCU\n".
  std::string Summary() const {
    std::string consumed;
    for (const auto& [unit, total] : units) consumed += " · " + CapacityText(total, unit);
    std::string failures = failed ? fmt::format(", {} failed", failed) : "";
    return fmt::format("-- {} statement{} ran quietly{}{}\n", statements,
                       statements == 1 ? "" : "s", failures, consumed);
  }
};

}  // namespace keyhole::shell
