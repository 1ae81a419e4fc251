// The lexer's tokens (parser/partiql_lexer.h): every operator and punctuation token, comments,
// and the characters that start none.
#include "core/utf8.h"
#include "parser/partiql_lexer.h"

#include "parser/partiql.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace keyhole::parser {
namespace {

TEST(ParserLexer, EveryOperatorIsOneToken) {
  // Two-character operators, then each one-character one, between one-letter names.
  const std::string text = "a<=b>=c<>d!=e||f<<g>>h<i>j=k+l-m*n/o%p@q(r)[s]{t},u.v:w;x?";
  std::vector<size_t> expected = {1, 3, 4, 6, 7, 9, 10, 12, 13, 15, 16, 18, 19, 21, 22};
  for (size_t end = 23; end <= text.size(); ++end) expected.push_back(end);
  ASSERT_FALSE(lexer::FindLexicalError(text).has_value());
  EXPECT_EQ(lexer::TokenEnds(text), expected);
  // At the end of the text, a two-character operator's first character is one token or none.
  EXPECT_EQ(lexer::TokenEnds("a<"), (std::vector<size_t>{1, 2}));
  EXPECT_EQ(lexer::TokenEnds("a>"), (std::vector<size_t>{1, 2}));
  EXPECT_EQ(lexer::FindLexicalError("a!"), std::optional<size_t>(1));
  EXPECT_EQ(lexer::FindLexicalError("a|"), std::optional<size_t>(1));
}

TEST(ParserLexer, CommentsAndCharactersThatStartNoToken) {
  EXPECT_EQ(lexer::TokenEnds("a -- b\nc"), (std::vector<size_t>{1, 8}));
  EXPECT_EQ(lexer::TokenEnds("a /* b */ c"), (std::vector<size_t>{1, 11}));
  EXPECT_EQ(lexer::TokenEnds("a-/b"), (std::vector<size_t>{1, 2, 3, 4}));
  EXPECT_EQ(lexer::TokenEnds("a-"), (std::vector<size_t>{1, 2}));
  EXPECT_EQ(lexer::TokenEnds("a/"), (std::vector<size_t>{1, 2}));
  EXPECT_EQ(lexer::FindLexicalError("a ! b"), std::optional<size_t>(2));
  EXPECT_EQ(lexer::FindLexicalError("a | b"), std::optional<size_t>(2));
  EXPECT_EQ(lexer::FindLexicalError("a & b"), std::optional<size_t>(2));
  EXPECT_EQ(lexer::FindLexicalError("a /* b"), std::optional<size_t>(2));
  EXPECT_EQ(lexer::FindLexicalError(std::string("a \0 b", 5)), std::optional<size_t>(2));
}

TEST(ParserLexer, ScriptsSplitAtSemicolonsOutsideStringsAndComments) {
  // (A comment before a statement is not part of it.)
  ScriptWalker w("SELECT 'a;b' FROM t; -- x;y\nSELECT \"c;d\" /* ; */ FROM u;", false);
  std::vector<std::string> texts;
  while (std::optional<ScriptPiece> p = w.Next()) texts.emplace_back(p->text);
  EXPECT_EQ(texts,
            (std::vector<std::string>{"SELECT 'a;b' FROM t", "SELECT \"c;d\" /* ; */ FROM u"}));
}

TEST(ParserLexer, ACallScriptSplitsOutsideItsJson) {
  // Inside CALL's JSON: `;`, `'`, `--` and brackets in strings, and nesting, end nothing.
  ScriptWalker w(
      "CALL PutItem {\"TableName\": \"T\", \"Item\": {\"s\": {\"S\": \"a;b'c--d}]\"},"
      " \"l\": {\"L\": [{\"M\": {}}, {\"S\": \";\"}]}}};\nSELECT * FROM t -",
      false);
  std::vector<std::string> texts;
  std::vector<bool> terminated;
  while (std::optional<ScriptPiece> p = w.Next()) {
    texts.emplace_back(p->text);
    terminated.push_back(p->terminated);
  }
  ASSERT_EQ(texts.size(), 2u);
  EXPECT_TRUE(texts[0].ends_with("[{\"M\": {}}, {\"S\": \";\"}]}}}")) << texts[0];
  EXPECT_EQ(texts[1], "SELECT * FROM t -");
  EXPECT_EQ(terminated, (std::vector<bool>{true, false}));
  // A script ending in the first character of a comment opener.
  ScriptWalker slash("SELECT 1 /", false);
  std::optional<ScriptPiece> p = slash.Next();
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->text, "SELECT 1 /");
  EXPECT_FALSE(p->terminated);
}

TEST(ParserLexer, InvalidUtf8IsFoundAtEveryOffset) {
  for (size_t k = 0; k < 40; ++k) {
    const std::string ascii(k, 'a');
    EXPECT_EQ(utf8::FindInvalid(ascii + "\xff" + std::string(20, 'b')), k) << k;
    EXPECT_EQ(utf8::FindInvalid(ascii + "\xc3" + std::string(20, 'b')), k) << k;
    EXPECT_EQ(utf8::FindInvalid(ascii + "\xc3\xa9" + std::string(20, 'b')), std::nullopt);
    EXPECT_EQ(utf8::FindInvalid(ascii + "\xe2\x82"), k) << k;  // cut at the end
    EXPECT_EQ(utf8::FindInvalid(ascii), std::nullopt);
  }
}

TEST(ParserLexer, ScriptPositionsCountLinesAndCharacters) {
  const std::string script =
      "SELECT aaaaaaaaaaaaaaaaaaaa;\n\xc3\xa9\xc3\xa9\xc3\xa9; SELECT bbbbbbbbbbbbbbbbbbbbbbbbb;"
      "  \n\n          SELECT c;";
  ScriptWalker w(script, false);
  std::vector<SourcePosition> starts;
  while (std::optional<ScriptPiece> p = w.Next()) starts.push_back(p->start);
  ASSERT_EQ(starts.size(), 4u);
  EXPECT_EQ(starts[0], (SourcePosition{0, 1, 1}));
  EXPECT_EQ(starts[1], (SourcePosition{29, 2, 1}));
  EXPECT_EQ(starts[2], (SourcePosition{37, 2, 6}));  // three two-byte characters, ';', ' '
  EXPECT_EQ(starts[3], (SourcePosition{84, 4, 11}));
}

}  // namespace
}  // namespace keyhole::parser
