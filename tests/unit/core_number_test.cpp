// Tests for core/number.h: parsing and its exact messages, canonical text, comparison, exact
// arithmetic, DynamoDB's size rule and the order-preserving key encoding.
#include "core/number.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace keyhole {
namespace {

constexpr char kNotNumeric[] = "The parameter cannot be converted to a numeric value";
constexpr char kTooPrecise[] = "Attempting to store more than 38 significant digits in a Number";
constexpr char kOverflow[] =
    "Number overflow. Attempting to store a number with magnitude larger than supported range";
constexpr char kUnderflow[] =
    "Number underflow. Attempting to store a number with magnitude smaller than supported range";

// Parses `text`, failing the test when it is refused.
Number N(std::string_view text) {
  Result<Number> r = Number::Parse(text);
  EXPECT_TRUE(r.ok()) << "'" << text << "': " << r.status().ToString();
  return r.ok() ? r.value() : Number();
}

// The ValidationException message Parse gives for `text`, or "OK".
std::string ParseError(std::string_view text) {
  Result<Number> r = Number::Parse(text);
  if (r.ok()) return "OK";
  EXPECT_TRUE(r.status().IsValidation()) << text;
  return r.status().message();
}

std::string Echo(std::string_view text) {
  return std::string(kNotNumeric) + ": " + std::string(text);
}

std::string Zeros(int n) { return std::string(n, '0'); }

// The largest magnitude: 38 nines at 1E125.
const std::string kMaxText = "9." + std::string(37, '9') + "E125";

std::string Encode(const Number& n) {
  std::string out;
  n.AppendKeyEncoding(&out);
  return out;
}

// --- Parse ---------------------------------------------------------------------------------

TEST(CoreNumberParse, AcceptsEverySpellingDynamoDBAccepts) {
  struct Case {
    std::string text;
    std::string canonical;
  };
  const Case cases[] = {
      {"+3", "3"},
      {".123", "0.123"},
      {"0001.23", "1.23"},
      {"1e+5", "100000"},
      {"-17.4E37", "-174" + Zeros(36)},
      {"0042.1200", "42.12"},
      {"1E125", "1" + Zeros(125)},
      {"1e125", "1" + Zeros(125)},
      {"1.", "1"},
      {"-.5", "-0.5"},
      {"+.5e1", "5"},
      {"5E-1", "0.5"},
      {"1e007", "10000000"},
      {"1e-0", "1"},
      {"123.456e1", "1234.56"},
      {"123.456e-4", "0.0123456"},
      {"1e-130", "0." + Zeros(129) + "1"},
      {"10e-131", "0." + Zeros(129) + "1"},
      {"0", "0"},
      {"-0", "0"},
      {"+0", "0"},
      {"00", "0"},
      {"0.000", "0"},
      {"-0.0e5", "0"},
      {".0", "0"},
      {"0e125", "0"},
      {"0e-130", "0"},
      {"1" + Zeros(45), "1" + Zeros(45)},  // 46 characters, 1 digit
      {"0." + Zeros(44) + "1", "0." + Zeros(44) + "1"},
  };
  for (const Case& c : cases) {
    Result<Number> r = Number::Parse(c.text);
    ASSERT_TRUE(r.ok()) << c.text << ": " << r.status().ToString();
    EXPECT_EQ(r->ToString(), c.canonical) << c.text;
  }
}

// DynamoDB's current layer keeps the colon and space for the empty string; its older layer
// drops them (the Parity Suite's valueLayers captures, October 2026).
TEST(CoreNumberParse, EmptyStringKeepsTheColon) {
  EXPECT_EQ(ParseError(""), std::string(kNotNumeric) + ": ");
  EXPECT_EQ(Number::ParseAsBigDecimal("").status().message(), kNotNumeric);
}

// The older layer and PartiQL parameters read numbers as Java's BigDecimal: the exponent and
// the scale must fit an int, and precision - scale wraps (partiqlParameterNumbers.test.ts,
// valueLayers.test.ts, October 2026).
TEST(CoreNumberParse, AsBigDecimal) {
  const std::string overflow =
      "Number overflow. Attempting to store a number with magnitude larger than supported range";
  const std::string underflow =
      "Number underflow. Attempting to store a number with magnitude smaller than supported "
      "range";
  const struct {
    const char* text;
    std::string want;  // "" for success
  } cases[] = {
      {"1e99999999999", Echo("1e99999999999")},
      {"-1e99999999999", Echo("-1e99999999999")},
      {"1e-99999999999", Echo("1e-99999999999")},
      {"1e2147483648", Echo("1e2147483648")},
      {"1e-2147483648", Echo("1e-2147483648")},
      {"1.5e-2147483647", Echo("1.5e-2147483647")},
      {"1e2147483647", underflow},
      {"1e2147483646", overflow},
      {"1e126", overflow},
      {"10e125", overflow},
      {"1e-131", underflow},
      {"0.0001e-127", underflow},
      {"abc", Echo("abc")},
      {"1e125", ""},
      {"9.9e125", ""},
      {"1e-130", ""},
      {"12.50", ""},
  };
  for (const auto& c : cases) {
    Result<Number> r = Number::ParseAsBigDecimal(c.text);
    EXPECT_EQ(r.ok() ? "" : r.status().message(), c.want) << c.text;
    if (r.ok()) EXPECT_EQ(*r, *Number::Parse(c.text)) << c.text;
  }
  // The current layer range-checks an exponent that fits 64 bits.
  EXPECT_EQ(ParseError("1e2147483647"), overflow);
  EXPECT_EQ(ParseError("1e99999999999"), overflow);
}

TEST(CoreNumberParse, RejectsJunkEchoingTheText) {
  const char* rejected[] = {
      "NaN",   "nan",  "Infinity", "-Infinity", "inf",   "dog", " 1",  "1 ",  " ",
      "\t1",   "1\n",  "1e",       "1e+",       "1e-",   "e5",  "E5",  ".",   "+",
      "-",     "+.",   ".e1",      "1..2",      "1.2.3", "--1", "+-1", "-+1", "1e5.5",
      "1e1e1", "0x10", "1,000",    "1_000",     "1f",    "1d",  "1L",  "١",   "1e 5",
      "1 e5",  "1.e",  "0b1",      "e",         "++1",
  };
  for (const char* text : rejected) EXPECT_EQ(ParseError(text), Echo(text)) << text;
}

TEST(CoreNumberParse, ExponentPast64BitsCannotBeConverted) {
  EXPECT_EQ(ParseError("1e9223372036854775808"), Echo("1e9223372036854775808"));
  EXPECT_EQ(ParseError("1e-9223372036854775809"), Echo("1e-9223372036854775809"));
  EXPECT_EQ(ParseError("1e99999999999999999999"), Echo("1e99999999999999999999"));
  EXPECT_EQ(ParseError("0e9223372036854775808"), Echo("0e9223372036854775808"));
  // Exactly 64 bits still converts, and is then out of range.
  EXPECT_EQ(ParseError("1e9223372036854775807"), kOverflow);
  EXPECT_EQ(ParseError("1e-9223372036854775808"), kUnderflow);
  // Leading zeros do not count toward the width.
  EXPECT_EQ(ParseError("1e0000000000000000000000000000000000000000005"), "OK");
}

TEST(CoreNumberParse, ExponentPast32BitsIsOverflowOrUnderflow) {
  EXPECT_EQ(ParseError("1e99999999999"), kOverflow);
  EXPECT_EQ(ParseError("1e-99999999999"), kUnderflow);
  EXPECT_EQ(ParseError("1e2147483648"), kOverflow);
  EXPECT_EQ(ParseError("1e2147483647"), kOverflow);
  EXPECT_EQ(ParseError("1e-2147483648"), kUnderflow);
  EXPECT_EQ(ParseError("1e-2147483649"), kUnderflow);
  EXPECT_EQ(ParseError("-1e99999999999"), kOverflow);
  EXPECT_EQ(ParseError("0e99999999999"), kOverflow);
  EXPECT_EQ(ParseError("0e-99999999999"), kUnderflow);
  // Refused by its exponent before its digits are counted.
  EXPECT_EQ(ParseError("1234567890123456789012345678901234567890e99999999999"), kOverflow);
}

TEST(CoreNumberParse, ZeroIsRangeCheckedByTheExponentAsWritten) {
  EXPECT_EQ(ParseError("0e126"), kOverflow);
  EXPECT_EQ(ParseError("-0e126"), kOverflow);
  EXPECT_EQ(ParseError("0e-131"), kUnderflow);
  EXPECT_EQ(ParseError("0e125"), "OK");
  EXPECT_EQ(ParseError("0e-130"), "OK");
  EXPECT_EQ(ParseError("000e125"), "OK");  // leading zeros are not digits
  // Fraction digits lower the written exponent (BigDecimal's scale).
  EXPECT_EQ(ParseError("0.0e-130"), kUnderflow);
  EXPECT_EQ(ParseError("0.0e126"), "OK");
  EXPECT_TRUE(N("0e125").IsZero());
  EXPECT_FALSE(N("-0e125").IsNegative());
}

TEST(CoreNumberParse, MagnitudeBounds) {
  EXPECT_EQ(N(kMaxText).ToString(), std::string(38, '9') + Zeros(88));
  EXPECT_EQ(N("-" + kMaxText).ToString(), "-" + std::string(38, '9') + Zeros(88));
  EXPECT_EQ(ParseError("1e126"), kOverflow);
  EXPECT_EQ(ParseError("-1e126"), kOverflow);
  EXPECT_EQ(ParseError("10e125"), kOverflow);
  EXPECT_EQ(ParseError("1" + Zeros(126)), kOverflow);
  EXPECT_EQ(ParseError("1" + Zeros(125)), "OK");
  EXPECT_EQ(ParseError("1e-131"), kUnderflow);
  EXPECT_EQ(ParseError("-1e-131"), kUnderflow);
  EXPECT_EQ(ParseError("0.1e-130"), kUnderflow);
  EXPECT_EQ(ParseError("0." + Zeros(130) + "1"), kUnderflow);
  EXPECT_EQ(ParseError("0." + Zeros(129) + "1"), "OK");
  EXPECT_EQ(ParseError("9.99e-131"), kUnderflow);
  // 38 digits whose last one lies far below 1E-130 are fine: the range is the leading digit's.
  EXPECT_EQ(ParseError("1." + std::string(37, '1') + "e-130"), "OK");
  EXPECT_EQ(N("1e-130").exponent(), Number::kMinExponent);
  EXPECT_EQ(N(kMaxText).exponent(), Number::kMaxExponent);
}

TEST(CoreNumberParse, ThirtyEightSignificantDigits) {
  const std::string d38 = "12345678901234567890123456789012345678";
  EXPECT_EQ(N(d38).ToString(), d38);
  EXPECT_EQ(N(d38).digits(), d38);
  EXPECT_EQ(ParseError(d38 + "9"), kTooPrecise);
  EXPECT_EQ(ParseError("-" + d38 + "9"), kTooPrecise);
  EXPECT_EQ(ParseError("0." + d38 + "9"), kTooPrecise);
  // Leading and trailing zeros are not significant; interior ones are.
  EXPECT_EQ(N("000" + d38 + "000").ToString(), d38 + "000");
  EXPECT_EQ(N("0.000" + d38 + "000").ToString(), "0.000" + d38);
  EXPECT_EQ(ParseError("1" + Zeros(36) + "1"), "OK");         // 38 digits
  EXPECT_EQ(ParseError("1" + Zeros(37) + "1"), kTooPrecise);  // 39 digits
  EXPECT_EQ(ParseError("1." + Zeros(37) + "1"), kTooPrecise);
  // Digits are counted before the range is checked.
  EXPECT_EQ(ParseError(d38 + "9e200"), kTooPrecise);
  EXPECT_EQ(ParseError(d38 + "9e-300"), kTooPrecise);
}

TEST(CoreNumberParse, NormalizedParts) {
  Number n = N("-0042.1200e3");
  EXPECT_TRUE(n.IsNegative());
  EXPECT_EQ(n.digits(), "4212");
  EXPECT_EQ(n.exponent(), 4);
  EXPECT_EQ(N("0.00123").exponent(), -3);
  EXPECT_EQ(N("0.00123").digits(), "123");
  EXPECT_TRUE(Number().IsZero());
  EXPECT_EQ(Number().digits(), "");
  EXPECT_EQ(Number().exponent(), 0);
  EXPECT_EQ(N("-0"), Number());
}

// --- ToString ------------------------------------------------------------------------------

TEST(CoreNumberToString, CanonicalPlainNotation) {
  EXPECT_EQ(N("0042.1200").ToString(), "42.12");
  EXPECT_EQ(N("1E3").ToString(), "1000");
  EXPECT_EQ(N("-0.5").ToString(), "-0.5");
  EXPECT_EQ(N("-0").ToString(), "0");
  EXPECT_EQ(N("1E125").ToString(), "1" + Zeros(125));
  EXPECT_EQ(N("1E125").ToString().size(), 126u);
  EXPECT_EQ(N("12.5e1").ToString(), "125");
  EXPECT_EQ(N("12.5e0").ToString(), "12.5");
  EXPECT_EQ(N("1.25e1").ToString(), "12.5");
  EXPECT_EQ(N("100.5").ToString(), "100.5");
  EXPECT_EQ(N("-1e-2").ToString(), "-0.01");
  EXPECT_EQ(Number().ToString(), "0");
  // ToString parses back to the same Number.
  for (const char* text : {"42.12", "-0.001", "1e100", "-123.456e-50", "7"}) {
    EXPECT_EQ(N(N(text).ToString()), N(text)) << text;
  }
}

// --- Comparison ----------------------------------------------------------------------------

TEST(CoreNumberCompare, EqualSpellingsAreEqual) {
  EXPECT_EQ(N("1"), N("1.0"));
  EXPECT_EQ(N("1"), N("1e0"));
  EXPECT_EQ(N("1.0"), N("1e0"));
  EXPECT_EQ(N("100"), N("1e2"));
  EXPECT_EQ(N("0.01"), N("1e-2"));
  EXPECT_EQ(N("-0"), N("0"));
  EXPECT_EQ(N("0"), N("0.000e5"));
  EXPECT_EQ(N("1") <=> N("1.000"), std::strong_ordering::equal);
}

TEST(CoreNumberCompare, NumericOrder) {
  // Each strictly less than the next.
  const std::vector<std::string> ascending = {
      "-" + kMaxText, "-1e125",  "-1000", "-2",     "-1.25",  "-1.2", "-1", "-0.5",
      "-2e-130",      "-1e-130", "0",     "1e-130", "2e-130", "0.5",  "1",  "1.2",
      "1.25",         "2",       "1000",  "1e125",  kMaxText,
  };
  for (size_t i = 0; i < ascending.size(); ++i) {
    for (size_t j = 0; j < ascending.size(); ++j) {
      const auto expected = i <=> j;
      EXPECT_EQ(N(ascending[i]) <=> N(ascending[j]), expected)
          << ascending[i] << " vs " << ascending[j];
    }
  }
  EXPECT_LT(N("9.99"), N("10"));
  EXPECT_LT(N("-10"), N("-9.99"));
  EXPECT_LT(N("12345678901234567890123456789012345677"),
            N("1.2345678901234567890123456789012345678e37"));
}

// --- Arithmetic ----------------------------------------------------------------------------

// a op b, as canonical text or the error message.
std::string AddText(std::string_view a, std::string_view b) {
  Result<Number> r = Number::Add(N(a), N(b));
  return r.ok() ? r->ToString() : r.status().message();
}
std::string SubText(std::string_view a, std::string_view b) {
  Result<Number> r = Number::Subtract(N(a), N(b));
  return r.ok() ? r->ToString() : r.status().message();
}

TEST(CoreNumberArithmetic, Basics) {
  EXPECT_EQ(AddText("1", "2"), "3");
  EXPECT_EQ(AddText("999", "1"), "1000");                     // carry through every digit
  EXPECT_EQ(AddText("0.999", "0.001"), "1");                  // carry across the point
  EXPECT_EQ(AddText("9.99e124", "1e122"), "1" + Zeros(125));  // carry into the top exponent
  EXPECT_EQ(AddText("1.5", "-1.5"), "0");                     // cancellation
  EXPECT_EQ(SubText("5", "5"), "0");
  EXPECT_EQ(SubText("1e-130", "1e-130"), "0");
  EXPECT_EQ(AddText("-3", "5"), "2");
  EXPECT_EQ(AddText("3", "-5"), "-2");
  EXPECT_EQ(AddText("-3", "-5"), "-8");
  EXPECT_EQ(SubText("3", "5"), "-2");
  EXPECT_EQ(SubText("-3", "-5"), "2");
  EXPECT_EQ(SubText("-3", "5"), "-8");
  EXPECT_EQ(SubText("1", "0.0001"), "0.9999");  // borrow chain
  EXPECT_EQ(SubText("1000", "0.001"), "999.999");
  EXPECT_EQ(SubText("100", "99.99"), "0.01");
  EXPECT_EQ(AddText("0.1", "0.2"), "0.3");  // exact, no binary rounding
  EXPECT_EQ(AddText("12.5", "0"), "12.5");
  EXPECT_EQ(AddText("0", "-12.5"), "-12.5");
  EXPECT_EQ(SubText("0", "12.5"), "-12.5");
  EXPECT_EQ(SubText("0", "-12.5"), "12.5");
  EXPECT_EQ(SubText("0", "0"), "0");
  EXPECT_EQ(SubText("12.5", "0"), "12.5");
  EXPECT_FALSE(Number::Subtract(N("0"), N("0"))->IsNegative());
  EXPECT_FALSE(Number::Add(N("-1"), N("1"))->IsNegative());
}

TEST(CoreNumberArithmetic, ThirtyEightDigitLimit) {
  const std::string nines38(38, '9');
  EXPECT_EQ(AddText("1e50", "1"), kOverflow);         // would need 51 digits
  EXPECT_EQ(AddText(nines38, "1"), "1" + Zeros(38));  // 1 digit after the carry
  EXPECT_EQ(AddText(nines38, "0.1"), kOverflow);      // 39 digits
  EXPECT_EQ(SubText(nines38, "0.1"), kOverflow);
  EXPECT_EQ(AddText("1" + Zeros(37), "1"), "1" + Zeros(36) + "1");  // exactly 38 digits
  EXPECT_EQ(AddText("1" + Zeros(38), "1"), kOverflow);              // 39 digits
  EXPECT_EQ(AddText("1e125", "1e-130"), kOverflow);
  EXPECT_EQ(SubText("1e37", "1"), std::string(37, '9'));
}

TEST(CoreNumberArithmetic, RangeLimits) {
  EXPECT_EQ(AddText(kMaxText, "1e88"), kOverflow);  // exactly 1E126
  EXPECT_EQ(AddText(kMaxText, kMaxText), kOverflow);
  EXPECT_EQ(SubText("-" + kMaxText, kMaxText), kOverflow);
  EXPECT_EQ(AddText("5e125", "4.9e125"), std::string("99") + Zeros(124));
  EXPECT_EQ(AddText("5e125", "5e125"), kOverflow);
  EXPECT_EQ(SubText("1e-130", "1.1e-130"), kUnderflow);                   // -1E-131
  EXPECT_EQ(SubText("1." + Zeros(36) + "1e-130", "1e-130"), kUnderflow);  // 1E-167
  EXPECT_EQ(SubText("2e-130", "1e-130"), "0." + Zeros(129) + "1");
  EXPECT_EQ(AddText("-1e-130", "-1e-130"), "-0." + Zeros(129) + "2");
}

TEST(CoreNumberArithmetic, MatchesIntegerArithmeticAtManyScales) {
  std::mt19937_64 rng(20240601);
  std::uniform_int_distribution<int64_t> value(-(int64_t{1} << 60), int64_t{1} << 60);
  std::uniform_int_distribution<int> scale(-60, 60);
  for (int i = 0; i < 5000; ++i) {
    const int64_t a = value(rng) >> (rng() % 60);
    const int64_t b = value(rng) >> (rng() % 60);
    const std::string e = "e" + std::to_string(scale(rng));
    const Number na = N(std::to_string(a) + e);
    const Number nb = N(std::to_string(b) + e);
    Result<Number> sum = Number::Add(na, nb);
    Result<Number> diff = Number::Subtract(na, nb);
    ASSERT_TRUE(sum.ok() && diff.ok()) << a << e << " " << b << e;
    EXPECT_EQ(*sum, N(std::to_string(a + b) + e)) << a << " + " << b << e;
    EXPECT_EQ(*diff, N(std::to_string(a - b) + e)) << a << " - " << b << e;
    EXPECT_EQ(*Number::Subtract(*sum, nb), na);
  }
}

// --- Integers ------------------------------------------------------------------------------

TEST(CoreNumberInt, FromIntAndToInt64) {
  const int64_t values[] = {0,
                            1,
                            -1,
                            10,
                            120,
                            -120,
                            1000000,
                            123456789,
                            std::numeric_limits<int64_t>::max(),
                            std::numeric_limits<int64_t>::min(),
                            std::numeric_limits<int64_t>::min() + 1};
  for (int64_t v : values) {
    const Number n = Number::FromInt(v);
    EXPECT_EQ(n.ToString(), std::to_string(v));
    EXPECT_EQ(n, N(std::to_string(v)));
    int64_t out = 42;
    ASSERT_TRUE(n.ToInt64(&out)) << v;
    EXPECT_EQ(out, v);
  }
  EXPECT_EQ(Number::FromInt(120).digits(), "12");
  EXPECT_EQ(Number::FromInt(120).exponent(), 2);
  int64_t out = 7;
  EXPECT_FALSE(N("9223372036854775808").ToInt64(&out));
  EXPECT_FALSE(N("-9223372036854775809").ToInt64(&out));
  EXPECT_FALSE(N("1e19").ToInt64(&out));
  EXPECT_FALSE(N("1.5").ToInt64(&out));
  EXPECT_FALSE(N("1e-130").ToInt64(&out));
  EXPECT_EQ(out, 7);  // untouched on failure
  EXPECT_TRUE(N("1e18").ToInt64(&out));
  EXPECT_EQ(out, 1000000000000000000);
  EXPECT_TRUE(N("12.0").ToInt64(&out));
  EXPECT_EQ(out, 12);
}

// --- SizeBytes -----------------------------------------------------------------------------

TEST(CoreNumberSize, DigitPairsAlignedToThePoint) {
  struct Case {
    std::string text;
    size_t bytes;
  };
  const Case cases[] = {
      {"0", 1},
      {"-0", 1},
      {"1", 2},
      {"12", 2},
      {"123", 3},
      {"1234", 3},
      {"0042", 2},
      {"100", 2},
      {"1010", 3},
      {"12000", 3},
      {"123456", 4},
      {"0.0000001", 2},
      {"1E125", 2},
      {"1E-100", 2},
      {"1.5", 3},
      {"15", 2},
      {"1.2", 3},
      {"1.200", 3},
      {"1.234", 4},
      {"3.14159", 5},
      {"100.5", 4},
      {"0.15", 2},
      {"0.015", 3},
      {"-42", 3},
      {"-1", 3},
      {"1e-130", 2},
      {"1e-129", 2},
      {"1.1e-130", 3},
      {kMaxText, 20},
      {"12345678901234567890123456789012345678", 20},
      {"-12345678901234567890123456789012345678", 21},  // 19 pairs + terminator
      // 1 + 37 digits straddle the point: 20 pairs, so a negative gets no terminator.
      {"1.2345678901234567890123456789012345678", 21},
      {"-1.2345678901234567890123456789012345678", 21},
  };
  for (const Case& c : cases) EXPECT_EQ(N(c.text).SizeBytes(), c.bytes) << c.text;
}

// --- Key encoding --------------------------------------------------------------------------

TEST(CoreNumberKey, GrammarBytes) {
  EXPECT_EQ(Encode(N("0")), std::string("\x80", 1));
  EXPECT_EQ(Encode(N("1")), std::string("\xC0\x80\x00\x02\x00", 5));
  EXPECT_EQ(Encode(N("-1")), std::string("\x40\x7F\xFF\x09\xFF", 5));
  EXPECT_EQ(Encode(N("10.9")), std::string("\xC0\x80\x01\x02\x01\x0A\x00", 7));
  EXPECT_EQ(Encode(N("-0.09")), std::string("\x40\x80\x01\x01\xFF", 5));
  EXPECT_EQ(Encode(N("1e-130")), std::string("\xC0\x7F\x7E\x02\x00", 5));
  EXPECT_EQ(Encode(N("-1e125")), std::string("\x40\x7F\x82\x09\xFF", 5));
  EXPECT_EQ(Encode(N(kMaxText)).size(), 42u);
  EXPECT_EQ(Encode(N("-" + kMaxText)).size(), 42u);
  std::string out = "prefix";
  N("5").AppendKeyEncoding(&out);
  EXPECT_EQ(out, std::string("prefix\xC0\x80\x00\x06\x00", 11));
}

TEST(CoreNumberKey, DecodeRejectsMalformed) {
  const std::string bad[] = {
      std::string(""),
      std::string("\x00", 1),
      std::string("\x81", 1),
      std::string("\xC0", 1),
      std::string("\xC0\x80", 2),
      std::string("\xC0\x80\x00", 3),              // no digits, no terminator
      std::string("\xC0\x80\x00\x00", 4),          // no digits
      std::string("\xC0\x80\x00\x02", 4),          // no terminator
      std::string("\xC0\x80\x00\x01\x00", 5),      // leading zero digit
      std::string("\xC0\x80\x00\x02\x01\x00", 6),  // trailing zero digit
      std::string("\xC0\x80\x00\x0B\x00", 5),      // digit 11
      std::string("\xC0\x80\x00\x02\xFF", 5),      // wrong terminator
      std::string("\xC0\x80\x7E\x02\x00", 5),      // exponent 126
      std::string("\xC0\x7F\x7D\x02\x00", 5),      // exponent -131
      std::string("\x40\x7F\xFF\x0A\xFF", 5),      // negative leading zero digit
      std::string("\x40\x7F\xFF\x00\xFF", 5),      // ndigit 0
      std::string("\x40\x7F\xFF\x09\x00", 5),      // wrong terminator
      std::string("\x40\x7F\x81\x09\xFF", 5),      // exponent 126
      std::string("\xC0\x80\x00", 3) + std::string(39, '\x02') +
          std::string("\x00", 1),  // 39 digits
  };
  for (const std::string& b : bad) {
    std::string_view in = b;
    Number n;
    EXPECT_FALSE(Number::DecodeKeyEncoding(&in, &n)) << testing::PrintToString(b);
    EXPECT_EQ(in.size(), b.size());  // not advanced
  }
}

// A number to test the encoding with, and an order oracle that does not use Number: the
// magnitude written out on a fixed grid of powers 125 .. -167, behind a sign class byte
// ('0' negative, '1' zero, '2' positive); digits of a negative are complemented (9 - d).
struct Sample {
  std::string text;
  std::string oracle;
};

constexpr int kTopPower = 125;
constexpr int kBottomPower = -167;  // the last of 38 digits behind 1E-130

Sample MakeSample(bool negative, const std::string& digits, int exponent) {
  Sample s;
  if (digits.empty()) {
    s.text = "0";
    s.oracle = "1";
    return s;
  }
  s.text = (negative ? "-" : "") + digits.substr(0, 1) + "." + digits.substr(1) + "e" +
           std::to_string(exponent);
  std::string grid(kTopPower - kBottomPower + 1, '0');
  for (size_t k = 0; k < digits.size(); ++k) grid[kTopPower - exponent + k] = digits[k];
  if (negative) {
    for (char& c : grid) c = static_cast<char>('9' - (c - '0'));
  }
  s.oracle = (negative ? "0" : "2") + grid;
  return s;
}

// Random significant digits: 1..38 of them, no leading or trailing zero.
std::string RandomDigits(std::mt19937_64& rng) {
  const int n = 1 + static_cast<int>(rng() % 38);
  std::string d;
  for (int i = 0; i < n; ++i) d.push_back(static_cast<char>('0' + rng() % 10));
  if (d.front() == '0') d.front() = static_cast<char>('1' + rng() % 9);
  if (d.back() == '0') d.back() = static_cast<char>('1' + rng() % 9);
  return d;
}

std::vector<Sample> Samples() {
  std::vector<Sample> samples;
  const std::string nines38(38, '9');
  for (bool negative : {false, true}) {
    samples.push_back(MakeSample(negative, "1", -130));
    samples.push_back(MakeSample(negative, "2", -130));
    samples.push_back(MakeSample(negative, "1" + Zeros(36) + "1", -130));
    samples.push_back(MakeSample(negative, nines38, 125));
    samples.push_back(MakeSample(negative, "1", 125));
    samples.push_back(MakeSample(negative, "1", 0));
    samples.push_back(MakeSample(negative, "12", 0));
    samples.push_back(MakeSample(negative, "125", 0));
    samples.push_back(MakeSample(negative, "13", 0));
    samples.push_back(MakeSample(negative, "99", -1));
    samples.push_back(MakeSample(negative, "1" + Zeros(36) + "1", 0));
    samples.push_back(MakeSample(negative, "1" + Zeros(36) + "2", 0));
    samples.push_back(MakeSample(negative, nines38, 0));
    samples.push_back(MakeSample(negative, nines38.substr(0, 37), 0));
  }
  samples.push_back(MakeSample(false, "", 0));

  std::mt19937_64 rng(0x6B657968);  // fixed seed
  std::uniform_int_distribution<int> any_exponent(Number::kMinExponent, Number::kMaxExponent);
  for (int i = 0; i < 4000; ++i) {
    const bool negative = rng() % 2 == 0;
    // Half the exponents cluster near 0 so that many samples share a leading power.
    const int exponent = rng() % 2 ? any_exponent(rng) : static_cast<int>(rng() % 5) - 2;
    const std::string digits = RandomDigits(rng);
    samples.push_back(MakeSample(negative, digits, exponent));
    // Neighbours: the same digits but the last, and a prefix of them.
    std::string last = digits;
    last.back() = static_cast<char>('1' + rng() % 9);
    samples.push_back(MakeSample(negative, last, exponent));
    if (digits.size() > 1) {
      std::string prefix = digits.substr(0, 1 + rng() % (digits.size() - 1));
      while (prefix.back() == '0') prefix.pop_back();
      samples.push_back(MakeSample(negative, prefix, exponent));
    }
  }
  return samples;
}

int Sign(int c) { return (c > 0) - (c < 0); }

int MemCompare(const std::string& a, const std::string& b) {
  const int c = std::memcmp(a.data(), b.data(), std::min(a.size(), b.size()));
  if (c != 0) return Sign(c);
  return Sign(static_cast<int>(a.size()) - static_cast<int>(b.size()));
}

int OrderSign(std::strong_ordering o) { return o < 0 ? -1 : (o > 0 ? 1 : 0); }

TEST(CoreNumberKey, RoundTripsAndOrdersLikeTheNumbers) {
  std::vector<Sample> samples = Samples();
  ASSERT_GT(samples.size(), 9000u);
  std::vector<Number> numbers;
  std::vector<std::string> keys;
  for (const Sample& s : samples) {
    numbers.push_back(N(s.text));
    keys.push_back(Encode(numbers.back()));
    ASSERT_LE(keys.back().size(), 42u);
    std::string_view in = keys.back();
    Number back;
    ASSERT_TRUE(Number::DecodeKeyEncoding(&in, &back)) << s.text;
    EXPECT_TRUE(in.empty()) << s.text;
    EXPECT_EQ(back, numbers.back()) << s.text;
  }

  // Sorted by the oracle, every adjacent pair must order the same way by memcmp and by <=>.
  std::vector<size_t> order(samples.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return samples[a].oracle < samples[b].oracle; });
  for (size_t k = 0; k + 1 < order.size(); ++k) {
    const size_t a = order[k];
    const size_t b = order[k + 1];
    const int expected = samples[a].oracle.compare(samples[b].oracle) < 0 ? -1 : 0;
    ASSERT_EQ(MemCompare(keys[a], keys[b]), expected)
        << samples[a].text << " vs " << samples[b].text;
    ASSERT_EQ(OrderSign(numbers[a] <=> numbers[b]), expected)
        << samples[a].text << " vs " << samples[b].text;
  }

  // And random pairs, in both directions.
  std::mt19937_64 rng(7);
  for (int i = 0; i < 50000; ++i) {
    const size_t a = rng() % samples.size();
    const size_t b = rng() % samples.size();
    const int expected = Sign(samples[a].oracle.compare(samples[b].oracle));
    ASSERT_EQ(MemCompare(keys[a], keys[b]), expected)
        << samples[a].text << " vs " << samples[b].text;
    ASSERT_EQ(OrderSign(numbers[a] <=> numbers[b]), expected)
        << samples[a].text << " vs " << samples[b].text;
  }
}

TEST(CoreNumberKey, NoEncodingIsAPrefixOfAnother) {
  std::vector<std::string> keys;
  for (const Sample& s : Samples()) keys.push_back(Encode(N(s.text)));
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  // In sorted order, a key that prefixes any other also prefixes its immediate successor.
  for (size_t i = 0; i + 1 < keys.size(); ++i) {
    const std::string& a = keys[i];
    const std::string& b = keys[i + 1];
    ASSERT_FALSE(b.size() > a.size() && b.compare(0, a.size(), a) == 0)
        << testing::PrintToString(a) << " prefixes " << testing::PrintToString(b);
  }
}

TEST(CoreNumberKey, SelfDelimitingInAConcatenation) {
  const char* texts[] = {"0", "1", "-1", "1.25", "-1.2", "1e-130", "-1e125", "42", "0"};
  std::string buffer;
  for (const char* t : texts) N(t).AppendKeyEncoding(&buffer);
  buffer += "tail";
  std::string_view in = buffer;
  for (const char* t : texts) {
    Number n;
    ASSERT_TRUE(Number::DecodeKeyEncoding(&in, &n)) << t;
    EXPECT_EQ(n, N(t)) << t;
  }
  EXPECT_EQ(in, "tail");
}

}  // namespace
}  // namespace keyhole
