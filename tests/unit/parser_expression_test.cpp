// Tests for parser/expression_parser.h: the native expression grammars, their error texts,
// placeholder resolution and the request-level checks.
#include "parser/expression_parser.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/item.h"
#include "parser/reserved_words.h"
#include "parser/syntax_error.h"

namespace keyhole::parser {
namespace {

using expr::Condition;
using expr::ConditionKind;
using expr::Kind;
using expr::Operand;
using expr::OperandKind;
using expr::UpdateActionKind;

// Placeholders used by most tests: #n.. names and :v.. values.
struct Env {
  std::map<std::string, std::string> names = {
      {"#n", "name"}, {"#d", "a.b"}, {"#x", "x"}, {"#y", "y"}};
  std::map<std::string, AttributeValue> values = {
      {":v", AttributeValue::S("v")},   {":w", AttributeValue::S("w")},
      {":a", AttributeValue::S("a")},   {":b", AttributeValue::S("b")},
      {":c", AttributeValue::S("c")},   {":_val", AttributeValue::S("_")},
      {":val2", AttributeValue::S("2")}};
  Placeholders ph() const { return Placeholders{&names, &values}; }
};

Result<Condition> Cond(std::string_view text, Kind kind = Kind::kCondition,
                       UsedPlaceholders* used = nullptr) {
  static const Env env;
  return ParseCondition(text, kind, env.ph(), used);
}
Result<expr::UpdateExpression> Update(std::string_view text) {
  static const Env env;
  return ParseUpdate(text, env.ph(), nullptr);
}
Result<expr::ProjectionExpression> Projection(std::string_view text) {
  static const Env env;
  return ParseProjection(text, env.ph(), nullptr);
}

// "OK" or the error message.
template <typename T>
std::string Msg(const Result<T>& r) {
  return r.ok() ? "OK" : r.status().message();
}
std::string CondMsg(std::string_view text, Kind kind = Kind::kCondition) {
  return Msg(Cond(text, kind));
}
std::string UpdateMsg(std::string_view text) { return Msg(Update(text)); }
std::string ProjectionMsg(std::string_view text) { return Msg(Projection(text)); }

std::string Syntax(std::string_view prefix, std::string_view token, std::string_view near) {
  return "Invalid " + std::string(prefix) + "Expression: Syntax error; token: \"" +
         std::string(token) + "\", near: \"" + std::string(near) + "\"";
}

std::string Repeat(std::string_view s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

expr::Path P(std::vector<std::string> names) {
  expr::Path p;
  for (auto& n : names) p.elements.push_back({n, 0, false});
  return p;
}

// ---- grammar soundness and reserved words ----

TEST(ParserExpressionGrammar, AnalyzeFindsNoProblems) { EXPECT_EQ(AnalyzeGrammars(), 0u); }

TEST(ParserExpressionReservedWords, ListAndCaseInsensitivity) {
  EXPECT_EQ(ReservedWordCount(), 573u);
  for (const char* w : {"ABORT", "name", "Data", "sTaTuS", "ZONE", "size", "ttl", "SET", "ADD",
                        "DELETE", "AND", "BETWEEN", "IN", "COMMENT", "USER"}) {
    EXPECT_TRUE(IsReservedWord(w)) << w;
  }
  for (const char* w : {"", "REMOVE", "ANDROID", "abc", "names_", "ZONES", "A"}) {
    EXPECT_FALSE(IsReservedWord(w)) << w;
  }
}

// ---- conditions: structure and precedence ----

TEST(ParserExpressionConditionParse, Comparison) {
  auto r = Cond("a.b[2] = :v");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->kind, ConditionKind::kCompare);
  EXPECT_EQ(r->op, expr::CompareOp::kEq);
  ASSERT_EQ(r->operands.size(), 2u);
  EXPECT_EQ(r->operands[0].kind, OperandKind::kPath);
  ASSERT_EQ(r->operands[0].path.elements.size(), 3u);
  EXPECT_EQ(r->operands[0].path.elements[1].name, "b");
  EXPECT_TRUE(r->operands[0].path.elements[2].is_index);
  EXPECT_EQ(r->operands[0].path.elements[2].index, 2);
  EXPECT_EQ(r->operands[0].position, 0u);
  EXPECT_EQ(r->operands[1].kind, OperandKind::kValue);
  EXPECT_EQ(r->operands[1].value, AttributeValue::S("v"));
  EXPECT_EQ(r->operands[1].position, 9u);

  const std::vector<std::pair<std::string, expr::CompareOp>> ops = {
      {"=", expr::CompareOp::kEq},  {"<>", expr::CompareOp::kNe}, {"<", expr::CompareOp::kLt},
      {"<=", expr::CompareOp::kLe}, {">", expr::CompareOp::kGt},  {">=", expr::CompareOp::kGe}};
  for (const auto& [text, op] : ops) {
    auto c = Cond("a" + text + ":v");
    ASSERT_TRUE(c.ok()) << text;
    EXPECT_EQ(c->op, op) << text;
  }
}

TEST(ParserExpressionConditionParse, OrBindsLooserThanAnd) {
  auto r = Cond("a = :v OR b = :v AND c = :v");
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->kind, ConditionKind::kOr);
  ASSERT_EQ(r->children.size(), 2u);
  EXPECT_EQ(r->children[0].kind, ConditionKind::kCompare);
  EXPECT_EQ(r->children[1].kind, ConditionKind::kAnd);

  auto l = Cond("a = :v AND b = :v OR c = :v");
  ASSERT_TRUE(l.ok());
  ASSERT_EQ(l->kind, ConditionKind::kOr);
  EXPECT_EQ(l->children[0].kind, ConditionKind::kAnd);
}

TEST(ParserExpressionConditionParse, ChainsAreFlat) {
  auto r = Cond("a = :v AND b = :v AND c = :v AND d = :v");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->kind, ConditionKind::kAnd);
  EXPECT_EQ(r->children.size(), 4u);
  auto o = Cond("a = :v OR b = :v OR c = :v");
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o->kind, ConditionKind::kOr);
  EXPECT_EQ(o->children.size(), 3u);
}

TEST(ParserExpressionConditionParse, NotBindsTighterThanAnd) {
  auto r = Cond("NOT a = :v AND b = :v");
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->kind, ConditionKind::kAnd);
  EXPECT_EQ(r->children[0].kind, ConditionKind::kNot);
  EXPECT_EQ(r->children[0].children[0].kind, ConditionKind::kCompare);

  auto n = Cond("NOT (a = :v AND b = :v)");
  ASSERT_TRUE(n.ok());
  ASSERT_EQ(n->kind, ConditionKind::kNot);
  EXPECT_EQ(n->children[0].kind, ConditionKind::kAnd);

  auto nn = Cond("not NOT attribute_exists(a)");
  ASSERT_TRUE(nn.ok());
  ASSERT_EQ(nn->kind, ConditionKind::kNot);
  EXPECT_EQ(nn->children[0].kind, ConditionKind::kNot);
  EXPECT_EQ(nn->children[0].children[0].kind, ConditionKind::kFunction);
}

TEST(ParserExpressionConditionParse, BetweenTakesTheFirstAnd) {
  auto r = Cond("x BETWEEN :a AND :b AND y = :c");
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->kind, ConditionKind::kAnd);
  ASSERT_EQ(r->children.size(), 2u);
  const Condition& b = r->children[0];
  EXPECT_EQ(b.kind, ConditionKind::kBetween);
  ASSERT_EQ(b.operands.size(), 3u);
  EXPECT_EQ(b.operands[1].value, AttributeValue::S("a"));
  EXPECT_EQ(b.operands[2].value, AttributeValue::S("b"));
  EXPECT_EQ(r->children[1].kind, ConditionKind::kCompare);
}

TEST(ParserExpressionConditionParse, InList) {
  auto r = Cond("a IN (:a, :b,:c)");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->kind, ConditionKind::kIn);
  ASSERT_EQ(r->operands.size(), 4u);
  EXPECT_EQ(r->operands[3].value, AttributeValue::S("c"));
  EXPECT_TRUE(Cond("a IN (:a)").ok());
  EXPECT_EQ(CondMsg("a IN ()"), Syntax("Condition", ")", "()"));
  EXPECT_EQ(CondMsg("a IN :a"), Syntax("Condition", ":a", "IN :a"));
}

TEST(ParserExpressionConditionParse, Functions) {
  auto r = Cond("attribute_exists(#n)");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->kind, ConditionKind::kFunction);
  EXPECT_EQ(r->function, "attribute_exists");
  ASSERT_EQ(r->operands.size(), 1u);
  EXPECT_EQ(r->operands[0].path, P({"name"}));

  auto s = Cond("size (a) > :v");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->kind, ConditionKind::kCompare);
  EXPECT_EQ(s->operands[0].kind, OperandKind::kFunction);
  EXPECT_EQ(s->operands[0].function, "size");

  auto b = Cond("begins_with ( a , :v )");
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->operands.size(), 2u);

  // Names are kept as written; validation rejects unknown ones case-sensitively.
  auto upper = Cond("BEGINS_WITH(a, :v)");
  ASSERT_TRUE(upper.ok());
  EXPECT_EQ(upper->function, "BEGINS_WITH");

  // A lone function call is a condition (size() is refused later, by validation).
  EXPECT_TRUE(Cond("size(a)").ok());
  EXPECT_EQ(CondMsg("attribute_type()"), Syntax("Condition", ")", "()"));
}

TEST(ParserExpressionConditionParse, KeywordsAreCaseInsensitiveAndWholeWords) {
  EXPECT_TRUE(Cond("a = :v and b = :v or not c = :v").ok());
  EXPECT_TRUE(Cond("x between :a AnD :b").ok());
  EXPECT_TRUE(Cond("x iN (:a)").ok());
  // ANDROID is a name, not AND followed by ROID.
  auto r = Cond("ANDROID = :v");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->operands[0].path, P({"ANDROID"}));
  EXPECT_EQ(CondMsg("a = :v ANDROID"), Syntax("Condition", "ANDROID", ":v ANDROID"));
  // A condition keyword cannot be a literal name.
  EXPECT_EQ(CondMsg("NOT = :v"), Syntax("Condition", "=", "NOT = :v"));
}

TEST(ParserExpressionConditionParse, ParenthesesAreTransparent) {
  auto r = Cond("(a = :v OR b = :v) AND c = :v");
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->kind, ConditionKind::kAnd);
  EXPECT_EQ(r->children[0].kind, ConditionKind::kOr);
  EXPECT_FALSE(r->redundant_parentheses);

  for (const char* ok :
       {"(a = :v)", "((a = :v) AND b = :v)", "(a) = :v", "((a) = :v)", "(size(a)) > :v",
        "(pk = :v) AND (sk = :w)", "(NOT (a = :v))", "a IN ((:a), :b)"}) {
    EXPECT_EQ(CondMsg(ok), "OK") << ok;
  }
}

TEST(ParserExpressionConditionParse, RedundantParentheses) {
  const std::string kMsg = "Invalid ConditionExpression: The expression has redundant parentheses;";
  for (const char* bad :
       {"((a = :v))", "(((a = :v)))", "a = :v AND ((b = :v AND c = :v)) AND d = :v",
        "a = :v OR ((b = :v OR (c = :v OR d = :v)))", "a > ((b))", "NOT ((a = :v))",
        "size(((a))) > :v", "a BETWEEN ((:a)) AND :b"}) {
    EXPECT_EQ(CondMsg(bad), kMsg) << bad;
  }
  EXPECT_EQ(CondMsg("((pk = :v))", Kind::kKeyCondition),
            "Invalid KeyConditionExpression: The expression has redundant parentheses;");
  // Reported before reserved words and undefined placeholders.
  EXPECT_EQ(CondMsg("((Comment = :undefined))"), kMsg);
}

TEST(ParserExpressionConditionParse, LoneOperandIsASyntaxError) {
  EXPECT_EQ(CondMsg("a"), Syntax("Condition", "<EOF>", "a"));
  EXPECT_EQ(CondMsg(":v"), Syntax("Condition", "<EOF>", ":v"));
  EXPECT_EQ(CondMsg("a = :v AND b"), Syntax("Condition", "<EOF>", "b"));
  EXPECT_EQ(CondMsg("(a)"), Syntax("Condition", "<EOF>", ")"));
}

TEST(ParserExpressionConditionParse, SyntaxErrors) {
  EXPECT_EQ(CondMsg("a = "), Syntax("Condition", "<EOF>", "= "));
  EXPECT_EQ(CondMsg("a = :v)"), Syntax("Condition", ")", ":v)"));
  EXPECT_EQ(CondMsg("a == :v"), Syntax("Condition", "=", "== :v"));
  EXPECT_EQ(CondMsg("a = 3"), Syntax("Condition", "3", "= 3"));
  EXPECT_EQ(CondMsg("a = \"x\""), Syntax("Condition", "\"", "= \"x"));
  EXPECT_EQ(CondMsg("a = :"), Syntax("Condition", ":", "= :"));
  EXPECT_EQ(CondMsg("# = :v"), Syntax("Condition", "#", "# ="));
  EXPECT_EQ(CondMsg("_a = :v"), Syntax("Condition", "_", "_a"));
  EXPECT_EQ(CondMsg("a BETWEEN :a"), Syntax("Condition", "<EOF>", ":a"));
  EXPECT_EQ(CondMsg("a = :v AND"), Syntax("Condition", "<EOF>", "AND"));
  EXPECT_EQ(CondMsg("f(a + :v)"), Syntax("Condition", "+", "a + :v"));
  EXPECT_EQ(CondMsg("a[-1] = :v"), Syntax("Condition", "-", "[-1"));
  EXPECT_EQ(CondMsg("a[:v] = :v"), Syntax("Condition", ":v", "[:v]"));
  EXPECT_EQ(CondMsg("a[] = :v"), Syntax("Condition", "]", "[] ="));
  EXPECT_EQ(CondMsg("a[0.4] = :v"), Syntax("Condition", ".", "0.4"));
  EXPECT_EQ(CondMsg("a = :v", Kind::kFilter), "OK");
  EXPECT_EQ(CondMsg("a =", Kind::kFilter), Syntax("Filter", "<EOF>", "="));
  EXPECT_EQ(CondMsg("pk = :v AND", Kind::kKeyCondition), Syntax("KeyCondition", "<EOF>", "AND"));
  // UTF-8 characters are single tokens.
  EXPECT_EQ(CondMsg("a = é"), Syntax("Condition", "é", "= é"));
}

// ---- updates ----

TEST(ParserExpressionUpdateParse, ClausesAndActionsInSourceOrder) {
  auto r = Update("SET a = :v, b = c + :w REMOVE d, e[1] ADD f :a DELETE g :b");
  ASSERT_TRUE(r.ok()) << r.status().message();
  const auto& a = r->actions;
  ASSERT_EQ(a.size(), 6u);
  EXPECT_EQ(a[0].kind, UpdateActionKind::kSet);
  EXPECT_EQ(a[0].path, P({"a"}));
  EXPECT_EQ(a[0].value.kind, OperandKind::kValue);
  EXPECT_EQ(a[0].position, 4u);
  EXPECT_EQ(a[1].value.kind, OperandKind::kPlus);
  ASSERT_EQ(a[1].value.args.size(), 2u);
  EXPECT_EQ(a[1].value.args[0].path, P({"c"}));
  EXPECT_EQ(a[1].value.args[1].value, AttributeValue::S("w"));
  EXPECT_EQ(a[2].kind, UpdateActionKind::kRemove);
  EXPECT_EQ(a[3].kind, UpdateActionKind::kRemove);
  EXPECT_TRUE(a[3].path.elements[1].is_index);
  EXPECT_EQ(a[4].kind, UpdateActionKind::kAdd);
  EXPECT_EQ(a[4].value.value, AttributeValue::S("a"));
  EXPECT_EQ(a[5].kind, UpdateActionKind::kDelete);

  auto any = Update("remove a  set b = :v add c :a");
  ASSERT_TRUE(any.ok());
  EXPECT_EQ(any->actions[0].kind, UpdateActionKind::kRemove);
  EXPECT_EQ(any->actions[1].kind, UpdateActionKind::kSet);
  EXPECT_EQ(any->actions[2].kind, UpdateActionKind::kAdd);
  EXPECT_TRUE(Update("sEt b = :v").ok());
  EXPECT_TRUE(Update("  set   b=:v  ").ok());
}

TEST(ParserExpressionUpdateParse, SetValues) {
  auto m = Update("SET a = b - :v");
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->actions[0].value.kind, OperandKind::kMinus);

  auto f = Update("SET a = list_append(if_not_exists(a, :a), :v)");
  ASSERT_TRUE(f.ok());
  const Operand& la = f->actions[0].value;
  EXPECT_EQ(la.kind, OperandKind::kFunction);
  EXPECT_EQ(la.function, "list_append");
  ASSERT_EQ(la.args.size(), 2u);
  EXPECT_EQ(la.args[0].function, "if_not_exists");
  EXPECT_EQ(la.args[0].args[0].path, P({"a"}));

  auto sum = Update("SET a = if_not_exists(a, :a) + size(b)");
  ASSERT_TRUE(sum.ok());
  EXPECT_EQ(sum->actions[0].value.kind, OperandKind::kPlus);

  EXPECT_EQ(Update("SET a = (b + :v)")->actions[0].value.kind, OperandKind::kPlus);
  EXPECT_EQ(Update("SET a = (:v)")->actions[0].value.kind, OperandKind::kValue);
  EXPECT_EQ(Update("SET a = (:v) - (b)")->actions[0].value.kind, OperandKind::kMinus);
  // No redundant-parentheses rule in updates.
  EXPECT_EQ(UpdateMsg("SET a = ((:v)) + (((b)))"), "OK");

  EXPECT_EQ(UpdateMsg("SET a = :a + :b + :c"), Syntax("Update", "+", ":b + :c"));
  EXPECT_EQ(UpdateMsg("SET a = f(x + y)"), Syntax("Update", "+", "x + y"));
  EXPECT_EQ(UpdateMsg("SET :a = :b"), Syntax("Update", ":a", "SET :a ="));
  EXPECT_EQ(UpdateMsg("SET a = :v +"), Syntax("Update", "<EOF>", "+"));
  EXPECT_EQ(UpdateMsg("SET a = numx / :v"), Syntax("Update", "/", "numx / :v"));
  EXPECT_EQ(UpdateMsg("SET"), Syntax("Update", "<EOF>", "SET"));
  EXPECT_EQ(UpdateMsg("SET a = :v,"), Syntax("Update", "<EOF>", ","));
  EXPECT_EQ(UpdateMsg("SET a = :v, REMOVE b"), Syntax("Update", "REMOVE", ", REMOVE b"));
  EXPECT_EQ(UpdateMsg("ADD a b"), Syntax("Update", "b", "a b"));
  EXPECT_EQ(UpdateMsg("HELLO b = :v"), Syntax("Update", "HELLO", "HELLO b"));
  // From alternator's AWS notes: "_" is a token of its own.
  EXPECT_EQ(UpdateMsg("SET _123 = :v"), Syntax("Update", "_", "SET _123"));
}

TEST(ParserExpressionUpdateParse, SectionUsedOnce) {
  EXPECT_EQ(UpdateMsg("ADD x :a SET a = :v ADD y :a"),
            "Invalid UpdateExpression: The \"ADD\" section can only be used once in an update "
            "expression;");
  EXPECT_EQ(UpdateMsg("SET a = :v REMOVE b set c = :v"),
            "Invalid UpdateExpression: The \"SET\" section can only be used once in an update "
            "expression;");
  EXPECT_EQ(UpdateMsg("REMOVE a REMOVE b"),
            "Invalid UpdateExpression: The \"REMOVE\" section can only be used once in an update "
            "expression;");
  EXPECT_EQ(UpdateMsg("DELETE a :a DELETE b :b"),
            "Invalid UpdateExpression: The \"DELETE\" section can only be used once in an update "
            "expression;");
}

// moto's tests/test_dynamodb/test_dynamodb_expressions.py: token and "near" for each input.
TEST(ParserExpressionUpdateParse, MotoSyntaxErrorSamples) {
  const std::vector<std::vector<std::string>> samples = {
      {"SET attrName = 3", "3", "= 3"},
      {"SET attrName = 34", "34", "= 34"},
      {"SET MyStr[ 3", "<EOF>", "3"},
      {"SET MyStr[3 )", ")", "3 )"},
      {"SET MyStr[3)", ")", "3)"},
      {"SET 2", "2", "SET 2"},
      {"2", "2", "2"},
      {"SET )", ")", "SET )"},
      {"SET ) 3", ")", "SET ) 3"},
      {"SET MyStr[ 3 ", "<EOF>", "3 "},
      {"SET MyStr = (:_val", "<EOF>", ":_val"},
      {"SET MyStr = (:_val ", "<EOF>", ":_val "},
      {"SET MyStr = [:_val", "[", "= [:_val"},
      {"SET MyStr = [:_val  ", "[", "= [:_val"},
      {"SET MyStr = (:_val + (:val2", "<EOF>", ":val2"},
      {"SET MyStr = ):_val", ")", "= ):_val"},
      {"SET MyStr = ]:_val", "]", "= ]:_val"},
      {"SET MyStr = ):_val + :val2", ")", "= ):_val"},
      {"RESET NonExistent", "RESET", "RESET NonExistent"},
      {"RESET NonExistent value", "RESET", "RESET NonExistent"},
      {"  RESET NonExistent value", "RESET", "  RESET NonExistent"},
      {"RESET", "RESET", "RESET"},
      {"SET a[0].b = 5", "5", "= 5"},
      {"SET a [  2 ]. b = 5", "5", "= 5"},
      {"SET a [2][ 3  ]. b = 5", "5", "= 5"},
      {"SET a . b = 5", "5", "= 5"},
      {"SET a [  [2] ]. b = 5", "[", "[  [2"},
      {"SET a [2 1]. b = 5", "1", "2 1]"},
      {"SET #a a = 5", "a", "#a a ="},
      {"SET #a.a = 5", "5", "= 5"},
      {"SET MyStr = NoExist + + :_val ", "+", "+ + :_val"},
      {"SET MyStr = NoExist + - :_val ", "-", "+ - :_val"},
      {"REMOVE NoExist + ", "+", "NoExist + "},
      {"ADD attr val foobar", "val", "attr val foobar"},
      {"ADD attr :val foobar", "foobar", ":val foobar"},
      {"DELETE attr val", "val", "attr val"},
      {"DELETE attr :val foobar", "foobar", ":val foobar"},
      {"SET path = VALUE 1", "1", "VALUE 1"},
      {"REMOVE if_not_exists(a,b)", "(", "if_not_exists(a"},
  };
  for (const auto& s : samples) {
    EXPECT_EQ(UpdateMsg(s[0]), Syntax("Update", s[1], s[2])) << s[0];
  }
}

// ---- projections ----

TEST(ParserExpressionProjectionParse, Paths) {
  auto r = Projection("a, b.c , d[1].e,#n, #d.#x");
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->paths.size(), 5u);
  EXPECT_EQ(r->paths[0], P({"a"}));
  EXPECT_EQ(r->paths[1], P({"b", "c"}));
  EXPECT_TRUE(r->paths[2].elements[1].is_index);
  EXPECT_EQ(r->paths[2].elements[1].index, 1);
  EXPECT_EQ(r->paths[3], P({"name"}));
  // One placeholder is one element even when its value contains a dot.
  EXPECT_EQ(r->paths[4], P({"a.b", "x"}));
  // Whitespace inside paths is accepted.
  auto w = Projection(" a . b [ 3 ] . c ");
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(w->paths[0].elements.size(), 4u);
  // Keywords of the other languages are ordinary names here (and reserved).
  EXPECT_EQ(ProjectionMsg("REMOVE"), "OK");
  EXPECT_EQ(ProjectionMsg("a, Set"),
            "Invalid ProjectionExpression: Attribute name is a reserved keyword; reserved "
            "keyword: Set");
}

TEST(ParserExpressionProjectionParse, SyntaxErrors) {
  EXPECT_EQ(ProjectionMsg("a b"), Syntax("Projection", "b", "a b"));
  EXPECT_EQ(ProjectionMsg("a,"), Syntax("Projection", "<EOF>", ","));
  EXPECT_EQ(ProjectionMsg("!!!"), Syntax("Projection", "!", "!!"));
  EXPECT_EQ(ProjectionMsg("l[a]"), Syntax("Projection", "a", "[a]"));
  EXPECT_EQ(ProjectionMsg("l[]"), Syntax("Projection", "]", "[]"));
  EXPECT_EQ(ProjectionMsg("a.[1]"), Syntax("Projection", "[", ".[1"));
  EXPECT_EQ(ProjectionMsg("a..b"), Syntax("Projection", ".", "..b"));
  EXPECT_EQ(ProjectionMsg("123a"), Syntax("Projection", "123", "123a"));
}

TEST(ParserExpressionProjectionParse, PathLimits) {
  EXPECT_EQ(ProjectionMsg("a[99999999999999]"),
            "Invalid ProjectionExpression: List index is not within the allowable range; index: "
            "[99999999999999]");
  EXPECT_EQ(ProjectionMsg("a[2147483648]"),
            "Invalid ProjectionExpression: List index is not within the allowable range; index: "
            "[2147483648]");
  auto max = Projection("a[2147483647]");
  ASSERT_TRUE(max.ok());
  EXPECT_EQ(max->paths[0].elements[1].index, 2147483647);

  const std::string p32 = "a" + Repeat(".b", 31);
  auto ok = Projection(p32);
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->paths[0].elements.size(), 32u);
  EXPECT_EQ(ProjectionMsg(p32 + "[0]"),
            "Invalid ProjectionExpression: The document path has too many nesting levels; "
            "nesting levels: 33");
  EXPECT_EQ(UpdateMsg("SET " + p32 + ".c = :v"),
            "Invalid UpdateExpression: The document path has too many nesting levels; "
            "nesting levels: 33");
}

// ---- reserved words and placeholders ----

TEST(ParserExpressionPlaceholders, ReservedWordsOnEveryLiteralElement) {
  EXPECT_EQ(CondMsg("Comment = :v"),
            "Invalid ConditionExpression: Attribute name is a reserved keyword; reserved keyword: "
            "Comment");
  EXPECT_EQ(CondMsg("a.size = :v"),
            "Invalid ConditionExpression: Attribute name is a reserved keyword; reserved keyword: "
            "size");
  EXPECT_EQ(UpdateMsg("SET a = :v REMOVE data"),
            "Invalid UpdateExpression: Attribute name is a reserved keyword; reserved keyword: "
            "data");
  EXPECT_EQ(ProjectionMsg("a, b[1].Name"),
            "Invalid ProjectionExpression: Attribute name is a reserved keyword; reserved "
            "keyword: Name");
  // Function names and placeholder values are not checked.
  EXPECT_EQ(CondMsg("size(#n) > :v"), "OK");
  // The first reserved word wins over an earlier undefined placeholder.
  EXPECT_EQ(CondMsg("#undefined = :v AND Year = :w"),
            "Invalid ConditionExpression: Attribute name is a reserved keyword; reserved keyword: "
            "Year");
  // ...and over a duplicate section; the duplicate section over an undefined placeholder.
  EXPECT_EQ(UpdateMsg("SET a = :nope SET status = :v"),
            "Invalid UpdateExpression: Attribute name is a reserved keyword; reserved keyword: "
            "status");
  EXPECT_EQ(UpdateMsg("SET a = :nope SET b = :v"),
            "Invalid UpdateExpression: The \"SET\" section can only be used once in an update "
            "expression;");
}

TEST(ParserExpressionPlaceholders, UndefinedInSourceOrder) {
  const std::string kName =
      "An expression attribute name used in the document path is not defined; attribute name: ";
  const std::string kValue =
      "An expression attribute value used in expression is not defined; attribute value: ";
  EXPECT_EQ(CondMsg("#nope = :nope"), "Invalid ConditionExpression: " + kName + "#nope");
  EXPECT_EQ(CondMsg(":nope = #nope"), "Invalid ConditionExpression: " + kValue + ":nope");
  EXPECT_EQ(CondMsg("a = :v AND b.#q = :nope"), "Invalid ConditionExpression: " + kName + "#q");
  EXPECT_EQ(UpdateMsg("SET a = :x, #z = :v"), "Invalid UpdateExpression: " + kValue + ":x");
  EXPECT_EQ(ProjectionMsg("a, #zz"), "Invalid ProjectionExpression: " + kName + "#zz");
  EXPECT_EQ(CondMsg("pk = :nope", Kind::kKeyCondition),
            "Invalid KeyConditionExpression: " + kValue + ":nope");
  // No maps at all.
  UsedPlaceholders used;
  EXPECT_EQ(Msg(ParseCondition("#a = :b", Kind::kFilter, Placeholders{}, &used)),
            "Invalid FilterExpression: " + kName + "#a");
}

TEST(ParserExpressionPlaceholders, ResolutionAndUse) {
  UsedPlaceholders used;
  auto r = Cond("#d = :v AND #n.#x[0] IN (:a, :v)", Kind::kCondition, &used);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->children[0].operands[0].path, P({"a.b"}));
  const expr::Path& p = r->children[1].operands[0].path;
  ASSERT_EQ(p.elements.size(), 3u);
  EXPECT_EQ(p.elements[0].name, "name");
  EXPECT_EQ(p.elements[1].name, "x");
  EXPECT_EQ(r->children[1].operands[2].value, AttributeValue::S("v"));
  EXPECT_EQ(used.names, (std::set<std::string>{"#d", "#n", "#x"}));
  EXPECT_EQ(used.values, (std::set<std::string>{":a", ":v"}));
}

// ---- limits ----

TEST(ParserExpressionLimits, EmptyExpression) {
  EXPECT_EQ(CondMsg(""), "Invalid ConditionExpression: The expression can not be empty;");
  EXPECT_EQ(CondMsg(" \t\n", Kind::kFilter),
            "Invalid FilterExpression: The expression can not be empty;");
  EXPECT_EQ(CondMsg("", Kind::kKeyCondition),
            "Invalid KeyConditionExpression: The expression can not be empty;");
  EXPECT_EQ(UpdateMsg(""), "Invalid UpdateExpression: The expression can not be empty;");
  EXPECT_EQ(ProjectionMsg("  "), "Invalid ProjectionExpression: The expression can not be empty;");
}

TEST(ParserExpressionLimits, SizeIsCheckedBeforeParsing) {
  std::string ok = "a = :v";
  ok += std::string(kMaxExpressionBytes - ok.size(), ' ');
  EXPECT_EQ(CondMsg(ok), "OK");
  EXPECT_EQ(CondMsg(ok + " "),
            "Invalid ConditionExpression: Expression size has exceeded the maximum allowed size; "
            "expression size: 4097");
  EXPECT_EQ(UpdateMsg(std::string(5000, '(')),
            "Invalid UpdateExpression: Expression size has exceeded the maximum allowed size;");
}

TEST(ParserExpressionLimits, DeepNestingDoesNotOverflow) {
  // 4 KB of '(' and of NOT: refused at the level one past kMaxNestingDepth.
  EXPECT_EQ(CondMsg(std::string(kMaxExpressionBytes, '(')), Syntax("Condition", "(", "((("));
  const std::string nots = Repeat("NOT ", 1000) + "a = :v";
  EXPECT_EQ(CondMsg(nots), Syntax("Condition", "NOT", "NOT NOT NOT"));
  const std::string deep_and = Repeat("(a = :v AND ", 300) + "a = :v" + std::string(300, ')');
  EXPECT_NE(CondMsg(deep_and), "OK");
  EXPECT_EQ(UpdateMsg("SET a = " + Repeat("f(", 1000) + ":v" + std::string(1000, ')')),
            Syntax("Update", "f", "(f("));
  EXPECT_EQ(ProjectionMsg(Repeat("a", 4096)), "OK");

  // Within the limit, nesting works.
  const int depth = kMaxNestingDepth / 2;
  const std::string nested = Repeat("(a = :v AND ", depth) + "a = :v" + std::string(depth, ')');
  auto r = Cond(nested);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->kind, ConditionKind::kAnd);
  EXPECT_EQ(CondMsg(Repeat("NOT ", kMaxNestingDepth - 1) + "a = :v"), "OK");
  EXPECT_EQ(UpdateMsg("SET a = " + Repeat("f(", kMaxNestingDepth - 1) + ":v" +
                      std::string(kMaxNestingDepth - 1, ')')),
            "OK");
}

// ---- the "near" rule itself ----

TEST(ParserExpressionSyntaxErrorText, NearRule) {
  EXPECT_EQ(SyntaxErrorText("SET a = 3", 8), "Syntax error; token: \"3\", near: \"= 3\"");
  EXPECT_EQ(SyntaxErrorText("SET a = ", 8), "Syntax error; token: \"<EOF>\", near: \"= \"");
  EXPECT_EQ(SyntaxErrorText("a  <=  b c", 3), "Syntax error; token: \"<=\", near: \"a  <=  b\"");
  // An offset inside whitespace reports the next token.
  EXPECT_EQ(SyntaxErrorText("a   b", 2), "Syntax error; token: \"b\", near: \"a   b\"");
  EXPECT_EQ(SyntaxErrorText("x", 0), "Syntax error; token: \"x\", near: \"x\"");
}

// ---- request level ----

struct Request {
  expr::ExpressionInput in;
  std::string Run() const { return Msg(NativeExpressionParser().Parse(in)); }
};

TEST(ParserExpressionNativeExpressionParser, ParsesEveryExpression) {
  Request q;
  q.in.update = "SET #a = :v";
  q.in.condition = "attribute_exists(#b)";
  q.in.names = std::map<std::string, std::string>{{"#a", "a"}, {"#b", "b"}};
  q.in.values = std::map<std::string, AttributeValue>{{":v", AttributeValue::S("x")}};
  auto r = NativeExpressionParser().Parse(q.in);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_NE(r->update, nullptr);
  ASSERT_NE(r->condition, nullptr);
  EXPECT_EQ(r->key_condition, nullptr);
  EXPECT_EQ(r->update->actions[0].path, P({"a"}));
  EXPECT_EQ(r->condition->operands[0].path, P({"b"}));

  Request query;
  query.in.key_condition = "pk = :p AND begins_with(sk, :s)";
  query.in.filter = "#f > :p";
  query.in.projection = "#f, x";
  query.in.names = std::map<std::string, std::string>{{"#f", "f"}};
  query.in.values = std::map<std::string, AttributeValue>{{":p", AttributeValue::S("p")},
                                                          {":s", AttributeValue::S("s")}};
  auto qr = NativeExpressionParser().Parse(query.in);
  ASSERT_TRUE(qr.ok()) << qr.status().message();
  EXPECT_NE(qr->key_condition, nullptr);
  EXPECT_NE(qr->filter, nullptr);
  EXPECT_EQ(qr->projection->paths.size(), 2u);

  EXPECT_TRUE(NativeExpressionParser().Parse(expr::ExpressionInput{}).ok());
}

TEST(ParserExpressionNativeExpressionParser, PlaceholderMapErrors) {
  Request names_only;
  names_only.in.names = std::map<std::string, std::string>{};
  EXPECT_EQ(names_only.Run(),
            "ExpressionAttributeNames can only be specified when using expressions");
  Request values_only;
  values_only.in.values = std::map<std::string, AttributeValue>{{":v", AttributeValue::S("x")}};
  EXPECT_EQ(values_only.Run(),
            "ExpressionAttributeValues can only be specified when using expressions");

  Request empty_names;
  empty_names.in.projection = "";
  empty_names.in.names = std::map<std::string, std::string>{};
  EXPECT_EQ(empty_names.Run(), "ExpressionAttributeNames must not be empty");
  Request empty_values;
  empty_values.in.projection = "a";
  empty_values.in.values = std::map<std::string, AttributeValue>{};
  EXPECT_EQ(empty_values.Run(), "ExpressionAttributeValues must not be empty");

  for (const char* key : {"a", "#", "#a-b", "#a.b", ":v"}) {
    Request bad;
    bad.in.projection = "a";
    bad.in.names = std::map<std::string, std::string>{{key, "x"}};
    EXPECT_EQ(bad.Run(), "ExpressionAttributeNames contains invalid key: Syntax error; key: \"" +
                             std::string(key) + "\"");
  }
  Request bad_value_key;
  bad_value_key.in.condition = "a = :v";
  bad_value_key.in.values =
      std::map<std::string, AttributeValue>{{":v", AttributeValue::S("x")}, {"v!", {}}};
  EXPECT_EQ(bad_value_key.Run(),
            "ExpressionAttributeValues contains invalid key: Syntax error; key: \"v!\"");

  Request bad_value;
  bad_value.in.condition = "a = :s";
  const AttributeValue empty_set = AttributeValue::SS({});
  bad_value.in.values = std::map<std::string, AttributeValue>{{":s", empty_set}};
  EXPECT_EQ(bad_value.Run(), "ExpressionAttributeValues contains invalid value: " +
                                 ValidateValue(empty_set).message() + " for key :s");

  Request empty_projection;
  empty_projection.in.projection = "";
  EXPECT_EQ(empty_projection.Run(),
            "Invalid ProjectionExpression: The expression can not be empty;");
}

TEST(ParserExpressionNativeExpressionParser, UnusedPlaceholdersAcrossAllExpressions) {
  Request r;
  r.in.update = "SET #a = :v";
  r.in.names = std::map<std::string, std::string>{{"#a", "a"}, {"#c", "c"}, {"#b", "b"}};
  r.in.values = std::map<std::string, AttributeValue>{{":v", AttributeValue::S("x")},
                                                      {":w", AttributeValue::S("y")}};
  EXPECT_EQ(r.Run(),
            "Value provided in ExpressionAttributeNames unused in expressions: keys: "
            "{#b, #c}");
  r.in.condition = "#b <> :w AND #c = :v";
  EXPECT_EQ(r.Run(), "OK");
  r.in.condition = "#b <> :v AND #c = :v";
  EXPECT_EQ(r.Run(),
            "Value provided in ExpressionAttributeValues unused in expressions: keys: {:w}");
  // A projection can use names but never values.
  Request p;
  p.in.projection = "#a";
  p.in.names = std::map<std::string, std::string>{{"#a", "a"}};
  p.in.values = std::map<std::string, AttributeValue>{{":v", AttributeValue::S("x")}};
  EXPECT_EQ(p.Run(),
            "Value provided in ExpressionAttributeValues unused in expressions: keys: {:v}");
}

TEST(ParserExpressionNativeExpressionParser, ErrorOrderAcrossExpressions) {
  Request r;
  r.in.update = "SET a = :nope";
  r.in.condition = "a =";
  EXPECT_EQ(r.Run(),
            "Invalid UpdateExpression: An expression attribute value used in expression is not "
            "defined; attribute value: :nope");
  r.in.update = "SET a = b";
  EXPECT_EQ(r.Run(), Syntax("Condition", "<EOF>", "="));
  // Syntax errors come before unused placeholders.
  r.in.names = std::map<std::string, std::string>{{"#unused", "u"}};
  EXPECT_EQ(r.Run(), Syntax("Condition", "<EOF>", "="));
}

// The parsers remember the trees of texts they parsed: the same text again is resolved against
// the placeholders it is given now, with the errors, positions and used sets of a first parse.
TEST(ParserExpressionCache, TheSameTextIsResolvedAgainstNewPlaceholders) {
  const std::string text = "#k = :v AND size(#k) > :n OR attribute_type(#k, :t)";
  auto parse = [&](std::map<std::string, std::string> names,
                   std::map<std::string, AttributeValue> values, UsedPlaceholders* used) {
    return ParseCondition(text, Kind::kCondition, Placeholders{&names, &values}, used);
  };
  const AttributeValue s = AttributeValue::S("S");
  for (int round = 0; round < 3; ++round) {
    UsedPlaceholders used;
    Result<Condition> first = parse({{"#k", "alpha"}, {"#z", "z"}},
                                    {{":v", AttributeValue::S("one")},
                                     {":n", AttributeValue::N(Number::FromInt(1))},
                                     {":t", s}},
                                    &used);
    ASSERT_TRUE(first.ok()) << first.status().ToString();
    const Condition& a = first->children[0].children[0];
    EXPECT_EQ(a.operands[0].path, P({"alpha"}));
    EXPECT_EQ(a.operands[1].value, AttributeValue::S("one"));
    EXPECT_EQ(a.operands[1].position, 5u);
    EXPECT_EQ(used.names, (std::set<std::string>{"#k"}));
    EXPECT_EQ(used.values, (std::set<std::string>{":n", ":t", ":v"}));

    Result<Condition> second = parse({{"#k", "a.b"}},
                                     {{":v", AttributeValue::N(Number::FromInt(7))},
                                      {":n", AttributeValue::N(Number::FromInt(2))},
                                      {":t", s}},
                                     nullptr);
    ASSERT_TRUE(second.ok()) << second.status().ToString();
    const Condition& b = second->children[0].children[0];
    EXPECT_EQ(b.operands[0].path, P({"a.b"}));  // one element: #k is one name
    EXPECT_EQ(b.operands[1].value, AttributeValue::N(Number::FromInt(7)));

    // A missing placeholder is the first parse's error, and the tree stays usable after it.
    Result<Condition> missing = parse({{"#k", "alpha"}}, {{":v", s}, {":t", s}}, nullptr);
    EXPECT_EQ(Msg(missing),
              "Invalid ConditionExpression: An expression attribute value used in expression "
              "is not defined; attribute value: :n");
  }
}

}  // namespace
}  // namespace keyhole::parser
