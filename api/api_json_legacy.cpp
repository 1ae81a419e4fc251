// DynamoDB's legacy (non-expression) parameters: Expected and ConditionalOperator (PutItem,
// DeleteItem, UpdateItem), AttributeUpdates (UpdateItem), AttributesToGet (GetItem, BatchGetItem,
// Query, Scan), ScanFilter and QueryFilter, and Query's KeyConditions.
//
// They are read and validated here with DynamoDB's messages and translated into the expression
// ASTs of core/expression.h (ExpressionInput::parsed, marked ParsedExpressions::legacy), so the
// engine has one path for both families. KeyConditions keeps its structured form (KeyCondition,
// bound to the key schema by BindKeyConditions). The translations (reference §3, and the
// developer guide's "Legacy conditional parameters"):
//
//   EQ v, {Value: v}, {Exists: true, Value: v}   a = v
//   NE v                                          a <> v       (true when a is missing)
//   LE LT GE GT v                                 a <= v ...   (false across types)
//   NOT_NULL / NULL, {Exists: false}              attribute_exists(a) / attribute_not_exists(a)
//   CONTAINS v                                    contains(a, v)
//   NOT_CONTAINS v                                attribute_exists(a) AND NOT contains(a, v):
//                                                 false when a is missing, unlike NE ([SC]
//                                                 test_expected.py, checked against AWS)
//   BEGINS_WITH v                                 begins_with(a, v)
//   IN v1..vn                                     a IN (v1, .., vn) (OR of INs of 100 values)
//   BETWEEN lo hi                                 a BETWEEN lo AND hi
//   several conditions                            joined by ConditionalOperator (AND by default)
//
//   AttributeUpdates PUT v                        SET a = v
//   DELETE (no Value)                             REMOVE a
//   DELETE set                                    DELETE a set
//   ADD number or set                             ADD a v
//   ADD list                                      SET a = list_append(if_not_exists(a, []), v):
//                                                 the list is appended, or becomes the attribute
//                                                 when there is none ([SC] test_item.py). The
//                                                 expression language refuses ADD of a list, so
//                                                 this is the smallest exact translation.
//   AttributesToGet [a, b]                        ProjectionExpression of top-level names
//
// A value of the wrong type for the item at run time (ADD to a different type, DELETE from a
// non-set, ADD of a list to a non-list) fails with "Type mismatch for attribute to update", the
// legacy wording (ParsedExpressions::legacy, core/update.cpp).
#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "api/api_json.h"
#include "api/api_json_decode.h"
#include "core/ddb_json.h"
#include "core/evaluate.h"
#include "core/item.h"

namespace keyhole::api_json {

namespace {

constexpr std::string_view kInvalid = "One or more parameter values were invalid: ";

// ComparisonOperator: the enum in DynamoDB's message order.
constexpr std::string_view kOperatorNames[] = {
    "IN",       "NULL", "BETWEEN", "LT",          "NOT_CONTAINS", "EQ",      "GT",
    "NOT_NULL", "NE",   "LE",      "BEGINS_WITH", "GE",           "CONTAINS"};
// AttributeAction, in the order of DynamoDB's message.
constexpr std::string_view kActionNames[] = {"ADD", "PUT", "DELETE"};

// The legacy and expression parameters of each operation, in the order DynamoDB lists them in
// "Can not use both expression and non-expression parameters in the same request: Non-expression
// parameters: {..} Expression parameters: {..}" ([DL] tests, checked against AWS; ExtendDB's
// dual-target tests for ConditionalOperator and the full sets).
struct OpSpec {
  std::vector<std::string_view> legacy;
  std::vector<std::string_view> expressions;
  // The expressions that can use ExpressionAttributeValues, as "ExpressionAttributeValues can
  // only be specified when using expressions: <these> is/are null" names them.
  std::string_view values_null;
};

const OpSpec& SpecFor(LegacyOp op) {
  // The single-item writes name no expression any more (DynamoDB's current layer: the Parity
  // Suite's putItem and deleteItem envelope captures, October 2026).
  static const OpSpec kWrite{{"Expected", "ConditionalOperator"}, {"ConditionExpression"}, ""};
  static const OpSpec kUpdate{{"AttributeUpdates", "Expected", "ConditionalOperator"},
                              {"UpdateExpression", "ConditionExpression"},
                              ""};
  static const OpSpec kGet{{"AttributesToGet"}, {"ProjectionExpression"}, ""};
  static const OpSpec kQuery{
      {"AttributesToGet", "QueryFilter", "ConditionalOperator", "KeyConditions"},
      {"ProjectionExpression", "FilterExpression", "KeyConditionExpression"},
      "FilterExpression and KeyConditionExpression are null"};
  static const OpSpec kScan{{"AttributesToGet", "ScanFilter", "ConditionalOperator"},
                            {"ProjectionExpression", "FilterExpression"},
                            "FilterExpression is null"};
  switch (op) {
    case LegacyOp::kPutItem:
    case LegacyOp::kDeleteItem:
      return kWrite;
    case LegacyOp::kUpdateItem:
      return kUpdate;
    case LegacyOp::kGetItem:
    case LegacyOp::kBatchGetItem:
      return kGet;
    case LegacyOp::kQuery:
      return kQuery;
    case LegacyOp::kScan:
      return kScan;
  }
  return kGet;
}

bool TakesConditions(LegacyOp op) {
  return op == LegacyOp::kPutItem || op == LegacyOp::kDeleteItem || op == LegacyOp::kUpdateItem;
}
bool TakesAttributesToGet(LegacyOp op) {
  return op == LegacyOp::kGetItem || op == LegacyOp::kBatchGetItem || op == LegacyOp::kQuery ||
         op == LegacyOp::kScan;
}
std::string_view FilterName(LegacyOp op) {
  return op == LegacyOp::kQuery ? "QueryFilter" : op == LegacyOp::kScan ? "ScanFilter" : "";
}

// The entries of a legacy map member, refusing a name given twice (keyhole's choice, as for
// structures: a repeated attribute is not silently dropped).
Status CheckNoDuplicate(const json::Value& map, const Path& at) {
  std::set<std::string_view> seen;
  for (const auto& [name, value] : map.object()) {
    if (!seen.insert(name).second) {
      return Status::Validation(fmt::format("Duplicate parameter in {}: \"{}\"", at.param, name));
    }
  }
  return Status::OK();
}

// Expected: one entry's members after the constraint phase.
Result<RawExpected> ReadExpectedEntry(const std::string& name, const json::Value& e, const Path& at,
                                      Violations* errs) {
  static constexpr MemberSpec kMembers[] = {
      {"AttributeValueList"}, {"ComparisonOperator"}, {"Exists"}, {"Value"}};
  KH_RETURN_IF_ERROR(CheckStructure(e, at, kMembers));
  RawExpected c;
  c.name = name;
  c.at = at;
  KH_ASSIGN_OR_RETURN(c.values, ReadList(e, "AttributeValueList", at));
  KH_ASSIGN_OR_RETURN(std::optional<size_t> op,
                      ReadEnum(e, "ComparisonOperator", at, kOperatorNames, errs));
  if (op) c.op = kOperatorNames[*op];
  KH_ASSIGN_OR_RETURN(c.exists, ReadBool(e, "Exists", at));
  KH_ASSIGN_OR_RETURN(c.value, ReadObject(e, "Value", at));
  return c;
}

// AttributeUpdates: one entry's members after the constraint phase.
Result<RawUpdate> ReadUpdateEntry(const std::string& name, const json::Value& e, const Path& at,
                                  Violations* errs) {
  static constexpr MemberSpec kMembers[] = {{"Value"}, {"Action"}};
  KH_RETURN_IF_ERROR(CheckStructure(e, at, kMembers));
  RawUpdate u;
  u.name = name;
  u.at = at;
  KH_ASSIGN_OR_RETURN(u.value, ReadObject(e, "Value", at));
  KH_ASSIGN_OR_RETURN(std::optional<size_t> action, ReadEnum(e, "Action", at, kActionNames, errs));
  if (action) u.action = kActionNames[*action];
  return u;
}

// ---- operator rules ----

// How many values each operator takes (min, max) and which types it accepts.
struct OperatorRule {
  std::string_view op;
  size_t min_values, max_values;
  std::vector<ValueType> types;  // empty: no values
};

const OperatorRule& RuleFor(std::string_view op) {
  using enum ValueType;
  // EQ and NE compare values of any type, documents included ([SC] test_query_filter.py
  // filters lists, maps and booleans with EQ against AWS); the ordering operators, BETWEEN and
  // IN take S, N or B, and BEGINS_WITH S or B ([DL] tests).
  static const std::vector<ValueType> kAll = {kS, kN, kB, kSS, kNS, kBS, kM, kL, kBool, kNull};
  static const OperatorRule kRules[] = {
      {"EQ", 1, 1, kAll},
      {"NE", 1, 1, kAll},
      {"LE", 1, 1, {kS, kN, kB}},
      {"LT", 1, 1, {kS, kN, kB}},
      {"GE", 1, 1, {kS, kN, kB}},
      {"GT", 1, 1, {kS, kN, kB}},
      {"CONTAINS", 1, 1, {kS, kN, kB}},
      {"NOT_CONTAINS", 1, 1, {kS, kN, kB}},
      {"BEGINS_WITH", 1, 1, {kS, kB}},
      {"IN", 1, std::numeric_limits<size_t>::max(), {kS, kN, kB}},
      {"BETWEEN", 2, 2, {kS, kN, kB}},
      {"NULL", 0, 0, {}},
      {"NOT_NULL", 0, 0, {}},
  };
  for (const OperatorRule& r : kRules) {
    if (r.op == op) return r;
  }
  return kRules[0];  // unreachable: `op` passed the enum check
}

// Decodes the elements of an AttributeValueList at `list`.
Result<std::vector<AttributeValue>> DecodeValueList(const json::Value* values, const Path& list,
                                                    ValueLayer layer = ValueLayer::kCurrent) {
  std::vector<AttributeValue> out;
  if (!values) return out;
  for (size_t i = 0; i < values->array().size(); ++i) {
    const json::Value& e = values->array()[i];
    if (!e.IsObject()) return TypeError(list.Element(i), e, "object");
    KH_ASSIGN_OR_RETURN(AttributeValue v, ValueFromJson(e, layer));
    out.push_back(std::move(v));
  }
  return out;
}

// The operator's rules on its decoded values, in DynamoDB's order: the number of values, one
// type for all, a type the operator takes, BETWEEN's bounds in order.
Status CheckOperatorValues(std::string_view op, const std::vector<AttributeValue>& values) {
  const OperatorRule& rule = RuleFor(op);
  if (values.size() < rule.min_values || values.size() > rule.max_values) {
    return Status::Validation(
        fmt::format("{}Invalid number of argument(s) for the {} ComparisonOperator", kInvalid, op));
  }
  for (const AttributeValue& v : values) {
    if (v.type() != values[0].type()) {
      return Status::Validation(fmt::format(
          "{}AttributeValues inside AttributeValueList must be of same type", kInvalid));
    }
  }
  for (const AttributeValue& v : values) {
    if (std::find(rule.types.begin(), rule.types.end(), v.type()) == rule.types.end()) {
      return Status::Validation(
          fmt::format("{}ComparisonOperator {} is not valid for {} AttributeValue type", kInvalid,
                      op, TypeName(v.type())));
    }
  }
  if (op == "BETWEEN" && values[0].CompareKey(values[1]) > 0) {
    return Status::Validation(
        "The BETWEEN condition was provided a range where the lower bound is greater than the "
        "upper bound");
  }
  return Status::OK();
}

// ---- translation into the AST ----

expr::Operand PathOf(const std::string& name) {
  expr::Path p;
  p.elements.push_back(expr::PathElement{name, 0, false});
  return expr::Operand::MakePath(std::move(p));
}

expr::Condition Function(std::string name, std::vector<expr::Operand> operands) {
  expr::Condition c;
  c.kind = expr::ConditionKind::kFunction;
  c.function = std::move(name);
  c.operands = std::move(operands);
  return c;
}

expr::Condition Compare(expr::CompareOp op, const std::string& name, AttributeValue v) {
  expr::Condition c;
  c.kind = expr::ConditionKind::kCompare;
  c.op = op;
  c.operands = {PathOf(name), expr::Operand::MakeValue(std::move(v))};
  return c;
}

// One condition on attribute `name` with a validated operator and values.
expr::Condition Translate(const std::string& name, std::string_view op,
                          std::vector<AttributeValue> values) {
  using expr::CompareOp;
  static constexpr std::pair<std::string_view, CompareOp> kCompares[] = {
      {"EQ", CompareOp::kEq}, {"NE", CompareOp::kNe}, {"LE", CompareOp::kLe},
      {"LT", CompareOp::kLt}, {"GE", CompareOp::kGe}, {"GT", CompareOp::kGt}};
  for (const auto& [text, cmp] : kCompares) {
    if (op == text) return Compare(cmp, name, std::move(values[0]));
  }
  if (op == "NULL") return Function("attribute_not_exists", {PathOf(name)});
  if (op == "NOT_NULL") return Function("attribute_exists", {PathOf(name)});
  if (op == "BEGINS_WITH") {
    return Function("begins_with", {PathOf(name), expr::Operand::MakeValue(std::move(values[0]))});
  }
  if (op == "CONTAINS") {
    return Function("contains", {PathOf(name), expr::Operand::MakeValue(std::move(values[0]))});
  }
  if (op == "NOT_CONTAINS") {
    expr::Condition negated;
    negated.kind = expr::ConditionKind::kNot;
    negated.children.push_back(
        Function("contains", {PathOf(name), expr::Operand::MakeValue(std::move(values[0]))}));
    expr::Condition both;
    both.kind = expr::ConditionKind::kAnd;
    both.children.push_back(Function("attribute_exists", {PathOf(name)}));
    both.children.push_back(std::move(negated));
    return both;
  }
  if (op == "BETWEEN") {
    expr::Condition c;
    c.kind = expr::ConditionKind::kBetween;
    c.operands = {PathOf(name), expr::Operand::MakeValue(std::move(values[0])),
                  expr::Operand::MakeValue(std::move(values[1]))};
    return c;
  }
  // IN: an expression's IN takes at most 100 values (reference §3.4), an AttributeValueList
  // many more (DynamoDB accepted 27,500): one IN without that limit.
  expr::Condition c;
  c.kind = expr::ConditionKind::kIn;
  c.unbounded_in = true;
  c.operands.reserve(values.size() + 1);
  c.operands.push_back(PathOf(name));
  for (AttributeValue& v : values) c.operands.push_back(expr::Operand::MakeValue(std::move(v)));
  return c;
}

// Several conditions joined by ConditionalOperator; nullptr when there are none.
std::shared_ptr<const expr::Condition> Join(std::vector<expr::Condition> parts, bool any) {
  if (parts.empty()) return nullptr;
  if (parts.size() == 1) return std::make_shared<const expr::Condition>(std::move(parts[0]));
  expr::Condition c;
  c.kind = any ? expr::ConditionKind::kOr : expr::ConditionKind::kAnd;
  c.children = std::move(parts);
  return std::make_shared<const expr::Condition>(std::move(c));
}

// ScanFilter / QueryFilter: each condition's values and rules, then its translation.
Result<std::vector<expr::Condition>> TranslateFilter(const std::vector<RawCondition>& raw) {
  std::vector<expr::Condition> out;
  for (const RawCondition& c : raw) {
    KH_ASSIGN_OR_RETURN(std::vector<AttributeValue> values, DecodeCondition(c));
    out.push_back(Translate(c.name, c.op, std::move(values)));
  }
  return out;
}

// Expected: each entry's rules in DynamoDB's order ([DL] validations/index.js, whose messages
// were taken from AWS), then its translation.
Result<expr::Condition> TranslateExpected(const RawExpected& e) {
  auto invalid = [&](std::string_view what) {
    return Status::Validation(fmt::format("{}{} for Attribute: {}", kInvalid, what, e.name));
  };
  if (e.values && e.value) return invalid("Value and AttributeValueList cannot be used together");
  if (e.op) {
    if (e.exists) return invalid("Exists and ComparisonOperator cannot be used together");
    if (*e.op != "NULL" && *e.op != "NOT_NULL" && !e.values && !e.value) {
      return invalid(fmt::format(
          "Value or AttributeValueList must be used with ComparisonOperator: {}", *e.op));
    }
    std::vector<AttributeValue> values;
    if (e.value) {
      KH_ASSIGN_OR_RETURN(AttributeValue v, ValueFromJson(*e.value));
      values.push_back(std::move(v));
    } else {
      KH_ASSIGN_OR_RETURN(values, DecodeValueList(e.values, e.at.Child("AttributeValueList")));
    }
    KH_RETURN_IF_ERROR(CheckOperatorValues(*e.op, values));
    return Translate(e.name, *e.op, std::move(values));
  }
  if (e.values) return invalid("AttributeValueList can only be used with a ComparisonOperator");
  const bool exists = e.exists.value_or(true);
  if (exists && !e.value) {
    return invalid(
        fmt::format("Value must be provided when Exists is {}", e.exists ? "true" : "null"));
  }
  if (!exists && e.value) return invalid("Value cannot be used when Exists is false");
  if (!exists) return Function("attribute_not_exists", {PathOf(e.name)});
  KH_ASSIGN_OR_RETURN(AttributeValue v, ValueFromJson(*e.value));
  return Compare(expr::CompareOp::kEq, e.name, std::move(v));
}

// AttributeUpdates: each entry's request rules ([DL] validations/updateItem.js), then its
// action. The key attributes are refused by storage once the table is known, with the
// UpdateExpression's message ("Cannot update attribute <k>. This attribute is part of the key").
Result<expr::UpdateAction> TranslateUpdate(const RawUpdate& u) {
  // The names an item may hold, in ValidateItem's words (core/item.h).
  if (u.name.empty()) return Status::Validation(fmt::format("{}Empty attribute name", kInvalid));
  if (u.name.size() > kMaxAttributeNameBytes) {
    return Status::Validation(
        fmt::format("{}Attribute name is too large, must be less than 65536 bytes", kInvalid));
  }
  std::optional<AttributeValue> value;
  if (u.value) {
    KH_ASSIGN_OR_RETURN(value, ValueFromJson(*u.value));
  }
  if (!value && u.action != "DELETE") {
    return Status::Validation(fmt::format(
        "{}Only DELETE action is allowed when no attribute value is specified", kInvalid));
  }
  if (value && u.action == "DELETE" && !value->IsSet()) {
    return Status::Validation(
        fmt::format("{}DELETE action with value is not supported for the type {}", kInvalid,
                    TypeName(value->type())));
  }
  if (value && u.action == "ADD" && !value->IsSet() && !value->is(ValueType::kN) &&
      !value->is(ValueType::kL)) {
    return Status::Validation(fmt::format("{}ADD action is not supported for the type {}", kInvalid,
                                          TypeName(value->type())));
  }
  expr::UpdateAction a;
  a.path = PathOf(u.name).path;
  if (u.action == "PUT") {
    a.kind = expr::UpdateActionKind::kSet;
    a.value = expr::Operand::MakeValue(std::move(*value));
  } else if (u.action == "DELETE") {
    a.kind = value ? expr::UpdateActionKind::kDelete : expr::UpdateActionKind::kRemove;
    if (value) a.value = expr::Operand::MakeValue(std::move(*value));
  } else if (value->is(ValueType::kL)) {
    // ADD of a list: SET a = list_append(if_not_exists(a, []), v) (see the top of the file).
    expr::Operand current;
    current.kind = expr::OperandKind::kFunction;
    current.function = "if_not_exists";
    current.args = {PathOf(u.name), expr::Operand::MakeValue(AttributeValue::L({}))};
    expr::Operand appended;
    appended.kind = expr::OperandKind::kFunction;
    appended.function = "list_append";
    appended.args = {std::move(current), expr::Operand::MakeValue(std::move(*value))};
    a.kind = expr::UpdateActionKind::kSet;
    a.value = std::move(appended);
  } else {
    a.kind = expr::UpdateActionKind::kAdd;
    a.value = expr::Operand::MakeValue(std::move(*value));
  }
  return a;
}

// AttributesToGet names an attribute at most once, each a name an item may hold (empty, or
// past 65,535 bytes, in ValidateItem's words as AttributeUpdates does).
Status CheckAttributesToGet(const std::vector<std::string>& names) {
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i].empty())
      return Status::Validation(fmt::format("{}Empty attribute name", kInvalid));
    if (names[i].size() > kMaxAttributeNameBytes) {
      return Status::Validation(
          fmt::format("{}Attribute name is too large, must be less than 65536 bytes", kInvalid));
    }
    if (std::find(names.begin(), names.begin() + i, names[i]) != names.begin() + i) {
      return Status::Validation(
          fmt::format("{}Duplicate value in attribute name: {}", kInvalid, names[i]));
    }
  }
  return Status::OK();
}

std::shared_ptr<const expr::ProjectionExpression> ProjectionOf(
    const std::vector<std::string>& names) {
  auto p = std::make_shared<expr::ProjectionExpression>();
  for (const std::string& n : names) p->paths.push_back(PathOf(n).path);
  return p;
}

// The operators a key condition can use, as SortKeyOp; nullopt for the others.
std::optional<SortKeyOp> IndexableOp(std::string_view op) {
  static constexpr std::pair<std::string_view, SortKeyOp> kOps[] = {
      {"EQ", SortKeyOp::kEq},
      {"LT", SortKeyOp::kLt},
      {"LE", SortKeyOp::kLe},
      {"GT", SortKeyOp::kGt},
      {"GE", SortKeyOp::kGe},
      {"BETWEEN", SortKeyOp::kBetween},
      {"BEGINS_WITH", SortKeyOp::kBeginsWith}};
  for (const auto& [name, value] : kOps) {
    if (name == op) return value;
  }
  return std::nullopt;
}

const KeyConditionTerm* FindTerm(const std::vector<KeyConditionTerm>& terms,
                                 const std::string& name) {
  for (const KeyConditionTerm& t : terms) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

}  // namespace

// ---- KeyConditions, QueryFilter and ScanFilter maps ----

Result<std::vector<RawCondition>> ReadConditionMap(const json::Value& map, const Path& at,
                                                   Violations* errs) {
  static constexpr MemberSpec kMembers[] = {{"AttributeValueList"}, {"ComparisonOperator"}};
  KH_RETURN_IF_ERROR(CheckNoDuplicate(map, at));
  std::vector<RawCondition> out;
  for (const auto& [name, cond] : map.object()) {
    RawCondition c{name, {}, nullptr, at.Entry(name)};
    KH_RETURN_IF_ERROR(CheckStructure(cond, c.at, kMembers));
    KH_ASSIGN_OR_RETURN(std::optional<size_t> op,
                        ReadEnum(cond, "ComparisonOperator", c.at, kOperatorNames, errs));
    if (op) c.op = kOperatorNames[*op];
    if (!cond.Find("ComparisonOperator") || cond.Find("ComparisonOperator")->IsNull()) {
      errs->AddNull(c.at.Child("ComparisonOperator"));
    }
    KH_ASSIGN_OR_RETURN(c.values, ReadList(cond, "AttributeValueList", c.at));
    out.push_back(std::move(c));
  }
  return out;
}

Result<std::vector<AttributeValue>> DecodeCondition(const RawCondition& c) {
  KH_ASSIGN_OR_RETURN(std::vector<AttributeValue> values,
                      DecodeValueList(c.values, c.at.Child("AttributeValueList"), c.layer));
  KH_RETURN_IF_ERROR(CheckOperatorValues(c.op, values));
  return values;
}

Result<std::vector<KeyConditionTerm>> DecodeKeyConditions(const std::vector<RawCondition>& raw) {
  std::vector<KeyConditionTerm> terms;
  std::vector<std::string_view> ops;
  for (const RawCondition& c : raw) {
    KH_ASSIGN_OR_RETURN(std::vector<AttributeValue> values, DecodeCondition(c));
    terms.push_back(KeyConditionTerm{c.name, SortKeyOp::kEq, std::move(values)});
    ops.push_back(c.op);
  }
  // Up to 2 for tables and single-attribute indexes (BindKeyConditions says so there); a GSI's
  // multi-attribute key has up to 8 attributes.
  if (terms.empty() || terms.size() > 2 * kMaxKeyAttributesPerSide) {
    return Status::Validation("Conditions can be of length 1 or 2 only");
  }
  for (size_t i = 0; i < terms.size(); ++i) {
    std::optional<SortKeyOp> op = IndexableOp(ops[i]);
    if (!op)
      return Status::Validation("Attempted conditional constraint is not an indexable operation");
    terms[i].op = *op;
  }
  return terms;
}

// ---- the legacy members of a request ----

Status CheckConditionalOperatorValue(const json::Value& v, const Path& at) {
  KH_ASSIGN_OR_RETURN(std::optional<std::string> op, ReadString(v, "ConditionalOperator", at));
  if (op && *op != "AND" && *op != "OR") {
    // DynamoDB's words, [ALL, OR] included, and on their own, ahead of the constraint errors
    // they would otherwise join (captured from AWS in two Regions by a conformance suite's
    // "ConditionalOperator beside Select" test; its older form was "1 validation error
    // detected: Value 'XOR' at 'conditionalOperator' failed to satisfy constraint: Member must
    // satisfy enum value set: [OR, AND]").
    return Status::Validation(
        "Failed to satisfy constraint: Member must satisfy enum value set: [ALL, OR]");
  }
  return Status::OK();
}

Result<LegacyMembers> ReadLegacyMembers(const json::Value& v, LegacyOp op, const Path& at,
                                        Violations* errs) {
  LegacyMembers m;
  m.op = op;
  m.body = &v;
  if (TakesConditions(op) || op == LegacyOp::kQuery || op == LegacyOp::kScan) {
    KH_ASSIGN_OR_RETURN(m.conditional_operator, ReadString(v, "ConditionalOperator", at));
  }
  if (TakesConditions(op)) {
    KH_ASSIGN_OR_RETURN(m.expected, ReadObject(v, "Expected", at));
    if (m.expected) {
      const Path p = at.Child("Expected");
      KH_RETURN_IF_ERROR(CheckNoDuplicate(*m.expected, p));
      for (const auto& [name, e] : m.expected->object()) {
        KH_ASSIGN_OR_RETURN(RawExpected raw, ReadExpectedEntry(name, e, p.Entry(name), errs));
        m.expected_entries.push_back(std::move(raw));
      }
    }
  }
  if (op == LegacyOp::kUpdateItem) {
    KH_ASSIGN_OR_RETURN(m.attribute_updates, ReadObject(v, "AttributeUpdates", at));
    if (m.attribute_updates) {
      const Path p = at.Child("AttributeUpdates");
      KH_RETURN_IF_ERROR(CheckNoDuplicate(*m.attribute_updates, p));
      for (const auto& [name, e] : m.attribute_updates->object()) {
        KH_ASSIGN_OR_RETURN(RawUpdate raw, ReadUpdateEntry(name, e, p.Entry(name), errs));
        m.updates.push_back(std::move(raw));
      }
    }
  }
  if (TakesAttributesToGet(op)) {
    KH_ASSIGN_OR_RETURN(m.attributes_to_get, ReadStringList(v, "AttributesToGet", at));
    if (m.attributes_to_get) {
      CheckLength(m.attributes_to_get->size(), 1, 255, ShowList(*m.attributes_to_get),
                  at.Child("AttributesToGet"), errs);
    }
  }
  if (!FilterName(op).empty()) {
    KH_ASSIGN_OR_RETURN(m.filter, ReadObject(v, FilterName(op), at));
    if (m.filter) {
      KH_ASSIGN_OR_RETURN(m.filter_conditions,
                          ReadConditionMap(*m.filter, at.Child(FilterName(op)), errs));
      // Scan reads its values in DynamoDB's older layer (core/ddb_json.h ValueLayer).
      if (op == LegacyOp::kScan) {
        for (RawCondition& c : m.filter_conditions) c.layer = ValueLayer::kOlder;
      }
    }
  }
  if (op == LegacyOp::kQuery) {
    KH_ASSIGN_OR_RETURN(m.key_conditions, ReadObject(v, "KeyConditions", at));
    if (m.key_conditions) {
      KH_ASSIGN_OR_RETURN(m.key_condition_terms,
                          ReadConditionMap(*m.key_conditions, at.Child("KeyConditions"), errs));
    }
  }
  return m;
}

Status CheckLegacyMix(const LegacyMembers& m, const expr::ExpressionInput& in) {
  const OpSpec& spec = SpecFor(m.op);
  auto given_expression = [&](std::string_view name) {
    if (name == "ConditionExpression") return in.condition.has_value();
    if (name == "UpdateExpression") return in.update.has_value();
    if (name == "ProjectionExpression") return in.projection.has_value();
    if (name == "FilterExpression") return in.filter.has_value();
    return in.key_condition.has_value();  // KeyConditionExpression
  };
  auto given_legacy = [&](std::string_view name) {
    if (name == "Expected") return m.expected != nullptr;
    if (name == "ConditionalOperator") return m.conditional_operator.has_value();
    if (name == "AttributeUpdates") return m.attribute_updates != nullptr;
    if (name == "AttributesToGet") return m.attributes_to_get.has_value();
    if (name == "KeyConditions") {
      // KeyConditions goes with FilterExpression and ProjectionExpression; only
      // KeyConditionExpression excludes it.
      return m.key_conditions != nullptr && in.key_condition.has_value();
    }
    return m.filter != nullptr;  // ScanFilter, QueryFilter
  };
  std::vector<std::string_view> expressions, legacy;
  for (std::string_view e : spec.expressions) {
    if (given_expression(e)) expressions.push_back(e);
  }
  for (std::string_view l : spec.legacy) {
    if (given_legacy(l)) legacy.push_back(l);
  }
  auto join = [](const std::vector<std::string_view>& names) {
    std::string out;
    for (std::string_view n : names) out += (out.empty() ? "" : ", ") + std::string(n);
    return out;
  };
  if (!expressions.empty() && !legacy.empty()) {
    return Status::Validation(fmt::format(
        "Can not use both expression and non-expression parameters in the same request: "
        "Non-expression parameters: {{{}}} Expression parameters: {{{}}}",
        join(legacy), join(expressions)));
  }
  if (in.names && expressions.empty()) {
    return Status::Validation(
        "ExpressionAttributeNames can only be specified when using expressions");
  }
  const bool value_expression =
      std::any_of(expressions.begin(), expressions.end(),
                  [](std::string_view e) { return e != "ProjectionExpression"; });
  if (in.values && !value_expression) {
    return Status::Validation(
        fmt::format("ExpressionAttributeValues can only be specified when using expressions{}{}",
                    spec.values_null.empty() ? "" : ": ", spec.values_null));
  }
  if (m.conditional_operator) {
    const json::Value* conditions = TakesConditions(m.op) ? m.expected : m.filter;
    const size_t n = conditions ? conditions->object().size() : 0;
    if (n == 0) {
      return Status::Validation("ConditionalOperator cannot be used without Filter or Expected");
    }
    if (n == 1) {
      return Status::Validation(
          "ConditionalOperator can only be used when Filter or Expected has two or more "
          "elements");
    }
  }
  return Status::OK();
}

Status TranslateLegacy(const LegacyMembers& m, expr::ExpressionInput* in) {
  const bool any = m.expected || m.attribute_updates || m.attributes_to_get || m.filter;
  if (!any) return Status::OK();
  auto parsed = std::make_shared<expr::ParsedExpressions>();
  parsed->legacy = true;
  const bool disjunction = m.conditional_operator == "OR";
  auto attributes_to_get = [&]() -> Status {
    if (!m.attributes_to_get) return Status::OK();
    KH_RETURN_IF_ERROR(CheckAttributesToGet(*m.attributes_to_get));
    parsed->projection = ProjectionOf(*m.attributes_to_get);
    return Status::OK();
  };
  // Scan checks AttributesToGet before ScanFilter, Query after QueryFilter ([DL]).
  if (m.op != LegacyOp::kQuery) KH_RETURN_IF_ERROR(attributes_to_get());
  if (m.filter) {
    KH_ASSIGN_OR_RETURN(std::vector<expr::Condition> parts, TranslateFilter(m.filter_conditions));
    parsed->filter = Join(std::move(parts), disjunction);
  }
  if (m.op == LegacyOp::kQuery) KH_RETURN_IF_ERROR(attributes_to_get());
  if (m.attribute_updates) {
    auto update = std::make_shared<expr::UpdateExpression>();
    for (const RawUpdate& u : m.updates) {
      KH_ASSIGN_OR_RETURN(expr::UpdateAction a, TranslateUpdate(u));
      update->actions.push_back(std::move(a));
    }
    // An empty AttributeUpdates updates nothing: the item is created with just its key.
    if (!update->actions.empty()) parsed->update = std::move(update);
  }
  if (m.expected) {
    std::vector<expr::Condition> parts;
    for (const RawExpected& e : m.expected_entries) {
      KH_ASSIGN_OR_RETURN(expr::Condition c, TranslateExpected(e));
      parts.push_back(std::move(c));
    }
    parsed->condition = Join(std::move(parts), disjunction);
  }
  in->parsed = std::move(parsed);
  // The members as sent, for request encoders (ExpressionInput::legacy); KeyConditions travels
  // with them, since a KeyConditionExpression beside them would be refused.
  json::Value copy = json::Value::MakeObject();
  for (std::string_view name : {"Expected", "ConditionalOperator", "AttributeUpdates",
                                "AttributesToGet", "QueryFilter", "ScanFilter", "KeyConditions"}) {
    const json::Value* member = m.body->Find(name);
    if (member && !member->IsNull()) copy.Add(std::string(name), *member);
  }
  in->legacy = std::make_shared<const json::Value>(std::move(copy));
  return Status::OK();
}

}  // namespace keyhole::api_json

// ---- binding KeyConditions to a key schema ----

namespace keyhole {

Status BindKeyConditions(const KeySchema& key, QueryRequest* r) {
  std::vector<KeyConditionTerm>& terms = r->key_conditions;
  if (terms.empty()) return Status::OK();
  if (key.IsMultiAttribute()) {
    KH_ASSIGN_OR_RETURN(r->key_condition, expr::MultiAttributeKeyCondition(terms, key));
    terms.clear();
    return Status::OK();
  }
  if (terms.size() > 2) return Status::Validation("Conditions can be of length 1 or 2 only");
  if (!key.sort && terms.size() > 1) return Status::Validation("Query key condition not supported");
  const KeyConditionTerm* pk = api_json::FindTerm(terms, key.partition.name);
  if (!pk) {
    return Status::Validation(
        fmt::format("Query condition missed key schema element: {}", key.partition.name));
  }
  if (pk->op != SortKeyOp::kEq) return Status::Validation("Query key condition not supported");
  KeyCondition kc;
  kc.partition_name = pk->name;
  kc.partition_value = pk->values[0];
  if (terms.size() == 2) {
    const KeyConditionTerm* sk = api_json::FindTerm(terms, key.sort->name);
    if (!sk) {
      return Status::Validation(
          fmt::format("Query condition missed key schema element: {}", key.sort->name));
    }
    kc.sort_name = sk->name;
    kc.op = sk->op;
    kc.sort_value = sk->values[0];
    if (sk->values.size() > 1) kc.sort_value2 = sk->values[1];
  }
  r->key_condition = std::move(kc);
  terms.clear();
  return Status::OK();
}

Status BindKeyConditions(const TableDescription& table, QueryRequest* r) {
  if (!r->index_name) return BindKeyConditions(table.key, r);
  const IndexDescription* index = table.FindIndex(*r->index_name);
  if (!index) {
    return Status::Validation(
        fmt::format("The table does not have the specified index: {}", *r->index_name));
  }
  return BindKeyConditions(index->key, r);
}

}  // namespace keyhole
