// core/utf8.h: well-formed sequences, decoding, cutting and display widths.
#include "core/utf8.h"

#include <gtest/gtest.h>

namespace keyhole::utf8 {
namespace {

TEST(CoreUtf8Test, SequenceLengthFollowsTable37) {
  EXPECT_EQ(SequenceLength(""), 0u);
  EXPECT_EQ(SequenceLength("a"), 1u);
  EXPECT_EQ(SequenceLength("\xc3\xa9"), 2u);          // é
  EXPECT_EQ(SequenceLength("\xe2\x82\xac"), 3u);      // €
  EXPECT_EQ(SequenceLength("\xf0\x9f\x98\x80"), 4u);  // 😀
  EXPECT_EQ(SequenceLength("\xc0\x80"), 0u);          // overlong NUL
  EXPECT_EQ(SequenceLength("\xe0\x80\xaf"), 0u);      // overlong '/'
  EXPECT_EQ(SequenceLength("\xed\xa0\x80"), 0u);      // a surrogate
  EXPECT_EQ(SequenceLength("\xf4\x90\x80\x80"), 0u);  // above U+10FFFF
  EXPECT_EQ(SequenceLength("\xe2\x82"), 0u);          // cut short
  EXPECT_EQ(SequenceLength("\x80"), 0u);              // a continuation byte
}

TEST(CoreUtf8Test, FindInvalidNamesTheFirstBadByteAfterAsciiRuns) {
  const std::string ascii(13, 'a');
  EXPECT_EQ(FindInvalid(ascii + "\xff"), ascii.size());
  EXPECT_EQ(FindInvalid(ascii + "\xc3\xa9" + ascii + "\xed\xa0\x80"), 2 * ascii.size() + 2);
  EXPECT_EQ(FindInvalid(ascii + "\xc3\xa9"), std::nullopt);
  EXPECT_TRUE(IsValid(""));
}

TEST(CoreUtf8Test, NextDecodesAndReadsABadByteAsItself) {
  const std::string s = "a\xc3\xa9\xff\xf0\x9f\x98\x80";
  size_t i = 0;
  EXPECT_EQ(Next(s, &i), U'a');
  EXPECT_EQ(Next(s, &i), U'é');
  EXPECT_EQ(Next(s, &i), char32_t{0xFF});
  EXPECT_EQ(i, 4u);
  EXPECT_EQ(Next(s, &i), char32_t{0x1F600});
  EXPECT_EQ(i, s.size());
}

TEST(CoreUtf8Test, AppendRoundTrips) {
  for (char32_t cp : {U'a', U'é', U'€', char32_t{0x1F600}, char32_t{0x10FFFF}}) {
    std::string s;
    Append(cp, &s);
    size_t i = 0;
    EXPECT_EQ(Next(s, &i), cp);
    EXPECT_EQ(i, s.size());
  }
}

TEST(CoreUtf8Test, CountsAndCutsWholeCharacters) {
  EXPECT_EQ(CountCharacters("h\xc3\xa9llo"), 5u);
  EXPECT_EQ(Boundary("h\xc3\xa9llo", 2), 1u);  // not inside é
  EXPECT_EQ(Boundary("h\xc3\xa9llo", 3), 3u);
  EXPECT_EQ(Boundary("abc", 10), 3u);
}

TEST(CoreUtf8Test, WidthsCountWideAndCombiningCharacters) {
  EXPECT_EQ(TextWidth("abc"), 3u);
  EXPECT_EQ(TextWidth("\xe6\x97\xa5\xe6\x9c\xac"), 4u);  // 日本
  EXPECT_EQ(TextWidth("e\xcc\x81"), 1u);                 // e + combining acute
  EXPECT_EQ(CutToWidth("abcdef", 4), "abc…");
  EXPECT_EQ(CutToWidth("\xe6\x97\xa5\xe6\x9c\xac", 3), "\xe6\x97\xa5…");
  EXPECT_EQ(CutToWidth("abcdef", 0), "abcdef");
  EXPECT_EQ(CutToWidth("abc", 3), "abc");
}

}  // namespace
}  // namespace keyhole::utf8
