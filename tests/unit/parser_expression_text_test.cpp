// Round trips of core/expression_text.h through parser/expression_parser.h: parse(render(ast))
// is structurally the AST (positions and redundant_parentheses aside).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/expression.h"
#include "core/expression_text.h"
#include "core/number.h"
#include "parser/expression_parser.h"

namespace keyhole {
namespace {

using expr::Condition;
using expr::Operand;

AttributeValue Num(const char* text) { return AttributeValue::N(*Number::Parse(text)); }

bool SameOperand(const Operand& a, const Operand& b) {
  if (a.kind != b.kind || a.path != b.path || !(a.value == b.value) || a.function != b.function ||
      a.args.size() != b.args.size()) {
    return false;
  }
  for (size_t i = 0; i < a.args.size(); ++i) {
    if (!SameOperand(a.args[i], b.args[i])) return false;
  }
  return true;
}

bool SameCondition(const Condition& a, const Condition& b) {
  if (a.kind != b.kind || a.function != b.function || a.operands.size() != b.operands.size() ||
      a.children.size() != b.children.size()) {
    return false;
  }
  if (a.kind == expr::ConditionKind::kCompare && a.op != b.op) return false;
  for (size_t i = 0; i < a.operands.size(); ++i) {
    if (!SameOperand(a.operands[i], b.operands[i])) return false;
  }
  for (size_t i = 0; i < a.children.size(); ++i) {
    if (!SameCondition(a.children[i], b.children[i])) return false;
  }
  return true;
}

parser::Placeholders MapsOf(const expr::Placeholders& p) { return {&p.names(), &p.values()}; }

// Parses `text` (native syntax, literal names and :placeholders from `values`), renders it,
// re-parses the rendering and compares.
void RoundTripCondition(const std::string& text) {
  SCOPED_TRACE(text);
  std::map<std::string, AttributeValue> values = {
      {":a", AttributeValue::S("x")}, {":b", Num("1")}, {":c", Num("2")}};
  Result<Condition> ast =
      parser::ParseCondition(text, expr::Kind::kCondition, {nullptr, &values}, nullptr);
  ASSERT_TRUE(ast.ok()) << ast.status().ToString();
  expr::Placeholders p;
  std::string rendered = expr::RenderCondition(*ast, &p);
  Result<Condition> again =
      parser::ParseCondition(rendered, expr::Kind::kCondition, MapsOf(p), nullptr);
  ASSERT_TRUE(again.ok()) << rendered << ": " << again.status().ToString();
  EXPECT_TRUE(SameCondition(*ast, *again)) << rendered;
}

TEST(ParserExpressionTextTest, ConditionsRoundTrip) {
  for (const char* text : {
           "a = :a",
           "a <> :a",
           "a.b[2].c < :b",
           "a[0][1] <= :b",
           "m.n > :b AND m.n >= :c",
           "a BETWEEN :b AND :c",
           "a IN (:a, :b, :c)",
           "attribute_exists(a.b)",
           "attribute_not_exists(a[3])",
           "attribute_type(a, :a)",
           "begins_with(a, :a)",
           "contains(l, :b)",
           "size(a) > :b",
           "NOT a = :a",
           "NOT (a = :a AND b = :b)",
           "NOT NOT attribute_exists(a)",
           "a = :a AND b = :b AND c = :c",
           "a = :a OR b = :b AND c = :c",
           "(a = :a OR b = :b) AND c = :c",
           "a = :a AND (b = :b OR (c = :c AND NOT d = :a))",
           "(a = :a AND b = :b) AND c = :c",
           "a = b",
       }) {
    RoundTripCondition(text);
  }
}

TEST(ParserExpressionTextTest, NamesUseOnePlaceholderEach) {
  std::map<std::string, AttributeValue> values = {{":a", AttributeValue::S("x")}};
  std::map<std::string, std::string> names = {{"#x", "size"}};
  Result<Condition> ast = parser::ParseCondition("a.a = :a OR #x.a = :a", expr::Kind::kCondition,
                                                 {&names, &values}, nullptr);
  ASSERT_TRUE(ast.ok()) << ast.status().ToString();
  expr::Placeholders p;
  EXPECT_EQ(expr::RenderCondition(*ast, &p), "#n0.#n0 = :v0 OR #n1.#n0 = :v1");
  EXPECT_EQ(p.names().size(), 2u);
  EXPECT_EQ(p.names().at("#n1"), "size");
  EXPECT_EQ(p.values().size(), 2u);
}

void RoundTripUpdate(const std::string& text) {
  SCOPED_TRACE(text);
  std::map<std::string, AttributeValue> values = {{":a", Num("1")}, {":b", Num("2")}};
  Result<expr::UpdateExpression> ast = parser::ParseUpdate(text, {nullptr, &values}, nullptr);
  ASSERT_TRUE(ast.ok()) << ast.status().ToString();
  expr::Placeholders p;
  std::string rendered = expr::RenderUpdate(*ast, &p);
  Result<expr::UpdateExpression> again = parser::ParseUpdate(rendered, MapsOf(p), nullptr);
  ASSERT_TRUE(again.ok()) << rendered << ": " << again.status().ToString();
  ASSERT_EQ(ast->actions.size(), again->actions.size()) << rendered;
  for (size_t i = 0; i < ast->actions.size(); ++i) {
    EXPECT_EQ(ast->actions[i].kind, again->actions[i].kind) << rendered;
    EXPECT_EQ(ast->actions[i].path, again->actions[i].path) << rendered;
    if (ast->actions[i].kind != expr::UpdateActionKind::kRemove) {
      EXPECT_TRUE(SameOperand(ast->actions[i].value, again->actions[i].value)) << rendered;
    }
  }
}

TEST(ParserExpressionTextTest, UpdatesRoundTrip) {
  for (const char* text : {
           "SET a = :a",
           "SET a = a + :a, b.c[1] = :b - c",
           "SET a = if_not_exists(a, :a) + :b",
           "SET l = list_append(l, :a), m = list_append(:b, l)",
           "REMOVE a, b.c[2]",
           "ADD n :a, s :b",
           "DELETE s :a",
           "SET a = :a REMOVE b ADD c :b DELETE d :a",
           "REMOVE x SET y = :a",
       }) {
    RoundTripUpdate(text);
  }
}

TEST(ParserExpressionTextTest, ProjectionRoundTrips) {
  Result<expr::ProjectionExpression> ast =
      parser::ParseProjection("a, b.c[3].d, e[0], a.b", {}, nullptr);
  ASSERT_TRUE(ast.ok()) << ast.status().ToString();
  expr::Placeholders p;
  std::string rendered = expr::RenderProjection(*ast, &p);
  EXPECT_EQ(rendered, "#n0, #n1.#n2[3].#n3, #n4[0], #n0.#n1");
  Result<expr::ProjectionExpression> again = parser::ParseProjection(rendered, MapsOf(p), nullptr);
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ(ast->paths, again->paths);
}

TEST(ParserExpressionTextTest, KeyConditions) {
  KeyCondition k;
  k.partition_name = "pk";
  k.partition_value = AttributeValue::S("u");
  expr::Placeholders p;
  EXPECT_EQ(expr::RenderKeyCondition(k, &p), "#n0 = :v0");
  k.sort_name = "date";  // a reserved word
  k.op = SortKeyOp::kBetween;
  k.sort_value = Num("1");
  k.sort_value2 = Num("2");
  expr::Placeholders q;
  std::string text = expr::RenderKeyCondition(k, &q);
  EXPECT_EQ(text, "#n0 = :v0 AND #n1 BETWEEN :v1 AND :v2");
  Result<Condition> parsed =
      parser::ParseCondition(text, expr::Kind::kKeyCondition, MapsOf(q), nullptr);
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  k.op = SortKeyOp::kBeginsWith;
  expr::Placeholders r;
  EXPECT_EQ(expr::RenderKeyCondition(k, &r), "#n0 = :v0 AND begins_with(#n1, :v1)");
  k.op = SortKeyOp::kGe;
  expr::Placeholders s;
  EXPECT_EQ(expr::RenderKeyCondition(k, &s), "#n0 = :v0 AND #n1 >= :v1");
}

TEST(ParserExpressionTextTest, SeededPlaceholdersAreNotReused) {
  expr::Placeholders p({{"#n0", "x"}}, {{":v0", Num("1")}});
  EXPECT_EQ(p.Name("x"), "#n0");
  EXPECT_EQ(p.Name("y"), "#n1");
  EXPECT_EQ(p.Value(Num("2")), ":v1");
}

}  // namespace
}  // namespace keyhole
