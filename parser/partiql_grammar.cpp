// The PEGTL grammar of keyhole's statement language (DynamoDB's PartiQL plus keyhole's own
// statements, see partiql.h) and its conversion to the plain syntax tree of partiql_syntax.h.
// This is the only translation unit that instantiates the PartiQL grammar.
//
// Layout follows taocpp/PEGTL contrib/json.hpp and src/example/pegtl/lua53.hpp: one struct per
// rule, bottom-up; keywords with a not-an-identifier lookahead; PartiQL's operator precedence as
// a ladder without left recursion. Every token rule consumes the whitespace and comments after
// it, so a rule that fails leaves the input at the start of the offending token.
//
// Errors: where the grammar is committed (a keyword was read, an operand must follow), failure
// is turned into an error with `raise<E>`: E names the message (the error table below), which
// Control<E>::raise throws with the offset. DynamoDB's parser (partiql-lang-kotlin's SqlParser)
// classifies a missing operand by the token found instead: an operator ("Unexpected
// operator"), a keyword ("Unexpected keyword"), the end right after an infix operator
// ("Missing right-hand side expression of infix operator"), anything else ("Unexpected term");
// term_error and rhs<> reproduce that.
//
// The parse tree keeps the rules that derive from node<K>; Control records them in one flat
// vector, in preorder, as PEGTL tries them, and drops those of a failed alternative (so the
// backtracking grammar needs no hand-written undo); the tree is then converted to
// syntax::Node. (PEGTL's parse_tree did the same with a heap node per attempt: most of the
// parse's time went to allocating and freeing them.) Lookaheads (at<>) never contain kept
// rules, except right before a raise.
#include <tao/pegtl.hpp>
#include <tao/pegtl/contrib/analyze.hpp>

#include <algorithm>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "parser/partiql.h"
#include "parser/partiql_lexer.h"
#include "parser/partiql_syntax.h"
#include "parser/partiql_words.h"

namespace keyhole::parser {
namespace {

namespace pegtl = tao::pegtl;
using syntax::Kind;

using WordPredicate = bool (*)(std::string_view);
using namespace words;  // NOLINT: the word classes are this grammar's vocabulary

// ============================================================================================
// Grammar
// ============================================================================================
namespace grammar {

using pegtl::any;
using pegtl::at;
using pegtl::eof;
using pegtl::eolf;
using pegtl::list;
using pegtl::not_at;
using pegtl::not_one;
using pegtl::one;
using pegtl::opt;
using pegtl::plus;
using pegtl::raise;
using pegtl::range;
using pegtl::ranges;
using pegtl::seq;
using pegtl::sor;
using pegtl::star;
using pegtl::string;
using pegtl::two;
using pegtl::until;

// ---- tags ----

// The rule is kept in the parse tree as a node of kind K.
template <Kind K>
struct node {
  static constexpr Kind kNode = K;
};
// The rule opens a nesting level, counted against kMaxPartiqlNesting / kMaxJsonNesting.
struct nesting {};
struct json_nesting {};

// ---- the error table ----
// Each error is a rule that never matches, raised with raise<E>; kMessage is its text.
#define KH_ENVELOPE "Statement wasn't well formed, can't be processed: "
#define KH_ERROR(name, text)                      \
  struct name : pegtl::failure {                  \
    static constexpr const char* kMessage = text; \
  }
KH_ERROR(e_lexical, KH_ENVELOPE);
KH_ERROR(e_after_expression, KH_ENVELOPE "Unexpected token after expression");
KH_ERROR(e_unexpected_term, KH_ENVELOPE "Unexpected term");
KH_ERROR(e_unexpected_keyword, KH_ENVELOPE "Unexpected keyword");
KH_ERROR(e_unexpected_operator, KH_ENVELOPE "Unexpected operator");
KH_ERROR(e_missing_rhs, KH_ENVELOPE "Missing right-hand side expression of infix operator");
KH_ERROR(e_expected_simple_path, KH_ENVELOPE "Expected identifier for simple path");
KH_ERROR(e_expected_type_name, KH_ENVELOPE "Expected type name");
KH_ERROR(e_invalid_dot, KH_ENVELOPE "Invalid path dot component");
KH_ERROR(e_invalid_path_component, KH_ENVELOPE "Invalid path component");
KH_ERROR(e_expected_rparen, KH_ENVELOPE "Expected ')'");
KH_ERROR(e_expected_rbracket, KH_ENVELOPE "Expected ']'");
KH_ERROR(e_expected_bag_close, KH_ENVELOPE "Expected '>>'");
KH_ERROR(e_expected_rbrace, KH_ENVELOPE "Expected '}'");
KH_ERROR(e_expected_colon, KH_ENVELOPE "Expected ':'");
KH_ERROR(e_expected_and, KH_ENVELOPE "Expected AND");
KH_ERROR(e_expected_after_and, KH_ENVELOPE "Expected expression after AND");
KH_ERROR(e_expected_by, KH_ENVELOPE "Expected BY");
KH_ERROR(e_expected_from, KH_ENVELOPE "Expected FROM");
KH_ERROR(e_expected_equals, KH_ENVELOPE "Expected '=' after the SET target");
KH_ERROR(e_delete_from, KH_ENVELOPE "Expected FROM after DELETE");
KH_ERROR(e_one_operation, "Only one operation is allowed in a statement.");
KH_ERROR(e_aliasing, "Aliasing is not supported");
KH_ERROR(e_single_table, "Only select from a single table or index is supported.");
KH_ERROR(e_group_by, "Unsupported clause: GROUP BY");
KH_ERROR(e_having, "Unsupported clause: HAVING");
KH_ERROR(e_limit, "Unsupported clause: LIMIT");
KH_ERROR(
    e_limit_count,
    "Expected a number after LIMIT: the K of ORDER BY VECTOR_DISTANCE(...) LIMIT K (1 to 100)");
KH_ERROR(e_offset, "Unsupported clause: OFFSET");
KH_ERROR(e_distinct, "Unsupported token in expression: DISTINCT");
KH_ERROR(e_value_pivot, "Select projection doesn't support value or pivot keywords");
KH_ERROR(e_insert_values,
         "Unsupported operation: Inserting multiple items in a single statement is not "
         "supported, use \"INSERT INTO tableName VALUE item\" instead");
KH_ERROR(e_insert_at, "AT is not supported in insert statements.");
KH_ERROR(e_on_conflict, "Unsupported clause: ON CONFLICT");
KH_ERROR(e_insert_returning, "RETURNING is not supported in INSERT");
KH_ERROR(e_insert_from_where, "Unsupported FROM ... WHERE ... clause in INSERT statement.");
KH_ERROR(e_only_set_remove, "Only SET and REMOVE are supported in update expressions at this time");
KH_ERROR(e_returning_syntax,
         KH_ENVELOPE "Expected ( MODIFIED | ALL ) ( NEW | OLD ) * after RETURNING");
KH_ERROR(e_returning_star,
         "Expected '*' after ( MODIFIED | ALL ) ( NEW | OLD ) in RETURNING clause");
KH_ERROR(e_returning_multiple,
         "Invalid syntax with multiple returning elements in RETURNING clause");
KH_ERROR(e_exists_syntax, KH_ENVELOPE "Expected EXISTS(SELECT ...)");
KH_ERROR(e_scan_target, "SCAN must be followed by a SELECT, UPDATE or DELETE statement");
KH_ERROR(e_explain_target,
         "EXPLAIN must be followed by a SELECT, INSERT, UPDATE, DELETE or EXISTS statement");
KH_ERROR(e_is_type_statement, "Unsupported operation: IsType");
KH_ERROR(e_unknown_statement,
         "Unknown statement; expected SELECT, INSERT, UPDATE, DELETE or EXISTS, or one of "
         "keyhole's: CREATE TABLE, DROP TABLE, ALTER TABLE, SHOW TABLES, SHOW CREATE TABLE, "
         "DESCRIBE, EXPLAIN, SCAN, BEGIN, COMMIT, ROLLBACK, CALL, NEXT");
// keyhole's statements
KH_ERROR(e_expected_table, KH_ENVELOPE "Expected TABLE");
KH_ERROR(e_expected_table_name,
         KH_ENVELOPE "Expected a table name (quote names that are PartiQL keywords: \"name\")");
KH_ERROR(e_expected_index_name,
         KH_ENVELOPE "Expected an index name (quote names that are PartiQL keywords: \"name\")");
KH_ERROR(e_expected_attribute, KH_ENVELOPE
         "Expected an attribute name (quote names that are PartiQL keywords: \"name\")");
KH_ERROR(e_expected_key_list,
         KH_ENVELOPE "Expected '(' and the key attributes, e.g. (pk S HASH, sk N RANGE)");
KH_ERROR(e_expected_key_type, KH_ENVELOPE "Expected a key attribute type: S, N or B");
KH_ERROR(e_expected_comma_or_rparen, KH_ENVELOPE "Expected ',' or ')'");
KH_ERROR(e_expected_index, KH_ENVELOPE "Expected INDEX");
KH_ERROR(e_projection_type,
         KH_ENVELOPE "Expected ALL, KEYS_ONLY or INCLUDE (attribute, ...) after PROJECTION");
KH_ERROR(e_expected_include_list, KH_ENVELOPE "Expected '(' and attribute names after INCLUDE");
KH_ERROR(e_expected_ttl_attribute, KH_ENVELOPE "Expected the TTL attribute's name after TTL");
KH_ERROR(e_stream_view, KH_ENVELOPE
         "Expected a stream view type: KEYS_ONLY, NEW_IMAGE, OLD_IMAGE or NEW_AND_OLD_IMAGES");
KH_ERROR(e_billing, KH_ENVELOPE
         "Expected PAY_PER_REQUEST or PROVISIONED (READ <units>, WRITE <units>) after BILLING");
KH_ERROR(e_if_not_exists, KH_ENVELOPE "Expected IF NOT EXISTS");
KH_ERROR(e_if_exists, KH_ENVELOPE "Expected IF EXISTS");
KH_ERROR(e_add_local,
         "Local secondary indexes can only be created with the table (CREATE "
         "TABLE ... LOCAL INDEX ...)");
KH_ERROR(e_alter_add, KH_ENVELOPE "Expected GLOBAL INDEX or VECTOR INDEX after ADD");
KH_ERROR(e_vector_column, KH_ENVELOPE
         "Expected the vector attribute first: VECTOR INDEX \"name\" (embedding VECTOR(768) "
         "COSINE, tenant S HASH, kind S FILTER)");
KH_ERROR(e_vector_distance, KH_ENVELOPE "Expected COSINE, DOT_PRODUCT or EUCLIDEAN");
KH_ERROR(e_search_column, KH_ENVELOPE
         "Expected a search attribute: a name, its type (S, N or B) and HASH or FILTER");
KH_ERROR(e_alter_set, KH_ENVELOPE "Expected TTL <attribute> or STREAM <view type> after SET");
KH_ERROR(e_alter_disable, KH_ENVELOPE "Expected TTL or STREAM after DISABLE");
KH_ERROR(e_alter_action, KH_ENVELOPE
         "Expected ADD GLOBAL INDEX, DROP INDEX, SET TTL, DISABLE TTL, SET STREAM or DISABLE "
         "STREAM");
KH_ERROR(e_show, KH_ENVELOPE "Expected TABLES or CREATE TABLE after SHOW");
KH_ERROR(e_expected_operation,
         KH_ENVELOPE "Expected an operation name after CALL, e.g. CALL ListTables {}");
KH_ERROR(e_call_object, KH_ENVELOPE "CALL expects a JSON object after the operation name");
KH_ERROR(e_json_unclosed, "Invalid JSON: an object or array is not closed");
#undef KH_ERROR

// R, or the error E at the current token.
template <typename R, typename E>
struct expect : sor<R, raise<E>> {};

// ---- whitespace and comments ----

struct id_char : sor<ranges<'a', 'z', 'A', 'Z', '0', '9'>, one<'_', '$'>> {};
struct digit : range<'0', '9'> {};
struct ws_char : one<' ', '\t', '\n', '\r', '\f', '\v'> {};
struct line_comment : seq<two<'-'>, until<eolf>> {};
struct block_comment : seq<string<'/', '*'>, sor<until<string<'*', '/'>>, raise<e_lexical>>> {};
struct sp : star<sor<ws_char, line_comment, block_comment>> {};

// ---- tokens: each consumes the whitespace after it ----

template <typename R>
struct tk : seq<R, sp> {};

// A word [A-Za-z_$][A-Za-z0-9_$]* for which Pred holds (a custom rule; analyze_traits below).
template <WordPredicate Pred>
struct word_if {
  using rule_t = word_if;
  using subs_t = pegtl::empty_list;
  template <typename ParseInput>
  static bool match(ParseInput& in) {
    const char* p = in.current();
    const char* end = in.end();
    if (p == end || !IsIdentStart(*p)) return false;
    const char* q = p + 1;
    while (q != end && IsIdentChar(*q)) ++q;
    if (!Pred(std::string_view(p, static_cast<size_t>(q - p)))) return false;
    in.bump(static_cast<size_t>(q - p));
    return true;
  }
};
template <WordPredicate Pred>
struct word : tk<word_if<Pred>> {};

template <typename Word>
struct kw : tk<seq<Word, not_at<id_char>>> {};
// A keyword kept as a kWord node (its text is the keyword).
template <typename Word>
struct word_node : seq<kw<Word>>, node<Kind::kWord> {};

#define KH_KW(name, text) \
  struct name : kw<TAO_PEGTL_ISTRING(text)> {}
// PartiQL
KH_KW(kw_select, "SELECT");
KH_KW(kw_from, "FROM");
KH_KW(kw_where, "WHERE");
KH_KW(kw_and, "AND");
KH_KW(kw_or, "OR");
KH_KW(kw_not, "NOT");
KH_KW(kw_is, "IS");
KH_KW(kw_in, "IN");
KH_KW(kw_between, "BETWEEN");
KH_KW(kw_like, "LIKE");
KH_KW(kw_escape, "ESCAPE");
KH_KW(kw_order, "ORDER");
KH_KW(kw_by, "BY");
KH_KW(kw_group, "GROUP");
KH_KW(kw_having, "HAVING");
KH_KW(kw_limit, "LIMIT");
KH_KW(kw_offset, "OFFSET");
KH_KW(kw_distinct, "DISTINCT");
KH_KW(kw_value, "VALUE");
KH_KW(kw_values, "VALUES");
KH_KW(kw_pivot, "PIVOT");
KH_KW(kw_as, "AS");
KH_KW(kw_at, "AT");
KH_KW(kw_insert, "INSERT");
KH_KW(kw_into, "INTO");
KH_KW(kw_update, "UPDATE");
KH_KW(kw_set, "SET");
KH_KW(kw_remove, "REMOVE");
KH_KW(kw_delete, "DELETE");
KH_KW(kw_returning, "RETURNING");
KH_KW(kw_on, "ON");
KH_KW(kw_exists, "EXISTS");
KH_KW(kw_join, "JOIN");
KH_KW(kw_inner, "INNER");
KH_KW(kw_left, "LEFT");
KH_KW(kw_right, "RIGHT");
KH_KW(kw_full, "FULL");
KH_KW(kw_cross, "CROSS");
KH_KW(kw_outer, "OUTER");
KH_KW(kw_add, "ADD");
KH_KW(kw_double, "DOUBLE");
KH_KW(kw_precision, "PRECISION");
KH_KW(kw_character, "CHARACTER");
KH_KW(kw_varying, "VARYING");
// keyhole
KH_KW(kw_explain, "EXPLAIN");
KH_KW(kw_scan, "SCAN");
KH_KW(kw_create, "CREATE");
KH_KW(kw_table, "TABLE");
KH_KW(kw_if, "IF");
KH_KW(kw_global, "GLOBAL");
KH_KW(kw_local, "LOCAL");
KH_KW(kw_index, "INDEX");
KH_KW(kw_projection, "PROJECTION");
KH_KW(kw_ttl, "TTL");
KH_KW(kw_stream, "STREAM");
KH_KW(kw_billing, "BILLING");
KH_KW(kw_read, "READ");
KH_KW(kw_write, "WRITE");
KH_KW(kw_drop, "DROP");
KH_KW(kw_alter, "ALTER");
KH_KW(kw_disable, "DISABLE");
KH_KW(kw_show, "SHOW");
KH_KW(kw_describe, "DESCRIBE");
KH_KW(kw_begin, "BEGIN");
KH_KW(kw_transaction, "TRANSACTION");
KH_KW(kw_commit, "COMMIT");
KH_KW(kw_rollback, "ROLLBACK");
KH_KW(kw_call, "CALL");
#undef KH_KW

struct lparen : tk<one<'('>> {};
struct rparen : tk<one<')'>> {};
struct lbracket : tk<one<'['>> {};
struct rbracket : tk<one<']'>> {};
struct lbrace : tk<one<'{'>> {};
struct rbrace : tk<one<'}'>> {};
struct bag_open : tk<two<'<'>> {};
struct bag_close : tk<two<'>'>> {};
struct comma : tk<one<','>> {};
struct dot : tk<one<'.'>> {};
struct colon : tk<one<':'>> {};
struct semicolon : tk<one<';'>> {};
struct star_token : tk<one<'*'>> {};

// The end of the statement: an optional `;`, then nothing.
struct stmt_end : seq<opt<semicolon>, eof> {};

// ---- operators ----

struct op_eq : tk<one<'='>>, node<Kind::kOpEq> {};
struct op_ne : tk<sor<string<'<', '>'>, string<'!', '='>>>, node<Kind::kOpNe> {};
struct op_le : tk<string<'<', '='>>, node<Kind::kOpLe> {};
struct op_ge : tk<string<'>', '='>>, node<Kind::kOpGe> {};
struct op_lt : tk<seq<one<'<'>, not_at<one<'<', '=', '>'>>>>, node<Kind::kOpLt> {};
struct op_gt : tk<seq<one<'>'>, not_at<one<'>', '='>>>>, node<Kind::kOpGt> {};
struct op_plus : tk<one<'+'>>, node<Kind::kOpPlus> {};
struct op_minus : tk<one<'-'>>, node<Kind::kOpMinus> {};
struct op_concat : tk<two<'|'>>, node<Kind::kOpConcat> {};
struct op_mul : tk<one<'*'>>, node<Kind::kOpMul> {};
struct op_div : tk<one<'/'>>, node<Kind::kOpDiv> {};
struct op_mod : tk<one<'%'>>, node<Kind::kOpMod> {};

// ---- identifiers and literals ----

struct identifier_token : word_if<&IsIdentifierWord>, node<Kind::kIdent> {};
struct identifier : seq<identifier_token, sp> {};
struct quoted_token : seq<one<'"'>, star<sor<two<'"'>, not_one<'"'>>>, one<'"'>>,
                      node<Kind::kQuoted> {};
struct quoted_ident : seq<quoted_token, sp> {};
struct string_token : seq<one<'\''>, star<sor<two<'\''>, not_one<'\''>>>, one<'\''>>,
                      node<Kind::kString> {};
struct string_lit : seq<string_token, sp> {};

struct exponent : seq<one<'e', 'E'>, opt<one<'+', '-'>>, plus<digit>> {};
struct digits_token
    : seq<sor<seq<plus<digit>, opt<one<'.'>, star<digit>>>, seq<one<'.'>, plus<digit>>>,
          opt<exponent>>,
      node<Kind::kDigits> {};
struct minus_sign : tk<one<'-'>>, node<Kind::kNegative> {};
struct plus_sign : tk<one<'+'>> {};
// A sign may precede a number (PartiQL folds a unary sign into a numeric literal).
struct number : seq<opt<sor<minus_sign, plus_sign>>, digits_token, sp>, node<Kind::kNumber> {};

struct lit_true : kw<TAO_PEGTL_ISTRING("TRUE")>, node<Kind::kTrue> {};
struct lit_false : kw<TAO_PEGTL_ISTRING("FALSE")>, node<Kind::kFalse> {};
struct lit_null : kw<TAO_PEGTL_ISTRING("NULL")>, node<Kind::kNull> {};
struct lit_missing : kw<TAO_PEGTL_ISTRING("MISSING")>, node<Kind::kMissing> {};
struct param : tk<one<'?'>>, node<Kind::kParam> {};

// ---- paths (reference §2.3, Appendix C point 7) ----

struct path_name : sor<identifier, quoted_ident> {};
struct unpivot : tk<one<'*'>>, node<Kind::kUnpivot> {};
struct member : seq<dot, sor<path_name, unpivot, raise<e_invalid_dot>>> {};
struct index_token : seq<opt<one<'-'>>, plus<digit>>, node<Kind::kIndex> {};
struct wildcard : tk<one<'*'>>, node<Kind::kWildcard> {};
struct element_index
    : seq<lbracket, sor<wildcard, seq<index_token, sp>, raise<e_invalid_path_component>>,
          expect<rbracket, e_expected_rbracket>> {};
struct path : seq<path_name, star<sor<member, element_index>>>, node<Kind::kPath> {};

// ---- expressions (reference §2.4) ----

struct expr;

// An operand after an infix operator: the end of the statement right there is DynamoDB's
// "Missing right-hand side expression of infix operator".
template <typename R>
struct rhs : sor<seq<at<stmt_end>, raise<e_missing_rhs>>, R> {};

// Where an operand was required and none starts: classify the token found.
struct operator_start
    : sor<seq<one<'<'>, not_at<one<'<'>>>, one<'+', '-', '*', '/', '%', '=', '>', '!', '|', '@'>,
          word_if<&IsOperatorWord>> {};
struct term_error
    : sor<seq<at<operator_start>, raise<e_unexpected_operator>>,
          seq<at<word_if<&IsKeywordWord>>, raise<e_unexpected_keyword>>, raise<e_unexpected_term>> {
};

struct function_keyword : word<&IsFunctionKeyword> {};
struct func_name : sor<identifier, function_keyword, quoted_ident>, node<Kind::kFuncName> {};
struct call_args : sor<at<rparen>, list<expr, comma>> {};
struct call : seq<func_name, lparen, call_args, expect<rparen, e_expected_rparen>>,
              node<Kind::kCall>,
              nesting {};

// `(e)` groups; `(e1, e2, ...)` is a list (PartiQL's row value constructor).
struct paren_expr : seq<lparen, expr, star<comma, expr>, expect<rparen, e_expected_rparen>>,
                    node<Kind::kParen>,
                    nesting {};
struct list_lit
    : seq<lbracket, sor<at<rbracket>, list<expr, comma>>, expect<rbracket, e_expected_rbracket>>,
      node<Kind::kList>,
      nesting {};
struct bag_lit
    : seq<bag_open, sor<at<bag_close>, list<expr, comma>>, expect<bag_close, e_expected_bag_close>>,
      node<Kind::kBag>,
      nesting {};
struct struct_entry : seq<expr, expect<colon, e_expected_colon>, expr>, node<Kind::kEntry> {};
struct struct_lit
    : seq<lbrace, sor<at<rbrace>, list<struct_entry, comma>>, expect<rbrace, e_expected_rbrace>>,
      node<Kind::kStruct>,
      nesting {};

struct term : sor<paren_expr, list_lit, bag_lit, struct_lit, call, path, number, string_lit,
                  lit_true, lit_false, lit_null, lit_missing, param, term_error> {};

// Multiplicative and additive levels (PartiQL parses them; DynamoDB supports + and - in SET).
struct mul_expr : seq<term, star<sor<op_mul, op_div, op_mod>, rhs<term>>>, node<Kind::kArith> {};
struct add_expr : seq<mul_expr, star<sor<op_plus, op_minus, op_concat>, rhs<mul_expr>>>,
                  node<Kind::kArith> {};

struct negate : kw<TAO_PEGTL_ISTRING("NOT")>, node<Kind::kNegate> {};

// Comparison level: < <= > >= [NOT] BETWEEN [NOT] LIKE.
struct cmp_op_tail : seq<sor<op_le, op_ge, op_lt, op_gt>, rhs<add_expr>>,
                     node<Kind::kCompareTail> {};
struct between_tail : seq<opt<negate>, kw_between, rhs<add_expr>, expect<kw_and, e_expected_and>,
                          sor<seq<at<stmt_end>, raise<e_expected_after_and>>, add_expr>>,
                      node<Kind::kBetweenTail> {};
struct like_tail : seq<opt<negate>, kw_like, rhs<add_expr>, opt<kw_escape, rhs<add_expr>>>,
                   node<Kind::kLikeTail> {};
struct cmp_expr : seq<add_expr, star<sor<cmp_op_tail, between_tail, like_tail>>>,
                  node<Kind::kCmpChain> {};

// Equality level: = <> != IS [NOT] type [NOT] IN.
struct eq_op_tail : seq<sor<op_eq, op_ne>, rhs<cmp_expr>>, node<Kind::kCompareTail> {};
struct type_name : sor<seq<kw_double, kw_precision>, seq<kw_character, kw_varying>,
                       word<&IsTypeWord>, raise<e_expected_type_name>>,
                   node<Kind::kTypeName> {};
struct is_tail : seq<kw_is, opt<negate>, type_name>, node<Kind::kIsTail> {};
// `IN (a, b)` is a list whatever the count (partiql-lang-kotlin's special case for IN).
struct in_list : seq<lparen, list<expr, comma>, expect<rparen, e_expected_rparen>>,
                 node<Kind::kList>,
                 nesting {};
struct in_tail
    : seq<opt<negate>, kw_in, sor<seq<at<stmt_end>, raise<e_missing_rhs>>, in_list, cmp_expr>>,
      node<Kind::kInTail> {};
struct eq_expr : seq<cmp_expr, star<sor<eq_op_tail, is_tail, in_tail>>>, node<Kind::kEqChain> {};

// Logical levels: NOT < AND < OR.
struct not_expr;
struct not_op : seq<kw_not, not_expr>, node<Kind::kNot>, nesting {};
struct not_expr : sor<not_op, eq_expr> {};
struct and_expr : seq<not_expr, star<kw_and, rhs<not_expr>>>, node<Kind::kAnd> {};
struct or_expr : seq<and_expr, star<kw_or, rhs<and_expr>>>, node<Kind::kOr> {};
struct expr : seq<or_expr> {};

// ---- SELECT (reference §2.3, §2.5, §2.6) ----

// `AS x`, `AT x`, `BY x` or a bare name after a projection item or a FROM source.
struct alias_check
    : seq<at<sor<kw_as, kw_at, kw_by, identifier, quoted_ident>>, raise<e_aliasing>> {};
struct join_check
    : seq<at<sor<comma, kw_join, kw_inner, kw_left, kw_right, kw_full, kw_cross, kw_outer>>,
          raise<e_single_table>> {};
struct unsupported_clause
    : sor<seq<at<kw_group>, raise<e_group_by>>, seq<at<kw_having>, raise<e_having>>,
          seq<at<kw_limit>, raise<e_limit>>, seq<at<kw_offset>, raise<e_offset>>> {};
struct select_checks : opt<sor<seq<at<kw_distinct>, raise<e_distinct>>,
                               seq<at<sor<kw_value, kw_pivot>>, raise<e_value_pivot>>>> {};

struct projection_star : star_token, node<Kind::kStar> {};
// `*` takes no alias: a word after it is a misspelt FROM ("Expected FROM"). After another item,
// a word close to FROM (FORM, FRM) not followed by FROM is one too, not an alias.
struct misspelt_from_check
    : seq<at<word<&IsMisspeltFrom>, not_at<kw_from>>, raise<e_expected_from>> {};
struct projection_item
    : sor<projection_star, seq<expr, opt<sor<misspelt_from_check, alias_check>>>> {};
struct projection : list<projection_item, comma>, node<Kind::kProjection> {};
struct from_source : sor<path, term>, node<Kind::kSource> {};
struct where_clause : seq<kw_where, expr>, node<Kind::kWhere> {};
struct asc : kw<TAO_PEGTL_ISTRING("ASC")>, node<Kind::kAsc> {};
struct desc : kw<TAO_PEGTL_ISTRING("DESC")>, node<Kind::kDesc> {};
struct order_item : seq<expr, opt<sor<asc, desc>>>, node<Kind::kOrderItem> {};
// keyhole: `ORDER BY VECTOR_DISTANCE(attr, [..]) LIMIT k`, a vector search (the shell runs it
// as SearchVectors). LIMIT follows that ORDER BY only: anywhere else it is refused as before.
struct vector_distance_word : kw<TAO_PEGTL_ISTRING("VECTOR_DISTANCE")> {};
struct limit_clause : seq<kw_limit, expect<number, e_limit_count>>, node<Kind::kLimit> {};
struct nearest_order : seq<at<vector_distance_word, lparen>, order_item, opt<limit_clause>> {};
struct order_by
    : seq<kw_order, expect<kw_by, e_expected_by>, sor<nearest_order, list<order_item, comma>>>,
      node<Kind::kOrderBy> {};
struct select_stmt
    : seq<kw_select, select_checks, projection, expect<kw_from, e_expected_from>, from_source,
          opt<alias_check>, opt<join_check>, opt<unsupported_clause>, opt<where_clause>,
          opt<unsupported_clause>, opt<order_by>, opt<unsupported_clause>>,
      node<Kind::kSelect> {};

// ---- INSERT, UPDATE, DELETE, EXISTS (reference §2.7-2.10) ----

// DML targets are "simple paths" in partiql-lang-kotlin.
struct simple_path : sor<path, raise<e_expected_simple_path>> {};

struct insert_value : seq<kw_value, expr>, node<Kind::kInsertValue> {};
struct insert_checks
    : seq<opt<seq<at<kw_at>, raise<e_insert_at>>>, opt<seq<at<kw_on>, raise<e_on_conflict>>>,
          opt<seq<at<kw_returning>, raise<e_insert_returning>>>> {};
struct insert_stmt
    : seq<kw_insert, kw_into, simple_path,
          sor<insert_value, seq<at<kw_values>, raise<e_insert_values>>, raise<e_after_expression>>,
          insert_checks>,
      node<Kind::kInsert> {};

struct assignment : seq<term, expect<op_eq, e_expected_equals>, rhs<expr>>,
                    node<Kind::kAssignment> {};
struct set_clause : seq<kw_set, list<assignment, comma>>, node<Kind::kSetClause> {};
struct remove_clause : seq<kw_remove, simple_path>, node<Kind::kRemoveClause> {};
struct update_action : sor<set_clause, remove_clause> {};
struct forbidden_action : seq<at<sor<kw_add, kw_delete, kw_insert>>, raise<e_only_set_remove>> {};
struct update_actions : seq<sor<update_action, raise<e_only_set_remove>>,
                            star<sor<update_action, forbidden_action>>> {};

struct w_all : word_node<TAO_PEGTL_ISTRING("ALL")> {};
struct w_modified : word_node<TAO_PEGTL_ISTRING("MODIFIED")> {};
struct w_old : word_node<TAO_PEGTL_ISTRING("OLD")> {};
struct w_new : word_node<TAO_PEGTL_ISTRING("NEW")> {};
struct returning
    : seq<kw_returning, sor<w_all, w_modified, raise<e_returning_syntax>>,
          sor<w_old, w_new, raise<e_returning_syntax>>, expect<star_token, e_returning_star>,
          opt<seq<at<comma>, raise<e_returning_multiple>>>>,
      node<Kind::kReturning> {};

struct update_stmt : seq<kw_update, simple_path, opt<alias_check>, update_actions,
                         opt<where_clause>, opt<returning>>,
                     node<Kind::kUpdate> {};
// The "FROM-first" form: FROM "T" [WHERE ...] SET ... (reference §2.3).
struct from_stmt
    : seq<kw_from, simple_path, opt<alias_check>, opt<where_clause>,
          sor<seq<at<kw_insert>, raise<e_insert_from_where>>, update_actions>, opt<returning>>,
      node<Kind::kUpdate> {};
struct delete_stmt : seq<kw_delete, expect<kw_from, e_delete_from>, simple_path, opt<alias_check>,
                         opt<where_clause>, opt<returning>>,
                     node<Kind::kDelete> {};
struct exists_stmt
    : seq<kw_exists, expect<lparen, e_exists_syntax>, sor<select_stmt, raise<e_exists_syntax>>,
          expect<rparen, e_expected_rparen>>,
      node<Kind::kExists> {};

// `INSERT` without INTO is a keyword where partiql-lang-kotlin expects a term.
struct insert_error : seq<at<kw_insert>, raise<e_unexpected_keyword>> {};
struct dml : sor<select_stmt, insert_stmt, update_stmt, delete_stmt, from_stmt, exists_stmt,
                 insert_error> {};

// ---- keyhole: SCAN, EXPLAIN ----

struct scan_stmt
    : seq<kw_scan, sor<select_stmt, update_stmt, delete_stmt, from_stmt, raise<e_scan_target>>>,
      node<Kind::kScan> {};
struct analyze_word : kw<TAO_PEGTL_ISTRING("ANALYZE")>, node<Kind::kAnalyze> {};
struct explain_stmt
    : seq<kw_explain, opt<analyze_word>, sor<scan_stmt, dml, raise<e_explain_target>>>,
      node<Kind::kExplain> {};

// ---- keyhole: tables ----

struct name : sor<quoted_ident, identifier>, node<Kind::kName> {};
struct table_kw : expect<kw_table, e_expected_table> {};
struct table_name : expect<name, e_expected_table_name> {};

struct key_type : word<&IsKeyTypeWord>, node<Kind::kWord> {};
struct key_role : word<&IsKeyRoleWord>, node<Kind::kWord> {};
struct key_column
    : seq<expect<name, e_expected_attribute>, expect<key_type, e_expected_key_type>, opt<key_role>>,
      node<Kind::kKeyColumn> {};
struct key_columns : seq<expect<lparen, e_expected_key_list>, list<key_column, comma>,
                         expect<rparen, e_expected_comma_or_rparen>> {};

struct w_keys_only : word_node<TAO_PEGTL_ISTRING("KEYS_ONLY")> {};
struct w_include : word_node<TAO_PEGTL_ISTRING("INCLUDE")> {};
struct include_list
    : seq<expect<lparen, e_expected_include_list>, list<expect<name, e_expected_attribute>, comma>,
          expect<rparen, e_expected_comma_or_rparen>> {};
struct projection_spec
    : seq<kw_projection,
          sor<w_all, w_keys_only, seq<w_include, include_list>, raise<e_projection_type>>>,
      node<Kind::kProjectionSpec> {};
struct index_body : seq<expect<name, e_expected_index_name>, key_columns, opt<projection_spec>> {};
struct global_index : seq<kw_global, expect<kw_index, e_expected_index>, index_body>,
                      node<Kind::kGlobalIndex> {};
struct local_index : seq<kw_local, expect<kw_index, e_expected_index>, index_body>,
                     node<Kind::kLocalIndex> {};
struct ttl_clause : seq<kw_ttl, expect<name, e_expected_ttl_attribute>>, node<Kind::kTtl> {};
struct stream_view : word<&IsStreamViewWord>, node<Kind::kWord> {};
struct stream_clause : seq<kw_stream, expect<stream_view, e_stream_view>>, node<Kind::kStream> {};
struct capacity : seq<plus<digit>, sp>, node<Kind::kCapacity> {};
struct w_pay_per_request : word_node<TAO_PEGTL_ISTRING("PAY_PER_REQUEST")> {};
struct w_provisioned : word_node<TAO_PEGTL_ISTRING("PROVISIONED")> {};
struct provisioned
    : seq<w_provisioned, expect<lparen, e_billing>, expect<kw_read, e_billing>,
          expect<capacity, e_billing>, expect<comma, e_billing>, expect<kw_write, e_billing>,
          expect<capacity, e_billing>, expect<rparen, e_billing>> {};
struct billing_clause : seq<kw_billing, sor<w_pay_per_request, provisioned, raise<e_billing>>>,
                        node<Kind::kBilling> {};
// keyhole: VECTOR INDEX "name" (embedding VECTOR(768) COSINE, tenant S HASH, kind S FILTER)
// [PROJECTION ...]: DynamoDB's vector index, its SearchSchema's HASH and INLINE_FILTER
// attributes after the vector.
struct kw_vector : kw<TAO_PEGTL_ISTRING("VECTOR")> {};
struct vector_distance
    : sor<word_node<TAO_PEGTL_ISTRING("COSINE")>, word_node<TAO_PEGTL_ISTRING("DOT_PRODUCT")>,
          word_node<TAO_PEGTL_ISTRING("EUCLIDEAN")>, raise<e_vector_distance>> {};
struct vector_column
    : seq<name, kw_vector, expect<lparen, e_vector_column>, expect<capacity, e_vector_column>,
          expect<rparen, e_vector_column>, vector_distance>,
      node<Kind::kVectorColumn> {};
struct search_role
    : sor<word_node<TAO_PEGTL_ISTRING("HASH")>, word_node<TAO_PEGTL_ISTRING("FILTER")>> {};
struct search_column : seq<expect<name, e_search_column>, expect<key_type, e_search_column>,
                           expect<search_role, e_search_column>>,
                       node<Kind::kSearchColumn> {};
struct vector_columns
    : seq<expect<lparen, e_vector_column>, expect<vector_column, e_vector_column>,
          star<comma, search_column>, expect<rparen, e_expected_comma_or_rparen>> {};
struct vector_index
    : seq<kw_vector, expect<kw_index, e_expected_index>, expect<name, e_expected_index_name>,
          vector_columns, opt<projection_spec>>,
      node<Kind::kVectorIndex> {};
struct create_option
    : sor<global_index, local_index, vector_index, ttl_clause, stream_clause, billing_clause> {};
struct if_not_exists
    : seq<kw_if, expect<kw_not, e_if_not_exists>, expect<kw_exists, e_if_not_exists>>,
      node<Kind::kIfNotExists> {};
struct if_exists : seq<kw_if, expect<kw_exists, e_if_exists>>, node<Kind::kIfExists> {};
struct create_stmt
    : seq<kw_create, table_kw, opt<if_not_exists>, table_name, key_columns, star<create_option>>,
      node<Kind::kCreateTable> {};
struct drop_stmt : seq<kw_drop, table_kw, opt<if_exists>, table_name>, node<Kind::kDropTable> {};

struct alter_add : seq<kw_add, sor<global_index, vector_index,
                                   seq<at<kw_local>, raise<e_add_local>>, raise<e_alter_add>>>,
                   node<Kind::kAlterAdd> {};
struct alter_drop
    : seq<kw_drop, expect<kw_index, e_expected_index>, expect<name, e_expected_index_name>>,
      node<Kind::kAlterDropIndex> {};
struct alter_set : seq<kw_set, sor<ttl_clause, stream_clause, raise<e_alter_set>>>,
                   node<Kind::kAlterSet> {};
struct w_ttl : word_node<TAO_PEGTL_ISTRING("TTL")> {};
struct w_stream : word_node<TAO_PEGTL_ISTRING("STREAM")> {};
struct alter_disable : seq<kw_disable, sor<w_ttl, w_stream, raise<e_alter_disable>>>,
                       node<Kind::kAlterDisable> {};
struct alter_stmt
    : seq<kw_alter, table_kw, table_name,
          sor<alter_add, alter_drop, alter_set, alter_disable, raise<e_alter_action>>>,
      node<Kind::kAlterTable> {};

struct show_tables : kw<TAO_PEGTL_ISTRING("TABLES")>, node<Kind::kShowTables> {};
struct show_create : seq<kw_create, table_kw, table_name>, node<Kind::kShowCreateTable> {};
struct show_stmt : seq<kw_show, sor<show_tables, show_create, raise<e_show>>> {};
struct describe_stmt : seq<kw_describe, opt<kw_table>, table_name>, node<Kind::kDescribe> {};

// ---- keyhole: transactions, CALL, NEXT ----

struct w_batch : word_node<TAO_PEGTL_ISTRING("BATCH")> {};
struct begin_stmt : seq<kw_begin, opt<sor<kw_transaction, w_batch>>>, node<Kind::kBegin> {};
struct commit_stmt : seq<kw_commit, opt<kw_transaction>>, node<Kind::kCommit> {};
struct rollback_stmt : seq<kw_rollback, opt<kw_transaction>>, node<Kind::kRollback> {};
struct next_stmt : kw<TAO_PEGTL_ISTRING("NEXT")>, node<Kind::kNext> {};

// A JSON object skimmed for its extent only (strings with escapes, balanced {} and []);
// json::Parse checks it afterwards. The nested objects and arrays are kept as nodes so that
// Control counts their nesting.
struct json_object;
struct json_array;
struct json_string : seq<one<'"'>, until<one<'"'>, sor<seq<one<'\\'>, any>, any>>> {};
struct json_other : plus<not_one<'{', '}', '[', ']', '"'>> {};
struct json_item : sor<json_string, json_object, json_array, json_other> {};
struct json_object : seq<one<'{'>, star<json_item>, expect<one<'}'>, e_json_unclosed>>,
                     node<Kind::kJsonBody>,
                     json_nesting {};
struct json_array : seq<one<'['>, star<json_item>, expect<one<']'>, e_json_unclosed>>,
                    node<Kind::kJsonBody>,
                    json_nesting {};
struct operation_token : seq<ranges<'a', 'z', 'A', 'Z'>, star<id_char>>, node<Kind::kOperation> {};
struct call_body : sor<seq<json_object, sp>, at<stmt_end>, raise<e_call_object>> {};
struct call_stmt : seq<kw_call, expect<seq<operation_token, sp>, e_expected_operation>, call_body>,
                   node<Kind::kCallStatement> {};

// ---- the statement ----

// A bare type test (`x IS INT4`) parses, and is then refused as DynamoDB refuses it
// (partiqlGrammar.test.ts, October 2026).
struct is_type_stmt : seq<at<path, sp, is_tail, stmt_end>, raise<e_is_type_statement>> {};

struct statement_body : sor<explain_stmt, scan_stmt, dml, create_stmt, drop_stmt, alter_stmt,
                            show_stmt, describe_stmt, begin_stmt, commit_stmt, rollback_stmt,
                            call_stmt, next_stmt, is_type_stmt, raise<e_unknown_statement>> {};
struct statement_end
    : sor<stmt_end, seq<at<semicolon>, raise<e_one_operation>>, raise<e_after_expression>> {};
struct statement : seq<sp, statement_body, statement_end> {};

}  // namespace grammar

// ============================================================================================
// Parse tree
// ============================================================================================

template <typename Rule>
    struct Selector : std::bool_constant < requires {
  Rule::kNode;
} > {};

// A kept rule's match, in ParseState::nodes. Its descendants follow it, up to `last`.
struct FlatNode {
  Kind kind;
  uint32_t begin = 0;  // offsets in the text
  uint32_t end = 0;
  uint32_t last = 0;  // one past its last descendant
};

struct ParseState {
  int depth = 0;                // open `nesting` rules
  int json_depth = 0;           // open `json_nesting` rules
  std::vector<FlatNode> nodes;  // preorder
  std::vector<uint32_t> open;   // indexes in `nodes` of the kept rules being matched
};

// Thrown by Control; caught in syntax::Parse.
struct Raised {
  std::string message;
  size_t offset;
};

template <typename Rule>
struct Control : pegtl::normal<Rule> {
  static constexpr bool kNesting = std::is_base_of_v<grammar::nesting, Rule>;
  static constexpr bool kJsonNesting = std::is_base_of_v<grammar::json_nesting, Rule>;

  template <typename ParseInput>
  static void start(const ParseInput& in, ParseState& st) {
    if constexpr (kNesting) {
      if (++st.depth > kMaxPartiqlNesting) {
        throw Raised{std::string(syntax::kEnvelope) + "Expressions are nested too deeply",
                     Offset(in)};
      }
    }
    if constexpr (kJsonNesting) {
      if (++st.json_depth > kMaxJsonNesting) {
        throw Raised{"Invalid JSON: nesting too deep", Offset(in)};
      }
    }
    if constexpr (Selector<Rule>::value) {
      st.open.push_back(static_cast<uint32_t>(st.nodes.size()));
      st.nodes.push_back({Rule::kNode, static_cast<uint32_t>(Offset(in))});
    }
  }
  template <typename ParseInput>
  static void success(const ParseInput& in, ParseState& st) {
    Leave(st);
    if constexpr (Selector<Rule>::value) {
      FlatNode& n = st.nodes[st.open.back()];
      st.open.pop_back();
      n.end = static_cast<uint32_t>(Offset(in));
      n.last = static_cast<uint32_t>(st.nodes.size());
    }
  }
  template <typename ParseInput>
  static void failure(const ParseInput& /*in*/, ParseState& st) {
    Leave(st);
    if constexpr (Selector<Rule>::value) {
      st.nodes.resize(st.open.back());
      st.open.pop_back();
    }
  }
  template <typename ParseInput, typename... States>
  [[noreturn]] static void raise(const ParseInput& in, States&&... /*st*/) {
    if constexpr (requires { Rule::kMessage; }) {
      throw Raised{Rule::kMessage, Offset(in)};
    } else {
      throw Raised{std::string(syntax::kEnvelope), Offset(in)};
    }
  }

 private:
  template <typename ParseInput>
  static size_t Offset(const ParseInput& in) {
    return static_cast<size_t>(in.current() - in.begin());
  }
  static void Leave(ParseState& st) {
    if constexpr (kNesting) --st.depth;
    if constexpr (kJsonNesting) --st.json_depth;
  }
};

// Converts the flat node `i`. A node's raw end includes the whitespace and comments after its
// last token; `token_ends` (sorted token end offsets, or empty) trims it to the last token's end.
syntax::Node Convert(const std::vector<FlatNode>& nodes, size_t i,
                     const std::vector<size_t>& token_ends) {
  const FlatNode& n = nodes[i];
  syntax::Node out;
  out.kind = n.kind;
  out.begin = n.begin;
  out.end = n.end;
  if (!token_ends.empty()) {
    auto it = std::upper_bound(token_ends.begin(), token_ends.end(), out.end);
    if (it != token_ends.begin() && *(it - 1) > out.begin) out.end = *(it - 1);
  }
  size_t children = 0;
  for (size_t c = i + 1; c < n.last; c = nodes[c].last) ++children;
  out.children.reserve(children);
  for (size_t c = i + 1; c < n.last; c = nodes[c].last)
    out.children.push_back(Convert(nodes, c, token_ends));
  return out;
}

}  // namespace
}  // namespace keyhole::parser

// The custom word rule consumes input when it succeeds.
template <typename Name, keyhole::parser::WordPredicate Pred>
struct tao::pegtl::analyze_traits<Name, keyhole::parser::grammar::word_if<Pred>>
    : analyze_any_traits<> {};

namespace keyhole::parser {

namespace syntax {

std::variant<Node, Failure> Parse(std::string_view text, const std::vector<size_t>& token_ends) {
  // One state per thread, reused: its vectors keep their capacity from parse to parse.
  thread_local ParseState st;
  st.depth = 0;
  st.json_depth = 0;
  st.nodes.clear();
  st.open.clear();
  pegtl::memory_input<pegtl::tracking_mode::lazy> in(text.data(), text.size(), "statement");
  bool ok = false;
  try {
    ok = pegtl::parse<grammar::statement, pegtl::nothing, Control>(in, st);
  } catch (const Raised& e) {
    return Failure{e.message, e.offset};
  }
  if (!ok || st.nodes.empty()) {
    return Failure{std::string(kEnvelope) + "Unexpected token after expression", 0};
  }
  return Convert(st.nodes, 0, token_ends);
}

size_t Analyze(bool verbose) { return pegtl::analyze<grammar::statement>(verbose ? 1 : 0); }

}  // namespace syntax

size_t AnalyzePartiqlGrammar(bool verbose) { return syntax::Analyze(verbose); }

}  // namespace keyhole::parser
