// Number: DynamoDB's exact decimal number (reference §1.2). Never a double.
//
// A Number holds up to 38 significant decimal digits and a magnitude in [1E-130, 1E+126), or
// zero. It is kept normalized: sign, the significant digits without leading or trailing zeros,
// and the power of ten of the leading digit. Two Numbers that are numerically equal
// (`1`, `1.0`, `1e0`) are identical objects, so == and ordering are numeric.
#pragma once

#include <compare>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "core/status.h"

namespace keyhole {

class Number {
 public:
  static constexpr int kMaxDigits = 38;
  static constexpr int kMaxExponent = 125;   // largest power of ten of the leading digit
  static constexpr int kMinExponent = -130;  // smallest

  Number() = default;  // zero

  // Parses every spelling DynamoDB accepts: optional sign, digits with an optional '.', an
  // optional exponent (`+3`, `.123`, `0001.23`, `1e+5`, `-17.4E37`). Returns
  // ValidationException with DynamoDB's texts:
  //  - "The parameter cannot be converted to a numeric value: <text>" (spaces, NaN, Infinity,
  //    junk, an exponent past 64 bits); for the empty string "...numeric value: ", the colon and
  //    space kept (DynamoDB's current validation layer; ParseAsBigDecimal drops them);
  //  - "Attempting to store more than 38 significant digits in a Number";
  //  - "Number overflow. Attempting to store a number with magnitude larger than supported
  //    range" (also an exponent past 32 bits, and `0e126`: zero is checked as written);
  //  - "Number underflow. Attempting to store a number with magnitude smaller than supported
  //    range".
  static Result<Number> Parse(std::string_view text);
  // Parses `text` as DynamoDB's older validation layer and its PartiQL parameters read numbers,
  // through Java's BigDecimal (the Parity Suite's valueLayers and partiqlParameterNumbers
  // captures, October 2026): an exponent outside int32, or a scale (fraction digits minus the
  // exponent) outside it, cannot be converted ("...numeric value: 1e2147483648"); the decimal
  // exponent is then precision - scale in int32 arithmetic, which wraps (`1e2147483647` is an
  // underflow); the empty string is "...numeric value" with no colon. Otherwise as Parse.
  static Result<Number> ParseAsBigDecimal(std::string_view text);
  static Number FromInt(int64_t v);

  // Canonical plain notation, no exponent: `0042.1200` -> "42.12", `1E3` -> "1000",
  // `-0.5` -> "-0.5", zero -> "0".
  std::string ToString() const;

  bool IsZero() const { return digits_.empty(); }
  bool IsNegative() const { return negative_; }
  // True when the value is a whole number that fits in an int64, and then sets *out; false
  // (and *out untouched) for a fraction or a whole number out of int64 range.
  bool ToInt64(int64_t* out) const;

  // Numeric comparison.
  std::strong_ordering operator<=>(const Number& other) const;
  bool operator==(const Number& other) const = default;

  // Exact a+b / a-b. ValidationException with the overflow/underflow texts above when the
  // result is out of range, and the overflow text when it needs more than 38 digits
  // (`1e50 + 1`), as DynamoDB reports it.
  static Result<Number> Add(const Number& a, const Number& b);
  static Result<Number> Subtract(const Number& a, const Number& b);

  // The size DynamoDB counts for this number in an item (reference §1.9): 1 for zero, else
  // 1 + digit pairs aligned to the decimal point (+1 for a negative with fewer than 20 pairs).
  size_t SizeBytes() const;

  // Appends an order-preserving, self-delimiting encoding (at most 42 bytes): memcmp order of
  // encodings equals numeric order, and no encoding is a prefix of another. Grammar:
  //   zero     := 0x80
  //   positive := 0xC0 BE16(exponent + 0x8000) digit*  0x00     digit := d + 1   (1..10)
  //   negative := 0x40 BE16(0x7FFF - exponent) ndigit* 0xFF     ndigit := 10 - d (0..9 → 10..1)
  // DO NOT CHANGE: it is stored in LMDB keys and item values.
  void AppendKeyEncoding(std::string* out) const;
  // Decodes one encoding from the front of *in and advances it. False on malformed input.
  static bool DecodeKeyEncoding(std::string_view* in, Number* out);
  // Checks and steps over one encoding as DecodeKeyEncoding would read it, building nothing:
  // false exactly when DecodeKeyEncoding would fail.
  static bool SkipKeyEncoding(std::string_view* in);

  // Normalized parts (for tests and codecs): digits are ASCII, no leading/trailing '0'.
  const std::string& digits() const { return digits_; }
  int exponent() const { return exponent_; }

 private:
  Number(bool negative, int32_t exponent, std::string digits)
      : negative_(negative), exponent_(exponent), digits_(std::move(digits)) {}
  // Checks the range of a non-zero value given by its sign, the power of ten of its leading
  // digit and its significant digits (no leading/trailing '0'); `too_many_digits` is the
  // message when there are more than 38 digits. Returns the Number or ValidationException.
  static Result<Number> Make(bool negative, int64_t exponent, std::string digits,
                             std::string_view too_many_digits);
  // a + b when negate_b is false, a - b when it is true.
  static Result<Number> Sum(const Number& a, const Number& b, bool negate_b);
  // Compares |a| and |b|: <0, 0 or >0.
  static int CompareMagnitude(const Number& a, const Number& b);

  bool negative_ = false;
  int32_t exponent_ = 0;  // power of ten of the leading digit; 0 for zero
  std::string digits_;    // empty for zero
};

}  // namespace keyhole
