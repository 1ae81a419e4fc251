// Figures for people (see figures.h).
#include "modeling/figures.h"

#include <fmt/format.h>

#include <cmath>

namespace keyhole::modeling {

std::string Num(double v, int decimals) {
  std::string text = fmt::format("{:.{}f}", std::abs(v), decimals);
  if (text.find('.') != std::string::npos) {
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
  }
  size_t dot = std::min(text.find('.'), text.size());
  for (int i = static_cast<int>(dot) - 3; i > 0; i -= 3) text.insert(static_cast<size_t>(i), ",");
  return (v < 0 ? "-" : "") + text;
}

std::string Money(double v) {
  if (v > 0 && v < 0.005) return "<$0.01";
  std::string text = Num(v, 2);
  size_t dot = text.find('.');
  if (dot == std::string::npos) return "$" + text + ".00";
  return "$" + text + std::string(3 - (text.size() - dot), '0');
}

std::string Bytes(double b) {
  static constexpr const char* kUnits[] = {"bytes", "KB", "MB", "GB", "TB"};
  int u = 0;
  while (b >= 1024 && u < 4) {
    b /= 1024;
    ++u;
  }
  return u == 0 ? fmt::format("{} bytes", Num(b, 0)) : fmt::format("{} {}", Num(b, 1), kUnits[u]);
}

std::string Percent(double share) {
  if (share > 0 && share < 0.001) return "<0.1%";
  std::string text = Num(100 * share, share < 0.1 ? 1 : 0);
  if (share < 1 && text == "100") text = "99.9";  // not over until it is
  return text + "%";
}

double Round(double v) {
  if (v > 0 && v < 1) return std::stod(fmt::format("{:.3g}", v));
  return std::round(v * 100) / 100;
}

}  // namespace keyhole::modeling
