// Tests for parser/partiql.h: DynamoDB's PartiQL dialect (statements, literals, parameters,
// comments, refusals with their exact texts and positions), the translation into the shared
// expression AST, keyhole's own statements, and script splitting.
#include "parser/partiql.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace keyhole::parser {
namespace {

using expr::Condition;
using expr::ConditionKind;
using expr::Operand;
using expr::OperandKind;
using expr::UpdateActionKind;

constexpr char kEnvelope[] = "Statement wasn't well formed, can't be processed: ";

std::string Env(std::string_view detail) { return kEnvelope + std::string(detail); }

ParseResult Parse(std::string_view text, std::vector<AttributeValue> params = {}) {
  return ParseStatement(text, params);
}

// "OK" or the error message.
std::string Msg(std::string_view text, std::vector<AttributeValue> params = {}) {
  ParseResult r = Parse(text, std::move(params));
  return r.ok() ? "OK" : r.error().status.message();
}

// "line:column" of the error, or "OK".
std::string Where(std::string_view text, std::vector<AttributeValue> params = {}) {
  ParseResult r = Parse(text, std::move(params));
  if (r.ok()) return "OK";
  return std::to_string(r.error().position.line) + ":" + std::to_string(r.error().position.column);
}

Statement Ok(std::string_view text, std::vector<AttributeValue> params = {}) {
  ParseResult r = Parse(text, std::move(params));
  EXPECT_TRUE(r.ok()) << text << "\n  -> " << r.status().ToString();
  if (!r.ok()) return Statement{};
  return r.statement();
}

// ---- a compact rendering of the AST, for structural comparisons ----

std::string RenderValue(const AttributeValue& v) {
  auto join = [](const auto& items, auto render) {
    std::string out;
    for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + render(items[i]);
    return out;
  };
  switch (v.type()) {
    case ValueType::kS:
      return "'" + v.s() + "'";
    case ValueType::kN:
      return v.n().ToString();
    case ValueType::kB:
      return "b'" + v.s() + "'";
    case ValueType::kBool:
      return v.boolean() ? "true" : "false";
    case ValueType::kNull:
      return "NULL";
    case ValueType::kL:
      return "[" + join(v.l(), RenderValue) + "]";
    case ValueType::kM: {
      std::string out = "{";
      for (const auto& [k, e] : v.m())
        out += (out.size() > 1 ? ", " : "") + k + ": " + RenderValue(e);
      return out + "}";
    }
    case ValueType::kSS:
      return "SS<<" + join(v.strings(), [](const std::string& s) { return "'" + s + "'"; }) + ">>";
    case ValueType::kNS:
      return "NS<<" + join(v.numbers(), [](const Number& n) { return n.ToString(); }) + ">>";
    case ValueType::kBS:
      return "BS<<" + join(v.strings(), [](const std::string& s) { return s; }) + ">>";
  }
  return "?";
}

std::string RenderPath(const expr::Path& p) {
  std::string out;
  for (const auto& e : p.elements) {
    if (e.is_index) {
      out += "[" + std::to_string(e.index) + "]";
    } else {
      out += (out.empty() ? "" : ".") + e.name;
    }
  }
  return out;
}

std::string RenderOperand(const Operand& o) {
  switch (o.kind) {
    case OperandKind::kPath:
      return RenderPath(o.path);
    case OperandKind::kValue:
      return RenderValue(o.value);
    case OperandKind::kPlus:
      return "(" + RenderOperand(o.args[0]) + " + " + RenderOperand(o.args[1]) + ")";
    case OperandKind::kMinus:
      return "(" + RenderOperand(o.args[0]) + " - " + RenderOperand(o.args[1]) + ")";
    case OperandKind::kFunction: {
      std::string out = o.function + "(";
      for (size_t i = 0; i < o.args.size(); ++i) out += (i ? ", " : "") + RenderOperand(o.args[i]);
      return out + ")";
    }
  }
  return "?";
}

std::string RenderCondition(const Condition& c) {
  std::string out;
  switch (c.kind) {
    case ConditionKind::kCompare:
      return RenderOperand(c.operands[0]) + " " + std::string(expr::CompareOpText(c.op)) + " " +
             RenderOperand(c.operands[1]);
    case ConditionKind::kBetween:
      return RenderOperand(c.operands[0]) + " BETWEEN " + RenderOperand(c.operands[1]) + " AND " +
             RenderOperand(c.operands[2]);
    case ConditionKind::kIn:
      out = RenderOperand(c.operands[0]) + " IN (";
      for (size_t i = 1; i < c.operands.size(); ++i) {
        out += (i > 1 ? ", " : "") + RenderOperand(c.operands[i]);
      }
      return out + ")";
    case ConditionKind::kFunction:
      out = c.function + "(";
      for (size_t i = 0; i < c.operands.size(); ++i) {
        out += (i ? ", " : "") + RenderOperand(c.operands[i]);
      }
      return out + ")";
    case ConditionKind::kAnd:
    case ConditionKind::kOr:
      out = "(";
      for (size_t i = 0; i < c.children.size(); ++i) {
        out += (i ? (c.kind == ConditionKind::kAnd ? " AND " : " OR ") : "") +
               RenderCondition(c.children[i]);
      }
      return out + ")";
    case ConditionKind::kNot:
      return "NOT " + RenderCondition(c.children[0]);
  }
  return "?";
}

std::string RenderUpdate(const expr::UpdateExpression& u) {
  std::string out;
  for (const auto& a : u.actions) {
    if (!out.empty()) out += "; ";
    switch (a.kind) {
      case UpdateActionKind::kSet:
        out += "SET " + RenderPath(a.path) + " = " + RenderOperand(a.value);
        break;
      case UpdateActionKind::kRemove:
        out += "REMOVE " + RenderPath(a.path);
        break;
      case UpdateActionKind::kAdd:
        out += "ADD " + RenderPath(a.path) + " " + RenderOperand(a.value);
        break;
      case UpdateActionKind::kDelete:
        out += "DELETE " + RenderPath(a.path) + " " + RenderOperand(a.value);
        break;
    }
  }
  return out;
}

// The rendered WHERE of `SELECT * FROM "Tab" WHERE <cond>`, or the error message.
std::string Cond(std::string_view cond, std::vector<AttributeValue> params = {}) {
  ParseResult r = Parse("SELECT * FROM \"Tab\" WHERE " + std::string(cond), std::move(params));
  if (!r.ok()) return "ERROR: " + r.error().status.message();
  return RenderCondition(*r.statement().as<SelectStatement>().where);
}

// The rendered actions of `UPDATE "Tab" <actions> WHERE pk = 1`, or the error message.
std::string Actions(std::string_view actions, std::vector<AttributeValue> params = {}) {
  ParseResult r =
      Parse("UPDATE \"Tab\" " + std::string(actions) + " WHERE pk = 1", std::move(params));
  if (!r.ok()) return "ERROR: " + r.error().status.message();
  return RenderUpdate(r.statement().as<UpdateStatement>().update);
}

// The rendered item of `INSERT INTO "Tab" VALUE <item>`, or the error message.
std::string Item(std::string_view item, std::vector<AttributeValue> params = {}) {
  ParseResult r = Parse("INSERT INTO \"Tab\" VALUE " + std::string(item), std::move(params));
  if (!r.ok()) return "ERROR: " + r.error().status.message();
  return RenderValue(AttributeValue::M(r.statement().as<InsertStatement>().item));
}

AttributeValue S(std::string s) { return AttributeValue::S(std::move(s)); }
AttributeValue N(int64_t n) { return AttributeValue::N(Number::FromInt(n)); }

// ============================================================================================
// Grammar soundness
// ============================================================================================

TEST(ParserPartiqlGrammar, AnalyzeFindsNoProblem) { EXPECT_EQ(AnalyzePartiqlGrammar(true), 0u); }

// ============================================================================================
// Lexical rules
// ============================================================================================

TEST(ParserPartiqlLexical, KeywordsAreCaseInsensitiveIdentifiersCaseSensitive) {
  Statement s = Ok("select * from Music where Artist = 'x' and \"artist\" = 'y'");
  const auto& sel = s.as<SelectStatement>();
  EXPECT_EQ(sel.table, "Music");
  EXPECT_EQ(RenderCondition(*sel.where), "(Artist = 'x' AND artist = 'y')");
  EXPECT_EQ(Cond("A = 1 aNd B = 2"), "(A = 1 AND B = 2)");
}

TEST(ParserPartiqlLexical, Comments) {
  EXPECT_EQ(Cond("-- leading\n a = 1 /* inline */ AND /* x */ b = 2 -- trailing"),
            "(a = 1 AND b = 2)");
  EXPECT_EQ(Cond("a = /* multi\nline */ 1"), "a = 1");
  EXPECT_EQ(Msg("SELECT * FROM \"Tab\" /* never closed"), Env(""));
  EXPECT_EQ(Where("SELECT * FROM \"Tab\" /* never closed"), "1:21");
}

TEST(ParserPartiqlLexical, HashAndOtherCharactersAreLexicalErrors) {
  EXPECT_EQ(Msg("SELECT * FROM \"Tab\" # comment"), Env(""));
  EXPECT_EQ(Where("SELECT * FROM \"Tab\" # comment"), "1:21");
  // A lexical error is reported even when a syntax error comes earlier.
  EXPECT_EQ(Msg("SELECT FROM WHERE #"), Env(""));
  EXPECT_EQ(Msg("SELECT * FROM \"Tab\" WHERE a = `1`"), Env(""));
  EXPECT_EQ(Msg("SELECT * FROM \"Tab\" WHERE a ! 1"), Env(""));
  EXPECT_EQ(Msg("SELECT * FROM \"Tab\" WHERE a = 'unterminated"), Env(""));
  EXPECT_EQ(Where("SELECT * FROM \"Tab\" WHERE a = 'unterminated"), "1:31");
  EXPECT_EQ(Msg("SELECT * FROM \"Tab WHERE a = 1"), Env(""));
  EXPECT_EQ(Msg("SELECT * FROM \"Tab\" WHERE a = 1e"), Env(""));
  EXPECT_EQ(Msg("SELECT * FROM \"Tab\" WHERE a = \xC3\xA9"), Env(""));
}

TEST(ParserPartiqlLexical, ExponentMustFitInt32) {
  EXPECT_EQ(Msg("SELECT * FROM \"Tab\" WHERE a = 1e2147483648"), Env(""));
  EXPECT_EQ(Msg("SELECT * FROM \"Tab\" WHERE a = 1e-2147483649"), Env(""));
  // Literals are read as Java's BigDecimal reads them (partiqlGrammar.test.ts, October 2026):
  // precision - scale wraps, and an exponent or scale past int32 does not parse.
  EXPECT_EQ(Cond("a = 1e2147483647"),
            "ERROR: Number underflow. Attempting to store a number with magnitude smaller than "
            "supported range under root");
  EXPECT_EQ(Cond("a = 1e-2147483648"), "ERROR: Statement wasn't well formed, can't be processed: ");
  EXPECT_EQ(Cond("a = 1.5e-2147483647"),
            "ERROR: Statement wasn't well formed, can't be processed: ");
}

TEST(ParserPartiqlLexical, StatementLengthLimit) {
  std::string ok = "SELECT * FROM \"Tab\"";
  ok += std::string(kMaxStatementChars - ok.size(), ' ');
  EXPECT_EQ(Msg(ok), "OK");
  std::string too_long = ok + " ";
  EXPECT_EQ(Msg(too_long),
            "1 validation error detected: Value at 'statement' failed to satisfy constraint: "
            "Member must have length less than or equal to 8192");
  EXPECT_EQ(Where(too_long), "1:8193");
  // Characters, not bytes: 8192 two-byte characters in a string are fine.
  std::string wide = "SELECT * FROM \"Tab\" WHERE a = '";
  const size_t room = kMaxStatementChars - wide.size() - 1;
  for (size_t i = 0; i < room; ++i) wide += "\xC3\xA9";
  wide += "'";
  EXPECT_EQ(Msg(wide), "OK");
}

TEST(ParserPartiqlLexical, OneStatementOnly) {
  EXPECT_EQ(Msg("SELECT * FROM \"Tab\";"), "OK");
  EXPECT_EQ(Msg("SELECT * FROM \"Tab\" ; -- done"), "OK");
  EXPECT_EQ(Msg("SELECT * FROM \"Tab\"; SELECT * FROM \"Tab\""),
            "Only one operation is allowed in a statement.");
  EXPECT_EQ(Msg("SELECT * FROM \"Tab\";;"), "Only one operation is allowed in a statement.");
}

TEST(ParserPartiqlLexical, PositionsAreLineAndCharacterColumn) {
  EXPECT_EQ(Where("SELECT *\nFROM \"Tab\"\nWHERE a = 1 foo"), "3:13");
  EXPECT_EQ(Where("SELECT * FROM \"Tab\" WHERE a = '\xC3\xA9\xC3\xA9' foo"), "1:36");
  const SourcePosition p = PositionOf("ab\ncd\xC3\xA9x", 7);
  EXPECT_EQ(p.line, 2);
  EXPECT_EQ(p.column, 4);
  EXPECT_EQ(p.offset, 7u);
  EXPECT_EQ(PositionOf("abc", 99).column, 4);
}

// ============================================================================================
// Literals and parameters
// ============================================================================================

TEST(ParserPartiqlLiterals, Strings) {
  EXPECT_EQ(Cond("a = 'it''s'"), "a = 'it's'");
  EXPECT_EQ(Cond("a = ''"), "a = ''");
  EXPECT_EQ(Cond("a = 'semi;colon -- not a comment'"), "a = 'semi;colon -- not a comment'");
}

TEST(ParserPartiqlLiterals, QuotedIdentifiers) {
  EXPECT_EQ(Cond("\"a\"\"b\" = 1"), "a\"b = 1");
  EXPECT_EQ(Cond("\"select\" = 1"), "select = 1");
  EXPECT_EQ(Cond("a.\"b c\"[2].\"d.e\" = 1"), "a.b c[2].d.e = 1");
  Statement s = Ok("SELECT * FROM \"my-table.v1\"");
  EXPECT_EQ(s.as<SelectStatement>().table, "my-table.v1");
}

TEST(ParserPartiqlLiterals, NumbersInAllSpellings) {
  EXPECT_EQ(Cond("a IN [1, 1.0, 1e0, 7.31E6, 7.31e+6, .73e1, -.73e1, 1., +5, - 2, 0042.1200]"),
            "a IN (1, 1, 1, 7310000, 7310000, 7.3, -7.3, 1, 5, -2, 42.12)");
  EXPECT_EQ(Cond("a = 12345678901234567890123456789012345678"),
            "a = 12345678901234567890123456789012345678");
  EXPECT_EQ(Cond("a = 123456789012345678901234567890123456789"),
            "ERROR: Attempting to store more than 38 significant digits in a Number under root");
}

// An INSERT's attribute values are each "root", their members below it (partiqlGrammar.test.ts,
// October 2026: `{'pk': 1e126}` under root, `{'m': {'x': ..}}` under root.x).
TEST(ParserPartiqlLiterals, NumberRangeErrorsNameThePath) {
  EXPECT_EQ(Item("{'x': 1e126}"),
            "ERROR: Number overflow. Attempting to store a number with magnitude larger than "
            "supported range under root");
  EXPECT_EQ(Item("{'m': {'x': 1e126}}"),
            "ERROR: Number overflow. Attempting to store a number with magnitude larger than "
            "supported range under root.x");
  EXPECT_EQ(Item("{'l': [1, 1e-131]}"),
            "ERROR: Number underflow. Attempting to store a number with magnitude smaller than "
            "supported range under root[1]");
  EXPECT_EQ(Item("{'m': {'n': <<1, 1e200>>}}"),
            "ERROR: Number overflow. Attempting to store a number with magnitude larger than "
            "supported range under root.n[1]");
}

TEST(ParserPartiqlLiterals, BooleansNullAndCollections) {
  EXPECT_EQ(Item("{'t': true, 'f': FALSE, 'n': Null, 'l': [1, 'a', [], {}], "
                 "'m': {'k': {'x': NULL}}}"),
            "{f: false, l: [1, 'a', [], {}], m: {k: {x: NULL}}, n: NULL, t: true}");
  EXPECT_EQ(Item("{'row': (1, 'a'), 'grouped': (5)}"), "{grouped: 5, row: [1, 'a']}");
}

TEST(ParserPartiqlLiterals, Sets) {
  EXPECT_EQ(Item("{'ns': <<3, 1, 2>>, 'ss': <<'b', 'a'>>}"),
            "{ns: NS<<1, 2, 3>>, ss: SS<<'a', 'b'>>}");
  EXPECT_EQ(Item("{'s': <<>>}"), "ERROR: Empty bags are not supported");
  EXPECT_EQ(Item("{'s': <<1, 'a'>>}"),
            "ERROR: Unsupported data type in Bag. DynamoDB only supports either numbers or "
            "strings in bags");
  EXPECT_EQ(Item("{'s': <<[1]>>}"),
            "ERROR: Unsupported data type in Bag. DynamoDB only supports either numbers or "
            "strings in bags");
  EXPECT_EQ(Item("{'s': <<1, 1.0>>}"),
            "ERROR: One or more parameter values were invalid: Input collection [1, 1] contains "
            "duplicates.");
  EXPECT_EQ(Item("{'s': <<'x', 'x'>>}"),
            "ERROR: One or more parameter values were invalid: Input collection [x, x] contains "
            "duplicates.");
}

TEST(ParserPartiqlLiterals, MapKeys) {
  EXPECT_EQ(Item("{'a': 1, 'a': 2}"), "ERROR: Duplicate keys in tuple. Key: a under root");
  EXPECT_EQ(Item("{'m': {'k': 1, 'k': 2}}"), "ERROR: Duplicate keys in tuple. Key: k under root");
  EXPECT_EQ(Item("{'m': {'n': {'k': 1, 'k': 2}}}"),
            "ERROR: Duplicate keys in tuple. Key: k under root.n");
  EXPECT_EQ(Item("{1: 2}"),
            "ERROR: Tuple keys must be of type String. Actual type: INT under root");
  EXPECT_EQ(Item("{'m': {1.5: 2}}"),
            "ERROR: Tuple keys must be of type String. Actual type: DECIMAL under root");
  EXPECT_EQ(Item("{?: 1}", {S("k")}), "{k: 1}");
  EXPECT_EQ(Item("{?: 1}", {N(3)}),
            "ERROR: Tuple keys must be of type String. Actual type: DECIMAL under root");
}

TEST(ParserPartiqlLiterals, MissingOnlyAfterIs) {
  EXPECT_EQ(Cond("a = MISSING"), "ERROR: MISSING must be compared using IS operator");
  EXPECT_EQ(Item("{'a': MISSING}"), "ERROR: MISSING must be compared using IS operator");
  EXPECT_EQ(Cond("a IS MISSING"), "attribute_not_exists(a)");
}

TEST(ParserPartiqlLiterals, NonLiteralItemValuesAreRefused) {
  EXPECT_EQ(Item("{'a': set_add(a, <<1>>)}"),
            "ERROR: Unsupported data type: set_add under key root at 1:31:7");
  EXPECT_EQ(Item("{'a': b.c}"), "ERROR: Unsupported data type: b.c under key root at 1:31:3");
}

TEST(ParserPartiqlParameters, BoundInOrder) {
  EXPECT_EQ(Cond("a = ? AND b IN [?, ?]", {S("x"), N(1), N(2)}), "(a = 'x' AND b IN (1, 2))");
  EXPECT_EQ(Item("{'pk': ?, 'bin': ?, 'n': [?]}",
                 {S("k"), AttributeValue::BS({"\x01", "\x02"}), AttributeValue::Null()}),
            "{bin: BS<<\x01, \x02>>, n: [NULL], pk: 'k'}");
}

TEST(ParserPartiqlParameters, CountMismatch) {
  EXPECT_EQ(Msg("SELECT * FROM \"Tab\" WHERE a = ? AND b = ?", {S("x")}),
            "Number of parameters in request and statement don't match.");
  EXPECT_EQ(Where("SELECT * FROM \"Tab\" WHERE a = ? AND b = ?", {S("x")}), "1:41");
  EXPECT_EQ(Msg("SELECT * FROM \"Tab\" WHERE a = 1", {S("x")}),
            "Number of parameters in request and statement don't match.");
  // Question marks inside strings and identifiers are not parameters.
  EXPECT_EQ(Cond("a = '?' AND \"?\" = 1"), "(a = '?' AND ? = 1)");
}

// The same text again (its syntax tree remembered) binds the new parameters; a count mismatch
// and a parameter of the wrong kind are still caught; texts that fail stay failures.
TEST(ParserPartiqlParameters, TheSameTextAgainBindsItsNewParameters) {
  for (int round = 0; round < 3; ++round) {
    EXPECT_EQ(Cond("a = ? AND b IN [?, ?]", {S("x"), N(1), N(2)}), "(a = 'x' AND b IN (1, 2))");
    EXPECT_EQ(Cond("a = ? AND b IN [?, ?]", {S("y"), N(3), S("z")}), "(a = 'y' AND b IN (3, 'z'))");
    EXPECT_EQ(Msg("SELECT * FROM \"Tab\" WHERE a = ? AND b = ?", {S("x")}),
              "Number of parameters in request and statement don't match.");
    EXPECT_EQ(Cond("a IN ?", {AttributeValue::L({N(round)})}),
              "a IN (" + std::to_string(round) + ")");
    EXPECT_EQ(Cond("a IN ?", {N(1)}),
              "ERROR: IN operator must have a left hand argument of type Variable Reference and "
              "right hand argument of type Seq with at least one member");
    EXPECT_EQ(Msg("SELECT * FROM \"Tab\" WHERE a = ? AND", {S("x")}).substr(0, 9), "Statement");
  }
  // More distinct texts than the cache holds: every one still parses right.
  for (int i = 0; i < 600; ++i) {
    const std::string name = "a" + std::to_string(i);
    EXPECT_EQ(Cond(name + " = ?", {N(i)}), name + " = " + std::to_string(i));
  }
}

TEST(ParserPartiqlParameters, InParameterMustBeAList) {
  EXPECT_EQ(Cond("a IN ?", {AttributeValue::L({N(1), S("b")})}), "a IN (1, 'b')");
  EXPECT_EQ(Cond("a IN ?", {N(1)}),
            "ERROR: IN operator must have a left hand argument of type Variable Reference and "
            "right hand argument of type Seq with at least one member");
}

// ============================================================================================
// SELECT
// ============================================================================================

TEST(ParserPartiqlSelect, Basic) {
  Statement s = Ok("SELECT a, b.c, \"d e\"[1] FROM \"Tab\".\"gsi-1\" WHERE pk = 'x'");
  ASSERT_EQ(s.kind(), StatementKind::kSelect);
  const auto& sel = s.as<SelectStatement>();
  EXPECT_EQ(sel.table, "Tab");
  EXPECT_EQ(sel.index, "gsi-1");
  EXPECT_FALSE(sel.select_all);
  ASSERT_EQ(sel.projection.size(), 3u);
  EXPECT_EQ(RenderPath(sel.projection[0]), "a");
  EXPECT_EQ(RenderPath(sel.projection[1]), "b.c");
  EXPECT_EQ(RenderPath(sel.projection[2]), "d e[1]");
  EXPECT_EQ(RenderCondition(*sel.where), "pk = 'x'");
  EXPECT_EQ(s.dynamodb_text, "SELECT a, b.c, \"d e\"[1] FROM \"Tab\".\"gsi-1\" WHERE pk = 'x'");

  Statement all = Ok("SELECT * FROM Tab");
  EXPECT_TRUE(all.as<SelectStatement>().select_all);
  EXPECT_FALSE(all.as<SelectStatement>().where);
  EXPECT_FALSE(all.as<SelectStatement>().index);
}

TEST(ParserPartiqlSelect, ProjectionRules) {
  EXPECT_EQ(Msg("SELECT *, a FROM \"Tab\""),
            "Other attributes should not be present in the projection when '*' is used.");
  EXPECT_EQ(Msg("SELECT a, * FROM \"Tab\""),
            "Other attributes should not be present in the projection when '*' is used.");
  EXPECT_EQ(Msg("SELECT a, b, a FROM \"Tab\""), "Duplicate identifiers in select clause: a");
  EXPECT_EQ(Msg("SELECT attribute_type(a, 'S') FROM \"Tab\""),
            "Unexpected path component at 1:8:14");
  EXPECT_EQ(Msg("SELECT 'lit' FROM \"Tab\""), "Unexpected path component at 1:8:5");
  EXPECT_EQ(Msg("SELECT DISTINCT a FROM \"Tab\""), "Unsupported token in expression: DISTINCT");
  EXPECT_EQ(Msg("SELECT VALUE a FROM \"Tab\""),
            "Select projection doesn't support value or pivot keywords");
  EXPECT_EQ(Msg("SELECT PIVOT a AT b FROM \"Tab\""),
            "Select projection doesn't support value or pivot keywords");
  EXPECT_EQ(Msg("SELECT a.* FROM \"Tab\""), "Unpivot path component like a.*.b are not supported");
  EXPECT_EQ(Msg("SELECT a[*].b FROM \"Tab\""),
            "Wildcard path component like a[*].b are not supported");
  EXPECT_EQ(Msg("SELECT a FROM"), Env("Unexpected term"));
  EXPECT_EQ(Msg("SELECT a"), Env("Expected FROM"));
  EXPECT_EQ(Msg("SELECT FROM \"Tab\""), Env("Unexpected keyword"));
}

TEST(ParserPartiqlSelect, Aliases) {
  EXPECT_EQ(Msg("SELECT * FROM \"Tab\" t"), "Aliasing is not supported");
  EXPECT_EQ(Msg("SELECT * FROM \"Tab\" AS t WHERE t.a = 1"), "Aliasing is not supported");
  EXPECT_EQ(Msg("SELECT a AS b FROM \"Tab\""), "Aliasing is not supported");
  EXPECT_EQ(Msg("SELECT a \"b\" FROM \"Tab\""), "Aliasing is not supported");
  EXPECT_EQ(Msg("SELECT * FROM \"Tab\" AT i"), "Aliasing is not supported");
}

TEST(ParserPartiqlSelect, UnsupportedClauses) {
  EXPECT_EQ(Msg("SELECT * FROM \"Tab\" GROUP BY a"), "Unsupported clause: GROUP BY");
  EXPECT_EQ(Msg("SELECT * FROM \"Tab\" WHERE a = 1 GROUP BY a"), "Unsupported clause: GROUP BY");
  EXPECT_EQ(Msg("SELECT * FROM \"Tab\" WHERE a = 1 HAVING a = 1"), "Unsupported clause: HAVING");
  EXPECT_EQ(Msg("SELECT * FROM \"Tab\" LIMIT 10"), "Unsupported clause: LIMIT");
  EXPECT_EQ(Msg("SELECT * FROM \"Tab\" WHERE pk = 1 ORDER BY sk LIMIT 10"),
            "Unsupported clause: LIMIT");
  EXPECT_EQ(Where("SELECT * FROM \"Tab\" WHERE pk = 1 LIMIT 10"), "1:34");
}

TEST(ParserPartiqlSelect, FromClause) {
  EXPECT_EQ(Msg("SELECT * FROM a.b.c"),
            "A path may contain at most 2 components in the FROM clause");
  EXPECT_EQ(Msg("SELECT * FROM \"Tab\", \"Other\""),
            "Only select from a single table or index is supported.");
  EXPECT_EQ(Msg("SELECT * FROM \"Tab\" JOIN \"Other\" ON a = b"),
            "Only select from a single table or index is supported.");
  EXPECT_EQ(Msg("SELECT * FROM [1, 2]"), "Only select from a single table or index is supported.");
  const std::string name_rule =
      "Table name should be within the length [3, 255] and only contain 'a-z', 'A-Z', '0-9', "
      "'-', '_', '.'.";
  EXPECT_EQ(Msg("SELECT * FROM \"ab\""), name_rule);
  EXPECT_EQ(Msg("SELECT * FROM \"a b c\""), name_rule);
  EXPECT_EQ(Msg("SELECT * FROM \"" + std::string(256, 'x') + "\""), name_rule);
  EXPECT_EQ(Msg("SELECT * FROM \"" + std::string(255, 'x') + "\""), "OK");
  EXPECT_EQ(Msg("SELECT * FROM \"\""), "Path component cannot be an empty string");
}

TEST(ParserPartiqlSelect, OrderBy) {
  Statement s = Ok("SELECT * FROM \"Tab\" WHERE pk = 1 ORDER BY sk DESC, \"x\" ASC, y");
  const auto& order = s.as<SelectStatement>().order_by;
  ASSERT_EQ(order.size(), 3u);
  EXPECT_EQ(order[0], (OrderKey{"sk", true}));
  EXPECT_EQ(order[1], (OrderKey{"x", false}));
  EXPECT_EQ(order[2], (OrderKey{"y", false}));
  EXPECT_EQ(Msg("SELECT * FROM \"Tab\" ORDER BY sk"),
            "Must have WHERE clause in the statement when using ORDER BY clause.");
  EXPECT_EQ(Msg("SELECT * FROM \"Tab\" WHERE pk = 1 ORDER BY a.b"),
            "Argument to ORDER BY must be of type VariableReference. Type: Path");
  EXPECT_EQ(Msg("SELECT * FROM \"Tab\" WHERE pk = 1 ORDER BY 1"),
            "Argument to ORDER BY must be of type VariableReference. Type: Literal");
  EXPECT_EQ(Msg("SELECT * FROM \"Tab\" ORDER BY sk WHERE pk = 1"),
            Env("Unexpected token after expression"));
  EXPECT_EQ(Msg("SELECT * FROM \"Tab\" WHERE pk = 1 ORDER sk"), Env("Expected BY"));
}

TEST(ParserPartiqlSelect, TrailingTokens) {
  EXPECT_EQ(Msg("SELECT * FROM \"Tab\" WHERE pk = 1 foo"),
            Env("Unexpected token after expression"));
  EXPECT_EQ(Where("SELECT * FROM \"Tab\" WHERE pk = 1 foo"), "1:34");
  EXPECT_EQ(Msg("SELECT * FROM \"Tab\" WHERE pk = 1)"), Env("Unexpected token after expression"));
  EXPECT_EQ(Msg("SELECT * FROM \"Tab\" WHERE a = 1 = 2"),
            "A condition cannot be used as an operand of =");
}

TEST(ParserPartiqlSelect, Paths) {
  EXPECT_EQ(Cond("a.b[0].c[12] = 1"), "a.b[0].c[12] = 1");
  EXPECT_EQ(Cond("a [ 1 ] . b = 1"), "a[1].b = 1");
  EXPECT_EQ(Cond("m.inner = 1"), "ERROR: " + Env("Invalid path dot component"));
  EXPECT_EQ(Cond("m.\"inner\" = 1"), "m.inner = 1");
  EXPECT_EQ(Cond("m. = 1"), "ERROR: " + Env("Invalid path dot component"));
  EXPECT_EQ(Cond("a[x] = 1"), "ERROR: " + Env("Invalid path component"));
  EXPECT_EQ(Cond("a[1 = 1"), "ERROR: " + Env("Expected ']'"));
  EXPECT_EQ(Cond("a[2147483647] = 1"), "a[2147483647] = 1");
  EXPECT_EQ(Cond("a[2147483648] = 1"),
            "ERROR: List index is not within the allowable range; index: [2147483648]");
  EXPECT_EQ(Cond("a[-1] = 1"), "ERROR: List index is not within the allowable range; index: [-1]");
  EXPECT_EQ(Cond("a.\"\" = 1"), "ERROR: Path component cannot be an empty string");
  std::string deep = "a";
  for (int i = 0; i < 32; ++i) deep += ".b";
  EXPECT_EQ(Cond(deep + " = 1"),
            "ERROR: The document path has too many nesting levels; nesting levels: 33");
  // PartiQL keywords are not plain identifiers.
  EXPECT_EQ(Cond("date = 1"), "ERROR: " + Env("Unexpected keyword"));
  EXPECT_EQ(Cond("\"date\" = 1"), "date = 1");
  EXPECT_EQ(Cond("value = 1"), "ERROR: " + Env("Unexpected keyword"));
  EXPECT_EQ(Cond("android = 1 AND orange = 2 AND isolated = 3"),
            "(android = 1 AND orange = 2 AND isolated = 3)");
}

// ============================================================================================
// WHERE: syntax errors with DynamoDB's texts
// ============================================================================================

TEST(ParserPartiqlWhere, SyntaxErrors) {
  EXPECT_EQ(Cond(""), "ERROR: " + Env("Unexpected term"));
  EXPECT_EQ(Cond("NOT"), "ERROR: " + Env("Unexpected term"));
  EXPECT_EQ(Cond("("), "ERROR: " + Env("Unexpected term"));
  EXPECT_EQ(Cond("a = 1 AND"),
            "ERROR: " + Env("Missing right-hand side expression of infix operator"));
  EXPECT_EQ(Cond("a = 1 OR"),
            "ERROR: " + Env("Missing right-hand side expression of infix operator"));
  EXPECT_EQ(Cond("a ="), "ERROR: " + Env("Missing right-hand side expression of infix operator"));
  EXPECT_EQ(Cond("a = 1 AND;"),
            "ERROR: " + Env("Missing right-hand side expression of infix operator"));
  EXPECT_EQ(Cond("a IN"), "ERROR: " + Env("Missing right-hand side expression of infix operator"));
  EXPECT_EQ(Cond("ORDER BY x"), "ERROR: " + Env("Unexpected keyword"));
  EXPECT_EQ(Cond("a = 1 AND )"), "ERROR: " + Env("Unexpected term"));
  EXPECT_EQ(Cond("a IS FOO"), "ERROR: " + Env("Expected type name"));
  EXPECT_EQ(Cond("a IS NOT"), "ERROR: " + Env("Expected type name"));
  EXPECT_EQ(Cond("IS NULL"), "ERROR: " + Env("Unexpected operator"));
  EXPECT_EQ(Cond("a = LIKE"), "ERROR: " + Env("Unexpected operator"));
  EXPECT_EQ(Cond("a = AND b"), "ERROR: " + Env("Unexpected operator"));
  EXPECT_EQ(Cond("a = * 2"), "ERROR: " + Env("Unexpected operator"));
  EXPECT_EQ(Cond("a = - b"), "ERROR: " + Env("Unexpected operator"));
  EXPECT_EQ(Cond("a BETWEEN 1"), "ERROR: " + Env("Expected AND"));
  EXPECT_EQ(Cond("a BETWEEN 1 AND"), "ERROR: " + Env("Expected expression after AND"));
  EXPECT_EQ(Cond("(a = 1"), "ERROR: " + Env("Expected ')'"));
  EXPECT_EQ(Cond("a IN [1, 2"), "ERROR: " + Env("Expected ']'"));
  EXPECT_EQ(Cond("a IN [1, ]"), "ERROR: " + Env("Unexpected term"));
  EXPECT_EQ(Cond("a IN ()"), "ERROR: " + Env("Unexpected term"));
  EXPECT_EQ(Cond("a = {'k' 1}"), "ERROR: " + Env("Expected ':'"));
  EXPECT_EQ(Cond("a = <<1, 2"), "ERROR: " + Env("Expected '>>'"));
  EXPECT_EQ(Where("SELECT * FROM \"Tab\" WHERE a = 1 AND"), "1:36");
  EXPECT_EQ(Where("SELECT * FROM \"Tab\" WHERE"), "1:26");
}

TEST(ParserPartiqlWhere, SemanticErrors) {
  EXPECT_EQ(Cond("a"), "ERROR: WHERE clause must contain an expression that resolves to a boolean");
  EXPECT_EQ(Cond("size(a)"),
            "ERROR: WHERE clause must contain an expression that resolves to a boolean");
  EXPECT_EQ(Cond("a AND b = 1"), "ERROR: The arguments to AND/OR must be Expressions");
  EXPECT_EQ(Cond("b = 1 OR 'x'"), "ERROR: The arguments to AND/OR must be Expressions");
  EXPECT_EQ(Cond("NOT a"), "ERROR: The argument to NOT must be a Type or Expression");
  const std::string in_message =
      "ERROR: IN operator must have a left hand argument of type Variable Reference and right "
      "hand argument of type Seq with at least one member";
  EXPECT_EQ(Cond("a IN []"), in_message);
  EXPECT_EQ(Cond("'x' IN [1]"), in_message);
  EXPECT_EQ(Cond("a IN 1"), in_message);
  EXPECT_EQ(Cond("size(a) IS NULL"),
            "ERROR: The left hand side argument to IS must be a Variable Reference, Literal, or "
            "Path");
  EXPECT_EQ(Cond("a IS SYMBOL"),
            "ERROR: Unsupported data type for IS operator: SYMBOL. Supported data types are "
            "[MISSING, NULL, BOOLEAN, BLOB, STRING, NUMERIC, STRUCT, TUPLE, LIST]");
  EXPECT_EQ(Cond("a IS CHARACTER  VARYING"),
            "ERROR: Unsupported data type for IS operator: CHARACTER VARYING. Supported data "
            "types are [MISSING, NULL, BOOLEAN, BLOB, STRING, NUMERIC, STRUCT, TUPLE, LIST]");
  EXPECT_EQ(Cond("a + 1 = 2"), "ERROR: Unsupported operator in WHERE clause. Operator: +");
  EXPECT_EQ(Cond("a = b * 2"), "ERROR: Unsupported operator in WHERE clause. Operator: *");
  EXPECT_EQ(Cond("a LIKE 'x%'"),
            "ERROR: Unsupported operator in WHERE clause. Operator: LIKE. Use begins_with(path, "
            "value) or contains(path, value) instead");
  EXPECT_EQ(Cond("(a = 1) = TRUE"), "ERROR: A condition cannot be used as an operand of =");
}

TEST(ParserPartiqlWhere, UnknownFunctions) {
  EXPECT_EQ(Cond("exists(a)"), "ERROR: Unrecognized function: exists at 1:27:6");
  // The name in lower case, the position and length as written (partiqlFunctions.test.ts).
  EXPECT_EQ(Cond("EXISTS(a)"), "ERROR: Unrecognized function: exists at 1:27:6");
  // attribute_exists compared with a boolean is its own test (whereFunctions.test.ts).
  EXPECT_EQ(Cond("attribute_exists(a) = true"), "attribute_exists(a)");
  EXPECT_EQ(Cond("true = attribute_not_exists(a)"), "attribute_not_exists(a)");
  EXPECT_EQ(Cond("attribute_exists(a) <> true"), "NOT attribute_exists(a)");
  // A bare type test is refused as DynamoDB refuses it (partiqlGrammar.test.ts).
  EXPECT_EQ(Msg("x IS INT4"), "Unsupported operation: IsType");
  EXPECT_EQ(Msg("x IS NOT DOUBLE PRECISION"), "Unsupported operation: IsType");
  EXPECT_EQ(Cond("missing_fn(a)"), "ERROR: Unrecognized function: missing_fn at 1:27:10");
  EXPECT_EQ(Cond("a = 1 AND set_add(s, <<1>>)"), "ERROR: Unrecognized function: set_add at 1:37:7");
  EXPECT_EQ(Cond("size(upper(a)) = 1"), "ERROR: Unrecognized function: upper at 1:32:5");
  EXPECT_EQ(Cond("list_append(a, b) = 1"), "ERROR: Unrecognized function: list_append at 1:27:11");
}

TEST(ParserPartiqlWhere, NativeValidationApplies) {
  EXPECT_EQ(Cond("a < true"),
            "ERROR: Incorrect operand type for operator or function; operator or function: <, "
            "operand type: BOOL");
  EXPECT_EQ(Cond("attribute_exists()"),
            "ERROR: Incorrect number of operands for operator or function; operator or "
            "function: attribute_exists, number of operands: 0");
  EXPECT_EQ(Cond("attribute_exists('a')"),
            "ERROR: Operator or function requires a document path; operator or function: "
            "attribute_exists");
  EXPECT_EQ(Cond("begins_with(a, 'x') = true"),
            "ERROR: The function is not allowed to be used this way in an expression; function: "
            "begins_with");
}

// ============================================================================================
// WHERE: translation into the shared AST
// ============================================================================================

TEST(ParserPartiqlTranslate, Comparisons) {
  EXPECT_EQ(Cond("a = 1"), "a = 1");
  EXPECT_EQ(Cond("a <> 'x'"), "a <> 'x'");
  EXPECT_EQ(Cond("a != 'x'"), "a <> 'x'");
  EXPECT_EQ(Cond("a < 1 AND b <= 2 AND c > 3 AND d >= 4"),
            "(a < 1 AND b <= 2 AND c > 3 AND d >= 4)");
  EXPECT_EQ(Cond("a = b"), "a = b");
  EXPECT_EQ(Cond("1 = a"), "1 = a");
  EXPECT_EQ(Cond("a = [1, 'x'] OR b = {'k': <<'s'>>}"), "(a = [1, 'x'] OR b = {k: SS<<'s'>>})");
  EXPECT_EQ(Cond("(a) = (1)"), "a = 1");
}

TEST(ParserPartiqlTranslate, Precedence) {
  EXPECT_EQ(Cond("a = 1 OR b = 2 AND c = 3"), "(a = 1 OR (b = 2 AND c = 3))");
  EXPECT_EQ(Cond("(a = 1 OR b = 2) AND c = 3"), "((a = 1 OR b = 2) AND c = 3)");
  EXPECT_EQ(Cond("NOT a = 1 AND b = 2"), "(NOT a = 1 AND b = 2)");
  EXPECT_EQ(Cond("NOT NOT a = 1"), "NOT NOT a = 1");
  EXPECT_EQ(Cond("NOT (a = 1 OR b = 2)"), "NOT (a = 1 OR b = 2)");
  EXPECT_EQ(Cond("x BETWEEN 1 AND 2 AND y = 3"), "(x BETWEEN 1 AND 2 AND y = 3)");
  EXPECT_EQ(Cond("a = 1 OR b = 2 OR c = 3"), "(a = 1 OR b = 2 OR c = 3)");
  EXPECT_EQ(Cond("((a = 1))"), "a = 1");
}

TEST(ParserPartiqlTranslate, BetweenAndIn) {
  EXPECT_EQ(Cond("a BETWEEN 1 AND 5"), "a BETWEEN 1 AND 5");
  EXPECT_EQ(Cond("a NOT BETWEEN 'a' AND 'm'"), "NOT a BETWEEN 'a' AND 'm'");
  EXPECT_EQ(Cond("a IN [1, 2, 3]"), "a IN (1, 2, 3)");
  EXPECT_EQ(Cond("a IN (1, 2)"), "a IN (1, 2)");
  EXPECT_EQ(Cond("a IN (1)"), "a IN (1)");
  EXPECT_EQ(Cond("a IN [b, 'x']"), "a IN (b, 'x')");
  EXPECT_EQ(Cond("a NOT IN ['x']"), "NOT a IN ('x')");
}

TEST(ParserPartiqlTranslate, IsOperator) {
  EXPECT_EQ(Cond("a IS MISSING"), "attribute_not_exists(a)");
  EXPECT_EQ(Cond("a IS NOT MISSING"), "attribute_exists(a)");
  EXPECT_EQ(Cond("a IS NULL"), "attribute_type(a, 'NULL')");
  EXPECT_EQ(Cond("a IS NOT NULL"), "NOT attribute_type(a, 'NULL')");
  EXPECT_EQ(Cond("a IS STRING"), "attribute_type(a, 'S')");
  EXPECT_EQ(Cond("a is not numeric"), "NOT attribute_type(a, 'N')");
  EXPECT_EQ(Cond("a IS INT4 OR a IS DOUBLE PRECISION OR a IS decimal"),
            "(attribute_type(a, 'N') OR attribute_type(a, 'N') OR attribute_type(a, 'N'))");
  EXPECT_EQ(Cond("a IS BLOB AND b IS BOOL AND c IS BOOLEAN"),
            "(attribute_type(a, 'B') AND attribute_type(b, 'BOOL') AND attribute_type(c, "
            "'BOOL'))");
  EXPECT_EQ(Cond("a IS STRUCT AND b IS TUPLE AND c IS LIST"),
            "(attribute_type(a, 'M') AND attribute_type(b, 'M') AND attribute_type(c, 'L'))");
}

TEST(ParserPartiqlTranslate, Functions) {
  EXPECT_EQ(Cond("BEGINS_WITH(a, 'x')"), "begins_with(a, 'x')");
  EXPECT_EQ(Cond("contains(a, ?)", {N(3)}), "contains(a, 3)");
  EXPECT_EQ(Cond("attribute_type(\"Artist\", 'S')"), "attribute_type(Artist, 'S')");
  EXPECT_EQ(Cond("attribute_exists(a.b) AND attribute_not_exists(c)"),
            "(attribute_exists(a.b) AND attribute_not_exists(c))");
  EXPECT_EQ(Cond("size(a) > 3"), "size(a) > 3");
  EXPECT_EQ(Cond("SIZE(a) BETWEEN 1 AND 2"), "size(a) BETWEEN 1 AND 2");
}

TEST(ParserPartiqlTranslate, ConditionFieldsAndPositions) {
  Statement s = Ok("SELECT * FROM \"Tab\" WHERE a = 1 AND begins_with(b, 'x')");
  const Condition& c = *s.as<SelectStatement>().where;
  ASSERT_EQ(c.kind, ConditionKind::kAnd);
  ASSERT_EQ(c.children.size(), 2u);
  const Condition& eq = c.children[0];
  EXPECT_EQ(eq.kind, ConditionKind::kCompare);
  EXPECT_EQ(eq.op, expr::CompareOp::kEq);
  ASSERT_EQ(eq.operands.size(), 2u);
  EXPECT_EQ(eq.operands[0].kind, OperandKind::kPath);
  EXPECT_EQ(eq.operands[0].path.elements.size(), 1u);
  EXPECT_EQ(eq.operands[0].position, 26u);
  EXPECT_EQ(eq.operands[1].kind, OperandKind::kValue);
  EXPECT_EQ(eq.operands[1].value, AttributeValue::N(Number::FromInt(1)));
  EXPECT_EQ(eq.operands[1].position, 30u);
  const Condition& fn = c.children[1];
  EXPECT_EQ(fn.kind, ConditionKind::kFunction);
  EXPECT_EQ(fn.function, "begins_with");
  EXPECT_EQ(fn.position, 36u);
  EXPECT_EQ(fn.operands[1].value, AttributeValue::S("x"));
}

// ============================================================================================
// INSERT
// ============================================================================================

TEST(ParserPartiqlInsert, Item) {
  Statement s =
      Ok("INSERT INTO \"Tab\" VALUE {'pk': 'a', 'n': 1, 'm': {'x': [1, 's']}, "
         "'ss': <<'a', 'b'>>}");
  ASSERT_EQ(s.kind(), StatementKind::kInsert);
  const auto& ins = s.as<InsertStatement>();
  EXPECT_EQ(ins.table, "Tab");
  EXPECT_EQ(RenderValue(AttributeValue::M(ins.item)),
            "{m: {x: [1, 's']}, n: 1, pk: 'a', ss: SS<<'a', 'b'>>}");
  EXPECT_EQ(Msg("insert into Tab value {'pk': 'a'};"), "OK");
}

TEST(ParserPartiqlInsert, Refusals) {
  EXPECT_EQ(Msg("INSERT INTO \"Tab\" VALUES {'pk': 'a'}, {'pk': 'b'}"),
            "Unsupported operation: Inserting multiple items in a single statement is not "
            "supported, use \"INSERT INTO tableName VALUE item\" instead");
  const std::string format =
      "Unsupported format in item expression. Please use struct format {...} to express item "
      "values for insert statement.";
  EXPECT_EQ(Msg("INSERT INTO \"Tab\" VALUE [1]"), format);
  EXPECT_EQ(Msg("INSERT INTO \"Tab\" VALUE 'x'"), format);
  EXPECT_EQ(Msg("INSERT INTO \"Tab\" VALUE ?", {AttributeValue::M({})}), format);
  EXPECT_EQ(Msg("INSERT INTO \"Tab\" VALUE {'pk': 'a'} AT 1"),
            "AT is not supported in insert statements.");
  EXPECT_EQ(Msg("INSERT INTO \"Tab\" VALUE {'pk': 'a'} ON CONFLICT DO NOTHING"),
            "Unsupported clause: ON CONFLICT");
  EXPECT_EQ(Msg("INSERT INTO \"Tab\" VALUE {'pk': 'a'} RETURNING ALL OLD *"),
            "RETURNING is not supported in INSERT");
  EXPECT_EQ(Msg("INSERT INTO \"Tab\" t VALUE {'pk': 'a'}"),
            Env("Unexpected token after expression"));
  EXPECT_EQ(Msg("INSERT INTO VALUE {'pk': 'a'}"), Env("Expected identifier for simple path"));
  EXPECT_EQ(Msg("INSERT \"Tab\" VALUE {'pk': 'a'}"), Env("Unexpected keyword"));
  EXPECT_EQ(Msg("INSERT INTO \"Tab\".\"idx\" VALUE {'pk': 'a'}"),
            "FROM clause may only contain a single table name in data manipulation statements");
  EXPECT_EQ(Msg("FROM \"Tab\" WHERE a = 1 INSERT INTO x VALUE 1"),
            "Unsupported FROM ... WHERE ... clause in INSERT statement.");
}

// ============================================================================================
// UPDATE
// ============================================================================================

TEST(ParserPartiqlUpdate, Actions) {
  Statement s =
      Ok("UPDATE \"Tab\" SET a = 1, b = b + 1 SET c = list_append(c, [1]) REMOVE d "
         "REMOVE e.f[2] WHERE pk = 'x' AND sk = 2 RETURNING ALL NEW *");
  ASSERT_EQ(s.kind(), StatementKind::kUpdate);
  const auto& up = s.as<UpdateStatement>();
  EXPECT_EQ(up.table, "Tab");
  EXPECT_EQ(RenderUpdate(up.update),
            "SET a = 1; SET b = (b + 1); SET c = list_append(c, [1]); REMOVE d; REMOVE e.f[2]");
  EXPECT_EQ(RenderCondition(*up.where), "(pk = 'x' AND sk = 2)");
  EXPECT_EQ(up.returning, ReturnValues::kAllNew);
}

TEST(ParserPartiqlUpdate, SetValues) {
  EXPECT_EQ(Actions("SET a = b - 2"), "SET a = (b - 2)");
  EXPECT_EQ(Actions("SET a = ? + b", {N(5)}), "SET a = (5 + b)");
  EXPECT_EQ(Actions("SET a = (b + 1)"), "SET a = (b + 1)");
  EXPECT_EQ(Actions("SET a = if_not_exists(a, 0) + 1"), "SET a = (if_not_exists(a, 0) + 1)");
  EXPECT_EQ(Actions("SET a.b[1] = {'x': <<1, 2>>}"), "SET a.b[1] = {x: NS<<1, 2>>}");
  EXPECT_EQ(Actions("SET a = b"), "SET a = b");
  EXPECT_EQ(Actions("SET \"a b\" = NULL"), "SET a b = NULL");
}

TEST(ParserPartiqlUpdate, SetAddAndSetDelete) {
  EXPECT_EQ(Actions("SET s = set_add(s, <<'x', 'y'>>)"), "ADD s SS<<'x', 'y'>>");
  EXPECT_EQ(Actions("SET s = SET_DELETE(s, <<1>>)"), "DELETE s NS<<1>>");
  EXPECT_EQ(Actions("SET s = set_add(s, ?)", {AttributeValue::BS({"a"})}), "ADD s BS<<a>>");
  EXPECT_EQ(Actions("SET s = set_add(t, <<1>>)"),
            "ERROR: The first argument to SET_ADD must equal the assignment value at 1:22:7");
  EXPECT_EQ(Actions("SET s = set_delete(s, [1])"),
            "ERROR: The second argument to SET_DELETE must be a value with type SET at 1:33:1");
  EXPECT_EQ(Actions("SET s = set_add(s)"),
            "ERROR: SET_ADD must have exactly two arguments at 1:22:7");
  EXPECT_EQ(Actions("SET s = set_add(s, <<1>>, <<2>>)"),
            "ERROR: SET_ADD must have exactly two arguments at 1:22:7");
  EXPECT_EQ(Actions("SET s = list_append(set_add(s, <<1>>), [1])"),
            "ERROR: Unrecognized function: set_add at 1:34:7");
}

TEST(ParserPartiqlUpdate, Refusals) {
  EXPECT_EQ(Actions("SET a = b * 2"),
            "ERROR: Unsupported operator in Update Expression. Operator: *");
  EXPECT_EQ(Actions("SET a = b || 'x'"),
            "ERROR: Unsupported operator in Update Expression. Operator: ||");
  EXPECT_EQ(Actions("SET a = b = 1"),
            "ERROR: Unsupported operator in Update Expression. Operator: =");
  EXPECT_EQ(Actions("SET a = b IS NULL"),
            "ERROR: IS operator is not supported in update expressions");
  EXPECT_EQ(Actions("SET a = b + c + d"), "ERROR: Only one + or - is supported in a SET value");
  EXPECT_EQ(Actions("SET a = size(b)"), "ERROR: Unrecognized function: size at 1:22:4");
  EXPECT_EQ(Actions("SET 1 = 2"), "ERROR: Unrecognized assignment target: 1");
  EXPECT_EQ(Actions("SET a 1"), "ERROR: " + Env("Expected '=' after the SET target"));
  EXPECT_EQ(Actions("ADD a 1"),
            "ERROR: Only SET and REMOVE are supported in update expressions at this time");
  EXPECT_EQ(Actions("SET a = 1 DELETE s :v"),
            "ERROR: Only SET and REMOVE are supported in update expressions at this time");
  EXPECT_EQ(Msg("UPDATE \"Tab\" WHERE pk = 1"),
            "Only SET and REMOVE are supported in update expressions at this time");
  EXPECT_EQ(Actions("REMOVE a, b"), "ERROR: " + Env("Unexpected token after expression"));
  EXPECT_EQ(Actions("REMOVE 1"), "ERROR: " + Env("Expected identifier for simple path"));
  EXPECT_EQ(Msg("UPDATE SET a = 1"), Env("Expected identifier for simple path"));
  EXPECT_EQ(Msg("UPDATE \"Tab\" AS t SET a = 1 WHERE pk = 1"), "Aliasing is not supported");
  EXPECT_EQ(Msg("UPDATE \"Tab\".\"idx\" SET a = 1 WHERE pk = 1"),
            "FROM clause may only contain a single table name in data manipulation statements");
  EXPECT_EQ(Msg("UPDATE \"Tab\" SET a = 1 WHERE pk = 1 SET b = 2"),
            Env("Unexpected token after expression"));
}

TEST(ParserPartiqlUpdate, Returning) {
  auto returning = [](std::string_view clause) {
    ParseResult r = Parse("UPDATE \"Tab\" SET a = 1 WHERE pk = 1 RETURNING " + std::string(clause));
    return r.ok() ? static_cast<int>(r.statement().as<UpdateStatement>().returning) : -1;
  };
  EXPECT_EQ(returning("ALL OLD *"), static_cast<int>(ReturnValues::kAllOld));
  EXPECT_EQ(returning("MODIFIED OLD *"), static_cast<int>(ReturnValues::kUpdatedOld));
  EXPECT_EQ(returning("all new *"), static_cast<int>(ReturnValues::kAllNew));
  EXPECT_EQ(returning("MODIFIED NEW *"), static_cast<int>(ReturnValues::kUpdatedNew));
  EXPECT_EQ(Msg("UPDATE \"Tab\" SET a = 1 WHERE pk = 1 RETURNING ALL OLD"),
            "Expected '*' after ( MODIFIED | ALL ) ( NEW | OLD ) in RETURNING clause");
  EXPECT_EQ(Msg("UPDATE \"Tab\" SET a = 1 WHERE pk = 1 RETURNING ALL OLD *, MODIFIED NEW *"),
            "Invalid syntax with multiple returning elements in RETURNING clause");
  EXPECT_EQ(Msg("UPDATE \"Tab\" SET a = 1 WHERE pk = 1 RETURNING a"),
            Env("Expected ( MODIFIED | ALL ) ( NEW | OLD ) * after RETURNING"));
  EXPECT_EQ(Ok("UPDATE \"Tab\" SET a = 1 WHERE pk = 1").as<UpdateStatement>().returning,
            ReturnValues::kNone);
}

TEST(ParserPartiqlUpdate, FromFirstFormAndMissingWhere) {
  Statement s = Ok("FROM \"Tab\" WHERE pk = 1 SET a = 2 REMOVE b");
  ASSERT_EQ(s.kind(), StatementKind::kUpdate);
  EXPECT_EQ(RenderUpdate(s.as<UpdateStatement>().update), "SET a = 2; REMOVE b");
  EXPECT_EQ(RenderCondition(*s.as<UpdateStatement>().where), "pk = 1");
  EXPECT_EQ(Msg("FROM \"Tab\" SET a = 2 WHERE pk = 1"), Env("Unexpected token after expression"));
  // No WHERE: the planner refuses it (or runs it under SCAN).
  EXPECT_FALSE(Ok("UPDATE \"Tab\" SET a = 1").as<UpdateStatement>().where);
}

// ============================================================================================
// DELETE and EXISTS
// ============================================================================================

TEST(ParserPartiqlDelete, Forms) {
  Statement s =
      Ok("DELETE FROM \"Tab\" WHERE pk = 'a' AND sk = 1 AND attribute_exists(x) "
         "RETURNING ALL OLD *");
  ASSERT_EQ(s.kind(), StatementKind::kDelete);
  const auto& del = s.as<DeleteStatement>();
  EXPECT_EQ(del.table, "Tab");
  EXPECT_EQ(RenderCondition(*del.where), "(pk = 'a' AND sk = 1 AND attribute_exists(x))");
  EXPECT_EQ(del.returning, ReturnValues::kAllOld);
  EXPECT_EQ(Ok("delete from Tab").as<DeleteStatement>().returning, ReturnValues::kNone);
  EXPECT_EQ(Msg("DELETE FROM \"Tab\" WHERE pk = 1 RETURNING MODIFIED NEW *"),
            "Invalid returning clause: RETURNING MODIFIED NEW *. Only RETURNING ALL OLD * is "
            "allowed in DELETE statements.");
  EXPECT_EQ(Msg("DELETE FROM"), Env("Expected identifier for simple path"));
  EXPECT_EQ(Msg("DELETE \"Tab\" WHERE pk = 1"), Env("Expected FROM after DELETE"));
  EXPECT_EQ(Msg("DELETE FROM \"Tab\" WHERE pk = 1 ORDER BY pk"),
            Env("Unexpected token after expression"));
  EXPECT_EQ(Msg("DELETE FROM \"Tab\" x WHERE pk = 1"), "Aliasing is not supported");
}

TEST(ParserPartiqlExists, Statement) {
  Statement s = Ok("EXISTS(SELECT * FROM \"Tab\" WHERE pk = 1 AND a > 2)");
  ASSERT_EQ(s.kind(), StatementKind::kExists);
  EXPECT_EQ(s.as<ExistsStatement>().select.table, "Tab");
  EXPECT_EQ(RenderCondition(*s.as<ExistsStatement>().select.where), "(pk = 1 AND a > 2)");
  EXPECT_EQ(s.dynamodb_text, "EXISTS(SELECT * FROM \"Tab\" WHERE pk = 1 AND a > 2)");
  EXPECT_EQ(Msg("EXISTS(DELETE FROM \"Tab\")"), Env("Expected EXISTS(SELECT ...)"));
  EXPECT_EQ(Msg("EXISTS(SELECT * FROM \"Tab\""), Env("Expected ')'"));
}

// ============================================================================================
// keyhole's own statements
// ============================================================================================

TEST(ParserPartiqlKeyholeStatements, CreateTable) {
  Statement s =
      Ok("CREATE TABLE \"App\" (pk S HASH, sk S RANGE)\n"
         "  GLOBAL INDEX \"gsi1\" (gsi1pk S HASH, gsi1sk N RANGE) PROJECTION KEYS_ONLY\n"
         "  GLOBAL INDEX byType (type S) PROJECTION INCLUDE (a, \"b\")\n"
         "  LOCAL INDEX \"bydate\" (created N RANGE)\n"
         "  TTL expires STREAM new_and_old_images");
  ASSERT_EQ(s.kind(), StatementKind::kCreateTable);
  const auto& c = s.as<CreateTableStatement>();
  EXPECT_EQ(c.table, "App");
  EXPECT_FALSE(c.if_not_exists);
  EXPECT_EQ(c.key, (KeySchema{{"pk", ValueType::kS}, KeyAttribute{"sk", ValueType::kS}}));
  ASSERT_EQ(c.indexes.size(), 3u);
  EXPECT_EQ(
      c.indexes[0],
      (IndexDefinition{"gsi1", IndexKind::kGlobal,
                       KeySchema{{"gsi1pk", ValueType::kS}, KeyAttribute{"gsi1sk", ValueType::kN}},
                       Projection{ProjectionType::kKeysOnly, {}}}));
  EXPECT_EQ(c.indexes[1],
            (IndexDefinition{"byType", IndexKind::kGlobal, KeySchema{{"type", ValueType::kS}, {}},
                             Projection{ProjectionType::kInclude, {"a", "b"}}}));
  EXPECT_EQ(
      c.indexes[2],
      (IndexDefinition{"bydate", IndexKind::kLocal,
                       KeySchema{{"pk", ValueType::kS}, KeyAttribute{"created", ValueType::kN}},
                       Projection{}}));
  EXPECT_EQ(c.ttl_attribute, "expires");
  EXPECT_EQ(c.stream_view_type, "NEW_AND_OLD_IMAGES");
  EXPECT_EQ(c.billing_mode, "PAY_PER_REQUEST");
  EXPECT_TRUE(s.dynamodb_text.empty());
}

TEST(ParserPartiqlKeyholeStatements, CreateTableVariants) {
  Statement s =
      Ok("create table if not exists Music (Artist string, SongTitle number) "
         "billing provisioned (read 5, write 7)");
  const auto& c = s.as<CreateTableStatement>();
  EXPECT_TRUE(c.if_not_exists);
  EXPECT_EQ(c.key,
            (KeySchema{{"Artist", ValueType::kS}, KeyAttribute{"SongTitle", ValueType::kN}}));
  EXPECT_EQ(c.billing_mode, "PROVISIONED");
  EXPECT_EQ(c.read_capacity_units, 5);
  EXPECT_EQ(c.write_capacity_units, 7);
  // Roles in any order; a binary key.
  EXPECT_EQ(Ok("CREATE TABLE \"Tab\" (sk B RANGE, pk N HASH)").as<CreateTableStatement>().key,
            (KeySchema{{"pk", ValueType::kN}, KeyAttribute{"sk", ValueType::kB}}));
  EXPECT_EQ(Ok("CREATE TABLE \"Tab\" (pk S)").as<CreateTableStatement>().key,
            (KeySchema{{"pk", ValueType::kS}, {}}));
  // An LSI restating the partition key.
  EXPECT_EQ(Ok("CREATE TABLE \"Tab\" (pk S, sk S) LOCAL INDEX \"l\" (pk S HASH, x N RANGE)")
                .as<CreateTableStatement>()
                .indexes[0]
                .key,
            (KeySchema{{"pk", ValueType::kS}, KeyAttribute{"x", ValueType::kN}}));
  EXPECT_EQ(Ok("CREATE TABLE \"Tab\" (pk S, sk S) LOCAL INDEX \"l\" (x N)")
                .as<CreateTableStatement>()
                .indexes[0]
                .key,
            (KeySchema{{"pk", ValueType::kS}, KeyAttribute{"x", ValueType::kN}}));
}

TEST(ParserPartiqlKeyholeStatements, CreateTableErrors) {
  EXPECT_EQ(Msg("CREATE TABLE \"Tab\" (pk S HASH, sk N HASH)"),
            "A key needs exactly one HASH attribute and at most one RANGE attribute");
  EXPECT_EQ(Msg("CREATE TABLE \"Tab\" (sk N RANGE)"),
            "A key needs exactly one HASH attribute and at most one RANGE attribute");
  EXPECT_EQ(Msg("CREATE TABLE \"Tab\" (a S, b S, c S)"),
            "A key has at most two attributes: one HASH and one RANGE (only a GLOBAL INDEX may "
            "have several of each)");
  EXPECT_EQ(Msg("CREATE TABLE \"Tab\" (pk S) GLOBAL INDEX g (pk N)"),
            "Attribute pk is declared as S and as N");
  EXPECT_EQ(Msg("CREATE TABLE \"Tab\" (pk S) TTL a TTL b"), "TTL is given twice");
  EXPECT_EQ(Msg("CREATE TABLE \"Tab\" (pk X)"), Env("Expected a key attribute type: S, N or B"));
  EXPECT_EQ(Msg("CREATE TABLE \"Tab\" pk S"),
            Env("Expected '(' and the key attributes, e.g. (pk S HASH, sk N RANGE)"));
  EXPECT_EQ(Msg("CREATE TABLE (pk S)"),
            Env("Expected a table name (quote names that are PartiQL keywords: \"name\")"));
  EXPECT_EQ(Msg("CREATE TABLE \"Tab\" (key S)"),
            Env("Expected an attribute name (quote names that are PartiQL keywords: \"name\")"));
  EXPECT_EQ(Msg("CREATE \"Tab\" (pk S)"), Env("Expected TABLE"));
  EXPECT_EQ(Msg("CREATE TABLE \"Tab\" (pk S) STREAM ALL"),
            Env("Expected a stream view type: KEYS_ONLY, NEW_IMAGE, OLD_IMAGE or "
                "NEW_AND_OLD_IMAGES"));
  EXPECT_EQ(Msg("CREATE TABLE \"Tab\" (pk S) GLOBAL INDEX g (a S) PROJECTION SOME"),
            Env("Expected ALL, KEYS_ONLY or INCLUDE (attribute, ...) after PROJECTION"));
  EXPECT_EQ(Msg("CREATE TABLE \"Tab\" (pk S) BILLING PROVISIONED (5, 5)"),
            Env("Expected PAY_PER_REQUEST or PROVISIONED (READ <units>, WRITE <units>) after "
                "BILLING"));
  EXPECT_EQ(Msg("CREATE TABLE \"Tab\" (pk S) extra"), Env("Unexpected token after expression"));
}

TEST(ParserPartiqlKeyholeStatements, CreateTableRequestMapping) {
  Statement s =
      Ok("CREATE TABLE \"App\" (pk S, sk N) GLOBAL INDEX g (gpk S, sk N) PROJECTION INCLUDE (x) "
         "LOCAL INDEX l (lsk B) PROJECTION KEYS_ONLY");
  const CreateTableRequest r = ToCreateTableRequest(s.as<CreateTableStatement>());
  EXPECT_EQ(r.table_name, "App");
  ASSERT_EQ(r.attribute_definitions.size(), 4u);
  EXPECT_EQ(r.attribute_definitions[0].name, "pk");
  EXPECT_EQ(r.attribute_definitions[0].type, "S");
  EXPECT_EQ(r.attribute_definitions[1].name, "sk");
  EXPECT_EQ(r.attribute_definitions[1].type, "N");
  EXPECT_EQ(r.attribute_definitions[2].name, "gpk");
  EXPECT_EQ(r.attribute_definitions[3].name, "lsk");
  EXPECT_EQ(r.attribute_definitions[3].type, "B");
  ASSERT_EQ(r.key_schema.size(), 2u);
  EXPECT_EQ(r.key_schema[0].name, "pk");
  EXPECT_EQ(r.key_schema[0].key_type, "HASH");
  EXPECT_EQ(r.key_schema[1].key_type, "RANGE");
  ASSERT_EQ(r.global_secondary_indexes.size(), 1u);
  EXPECT_EQ(r.global_secondary_indexes[0].name, "g");
  EXPECT_EQ(r.global_secondary_indexes[0].projection_type, "INCLUDE");
  EXPECT_EQ(r.global_secondary_indexes[0].non_key_attributes, std::vector<std::string>{"x"});
  ASSERT_EQ(r.local_secondary_indexes.size(), 1u);
  EXPECT_EQ(r.local_secondary_indexes[0].key_schema[0].name, "pk");
  EXPECT_EQ(r.local_secondary_indexes[0].key_schema[1].name, "lsk");
  EXPECT_EQ(r.local_secondary_indexes[0].projection_type, "KEYS_ONLY");
  EXPECT_FALSE(r.local_secondary_indexes[0].non_key_attributes);
  EXPECT_EQ(r.billing_mode, "PAY_PER_REQUEST");
}

// The table a CREATE TABLE statement describes (as storage's CreateTable builds it).
Result<TableDescription> Describe(const Statement& s) {
  CreateTableRequest r = ToCreateTableRequest(s.as<CreateTableStatement>());
  KH_ASSIGN_OR_RETURN(TableDescription t,
                      BuildTableDescription(r.table_name, r.attribute_definitions, r.key_schema,
                                            r.global_secondary_indexes, r.local_secondary_indexes));
  t.billing_mode = r.billing_mode;
  t.ttl_attribute = s.as<CreateTableStatement>().ttl_attribute;
  if (r.stream_specification) t.stream_view_type = r.stream_specification->stream_view_type;
  t.read_capacity = r.read_capacity_units.value_or(0);
  t.write_capacity = r.write_capacity_units.value_or(0);
  return t;
}

// SHOW CREATE TABLE's text parses back to the same table.
TEST(ParserPartiqlKeyholeStatements, CreateTableTextRoundTrips) {
  for (const char* text : {
           "CREATE TABLE \"App\" (pk S, sk N) GLOBAL INDEX gsi (gpk S, sk N) PROJECTION INCLUDE "
           "(x, \"y z\") LOCAL INDEX lsi (lsk B) PROJECTION KEYS_ONLY GLOBAL INDEX \"g-2\" (a N)",
           "CREATE TABLE \"select\" (\"order\" B HASH) BILLING PROVISIONED (READ 5, WRITE 7)",
           "CREATE TABLE \"Sessions\" (id S) TTL \"expires at\" STREAM NEW_AND_OLD_IMAGES",
       }) {
    Statement s = Ok(text);
    auto first = Describe(s);
    ASSERT_TRUE(first.ok()) << first.status().ToString();
    std::string shown = CreateTableText(*first);
    Statement again = Ok(shown);
    auto second = Describe(again);
    ASSERT_TRUE(second.ok()) << shown;
    EXPECT_EQ(TableToJson(*first), TableToJson(*second)) << shown;
    EXPECT_EQ(CreateTableText(*second), shown);
  }
  auto t = Describe(
      Ok("CREATE TABLE \"Tab\" (pk S) GLOBAL INDEX \"gsi\" (a N, b S) PROJECTION KEYS_ONLY"));
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(CreateTableText(*t),
            "CREATE TABLE \"Tab\" (\"pk\" S HASH)\n"
            "  GLOBAL INDEX \"gsi\" (\"a\" N HASH, \"b\" S RANGE) PROJECTION KEYS_ONLY;");
}

TEST(ParserPartiqlKeyholeStatements, DropAlterShowDescribe) {
  Statement drop = Ok("DROP TABLE IF EXISTS \"Tab\"");
  ASSERT_EQ(drop.kind(), StatementKind::kDropTable);
  EXPECT_EQ(drop.as<DropTableStatement>().table, "Tab");
  EXPECT_TRUE(drop.as<DropTableStatement>().if_exists);
  EXPECT_FALSE(Ok("drop table Tab").as<DropTableStatement>().if_exists);

  Statement add =
      Ok("ALTER TABLE \"Tab\" ADD GLOBAL INDEX \"g\" (a S HASH, b N RANGE) "
         "PROJECTION ALL");
  ASSERT_EQ(add.kind(), StatementKind::kAlterTable);
  EXPECT_EQ(add.as<AlterTableStatement>().action, AlterAction::kAddGlobalIndex);
  EXPECT_EQ(add.as<AlterTableStatement>().index->name, "g");
  EXPECT_EQ(add.as<AlterTableStatement>().index->key.sort->name, "b");

  auto alter = [](std::string_view text) { return Ok(text).as<AlterTableStatement>(); };
  EXPECT_EQ(alter("ALTER TABLE \"Tab\" DROP INDEX \"g\"").action, AlterAction::kDropIndex);
  EXPECT_EQ(alter("ALTER TABLE \"Tab\" DROP INDEX \"g\"").name, "g");
  EXPECT_EQ(alter("ALTER TABLE \"Tab\" SET TTL expires").action, AlterAction::kSetTtl);
  EXPECT_EQ(alter("ALTER TABLE \"Tab\" SET TTL expires").name, "expires");
  EXPECT_EQ(alter("ALTER TABLE \"Tab\" DISABLE TTL").action, AlterAction::kDisableTtl);
  EXPECT_EQ(alter("ALTER TABLE \"Tab\" SET STREAM keys_only").action, AlterAction::kSetStream);
  EXPECT_EQ(alter("ALTER TABLE \"Tab\" SET STREAM keys_only").name, "KEYS_ONLY");
  EXPECT_EQ(alter("alter table Tab disable stream").action, AlterAction::kDisableStream);
  EXPECT_EQ(Msg("ALTER TABLE \"Tab\" ADD LOCAL INDEX l (a S)"),
            "Local secondary indexes can only be created with the table (CREATE TABLE ... LOCAL "
            "INDEX ...)");
  EXPECT_EQ(Msg("ALTER TABLE \"Tab\" RENAME x"),
            Env("Expected ADD GLOBAL INDEX, DROP INDEX, SET TTL, DISABLE TTL, SET STREAM or "
                "DISABLE STREAM"));

  EXPECT_EQ(Ok("SHOW TABLES").kind(), StatementKind::kShowTables);
  Statement show = Ok("show create table \"Tab\";");
  ASSERT_EQ(show.kind(), StatementKind::kShowCreateTable);
  EXPECT_EQ(show.as<ShowCreateTableStatement>().table, "Tab");
  EXPECT_EQ(Ok("DESCRIBE \"Tab\"").as<DescribeStatement>().table, "Tab");
  EXPECT_EQ(Ok("describe table Tab").as<DescribeStatement>().table, "Tab");
  EXPECT_EQ(Msg("SHOW INDEXES"), Env("Expected TABLES or CREATE TABLE after SHOW"));
}

TEST(ParserPartiqlKeyholeStatements, ExplainAndScan) {
  Statement e = Ok("EXPLAIN SELECT * FROM \"Tab\" WHERE pk = 1");
  EXPECT_EQ(e.kind(), StatementKind::kSelect);
  EXPECT_TRUE(e.explain);
  EXPECT_FALSE(e.analyze);
  EXPECT_FALSE(e.scan);
  EXPECT_EQ(e.dynamodb_text, "SELECT * FROM \"Tab\" WHERE pk = 1");

  Statement ea = Ok("explain analyze scan select * from \"Tab\" where status = 'open';");
  EXPECT_TRUE(ea.explain);
  EXPECT_TRUE(ea.analyze);
  EXPECT_TRUE(ea.scan);
  EXPECT_EQ(ea.dynamodb_text, "select * from \"Tab\" where status = 'open'");

  Statement su = Ok("SCAN UPDATE \"Tab\" SET a = 1 WHERE b = 2");
  EXPECT_EQ(su.kind(), StatementKind::kUpdate);
  EXPECT_TRUE(su.scan);
  EXPECT_EQ(Ok("SCAN DELETE FROM \"Tab\" WHERE b = 2").kind(), StatementKind::kDelete);
  EXPECT_EQ(Ok("EXPLAIN INSERT INTO \"Tab\" VALUE {'pk': 1}").kind(), StatementKind::kInsert);
  EXPECT_EQ(Ok("EXPLAIN EXISTS(SELECT * FROM \"Tab\" WHERE pk = 1)").kind(),
            StatementKind::kExists);
  EXPECT_EQ(Msg("SCAN INSERT INTO \"Tab\" VALUE {'pk': 1}"),
            "SCAN must be followed by a SELECT, UPDATE or DELETE statement");
  EXPECT_EQ(Msg("EXPLAIN SHOW TABLES"),
            "EXPLAIN must be followed by a SELECT, INSERT, UPDATE, DELETE or EXISTS statement");
}

TEST(ParserPartiqlKeyholeStatements, TransactionsNextAndUnknown) {
  EXPECT_EQ(Ok("BEGIN").kind(), StatementKind::kBegin);
  EXPECT_EQ(Ok("begin transaction;").kind(), StatementKind::kBegin);
  EXPECT_EQ(Ok("COMMIT").kind(), StatementKind::kCommit);
  EXPECT_EQ(Ok("COMMIT TRANSACTION").kind(), StatementKind::kCommit);
  EXPECT_EQ(Ok("ROLLBACK").kind(), StatementKind::kRollback);
  EXPECT_EQ(Ok("next").kind(), StatementKind::kNext);
  EXPECT_EQ(StatementKindName(StatementKind::kShowCreateTable), "SHOW CREATE TABLE");
  const std::string unknown =
      "Unknown statement; expected SELECT, INSERT, UPDATE, DELETE or EXISTS, or one of keyhole's: "
      "CREATE TABLE, DROP TABLE, ALTER TABLE, SHOW TABLES, SHOW CREATE TABLE, DESCRIBE, "
      "EXPLAIN, SCAN, BEGIN, COMMIT, ROLLBACK, CALL, NEXT";
  EXPECT_EQ(Msg("SELEC * FROM \"Tab\""), unknown);
  EXPECT_EQ(Msg(""), unknown);
  EXPECT_EQ(Msg("   -- only a comment"), unknown);
  EXPECT_EQ(Msg("NEXT PAGE"), Env("Unexpected token after expression"));
}

TEST(ParserPartiqlKeyholeStatements, Call) {
  Statement s =
      Ok("CALL PutItem {\"TableName\": \"Tab\", \"Item\": {\"pk\": {\"S\": \"a;}\\\"b\"}}}");
  ASSERT_EQ(s.kind(), StatementKind::kCall);
  const auto& call = s.as<CallStatement>();
  EXPECT_EQ(call.operation, "PutItem");
  EXPECT_EQ(call.body_text, "{\"TableName\": \"Tab\", \"Item\": {\"pk\": {\"S\": \"a;}\\\"b\"}}}");
  ASSERT_TRUE(call.body.IsObject());
  EXPECT_EQ(call.body.Find("TableName")->str(), "Tab");

  Statement bare = Ok("call ListTables;");
  EXPECT_EQ(bare.as<CallStatement>().body_text, "{}");
  EXPECT_TRUE(bare.as<CallStatement>().body.IsObject());
  // Comments after the body; no PartiQL lexical rules inside it.
  EXPECT_EQ(Msg("CALL Scan {\"TableName\": \"#weird`\"} -- ok"), "OK");
  EXPECT_EQ(Msg("CALL Scan {\"TableName\": }"), Msg("CALL Scan {\"TableName\": }"));
  EXPECT_EQ(Msg("CALL Scan {\"TableName\": }").rfind("Invalid JSON: ", 0), 0u);
  EXPECT_EQ(Msg("CALL Scan {\"TableName\": \"x\""),
            "Invalid JSON: an object or array is not closed");
  EXPECT_EQ(Msg("CALL Scan [1]"), Env("CALL expects a JSON object after the operation name"));
  EXPECT_EQ(Msg("CALL {}"), Env("Expected an operation name after CALL, e.g. CALL ListTables {}"));
  // A CALL body is exempt from the statement length limit.
  std::string big = "CALL PutItem {\"x\": \"" + std::string(10000, 'a') + "\"}";
  EXPECT_EQ(Msg(big), "OK");
}

TEST(ParserPartiqlKeyholeStatements, NestingIsBounded) {
  const std::string deep = std::string(1000, '(') + "a = 1" + std::string(1000, ')');
  EXPECT_EQ(Cond(deep), "ERROR: " + Env("Expressions are nested too deeply"));
  std::string nots;
  for (int i = 0; i < 2000; ++i) nots += "NOT ";
  EXPECT_EQ(Cond(nots + "a = 1"), "ERROR: " + Env("Expressions are nested too deeply"));
  EXPECT_EQ(Item("{'a': " + std::string(3000, '[') + std::string(3000, ']') + "}"),
            "ERROR: " + Env("Expressions are nested too deeply"));
  const std::string ok =
      std::string(kMaxPartiqlNesting - 1, '(') + "a = 1" + std::string(kMaxPartiqlNesting - 1, ')');
  EXPECT_EQ(Cond(ok), "a = 1");
  EXPECT_EQ(Msg("CALL X " + std::string(20000, '{')), "Invalid JSON: nesting too deep");
}

// ============================================================================================
// Scripts
// ============================================================================================

TEST(ParserPartiqlScript, SplitsOnSemicolonsOutsideStringsAndComments) {
  const std::string script =
      "-- header; comment\n"
      "SELECT * FROM \"Tab\" WHERE \"x;y\" = 'c;d';\n"
      "  /* ; */ UPDATE \"Tab\" SET a = 1 -- trailing ;\n"
      "  WHERE pk = 1;;\n"
      "CALL PutItem {\"Item\": {\"s\": {\"S\": \"x;\\\"y\"}}};\n"
      "DELETE FROM \"Tab\"";
  const std::vector<ScriptStatement> st = SplitScript(script);
  ASSERT_EQ(st.size(), 4u);
  EXPECT_EQ(st[0].text, "SELECT * FROM \"Tab\" WHERE \"x;y\" = 'c;d'");
  EXPECT_EQ(st[0].start, (SourcePosition{19, 2, 1}));
  EXPECT_TRUE(st[0].terminated);
  EXPECT_EQ(st[1].text, "UPDATE \"Tab\" SET a = 1 -- trailing ;\n  WHERE pk = 1");
  EXPECT_EQ(st[1].start.line, 3);
  EXPECT_EQ(st[1].start.column, 11);
  EXPECT_EQ(st[2].text, "CALL PutItem {\"Item\": {\"s\": {\"S\": \"x;\\\"y\"}}}");
  EXPECT_EQ(st[2].start.line, 5);
  EXPECT_EQ(st[3].text, "DELETE FROM \"Tab\"");
  EXPECT_FALSE(st[3].terminated);
  for (const auto& s : st) EXPECT_EQ(Msg(s.text), "OK") << s.text;
}

TEST(ParserPartiqlScript, UnterminatedConstructsRunToTheEnd) {
  std::vector<ScriptStatement> st = SplitScript("SELECT 'a; b");
  ASSERT_EQ(st.size(), 1u);
  EXPECT_EQ(st[0].text, "SELECT 'a; b");
  EXPECT_FALSE(st[0].terminated);
  // An open comment is a last, unterminated statement: running it reports the comment.
  st = SplitScript("SELECT 1; /* open ; comment");
  ASSERT_EQ(st.size(), 2u);
  EXPECT_TRUE(st[0].terminated);
  EXPECT_EQ(st[1].text, "/* open ; comment");
  EXPECT_FALSE(st[1].terminated);
  st = SplitScript("CALL X {\"a\": 1; \"b\": [;]};");
  ASSERT_EQ(st.size(), 1u);
  EXPECT_EQ(st[0].text, "CALL X {\"a\": 1; \"b\": [;]}");
  EXPECT_TRUE(SplitScript("  ;; -- nothing\n /* here */ ").empty());
}

TEST(ParserPartiqlScript, IsComplete) {
  EXPECT_TRUE(IsComplete(""));
  EXPECT_TRUE(IsComplete("  \n"));
  EXPECT_TRUE(IsComplete("-- just a comment"));
  EXPECT_TRUE(IsComplete("SELECT * FROM \"Tab\";"));
  EXPECT_TRUE(IsComplete("SELECT * FROM \"Tab\"; -- done"));
  EXPECT_TRUE(IsComplete("SELECT 1; SELECT 2;\n"));
  EXPECT_TRUE(IsComplete("CALL X {\"a\": \"}\"};"));
  EXPECT_FALSE(IsComplete("SELECT * FROM \"Tab\""));
  EXPECT_FALSE(IsComplete("SELECT * FROM \"Tab\" WHERE a = 'x;"));
  EXPECT_FALSE(IsComplete("SELECT * FROM \"Tab;\""));
  EXPECT_FALSE(IsComplete("SELECT 1; /* open"));
  EXPECT_FALSE(IsComplete("SELECT 1; SELECT"));
  EXPECT_FALSE(IsComplete("CALL X {\"a\": 1;"));
  EXPECT_FALSE(IsComplete("CALL X {\"a\": \"};"));
}

}  // namespace
}  // namespace keyhole::parser
