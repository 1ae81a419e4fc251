// Number: parsing, formatting, comparison, exact arithmetic, sizing and the key encoding
// (contract in number.h, rules in reference §1.2 and §1.9).
//
// No floating point anywhere. A value is a sign, its significant digits and the power of ten
// of the leading digit. Arithmetic lays both operands on one grid of powers of ten and works
// digit by digit; the grid is at most ~300 cells because exponents are bounded.
#include "core/number.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

namespace keyhole {

namespace {

constexpr std::string_view kNotNumeric = "The parameter cannot be converted to a numeric value";
constexpr std::string_view kTooPrecise =
    "Attempting to store more than 38 significant digits in a Number";
constexpr std::string_view kOverflow =
    "Number overflow. Attempting to store a number with magnitude larger than supported range";
constexpr std::string_view kUnderflow =
    "Number underflow. Attempting to store a number with magnitude smaller than supported range";

// Key encoding bytes; see the grammar in number.h.
constexpr uint8_t kZeroTag = 0x80;
constexpr uint8_t kPositiveTag = 0xC0;
constexpr uint8_t kNegativeTag = 0x40;
constexpr uint8_t kPositiveEnd = 0x00;
constexpr uint8_t kNegativeEnd = 0xFF;

Status Invalid(std::string_view message) { return Status::Validation(std::string(message)); }

// The "cannot be converted" error. DynamoDB echoes the text after ": ", an empty one too
// ("...numeric value: "); its older layer drops the colon for the empty string (`colon`).
Status NotNumeric(std::string_view text, bool colon = true) {
  if (text.empty() && !colon) return Invalid(kNotNumeric);
  std::string message(kNotNumeric);
  message += ": ";
  message += text;
  return Status::Validation(std::move(message));
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// The pieces of a syntactically valid literal.
struct Literal {
  bool negative = false;
  std::string_view int_digits;   // before the '.', may be empty
  std::string_view frac_digits;  // after the '.', may be empty (not both)
  int64_t exponent = 0;          // as written after the 'e'; 0 when absent
};

// Reads `[+-]?[0-9]+` into *out. False when malformed or outside int64 (leading zeros are
// fine: `1e007` is `1e7`).
bool ParseExponent(std::string_view s, int64_t* out) {
  bool negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s.empty()) return false;
  const uint64_t limit = negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
  uint64_t magnitude = 0;
  for (char c : s) {
    if (!IsDigit(c)) return false;
    const uint64_t d = static_cast<uint64_t>(c - '0');
    if (magnitude > (limit - d) / 10) return false;
    magnitude = magnitude * 10 + d;
  }
  // Conversion of an unsigned value to int64 is modular in C++20, so -2^63 comes out right.
  *out = negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
  return true;
}

// Splits `text` per Java BigDecimal's grammar, which DynamoDB follows:
//   [+-]? ( digits ( '.' digits? )? | '.' digits ) ( [eE] [+-]? digits )?
// ASCII only, no spaces. False when the text does not match or the exponent does not fit in
// 64 bits.
bool Lex(std::string_view text, Literal* lit) {
  const size_t n = text.size();
  size_t i = 0;
  if (i < n && (text[i] == '+' || text[i] == '-')) {
    lit->negative = text[i] == '-';
    ++i;
  }
  const size_t int_start = i;
  while (i < n && IsDigit(text[i])) ++i;
  lit->int_digits = text.substr(int_start, i - int_start);
  if (i < n && text[i] == '.') {
    const size_t frac_start = ++i;
    while (i < n && IsDigit(text[i])) ++i;
    lit->frac_digits = text.substr(frac_start, i - frac_start);
  }
  if (lit->int_digits.empty() && lit->frac_digits.empty()) return false;
  if (i < n && (text[i] == 'e' || text[i] == 'E')) {
    return ParseExponent(text.substr(i + 1), &lit->exponent);
  }
  return i == n;
}

// Zero is range-checked by the exponent it is written with (reference §1.2): `0e126` is an
// overflow and `0e-131` an underflow. That exponent is BigDecimal's -scale, i.e. the written
// exponent minus the count of fraction digits, so `0.0e-130` is an underflow too.
Result<Number> CheckZero(int64_t exponent) {
  if (exponent > Number::kMaxExponent) return Invalid(kOverflow);
  if (exponent < Number::kMinExponent) return Invalid(kUnderflow);
  return Number();
}

// floor(p / 2): the index of the base-100 digit pair holding the decimal digit of 10^p.
int PairIndex(int p) { return p >= 0 ? p / 2 : -((1 - p) / 2); }

// Digits of a magnitude, least significant first, on the grid of powers [low, low + width):
// cell i holds the digit of 10^(low + i).
using Grid = std::vector<uint8_t>;

Grid Spread(const std::string& digits, int exponent, int low, int width) {
  Grid grid(width, 0);
  for (size_t k = 0; k < digits.size(); ++k) {
    grid[exponent - static_cast<int>(k) - low] = static_cast<uint8_t>(digits[k] - '0');
  }
  return grid;
}

// *x += y. REQUIRES: same width and the top cell of both free to take the last carry.
void AddGrid(Grid* x, const Grid& y) {
  uint8_t carry = 0;
  for (size_t i = 0; i < x->size(); ++i) {
    const uint8_t s = (*x)[i] + y[i] + carry;
    (*x)[i] = s % 10;
    carry = s / 10;
  }
}

// *x -= y. REQUIRES: same width and *x >= y.
void SubtractGrid(Grid* x, const Grid& y) {
  int borrow = 0;
  for (size_t i = 0; i < x->size(); ++i) {
    int d = (*x)[i] - y[i] - borrow;
    borrow = d < 0 ? 1 : 0;
    (*x)[i] = static_cast<uint8_t>(d + 10 * borrow);
  }
}

// Reads a non-zero grid back: the power of its leading digit and its significant digits.
void TrimGrid(const Grid& grid, int low, int64_t* exponent, std::string* digits) {
  size_t top = grid.size() - 1;
  while (grid[top] == 0) --top;
  size_t bottom = 0;
  while (grid[bottom] == 0) ++bottom;
  *exponent = low + static_cast<int64_t>(top);
  digits->clear();
  for (size_t i = top + 1; i-- > bottom;) digits->push_back(static_cast<char>('0' + grid[i]));
}

// -1, 0 or 1.
int Sign(const Number& x) { return x.IsZero() ? 0 : (x.IsNegative() ? -1 : 1); }

}  // namespace

Result<Number> Number::Make(bool negative, int64_t exponent, std::string digits,
                            std::string_view too_many_digits) {
  if (digits.size() > static_cast<size_t>(kMaxDigits)) return Invalid(too_many_digits);
  if (exponent > kMaxExponent) return Invalid(kOverflow);
  if (exponent < kMinExponent) return Invalid(kUnderflow);
  return Number(negative, static_cast<int32_t>(exponent), std::move(digits));
}

// Order of checks: syntax (and an exponent past 64 bits) -> an exponent past 32 bits, reported
// as overflow/underflow by its sign before anything else (AWS refuses it while reading the
// literal) -> more than 38 significant digits -> the range of the leading digit's power, as
// DynamoDB Local does (reference §1.2).
Result<Number> Number::Parse(std::string_view text) {
  Literal lit;
  if (!Lex(text, &lit)) return NotNumeric(text);
  if (lit.exponent > std::numeric_limits<int32_t>::max()) return Invalid(kOverflow);
  if (lit.exponent < std::numeric_limits<int32_t>::min()) return Invalid(kUnderflow);

  std::string all;
  all.reserve(lit.int_digits.size() + lit.frac_digits.size());
  all.append(lit.int_digits);
  all.append(lit.frac_digits);
  const size_t first = all.find_first_not_of('0');
  if (first == std::string::npos) {
    return CheckZero(lit.exponent - static_cast<int64_t>(lit.frac_digits.size()));
  }
  const size_t last = all.find_last_not_of('0');
  // The digit at index k of `all` has power (int_digits - 1 - k) + exponent.
  const int64_t exponent =
      static_cast<int64_t>(lit.int_digits.size()) - 1 - static_cast<int64_t>(first) + lit.exponent;
  return Make(lit.negative, exponent, all.substr(first, last - first + 1), kTooPrecise);
}

Result<Number> Number::ParseAsBigDecimal(std::string_view text) {
  Literal lit;
  if (!Lex(text, &lit)) return NotNumeric(text, /*colon=*/false);
  constexpr int64_t kMin = std::numeric_limits<int32_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int32_t>::max();
  // BigDecimal(String): the exponent must fit an int, and so must the scale.
  if (lit.exponent < kMin || lit.exponent > kMax) return NotNumeric(text);
  const int64_t scale = static_cast<int64_t>(lit.frac_digits.size()) - lit.exponent;
  if (scale < kMin || scale > kMax) return NotNumeric(text);
  // The unscaled value's digits (leading zeros dropped, trailing ones kept): its precision.
  std::string all;
  all.append(lit.int_digits);
  all.append(lit.frac_digits);
  const size_t first = all.find_first_not_of('0');
  const int64_t precision =
      first == std::string::npos ? 1 : static_cast<int64_t>(all.size() - first);
  // precision - scale as an int: 10^(that - 1) is the leading digit's power. It wraps past
  // int32, as DynamoDB's does.
  const auto power = static_cast<int32_t>(static_cast<uint32_t>(precision - scale));
  if (power > kMaxExponent + 1) return Invalid(kOverflow);
  if (power < kMinExponent + 1) return Invalid(kUnderflow);
  return Parse(text);
}

Number Number::FromInt(int64_t v) {
  if (v == 0) return Number();
  // Negating in unsigned arithmetic keeps INT64_MIN defined.
  const uint64_t magnitude = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  std::string digits = std::to_string(magnitude);
  const auto exponent = static_cast<int32_t>(digits.size() - 1);
  digits.erase(digits.find_last_not_of('0') + 1);
  return Number(v < 0, exponent, std::move(digits));
}

std::string Number::ToString() const {
  if (IsZero()) return "0";
  std::string out;
  if (negative_) out += '-';
  const auto n = static_cast<int>(digits_.size());
  if (exponent_ < 0) {  // 0.000ddd
    out += "0.";
    out.append(-exponent_ - 1, '0');
    out += digits_;
  } else if (exponent_ + 1 >= n) {  // ddd000
    out += digits_;
    out.append(exponent_ + 1 - n, '0');
  } else {  // dd.ddd
    out.append(digits_, 0, exponent_ + 1);
    out += '.';
    out.append(digits_, exponent_ + 1);
  }
  return out;
}

bool Number::ToInt64(int64_t* out) const {
  if (IsZero()) {
    *out = 0;
    return true;
  }
  const auto n = static_cast<int>(digits_.size());
  if (exponent_ - n + 1 < 0) return false;  // has a fraction
  if (exponent_ > 18) return false;         // >= 1e19, past int64
  uint64_t magnitude = 0;                   // < 1e19 < 2^64: cannot wrap
  for (int k = 0; k <= exponent_; ++k) {
    magnitude = magnitude * 10 + (k < n ? static_cast<uint64_t>(digits_[k] - '0') : 0);
  }
  const uint64_t limit = negative_ ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
  if (magnitude > limit) return false;
  *out = negative_ ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
  return true;
}

int Number::CompareMagnitude(const Number& a, const Number& b) {
  if (a.IsZero() || b.IsZero()) return (a.IsZero() ? 0 : 1) - (b.IsZero() ? 0 : 1);
  if (a.exponent_ != b.exponent_) return a.exponent_ < b.exponent_ ? -1 : 1;
  // Same leading power: digit strings compare like the values, since neither has trailing
  // zeros (a proper prefix is the smaller: 1.2 < 1.25).
  return a.digits_.compare(b.digits_);
}

std::strong_ordering Number::operator<=>(const Number& other) const {
  const int sa = Sign(*this);
  const int sb = Sign(other);
  if (sa != sb || sa == 0) return sa <=> sb;
  const int m = CompareMagnitude(*this, other);
  return sa > 0 ? m <=> 0 : 0 <=> m;
}

Result<Number> Number::Add(const Number& a, const Number& b) { return Sum(a, b, false); }

Result<Number> Number::Subtract(const Number& a, const Number& b) { return Sum(a, b, true); }

// A result that needs more than 38 digits is refused with the overflow text, as AWS does
// (`1e50 + 1`); a result out of range with the overflow/underflow text.
Result<Number> Number::Sum(const Number& a, const Number& b, bool negate_b) {
  const bool b_negative = b.negative_ != negate_b;
  if (b.IsZero()) return a;
  if (a.IsZero()) return Number(b_negative, b.exponent_, b.digits_);

  const int low = std::min(a.exponent_ - static_cast<int>(a.digits_.size()) + 1,
                           b.exponent_ - static_cast<int>(b.digits_.size()) + 1);
  const int high = std::max(a.exponent_, b.exponent_) + 1;  // one cell for a carry
  const int width = high - low + 1;
  Grid x = Spread(a.digits_, a.exponent_, low, width);
  Grid y = Spread(b.digits_, b.exponent_, low, width);

  bool negative = a.negative_;
  if (a.negative_ == b_negative) {
    AddGrid(&x, y);
  } else {
    const int m = CompareMagnitude(a, b);
    if (m == 0) return Number();
    if (m < 0) {  // |a| < |b|: the result takes b's sign
      std::swap(x, y);
      negative = b_negative;
    }
    SubtractGrid(&x, y);
  }
  int64_t exponent = 0;
  std::string digits;
  TrimGrid(x, low, &exponent, &digits);
  return Make(negative, exponent, std::move(digits), kOverflow);
}

// Digit pairs aligned to the decimal point (base-100 digits), from the pair holding the
// leading digit to the pair holding the last one. A negative value has a terminator byte
// unless it has the full 20 pairs (DynamoDB Local's encodeBigDecimal).
size_t Number::SizeBytes() const {
  if (IsZero()) return 1;
  const int lowest = exponent_ - static_cast<int>(digits_.size()) + 1;
  const int pairs = PairIndex(exponent_) - PairIndex(lowest) + 1;
  return 1 + static_cast<size_t>(pairs) + (negative_ && pairs < 20 ? 1 : 0);
}

void Number::AppendKeyEncoding(std::string* out) const {
  if (IsZero()) {
    out->push_back(static_cast<char>(kZeroTag));
    return;
  }
  const auto e = static_cast<uint16_t>(negative_ ? 0x7FFF - exponent_ : exponent_ + 0x8000);
  out->push_back(static_cast<char>(negative_ ? kNegativeTag : kPositiveTag));
  out->push_back(static_cast<char>(e >> 8));
  out->push_back(static_cast<char>(e & 0xFF));
  for (char c : digits_) {
    const int d = c - '0';
    out->push_back(static_cast<char>(negative_ ? 10 - d : d + 1));
  }
  out->push_back(static_cast<char>(negative_ ? kNegativeEnd : kPositiveEnd));
}

bool Number::DecodeKeyEncoding(std::string_view* in, Number* out) {
  const std::string_view from = *in;
  if (!SkipKeyEncoding(in)) return false;
  const size_t length = from.size() - in->size();
  if (length == 1) {  // zero
    *out = Number();
    return true;
  }
  // SkipKeyEncoding checked the tag, the exponent and every digit byte: convert them straight
  // into *out's own string (a decoded small number allocates nothing).
  const bool negative = static_cast<uint8_t>(from[0]) == kNegativeTag;
  const int raw = (static_cast<uint8_t>(from[1]) << 8) | static_cast<uint8_t>(from[2]);
  out->negative_ = negative;
  out->exponent_ = negative ? 0x7FFF - raw : raw - 0x8000;
  const size_t n = length - 4;  // tag, exponent, terminator
  out->digits_.resize(n);
  const auto* bytes = reinterpret_cast<const uint8_t*>(from.data()) + 3;
  char* digits = out->digits_.data();
  if (negative) {
    for (size_t i = 0; i < n; ++i) digits[i] = static_cast<char>('0' + 10 - bytes[i]);
  } else {
    for (size_t i = 0; i < n; ++i) digits[i] = static_cast<char>('0' - 1 + bytes[i]);
  }
  return true;
}

// Accepts only what AppendKeyEncoding writes: a known tag, an exponent in range, 1 to 38
// digit bytes in 1..10 without a leading or trailing zero digit (byte 1 when positive, 10 when
// negative), and the terminator.
bool Number::SkipKeyEncoding(std::string_view* in) {
  if (in->empty()) return false;
  const auto tag = static_cast<uint8_t>((*in)[0]);
  if (tag == kZeroTag) {
    in->remove_prefix(1);
    return true;
  }
  if ((tag != kPositiveTag && tag != kNegativeTag) || in->size() < 3) return false;
  const bool negative = tag == kNegativeTag;
  const int raw = (static_cast<uint8_t>((*in)[1]) << 8) | static_cast<uint8_t>((*in)[2]);
  const int exponent = negative ? 0x7FFF - raw : raw - 0x8000;
  if (exponent > kMaxExponent || exponent < kMinExponent) return false;
  const uint8_t end = negative ? kNegativeEnd : kPositiveEnd;
  const uint8_t zero = negative ? 10 : 1;
  const auto* bytes = reinterpret_cast<const uint8_t*>(in->data()) + 3;
  const size_t limit = std::min(in->size() - 3, static_cast<size_t>(kMaxDigits) + 1);
  size_t n = 0;
  while (n < limit && static_cast<uint8_t>(bytes[n] - 1) < 10) ++n;  // bytes 1..10
  if (n == 0 || n > static_cast<size_t>(kMaxDigits) || n == in->size() - 3 || bytes[n] != end ||
      bytes[0] == zero || bytes[n - 1] == zero) {
    return false;
  }
  in->remove_prefix(3 + n + 1);
  return true;
}

}  // namespace keyhole
