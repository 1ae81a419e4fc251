// The PartiQL syntax tree: what partiql_grammar.cpp (PEGTL) hands to the translation files
// (partiql_translate.cpp, partiql_statements.cpp). Plain structs, no PEGTL.
//
// Internal to parser/ (not part of the library's interface).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace keyhole::parser::syntax {

// Node kinds. Each is one grammar rule kept in the tree; the comment gives its children.
enum class Kind : uint8_t {
  // ---- expressions ----
  kOr,           // operands (1 = not an OR: unwrap)
  kAnd,          // operands (1 = unwrap)
  kNot,          // [operand]
  kEqChain,      // [operand, tail...] tails: kCompareTail, kIsTail, kInTail (none = unwrap)
  kCmpChain,     // [operand, tail...] tails: kCompareTail, kBetweenTail, kLikeTail
  kArith,        // [operand, op, operand, op, ...] ops: kOpPlus..kOpMod (1 child = unwrap)
  kCompareTail,  // [op, operand] op: kOpEq..kOpGe
  kIsTail,       // [kNegate?, kTypeName]
  kInTail,       // [kNegate?, rhs] rhs: kList (also the `IN (...)` form) or any operand
  kBetweenTail,  // [kNegate?, low, high]
  kLikeTail,     // [kNegate?, pattern, escape?]
  kNegate,       // NOT inside a tail
  kTypeName,     // text: the type name as written
  kOpEq,
  kOpNe,
  kOpLt,
  kOpLe,
  kOpGt,
  kOpGe,
  kOpPlus,
  kOpMinus,
  kOpConcat,
  kOpMul,
  kOpDiv,
  kOpMod,
  // ---- terms ----
  kParen,     // [expr...] one = grouping, several = a list (row value)
  kList,      // [expr...]
  kBag,       // [expr...]
  kStruct,    // [kEntry...]
  kEntry,     // [key, value]
  kCall,      // [kFuncName, args...]
  kFuncName,  // text: the name as written (maybe quoted)
  kPath,      // [kIdent|kQuoted, then kIdent|kQuoted|kUnpivot (after a dot) or kIndex|kWildcard]
  kIdent,     // text: the identifier
  kQuoted,    // text: "quoted" identifier with its quotes
  kIndex,     // text: [-]digits
  kWildcard,  // [*]
  kUnpivot,   // .*
  kNumber,    // [kNegative?, kDigits]
  kNegative,
  kDigits,  // text: the unsigned number as written
  kString,  // text: with quotes
  kTrue,
  kFalse,
  kNull,
  kMissing,
  kParam,
  // ---- DML ----
  kSelect,      // [kProjection, kSource, kWhere?, kOrderBy?]
  kProjection,  // [kStar | expr ...]
  kStar,
  kSource,     // [term]
  kWhere,      // [expr]; begin = the WHERE keyword
  kOrderBy,    // [kOrderItem..., kLimit?]; begin = the ORDER keyword
  kOrderItem,  // [expr, kAsc|kDesc?]
  kAsc,
  kDesc,
  kLimit,         // keyhole: LIMIT k after ORDER BY VECTOR_DISTANCE(...): [kNumber]
  kInsert,        // [kPath, kInsertValue]
  kInsertValue,   // [expr]
  kUpdate,        // [kPath, (kSetClause|kRemoveClause)..., kWhere?, kReturning?] any order of
                  // clauses after the target (FROM-first form: WHERE before the actions)
  kSetClause,     // [kAssignment...]
  kAssignment,    // [target, kOpEq, value]
  kRemoveClause,  // [kPath]
  kReturning,     // [kWord, kWord] e.g. ALL, OLD
  kDelete,        // [kPath, kWhere?, kReturning?]
  kExists,        // [kSelect]
  kScan,          // [statement]
  kExplain,       // [kAnalyze?, statement | kScan]
  kAnalyze,
  // ---- keyhole DDL and commands ----
  kWord,         // text: a keyword-like word (key type, role, projection type, view type, ...)
  kName,         // text: a table/index/attribute name, plain or quoted
  kCreateTable,  // [kIfNotExists?, kName, kKeyColumn..., options...]
  kIfNotExists,
  kIfExists,
  kKeyColumn,    // [kName, kWord type, kWord role?]
  kGlobalIndex,  // [kName, kKeyColumn..., kProjectionSpec?]
  kLocalIndex,   // [kName, kKeyColumn..., kProjectionSpec?]
  // keyhole: VECTOR INDEX name (attr VECTOR(dims) DISTANCE, attr TYPE HASH|FILTER, ...)
  kVectorIndex,     // [kName, kVectorColumn, kSearchColumn..., kProjectionSpec?]
  kVectorColumn,    // [kName, kCapacity (the dimensions), kWord (the distance function)]
  kSearchColumn,    // [kName, kWord (the type), kWord (HASH or FILTER)]
  kProjectionSpec,  // [kWord, kName...]
  kTtl,             // [kName]
  kStream,          // [kWord]
  kBilling,         // [kWord, kCapacity, kCapacity]
  kCapacity,        // text: digits
  kDropTable,       // [kIfExists?, kName]
  kAlterTable,      // [kName, action] action: kAlterAdd|kAlterDropIndex|kAlterSet|kAlterDisable
  kAlterAdd,        // [kGlobalIndex]
  kAlterDropIndex,  // [kName]
  kAlterSet,        // [kTtl | kStream]
  kAlterDisable,    // [kWord]
  kShowTables,
  kShowCreateTable,  // [kName]
  kDescribe,         // [kName]
  kBegin,
  kCommit,
  kRollback,
  kCallStatement,  // [kOperation, kJsonBody?]
  kOperation,      // text: the operation name
  kJsonBody,       // text: the JSON object
  kNext,
};

// A node: its kind, the byte range of its tokens in the statement text ([begin, end), trailing
// whitespace and comments excluded) and its children in source order.
struct Node {
  Kind kind = Kind::kOr;
  size_t begin = 0;
  size_t end = 0;
  std::vector<Node> children;
};

// A syntax error: DynamoDB's message and the byte offset of the offending token.
struct Failure {
  std::string message;
  size_t offset = 0;
};

// Parses one statement (the whole text). On success the root is the statement node (kSelect,
// kInsert, ..., kExplain, kScan, kCreateTable, ...). Never throws.
std::variant<Node, Failure> Parse(std::string_view text, const std::vector<size_t>& token_ends);

// tao::pegtl::analyze() over the statement grammar; the number of problems found.
size_t Analyze(bool verbose);

// The message prefix of PartiQL syntax errors.
inline constexpr std::string_view kEnvelope = "Statement wasn't well formed, can't be processed: ";

}  // namespace keyhole::parser::syntax
