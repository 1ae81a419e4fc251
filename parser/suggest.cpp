#include "parser/suggest.h"

#include <algorithm>
#include <cctype>

namespace keyhole::parser {

size_t EditDistance(std::string_view a, std::string_view b, bool ignore_case) {
  auto same = [ignore_case](char x, char y) {
    if (!ignore_case) return x == y;
    return std::tolower(static_cast<unsigned char>(x)) ==
           std::tolower(static_cast<unsigned char>(y));
  };
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] =
          std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same(a[i - 1], b[j - 1]) ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

std::optional<std::string> ClosestName(std::string_view name,
                                       const std::vector<std::string>& candidates,
                                       size_t max_distance) {
  std::optional<std::string> best;
  size_t best_distance = max_distance + 1;
  for (const std::string& c : candidates) {
    const size_t d = EditDistance(name, c, true);
    if (d < best_distance) {
      best = c;
      best_distance = d;
    }
  }
  return best;
}

}  // namespace keyhole::parser
