// keyhole's statement language: DynamoDB's PartiQL dialect (reference §2) plus keyhole's own
// statements, parsed into a plain AST. No PEGTL here; the grammar lives in
// partiql_grammar.cpp (the only translation unit that instantiates it).
//
// ParseStatement() turns the text of ONE statement into a Statement. WHERE clauses and SET /
// REMOVE actions come out as the shared expression AST of core/expression.h, so one evaluator
// (core/evaluate.h) serves PartiQL and the native expressions. Deciding how a statement runs
// (GetItem / Query / Scan, key extraction, the key-addressability rule of design.md) is the
// planner's job, not this layer's.
//
// ==== DynamoDB's PartiQL (reference §2.2-2.9) ====
//
//   SELECT * | path [, path ...] FROM "T" | "T"."Index" [WHERE cond]
//          [ORDER BY name [ASC|DESC] [, ...]]
//   INSERT INTO "T" VALUE {'k': value, ...}
//   UPDATE "T" (SET path = value [, path = value ...] | REMOVE path)+ [WHERE cond]
//          [RETURNING (ALL|MODIFIED) (OLD|NEW) *]
//   FROM "T" [WHERE cond] (SET ... | REMOVE ...)+ [RETURNING ...]    -- "FROM-first" UPDATE
//   DELETE FROM "T" [WHERE cond] [RETURNING ALL OLD *]
//   EXISTS(SELECT ...)                        -- a condition check inside a transaction
//
// Lexical rules:
//  - Keywords are case-insensitive. Identifiers are case-sensitive (unverified on DynamoDB for
//    plain ones; its names are case-sensitive), plain: [A-Za-z_$][A-Za-z0-9_$]*, or "double
//    quoted" (`""` inside stands for one `"`, unverified). A PartiQL keyword (SQL-92's and
//    PartiQL's, as partiql-lang-kotlin lists them: `date`, `value`, `key`, `size`, `user`, ...)
//    is not a plain identifier: quote it ("Unexpected keyword"; after a dot "Invalid path dot
//    component", as AWS reports for `m.inner`).
//  - 'strings' in single quotes; `''` inside stands for one `'` (standard SQL, unverified on
//    DynamoDB). Numbers: `1`, `1.0`, `1.`, `.73e1`, `-.73e1`, `7.31E+6`, exact (core/number.h);
//    a sign may precede a number. TRUE, FALSE, NULL; MISSING only after IS [NOT]. `?` parameters.
//    Collections: [list], <<set>> (numbers only or strings only, non-empty, no duplicates),
//    {'map': value} (string keys, no duplicates); `(a, b)` is a list too (PartiQL's row value).
//  - `--` comments to the end of the line, `/* */` block comments (not nested). `#`, `!`, a
//    lone `|`, backticks (Ion literals) and any other character outside strings, identifiers
//    and comments is a lexical error, as are an unterminated string, identifier or comment and
//    an exponent outside the 32-bit range; all of them give the bare envelope
//    "Statement wasn't well formed, can't be processed: " (reference §2.2).
//  - At most kMaxStatementChars characters (code points). One statement: a single trailing `;`
//    is allowed; anything after it is "Only one operation is allowed in a statement.".
//
// Conditions (WHERE), with PartiQL's precedence, loosest first:
//   OR < AND < NOT < {=, <>, !=, IS [NOT] type, [NOT] IN} < {<, <=, >, >=, [NOT] BETWEEN,
//   [NOT] LIKE} < {+, -, ||} < {*, /, %}; operators of one level chain to the left.
// Translation to expr::Condition:
//   a = b, a <> b (and `!=`, PartiQL's alias), <, <=, >, >=  -> kCompare
//   a BETWEEN x AND y                -> kBetween;        a NOT BETWEEN ... -> kNot(kBetween)
//   a IN [v, ...] / a IN (v, ...)    -> kIn (both spellings: PartiQL parses `IN (..)` as a list);
//   a IN ?                           -> kIn over the members of the bound list (must be L);
//   a NOT IN ...                     -> kNot(kIn). The left side must be a path.
//   a IS MISSING / IS NOT MISSING    -> attribute_not_exists(a) / attribute_exists(a)
//   a IS NULL / IS NOT NULL          -> attribute_type(a, 'NULL') / NOT attribute_type(a, 'NULL')
//                                       (true for a stored NULL only; a missing attribute is not
//                                       NULL, as in DynamoDB)
//   (the left side of IS must be a path or a literal; a literal then fails validation, since
//   attribute_type and attribute_[not_]exists need a path)
//   a IS STRING|NUMERIC (and INT, INT4, INT8, BIGINT, SMALLINT, INTEGER, DECIMAL, DEC, FLOAT,
//        REAL, DOUBLE PRECISION)|BLOB|BOOLEAN|BOOL|STRUCT|TUPLE|LIST
//                                    -> attribute_type(a, 'S'|'N'|'B'|'BOOL'|'M'|'M'|'L'), NOT for
//                                       IS NOT; other PartiQL type names are refused ("Unsupported
//                                       data type for IS operator: <NAME as written>. ...").
//   begins_with, contains, attribute_type, attribute_exists, attribute_not_exists, size
//                                    -> kFunction / kFunction operand. Function names are
//                                       case-insensitive (reference §2.4) and come out lower case.
//   Anything else is refused: unknown functions ("Unrecognized function: <name> at L:C:N",
//   which AWS answers for `exists(x)` and for set_add in a WHERE; so exists(), missing() and
//   the SET functions are not WHERE functions -- use IS [NOT] MISSING), arithmetic and LIKE
//   ("Unsupported operator in WHERE clause. Operator: +" / "... LIKE ..." -- keyhole's wording),
//   MISSING outside IS, and non-boolean WHERE/AND/OR/NOT arguments (DynamoDB's texts). The
//   result is then checked with expr::ValidateCondition (arity, operand types, ...); its
//   messages are returned without the "Invalid ConditionExpression: " prefix.
//
// UPDATE actions (reference §2.8):
//   SET p = v                 -> kSet p v, v a literal, parameter, path, `a + b`, `a - b`,
//                                list_append(a, b) or if_not_exists(p, v) (DDBL accepts
//                                if_not_exists; undocumented for PartiQL -- accepted here)
//   SET p = set_add(p, <<..>>)    -> kAdd p <<..>>     (also a `?` bound to a set)
//   SET p = set_delete(p, <<..>>) -> kDelete p <<..>>
//   REMOVE p                  -> kRemove p
//   `SET a = 1, b = 2` (commas) is accepted: PartiQL's SET takes an assignment list. REMOVE
//   takes exactly one path, as in PartiQL; repeat the keyword (`REMOVE a REMOVE b`).
//   One + or - per value (`a + b + c` is refused, as the native UpdateExpression refuses it).
//   WHERE is optional in the grammar: a missing WHERE is the planner's error ("Where clause
//   does not contain a mandatory equality on all key attributes"), and SCAN UPDATE may omit it.
//   expr::ValidateUpdate (it needs the key schema) is left to the planner.
//
// ==== keyhole's own statements (extensions; not DynamoDB syntax) ====
//
//   CREATE TABLE [IF NOT EXISTS] "T" (pk S HASH [, sk N RANGE])
//          [GLOBAL INDEX "g" (a S HASH [, b N RANGE]) [PROJECTION ALL|KEYS_ONLY|INCLUDE (x, y)]]...
//          [LOCAL INDEX "l" ([pk S HASH,] c N RANGE) [PROJECTION ...]]...
//          [TTL attr] [STREAM KEYS_ONLY|NEW_IMAGE|OLD_IMAGE|NEW_AND_OLD_IMAGES]
//          [BILLING PAY_PER_REQUEST | BILLING PROVISIONED (READ 5, WRITE 5)]  (GSIs get the same)
//     Key attribute types: S, N, B (or STRING, NUMBER, BINARY). The role (HASH / RANGE) may be
//     left out: the first attribute is the HASH key, the second the RANGE key. A LOCAL INDEX
//     given one attribute (its RANGE key, role written or not) shares the table's partition
//     key. An attribute may not be declared with two types. An index without PROJECTION
//     projects ALL. Clauses after the key may come in any order; TTL, STREAM and
//     BILLING at most once each. A GLOBAL INDEX may have a multi-attribute key, up to four
//     HASH and four RANGE attributes with every role written, HASH ones first:
//       GLOBAL INDEX "byRegion" (tournament S HASH, region S HASH, round S RANGE, bracket S RANGE)
//     Example:
//       CREATE TABLE "App" (pk S, sk S)
//         GLOBAL INDEX "gsi1" (gsi1pk S HASH, gsi1sk S RANGE) PROJECTION KEYS_ONLY
//         LOCAL INDEX "bydate" (created N RANGE)
//         TTL expires STREAM NEW_AND_OLD_IMAGES;
//   DROP TABLE [IF EXISTS] "T"
//   ALTER TABLE "T" ADD GLOBAL INDEX "g" (a S HASH [, b N RANGE]) [PROJECTION ...]
//   ALTER TABLE "T" DROP INDEX "g" | SET TTL attr | DISABLE TTL | SET STREAM view | DISABLE STREAM
//   SHOW TABLES;  SHOW CREATE TABLE "T";  DESCRIBE [TABLE] "T"
//   EXPLAIN [ANALYZE] <SELECT|INSERT|UPDATE|DELETE|EXISTS statement, optionally with SCAN>
//   SCAN SELECT ... | SCAN UPDATE ... | SCAN DELETE ...    (design.md: an explicit scan)
//   BEGIN [TRANSACTION];  COMMIT [TRANSACTION];  ROLLBACK [TRANSACTION]
//   BEGIN BATCH; ...; COMMIT;              the statements as one BatchExecuteStatement
//   CALL <OperationName> [<JSON object>]   e.g. CALL DescribeTable {"TableName": "App"}
//   NEXT                                   continue the previous statement (next page)
// Keywords of these statements are case-insensitive; names follow the identifier rules above.
// CALL bodies are not PartiQL: they are exempt from the lexical rules and the length limit.
//
// ==== Errors ====
// Every error is a ValidationException with DynamoDB's text where the reference gives one
// (the "Statement wasn't well formed, can't be processed: ..." family, "Aliasing is not
// supported", "Unsupported clause: GROUP BY", ...), and a ParseError carries the position of
// the offending token, for the shell's caret. The first error in this order wins: invalid UTF-8
// ("Invalid UTF-8 in the statement: the byte 0xFF here is not part of a valid UTF-8 character
// ..."; keyhole's
// text: DynamoDB cannot receive such a statement), length, lexical errors, syntax, parameter
// count, then translation (in source order). `SELECT * <word>` is "Expected FROM" (keyhole's
// choice; `*` takes no alias). Where a workshop's common mistake explains the error (quotes,
// a misspelt FROM, JOIN, COUNT(*), LIMIT, INSERT ... VALUES, ...), the status carries a hint
// (Status::hint, partiql_hints.h) with the fix; the message stays DynamoDB's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/attribute_value.h"
#include "core/expression.h"
#include "core/json.h"
#include "core/operations.h"
#include "core/schema.h"
#include "core/status.h"

namespace keyhole::parser {

// DynamoDB's limit on ExecuteStatement's Statement, in characters (reference §2.1).
constexpr size_t kMaxStatementChars = 8192;
// Bound on nested parentheses, collections, function calls and NOT operators, so that hostile
// input cannot exhaust the stack (refused with "... Expressions are nested too deeply").
constexpr int kMaxPartiqlNesting = 64;
// Bound on the nesting of a CALL statement's JSON body.
constexpr int kMaxJsonNesting = 256;

// ---- positions and errors ----

// A place in a text: byte offset, and 1-based line and column. Lines are separated by '\n';
// columns count UTF-8 characters (code points), so a caret can be drawn under them.
struct SourcePosition {
  size_t offset = 0;
  int line = 1;
  int column = 1;
  bool operator==(const SourcePosition&) const = default;
};

// The position of byte `offset` in `text` (offsets past the end are clamped to the end).
SourcePosition PositionOf(std::string_view text, size_t offset);

// A refused statement: the error (always a ValidationException) and where it was found.
struct ParseError {
  Status status;
  SourcePosition position;
};

// ---- the statement AST ----

// The order matches StatementBody's alternatives.
enum class StatementKind {
  kSelect,
  kInsert,
  kUpdate,
  kDelete,
  kExists,
  kCreateTable,
  kDropTable,
  kAlterTable,
  kShowTables,
  kDescribe,
  kShowCreateTable,
  kBegin,
  kCommit,
  kRollback,
  kCall,
  kNext,
};
// "SELECT", "INSERT", ..., "CREATE TABLE", ..., "NEXT".
std::string_view StatementKindName(StatementKind k);

struct OrderKey {
  std::string name;  // a top-level attribute (ORDER BY takes plain names only)
  bool descending = false;
  bool operator==(const OrderKey&) const = default;
};

// keyhole's vector search: `SELECT ... FROM "T"."VectorIndex" [WHERE a = x AND ...]
// ORDER BY VECTOR_DISTANCE(attr, [n, ...]) LIMIT k`. The shell runs it as SearchVectors (the
// WHERE is its SearchConditionExpression, LIMIT its TopK); the planner refuses it, since
// DynamoDB's PartiQL has no vector search.
struct NearestOrder {
  std::string attribute;               // the vector attribute named
  std::vector<AttributeValue> vector;  // the search vector's elements, as written
  std::optional<int64_t> limit;        // LIMIT k
  bool operator==(const NearestOrder&) const = default;
};

struct SelectStatement {
  std::string table;
  std::optional<std::string> index;    // FROM "T"."Index"
  bool select_all = true;              // SELECT *
  std::vector<expr::Path> projection;  // when !select_all, in statement order, no duplicates
  std::optional<expr::Condition> where;
  std::vector<OrderKey> order_by;       // non-empty only with a WHERE
  std::optional<NearestOrder> nearest;  // ORDER BY VECTOR_DISTANCE(...) (then order_by is empty)
};

struct InsertStatement {
  std::string table;
  Item item;  // literals and bound parameters only
};

struct UpdateStatement {
  std::string table;
  expr::UpdateExpression update;  // SET/REMOVE/ADD/DELETE actions in statement order
  std::optional<expr::Condition> where;
  ReturnValues returning = ReturnValues::kNone;  // ALL OLD -> kAllOld, MODIFIED OLD ->
                                                 // kUpdatedOld, ALL NEW, MODIFIED NEW
};

struct DeleteStatement {
  std::string table;
  std::optional<expr::Condition> where;
  ReturnValues returning = ReturnValues::kNone;  // kNone or kAllOld
};

// EXISTS(SELECT ...). Only valid inside a transaction; the executor refuses it elsewhere with
// "EXISTS can only be used in ExecuteTransaction write requests." (reference §2.4).
struct ExistsStatement {
  SelectStatement select;
};

struct IndexDefinition {
  std::string name;
  IndexKind kind = IndexKind::kGlobal;
  KeySchema key;
  Projection projection;  // ALL unless PROJECTION says otherwise
  bool operator==(const IndexDefinition&) const = default;
};

// keyhole's VECTOR INDEX clause: a vector index (core/vector_index.h).
struct SearchColumn {
  std::string name;
  ValueType type = ValueType::kS;
  bool hash = false;  // HASH; else FILTER (INLINE_FILTER)
  bool operator==(const SearchColumn&) const = default;
};
struct VectorIndexDefinition {
  std::string name;
  std::string vector_attribute;
  int64_t dimensions = 0;
  std::string distance;  // "COSINE", "DOT_PRODUCT", "EUCLIDEAN"
  std::vector<SearchColumn> search;
  Projection projection;  // ALL unless PROJECTION says otherwise
  bool operator==(const VectorIndexDefinition&) const = default;
};
// The request's VectorIndexSpec, and the AttributeDefinitions of its search attributes added to
// `definitions` (once each).
VectorIndexSpec VectorIndexSpecOf(const VectorIndexDefinition& d,
                                  std::vector<AttributeDefinition>* definitions);

struct CreateTableStatement {
  std::string table;
  bool if_not_exists = false;
  KeySchema key;
  std::vector<IndexDefinition> indexes;  // GSIs and LSIs in statement order
  std::vector<VectorIndexDefinition> vector_indexes;
  std::optional<std::string> ttl_attribute;
  std::optional<std::string> stream_view_type;   // "KEYS_ONLY", "NEW_IMAGE", "OLD_IMAGE",
                                                 // "NEW_AND_OLD_IMAGES"
  std::string billing_mode = "PAY_PER_REQUEST";  // or "PROVISIONED"
  std::optional<int64_t> read_capacity_units, write_capacity_units;  // PROVISIONED only
};

struct DropTableStatement {
  std::string table;
  bool if_exists = false;
};

enum class AlterAction {
  kAddGlobalIndex,
  kAddVectorIndex,
  kDropIndex,
  kSetTtl,
  kDisableTtl,
  kSetStream,
  kDisableStream
};

struct AlterTableStatement {
  std::string table;
  AlterAction action = AlterAction::kAddGlobalIndex;
  std::optional<IndexDefinition> index;               // kAddGlobalIndex
  std::optional<VectorIndexDefinition> vector_index;  // kAddVectorIndex
  // kDropIndex: the index; kSetTtl: the TTL attribute; kSetStream: the view type.
  std::string name;
};

struct ShowTablesStatement {};
struct DescribeStatement {
  std::string table;
};
struct ShowCreateTableStatement {
  std::string table;
};
struct BeginStatement {
  bool batch = false;  // BEGIN BATCH: the statements up to COMMIT are one BatchExecuteStatement
};
struct CommitStatement {};
struct RollbackStatement {};

// CALL <OperationName> <JSON object>: a raw DynamoDB API call.
struct CallStatement {
  std::string operation;  // as written, e.g. "PutItem"
  std::string body_text;  // the JSON object as written ("{}" when none was given)
  json::Value body;       // body_text parsed (an object)
};

struct NextStatement {};

using StatementBody =
    std::variant<SelectStatement, InsertStatement, UpdateStatement, DeleteStatement,
                 ExistsStatement, CreateTableStatement, DropTableStatement, AlterTableStatement,
                 ShowTablesStatement, DescribeStatement, ShowCreateTableStatement, BeginStatement,
                 CommitStatement, RollbackStatement, CallStatement, NextStatement>;

struct Statement {
  StatementBody body;
  bool explain = false;  // EXPLAIN prefix (DML only)
  bool analyze = false;  // EXPLAIN ANALYZE
  bool scan = false;     // SCAN prefix (SELECT, UPDATE, DELETE)
  // For SELECT/INSERT/UPDATE/DELETE/EXISTS: the statement as DynamoDB would accept it, that is
  // the text without keyhole's EXPLAIN/SCAN prefixes and without a trailing `;` (for a remote
  // backend, and for messages). Empty for keyhole's own statements.
  std::string dynamodb_text;
  // Nonzero when ParseStatement translated the statement from a remembered syntax tree: the
  // tree's id, never reused in the process. Two statements with the same id have the same
  // text outside their literals (whose kinds and lengths are also the same) and differ at
  // most in their literals' and parameters' values -- wherever those are: a number in a path
  // (`a[1]`) is a literal too. The planner remembers plans by it.
  uint64_t shape_id = 0;

  StatementKind kind() const { return static_cast<StatementKind>(body.index()); }
  // REQUIRES: the matching kind.
  template <typename T>
  const T& as() const {
    return std::get<T>(body);
  }
  template <typename T>
  T& as() {
    return std::get<T>(body);
  }
};

// Either a Statement or a ParseError.
class ParseResult {
 public:
  ParseResult(Statement s) : v_(std::move(s)) {}   // NOLINT: implicit on purpose
  ParseResult(ParseError e) : v_(std::move(e)) {}  // NOLINT
  bool ok() const { return v_.index() == 0; }
  // REQUIRES: ok().
  const Statement& statement() const { return std::get<0>(v_); }
  Statement& statement() { return std::get<0>(v_); }
  // REQUIRES: !ok().
  const ParseError& error() const { return std::get<1>(v_); }
  // OK when ok(), else the error's Status.
  Status status() const { return ok() ? Status() : error().status; }

 private:
  std::variant<Statement, ParseError> v_;
};

// Parses one statement. `parameters` bind the `?` markers in order of appearance; a count
// mismatch is "Number of parameters in request and statement don't match.". Parameter values
// are taken as they are (ValidateValue-style checks of their content are the executor's).
// Thread-safe. The syntax trees of SELECT, INSERT, UPDATE, DELETE and EXISTS statements (with
// their EXPLAIN and SCAN forms) are remembered by shape, that is by text with the content of
// its literals taken out (at most 256 shapes): the same text with other parameters, or with
// other strings and other numbers of the same length, is translated again, not parsed again.
// The result, errors included, is the same as without the cache.
ParseResult ParseStatement(std::string_view text,
                           const std::vector<AttributeValue>& parameters = {});
// ParseStatement without the cache (for tests that compare the two).
ParseResult ParseStatementUncached(std::string_view text,
                                   const std::vector<AttributeValue>& parameters = {});
// ParseStatementUncached without the kMaxStatementChars limit, and without parameters: for hints
// only (the shell shows an over-long INSERT in the API form, which has no such limit). Never
// the parse of a statement that runs. Thread-safe.
ParseResult ParseStatementIgnoringLength(std::string_view text);
// How many statements this process translated from a remembered tree (for tests and
// benchmarks). Thread-safe.
uint64_t ParseStatementCacheHits();

// ---- literals, for front ends that remember what a statement of one shape planned to ----

// A statement text's literal tokens ('strings' and numbers, in order) and its shape: the text
// with their content taken out, as ParseStatement's cache keys it (two texts of one shape
// differ only inside literals, and in numbers of the same length).
struct StatementLiterals {
  std::string shape;
  std::vector<std::string_view> tokens;  // into the text
};
// Fills *out for `text`; false when `text` would not pass the checks ParseStatement makes before
// the syntax (valid UTF-8, at most kMaxStatementChars characters, no lexical error) or is a
// CALL. Thread-safe.
bool LiteralsOf(std::string_view text, StatementLiterals* out);
// A literal token's value as a statement's translation reads it: 'it''s' is S "it's", 12.50 is
// N 12.5 (read as Java's BigDecimal reads it); nullopt for a number the translation refuses.
// A sign written before a number is an operator, not part of its token.
std::optional<AttributeValue> LiteralValue(std::string_view token);

// The CreateTable request of a CREATE TABLE statement (STREAM becomes its StreamSpecification;
// TTL is not part of CreateTable: the caller sends UpdateTimeToLive after it): one
// AttributeDefinition per distinct key
// attribute (table first, then indexes, in statement order), HASH then RANGE, GSIs and LSIs,
// billing. TTL and the stream are separate API calls (UpdateTimeToLive, StreamSpecification)
// and are not part of it. Never fails: the parser already refused an attribute declared with
// two types; CreateTable's own rules are BuildTableDescription's (core/schema.h).
CreateTableRequest ToCreateTableRequest(const CreateTableStatement& s);

// The CREATE TABLE statement that re-creates `table` (its keys, indexes, projections, TTL
// attribute, stream view type and billing mode), ending with `;`; names are "quoted". SHOW
// CREATE TABLE prints it.
std::string CreateTableText(const TableDescription& table);

// `name` as a PartiQL statement writes it: bare when it is a plain identifier and not a
// keyword (`role`), else "double-quoted" with inner quotes doubled (`"order"`, `"my attr"`).
std::string NameInStatement(std::string_view name);

// ---- scripts ----

// One statement of a script.
struct ScriptStatement {
  // From the statement's first token (leading whitespace and comments dropped) to just before
  // its `;` (trailing whitespace dropped; comments inside and at the end kept).
  std::string text;
  // Where `text` starts in the script. An error at line L, column C of `text` is at script line
  // start.line + L - 1, column (L == 1 ? start.column + C - 1 : C).
  SourcePosition start;
  bool terminated = true;  // false for a last statement without its `;`
};

// Splits a script on `;`, ignoring semicolons inside 'strings', "identifiers", -- and /* */
// comments, and, in a statement that starts with CALL, inside the JSON body (JSON strings with
// backslash escapes, and {} / [] nesting). Empty statements (`;;`, comment-only text) are
// dropped. An unterminated string, identifier, comment or JSON body runs to the end of the
// script and makes the last statement unterminated (an unterminated /* comment with nothing
// before it is such a statement too, so that running it reports the comment).
std::vector<ScriptStatement> SplitScript(std::string_view script);

// A script walked in one pass, piece by piece: each piece is a statement (split as SplitScript
// splits), or, when dot-commands are on, the rest of a line whose first non-blank character
// is '.' where no statement is pending (the shell's dot-commands; not PartiQL). Linear in the
// script's length however its statements run.
struct ScriptPiece {
  bool dot_command = false;
  std::string_view text;   // as ScriptStatement::text; a dot-command: its line, trimmed
  SourcePosition start;    // where text starts in the script
  bool terminated = true;  // a statement ended by its `;`
};
class ScriptWalker {
 public:
  // `script` must outlive the walker and the pieces.
  ScriptWalker(std::string_view script, bool dot_commands);
  // The next piece, or nullopt at the end of the script.
  std::optional<ScriptPiece> Next();

 private:
  std::string_view script_;
  bool dot_commands_;
  size_t pos_ = 0;
  SourcePosition at_;  // the position of pos_
  SourcePosition Advance(size_t to);
};

// True when `buffer` holds no unfinished statement: it is empty, or everything after its last
// statement-ending `;` is whitespace and complete comments. The REPL keeps reading lines (a
// continuation prompt) while this is false.
bool IsComplete(std::string_view buffer);

// For tests: the number of problems tao::pegtl::analyze() finds in the statement grammar (0
// when it is sound). Prints them to stderr when `verbose`.
size_t AnalyzePartiqlGrammar(bool verbose = true);

}  // namespace keyhole::parser
