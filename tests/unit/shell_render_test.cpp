// Tests for shell/render.h: output modes, column order and cell formatting, on exact text.
#include "shell/render.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/ddb_json.h"

namespace keyhole::shell {
namespace {

AttributeValue S(std::string s) { return AttributeValue::S(std::move(s)); }
AttributeValue N(std::string_view text) {
  Result<Number> n = Number::Parse(text);
  EXPECT_TRUE(n.ok()) << text;
  return AttributeValue::N(n.ok() ? n.value() : Number());
}

std::string Render(OutputMode mode, const std::vector<Item>& items,
                   std::vector<std::string> keys = {}, bool headers = true, size_t max = 0) {
  RenderOptions options;
  options.mode = mode;
  options.headers = headers;
  options.key_columns = std::move(keys);
  options.max_cell_width = max;
  return RenderItems(items, options);
}

// Two items of different shapes: `email` only in the second, `n` numbers of different widths.
std::vector<Item> Heterogeneous() {
  return {
      {{"pk", S("u1")}, {"sk", S("A")}, {"n", N("5")}},
      {{"pk", S("u2")}, {"sk", S("B")}, {"email", S("x@y")}, {"n", N("123")}},
  };
}

TEST(ShellRender, OutputModeNames) {
  EXPECT_EQ(ParseOutputMode("box"), OutputMode::kBox);
  EXPECT_EQ(ParseOutputMode("TABLE"), OutputMode::kTable);
  EXPECT_EQ(ParseOutputMode("Line"), OutputMode::kLine);
  EXPECT_EQ(ParseOutputMode("json"), OutputMode::kJson);
  EXPECT_EQ(ParseOutputMode("ddb"), OutputMode::kDdb);
  EXPECT_EQ(ParseOutputMode("csv"), OutputMode::kCsv);
  EXPECT_EQ(ParseOutputMode("html"), std::nullopt);
  EXPECT_EQ(ParseOutputMode(""), std::nullopt);
  EXPECT_EQ(ParseOutputMode("box "), std::nullopt);
  for (OutputMode m : {OutputMode::kBox, OutputMode::kTable, OutputMode::kLine, OutputMode::kJson,
                       OutputMode::kDdb, OutputMode::kCsv}) {
    EXPECT_EQ(ParseOutputMode(OutputModeName(m)), m);
  }
  EXPECT_EQ(OutputModeName(OutputMode::kCsv), "csv");
}

TEST(ShellRender, CapacityIsExactAtAnySize) {
  EXPECT_EQ(CapacityText(0, "RCU"), "0 RCU");
  EXPECT_EQ(CapacityText(0.5, "RCU"), "0.5 RCU");
  EXPECT_EQ(CapacityText(128, "RCU"), "128 RCU");
  EXPECT_EQ(CapacityText(1077433, "WCU"), "1077433 WCU");  // {:g}: 1.07743e+06
  EXPECT_EQ(CapacityText(1000000.5, "WCU"), "1000000.5 WCU");
  EXPECT_EQ(CapacityText(1.25, "capacity units"), "1.25 capacity units");
}

TEST(ShellRender, FormatCellPlainStrings) {
  EXPECT_EQ(FormatCell(S("hello")), "hello");
  EXPECT_EQ(FormatCell(S("hello world")), "hello world");
  EXPECT_EQ(FormatCell(S("it's")), "it's");  // a quote inside does not trigger quoting
  EXPECT_EQ(FormatCell(S("<x")), "<x");
  EXPECT_EQ(FormatCell(S("a]")), "a]");
  EXPECT_EQ(FormatCell(S("1e")), "1e");
  EXPECT_EQ(FormatCell(S("1.2.3")), "1.2.3");
  EXPECT_EQ(FormatCell(S("+")), "+");
  EXPECT_EQ(FormatCell(S("0x10")), "0x10");
  EXPECT_EQ(FormatCell(S("truth")), "truth");
  EXPECT_EQ(FormatCell(S("nullable")), "nullable");
  EXPECT_EQ(FormatCell(S("USER#1")), "USER#1");
  EXPECT_EQ(FormatCell(S("日本語")), "日本語");
  EXPECT_EQ(FormatCell(S("C:\\dir")), "C:\\dir");
}

TEST(ShellRender, FormatCellQuotedStrings) {
  EXPECT_EQ(FormatCell(S("")), "''");
  EXPECT_EQ(FormatCell(S(" a")), "' a'");
  EXPECT_EQ(FormatCell(S("a ")), "'a '");
  EXPECT_EQ(FormatCell(S(" ")), "' '");
  EXPECT_EQ(FormatCell(S("\xC2\xA0x")), "'\xC2\xA0x'");          // no-break space at the edge
  EXPECT_EQ(FormatCell(S("x\xE3\x80\x80")), "'x\xE3\x80\x80'");  // ideographic space
  // Reads as a number.
  EXPECT_EQ(FormatCell(S("42")), "'42'");
  EXPECT_EQ(FormatCell(S("-1.5e3")), "'-1.5e3'");
  EXPECT_EQ(FormatCell(S("+3")), "'+3'");
  EXPECT_EQ(FormatCell(S(".5")), "'.5'");
  EXPECT_EQ(FormatCell(S("5.")), "'5.'");
  EXPECT_EQ(FormatCell(S("1E+10")), "'1E+10'");
  EXPECT_EQ(FormatCell(S("1e999")), "'1e999'");  // out of range, but still reads as a number
  EXPECT_EQ(FormatCell(S("007")), "'007'");
  // Reads as true, false or null (any case).
  EXPECT_EQ(FormatCell(S("true")), "'true'");
  EXPECT_EQ(FormatCell(S("FALSE")), "'FALSE'");
  EXPECT_EQ(FormatCell(S("Null")), "'Null'");
  // Begins like a PartiQL literal; inner quotes are doubled.
  EXPECT_EQ(FormatCell(S("'quoted'")), "'''quoted'''");
  EXPECT_EQ(FormatCell(S("[1]")), "'[1]'");
  EXPECT_EQ(FormatCell(S("{x")), "'{x'");
  EXPECT_EQ(FormatCell(S("<<a>>")), "'<<a>>'");
  EXPECT_EQ(FormatCell(S(" it's")), "' it''s'");
}

TEST(ShellRender, FormatCellControlCharacters) {
  EXPECT_EQ(FormatCell(S("a\nb")), "'a\\nb'");
  EXPECT_EQ(FormatCell(S("a\tb")), "'a\\tb'");
  EXPECT_EQ(FormatCell(S("a\r\nb")), "'a\\r\\nb'");
  EXPECT_EQ(FormatCell(S("\ttab")), "'\\ttab'");
  EXPECT_EQ(FormatCell(S(std::string("a\0b", 3))), "'a\\u0000b'");
  EXPECT_EQ(FormatCell(S("\x1B[31m")), "'\\u001b[31m'");  // no terminal escapes
  EXPECT_EQ(FormatCell(S("del\x7F")), "'del\\u007f'");
  EXPECT_EQ(FormatCell(S("c1\xC2\x85")), "'c1\\u0085'");  // U+0085 NEL
  EXPECT_EQ(FormatCell(S("it's\n")), "'it''s\\n'");
  // Nested strings are escaped the same way.
  EXPECT_EQ(FormatCell(AttributeValue::L({S("a\nb")})), "['a\\nb']");
  EXPECT_EQ(FormatCell(AttributeValue::M({{"k\n", S("\x01")}})), "{'k\\n': '\\u0001'}");
  EXPECT_EQ(FormatCell(AttributeValue::SS({"x\ty"})), "<<'x\\ty'>>");
}

TEST(ShellRender, FormatCellNumbers) {
  EXPECT_EQ(FormatCell(N("1E+3")), "1000");
  EXPECT_EQ(FormatCell(N("0.10")), "0.1");
  EXPECT_EQ(FormatCell(N("-0.5")), "-0.5");
  EXPECT_EQ(FormatCell(N("0")), "0");
  EXPECT_EQ(FormatCell(N("-0")), "0");
  EXPECT_EQ(FormatCell(N("1e-5")), "0.00001");
  EXPECT_EQ(FormatCell(N("12345678901234567890123456789012345678")),
            "12345678901234567890123456789012345678");
  EXPECT_EQ(FormatCell(N("1.2345678901234567890123456789012345678")),
            "1.2345678901234567890123456789012345678");
}

TEST(ShellRender, FormatCellOtherTypes) {
  EXPECT_EQ(FormatCell(AttributeValue::B("hi")), "b'aGk='");
  EXPECT_EQ(FormatCell(AttributeValue::B(std::string("\0\xFF", 2))), "b'AP8='");
  EXPECT_EQ(FormatCell(AttributeValue::Bool(true)), "true");
  EXPECT_EQ(FormatCell(AttributeValue::Bool(false)), "false");
  EXPECT_EQ(FormatCell(AttributeValue::Null()), "null");
  EXPECT_EQ(FormatCell(AttributeValue::SS({"b", "a", "it's"})), "<<'a', 'b', 'it''s'>>");
  EXPECT_EQ(FormatCell(AttributeValue::NS({Number::FromInt(10), Number::FromInt(2)})), "<<2, 10>>");
  EXPECT_EQ(FormatCell(AttributeValue::BS({"hi", "a"})), "<<b'YQ==', b'aGk='>>");
  EXPECT_EQ(FormatCell(AttributeValue::L({N("1"), S("a"), AttributeValue::Bool(true)})),
            "[1, 'a', true]");
  EXPECT_EQ(FormatCell(AttributeValue::M({{"n", S("x")}, {"k", N("1")}})), "{'k': 1, 'n': 'x'}");
  EXPECT_EQ(FormatCell(AttributeValue::L({})), "[]");
  EXPECT_EQ(FormatCell(AttributeValue::M({})), "{}");
  // Strings inside are always quoted, even when they would print bare at the top level.
  EXPECT_EQ(FormatCell(AttributeValue::L({S("abc"), S("")})), "['abc', '']");
  EXPECT_EQ(
      FormatCell(AttributeValue::M({{"it's", AttributeValue::L({AttributeValue::Null()})},
                                    {"m", AttributeValue::M({{"b", AttributeValue::B("a")}})}})),
      "{'it''s': [null], 'm': {'b': b'YQ=='}}");
}

TEST(ShellRender, Columns) {
  EXPECT_EQ(Columns(Heterogeneous(), {"pk", "sk"}),
            (std::vector<std::string>{"pk", "sk", "email", "n"}));
  // Key columns in the given order; absent ones and repeats dropped; the rest bytewise.
  std::vector<Item> items = {{{"b", S("1")}, {"Z", S("2")}, {"a", S("3")}},
                             {{"gsi", S("4")}, {"_", S("5")}}};
  EXPECT_EQ(Columns(items, {"gsi", "missing", "a", "gsi"}),
            (std::vector<std::string>{"gsi", "a", "Z", "_", "b"}));
  EXPECT_EQ(Columns(items, {}), (std::vector<std::string>{"Z", "_", "a", "b", "gsi"}));
  EXPECT_TRUE(Columns({}, {"pk"}).empty());
}

TEST(ShellRender, BoxHeterogeneous) {
  EXPECT_EQ(Render(OutputMode::kBox, Heterogeneous(), {"pk", "sk"}),
            "┌────┬────┬───────┬─────┐\n"
            "│ pk │ sk │ email │ n   │\n"
            "├────┼────┼───────┼─────┤\n"
            "│ u1 │ A  │       │   5 │\n"
            "│ u2 │ B  │ x@y   │ 123 │\n"
            "└────┴────┴───────┴─────┘\n");
}

TEST(ShellRender, BoxHeadersOff) {
  EXPECT_EQ(Render(OutputMode::kBox, Heterogeneous(), {"pk", "sk"}, /*headers=*/false),
            "┌────┬───┬─────┬─────┐\n"
            "│ u1 │ A │     │   5 │\n"
            "│ u2 │ B │ x@y │ 123 │\n"
            "└────┴───┴─────┴─────┘\n");
}

TEST(ShellRender, TableAscii) {
  EXPECT_EQ(Render(OutputMode::kTable, Heterogeneous(), {"pk", "sk"}),
            "+----+----+-------+-----+\n"
            "| pk | sk | email | n   |\n"
            "+----+----+-------+-----+\n"
            "| u1 | A  |       |   5 |\n"
            "| u2 | B  | x@y   | 123 |\n"
            "+----+----+-------+-----+\n");
  EXPECT_EQ(Render(OutputMode::kTable, {{{"a", N("-1.5")}}}, {}, /*headers=*/false),
            "+------+\n"
            "| -1.5 |\n"
            "+------+\n");
}

TEST(ShellRender, TableCellsOfEveryType) {
  std::vector<Item> items = {{{"pk", S("42")},
                              {"l", AttributeValue::L({N("1"), S("a")})},
                              {"b", AttributeValue::Bool(true)},
                              {"z", AttributeValue::Null()}}};
  EXPECT_EQ(Render(OutputMode::kTable, items, {"pk"}),
            "+------+------+----------+------+\n"
            "| pk   | b    | l        | z    |\n"
            "+------+------+----------+------+\n"
            "| '42' | true | [1, 'a'] | null |\n"
            "+------+------+----------+------+\n");
}

TEST(ShellRender, EmptyItemList) {
  for (bool headers : {true, false}) {
    for (OutputMode m : {OutputMode::kBox, OutputMode::kTable, OutputMode::kLine, OutputMode::kJson,
                         OutputMode::kDdb, OutputMode::kCsv}) {
      EXPECT_EQ(Render(m, {}, {"pk", "sk"}, headers), "") << OutputModeName(m);
    }
  }
}

TEST(ShellRender, EmptyItems) {
  // Items with no attributes at all: no columns.
  EXPECT_EQ(Render(OutputMode::kJson, {Item{}, Item{}}), "{}\n{}\n");
  EXPECT_EQ(Render(OutputMode::kDdb, {Item{}}), "{}\n");
  EXPECT_EQ(Render(OutputMode::kBox, {Item{}}), "");
  EXPECT_EQ(Render(OutputMode::kTable, {Item{}}), "");
  EXPECT_EQ(Render(OutputMode::kCsv, {Item{}}), "");
  EXPECT_EQ(Render(OutputMode::kLine, {Item{}, {{"a", S("x")}}, Item{}, {{"a", S("y")}}}),
            "  a = x\n\n  a = y\n");
}

TEST(ShellRender, ControlCharactersNeverRaw) {
  std::vector<Item> items = {{{"a\nb", S("x\ny")}, {"c", S("\x1B")}}};
  EXPECT_EQ(Render(OutputMode::kTable, items),
            "+--------+----------+\n"
            "| a\\nb   | c        |\n"
            "+--------+----------+\n"
            "| 'x\\ny' | '\\u001b' |\n"
            "+--------+----------+\n");
  EXPECT_EQ(Render(OutputMode::kLine, items), "  a\\nb = 'x\\ny'\n  c    = '\\u001b'\n");
}

TEST(ShellRender, MaxCellWidth) {
  std::vector<Item> items = {{{"name", S("abcdefgh")}, {"n", N("1234567")}}};
  EXPECT_EQ(Render(OutputMode::kTable, items, {}, true, /*max=*/5),
            "+-------+-------+\n"
            "| n     | name  |\n"
            "+-------+-------+\n"
            "| 1234… | abcd… |\n"
            "+-------+-------+\n");
  // A cell exactly at the limit is not cut; the header is cut like any cell.
  EXPECT_EQ(Render(OutputMode::kBox, {{{"attribute", S("abc")}}}, {}, true, 3),
            "┌─────┐\n"
            "│ at… │\n"
            "├─────┤\n"
            "│ abc │\n"
            "└─────┘\n");
  EXPECT_EQ(Render(OutputMode::kTable, {{{"x", S("abc")}}}, {}, false, 1),
            "+---+\n"
            "| … |\n"
            "+---+\n");
  // Other modes never cut.
  EXPECT_EQ(Render(OutputMode::kLine, items, {}, true, 2), "  n    = 1234567\n  name = abcdefgh\n");
}

TEST(ShellRender, WideCharactersCut) {
  // Each CJK character is two columns wide: with a limit of 6, "日本" (4) + "…" (1) = 5, since
  // a third character would not fit before the ellipsis.
  std::vector<Item> items = {{{"k", S("日本語テキスト")}}, {{"k", S("abcdefgh")}}};
  EXPECT_EQ(Render(OutputMode::kBox, items, {}, true, 6),
            "┌────────┐\n"
            "│ k      │\n"
            "├────────┤\n"
            "│ 日本…  │\n"
            "│ abcde… │\n"
            "└────────┘\n");
}

TEST(ShellRender, UnicodeWidth) {
  // "日本" is 4 columns; "é" (precomposed) and "é" (e + combining acute) are 1; "ü" is 1.
  std::vector<Item> items = {{{"pk", S("日本")}, {"v", S("é")}},
                             {{"pk", S("über")}, {"v", S("e\xCC\x81")}}};
  EXPECT_EQ(Render(OutputMode::kBox, items, {"pk"}),
            "┌──────┬───┐\n"
            "│ pk   │ v │\n"
            "├──────┼───┤\n"
            "│ 日本 │ é │\n"
            "│ über │ e\xCC\x81 │\n"
            "└──────┴───┘\n");
}

TEST(ShellRender, LineMode) {
  EXPECT_EQ(Render(OutputMode::kLine, Heterogeneous(), {"pk", "sk"}),
            "  pk    = u1\n"
            "  sk    = A\n"
            "  n     = 5\n"
            "\n"
            "  pk    = u2\n"
            "  sk    = B\n"
            "  email = x@y\n"
            "  n     = 123\n");
  EXPECT_EQ(Render(OutputMode::kLine, {{{"a", S("multi\nline")}, {"bb", S("")}}}),
            "  a  = 'multi\\nline'\n"
            "  bb = ''\n");
}

TEST(ShellRender, Csv) {
  EXPECT_EQ(Render(OutputMode::kCsv, Heterogeneous(), {"pk", "sk"}),
            "pk,sk,email,n\n"
            "u1,A,,5\n"
            "u2,B,x@y,123\n");
  EXPECT_EQ(Render(OutputMode::kCsv, Heterogeneous(), {"pk", "sk"}, /*headers=*/false),
            "u1,A,,5\n"
            "u2,B,x@y,123\n");
}

TEST(ShellRender, CsvQuoting) {
  std::vector<Item> items = {{
      {"a", S("plain")},
      {"b", S("x,y")},
      {"c", S("say \"hi\"")},
      {"d", S("line1\nline2")},
      {"e", S("cr\rhere")},
      {"f", S(" 42")},  // raw: no PartiQL quoting in csv
      {"g", N("1E+3")},
      {"h", AttributeValue::L({S("a"), N("1")})},
      {"i", AttributeValue::Bool(false)},
      {"j", S("it's")},
      {"k", S("")},
  }};
  EXPECT_EQ(Render(OutputMode::kCsv, items),
            "a,b,c,d,e,f,g,h,i,j,k\n"
            "plain,\"x,y\",\"say \"\"hi\"\"\",\"line1\nline2\",\"cr\rhere\", 42,1000,"
            "\"['a', 1]\",false,it's,\n");
  // Header names are quoted by the same rule.
  EXPECT_EQ(Render(OutputMode::kCsv, {{{"x,y", S("1")}, {"q\"", S("2")}}}),
            "\"q\"\"\",\"x,y\"\n2,1\n");
}

TEST(ShellRender, Json) {
  std::vector<Item> items = {{
      {"pk", S("u\"1")},
      {"big", N("12345678901234567890123456789012345678")},
      {"frac", N("0.10")},
      {"neg", N("-1E-3")},
      {"b", AttributeValue::B("hi")},
      {"t", AttributeValue::Bool(true)},
      {"z", AttributeValue::Null()},
      {"ss", AttributeValue::SS({"b", "a"})},
      {"ns", AttributeValue::NS({Number::FromInt(3), Number::FromInt(-1)})},
      {"bs", AttributeValue::BS({"a"})},
      {"l", AttributeValue::L({N("1"), S("x\n"), AttributeValue::L({})})},
      {"m", AttributeValue::M({{"k", AttributeValue::M({})}, {"a", N("1E+3")}})},
  }};
  EXPECT_EQ(Render(OutputMode::kJson, items, {"pk"}),
            "{\"pk\":\"u\\\"1\",\"b\":\"aGk=\",\"big\":12345678901234567890123456789012345678,"
            "\"bs\":[\"YQ==\"],\"frac\":0.1,\"l\":[1,\"x\\n\",[]],\"m\":{\"a\":1000,\"k\":{}},"
            "\"neg\":-0.001,\"ns\":[-1,3],\"ss\":[\"a\",\"b\"],\"t\":true,\"z\":null}\n");
  // One object per line, key columns first.
  EXPECT_EQ(Render(OutputMode::kJson, Heterogeneous(), {"sk", "pk"}),
            "{\"sk\":\"A\",\"pk\":\"u1\",\"n\":5}\n"
            "{\"sk\":\"B\",\"pk\":\"u2\",\"email\":\"x@y\",\"n\":123}\n");
}

TEST(ShellRender, Ddb) {
  std::vector<Item> items = Heterogeneous();
  EXPECT_EQ(Render(OutputMode::kDdb, items, {"pk", "sk"}),
            ItemToJsonText(items[0]) + "\n" + ItemToJsonText(items[1]) + "\n");
  EXPECT_EQ(Render(OutputMode::kDdb, {{{"n", N("1E+3")}, {"s", S("x")}}}),
            "{\"n\":{\"N\":\"1000\"},\"s\":{\"S\":\"x\"}}\n");
}

}  // namespace
}  // namespace keyhole::shell
