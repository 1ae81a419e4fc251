// PartiQL syntax trees -> values, paths, conditions and update actions (contract in
// partiql_translate.h, rules in partiql.h and reference §2.2-2.8).
#include "parser/partiql_translate.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <unordered_set>
#include <utility>

#include "core/evaluate.h"
#include "core/item.h"
#include "core/strings.h"
#include "core/utf8.h"
#include "parser/partiql.h"

namespace keyhole::parser::translate {

using syntax::Kind;

namespace {

constexpr size_t kMaxPathElements = 32;

constexpr std::string_view kWhereNotBoolean =
    "WHERE clause must contain an expression that resolves to a boolean";
constexpr std::string_view kMissingOutsideIs = "MISSING must be compared using IS operator";
constexpr std::string_view kInOperands =
    "IN operator must have a left hand argument of type Variable Reference and right hand "
    "argument of type Seq with at least one member";
constexpr std::string_view kIsLeftSide =
    "The left hand side argument to IS must be a Variable Reference, Literal, or Path";

bool OneOf(std::string_view s, std::initializer_list<std::string_view> set) {
  return std::find(set.begin(), set.end(), s) != set.end();
}

// The literal kinds: a value known before any item is read.
bool IsLiteralKind(Kind k) {
  return k == Kind::kString || k == Kind::kNumber || k == Kind::kTrue || k == Kind::kFalse ||
         k == Kind::kNull || k == Kind::kMissing || k == Kind::kParam || k == Kind::kList ||
         k == Kind::kBag || k == Kind::kStruct;
}

// The text of an operator node as DynamoDB names it in messages.
std::string_view OperatorText(Kind k) {
  switch (k) {
    case Kind::kOpEq:
      return "=";
    case Kind::kOpNe:
      return "<>";
    case Kind::kOpLt:
      return "<";
    case Kind::kOpLe:
      return "<=";
    case Kind::kOpGt:
      return ">";
    case Kind::kOpGe:
      return ">=";
    case Kind::kOpPlus:
      return "+";
    case Kind::kOpMinus:
      return "-";
    case Kind::kOpConcat:
      return "||";
    case Kind::kOpMul:
      return "*";
    case Kind::kOpDiv:
      return "/";
    case Kind::kOpMod:
      return "%";
    default:
      return "";
  }
}

expr::CompareOp CompareOpOf(Kind k) {
  switch (k) {
    case Kind::kOpNe:
      return expr::CompareOp::kNe;
    case Kind::kOpLt:
      return expr::CompareOp::kLt;
    case Kind::kOpLe:
      return expr::CompareOp::kLe;
    case Kind::kOpGt:
      return expr::CompareOp::kGt;
    case Kind::kOpGe:
      return expr::CompareOp::kGe;
    default:
      return expr::CompareOp::kEq;
  }
}

// The operator of a tail node (kCompareTail, kBetweenTail, ...), as messages name it.
std::string TailOperator(const Node& tail) {
  switch (tail.kind) {
    case Kind::kCompareTail:
      return std::string(OperatorText(tail.children[0].kind));
    case Kind::kBetweenTail:
      return "BETWEEN";
    case Kind::kInTail:
      return "IN";
    case Kind::kIsTail:
      return "IS";
    default:
      return "LIKE";
  }
}

// The operator a condition-valued node applies, for messages.
std::string ConditionOperator(const Node& n) {
  switch (n.kind) {
    case Kind::kOr:
      return "OR";
    case Kind::kAnd:
      return "AND";
    case Kind::kNot:
      return "NOT";
    case Kind::kEqChain:
    case Kind::kCmpChain:
      return TailOperator(n.children[1]);
    default:
      return "";
  }
}

bool IsConditionFunction(std::string_view lower) {
  return OneOf(lower, {"attribute_exists", "attribute_not_exists", "attribute_type", "begins_with",
                       "contains"});
}

// The attribute_type code of a PartiQL type name (upper case, as after IS), or "" when
// DynamoDB does not support it (reference §2.4).
std::string_view TypeCode(std::string_view type) {
  if (type == "NULL") return "NULL";
  if (type == "STRING") return "S";
  if (OneOf(type,
            {"NUMERIC", "DECIMAL", "DEC", "INT", "INTEGER", "INT2", "INTEGER2", "INT4", "INTEGER4",
             "INT8", "INTEGER8", "BIGINT", "SMALLINT", "FLOAT", "REAL", "DOUBLE PRECISION"})) {
    return "N";
  }
  if (type == "BLOB") return "B";
  if (type == "BOOLEAN" || type == "BOOL") return "BOOL";
  if (type == "STRUCT" || type == "TUPLE") return "M";
  if (type == "LIST") return "L";
  return "";
}

// The words of a type name (DOUBLE PRECISION may hold whitespace and comments between its
// words), upper case, joined by one space.
std::string NormalizeTypeName(std::string_view text) {
  std::string out;
  bool gap = false;
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (text.substr(i, 2) == "--" || text.substr(i, 2) == "/*") {
      const bool line = c == '-';
      const size_t close = line ? text.find('\n', i) : text.find("*/", i + 2);
      if (close == std::string_view::npos) break;
      i = close + (line ? 1 : 2);
      gap = !out.empty();
      continue;
    }
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$') {
      if (gap) out += ' ';
      gap = false;
      out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    } else {
      gap = !out.empty();
    }
    ++i;
  }
  return out;
}

}  // namespace

std::string Unquote(std::string_view quoted) {
  const char q = quoted.front();
  std::string_view body = quoted.substr(1, quoted.size() - 2);
  std::string out;
  out.reserve(body.size());
  // Runs between quotes are copied whole; of a doubled quote, one is kept.
  for (size_t at; (at = body.find(q)) != std::string_view::npos;) {
    out.append(body.substr(0, at + 1));
    body.remove_prefix(std::min(at + 2, body.size()));
  }
  out.append(body);
  return out;
}

const Node& Unwrap(const Node& n) {
  const Node* p = &n;
  while (p->children.size() == 1 &&
         (p->kind == Kind::kOr || p->kind == Kind::kAnd || p->kind == Kind::kEqChain ||
          p->kind == Kind::kCmpChain || p->kind == Kind::kArith)) {
    p = &p->children[0];
  }
  return *p;
}

// ============================================================================================
// Text, names, values, paths
// ============================================================================================

size_t Translator::At(size_t tree_offset) const {
  // The texts are equal outside literal tokens: past the end of literal k, an offset moves by
  // the difference of the two texts' ends of literal k (an offset inside literal k+1 moves
  // with its start, which keeps its place in a number: those have the same length).
  const auto it =
      std::upper_bound(tree_literal_ends_.begin(), tree_literal_ends_.end(), tree_offset);
  if (it == tree_literal_ends_.begin()) return tree_offset;
  const size_t k = static_cast<size_t>(it - tree_literal_ends_.begin()) - 1;
  return tree_offset + text_literal_ends_[k] - tree_literal_ends_[k];
}

std::string Translator::Loc(const Node& n) const {
  const SourcePosition pos = PositionOf(text_, At(n.begin));
  const size_t length = utf8::CountCharacters(Text(n));
  return " at " + std::to_string(pos.line) + ":" + std::to_string(pos.column) + ":" +
         std::to_string(length);
}

void Translator::Fail(std::string message, size_t offset) const {
  throw Error{std::move(message), At(offset)};
}

std::string Translator::Name(const Node& n) const {
  const Node& token = n.kind == Kind::kName ? n.children[0] : n;
  if (token.kind == Kind::kQuoted) return Unquote(Text(token));
  return std::string(Text(token));
}

const AttributeValue& Translator::Parameter(const Node& n) const {
  const auto it = std::lower_bound(parameter_offsets_.begin(), parameter_offsets_.end(), n.begin);
  return parameters_[static_cast<size_t>(it - parameter_offsets_.begin())];
}

Number Translator::NumberValue(const Node& n, const std::string& where) const {
  std::string literal;
  for (const Node& child : n.children) {
    if (child.kind == Kind::kNegative) literal += '-';
    if (child.kind == Kind::kDigits) literal += Text(child);
  }
  // A literal is read as Java's BigDecimal reads it: one whose exponent or scale does not fit
  // an int does not parse at all, "Statement wasn't well formed, can't be processed: " with
  // nothing after it (partiqlGrammar.test.ts, October 2026).
  Result<Number> number = Number::ParseAsBigDecimal(literal);
  if (!number.ok()) {
    if (number.status().message().starts_with("The parameter cannot be converted")) {
      Fail(std::string(syntax::kEnvelope), n.begin);
    }
    Fail(number.status().message() + " under " + where, n.begin);
  }
  return std::move(*number);
}

AttributeValue Translator::Bag(const Node& n, const std::string& where) const {
  if (n.children.empty()) Fail("Empty bags are not supported", n.begin);
  std::vector<std::string> strings;
  std::vector<Number> numbers;
  for (size_t i = 0; i < n.children.size(); ++i) {
    AttributeValue v = Value(n.children[i], where + "[" + std::to_string(i) + "]");
    if (v.is(ValueType::kS)) {
      strings.push_back(v.s());
    } else if (v.is(ValueType::kN)) {
      numbers.push_back(v.n());
    } else {
      strings.clear();
      numbers.clear();
      break;
    }
  }
  if (strings.size() != n.children.size() && numbers.size() != n.children.size()) {
    Fail("Unsupported data type in Bag. DynamoDB only supports either numbers or strings in bags",
         n.begin);
  }
  AttributeValue set = strings.empty() ? AttributeValue::NS(std::move(numbers))
                                       : AttributeValue::SS(std::move(strings));
  const Status valid = ValidateValue(set);
  if (!valid.ok()) Fail(valid.message(), n.begin);
  return set;
}

namespace {

// The type DynamoDB's translator names for a tuple key that is not a string (Ion's names).
std::string KeyTypeName(const Node& key, const AttributeValue* parameter, std::string_view text) {
  switch (key.kind) {
    case Kind::kNumber:
      return text.find_first_of(".eE") == std::string_view::npos ? "INT" : "DECIMAL";
    case Kind::kTrue:
    case Kind::kFalse:
      return "BOOL";
    case Kind::kNull:
      return "NULL";
    case Kind::kMissing:
      return "MISSING";
    case Kind::kList:
    case Kind::kParen:
      return "LIST";
    case Kind::kBag:
      return "BAG";
    case Kind::kStruct:
      return "STRUCT";
    case Kind::kPath:
      return "PATH";
    case Kind::kCall:
      return "FUNCTION";
    case Kind::kParam:
      switch (parameter->type()) {
        case ValueType::kN:
          return "DECIMAL";
        case ValueType::kB:
          return "BLOB";
        case ValueType::kBool:
          return "BOOL";
        case ValueType::kNull:
          return "NULL";
        case ValueType::kL:
          return "LIST";
        case ValueType::kM:
          return "STRUCT";
        default:
          return "BAG";
      }
    default:
      return "EXPRESSION";
  }
}

}  // namespace

AttributeValue Translator::Struct(const Node& n, const std::string& item_or_where) const {
  // "": an INSERT's item, whose attributes are each "root".
  const bool item = item_or_where.empty();
  const std::string where = item ? "root" : item_or_where;
  Map::Vector pairs;  // in the statement's order, sorted once at the end
  std::unordered_set<std::string> seen;
  for (const Node& entry : n.children) {
    const Node& key = Unwrap(entry.children[0]);
    std::string name;
    AttributeValue parameter;
    if (key.kind == Kind::kParam) parameter = Parameter(key);
    if (key.kind == Kind::kString) {
      name = Unquote(Text(key));
    } else if (key.kind == Kind::kParam && parameter.is(ValueType::kS)) {
      name = parameter.s();
    } else {
      Fail("Tuple keys must be of type String. Actual type: " +
               KeyTypeName(key, &parameter, Text(key)) + " under " + where,
           key.begin);
    }
    if (!seen.insert(name).second) {
      Fail("Duplicate keys in tuple. Key: " + name + " under " + where, key.begin);
    }
    AttributeValue v = Value(entry.children[1], item ? where : where + "." + name);
    pairs.emplace_back(std::move(name), std::move(v));
  }
  return AttributeValue::M(Map::FromUnsorted(std::move(pairs)));
}

AttributeValue Translator::Value(const Node& node, const std::string& where) const {
  const Node& n = Unwrap(node);
  switch (n.kind) {
    case Kind::kString:
      return AttributeValue::S(Unquote(Text(n)));
    case Kind::kNumber:
      return AttributeValue::N(NumberValue(n, where));
    case Kind::kTrue:
      return AttributeValue::Bool(true);
    case Kind::kFalse:
      return AttributeValue::Bool(false);
    case Kind::kNull:
      return AttributeValue::Null();
    case Kind::kMissing:
      Fail(std::string(kMissingOutsideIs), n.begin);
    case Kind::kParam:
      return Parameter(n);
    case Kind::kParen:
      if (n.children.size() == 1) return Value(n.children[0], where);
      [[fallthrough]];
    case Kind::kList: {
      List list;
      for (size_t i = 0; i < n.children.size(); ++i) {
        list.push_back(Value(n.children[i], where + "[" + std::to_string(i) + "]"));
      }
      return AttributeValue::L(std::move(list));
    }
    case Kind::kBag:
      return Bag(n, where);
    case Kind::kStruct:
      return Struct(n, where);
    default: {
      const std::string what = n.kind == Kind::kCall ? FunctionName(n) : std::string(Text(n));
      Fail("Unsupported data type: " + what + " under key " + where +
               Loc(n.kind == Kind::kCall ? n.children[0] : n),
           n.begin);
    }
  }
}

expr::Path Translator::BuildPath(const Node& n) const {
  expr::Path path;
  path.elements.reserve(n.children.size());
  for (const Node& child : n.children) {
    expr::PathElement e;
    switch (child.kind) {
      case Kind::kIdent:
        e.name = std::string(Text(child));
        break;
      case Kind::kQuoted:
        e.name = Unquote(Text(child));
        if (e.name.empty()) Fail("Path component cannot be an empty string", child.begin);
        break;
      case Kind::kIndex: {
        const std::string_view digits = Text(child);
        const bool in_range = digits[0] != '-' && (digits.size() < 10 ||
                                                   (digits.size() == 10 && digits <= "2147483647"));
        if (!in_range) {
          Fail("List index is not within the allowable range; index: [" + std::string(digits) + "]",
               child.begin);
        }
        e.is_index = true;
        e.index = std::stoll(std::string(digits));
        break;
      }
      case Kind::kWildcard:
        Fail("Wildcard path component like a[*].b are not supported", child.begin);
      case Kind::kUnpivot:
        Fail("Unpivot path component like a.*.b are not supported", child.begin);
      default:
        continue;
    }
    path.elements.push_back(std::move(e));
  }
  if (path.elements.size() > kMaxPathElements) {
    Fail("The document path has too many nesting levels; nesting levels: " +
             std::to_string(path.elements.size()),
         n.begin);
  }
  return path;
}

std::string Translator::FunctionName(const Node& call) const {
  const Node& name = call.children[0];
  const std::string_view text = Text(name);
  if (!text.empty() && text.front() == '"') return Unquote(text);
  return std::string(text);
}

// ============================================================================================
// Conditions (WHERE)
// ============================================================================================

bool Translator::IsCondition(const Node& node) const {
  const Node& n = Unwrap(node);
  switch (n.kind) {
    case Kind::kOr:
    case Kind::kAnd:
    case Kind::kNot:
    case Kind::kEqChain:
    case Kind::kCmpChain:
      return true;
    case Kind::kCall:
      return AsciiLower(FunctionName(n)) != "size";
    case Kind::kParen:
      return n.children.size() == 1 && IsCondition(n.children[0]);
    default:
      return false;
  }
}

expr::Condition Translator::Where(const Node& where) const {
  const Node& body = where.children[0];
  if (!IsCondition(body)) Fail(std::string(kWhereNotBoolean), Unwrap(body).begin);
  expr::Condition c = Condition(body);
  const Status valid = expr::ValidateCondition(c, expr::Kind::kCondition);
  if (!valid.ok()) {
    std::string message = valid.message();
    const std::string prefix = expr::ErrorPrefix(expr::Kind::kCondition);
    if (message.compare(0, prefix.size(), prefix) == 0) message.erase(0, prefix.size());
    Fail(std::move(message), Unwrap(body).begin);
  }
  return c;
}

expr::Condition Translator::Condition(const Node& node) const {
  const Node& n = Unwrap(node);
  expr::Condition c;
  c.position = At(n.begin);
  switch (n.kind) {
    case Kind::kOr:
    case Kind::kAnd:
      c.kind = n.kind == Kind::kOr ? expr::ConditionKind::kOr : expr::ConditionKind::kAnd;
      c.children.reserve(n.children.size());
      for (const Node& child : n.children) {
        if (!IsCondition(child)) {
          Fail("The arguments to AND/OR must be Expressions", Unwrap(child).begin);
        }
        c.children.push_back(Condition(child));
      }
      return c;
    case Kind::kNot:
      if (!IsCondition(n.children[0])) {
        Fail("The argument to NOT must be a Type or Expression", Unwrap(n.children[0]).begin);
      }
      c.kind = expr::ConditionKind::kNot;
      c.children.push_back(Condition(n.children[0]));
      return c;
    case Kind::kParen:
      return Condition(n.children[0]);
    case Kind::kEqChain:
    case Kind::kCmpChain:
      return Predicate(n);
    case Kind::kCall:
      return FunctionCondition(n);
    default:
      Fail(std::string(kWhereNotBoolean), n.begin);
  }
}

expr::Condition Translator::Predicate(const Node& chain) const {
  // `a = b = c` chains to the left: the second operator's left side is a condition.
  if (chain.children.size() > 2) {
    const Node& second = chain.children[2];
    if (second.kind == Kind::kIsTail) Fail(std::string(kIsLeftSide), chain.begin);
    if (second.kind == Kind::kInTail) Fail(std::string(kInOperands), chain.begin);
    Fail("A condition cannot be used as an operand of " + TailOperator(second), second.begin);
  }
  return Tail(chain.children[0], chain.children[1]);
}

namespace {

// `attribute_exists(a) = true` (or `<> false`, either way round) is the function's own test;
// `= false` its negation: DynamoDB's PartiQL runs them (whereFunctions.test.ts, eu-west-2,
// October 2026), where an expression's condition refuses a function compared as a value.
expr::Condition FoldBooleanComparison(expr::Condition c) {
  if (c.operands.size() != 2 || (c.op != expr::CompareOp::kEq && c.op != expr::CompareOp::kNe)) {
    return c;
  }
  auto is_test = [](const expr::Operand& o) {
    // The two the record shows; begins_with and contains compared as values stay refused.
    static constexpr std::string_view kTests[] = {"attribute_exists", "attribute_not_exists"};
    return o.kind == expr::OperandKind::kFunction &&
           std::find(std::begin(kTests), std::end(kTests), o.function) != std::end(kTests);
  };
  auto is_bool = [](const expr::Operand& o) {
    return o.kind == expr::OperandKind::kValue && o.value.is(ValueType::kBool);
  };
  size_t f = 0;
  if (is_test(c.operands[0]) && is_bool(c.operands[1])) {
    f = 0;
  } else if (is_test(c.operands[1]) && is_bool(c.operands[0])) {
    f = 1;
  } else {
    return c;
  }
  expr::Condition test;
  test.kind = expr::ConditionKind::kFunction;
  test.function = c.operands[f].function;
  test.operands = std::move(c.operands[f].args);
  test.position = c.position;
  const bool positive = c.operands[1 - f].value.boolean() == (c.op == expr::CompareOp::kEq);
  if (positive) return test;
  expr::Condition negation;
  negation.kind = expr::ConditionKind::kNot;
  negation.position = c.position;
  negation.children.push_back(std::move(test));
  return negation;
}

}  // namespace

expr::Condition Translator::Tail(const Node& lhs, const Node& tail) const {
  expr::Condition c;
  c.position = At(lhs.begin);
  const bool negated = !tail.children.empty() && tail.children[0].kind == Kind::kNegate;
  const size_t first = negated ? 1 : 0;
  switch (tail.kind) {
    case Kind::kCompareTail: {
      const Kind op = tail.children[0].kind;
      c.kind = expr::ConditionKind::kCompare;
      c.op = CompareOpOf(op);
      c.operands.reserve(2);
      c.operands.push_back(Operand(lhs, OperatorText(op)));
      c.operands.push_back(Operand(tail.children[1], OperatorText(op)));
      return FoldBooleanComparison(std::move(c));
    }
    case Kind::kBetweenTail:
      c.kind = expr::ConditionKind::kBetween;
      c.operands.reserve(3);
      c.operands.push_back(Operand(lhs, "BETWEEN"));
      c.operands.push_back(Operand(tail.children[first], "BETWEEN"));
      c.operands.push_back(Operand(tail.children[first + 1], "BETWEEN"));
      break;
    case Kind::kInTail:
      c = In(lhs, tail);
      break;
    case Kind::kIsTail:
      return Is(lhs, tail);
    default:  // kLikeTail
      Fail(
          "Unsupported operator in WHERE clause. Operator: LIKE. Use begins_with(path, value) "
          "or contains(path, value) instead",
          tail.begin);
  }
  if (!negated) return c;
  expr::Condition negation;
  negation.kind = expr::ConditionKind::kNot;
  negation.position = c.position;
  negation.children.push_back(std::move(c));
  return negation;
}

expr::Condition Translator::In(const Node& lhs_node, const Node& tail) const {
  const Node& lhs = Unwrap(lhs_node);
  if (lhs.kind != Kind::kPath) Fail(std::string(kInOperands), lhs.begin);
  expr::Condition c;
  c.kind = expr::ConditionKind::kIn;
  c.position = At(lhs.begin);
  c.operands.push_back(expr::Operand::MakePath(BuildPath(lhs), At(lhs.begin)));
  const Node& rhs = Unwrap(tail.children.back());
  if (rhs.kind == Kind::kList && !rhs.children.empty()) {
    for (const Node& member : rhs.children) c.operands.push_back(Operand(member, "IN"));
  } else if (rhs.kind == Kind::kParam && Parameter(rhs).is(ValueType::kL) &&
             !Parameter(rhs).l().empty()) {
    const List& members = Parameter(rhs).l();
    for (const AttributeValue& v : members) {
      c.operands.push_back(expr::Operand::MakeValue(v, At(rhs.begin)));
    }
  } else {
    Fail(std::string(kInOperands), rhs.begin);
  }
  return c;
}

expr::Condition Translator::Is(const Node& lhs_node, const Node& tail) const {
  const Node& lhs = Unwrap(lhs_node);
  if (lhs.kind != Kind::kPath && !IsLiteralKind(lhs.kind))
    Fail(std::string(kIsLeftSide), lhs.begin);
  const expr::Operand subject = lhs.kind == Kind::kPath
                                    ? expr::Operand::MakePath(BuildPath(lhs), At(lhs.begin))
                                    : expr::Operand::MakeValue(Value(lhs, "root"), At(lhs.begin));
  const bool negated = tail.children[0].kind == Kind::kNegate;
  const Node& type_node = tail.children.back();
  const std::string type = NormalizeTypeName(Text(type_node));
  expr::Condition c;
  c.kind = expr::ConditionKind::kFunction;
  c.position = At(lhs.begin);
  c.operands.push_back(subject);
  if (type == "MISSING") {
    c.function = negated ? "attribute_exists" : "attribute_not_exists";
    return c;
  }
  const std::string_view code = TypeCode(type);
  if (code.empty()) {
    Fail("Unsupported data type for IS operator: " + type +
             ". Supported data types are [MISSING, NULL, BOOLEAN, BLOB, STRING, NUMERIC, STRUCT, "
             "TUPLE, LIST]",
         type_node.begin);
  }
  c.function = "attribute_type";
  c.operands.push_back(
      expr::Operand::MakeValue(AttributeValue::S(std::string(code)), At(type_node.begin)));
  if (!negated) return c;
  expr::Condition negation;
  negation.kind = expr::ConditionKind::kNot;
  negation.position = c.position;
  negation.children.push_back(std::move(c));
  return negation;
}

expr::Condition Translator::FunctionCondition(const Node& call) const {
  const std::string written = FunctionName(call);
  const std::string name = AsciiLower(written);
  if (!IsConditionFunction(name)) {
    Fail("Unrecognized function: " + AsciiLower(written) + Loc(call.children[0]), call.begin);
  }
  expr::Condition c;
  c.kind = expr::ConditionKind::kFunction;
  c.function = name;
  c.position = At(call.begin);
  for (size_t i = 1; i < call.children.size(); ++i) {
    c.operands.push_back(Operand(call.children[i], name));
  }
  return c;
}

expr::Operand Translator::Operand(const Node& node, std::string_view op) const {
  const Node& n = Unwrap(node);
  if (n.kind == Kind::kPath) return expr::Operand::MakePath(BuildPath(n), At(n.begin));
  if (IsLiteralKind(n.kind)) return expr::Operand::MakeValue(Value(n, "root"), At(n.begin));
  switch (n.kind) {
    case Kind::kParen:
      if (n.children.size() == 1) return Operand(n.children[0], op);
      return expr::Operand::MakeValue(Value(n, "root"), At(n.begin));
    case Kind::kCall: {
      const std::string written = FunctionName(n);
      const std::string name = AsciiLower(written);
      if (name != "size" && !IsConditionFunction(name)) {
        Fail("Unrecognized function: " + AsciiLower(written) + Loc(n.children[0]), n.begin);
      }
      expr::Operand o;
      o.kind = expr::OperandKind::kFunction;
      o.function = name;
      o.position = At(n.begin);
      for (size_t i = 1; i < n.children.size(); ++i) o.args.push_back(Operand(n.children[i], name));
      return o;
    }
    case Kind::kArith:
      Fail("Unsupported operator in WHERE clause. Operator: " +
               std::string(OperatorText(n.children[1].kind)),
           n.children[1].begin);
    default:
      Fail("A condition cannot be used as an operand of " + std::string(op), n.begin);
  }
}

// ============================================================================================
// SET values
// ============================================================================================

void Translator::Assignment(const Node& assignment, expr::UpdateExpression* u) const {
  const Node& target = Unwrap(assignment.children[0]);
  if (target.kind != Kind::kPath) {
    Fail("Unrecognized assignment target: " + std::string(Text(target)), target.begin);
  }
  expr::Path path = BuildPath(target);
  const Node* value = &Unwrap(assignment.children.back());
  while (value->kind == Kind::kParen && value->children.size() == 1) {
    value = &Unwrap(value->children[0]);
  }
  if (value->kind == Kind::kCall) {
    const std::string name = AsciiLower(FunctionName(*value));
    if (name == "set_add" || name == "set_delete") {
      SetFunction(*value, path, At(assignment.begin), u);
      return;
    }
  }
  expr::UpdateAction action;
  action.kind = expr::UpdateActionKind::kSet;
  action.path = std::move(path);
  action.value = SetValue(*value);
  action.position = At(assignment.begin);
  u->actions.push_back(std::move(action));
}

expr::Operand Translator::SetValue(const Node& node) const {
  const Node& n = Unwrap(node);
  if (n.kind == Kind::kParen && n.children.size() == 1) return SetValue(n.children[0]);
  if (n.kind != Kind::kArith) return SetOperand(n);
  const Kind op = n.children[1].kind;
  if (op != Kind::kOpPlus && op != Kind::kOpMinus) {
    Fail("Unsupported operator in Update Expression. Operator: " + std::string(OperatorText(op)),
         n.children[1].begin);
  }
  if (n.children.size() > 3) {
    Fail("Only one + or - is supported in a SET value", n.children[3].begin);
  }
  expr::Operand o;
  o.kind = op == Kind::kOpPlus ? expr::OperandKind::kPlus : expr::OperandKind::kMinus;
  o.position = At(n.begin);
  o.args.push_back(SetOperand(n.children[0]));
  o.args.push_back(SetOperand(n.children[2]));
  return o;
}

expr::Operand Translator::SetOperand(const Node& node) const {
  const Node& n = Unwrap(node);
  if (n.kind == Kind::kPath) return expr::Operand::MakePath(BuildPath(n), At(n.begin));
  if (IsLiteralKind(n.kind)) return expr::Operand::MakeValue(Value(n, "root"), At(n.begin));
  switch (n.kind) {
    case Kind::kParen:
      if (n.children.size() == 1) return SetOperand(n.children[0]);
      return expr::Operand::MakeValue(Value(n, "root"), At(n.begin));
    case Kind::kCall: {
      const std::string written = FunctionName(n);
      const std::string name = AsciiLower(written);
      if (name != "list_append" && name != "if_not_exists") {
        Fail("Unrecognized function: " + AsciiLower(written) + Loc(n.children[0]), n.begin);
      }
      expr::Operand o;
      o.kind = expr::OperandKind::kFunction;
      o.function = name;
      o.position = At(n.begin);
      for (size_t i = 1; i < n.children.size(); ++i) o.args.push_back(SetOperand(n.children[i]));
      return o;
    }
    case Kind::kArith: {
      const Kind op = n.children[1].kind;
      if (op == Kind::kOpPlus || op == Kind::kOpMinus) {
        Fail("Only one + or - is supported in a SET value", n.children[1].begin);
      }
      Fail("Unsupported operator in Update Expression. Operator: " + std::string(OperatorText(op)),
           n.children[1].begin);
    }
    case Kind::kEqChain:
    case Kind::kCmpChain:
      if (n.children[1].kind == Kind::kIsTail) {
        Fail("IS operator is not supported in update expressions", n.children[1].begin);
      }
      Fail("Unsupported operator in Update Expression. Operator: " + ConditionOperator(n),
           n.children[1].begin);
    default:
      Fail("Unsupported operator in Update Expression. Operator: " + ConditionOperator(n), n.begin);
  }
}

void Translator::SetFunction(const Node& call, const expr::Path& target, size_t position,
                             expr::UpdateExpression* u) const {
  const std::string written = FunctionName(call);
  const std::string name = AsciiUpper(written);
  const std::string loc = Loc(call.children[0]);
  if (call.children.size() != 3) {
    Fail(name + " must have exactly two arguments" + loc, call.begin);
  }
  const Node& first = Unwrap(call.children[1]);
  if (first.kind != Kind::kPath || !(BuildPath(first) == target)) {
    Fail("The first argument to " + name + " must equal the assignment value" + loc, first.begin);
  }
  expr::Operand set = SetOperand(call.children[2]);
  if (set.kind != expr::OperandKind::kValue || !set.value.IsSet()) {
    // Positioned at the first argument, with its length (partiqlFunctions.test.ts, October
    // 2026).
    Fail("The second argument to " + name + " must be a value with type SET" + Loc(first),
         call.children[2].begin);
  }
  expr::UpdateAction action;
  action.kind = name == "SET_ADD" ? expr::UpdateActionKind::kAdd : expr::UpdateActionKind::kDelete;
  action.path = target;
  action.value = std::move(set);
  action.position = position;
  u->actions.push_back(std::move(action));
}

}  // namespace keyhole::parser::translate
