// RunSorter: records come back ordered by (key, sequence), from memory or merged from runs.
#include "storage/run_sorter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <tuple>

namespace keyhole::storage {
namespace {

using Rec = std::tuple<std::string, uint64_t, std::string>;

std::vector<Rec> SortThrough(size_t memory, const std::vector<Rec>& in) {
  char tmpl[] = "/tmp/keyhole-sorter-XXXXXX";
  std::string dir = ::mkdtemp(tmpl);
  std::vector<Rec> out;
  {
    RunSorter s(dir, memory);
    for (const auto& [k, q, v] : in) EXPECT_TRUE(s.Add(k, q, v).ok());
    EXPECT_TRUE(s.Finish().ok());
    std::string_view k, v;
    uint64_t q;
    while (s.Next(&k, &q, &v)) out.emplace_back(std::string(k), q, std::string(v));
    EXPECT_TRUE(s.status().ok()) << s.status().ToString();
    // The runs' file is unlinked as soon as it is made: the directory stays empty.
    EXPECT_TRUE(std::filesystem::is_empty(dir));
  }
  std::filesystem::remove_all(dir);
  return out;
}

TEST(StorageRunSorter, GivesRecordsByKeyThenSequenceFromMemoryAndFromRuns) {
  std::mt19937_64 rng(7);
  std::vector<Rec> in;
  for (uint64_t i = 0; i < 20000; ++i) {
    std::string key(rng() % 12, '\0');
    for (char& c : key) c = static_cast<char>(rng() % 4);  // many equal keys and prefixes
    std::string value(rng() % (rng() % 50 ? 40 : 70000), static_cast<char>('a' + i % 26));
    in.emplace_back(key, i, value);
  }
  std::vector<Rec> expected = in;
  std::sort(expected.begin(), expected.end(), [](const Rec& a, const Rec& b) {
    return std::tie(std::get<0>(a), std::get<1>(a)) < std::tie(std::get<0>(b), std::get<1>(b));
  });
  EXPECT_TRUE(SortThrough(size_t{1} << 30, in) == expected) << "in memory";
  EXPECT_TRUE(SortThrough(200000, in) == expected) << "merged from runs";
  EXPECT_TRUE(SortThrough(1, in) == expected) << "a run per record";
  EXPECT_TRUE(SortThrough(1000, {}).empty());
}

}  // namespace
}  // namespace keyhole::storage
