// Tests for core/item.h: DynamoDB's item size accounting and the value and item limits.
#include "core/item.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace keyhole {
namespace {

using AV = AttributeValue;

constexpr char kNesting[] =
    "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels "
    "beyond supported limit";

Number Num(std::string_view text) {
  Result<Number> r = Number::Parse(text);
  EXPECT_TRUE(r.ok()) << text;
  return r.ok() ? r.value() : Number();
}

AV N(std::string_view text) { return AV::N(Num(text)); }

AV NS(std::vector<std::string> texts) {
  std::vector<Number> members;
  for (const std::string& t : texts) members.push_back(Num(t));
  return AV::NS(std::move(members));
}

// The message of a non-OK status, or "OK".
std::string Message(const Status& s) { return s.ok() ? "OK" : s.message(); }

// `levels` containers around a scalar: maps keyed "m", or one-element lists.
AV Nest(int levels, bool lists, AV inner = AV::S("x")) {
  AV v = std::move(inner);
  for (int i = 0; i < levels; ++i) v = lists ? AV::L({v}) : AV::M({{"m", v}});
  return v;
}

// --- Size ----------------------------------------------------------------------------------

TEST(CoreItemSize, WorkedExample) {
  const Item item = {{"shirt-color", AV::S("R")}, {"shirt-size", AV::S("M")}};
  EXPECT_EQ(ItemSize(item), 23u);
}

TEST(CoreItemSize, Scalars) {
  EXPECT_EQ(ValueSize(AV::S("")), 0u);
  EXPECT_EQ(ValueSize(AV::S("abc")), 3u);
  EXPECT_EQ(ValueSize(AV::S("\xC3\xA9")), 2u);      // é: UTF-8 bytes, not characters
  EXPECT_EQ(ValueSize(AV::S("\xE2\x82\xAC")), 3u);  // €
  EXPECT_EQ(ValueSize(AV::B(std::string("\x00\xFF\x01", 3))), 3u);  // raw bytes
  EXPECT_EQ(ValueSize(AV::B("")), 0u);
  EXPECT_EQ(ValueSize(N("0")), 1u);
  EXPECT_EQ(ValueSize(N("12000")), 3u);
  EXPECT_EQ(ValueSize(N("3.14159")), 5u);
  EXPECT_EQ(ValueSize(N("-42")), 3u);
  EXPECT_EQ(ValueSize(AV::Bool(true)), 1u);
  EXPECT_EQ(ValueSize(AV::Bool(false)), 1u);
  EXPECT_EQ(ValueSize(AV::Null()), 1u);
}

TEST(CoreItemSize, SetsAreTheSumOfTheirMembers) {
  EXPECT_EQ(ValueSize(AV::SS({"a", "bc", ""})), 3u);
  EXPECT_EQ(ValueSize(AV::BS({"\x01", std::string("\x00\x00", 2)})), 3u);
  EXPECT_EQ(ValueSize(NS({"1", "123456", "-1"})), 2u + 4u + 3u);
}

TEST(CoreItemSize, ListsAndMapsCarryOverhead) {
  EXPECT_EQ(ValueSize(AV::L({})), 3u);
  EXPECT_EQ(ValueSize(AV::M({})), 3u);
  EXPECT_EQ(ValueSize(AV::L({AV::S("a"), N("1")})), 3u + (1 + 1) + (1 + 2));
  EXPECT_EQ(ValueSize(AV::M({{"k", AV::S("v")}})), 3u + 1 + 1 + 1);
  EXPECT_EQ(ValueSize(AV::M({{"", AV::Null()}})), 3u + 1 + 0 + 1);
  // {"m": {"l": [true]}}: inner list 3 + (1 + 1) = 5; map 3 + (1 + 1 + 5) = 10.
  const AV nested = AV::M({{"l", AV::L({AV::Bool(true)})}});
  EXPECT_EQ(ValueSize(nested), 10u);
  EXPECT_EQ(ItemSize({{"m", nested}}), 11u);
  // A list of maps of sets.
  const AV doc = AV::L({AV::M({{"ab", AV::SS({"x", "yz"})}}), AV::M({})});
  EXPECT_EQ(ValueSize(doc), 3u + (1 + (3 + 1 + 2 + 3)) + (1 + 3));
}

TEST(CoreItemSize, EmptyItem) { EXPECT_EQ(ItemSize({}), 0u); }

// --- ValidateValue: sets -------------------------------------------------------------------

TEST(CoreItemValidateValue, EmptySets) {
  EXPECT_EQ(Message(ValidateValue(AV::SS({}))),
            "One or more parameter values were invalid: An string set  may not be empty");
  EXPECT_EQ(Message(ValidateValue(AV::NS({}))),
            "One or more parameter values were invalid: An number set  may not be empty");
  EXPECT_EQ(Message(ValidateValue(AV::BS({}))),
            "One or more parameter values were invalid: Binary sets should not be empty");
  EXPECT_TRUE(ValidateValue(AV::SS({})).IsValidation());
}

TEST(CoreItemValidateValue, EmptyMembersAreAllowed) {
  EXPECT_TRUE(ValidateValue(AV::SS({""})).ok());
  EXPECT_TRUE(ValidateValue(AV::BS({""})).ok());
  EXPECT_TRUE(ValidateValue(AV::SS({"", "a"})).ok());
}

TEST(CoreItemValidateValue, DuplicateStrings) {
  EXPECT_EQ(Message(ValidateValue(AV::SS({"a", "a"}))),
            "One or more parameter values were invalid: Input collection [a, a] contains "
            "duplicates.");
  // The whole collection, in its stored (sorted) order.
  EXPECT_EQ(Message(ValidateValue(AV::SS({"b", "a", "c", "b"}))),
            "One or more parameter values were invalid: Input collection [a, b, b, c] contains "
            "duplicates.");
  EXPECT_EQ(Message(ValidateValue(AV::SS({"", ""}))),
            "One or more parameter values were invalid: Input collection [, ] contains "
            "duplicates.");
  EXPECT_TRUE(ValidateValue(AV::SS({"a", "A", "b"})).ok());
}

TEST(CoreItemValidateValue, DuplicateNumbersAreNumericallyEqual) {
  EXPECT_EQ(Message(ValidateValue(NS({"1", "1.0"}))),
            "One or more parameter values were invalid: Input collection [1, 1] contains "
            "duplicates.");
  EXPECT_EQ(Message(ValidateValue(NS({"2", "1.50", "15e-1"}))),
            "One or more parameter values were invalid: Input collection [1.5, 1.5, 2] contains "
            "duplicates.");
  EXPECT_EQ(Message(ValidateValue(NS({"-0", "0", "-1"}))),
            "One or more parameter values were invalid: Input collection [-1, 0, 0] contains "
            "duplicates.");
  EXPECT_TRUE(ValidateValue(NS({"1", "1.01", "-1"})).ok());
}

TEST(CoreItemValidateValue, DuplicateBinariesAreShownAsBase64) {
  EXPECT_EQ(
      Message(ValidateValue(AV::BS({std::string("\x00\x01", 2), std::string("\x00\x01", 2)}))),
      "One or more parameter values were invalid: Input collection [AAE=, AAE=]of type BS "
      "contains duplicates.");
  EXPECT_EQ(Message(ValidateValue(AV::BS({"abc", "ab", "abc", "a", ""}))),
            "One or more parameter values were invalid: Input collection [, YQ==, YWI=, YWJj, "
            "YWJj]of type BS contains duplicates.");
  EXPECT_TRUE(ValidateValue(AV::BS({"a", "b"})).ok());
}

TEST(CoreItemValidateValue, SetsInsideDocumentsAreChecked) {
  EXPECT_EQ(Message(ValidateValue(AV::M({{"k", AV::L({AV::SS({})})}}))),
            "One or more parameter values were invalid: An string set  may not be empty");
  EXPECT_EQ(Message(ValidateValue(AV::L({AV::S("ok"), AV::SS({"z", "z"})}))),
            "One or more parameter values were invalid: Input collection [z, z] contains "
            "duplicates.");
}

TEST(CoreItemValidateValue, ScalarsAndEmptyDocumentsAreFine) {
  EXPECT_TRUE(ValidateValue(AV::S("")).ok());
  EXPECT_TRUE(ValidateValue(AV::B("")).ok());
  EXPECT_TRUE(ValidateValue(N("0")).ok());
  EXPECT_TRUE(ValidateValue(AV::Bool(false)).ok());
  EXPECT_TRUE(ValidateValue(AV::Null()).ok());
  EXPECT_TRUE(ValidateValue(AV::L({})).ok());
  EXPECT_TRUE(ValidateValue(AV::M({})).ok());
  EXPECT_TRUE(ValidateValue(AV::M({{"", AV::S("empty key inside a map")}})).ok());
}

// --- ValidateValue: nesting ----------------------------------------------------------------

TEST(CoreItemValidateValue, ThirtyOneMapsAroundAScalarAreAccepted) {
  EXPECT_TRUE(ValidateValue(Nest(31, false)).ok());
  EXPECT_TRUE(ValidateItem({{"a", Nest(31, false)}}).ok());
}

TEST(CoreItemValidateValue, ThirtyTwoMapsAroundAScalarAreRejected) {
  EXPECT_EQ(Message(ValidateValue(Nest(32, false))), kNesting);
  EXPECT_EQ(Message(ValidateItem({{"a", Nest(32, false)}})), kNesting);
  EXPECT_TRUE(ValidateValue(Nest(32, false)).IsValidation());
}

TEST(CoreItemValidateValue, ListsCountLikeMaps) {
  EXPECT_TRUE(ValidateValue(Nest(31, true)).ok());
  EXPECT_EQ(Message(ValidateValue(Nest(32, true))), kNesting);
  // Alternating lists and maps.
  AV v = AV::S("x");
  for (int i = 0; i < 31; ++i) v = i % 2 ? AV::L({v}) : AV::M({{"k", v}});
  EXPECT_TRUE(ValidateValue(v).ok());
  EXPECT_EQ(Message(ValidateValue(AV::L({v}))), kNesting);
}

TEST(CoreItemValidateValue, InnermostEmptyContainerIsALevel) {
  EXPECT_TRUE(ValidateValue(Nest(31, false, AV::M({}))).ok());              // empty map at level 32
  EXPECT_EQ(Message(ValidateValue(Nest(32, false, AV::M({})))), kNesting);  // at 33
  EXPECT_TRUE(ValidateValue(Nest(31, true, AV::L({}))).ok());
  EXPECT_EQ(Message(ValidateValue(Nest(32, true, AV::L({})))), kNesting);
  // A set at level 32 is one value: its members are not a level.
  EXPECT_TRUE(ValidateValue(Nest(31, false, AV::SS({"a", "b"}))).ok());
}

TEST(CoreItemValidateValue, DepthArgumentIsTheLevelOfTheValue) {
  EXPECT_TRUE(ValidateValue(AV::S("x"), 32).ok());
  EXPECT_EQ(Message(ValidateValue(AV::S("x"), 33)), kNesting);
  EXPECT_TRUE(ValidateValue(Nest(1, false), 31).ok());
  EXPECT_EQ(Message(ValidateValue(Nest(1, false), 32)), kNesting);
}

TEST(CoreItemValidateValue, OnlyTheDeepBranchMatters) {
  const AV wide = AV::M({{"shallow", AV::S("x")}, {"deep", Nest(31, false)}});
  EXPECT_EQ(Message(ValidateValue(wide)), kNesting);  // "deep" puts a scalar at level 33
  const AV ok = AV::M({{"shallow", AV::S("x")}, {"deep", Nest(30, false)}});
  EXPECT_TRUE(ValidateValue(ok).ok());
}

// --- ValidateItem --------------------------------------------------------------------------

TEST(CoreItemValidateItem, AcceptsAnOrdinaryItem) {
  const Item item = {{"pk", AV::S("p")},
                     {"n", N("1.5")},
                     {"doc", AV::M({{"", AV::L({AV::Null(), AV::Bool(true)})}})},
                     {"tags", AV::SS({"a", "b"})}};
  EXPECT_TRUE(ValidateItem(item).ok());
  EXPECT_TRUE(ValidateItem({}).ok());
}

TEST(CoreItemValidateItem, EmptyTopLevelNameIsRejected) {
  EXPECT_EQ(Message(ValidateItem({{"", AV::S("v")}})),
            "One or more parameter values were invalid: Empty attribute name");
  EXPECT_TRUE(ValidateItem({{"", AV::S("v")}}).IsValidation());
}

TEST(CoreItemValidateItem, NameLength) {
  EXPECT_TRUE(ValidateItem({{std::string(65535, 'n'), AV::S("v")}}).ok());
  EXPECT_EQ(Message(ValidateItem({{std::string(65536, 'n'), AV::S("v")}})),
            "One or more parameter values were invalid: Attribute name is too large, must be "
            "less than 65536 bytes");
}

TEST(CoreItemValidateItem, ValuesAreValidated) {
  EXPECT_EQ(Message(ValidateItem({{"a", AV::S("ok")}, {"b", AV::NS({})}})),
            "One or more parameter values were invalid: An number set  may not be empty");
}

TEST(CoreItemValidateItem, SizeLimitIsInclusive) {
  // name "p" (1 byte) + a string value.
  EXPECT_TRUE(ValidateItem({{"p", AV::S(std::string(kMaxItemSize - 1, 'x'))}}).ok());
  EXPECT_EQ(Message(ValidateItem({{"p", AV::S(std::string(kMaxItemSize, 'x'))}})),
            "Item size has exceeded the maximum allowed size");
  // Counted as DynamoDB counts it: names, numbers by digit pairs, document overhead.
  Item item = {{"n", N("3.14159")}, {"m", AV::M({{"k", AV::B("bb")}})}};
  const size_t used = 1 + 5 + 1 + (3 + 1 + 1 + 2);
  EXPECT_EQ(ItemSize(item), used);
  item["p"] = AV::S(std::string(kMaxItemSize - used - 1, 'x'));
  EXPECT_EQ(ItemSize(item), kMaxItemSize);
  EXPECT_TRUE(ValidateItem(item).ok());
  item["p"] = AV::S(std::string(kMaxItemSize - used, 'x'));
  EXPECT_EQ(Message(ValidateItem(item)), "Item size has exceeded the maximum allowed size");
  // The hint gives the item's size and the fixes.
  EXPECT_EQ(ValidateItem(item).hint(),
            "the item is 409601 bytes (400.0 KB) with its attribute names; DynamoDB's limit is "
            "400 KB. Keep a large value in S3 and store its key, or split the item into several "
            "items of one item collection (same partition key, a sort key per part)");
}

}  // namespace
}  // namespace keyhole
