// The lexer's tokens (parser/partiql_lexer.h): every operator and punctuation token, comments,
// and the characters that start none.
#include "parser/partiql_lexer.h"

#include "parser/partiql.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace keyhole::parser {
namespace {

TEST(Lexer, EveryOperatorIsOneToken) {
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

TEST(Lexer, CommentsAndCharactersThatStartNoToken) {
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

TEST(Lexer, ScriptsSplitAtSemicolonsOutsideStringsAndComments) {
  // (A comment before a statement is not part of it.)
  ScriptWalker w("SELECT 'a;b' FROM t; -- x;y\nSELECT \"c;d\" /* ; */ FROM u;", false);
  std::vector<std::string> texts;
  while (std::optional<ScriptPiece> p = w.Next()) texts.emplace_back(p->text);
  EXPECT_EQ(texts,
            (std::vector<std::string>{"SELECT 'a;b' FROM t", "SELECT \"c;d\" /* ; */ FROM u"}));
}

}  // namespace
}  // namespace keyhole::parser
