// core/time.h: epoch seconds and ISO-8601 text, both ways.
#include "core/time.h"

#include <gtest/gtest.h>

namespace keyhole {
namespace {

constexpr double kT = 1900000000;  // 2030-03-17T17:46:40Z

TEST(CoreTimeTest, FormatsSecondsMillisecondsAndDates) {
  EXPECT_EQ(IsoSeconds(kT), "2030-03-17T17:46:40Z");
  EXPECT_EQ(IsoSeconds(kT + 0.999), "2030-03-17T17:46:40Z");  // the fraction is dropped
  EXPECT_EQ(IsoSeconds(0), "1970-01-01T00:00:00Z");
  EXPECT_EQ(IsoMillis(1900000000123), "2030-03-17T17:46:40.123Z");
  EXPECT_EQ(IsoMillis(1900000000005, ""), "2030-03-17T17:46:40.005");  // a stream label
  EXPECT_EQ(IsoMillis(-1), "1969-12-31T23:59:59.999Z");
  EXPECT_EQ(IsoDate(kT), "2030-03-17");
}

TEST(CoreTimeTest, ParsesIso8601WithZonesAndFractions) {
  EXPECT_EQ(ParseIso8601("2030-03-17T17:46:40Z"), kT);
  EXPECT_EQ(ParseIso8601("2030-03-17T17:46:40"), kT);  // no zone: UTC
  EXPECT_EQ(ParseIso8601("2030-03-17T17:46:40GMT"), kT);
  EXPECT_EQ(ParseIso8601("2030-03-17T12:46:40-05:00"), kT);
  EXPECT_EQ(ParseIso8601("2030-03-17T17:46:40.250Z"), kT + 0.25);
  EXPECT_EQ(ParseIso8601(IsoSeconds(kT)), kT);
  EXPECT_FALSE(ParseIso8601("2030-03-17"));
  EXPECT_FALSE(ParseIso8601("2030-03-17T17:46:40+5"));
  EXPECT_FALSE(ParseIso8601("17:46:40 2030-03-17"));
  EXPECT_FALSE(ParseIso8601(""));
}

TEST(CoreTimeTest, TimeArgumentsAreIso8601OrEpochSeconds) {
  EXPECT_EQ(ParseTimeArgument("2030-03-17T17:46:40Z"), kT);
  EXPECT_EQ(ParseTimeArgument("1900000000"), kT);
  EXPECT_EQ(ParseTimeArgument("1.9e9"), kT);
  EXPECT_FALSE(ParseTimeArgument(""));
  EXPECT_FALSE(ParseTimeArgument("soon"));
  EXPECT_FALSE(ParseTimeArgument("12abc"));
  EXPECT_FALSE(ParseTimeArgument("inf"));
  EXPECT_FALSE(ParseTimeArgument("nan"));
}

TEST(CoreTimeTest, WallClockIsNow) {
  EXPECT_GT(WallClockNow(), 1.7e9);  // after 2023
}

}  // namespace
}  // namespace keyhole
