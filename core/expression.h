// The expression AST shared by DynamoDB's native expressions and PartiQL.
//
// Both front ends (parser/expression_parser.h for ConditionExpression, FilterExpression,
// KeyConditionExpression, ProjectionExpression and UpdateExpression; parser/partiql.h for
// PartiQL) produce these plain structs; core/evaluate.h validates and evaluates them; the
// storage engine applies them inside its write transaction. No PEGTL here.
//
// A resolved AST has no placeholders: every path element is a name or an index, and every
// constant (an ExpressionAttributeValue, a PartiQL literal or a `?` parameter) is an Operand of
// kind kValue. Positions are byte offsets into the source text, for error carets.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/attribute_value.h"
#include "core/json.h"
#include "core/status.h"

namespace keyhole::expr {

// Which expression parameter an AST came from: it selects the "Invalid <Kind>Expression: "
// message prefix and the kind-specific rules.
enum class Kind { kCondition, kFilter, kKeyCondition, kProjection, kUpdate, kSearchCondition };
// "ConditionExpression", "FilterExpression", "KeyConditionExpression", ...
std::string_view KindName(Kind k);
// "Invalid <KindName>: " — the prefix of parse and semantic errors.
std::string ErrorPrefix(Kind k);

// One step of a document path: a map key / top-level name, or a list index.
struct PathElement {
  std::string name;   // when !is_index
  int64_t index = 0;  // when is_index
  bool is_index = false;
  bool operator==(const PathElement&) const = default;
};

// A document path: `a.b[2].c`. The first element is always a name. At most 32 elements.
struct Path {
  std::vector<PathElement> elements;
  bool operator==(const Path&) const = default;
  // "[a, b, [2], c]": the rendering DynamoDB uses in overlap/conflict messages.
  std::string Render() const;
};

enum class OperandKind {
  kPath,      // a document path
  kValue,     // a constant: an EAV, a PartiQL literal or parameter
  kFunction,  // size, if_not_exists, list_append, and any name a user wrote (rejected by name)
  kPlus,      // args[0] + args[1] (UpdateExpression SET)
  kMinus,     // args[0] - args[1]
};

struct Operand {
  OperandKind kind = OperandKind::kValue;
  Path path;                  // kPath
  AttributeValue value;       // kValue
  std::string function;       // kFunction, case as written
  std::vector<Operand> args;  // kFunction arguments; kPlus/kMinus: [lhs, rhs]
  size_t position = 0;

  static Operand MakePath(Path p, size_t pos = 0);
  static Operand MakeValue(AttributeValue v, size_t pos = 0);
};

enum class CompareOp { kEq, kNe, kLt, kLe, kGt, kGe };
std::string_view CompareOpText(CompareOp op);  // "=", "<>", "<", "<=", ">", ">="

enum class ConditionKind {
  kCompare,   // operands[0] op operands[1]
  kBetween,   // operands[0] BETWEEN operands[1] AND operands[2]
  kIn,        // operands[0] IN (operands[1..])
  kFunction,  // function(operands...): attribute_exists, attribute_not_exists, attribute_type,
              // begins_with, contains (and any other name, rejected by validation)
  kAnd,       // children[0] AND children[1] AND ...
  kOr,        // children[0] OR children[1] OR ...
  kNot,       // NOT children[0]
};

struct Condition {
  ConditionKind kind = ConditionKind::kAnd;
  CompareOp op = CompareOp::kEq;  // kCompare
  std::string function;           // kFunction, case as written
  std::vector<Operand> operands;
  std::vector<Condition> children;
  size_t position = 0;
  // A primary wrapped in two directly nested pairs of parentheses: DynamoDB rejects it with
  // "The expression has redundant parentheses;". Set by the parser, checked by validation.
  bool redundant_parentheses = false;
  // An IN translated from a legacy AttributeValueList (ScanFilter, QueryFilter, Expected), which
  // takes more values than an expression's IN (DynamoDB accepted 27,500; its limit, if any, is
  // not recorded): no limit on the operands but the request's size.
  bool unbounded_in = false;
};

enum class UpdateActionKind { kSet, kRemove, kAdd, kDelete };

struct UpdateAction {
  UpdateActionKind kind = UpdateActionKind::kSet;
  Path path;
  Operand value;  // SET: the value expression; ADD/DELETE: the value; REMOVE: unused
  size_t position = 0;
};

struct UpdateExpression {
  std::vector<UpdateAction> actions;  // in source order
};

// A ProjectionExpression: the paths to return.
struct ProjectionExpression {
  std::vector<Path> paths;
};

// The parsed expressions of one request, all resolved against the same placeholders.
struct ParsedExpressions {
  std::shared_ptr<const Condition> condition;         // ConditionExpression
  std::shared_ptr<const Condition> filter;            // FilterExpression
  std::shared_ptr<const Condition> key_condition;     // KeyConditionExpression
  std::shared_ptr<const Condition> search_condition;  // SearchConditionExpression (SearchVectors)
  std::shared_ptr<const ProjectionExpression> projection;
  std::shared_ptr<const UpdateExpression> update;
  // Translated from DynamoDB's legacy parameters (Expected, AttributeUpdates, AttributesToGet,
  // ScanFilter, QueryFilter: api/api_json_legacy.cpp) rather than written as expressions. The
  // semantics are the ASTs'; only the words of some errors differ, as DynamoDB's do: a filter on
  // a key attribute names QueryFilter, a projection refused by Select names AttributesToGet,
  // and an update whose value conflicts with the item's type reads "Type mismatch for attribute
  // to update".
  bool legacy = false;
};

// The expression parameters of one request: as the API sends them (strings and placeholder
// maps), or already parsed (`parsed`, set by a front end such as the PartiQL planner that builds
// resolved ASTs itself; the strings are then ignored and no parser is needed).
struct ExpressionInput {
  std::optional<std::string> condition, filter, key_condition, projection, update;
  std::optional<std::string> search_condition;  // SearchVectors' SearchConditionExpression
  std::optional<std::map<std::string, std::string>> names;      // ExpressionAttributeNames
  std::optional<std::map<std::string, AttributeValue>> values;  // ExpressionAttributeValues
  std::shared_ptr<const ParsedExpressions> parsed;
  // The legacy parameters as the client sent them, when it used them (`parsed` then holds their
  // translation, which the engine runs): a JSON object with some of Expected,
  // ConditionalOperator, AttributeUpdates, AttributesToGet, ScanFilter, QueryFilter and, beside
  // one of those, KeyConditions. A request encoder sends these members verbatim instead of
  // rendering `parsed`, so that a remote DynamoDB sees, and answers, the request as written.
  std::shared_ptr<const json::Value> legacy;
  bool empty() const {
    return !condition && !filter && !key_condition && !projection && !update && !search_condition &&
           !names && !values && !parsed && !legacy;
  }
};

// Parses the expressions of one request (implemented in parser/; the storage engine receives
// it through storage::Database::Options so that storage never depends on PEGTL).
// Contract: checks the 4 KB limits, syntax, reserved words, placeholder definitions (first
// problem in source order), unused names/values across all expressions of the request, and the
// EAN/EAV key syntax and values; returns ValidationException with DynamoDB's texts. It does not
// do the semantic checks of core/evaluate.h (function arity, operand types, overlaps): callers
// run those with the table schema at hand.
class ExpressionParser {
 public:
  virtual ~ExpressionParser() = default;
  virtual Result<ParsedExpressions> Parse(const ExpressionInput& input) const = 0;
};

}  // namespace keyhole::expr
