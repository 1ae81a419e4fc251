// Figures for people, as the cost plan and its advice print them. Stateless; thread-safe.
#pragma once

#include <string>

namespace keyhole::modeling {

// 1234.5 -> "1,234.5"; at most `decimals` decimals, trailing zeros dropped.
std::string Num(double v, int decimals = 2);
// "$1,234.50", "<$0.01" (more than nothing, less than a cent), "$0.00".
std::string Money(double v);
// "512 bytes", "1.5 KB", "2.3 GB" (powers of 1,024).
std::string Bytes(double b);
// A share as a percentage: "12%", "4.5%", "<0.1%"; never "100%" while under 1.
std::string Percent(double share);
// Two decimals, or three significant digits under 1 (10/h is 0.00278/s).
double Round(double v);

}  // namespace keyhole::modeling
