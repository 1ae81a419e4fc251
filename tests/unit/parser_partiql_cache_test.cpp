// Tests for ParseStatement's cache of syntax trees by shape (parser/partiql.h): a statement
// translated from the tree of another text of the same shape must come out exactly as a first
// parse of its own text does -- values, paths, every position in the AST, the DynamoDB text,
// and for a refused statement the message, position and hint.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "parser/partiql.h"

namespace keyhole::parser {
namespace {

using expr::Condition;
using expr::Operand;

// ---- a full dump of a statement, positions included ----

std::string DumpValue(const AttributeValue& v) {
  std::string out = std::string(TypeName(v.type())) + ":";
  switch (v.type()) {
    case ValueType::kS:
    case ValueType::kB:
      return out + "'" + v.s() + "'";
    case ValueType::kN:
      return out + v.n().ToString();
    case ValueType::kBool:
      return out + (v.boolean() ? "true" : "false");
    case ValueType::kNull:
      return out;
    case ValueType::kL:
      for (const AttributeValue& e : v.l()) out += DumpValue(e) + ",";
      return out;
    case ValueType::kM:
      for (const auto& [k, e] : v.m()) out += k + "=" + DumpValue(e) + ",";
      return out;
    case ValueType::kSS:
    case ValueType::kBS:
      for (const std::string& s : v.strings()) out += "'" + s + "',";
      return out;
    case ValueType::kNS:
      for (const Number& n : v.numbers()) out += n.ToString() + ",";
      return out;
  }
  return out;
}

std::string DumpPath(const expr::Path& p) {
  std::string out;
  for (const auto& e : p.elements) {
    out += e.is_index ? "[" + std::to_string(e.index) + "]" : "." + e.name;
  }
  return out;
}

std::string DumpOperand(const Operand& o) {
  std::string out = "op" + std::to_string(static_cast<int>(o.kind)) + "@" +
                    std::to_string(o.position) + "(" + DumpPath(o.path) + " " + DumpValue(o.value) +
                    " " + o.function;
  for (const Operand& a : o.args) out += " " + DumpOperand(a);
  return out + ")";
}

std::string DumpCondition(const Condition& c) {
  std::string out = "c" + std::to_string(static_cast<int>(c.kind)) + "/" +
                    std::to_string(static_cast<int>(c.op)) + "@" + std::to_string(c.position) +
                    (c.redundant_parentheses ? "!" : "") + "(" + c.function;
  for (const Operand& o : c.operands) out += " " + DumpOperand(o);
  for (const Condition& child : c.children) out += " " + DumpCondition(child);
  return out + ")";
}

std::string DumpWhere(const std::optional<Condition>& where) {
  return where ? " WHERE " + DumpCondition(*where) : "";
}

std::string DumpSelect(const SelectStatement& s) {
  std::string out =
      "SELECT " + s.table + (s.index ? "." + *s.index : "") + (s.select_all ? " *" : "");
  for (const expr::Path& p : s.projection) out += " " + DumpPath(p);
  out += DumpWhere(s.where);
  for (const OrderKey& k : s.order_by) out += " ORDER " + k.name + (k.descending ? "-" : "+");
  return out;
}

std::string Dump(const ParseResult& r) {
  if (!r.ok()) {
    const ParseError& e = r.error();
    return "ERROR " + e.status.ToString() + " @" + std::to_string(e.position.offset) + "/" +
           std::to_string(e.position.line) + ":" + std::to_string(e.position.column) +
           " hint: " + e.status.hint();
  }
  const Statement& s = r.statement();
  std::string out = std::string(StatementKindName(s.kind())) + (s.explain ? " explain" : "") +
                    (s.analyze ? " analyze" : "") + (s.scan ? " scan" : "") + " [" +
                    s.dynamodb_text + "] ";
  switch (s.kind()) {
    case StatementKind::kSelect:
      return out + DumpSelect(s.as<SelectStatement>());
    case StatementKind::kExists:
      return out + DumpSelect(s.as<ExistsStatement>().select);
    case StatementKind::kInsert:
      return out + s.as<InsertStatement>().table + " " +
             DumpValue(AttributeValue::M(s.as<InsertStatement>().item));
    case StatementKind::kUpdate: {
      const UpdateStatement& u = s.as<UpdateStatement>();
      out += u.table;
      for (const expr::UpdateAction& a : u.update.actions) {
        out += " a" + std::to_string(static_cast<int>(a.kind)) + "@" + std::to_string(a.position) +
               DumpPath(a.path) + "=" + DumpOperand(a.value);
      }
      return out + DumpWhere(u.where) + " ret" + std::to_string(static_cast<int>(u.returning));
    }
    case StatementKind::kDelete: {
      const DeleteStatement& d = s.as<DeleteStatement>();
      return out + d.table + DumpWhere(d.where) + " ret" +
             std::to_string(static_cast<int>(d.returning));
    }
    default:
      return out;
  }
}

// ---- random literals and spacing ----

class Generator {
 public:
  explicit Generator(uint32_t seed) : rng_(seed) {}

  size_t Pick(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng_); }

  // A 'string' literal: empty, plain, with doubled quotes, newlines, non-ASCII characters, or a
  // value that makes some templates fail (a repeated map key or set member).
  std::string String() {
    static const char* const kPieces[] = {"a",  "pk", "x y", "''", "\n", "é",  "日本",
                                          "--", "/*", "\"",  "?",  "0",  "\t", "sk"};
    std::string out = "'";
    const size_t n = Pick(6);
    for (size_t i = 0; i < n; ++i) out += kPieces[Pick(std::size(kPieces))];
    return out + "'";
  }

  // A number literal in one of PartiQL's spellings; now and then one out of DynamoDB's range.
  std::string Number() {
    auto digits = [&](size_t min) {
      std::string d;
      const size_t n = min + Pick(4);
      for (size_t i = 0; i < n; ++i) d += static_cast<char>('0' + Pick(10));
      return d;
    };
    switch (Pick(6)) {
      case 0:
        return digits(1) + "." + digits(0);
      case 1:
        return "." + digits(1);
      case 2:
        return digits(1) + "e" + (Pick(2) ? "-" : "+") + digits(1);
      case 3:
        return Pick(4) == 0 ? "9e200" : digits(1) + "E1";
      default:
        return digits(1);
    }
  }

  // Whitespace, maybe with a comment.
  std::string Space() {
    static const char* const kSpaces[] = {" ", "  ", "\n", " /* c */ ", " -- c\n", "\t"};
    return kSpaces[Pick(std::size(kSpaces))];
  }

  // `pattern` with each {S} a string, {N} a number, {_} spacing.
  std::string Fill(std::string_view pattern) {
    std::string out;
    for (size_t i = 0; i < pattern.size(); ++i) {
      if (pattern.substr(i, 3) == "{S}") {
        out += String();
      } else if (pattern.substr(i, 3) == "{N}") {
        out += Number();
      } else if (pattern.substr(i, 3) == "{_}") {
        out += Space();
      } else {
        out += pattern[i];
        continue;
      }
      i += 2;
    }
    return out;
  }

 private:
  std::mt19937 rng_;
};

constexpr const char* kPatterns[] = {
    "SELECT * FROM \"Orders\" WHERE pk = {S} AND sk = {N}",
    "SELECT * FROM \"Orders\" WHERE pk = {S}{_}AND sk BETWEEN {N} AND {N};",
    "SELECT a, b.c, d[{N}] FROM \"Orders\".\"byDate\" WHERE pk = {S} AND begins_with(sk, {S}) "
    "ORDER BY sk DESC",
    "EXPLAIN SELECT * FROM \"Orders\" WHERE pk = {S} AND (sk > {N} OR sk < {N})",
    "SCAN SELECT * FROM \"Orders\" WHERE{_}status IN [{S}, {S}, {N}] AND NOT x = {N}",
    "SELECT * FROM \"Orders\" WHERE pk = {S} AND size(tags) > {N} AND contains(tags, {S})",
    "SELECT * FROM \"Orders\" WHERE pk = ? AND sk = {N} AND s = {S}",
    "INSERT INTO \"Orders\" VALUE {'pk': {S}, 'sk': {N}, 'm': {{S}: {N}, 'l': [{S}, {N}]}}",
    "INSERT INTO \"Orders\" VALUE {'pk': {S},{_}'tags': <<{S}, {S}>>, 'n': <<{N}, {N}>>}",
    "UPDATE \"Orders\" SET a = {S} SET b = b + {N} REMOVE c[{N}] WHERE pk = {S} AND sk = {N}",
    "UPDATE \"Orders\" SET t = set_add(t, <<{S}>>), u = list_append(u, [{N}]) WHERE pk = {S} "
    "RETURNING ALL NEW *",
    "DELETE FROM \"Orders\" WHERE pk = {S} AND sk = {N} AND attribute_exists(x) RETURNING ALL "
    "OLD *",
    "EXISTS(SELECT * FROM \"Orders\" WHERE pk = {S} AND sk = {N})",
    "SELECT * FROM \"Orders\" WHERE pk = {S} AND sk = {N} AND x IS MISSING AND y IS NOT NULL",
    "SELECT * FROM \"Orders\" WHERE pk = {S} AND sk = {N} AND x LIKE {S}",
    "SELECT * FROM \"Orders\" WHERE pk = {S} AND sk = {N} + {N}",
};

TEST(ParserPartiqlCache, SameShapeTextsParseAsTheirOwnFirstParse) {
  Generator gen(20261126);
  const std::vector<AttributeValue> one = {AttributeValue::S("p")};
  const uint64_t hits_before = ParseStatementCacheHits();
  size_t ok = 0, refused = 0;
  for (const char* pattern : kPatterns) {
    const bool has_parameter = std::string_view(pattern).find('?') != std::string_view::npos;
    const std::vector<AttributeValue> params = has_parameter ? one : std::vector<AttributeValue>{};
    for (int round = 0; round < 300; ++round) {
      const std::string text = gen.Fill(pattern);
      const ParseResult cached = ParseStatement(text, params);
      const ParseResult fresh = ParseStatementUncached(text, params);
      ASSERT_EQ(Dump(cached), Dump(fresh)) << text;
      (cached.ok() ? ok : refused)++;
      // A wrong parameter count through a remembered tree is the first parse's error too.
      if (round % 50 == 0) {
        const std::vector<AttributeValue> two = {AttributeValue::S("a"), AttributeValue::S("b")};
        ASSERT_EQ(Dump(ParseStatement(text, two)), Dump(ParseStatementUncached(text, two))) << text;
      }
    }
  }
  // Both outcomes were exercised, and most texts came from a remembered tree.
  EXPECT_GT(ok, 1000u);
  EXPECT_GT(refused, 100u);
  std::printf("%zu parsed, %zu refused, %llu from a remembered tree\n", ok, refused,
              static_cast<unsigned long long>(ParseStatementCacheHits() - hits_before));
  EXPECT_GT(ParseStatementCacheHits() - hits_before, 1000u)
      << ok << " parsed, " << refused << " refused";
}

TEST(ParserPartiqlCache, ShapesKeepApartWhatTheGrammarTellsApart) {
  // Different spellings of numbers, quoted names against strings, and comments are part of the
  // shape; strings of any length and numbers of one spelling are not.
  const char* const kTexts[] = {
      "SELECT * FROM \"Orders\" WHERE pk = 'a' AND sk = 1",
      "SELECT * FROM \"Orders\" WHERE pk = 'abc''d' AND sk = 2",
      "SELECT * FROM \"Orders\" WHERE pk = \"a\" AND sk = 1",
      "SELECT * FROM \"Orders\" WHERE pk = 'a' AND sk = 1.",
      "SELECT * FROM \"Orders\" WHERE pk = 'a' AND sk = .1",
      "SELECT * FROM \"Orders\" WHERE pk = 'a' AND sk = 12",
      "SELECT * FROM \"Orders\" WHERE pk = 'a' AND sk = 1 -- 'x'",
      "SELECT * FROM \"Orders\" WHERE pk = 'a' AND sk = 1 -- 'yy'",
      "SELECT * FROM \"Orders\" WHERE pk = 'a' AND sk[1] = 1",
      "SELECT * FROM \"Orders\" WHERE pk = 'a' AND sk[12] = 1",
      "SELECT * FROM \"Orders\" WHERE pk = 'a' AND sk[.1] = 1",
      // The key's marker byte inside a comment or a quoted name is kept apart from a literal.
      "SELECT * FROM \"Orders\" WHERE pk = 'a' /* \x01S */ AND sk = 1",
      "SELECT * FROM \"Orders\" WHERE pk = 'a' /* 'b' */ AND sk = 1",
      "SELECT * FROM \"Orders\" WHERE \"p\x01S\" = 'a' AND sk = 1",
      "SELECT * FROM \"Orders\" WHERE \"p\x01N0\x01\" = 'a' AND sk = 1",
  };
  for (int pass = 0; pass < 2; ++pass) {
    for (const char* text : kTexts) {
      EXPECT_EQ(Dump(ParseStatement(text)), Dump(ParseStatementUncached(text))) << text;
    }
  }
}

}  // namespace
}  // namespace keyhole::parser
