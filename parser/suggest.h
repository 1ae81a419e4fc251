// "Did you mean ...?": the distance between two words, and the closest of a list of names.
// Plain functions, shared by the parser's hints and the shell's not-found hints.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace keyhole::parser {

// The Levenshtein distance between `a` and `b` (insertions, deletions and substitutions of
// bytes), compared case-insensitively (ASCII) when `ignore_case`.
size_t EditDistance(std::string_view a, std::string_view b, bool ignore_case = false);

// The candidate closest to `name` case-insensitively, when it is within `max_distance` edits
// (ties: the first); nullopt otherwise.
std::optional<std::string> ClosestName(std::string_view name,
                                       const std::vector<std::string>& candidates,
                                       size_t max_distance = 2);

}  // namespace keyhole::parser
