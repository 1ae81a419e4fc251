// Tests for core/expression.h helpers and core/evaluate.h: condition validation and
// evaluation, key conditions, projections and updates. ASTs are built directly (no parser).
#include "core/evaluate.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/expression.h"

namespace keyhole::expr {
namespace {

// ---------------------------------------------------------------------------------------------
// Builders

AttributeValue S(std::string s) { return AttributeValue::S(std::move(s)); }
AttributeValue B(std::string b) { return AttributeValue::B(std::move(b)); }
AttributeValue Bool(bool b) { return AttributeValue::Bool(b); }
AttributeValue Null() { return AttributeValue::Null(); }
AttributeValue L(List l) { return AttributeValue::L(std::move(l)); }
AttributeValue M(Map m) { return AttributeValue::M(std::move(m)); }
AttributeValue SS(std::vector<std::string> v) { return AttributeValue::SS(std::move(v)); }
AttributeValue BS(std::vector<std::string> v) { return AttributeValue::BS(std::move(v)); }

Number Num(std::string_view text) {
  Result<Number> n = Number::Parse(text);
  EXPECT_TRUE(n.ok()) << text;
  return n.ok() ? n.value() : Number();
}
AttributeValue N(std::string_view text) { return AttributeValue::N(Num(text)); }
AttributeValue NS(std::vector<std::string_view> texts) {
  std::vector<Number> v;
  for (std::string_view t : texts) v.push_back(Num(t));
  return AttributeValue::NS(std::move(v));
}

// "a.b[2].c" -> [a, b, [2], c]. Test-only syntax: names are split at '.', indexes in [].
Path P(std::string_view text) {
  Path p;
  std::string name;
  auto flush = [&] {
    if (!name.empty()) p.elements.push_back(PathElement{name, 0, false});
    name.clear();
  };
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '.') {
      flush();
    } else if (text[i] == '[') {
      flush();
      size_t close = text.find(']', i);
      p.elements.push_back(
          PathElement{"", std::stoll(std::string(text.substr(i + 1, close - i - 1))), true});
      i = close;
    } else {
      name += text[i];
    }
  }
  flush();
  return p;
}

Operand Pa(std::string_view text) { return Operand::MakePath(P(text)); }
Operand V(AttributeValue v) { return Operand::MakeValue(std::move(v)); }
Operand Fn(std::string name, std::vector<Operand> args) {
  Operand o;
  o.kind = OperandKind::kFunction;
  o.function = std::move(name);
  o.args = std::move(args);
  return o;
}
// name(first..., inner): builds deep nestings by moving `inner` (a braced list would copy it).
Operand Nest(std::string name, Operand inner, std::vector<Operand> first = {}) {
  Operand o = Fn(std::move(name), std::move(first));
  o.args.push_back(std::move(inner));
  return o;
}
Operand Arith(OperandKind kind, Operand a, Operand b) {
  Operand o;
  o.kind = kind;
  o.args = {std::move(a), std::move(b)};
  return o;
}
Operand Plus(Operand a, Operand b) { return Arith(OperandKind::kPlus, std::move(a), std::move(b)); }
Operand Minus(Operand a, Operand b) {
  return Arith(OperandKind::kMinus, std::move(a), std::move(b));
}

Condition Cmp(Operand a, CompareOp op, Operand b) {
  Condition c;
  c.kind = ConditionKind::kCompare;
  c.op = op;
  c.operands = {std::move(a), std::move(b)};
  return c;
}
Condition Eq(Operand a, Operand b) { return Cmp(std::move(a), CompareOp::kEq, std::move(b)); }
Condition Between(Operand x, Operand lo, Operand hi) {
  Condition c;
  c.kind = ConditionKind::kBetween;
  c.operands = {std::move(x), std::move(lo), std::move(hi)};
  return c;
}
Condition In(Operand x, std::vector<Operand> list) {
  Condition c;
  c.kind = ConditionKind::kIn;
  c.operands.push_back(std::move(x));
  for (Operand& o : list) c.operands.push_back(std::move(o));
  return c;
}
Condition Func(std::string name, std::vector<Operand> operands) {
  Condition c;
  c.kind = ConditionKind::kFunction;
  c.function = std::move(name);
  c.operands = std::move(operands);
  return c;
}
Condition Logical(ConditionKind kind, std::vector<Condition> children) {
  Condition c;
  c.kind = kind;
  c.children = std::move(children);
  return c;
}
Condition And(std::vector<Condition> children) {
  return Logical(ConditionKind::kAnd, std::move(children));
}
Condition Or(std::vector<Condition> children) {
  return Logical(ConditionKind::kOr, std::move(children));
}
Condition Not(Condition child) {
  Condition c;
  c.kind = ConditionKind::kNot;
  c.children.push_back(std::move(child));  // moved, not copied: deep chains stay linear
  return c;
}
Condition Parens2(Condition c) {
  c.redundant_parentheses = true;
  return c;
}

UpdateAction Action(UpdateActionKind kind, std::string_view path, Operand value = Operand()) {
  UpdateAction a;
  a.kind = kind;
  a.path = P(path);
  a.value = std::move(value);
  return a;
}
UpdateAction Set(std::string_view path, Operand value) {
  return Action(UpdateActionKind::kSet, path, std::move(value));
}
UpdateAction Remove(std::string_view path) { return Action(UpdateActionKind::kRemove, path); }
UpdateAction Add(std::string_view path, AttributeValue v) {
  return Action(UpdateActionKind::kAdd, path, V(std::move(v)));
}
UpdateAction Delete(std::string_view path, AttributeValue v) {
  return Action(UpdateActionKind::kDelete, path, V(std::move(v)));
}
UpdateExpression Update(std::vector<UpdateAction> actions) {
  return UpdateExpression{std::move(actions)};
}

// A Status as text: "OK" or its message.
std::string Text(const Status& s) { return s.ok() ? "OK" : s.message(); }

std::string CondError(const Condition& c, Kind kind = Kind::kCondition) {
  Status s = ValidateCondition(c, kind);
  EXPECT_TRUE(s.ok() || s.IsValidation()) << s.ToString();
  return Text(s);
}

// The item most evaluation tests read.
Item Sample() {
  return Item{
      {"pk", S("p1")},
      {"s", S("hello")},
      {"u", S("h\xC3\xA9llo\xF0\x9F\x98\x80")},  // "héllo😀": 6 characters, 10 bytes
      {"n", N("5")},
      {"b", B(std::string("\x01\x02\x03", 3))},
      {"t", Bool(true)},
      {"nul", Null()},
      {"ss", SS({"a", "b"})},
      {"ns", NS({"1", "2", "3"})},
      {"bs", BS({std::string("\x01", 1), std::string("\x02", 1)})},
      {"l", L({N("1"), S("x"), M({})})},
      {"m", M({{"k", S("v")}, {"n", M({{"deep", N("1")}})}})},
  };
}

bool Eval(const Condition& c) {
  EXPECT_EQ(Text(ValidateCondition(c, Kind::kCondition)), "OK");
  return Evaluate(c, Sample());
}

// ---------------------------------------------------------------------------------------------
// expression.h helpers

TEST(CoreEvaluateExpressionTest, KindNamesAndPrefixes) {
  EXPECT_EQ(KindName(Kind::kCondition), "ConditionExpression");
  EXPECT_EQ(KindName(Kind::kFilter), "FilterExpression");
  EXPECT_EQ(KindName(Kind::kKeyCondition), "KeyConditionExpression");
  EXPECT_EQ(KindName(Kind::kProjection), "ProjectionExpression");
  EXPECT_EQ(KindName(Kind::kUpdate), "UpdateExpression");
  EXPECT_EQ(ErrorPrefix(Kind::kCondition), "Invalid ConditionExpression: ");
  EXPECT_EQ(ErrorPrefix(Kind::kUpdate), "Invalid UpdateExpression: ");
}

TEST(CoreEvaluateExpressionTest, PathRender) {
  EXPECT_EQ(P("a.b[2].c").Render(), "[a, b, [2], c]");
  EXPECT_EQ(P("a").Render(), "[a]");
  EXPECT_EQ(P("a[0][1]").Render(), "[a, [0], [1]]");
}

TEST(CoreEvaluateExpressionTest, CompareOpTextAndFactories) {
  EXPECT_EQ(CompareOpText(CompareOp::kEq), "=");
  EXPECT_EQ(CompareOpText(CompareOp::kNe), "<>");
  EXPECT_EQ(CompareOpText(CompareOp::kLt), "<");
  EXPECT_EQ(CompareOpText(CompareOp::kLe), "<=");
  EXPECT_EQ(CompareOpText(CompareOp::kGt), ">");
  EXPECT_EQ(CompareOpText(CompareOp::kGe), ">=");
  Operand p = Operand::MakePath(P("a.b"), 7);
  EXPECT_EQ(p.kind, OperandKind::kPath);
  EXPECT_EQ(p.path, P("a.b"));
  EXPECT_EQ(p.position, 7u);
  Operand v = Operand::MakeValue(N("3"), 9);
  EXPECT_EQ(v.kind, OperandKind::kValue);
  EXPECT_EQ(v.value, N("3"));
  EXPECT_EQ(v.position, 9u);
}

// ---------------------------------------------------------------------------------------------
// Paths

TEST(CoreEvaluatePathTest, Resolve) {
  const Item item = Sample();
  ASSERT_NE(Resolve(item, P("m.k")), nullptr);
  EXPECT_EQ(*Resolve(item, P("m.k")), S("v"));
  EXPECT_EQ(*Resolve(item, P("m.n.deep")), N("1"));
  EXPECT_EQ(*Resolve(item, P("l[1]")), S("x"));
  EXPECT_EQ(Resolve(item, P("l[3]")), nullptr);  // past the end
  EXPECT_EQ(Resolve(item, P("l.x")), nullptr);   // a list has no keys
  EXPECT_EQ(Resolve(item, P("m[0]")), nullptr);  // a map has no indexes
  EXPECT_EQ(Resolve(item, P("s.x")), nullptr);   // a string has neither
  EXPECT_EQ(Resolve(item, P("missing")), nullptr);
  EXPECT_EQ(Resolve(item, P("m.zz.deep")), nullptr);
}

TEST(CoreEvaluatePathTest, OverlapAndConflict) {
  EXPECT_TRUE(PathsOverlap(P("a"), P("a")));
  EXPECT_TRUE(PathsOverlap(P("a.b"), P("a.b.c")));
  EXPECT_TRUE(PathsOverlap(P("a[1].c"), P("a[1]")));
  EXPECT_FALSE(PathsOverlap(P("a.b"), P("a.c")));
  EXPECT_FALSE(PathsOverlap(P("a[1]"), P("a[2]")));
  EXPECT_TRUE(PathsConflict(P("a.b"), P("a[1]")));
  EXPECT_TRUE(PathsConflict(P("x[0].b"), P("x[0][3].c")));
  EXPECT_FALSE(PathsConflict(P("a.b"), P("a.c")));
  EXPECT_FALSE(PathsConflict(P("a[1]"), P("a[2].b")));
  EXPECT_FALSE(PathsConflict(P("a"), P("a.b")));
}

// ---------------------------------------------------------------------------------------------
// Evaluation: comparisons

TEST(CoreEvaluateTest, Equality) {
  EXPECT_TRUE(Eval(Eq(Pa("n"), V(N("5")))));
  EXPECT_TRUE(Eval(Eq(Pa("n"), V(N("5.0")))));  // numeric equality
  EXPECT_TRUE(Eval(Eq(Pa("n"), V(N("5e0")))));
  EXPECT_FALSE(Eval(Eq(Pa("n"), V(S("5")))));  // type mismatch
  EXPECT_TRUE(Eval(Eq(Pa("s"), V(S("hello")))));
  EXPECT_TRUE(Eval(Eq(Pa("b"), V(B(std::string("\x01\x02\x03", 3))))));
  EXPECT_TRUE(Eval(Eq(Pa("t"), V(Bool(true)))));
  EXPECT_FALSE(Eval(Eq(Pa("t"), V(Bool(false)))));
  EXPECT_TRUE(Eval(Eq(Pa("nul"), V(Null()))));
  EXPECT_TRUE(Eval(Eq(Pa("ss"), V(SS({"b", "a"})))));  // sets ignore order
  EXPECT_TRUE(Eval(Eq(Pa("ns"), V(NS({"3", "1.0", "2"})))));
  EXPECT_FALSE(Eval(Eq(Pa("ss"), V(SS({"a"})))));
  EXPECT_TRUE(Eval(Eq(Pa("l"), V(L({N("1"), S("x"), M({})})))));
  EXPECT_FALSE(Eval(Eq(Pa("l"), V(L({S("x"), N("1"), M({})})))));  // lists keep order
  EXPECT_TRUE(Eval(Eq(Pa("m"), V(M({{"n", M({{"deep", N("1")}})}, {"k", S("v")}})))));
  EXPECT_TRUE(Eval(Eq(Pa("m.n.deep"), Pa("l[0]"))));
  EXPECT_FALSE(Eval(Eq(Pa("missing"), V(S("x")))));
  EXPECT_FALSE(Eval(Eq(Pa("missing"), Pa("missing2"))));
}

TEST(CoreEvaluateTest, NotEqualIsTheComplement) {
  EXPECT_TRUE(Eval(Cmp(Pa("n"), CompareOp::kNe, V(N("6")))));
  EXPECT_FALSE(Eval(Cmp(Pa("n"), CompareOp::kNe, V(N("5.00")))));
  EXPECT_TRUE(Eval(Cmp(Pa("n"), CompareOp::kNe, V(S("5")))));
  EXPECT_TRUE(Eval(Cmp(Pa("missing"), CompareOp::kNe, V(S("x")))));
  EXPECT_TRUE(Eval(Cmp(Pa("missing"), CompareOp::kNe, Pa("missing2"))));  // both missing
}

TEST(CoreEvaluateTest, OrderingOnlyWithinOneOrderedType) {
  EXPECT_TRUE(Eval(Cmp(Pa("n"), CompareOp::kLt, V(N("6")))));
  EXPECT_TRUE(Eval(Cmp(Pa("n"), CompareOp::kLe, V(N("5")))));
  EXPECT_TRUE(Eval(Cmp(Pa("n"), CompareOp::kGe, V(N("5")))));
  EXPECT_FALSE(Eval(Cmp(Pa("n"), CompareOp::kGt, V(N("5")))));
  EXPECT_TRUE(Eval(Cmp(Pa("n"), CompareOp::kGt, V(N("-10")))));
  EXPECT_TRUE(Eval(Cmp(Pa("n"), CompareOp::kLt, V(N("10")))));  // numeric, not textual
  EXPECT_FALSE(Eval(Cmp(Pa("n"), CompareOp::kLt, V(S("6")))));  // N vs S: false
  EXPECT_FALSE(Eval(Cmp(Pa("n"), CompareOp::kGe, V(S("6")))));
  EXPECT_TRUE(Eval(Cmp(Pa("s"), CompareOp::kLt, V(S("world")))));
  EXPECT_TRUE(Eval(Cmp(V(S("a")), CompareOp::kGt, V(S("A")))));         // bytewise
  EXPECT_TRUE(Eval(Cmp(V(S("\xC2\xBF")), CompareOp::kGt, V(S("z")))));  // unsigned bytes
  EXPECT_TRUE(Eval(Cmp(Pa("b"), CompareOp::kLt, V(B(std::string("\x01\x02\x04", 3))))));
  EXPECT_TRUE(Eval(Cmp(V(B("\xff")), CompareOp::kGt, V(B("\x01")))));
  // Unordered types coming from the item are false, never an error.
  EXPECT_FALSE(Eval(Cmp(Pa("t"), CompareOp::kGt, Pa("nul"))));
  EXPECT_FALSE(Eval(Cmp(Pa("ss"), CompareOp::kLe, Pa("bs"))));
  EXPECT_FALSE(Eval(Cmp(Pa("l"), CompareOp::kGe, Pa("m.k"))));
  EXPECT_FALSE(Eval(Cmp(Pa("missing"), CompareOp::kLt, V(N("1")))));
  EXPECT_FALSE(Eval(Cmp(Pa("missing"), CompareOp::kGe, V(N("1")))));
}

TEST(CoreEvaluateTest, Between) {
  EXPECT_TRUE(Eval(Between(Pa("n"), V(N("1")), V(N("5")))));  // inclusive
  EXPECT_TRUE(Eval(Between(Pa("n"), V(N("5")), V(N("10")))));
  EXPECT_FALSE(Eval(Between(Pa("n"), V(N("6")), V(N("10")))));
  EXPECT_FALSE(Eval(Between(Pa("n"), V(S("a")), V(S("z")))));  // type mismatch
  EXPECT_TRUE(Eval(Between(Pa("s"), V(S("a")), V(S("z")))));
  EXPECT_TRUE(Eval(Between(Pa("b"), V(B("\x01")), V(B("\x02")))));
  EXPECT_FALSE(Eval(Between(Pa("missing"), V(N("1")), V(N("5")))));
  // Bounds from the item in the wrong order or of mixed types: just false.
  EXPECT_FALSE(Eval(Between(V(N("3")), Pa("n"), Pa("m.n.deep"))));
  EXPECT_TRUE(Eval(Between(V(N("3")), Pa("m.n.deep"), Pa("n"))));
  EXPECT_FALSE(Eval(Between(V(N("3")), Pa("m.n.deep"), Pa("s"))));
}

TEST(CoreEvaluateTest, In) {
  EXPECT_TRUE(Eval(In(Pa("n"), {V(S("5")), V(N("5"))})));  // mixed types allowed
  EXPECT_FALSE(Eval(In(Pa("n"), {V(N("1")), V(N("2"))})));
  EXPECT_TRUE(Eval(In(Pa("s"), {V(S("x")), V(S("hello"))})));
  EXPECT_TRUE(Eval(In(Pa("l"), {V(L({N("1"), S("x"), M({})}))})));
  EXPECT_TRUE(Eval(In(Pa("n"), {Pa("m.n.deep"), V(N("5"))})));
  EXPECT_FALSE(Eval(In(Pa("missing"), {V(N("1"))})));
}

// ---------------------------------------------------------------------------------------------
// Evaluation: functions

TEST(CoreEvaluateTest, AttributeExists) {
  EXPECT_TRUE(Eval(Func("attribute_exists", {Pa("m.n.deep")})));
  EXPECT_TRUE(Eval(Func("attribute_exists", {Pa("nul")})));
  EXPECT_TRUE(Eval(Func("attribute_exists", {Pa("l[2]")})));
  EXPECT_FALSE(Eval(Func("attribute_exists", {Pa("l[3]")})));
  EXPECT_FALSE(Eval(Func("attribute_exists", {Pa("m.x")})));
  EXPECT_TRUE(Eval(Func("attribute_not_exists", {Pa("missing")})));
  EXPECT_FALSE(Eval(Func("attribute_not_exists", {Pa("s")})));
  // A missing item is evaluated as an empty one: the "create only" idiom.
  EXPECT_TRUE(Evaluate(Func("attribute_not_exists", {Pa("pk")}), Item{}));
}

TEST(CoreEvaluateTest, AttributeType) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"s", "S"},   {"n", "N"},   {"b", "B"},   {"t", "BOOL"}, {"nul", "NULL"},
      {"ss", "SS"}, {"ns", "NS"}, {"bs", "BS"}, {"l", "L"},    {"m", "M"}};
  for (const auto& [path, type] : cases) {
    EXPECT_TRUE(Eval(Func("attribute_type", {Pa(path), V(S(type))}))) << path;
    EXPECT_FALSE(Eval(Func("attribute_type", {Pa(path), V(S(type == "S" ? "N" : "S"))}))) << path;
  }
  EXPECT_FALSE(Eval(Func("attribute_type", {Pa("missing"), V(S("S"))})));
  EXPECT_TRUE(Eval(Func("attribute_type", {Pa("m.n"), V(S("M"))})));
}

TEST(CoreEvaluateTest, BeginsWith) {
  EXPECT_TRUE(Eval(Func("begins_with", {Pa("s"), V(S("he"))})));
  EXPECT_TRUE(Eval(Func("begins_with", {Pa("s"), V(S(""))})));
  EXPECT_TRUE(Eval(Func("begins_with", {Pa("s"), V(S("hello"))})));
  EXPECT_FALSE(Eval(Func("begins_with", {Pa("s"), V(S("lo"))})));
  EXPECT_FALSE(Eval(Func("begins_with", {Pa("s"), V(S("hello!"))})));
  EXPECT_TRUE(Eval(Func("begins_with", {Pa("b"), V(B(std::string("\x01\x02", 2)))})));
  EXPECT_FALSE(Eval(Func("begins_with", {Pa("s"), V(B("he"))})));  // S vs B
  EXPECT_FALSE(Eval(Func("begins_with", {Pa("b"), V(S("\x01"))})));
  EXPECT_TRUE(Eval(Func("begins_with", {V(S("hello world")), Pa("s")})));  // path second
  EXPECT_FALSE(Eval(Func("begins_with", {Pa("s"), Pa("m.k")})));
  EXPECT_FALSE(Eval(Func("begins_with", {Pa("n"), V(S("5"))})));  // N from the item: false
  EXPECT_FALSE(Eval(Func("begins_with", {Pa("missing"), V(S("h"))})));
}

TEST(CoreEvaluateTest, Contains) {
  EXPECT_TRUE(Eval(Func("contains", {Pa("s"), V(S("ell"))})));
  EXPECT_FALSE(Eval(Func("contains", {Pa("s"), V(S("xyz"))})));
  EXPECT_TRUE(Eval(Func("contains", {Pa("b"), V(B(std::string("\x02\x03", 2)))})));
  EXPECT_FALSE(Eval(Func("contains", {Pa("b"), V(B("\x04"))})));
  EXPECT_FALSE(Eval(Func("contains", {Pa("s"), V(B("ell"))})));
  EXPECT_TRUE(Eval(Func("contains", {Pa("ss"), V(S("a"))})));
  EXPECT_FALSE(Eval(Func("contains", {Pa("ss"), V(S("c"))})));
  EXPECT_FALSE(Eval(Func("contains", {Pa("ss"), V(SS({"a"}))})));  // not a subset test
  EXPECT_TRUE(Eval(Func("contains", {Pa("ns"), V(N("2"))})));
  EXPECT_TRUE(Eval(Func("contains", {Pa("ns"), V(N("2.0"))})));
  EXPECT_FALSE(Eval(Func("contains", {Pa("ns"), V(S("2"))})));
  EXPECT_TRUE(Eval(Func("contains", {Pa("bs"), V(B("\x01"))})));
  EXPECT_FALSE(Eval(Func("contains", {Pa("bs"), V(S("\x01"))})));
  EXPECT_TRUE(Eval(Func("contains", {Pa("l"), V(S("x"))})));
  EXPECT_TRUE(Eval(Func("contains", {Pa("l"), V(N("1.0"))})));
  EXPECT_TRUE(Eval(Func("contains", {Pa("l"), V(M({}))})));
  EXPECT_FALSE(Eval(Func("contains", {Pa("l"), V(S("y"))})));
  EXPECT_FALSE(Eval(Func("contains", {Pa("m"), V(S("k"))})));  // maps: false
  EXPECT_FALSE(Eval(Func("contains", {Pa("n"), V(N("5"))})));
  EXPECT_FALSE(Eval(Func("contains", {Pa("t"), V(Bool(true))})));
  EXPECT_FALSE(Eval(Func("contains", {Pa("missing"), V(S("a"))})));
  EXPECT_TRUE(Eval(Func("contains", {V(S("say hello")), Pa("s")})));
}

// size(): S in characters (UTF-8 code points), B in bytes, sets, lists and maps in members.
TEST(CoreEvaluateTest, SizeOfEachType) {
  auto size_is = [](std::string_view path, std::string_view n) {
    return Eval(Eq(Fn("size", {Pa(path)}), V(N(n))));
  };
  EXPECT_TRUE(size_is("s", "5"));
  EXPECT_TRUE(size_is("u", "6"));  // 10 bytes, 6 characters
  EXPECT_TRUE(size_is("b", "3"));
  EXPECT_TRUE(size_is("ss", "2"));
  EXPECT_TRUE(size_is("ns", "3"));
  EXPECT_TRUE(size_is("bs", "2"));
  EXPECT_TRUE(size_is("l", "3"));
  EXPECT_TRUE(size_is("m", "2"));
  EXPECT_TRUE(size_is("l[2]", "0"));
  EXPECT_TRUE(Eval(Cmp(Fn("size", {Pa("s")}), CompareOp::kGt, V(N("4")))));
  EXPECT_TRUE(Eval(Eq(Fn("size", {V(S("abc"))}), V(N("3")))));  // size of a constant
  EXPECT_TRUE(Eval(Eq(Fn("size", {V(S(""))}), V(N("0")))));
  // N, BOOL, NULL and missing have no size: every comparison is false, even <>.
  for (std::string_view path : {"n", "t", "nul", "missing"}) {
    EXPECT_FALSE(Eval(Eq(Fn("size", {Pa(path)}), V(N("1"))))) << path;
    EXPECT_FALSE(Eval(Cmp(Fn("size", {Pa(path)}), CompareOp::kNe, V(N("1"))))) << path;
    EXPECT_FALSE(Eval(Cmp(Fn("size", {Pa(path)}), CompareOp::kGe, V(N("0"))))) << path;
  }
  EXPECT_TRUE(Eval(Between(Fn("size", {Pa("l")}), V(N("1")), V(N("3")))));
  EXPECT_TRUE(Eval(In(Fn("size", {Pa("ss")}), {V(N("2"))})));
}

TEST(CoreEvaluateTest, LogicalOperators) {
  Condition yes = Eq(Pa("n"), V(N("5")));
  Condition no = Eq(Pa("n"), V(N("6")));
  EXPECT_TRUE(Eval(And({yes, yes})));
  EXPECT_FALSE(Eval(And({yes, no})));
  EXPECT_TRUE(Eval(Or({no, yes})));
  EXPECT_FALSE(Eval(Or({no, no})));
  EXPECT_FALSE(Eval(Not(yes)));
  EXPECT_TRUE(Eval(Not(no)));
  EXPECT_TRUE(Eval(Or({no, And({yes, Not(no)})})));
  EXPECT_TRUE(Eval(And({yes, yes, yes})));
}

// ---------------------------------------------------------------------------------------------
// ValidateCondition

TEST(CoreEvaluateValidateConditionTest, ValidExpressions) {
  EXPECT_EQ(
      CondError(And({Func("attribute_exists", {Pa("a.b[1]")}),
                     Or({Cmp(Fn("size", {Pa("c")}), CompareOp::kGt, V(N("1"))),
                         Not(Func("begins_with", {Pa("d"), V(S("x"))}))}),
                     Between(Pa("e"), V(N("1")), V(N("1"))),
                     In(Pa("f"), {V(Bool(true)), V(Null()), V(L({}))}),
                     Func("attribute_type", {Pa("g"), V(S("NULL"))}),
                     Func("contains", {Pa("h"), Pa("i")}), Cmp(Pa("j"), CompareOp::kNe, V(M({}))),
                     Eq(Pa("k"), V(Bool(false))), Cmp(Pa("a"), CompareOp::kLt, Pa("b"))})),
      "OK");
}

TEST(CoreEvaluateValidateConditionTest, FunctionNames) {
  EXPECT_EQ(CondError(Func("BEGINS_WITH", {Pa("a"), V(S("x"))})),
            "Invalid ConditionExpression: Invalid function name; function: BEGINS_WITH");
  EXPECT_EQ(CondError(Func("BEGINS_WITH", {Pa("a"), V(S("x"))}), Kind::kFilter),
            "Invalid FilterExpression: Invalid function name; function: BEGINS_WITH");
  EXPECT_EQ(CondError(Cmp(Pa("a"), CompareOp::kLt, Fn("f", {Pa("b")}))),
            "Invalid ConditionExpression: Invalid function name; function: f");
  EXPECT_EQ(CondError(Eq(Fn("Size", {Pa("a")}), V(N("1")))),
            "Invalid ConditionExpression: Invalid function name; function: Size");
  EXPECT_EQ(CondError(Cmp(Pa("a"), CompareOp::kLt, Fn("if_not_exists", {Pa("c"), V(N("1"))}))),
            "Invalid ConditionExpression: The function is not allowed in a condition expression; "
            "function: if_not_exists");
  EXPECT_EQ(CondError(Func("list_append", {Pa("a"), Pa("b")})),
            "Invalid ConditionExpression: The function is not allowed in a condition expression; "
            "function: list_append");
}

TEST(CoreEvaluateValidateConditionTest, FunctionsInTheWrongPlace) {
  EXPECT_EQ(CondError(Cmp(Fn("attribute_exists", {Pa("a")}), CompareOp::kLt, V(N("1")))),
            "Invalid ConditionExpression: The function is not allowed to be used this way in an "
            "expression; function: attribute_exists");
  EXPECT_EQ(CondError(Func("size", {Pa("a")})),
            "Invalid ConditionExpression: The function is not allowed to be used this way in an "
            "expression; function: size");
  EXPECT_EQ(CondError(Eq(Pa("a"), Fn("size", {Fn("contains", {Pa("b"), Pa("c")})}))),
            "Invalid ConditionExpression: The function is not allowed to be used this way in an "
            "expression; function: contains");
  EXPECT_EQ(CondError(In(Pa("a"), {V(N("1")), Fn("begins_with", {Pa("b"), V(S("x"))})})),
            "Invalid ConditionExpression: The function is not allowed to be used this way in an "
            "expression; function: begins_with");
  EXPECT_EQ(CondError(Func("contains", {Pa("a"), Fn("attribute_type", {Pa("b"), V(S("S"))})})),
            "Invalid ConditionExpression: The function is not allowed to be used this way in an "
            "expression; function: attribute_type");
}

TEST(CoreEvaluateValidateConditionTest, Arity) {
  EXPECT_EQ(CondError(Func("attribute_exists", {Pa("a"), Pa("b")})),
            "Invalid ConditionExpression: Incorrect number of operands for operator or function; "
            "operator or function: attribute_exists, number of operands: 2");
  EXPECT_EQ(CondError(Func("begins_with", {Pa("a")})),
            "Invalid ConditionExpression: Incorrect number of operands for operator or function; "
            "operator or function: begins_with, number of operands: 1");
  EXPECT_EQ(CondError(Func("contains", {Pa("a"), Pa("b"), Pa("c")})),
            "Invalid ConditionExpression: Incorrect number of operands for operator or function; "
            "operator or function: contains, number of operands: 3");
  EXPECT_EQ(CondError(Func("attribute_type", {Pa("a")})),
            "Invalid ConditionExpression: Incorrect number of operands for operator or function; "
            "operator or function: attribute_type, number of operands: 1");
  EXPECT_EQ(CondError(Func("attribute_not_exists", {})),
            "Invalid ConditionExpression: Incorrect number of operands for operator or function; "
            "operator or function: attribute_not_exists, number of operands: 0");
  EXPECT_EQ(CondError(Eq(Fn("size", {Pa("a"), Pa("b")}), V(N("1")))),
            "Invalid ConditionExpression: Incorrect number of operands for operator or function; "
            "operator or function: size, number of operands: 2");
}

TEST(CoreEvaluateValidateConditionTest, DocumentPathRequired) {
  EXPECT_EQ(CondError(Func("attribute_exists", {V(S("a"))})),
            "Invalid ConditionExpression: Operator or function requires a document path; "
            "operator or function: attribute_exists");
  EXPECT_EQ(CondError(Func("attribute_not_exists", {Fn("size", {Pa("a")})})),
            "Invalid ConditionExpression: Operator or function requires a document path; "
            "operator or function: attribute_not_exists");
}

TEST(CoreEvaluateValidateConditionTest, ConstantOperandTypes) {
  EXPECT_EQ(CondError(Func("begins_with", {Pa("a"), V(N("1"))})),
            "Invalid ConditionExpression: Incorrect operand type for operator or function; "
            "operator or function: begins_with, operand type: N");
  EXPECT_EQ(CondError(Func("begins_with", {V(L({})), Pa("a")})),
            "Invalid ConditionExpression: Incorrect operand type for operator or function; "
            "operator or function: begins_with, operand type: L");
  EXPECT_EQ(CondError(Func("begins_with", {Pa("a"), Fn("size", {Pa("b")})})),
            "Invalid ConditionExpression: Incorrect operand type for operator or function; "
            "operator or function: begins_with, operand type: N");
  EXPECT_EQ(CondError(Func("begins_with", {Pa("a"), V(B("x"))})), "OK");
  for (auto [value, type] : std::vector<std::pair<AttributeValue, std::string>>{
           {N("1"), "N"}, {Bool(true), "BOOL"}, {Null(), "NULL"}}) {
    EXPECT_EQ(CondError(Eq(Fn("size", {V(value)}), V(N("1")))),
              "Invalid ConditionExpression: Incorrect operand type for operator or function; "
              "operator or function: size, operand type: " +
                  type);
  }
  for (AttributeValue ok : {S("x"), B("x"), SS({"a"}), L({}), M({})}) {
    EXPECT_EQ(CondError(Eq(Fn("size", {V(ok)}), V(N("1")))), "OK");
  }
}

TEST(CoreEvaluateValidateConditionTest, AttributeTypeOperand) {
  EXPECT_EQ(CondError(Func("attribute_type", {Pa("a"), V(N("1"))})),
            "Invalid ConditionExpression: Incorrect operand type for operator or function; "
            "operator or function: attribute_type, operand type: N");
  EXPECT_EQ(CondError(Func("attribute_type", {Pa("a"), Pa("b")})),
            "Invalid ConditionExpression: Incorrect operand type for operator or function; "
            "operator or function: attribute_type, operand type: {NS,SS,L,BS,N,M,B,BOOL,NULL,S}");
  EXPECT_EQ(CondError(Func("attribute_type", {Pa("a"), V(S("XX"))})),
            "Invalid ConditionExpression: Invalid attribute type name found; type: XX, valid "
            "types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}");
  EXPECT_EQ(CondError(Func("attribute_type", {Pa("a"), V(S("s"))})),
            "Invalid ConditionExpression: Invalid attribute type name found; type: s, valid "
            "types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}");
  for (std::string t : {"S", "N", "B", "BOOL", "NULL", "SS", "NS", "BS", "L", "M"}) {
    EXPECT_EQ(CondError(Func("attribute_type", {Pa("a"), V(S(t))})), "OK") << t;
  }
}

TEST(CoreEvaluateValidateConditionTest, OrderingWithUnorderedConstants) {
  EXPECT_EQ(CondError(Cmp(Pa("a"), CompareOp::kLt, V(Bool(true)))),
            "Invalid ConditionExpression: Incorrect operand type for operator or function; "
            "operator or function: <, operand type: BOOL");
  EXPECT_EQ(CondError(Cmp(Pa("a"), CompareOp::kGe, V(L({})))),
            "Invalid ConditionExpression: Incorrect operand type for operator or function; "
            "operator or function: >=, operand type: L");
  EXPECT_EQ(CondError(Cmp(V(M({})), CompareOp::kGt, Pa("a"))),
            "Invalid ConditionExpression: Incorrect operand type for operator or function; "
            "operator or function: >, operand type: M");
  EXPECT_EQ(CondError(Cmp(Pa("a"), CompareOp::kLe, V(SS({"x"})))),
            "Invalid ConditionExpression: Incorrect operand type for operator or function; "
            "operator or function: <=, operand type: SS");
  EXPECT_EQ(CondError(Cmp(Pa("a"), CompareOp::kLt, V(Null()))),
            "Invalid ConditionExpression: Incorrect operand type for operator or function; "
            "operator or function: <, operand type: NULL");
  EXPECT_EQ(CondError(Between(Pa("a"), V(Bool(true)), V(Bool(true)))),
            "Invalid ConditionExpression: Incorrect operand type for operator or function; "
            "operator or function: BETWEEN, operand type: BOOL");
  // = and <> accept every type; ordered constants are fine.
  EXPECT_EQ(CondError(Eq(Pa("a"), V(Bool(true)))), "OK");
  EXPECT_EQ(CondError(Cmp(Pa("a"), CompareOp::kNe, V(NS({"1"})))), "OK");
  EXPECT_EQ(CondError(Cmp(Pa("a"), CompareOp::kLt, V(B("x")))), "OK");
}

TEST(CoreEvaluateValidateConditionTest, BetweenConstantBounds) {
  EXPECT_EQ(CondError(Between(Pa("a"), V(N("2")), V(S("dog")))),
            "Invalid ConditionExpression: The BETWEEN operator requires same data type for lower "
            "and upper bounds; lower bound operand: AttributeValue: {N:2}, upper bound operand: "
            "AttributeValue: {S:dog}");
  EXPECT_EQ(CondError(Between(Pa("a"), V(N("2")), V(N("1")))),
            "Invalid ConditionExpression: The BETWEEN operator requires upper bound to be greater "
            "than or equal to lower bound; lower bound operand: AttributeValue: {N:2}, upper "
            "bound operand: AttributeValue: {N:1}");
  EXPECT_EQ(CondError(Between(Pa("a"), V(S("b")), V(S("a")))),
            "Invalid ConditionExpression: The BETWEEN operator requires upper bound to be greater "
            "than or equal to lower bound; lower bound operand: AttributeValue: {S:b}, upper "
            "bound operand: AttributeValue: {S:a}");
  EXPECT_EQ(CondError(Between(Pa("a"), V(N("1")), V(N("1.0")))), "OK");
  EXPECT_EQ(CondError(Between(Pa("a"), Pa("b"), V(N("1")))), "OK");  // a bound from the item
  EXPECT_EQ(CondError(Between(Pa("a"), V(S("z")), Pa("b"))), "OK");
}

TEST(CoreEvaluateValidateConditionTest, DistinctFirstOperand) {
  EXPECT_EQ(CondError(Func("contains", {Pa("data"), Pa("data")})),
            "Invalid ConditionExpression: The first operand must be distinct from the remaining "
            "operands for this operator or function; operator: contains, first operand: [data]");
  EXPECT_EQ(CondError(Eq(Pa("a"), Pa("a"))),
            "Invalid ConditionExpression: The first operand must be distinct from the remaining "
            "operands for this operator or function; operator: =, first operand: [a]");
  EXPECT_EQ(CondError(Cmp(Pa("a.b[1]"), CompareOp::kLt, Pa("a.b[1]"))),
            "Invalid ConditionExpression: The first operand must be distinct from the remaining "
            "operands for this operator or function; operator: <, first operand: [a, b, [1]]");
  EXPECT_EQ(CondError(Between(Pa("a"), V(N("1")), Pa("a"))),
            "Invalid ConditionExpression: The first operand must be distinct from the remaining "
            "operands for this operator or function; operator: BETWEEN, first operand: [a]");
  EXPECT_EQ(CondError(In(Pa("a"), {V(N("1")), Pa("a")})),
            "Invalid ConditionExpression: The first operand must be distinct from the remaining "
            "operands for this operator or function; operator: IN, first operand: [a]");
  EXPECT_EQ(CondError(Func("begins_with", {Pa("a"), Pa("a")})),
            "Invalid ConditionExpression: The first operand must be distinct from the remaining "
            "operands for this operator or function; operator: begins_with, first operand: [a]");
  EXPECT_EQ(CondError(Eq(Pa("a"), Pa("a.b"))), "OK");
  EXPECT_EQ(CondError(Eq(Fn("size", {Pa("a")}), Pa("a"))), "OK");
}

TEST(CoreEvaluateValidateConditionTest, InListSize) {
  std::vector<Operand> list;
  for (int i = 0; i < 100; ++i) list.push_back(V(N(std::to_string(i))));
  EXPECT_EQ(CondError(In(Pa("a"), list)), "OK");
  list.push_back(V(N("100")));
  EXPECT_EQ(CondError(In(Pa("a"), list)),
            "Invalid ConditionExpression: The IN operator is provided with too many operands; "
            "number of operands: 101");
}

// a<b OR (a<b OR (... )): `depth` ORs and depth+1 comparisons.
Condition NestedOrs(int depth) {
  Condition c = Cmp(Pa("a"), CompareOp::kLt, Pa("b"));
  for (int i = 0; i < depth; ++i) c = Or({Cmp(Pa("a"), CompareOp::kLt, Pa("b")), std::move(c)});
  return c;
}

TEST(CoreEvaluateValidateConditionTest, OperatorCount) {
  EXPECT_EQ(CondError(NestedOrs(149)), "OK");  // 299 operators
  EXPECT_EQ(CondError(NestedOrs(150)),
            "Invalid ConditionExpression: The expression contains too many operators; operator "
            "count: 301");
  // A flat OR of 151 comparisons: 150 ORs + 151 comparisons.
  std::vector<Condition> flat;
  for (int i = 0; i < 151; ++i) flat.push_back(Cmp(Pa("a"), CompareOp::kLt, Pa("b")));
  EXPECT_EQ(CondError(Or(flat)),
            "Invalid ConditionExpression: The expression contains too many operators; operator "
            "count: 301");
  flat.pop_back();
  EXPECT_EQ(CondError(Or(flat)), "OK");
  // Function calls are not counted.
  Operand nested = Pa("b");
  for (int i = 0; i < 400; ++i) nested = Nest("size", std::move(nested));
  EXPECT_EQ(CondError(Cmp(Pa("a"), CompareOp::kLt, std::move(nested))),
            "Invalid ConditionExpression: Incorrect operand type for operator or function; "
            "operator or function: size, operand type: N");
}

// Deep trees are refused without recursing through them.
TEST(CoreEvaluateValidateConditionTest, DeepTreesDoNotOverflow) {
  Condition c = Cmp(Pa("a"), CompareOp::kLt, Pa("b"));
  for (int i = 0; i < 5000; ++i) c = Not(std::move(c));
  EXPECT_EQ(CondError(c),
            "Invalid ConditionExpression: The expression contains too many operators; operator "
            "count: 5001");
  Operand f = Pa("b");
  for (int i = 0; i < 5000; ++i) f = Nest("f", std::move(f));
  EXPECT_EQ(CondError(Cmp(Pa("a"), CompareOp::kLt, std::move(f))),
            "Invalid ConditionExpression: Invalid function name; function: f");
}

TEST(CoreEvaluateValidateConditionTest, RedundantParenthesesAndPathLength) {
  EXPECT_EQ(CondError(Parens2(Cmp(Pa("a"), CompareOp::kNe, V(N("1"))))),
            "Invalid ConditionExpression: The expression has redundant parentheses;");
  EXPECT_EQ(CondError(And({Eq(Pa("x"), V(N("1"))), Parens2(Eq(Pa("a"), V(N("1"))))})),
            "Invalid ConditionExpression: The expression has redundant parentheses;");
  Path deep = P("a");
  for (int i = 0; i < 32; ++i) deep.elements.push_back(PathElement{"x", 0, false});
  EXPECT_EQ(CondError(Func("attribute_exists", {Operand::MakePath(deep)})),
            "Invalid ConditionExpression: The document path has too many nesting levels; "
            "nesting levels: 33");
  deep.elements.pop_back();
  EXPECT_EQ(CondError(Func("attribute_exists", {Operand::MakePath(deep)})), "OK");
}

// Categories are reported in a fixed order, whatever their position: here the unknown function
// comes after an arity error in the text, and still wins.
TEST(CoreEvaluateValidateConditionTest, ErrorPrecedence) {
  EXPECT_EQ(CondError(And({Func("attribute_exists", {Pa("a"), Pa("b")}),
                           Eq(Fn("nope", {Pa("c")}), V(N("1")))})),
            "Invalid ConditionExpression: Invalid function name; function: nope");
  EXPECT_EQ(CondError(And({Func("begins_with", {Pa("a"), V(N("1"))}),
                           Func("contains", {Pa("a"), Pa("b"), Pa("c")})})),
            "Invalid ConditionExpression: Incorrect number of operands for operator or function; "
            "operator or function: contains, number of operands: 3");
  EXPECT_EQ(CondError(And({Cmp(Pa("a"), CompareOp::kLt, V(Bool(true))), Eq(Pa("b"), Pa("b"))})),
            "Invalid ConditionExpression: The first operand must be distinct from the remaining "
            "operands for this operator or function; operator: =, first operand: [b]");
}

TEST(CoreEvaluateValidateConditionTest, KeyConditionPrefix) {
  EXPECT_EQ(CondError(Func("nope", {Pa("a")}), Kind::kKeyCondition),
            "Invalid KeyConditionExpression: Invalid function name; function: nope");
}

// ---------------------------------------------------------------------------------------------
// CheckFilterAvoidsKeys

TEST(CoreEvaluateFilterKeysTest, KeyAttributesAreRefused) {
  const std::vector<std::string> keys = {"pk", "sk"};
  EXPECT_EQ(Text(CheckFilterAvoidsKeys(Eq(Pa("x"), V(N("1"))), keys)), "OK");
  EXPECT_EQ(
      Text(CheckFilterAvoidsKeys(And({Eq(Pa("x"), V(N("1"))), Eq(Pa("pk"), V(S("a")))}), keys)),
      "Filter Expression can only contain non-primary key attributes: Primary key "
      "attribute: pk");
  EXPECT_EQ(Text(CheckFilterAvoidsKeys(Func("attribute_exists", {Pa("sk.x")}), keys)),
            "Filter Expression can only contain non-primary key attributes: Primary key "
            "attribute: sk");
  EXPECT_EQ(Text(CheckFilterAvoidsKeys(Eq(Fn("size", {Pa("sk")}), V(N("1"))), keys)),
            "Filter Expression can only contain non-primary key attributes: Primary key "
            "attribute: sk");
  EXPECT_EQ(Text(CheckFilterAvoidsKeys(Eq(Pa("x.pk"), V(N("1"))), keys)), "OK");
}

// ---------------------------------------------------------------------------------------------
// ToKeyCondition

KeySchema Schema(ValueType pk_type, std::optional<ValueType> sk_type) {
  KeySchema k;
  k.partition = KeyAttribute{"pk", pk_type};
  if (sk_type) k.sort = KeyAttribute{"sk", *sk_type};
  return k;
}
const KeySchema kStrNum = Schema(ValueType::kS, ValueType::kN);

std::string KeyError(const Condition& c, const KeySchema& key = kStrNum) {
  Result<KeyCondition> r = ToKeyCondition(c, key);
  if (r.ok()) return "OK";
  EXPECT_TRUE(r.status().IsValidation());
  return r.status().message();
}

KeyCondition KeyOk(const Condition& c, const KeySchema& key = kStrNum) {
  Result<KeyCondition> r = ToKeyCondition(c, key);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? r.value() : KeyCondition();
}

Condition PkEq() { return Eq(Pa("pk"), V(S("p"))); }

TEST(CoreEvaluateKeyConditionTest, PartitionOnly) {
  KeyCondition k = KeyOk(PkEq());
  EXPECT_EQ(k.partition_name, "pk");
  EXPECT_EQ(k.partition_value, S("p"));
  EXPECT_EQ(k.op, SortKeyOp::kNone);
  EXPECT_EQ(k.sort_name, "");
  k = KeyOk(Eq(V(S("p")), Pa("pk")));  // value first
  EXPECT_EQ(k.partition_value, S("p"));
  k = KeyOk(PkEq(), Schema(ValueType::kS, std::nullopt));
  EXPECT_EQ(k.partition_name, "pk");
}

TEST(CoreEvaluateKeyConditionTest, SortKeyOperators) {
  const std::vector<std::pair<CompareOp, SortKeyOp>> cases = {{CompareOp::kEq, SortKeyOp::kEq},
                                                              {CompareOp::kLt, SortKeyOp::kLt},
                                                              {CompareOp::kLe, SortKeyOp::kLe},
                                                              {CompareOp::kGt, SortKeyOp::kGt},
                                                              {CompareOp::kGe, SortKeyOp::kGe}};
  for (auto [op, want] : cases) {
    KeyCondition k = KeyOk(And({PkEq(), Cmp(Pa("sk"), op, V(N("7")))}));
    EXPECT_EQ(k.sort_name, "sk");
    EXPECT_EQ(k.op, want);
    EXPECT_EQ(k.sort_value, N("7"));
  }
  // Either order of the clauses; a value-first comparison flips.
  EXPECT_EQ(KeyOk(And({Cmp(Pa("sk"), CompareOp::kLt, V(N("1"))), PkEq()})).op, SortKeyOp::kLt);
  EXPECT_EQ(KeyOk(And({PkEq(), Cmp(V(N("1")), CompareOp::kLt, Pa("sk"))})).op, SortKeyOp::kGt);
  EXPECT_EQ(KeyOk(And({PkEq(), Cmp(V(N("1")), CompareOp::kGe, Pa("sk"))})).op, SortKeyOp::kLe);
  EXPECT_EQ(KeyOk(And({PkEq(), Cmp(V(N("1")), CompareOp::kLe, Pa("sk"))})).op, SortKeyOp::kGe);
  EXPECT_EQ(KeyOk(And({PkEq(), Cmp(V(N("1")), CompareOp::kGt, Pa("sk"))})).op, SortKeyOp::kLt);
  EXPECT_EQ(KeyOk(And({PkEq(), Eq(V(N("1")), Pa("sk"))})).op, SortKeyOp::kEq);

  KeyCondition k = KeyOk(And({PkEq(), Between(Pa("sk"), V(N("1")), V(N("5")))}));
  EXPECT_EQ(k.op, SortKeyOp::kBetween);
  EXPECT_EQ(k.sort_value, N("1"));
  EXPECT_EQ(k.sort_value2, N("5"));

  k = KeyOk(And({Func("begins_with", {Pa("sk"), V(S("ab"))}), PkEq()}),
            Schema(ValueType::kS, ValueType::kS));
  EXPECT_EQ(k.op, SortKeyOp::kBeginsWith);
  EXPECT_EQ(k.sort_value, S("ab"));
  k = KeyOk(And({PkEq(), Func("begins_with", {Pa("sk"), V(B("x"))})}),
            Schema(ValueType::kS, ValueType::kB));
  EXPECT_EQ(k.sort_value, B("x"));
}

TEST(CoreEvaluateKeyConditionTest, SchemaMatching) {
  EXPECT_EQ(KeyError(Eq(Pa("sk"), V(N("1")))), "Query condition missed key schema element: pk");
  EXPECT_EQ(KeyError(Eq(Pa("x"), V(S("1")))), "Query condition missed key schema element: pk");
  EXPECT_EQ(KeyError(And({PkEq(), Eq(Pa("x"), V(N("1")))})),
            "Query condition missed key schema element: sk");
  EXPECT_EQ(KeyError(And({Eq(Pa("x"), V(N("1"))), Eq(Pa("sk"), V(N("1")))})),
            "Query condition missed key schema element: pk");
  EXPECT_EQ(KeyError(And({PkEq(), Eq(Pa("sk"), V(N("1"))), Eq(Pa("x"), V(N("1")))})),
            "The number of query conditions (3) exceeds the number of key attributes defined in "
            "the schema (2)");
  EXPECT_EQ(KeyError(And({PkEq(), Eq(Pa("sk"), V(N("1")))}), Schema(ValueType::kS, std::nullopt)),
            "The number of query conditions (2) exceeds the number of key attributes defined in "
            "the schema (1)");
  EXPECT_EQ(KeyError(Cmp(Pa("pk"), CompareOp::kGt, V(S("a")))),
            "Query key condition not supported");
  EXPECT_EQ(KeyError(And({Eq(Pa("sk"), V(N("1"))), Func("begins_with", {Pa("pk"), V(S("a"))})})),
            "Query key condition not supported");
  EXPECT_EQ(KeyError(And({Cmp(Pa("sk"), CompareOp::kGt, V(N("1"))),
                          Cmp(Pa("sk"), CompareOp::kLt, V(N("9")))})),
            "Invalid KeyConditionExpression: KeyConditionExpressions must only contain one "
            "condition per key");
  EXPECT_EQ(KeyError(And({PkEq(), PkEq()})),
            "Invalid KeyConditionExpression: KeyConditionExpressions must only contain one "
            "condition per key");
}

TEST(CoreEvaluateKeyConditionTest, InvalidOperators) {
  EXPECT_EQ(KeyError(Or({PkEq(), PkEq()})), "Invalid operator used in KeyConditionExpression: OR");
  EXPECT_EQ(KeyError(And({PkEq(), Not(Eq(Pa("sk"), V(N("1"))))})),
            "Invalid operator used in KeyConditionExpression: NOT");
  EXPECT_EQ(KeyError(Cmp(Pa("pk"), CompareOp::kNe, V(S("a")))),
            "Invalid operator used in KeyConditionExpression: <>");
  EXPECT_EQ(KeyError(In(Pa("pk"), {V(S("a"))})),
            "Invalid operator used in KeyConditionExpression: IN");
  for (std::string f : {"attribute_exists", "attribute_not_exists"}) {
    EXPECT_EQ(KeyError(And({PkEq(), Func(f, {Pa("sk")})})),
              "Invalid operator used in KeyConditionExpression: " + f);
  }
  EXPECT_EQ(KeyError(And({PkEq(), Func("contains", {Pa("sk"), V(N("1"))})})),
            "Invalid operator used in KeyConditionExpression: contains");
  EXPECT_EQ(KeyError(And({PkEq(), Func("attribute_type", {Pa("sk"), V(S("N"))})})),
            "Invalid operator used in KeyConditionExpression: attribute_type");
  EXPECT_EQ(KeyError(And({PkEq(), Eq(Fn("size", {Pa("sk")}), V(N("1")))})),
            "KeyConditionExpressions cannot contain nested operations");
  EXPECT_EQ(KeyError(And({PkEq(), Func("BEGINS_WITH", {Pa("sk"), V(S("a"))})})),
            "Invalid KeyConditionExpression: Invalid function name; function: BEGINS_WITH");
  EXPECT_EQ(KeyError(And({PkEq(), Eq(Pa("sk"), Fn("nope", {V(N("1"))}))})),
            "Invalid KeyConditionExpression: Invalid function name; function: nope");
  EXPECT_EQ(KeyError(Parens2(PkEq())),
            "Invalid KeyConditionExpression: The expression has redundant parentheses;");
}

TEST(CoreEvaluateKeyConditionTest, InvalidClauses) {
  EXPECT_EQ(KeyError(Eq(Pa("pk.x"), V(S("a")))),
            "KeyConditionExpressions cannot have conditions on nested attributes");
  EXPECT_EQ(KeyError(And({PkEq(), Eq(Pa("sk[0]"), V(N("1")))})),
            "KeyConditionExpressions cannot have conditions on nested attributes");
  EXPECT_EQ(KeyError(Eq(Pa("pk"), Pa("sk"))),
            "Invalid condition in KeyConditionExpression: Multiple attribute names used in one "
            "condition");
  EXPECT_EQ(KeyError(Eq(V(S("a")), V(S("b")))),
            "Invalid condition in KeyConditionExpression: No key attribute specified");
  EXPECT_EQ(KeyError(And({PkEq(), Between(V(N("1")), Pa("sk"), V(N("2")))})),
            "Invalid condition in KeyConditionExpression: BETWEEN operator must have the key "
            "attribute as its first operand");
  EXPECT_EQ(KeyError(And({PkEq(), Func("begins_with", {V(S("a")), Pa("sk")})})),
            "Invalid condition in KeyConditionExpression: begins_with operator must have the key "
            "attribute as its first operand");
  EXPECT_EQ(KeyError(And({PkEq(), Func("begins_with", {Pa("sk")})})),
            "Invalid KeyConditionExpression: Incorrect number of operands for operator or "
            "function; operator or function: begins_with, number of operands: 1");
}

TEST(CoreEvaluateKeyConditionTest, OperandTypes) {
  EXPECT_EQ(KeyError(And({PkEq(), Func("begins_with", {Pa("sk"), V(N("1"))})})),
            "Invalid KeyConditionExpression: Incorrect operand type for operator or function; "
            "operator or function: begins_with, operand type: N");
  EXPECT_EQ(KeyError(And({PkEq(), Func("begins_with", {Pa("sk"), V(Bool(true))})})),
            "Invalid KeyConditionExpression: Incorrect operand type for operator or function; "
            "operator or function: begins_with, operand type: BOOL");
  EXPECT_EQ(KeyError(And({PkEq(), Cmp(Pa("sk"), CompareOp::kLt, V(Bool(true)))})),
            "Invalid KeyConditionExpression: Incorrect operand type for operator or function; "
            "operator or function: <, operand type: BOOL");
  EXPECT_EQ(KeyError(And({PkEq(), Between(Pa("sk"), V(N("5")), V(N("1")))})),
            "Invalid KeyConditionExpression: The BETWEEN operator requires upper bound to be "
            "greater than or equal to lower bound; lower bound operand: AttributeValue: {N:5}, "
            "upper bound operand: AttributeValue: {N:1}");
  EXPECT_EQ(KeyError(And({PkEq(), Between(Pa("sk"), V(N("5")), V(S("x")))})),
            "Invalid KeyConditionExpression: The BETWEEN operator requires same data type for "
            "lower and upper bounds; lower bound operand: AttributeValue: {N:5}, upper bound "
            "operand: AttributeValue: {S:x}");
  // Type mismatches against the schema.
  const std::string mismatch =
      "One or more parameter values were invalid: Condition parameter type does not match "
      "schema type";
  EXPECT_EQ(KeyError(Eq(Pa("pk"), V(N("1")))), mismatch);
  EXPECT_EQ(KeyError(Eq(Pa("pk"), V(Bool(true)))), mismatch);
  EXPECT_EQ(KeyError(And({PkEq(), Eq(Pa("sk"), V(S("1")))})), mismatch);
  EXPECT_EQ(KeyError(And({PkEq(), Func("begins_with", {Pa("sk"), V(S("1"))})})), mismatch);
  EXPECT_EQ(KeyError(And({PkEq(), Between(Pa("sk"), V(S("a")), V(S("b")))})), mismatch);
  // Empty key values.
  EXPECT_EQ(KeyError(Eq(Pa("pk"), V(S("")))),
            "One or more parameter values are not valid. The AttributeValue for a key attribute "
            "cannot contain an empty string value. Key: pk");
  EXPECT_EQ(KeyError(Eq(Pa("pk"), V(B(""))), Schema(ValueType::kB, std::nullopt)),
            "One or more parameter values are not valid. The AttributeValue for a key attribute "
            "cannot contain an empty binary value. Key: pk");
  EXPECT_EQ(KeyError(And({PkEq(), Eq(Pa("sk"), V(S("")))}), Schema(ValueType::kS, ValueType::kS)),
            "One or more parameter values are not valid. The AttributeValue for a key attribute "
            "cannot contain an empty string value. Key: sk");
}

// Clauses are checked left to right, each completely, before any counting or schema check.
TEST(CoreEvaluateKeyConditionTest, LeftToRight) {
  EXPECT_EQ(KeyError(And({Cmp(Pa("x"), CompareOp::kLt, V(Bool(true))), Or({PkEq(), PkEq()})})),
            "Invalid KeyConditionExpression: Incorrect operand type for operator or function; "
            "operator or function: <, operand type: BOOL");
  EXPECT_EQ(KeyError(And({Or({PkEq(), PkEq()}), Cmp(Pa("x"), CompareOp::kLt, V(Bool(true)))})),
            "Invalid operator used in KeyConditionExpression: OR");
  // Types are checked before the clauses are counted.
  EXPECT_EQ(
      KeyError(And({PkEq(), Eq(Pa("sk"), V(N("1"))), Func("begins_with", {Pa("x"), V(N("1"))})})),
      "Invalid KeyConditionExpression: Incorrect operand type for operator or function; "
      "operator or function: begins_with, operand type: N");
  // Nested ANDs (parentheses around a pair) flatten.
  EXPECT_EQ(KeyOk(And({And({PkEq()}), And({Eq(Pa("sk"), V(N("2")))})})).op, SortKeyOp::kEq);
}

// ---------------------------------------------------------------------------------------------
// Projection

std::string ProjError(std::vector<std::string_view> paths) {
  ProjectionExpression p;
  for (std::string_view s : paths) p.paths.push_back(P(s));
  return Text(ValidateProjection(p));
}

TEST(CoreEvaluateProjectionTest, Validation) {
  EXPECT_EQ(ProjError({"a.b", "a.c", "l[0]", "l[1].x", "z"}), "OK");
  EXPECT_EQ(ProjError({"a.b", "a.b.c"}),
            "Invalid ProjectionExpression: Two document paths overlap with each other; must "
            "remove or rewrite one of these paths; path one: [a, b], path two: [a, b, c]");
  EXPECT_EQ(ProjError({"a", "x", "a"}),
            "Invalid ProjectionExpression: Two document paths overlap with each other; must "
            "remove or rewrite one of these paths; path one: [a], path two: [a]");
  EXPECT_EQ(ProjError({"a.b", "a[1]"}),
            "Invalid ProjectionExpression: Two document paths conflict with each other; must "
            "remove or rewrite one of these paths; path one: [a, b], path two: [a, [1]]");
  // Overlap is reported before conflict, even when the conflict comes first.
  EXPECT_EQ(ProjError({"a.b", "a[1]", "c", "c.d"}),
            "Invalid ProjectionExpression: Two document paths overlap with each other; must "
            "remove or rewrite one of these paths; path one: [c], path two: [c, d]");
  ProjectionExpression deep;
  deep.paths.push_back(P("a"));
  for (int i = 0; i < 32; ++i) deep.paths[0].elements.push_back(PathElement{"", 0, true});
  EXPECT_EQ(Text(ValidateProjection(deep)),
            "Invalid ProjectionExpression: The document path has too many nesting levels; "
            "nesting levels: 33");
}

Item ProjectionItem() {
  return Item{{"a", M({{"b", N("1")}, {"c", N("2")}, {"d", M({{"e", N("3")}})}})},
              {"l", L({N("10"), N("20"), N("30"), M({{"x", N("1")}, {"y", N("2")}})})},
              {"s", S("x")},
              {"pk", S("k")}};
}

Item ProjectPaths(std::vector<std::string_view> paths) {
  std::vector<Path> ps;
  for (std::string_view s : paths) ps.push_back(P(s));
  return Project(ProjectionItem(), ps);
}

TEST(CoreEvaluateProjectionTest, Shapes) {
  EXPECT_EQ(ProjectPaths({"s"}), (Item{{"s", S("x")}}));
  EXPECT_EQ(ProjectPaths({"a.b"}), (Item{{"a", M({{"b", N("1")}})}}));
  EXPECT_EQ(ProjectPaths({"a.b", "a.d.e"}),
            (Item{{"a", M({{"b", N("1")}, {"d", M({{"e", N("3")}})}})}}));
  EXPECT_EQ(ProjectPaths({"l[1]"}), (Item{{"l", L({N("20")})}}));  // re-indexed
  EXPECT_EQ(ProjectPaths({"l[2]", "l[0]"}), (Item{{"l", L({N("10"), N("30")})}}));
  EXPECT_EQ(ProjectPaths({"l[3].x"}), (Item{{"l", L({M({{"x", N("1")}})})}}));
  EXPECT_EQ(ProjectPaths({"l[999]"}), Item{});
  EXPECT_EQ(ProjectPaths({"missing", "s.x", "a.zz", "a[0]", "l.x"}), Item{});
  EXPECT_EQ(ProjectPaths({"s", "pk", "l[1]", "a.c"}),
            (Item{{"s", S("x")}, {"pk", S("k")}, {"l", L({N("20")})}, {"a", M({{"c", N("2")}})}}));
  EXPECT_EQ(ProjectPaths({"a"}), (Item{{"a", ProjectionItem().at("a")}}));
}

// ---------------------------------------------------------------------------------------------
// ValidateUpdate

const KeySchema kTableKey = Schema(ValueType::kS, ValueType::kS);

std::string UpdError(const UpdateExpression& u) {
  Status s = ValidateUpdate(u, kTableKey);
  EXPECT_TRUE(s.ok() || s.IsValidation()) << s.ToString();
  return Text(s);
}

TEST(CoreEvaluateValidateUpdateTest, Valid) {
  EXPECT_EQ(
      UpdError(Update(
          {Set("a", Plus(Pa("a"), V(N("1")))),  // read paths may overlap
           Set("b", Fn("list_append", {Fn("if_not_exists", {Pa("b"), V(L({}))}), V(L({N("1")}))})),
           Set("c", Minus(V(N("1")), Pa("x"))), Set("d.e[1]", Pa("a")), Remove("f"),
           Remove("d.e[2]"), Add("g", N("1")), Add("h", SS({"x"})), Delete("i", NS({"1"}))})),
      "OK");
  EXPECT_EQ(UpdError(Update({Set("a", Pa("b")), Set("b", Pa("a"))})), "OK");
}

TEST(CoreEvaluateValidateUpdateTest, Functions) {
  EXPECT_EQ(UpdError(Update({Set("a", Fn("f", {Pa("b")}))})),
            "Invalid UpdateExpression: Invalid function name; function: f");
  EXPECT_EQ(UpdError(Update({Set("a", Fn("If_Not_Exists", {Pa("a"), V(N("1"))}))})),
            "Invalid UpdateExpression: Invalid function name; function: If_Not_Exists");
  EXPECT_EQ(UpdError(Update({Set("a", Fn("size", {Pa("b")}))})),
            "Invalid UpdateExpression: The function is not allowed in an update expression; "
            "function: size");
  EXPECT_EQ(UpdError(Update({Set("a", Fn("attribute_exists", {Pa("b")}))})),
            "Invalid UpdateExpression: The function is not allowed in an update expression; "
            "function: attribute_exists");
  EXPECT_EQ(UpdError(Update({Set("a", Fn("if_not_exists", {V(N("1")), V(N("2"))}))})),
            "Invalid UpdateExpression: Operator or function requires a document path; operator "
            "or function: if_not_exists");
  EXPECT_EQ(UpdError(Update({Set("a", Fn("if_not_exists", {Pa("a")}))})),
            "Invalid UpdateExpression: Incorrect number of operands for operator or function; "
            "operator or function: if_not_exists, number of operands: 1");
  EXPECT_EQ(UpdError(Update({Set("a", Fn("list_append", {Pa("a"), Pa("b"), Pa("c")}))})),
            "Invalid UpdateExpression: Incorrect number of operands for operator or function; "
            "operator or function: list_append, number of operands: 3");
  EXPECT_EQ(UpdError(Update({Set("a", Fn("list_append", {V(S("x")), Pa("a")}))})),
            "Invalid UpdateExpression: Incorrect operand type for operator or function; operator "
            "or function: list_append, operand type: S");
  EXPECT_EQ(UpdError(Update({Set("a", Plus(Pa("b"), V(S("x"))))})),
            "Invalid UpdateExpression: Incorrect operand type for operator or function; operator "
            "or function: +, operand type: S");
  EXPECT_EQ(UpdError(Update({Set("a", Minus(V(Bool(true)), Pa("b")))})),
            "Invalid UpdateExpression: Incorrect operand type for operator or function; operator "
            "or function: -, operand type: BOOL");
  // Only immediate constants are checked: if_not_exists' result is known at run time only.
  EXPECT_EQ(
      UpdError(Update({Set("a", Plus(Fn("if_not_exists", {Pa("a"), V(S("x"))}), V(N("1"))))})),
      "OK");
}

TEST(CoreEvaluateValidateUpdateTest, AddDeleteOperandTypes) {
  const std::vector<std::pair<AttributeValue, std::string>> bad_add = {
      {S("x"), "STRING"},      {B("x"), "BINARY"},    {Null(), "NULL"},
      {Bool(true), "BOOLEAN"}, {L({N("1")}), "LIST"}, {M({}), "MAP"}};
  for (const auto& [v, name] : bad_add) {
    EXPECT_EQ(UpdError(Update({Add("a", v)})),
              "Invalid UpdateExpression: Incorrect operand type for operator or function; "
              "operator: ADD, operand type: " +
                  name);
    EXPECT_EQ(UpdError(Update({Delete("a", v)})),
              "Invalid UpdateExpression: Incorrect operand type for operator or function; "
              "operator: DELETE, operand type: " +
                  name);
  }
  EXPECT_EQ(UpdError(Update({Delete("a", N("1"))})),
            "Invalid UpdateExpression: Incorrect operand type for operator or function; "
            "operator: DELETE, operand type: NUMBER");
  EXPECT_EQ(UpdError(Update({Add("a", N("1")), Add("b", NS({"1"})), Add("c", BS({"x"})),
                             Delete("d", SS({"x"})), Delete("e", BS({"x"}))})),
            "OK");
}

TEST(CoreEvaluateValidateUpdateTest, OverlapsAndConflicts) {
  EXPECT_EQ(UpdError(Update({Set("a", V(N("1"))), Set("a.b", V(N("2")))})),
            "Invalid UpdateExpression: Two document paths overlap with each other; must remove "
            "or rewrite one of these paths; path one: [a], path two: [a, b]");
  EXPECT_EQ(UpdError(Update({Set("a", V(N("1"))), Remove("a")})),
            "Invalid UpdateExpression: Two document paths overlap with each other; must remove "
            "or rewrite one of these paths; path one: [a], path two: [a]");
  EXPECT_EQ(UpdError(Update({Add("x.y", N("1")), Delete("x", SS({"a"}))})),
            "Invalid UpdateExpression: Two document paths overlap with each other; must remove "
            "or rewrite one of these paths; path one: [x, y], path two: [x]");
  EXPECT_EQ(UpdError(Update({Set("a.b", V(N("1"))), Set("a[1]", V(N("2")))})),
            "Invalid UpdateExpression: Two document paths conflict with each other; must remove "
            "or rewrite one of these paths; path one: [a, b], path two: [a, [1]]");
  EXPECT_EQ(UpdError(Update(
                {Set("a.b", V(N("1"))), Set("a.c", V(N("2"))), Remove("l[0]"), Remove("l[1]")})),
            "OK");
  // Overlap is found before operand types ([DL]'s order).
  EXPECT_EQ(UpdError(Update({Add("a", S("x")), Remove("a")})),
            "Invalid UpdateExpression: Two document paths overlap with each other; must remove "
            "or rewrite one of these paths; path one: [a], path two: [a]");
}

TEST(CoreEvaluateValidateUpdateTest, KeyAttributes) {
  EXPECT_EQ(UpdError(Update({Set("pk", V(S("x")))})),
            "One or more parameter values were invalid: Cannot update attribute pk. This "
            "attribute is part of the key");
  EXPECT_EQ(UpdError(Update({Set("a", V(N("1"))), Remove("sk")})),
            "One or more parameter values were invalid: Cannot update attribute sk. This "
            "attribute is part of the key");
  EXPECT_EQ(UpdError(Update({Set("a", Pa("pk"))})), "OK");  // reading a key is fine
}

TEST(CoreEvaluateValidateUpdateTest, LimitsAndDepth) {
  Operand v = V(N("1"));
  for (int i = 0; i < 300; ++i) v = Nest("if_not_exists", std::move(v), {Pa("b")});
  EXPECT_EQ(UpdError(Update({Set("a", v)})), "OK");
  v = Nest("if_not_exists", std::move(v), {Pa("b")});
  EXPECT_EQ(UpdError(Update({Set("a", v)})),
            "Invalid UpdateExpression: The expression contains too many operators; operator "
            "count: 301");
  Operand deep = V(N("1"));
  for (int i = 0; i < 5000; ++i) deep = Nest("list_append", std::move(deep), {V(L({}))});
  EXPECT_EQ(UpdError(Update({Set("a", deep)})),
            "Invalid UpdateExpression: The expression contains too many operators; operator "
            "count: 5000");
  Path p = P("a");
  for (int i = 0; i < 32; ++i) p.elements.push_back(PathElement{"b", 0, false});
  UpdateExpression u;
  u.actions.push_back(Remove("x"));
  u.actions.back().path = p;
  EXPECT_EQ(UpdError(u),
            "Invalid UpdateExpression: The document path has too many nesting levels; nesting "
            "levels: 33");
}

// ---------------------------------------------------------------------------------------------
// ApplyUpdate

// Applies `u` to a copy of `item`; the message on error.
std::string Apply(const UpdateExpression& u, Item* item, bool existed = true) {
  EXPECT_EQ(Text(ValidateUpdate(u, kTableKey)), "OK");
  Item copy = *item;
  Status s = ApplyUpdate(u, existed, &copy);
  if (s.ok()) *item = std::move(copy);
  EXPECT_TRUE(s.ok() || s.IsValidation()) << s.ToString();
  return Text(s);
}

const std::string kInvalidPath =
    "The document path provided in the update expression is invalid for update";
const std::string kMissing =
    "The provided expression refers to an attribute that does not exist in the item";
const std::string kWrongType = "An operand in the update expression has an incorrect data type";

TEST(CoreEvaluateApplyUpdateTest, SetTopLevelAndNested) {
  Item item = Sample();
  EXPECT_EQ(Apply(Update({Set("new", V(S("x"))), Set("s", V(N("1"))), Set("m.k", V(S("w"))),
                          Set("m.added", V(L({}))), Set("m.n.deep", V(M({})))}),
                  &item),
            "OK");
  EXPECT_EQ(item.at("new"), S("x"));
  EXPECT_EQ(item.at("s"), N("1"));
  EXPECT_EQ(item.at("m"), M({{"k", S("w")}, {"added", L({})}, {"n", M({{"deep", M({})}})}}));
}

// Many top-level writes and removals are merged into the item in one pass (an item is a
// sorted vector); the result is the same as applying them one at a time, whatever their number,
// order and mix with nested writes.
TEST(CoreEvaluateApplyUpdateTest, ManyTopLevelWritesAndRemovalsMatchOneAtATime) {
  std::mt19937 rng(1126);
  for (int round = 0; round < 200; ++round) {
    Item item{{"pk", S("p")}, {"m", M({{"k", S("v")}})}};
    std::map<std::string, AttributeValue> expected(item.begin(), item.end());
    for (int i = 0; i < 30; ++i) {
      if (rng() % 2) {
        std::string name = "a" + std::to_string(rng() % 60);
        item[name] = N(std::to_string(i));
        expected[name] = N(std::to_string(i));
      }
    }
    std::vector<UpdateAction> actions;
    std::vector<std::string> names;
    for (int i = 0; i < 60; ++i) names.push_back("a" + std::to_string(i));
    std::shuffle(names.begin(), names.end(), rng);
    const size_t sets = rng() % 12, removes = rng() % 12;
    for (size_t i = 0; i < sets; ++i) {
      actions.push_back(Set(names[i], V(S("set" + std::to_string(i)))));
      expected[names[i]] = S("set" + std::to_string(i));
    }
    for (size_t i = sets; i < sets + removes; ++i) {
      actions.push_back(Remove(names[i]));
      expected.erase(names[i]);
    }
    if (rng() % 2) {
      actions.push_back(Set("m.z", V(N("1"))));
      expected["m"] = M({{"k", S("v")}, {"z", N("1")}});
    }
    std::shuffle(actions.begin(), actions.end(), rng);
    ASSERT_EQ(Apply(Update(actions), &item), "OK") << "round " << round;
    EXPECT_EQ(std::vector<Item::value_type>(item.begin(), item.end()),
              std::vector<Item::value_type>(expected.begin(), expected.end()))
        << "round " << round << ": " << sets << " sets, " << removes << " removals";
  }
}

TEST(CoreEvaluateApplyUpdateTest, SetIntermediatesMustExist) {
  Item item = Sample();
  EXPECT_EQ(Apply(Update({Set("x.y", V(N("1")))}), &item), kInvalidPath);
  EXPECT_EQ(Apply(Update({Set("s.y", V(N("1")))}), &item), kInvalidPath);   // not a map
  EXPECT_EQ(Apply(Update({Set("m[0]", V(N("1")))}), &item), kInvalidPath);  // not a list
  EXPECT_EQ(Apply(Update({Set("l[0].z", V(N("1")))}), &item), kInvalidPath);
  EXPECT_EQ(Apply(Update({Set("m.zz.deep", V(N("1")))}), &item), kInvalidPath);
  Item key_only{{"pk", S("p")}};
  EXPECT_EQ(Apply(Update({Set("a.b", V(N("1")))}), &key_only, false), kInvalidPath);
}

TEST(CoreEvaluateApplyUpdateTest, SetListElements) {
  Item item = Sample();  // l = [1, "x", {}]
  EXPECT_EQ(Apply(Update({Set("l[1]", V(S("y")))}), &item), "OK");
  EXPECT_EQ(item.at("l"), L({N("1"), S("y"), M({})}));
  EXPECT_EQ(Apply(Update({Set("l[10]", V(S("end")))}), &item), "OK");  // appends, no padding
  EXPECT_EQ(item.at("l"), L({N("1"), S("y"), M({}), S("end")}));
  // Several list SETs are applied in element order, whatever the source order.
  EXPECT_EQ(Apply(Update({Set("l[9]", V(S("nine"))), Set("l[7]", V(S("seven"))),
                          Set("l[0]", V(S("zero")))}),
                  &item),
            "OK");
  EXPECT_EQ(item.at("l"), L({S("zero"), S("y"), M({}), S("end"), S("seven"), S("nine")}));
  EXPECT_EQ(Apply(Update({Set("l[2].k", V(N("1")))}), &item), "OK");
  EXPECT_EQ(item.at("l").l()[2], M({{"k", N("1")}}));
}

TEST(CoreEvaluateApplyUpdateTest, SetArithmetic) {
  Item item = Sample();  // n = 5
  EXPECT_EQ(Apply(Update({Set("a", Plus(Pa("n"), V(N("2.5")))), Set("b", Minus(Pa("n"), V(N("7")))),
                          Set("c", Plus(V(N("1")), V(N("1"))))}),
                  &item),
            "OK");
  EXPECT_EQ(item.at("a"), N("7.5"));
  EXPECT_EQ(item.at("b"), N("-2"));
  EXPECT_EQ(item.at("c"), N("2"));
  EXPECT_EQ(Apply(Update({Set("a", Plus(Pa("missing"), V(N("1"))))}), &item), kMissing);
  EXPECT_EQ(Apply(Update({Set("a", Plus(Pa("s"), V(N("1"))))}), &item), kWrongType);
  EXPECT_EQ(Apply(Update({Set("a", Minus(V(N("1")), Pa("ss")))}), &item), kWrongType);
  const std::string big = "9.9999999999999999999999999999999999999E+125";
  EXPECT_EQ(Apply(Update({Set("a", Plus(V(N(big)), V(N(big))))}), &item),
            "Number overflow. Attempting to store a number with magnitude larger than supported "
            "range");
  EXPECT_EQ(Apply(Update({Set("a", Plus(V(N("1e50")), V(N("1"))))}), &item),
            "Number overflow. Attempting to store a number with magnitude larger than supported "
            "range");
}

TEST(CoreEvaluateApplyUpdateTest, SetFunctions) {
  Item item = Sample();
  EXPECT_EQ(Apply(Update({Set("a", Fn("if_not_exists", {Pa("missing"), V(S("dflt"))})),
                          Set("b", Fn("if_not_exists", {Pa("n"), V(S("dflt"))})),
                          Set("c", Fn("list_append", {Pa("l"), V(L({S("z")}))})),
                          Set("d", Fn("list_append", {V(L({S("z")})), Pa("l")})),
                          Set("e", Fn("list_append",
                                      {Fn("if_not_exists", {Pa("e"), V(L({}))}), V(L({N("1")}))})),
                          Set("f", Plus(Fn("if_not_exists", {Pa("f"), V(N("0"))}), V(N("1"))))}),
                  &item),
            "OK");
  EXPECT_EQ(item.at("a"), S("dflt"));
  EXPECT_EQ(item.at("b"), N("5"));
  EXPECT_EQ(item.at("c"), L({N("1"), S("x"), M({}), S("z")}));
  EXPECT_EQ(item.at("d"), L({S("z"), N("1"), S("x"), M({})}));
  EXPECT_EQ(item.at("e"), L({N("1")}));
  EXPECT_EQ(item.at("f"), N("1"));
  EXPECT_EQ(Apply(Update({Set("a", Fn("list_append", {Pa("missing"), V(L({}))}))}), &item),
            kMissing);
  EXPECT_EQ(Apply(Update({Set("a", Fn("list_append", {Pa("s"), V(L({}))}))}), &item), kWrongType);
  EXPECT_EQ(Apply(Update({Set("a", Pa("missing"))}), &item), kMissing);
  EXPECT_EQ(Apply(Update({Set("a", Fn("if_not_exists", {Pa("missing"), Pa("missing2")}))}), &item),
            kMissing);
}

TEST(CoreEvaluateApplyUpdateTest, SetReadsTheOriginalItem) {
  Item item{{"x", N("1")}, {"y", N("2")}};
  EXPECT_EQ(Apply(Update({Set("x", Pa("y")), Set("y", Pa("x"))}), &item), "OK");
  EXPECT_EQ(item, (Item{{"x", N("2")}, {"y", N("1")}}));
}

TEST(CoreEvaluateApplyUpdateTest, SetRejectsEmptySetsAndDeepDocuments) {
  Item item = Sample();
  EXPECT_EQ(Apply(Update({Set("a", V(SS({})))}), &item),
            "One or more parameter values were invalid: An string set  may not be empty");
  // 31 nested maps at level 2 put the scalar at level 33.
  AttributeValue v = N("1");
  for (int i = 0; i < 31; ++i) v = M({{"x", v}});
  EXPECT_EQ(Apply(Update({Set("m.deep", V(v))}), &item),
            "Nesting Levels have exceeded supported limits: Attributes in the item have nested "
            "levels beyond supported limit");
  EXPECT_EQ(Apply(Update({Set("top", V(v))}), &item), "OK");
}

TEST(CoreEvaluateApplyUpdateTest, Remove) {
  Item item = Sample();
  EXPECT_EQ(Apply(Update({Remove("s"), Remove("missing"), Remove("m.k"), Remove("m.zz"),
                          Remove("l[10]")}),
                  &item),
            "OK");
  EXPECT_EQ(item.count("s"), 0u);
  EXPECT_EQ(item.at("m"), M({{"n", M({{"deep", N("1")}})}}));
  EXPECT_EQ(item.at("l"), L({N("1"), S("x"), M({})}));
  EXPECT_EQ(Apply(Update({Remove("m.n.deep")}), &item), "OK");  // leaves an empty map
  EXPECT_EQ(item.at("m"), M({{"n", M({})}}));
}

TEST(CoreEvaluateApplyUpdateTest, RemoveListElementsUseOriginalPositions) {
  Item item{{"l", L({N("0"), N("1"), N("2"), N("3"), N("4")})}};
  EXPECT_EQ(Apply(Update({Remove("l[1]"), Remove("l[3]")}), &item), "OK");
  EXPECT_EQ(item.at("l"), L({N("0"), N("2"), N("4")}));
  EXPECT_EQ(Apply(Update({Remove("l[0]"), Remove("l[1]"), Remove("l[2]")}), &item), "OK");
  EXPECT_EQ(item.at("l"), L({}));  // the last element leaves an empty list
  // A SET and a REMOVE in one list: both refer to the original positions.
  item = Item{{"l", L({N("0"), N("1"), N("2")})}};
  EXPECT_EQ(Apply(Update({Remove("l[0]"), Set("l[1]", V(S("one")))}), &item), "OK");
  EXPECT_EQ(item.at("l"), L({S("one"), N("2")}));
  // Removing an element before a nested target does not move the target first.
  item = Item{{"l", L({M({{"a", N("0")}}), M({{"a", N("1")}, {"b", N("1")}})})}};
  EXPECT_EQ(Apply(Update({Remove("l[0]"), Remove("l[1].b")}), &item), "OK");
  EXPECT_EQ(item.at("l"), L({M({{"a", N("1")}})}));
  // An append does not give a removed index something to remove.
  item = Item{{"l", L({N("0")})}};
  EXPECT_EQ(Apply(Update({Set("l[5]", V(S("new"))), Remove("l[1]")}), &item), "OK");
  EXPECT_EQ(item.at("l"), L({N("0"), S("new")}));
}

TEST(CoreEvaluateApplyUpdateTest, RemoveUnderAMissingContainer) {
  Item item = Sample();
  EXPECT_EQ(Apply(Update({Remove("x.y")}), &item), kInvalidPath);
  EXPECT_EQ(Apply(Update({Remove("s.y")}), &item), kInvalidPath);
  EXPECT_EQ(Apply(Update({Remove("m[0]")}), &item), kInvalidPath);
  Item key_only{{"pk", S("p")}};
  EXPECT_EQ(Apply(Update({Remove("x.y"), Remove("z")}), &key_only, false), "OK");
  EXPECT_EQ(key_only, (Item{{"pk", S("p")}}));
}

TEST(CoreEvaluateApplyUpdateTest, AddNumbers) {
  Item item = Sample();
  EXPECT_EQ(Apply(Update({Add("n", N("3")), Add("fresh", N("-2")), Add("m.count", N("1"))}), &item),
            "OK");
  EXPECT_EQ(item.at("n"), N("8"));
  EXPECT_EQ(item.at("fresh"), N("-2"));  // missing counts as 0
  EXPECT_EQ(item.at("m").m().at("count"), N("1"));
  EXPECT_EQ(Apply(Update({Add("s", N("1"))}), &item), kWrongType);
  EXPECT_EQ(Apply(Update({Add("ns", N("1"))}), &item), kWrongType);
  EXPECT_EQ(Apply(Update({Add("x.y", N("1"))}), &item), kInvalidPath);
  Item big{{"n", N("9.9999999999999999999999999999999999999E+125")}};
  EXPECT_EQ(Apply(Update({Add("n", N("9E125"))}), &big),
            "Number overflow. Attempting to store a number with magnitude larger than supported "
            "range");
}

TEST(CoreEvaluateApplyUpdateTest, AddCreatesTheItem) {
  Item key_only{{"pk", S("p")}};
  EXPECT_EQ(Apply(Update({Add("count", N("1")), Add("tags", SS({"a"}))}), &key_only, false), "OK");
  EXPECT_EQ(key_only, (Item{{"pk", S("p")}, {"count", N("1")}, {"tags", SS({"a"})}}));
}

TEST(CoreEvaluateApplyUpdateTest, AddSets) {
  Item item = Sample();
  EXPECT_EQ(Apply(Update({Add("ss", SS({"c", "a"})), Add("ns", NS({"4", "1.0"})),
                          Add("bs", BS({"\x03"})), Add("newset", NS({"7"}))}),
                  &item),
            "OK");
  EXPECT_EQ(item.at("ss"), SS({"a", "b", "c"}));
  EXPECT_EQ(item.at("ns"), NS({"1", "2", "3", "4"}));
  EXPECT_EQ(item.at("bs"), BS({"\x01", "\x02", "\x03"}));
  EXPECT_EQ(item.at("newset"), NS({"7"}));
  EXPECT_EQ(Apply(Update({Add("ss", NS({"1"}))}), &item), kWrongType);
  EXPECT_EQ(Apply(Update({Add("n", SS({"1"}))}), &item), kWrongType);
  EXPECT_EQ(Apply(Update({Add("l", SS({"1"}))}), &item), kWrongType);
}

TEST(CoreEvaluateApplyUpdateTest, DeleteFromSets) {
  Item item = Sample();
  EXPECT_EQ(Apply(Update({Delete("ss", SS({"a", "zz"})), Delete("ns", NS({"2.0", "9"})),
                          Delete("bs", BS({"\x02"})), Delete("missing", SS({"a"}))}),
                  &item),
            "OK");
  EXPECT_EQ(item.at("ss"), SS({"b"}));
  EXPECT_EQ(item.at("ns"), NS({"1", "3"}));
  EXPECT_EQ(item.at("bs"), BS({"\x01"}));
  EXPECT_EQ(item.count("missing"), 0u);
  EXPECT_EQ(Apply(Update({Delete("ss", SS({"b"}))}), &item), "OK");  // the last member
  EXPECT_EQ(item.count("ss"), 0u);
  EXPECT_EQ(Apply(Update({Delete("s", SS({"h"}))}), &item), kWrongType);
  EXPECT_EQ(Apply(Update({Delete("ns", SS({"1"}))}), &item), kWrongType);
  EXPECT_EQ(Apply(Update({Delete("x.y", SS({"1"}))}), &item), kInvalidPath);
}

TEST(CoreEvaluateApplyUpdateTest, UpdatedPathsForReturnValues) {
  const Item old = Sample();
  UpdateExpression u = Update({Set("m.k", V(S("new"))), Set("l[1]", V(S("y"))), Add("n", N("1")),
                               Remove("s"), Set("fresh", V(N("0")))});
  std::vector<Path> paths = UpdatedPaths(u);
  ASSERT_EQ(paths.size(), 5u);
  EXPECT_EQ(paths[0], P("m.k"));
  EXPECT_EQ(paths[3], P("s"));
  Item updated = old;
  ASSERT_EQ(Apply(u, &updated), "OK");
  // UPDATED_OLD: the touched parts as they were (nothing for an attribute that did not exist).
  EXPECT_EQ(
      Project(old, paths),
      (Item{{"m", M({{"k", S("v")}})}, {"l", L({S("x")})}, {"n", N("5")}, {"s", S("hello")}}));
  // UPDATED_NEW: the touched parts as they are (nothing for a removed attribute).
  EXPECT_EQ(
      Project(updated, paths),
      (Item{{"m", M({{"k", S("new")}})}, {"l", L({S("y")})}, {"n", N("6")}, {"fresh", N("0")}}));
}

}  // namespace
}  // namespace keyhole::expr
