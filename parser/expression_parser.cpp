// The PEGTL grammar of DynamoDB's native expressions and its translation to core/expression.h.
//
// Parsing is two steps. PEGTL's control hooks record the matches of the rules listed in
// NodeKindOf in one flat vector, dropping those of a failed alternative (so the backtracking
// grammar needs no hand-written undo; PEGTL's parse_tree did the same with a heap node per
// attempt), and the kept ones become a tree of Nodes. Builder then walks the tree once, in source
// order, producing the resolved AST and noting the first problem of each category (see
// expression_parser.h for the categories and their order).
#include "parser/expression_parser.h"

#include <tao/pegtl.hpp>
#include <tao/pegtl/contrib/analyze.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/evaluate.h"
#include "parser/reserved_words.h"
#include "parser/syntax_error.h"
#include "parser/text_cache.h"

namespace keyhole::parser {
namespace {

namespace pegtl = tao::pegtl;

// ============================================================================================
// Grammar. Layout follows taocpp/PEGTL contrib/json.hpp and src/example/pegtl/lua53.hpp: one
// struct per rule, bottom-up, keywords with a not-an-identifier lookahead, and a precedence
// ladder without left recursion (OR < AND < NOT < comparison/BETWEEN/IN/function/parentheses).
// ============================================================================================
namespace grammar {

using pegtl::eof;
using pegtl::failure;
using pegtl::istring;
using pegtl::list;
using pegtl::not_at;
using pegtl::one;
using pegtl::opt;
using pegtl::plus;
using pegtl::ranges;
using pegtl::seq;
using pegtl::sor;
using pegtl::star;
using pegtl::string;

// Tag: the rule starts a token. Syntax errors are reported at the furthest token start the
// parser tried, so that a token matched only in part (":" alone) is the token reported.
struct lexeme {};
// Tag: the rule opens a nesting level, counted against kMaxNestingDepth.
struct nesting {};

// ---- tokens (reference §3.1) ----

struct ws : star<one<' ', '\t', '\r', '\n'>> {};
struct id_char : ranges<'a', 'z', 'A', 'Z', '0', '9', '_'> {};
struct alpha : ranges<'a', 'z', 'A', 'Z'> {};
struct digit : ranges<'0', '9'> {};

template <typename Word>
struct keyword : seq<Word, not_at<id_char>>, lexeme {};
struct kw_and : keyword<istring<'A', 'N', 'D'>> {};
struct kw_or : keyword<istring<'O', 'R'>> {};
struct kw_not : keyword<istring<'N', 'O', 'T'>> {};
struct kw_between : keyword<istring<'B', 'E', 'T', 'W', 'E', 'E', 'N'>> {};
struct kw_in : keyword<istring<'I', 'N'>> {};
struct kw_set : keyword<istring<'S', 'E', 'T'>> {};
struct kw_remove : keyword<istring<'R', 'E', 'M', 'O', 'V', 'E'>> {};
struct kw_add : keyword<istring<'A', 'D', 'D'>> {};
struct kw_delete : keyword<istring<'D', 'E', 'L', 'E', 'T', 'E'>> {};

// The words that cannot be literal names, per language.
struct condition_keyword : sor<kw_and, kw_or, kw_not, kw_between, kw_in> {};
struct update_keyword : sor<kw_set, kw_remove, kw_add, kw_delete> {};
struct no_keyword : failure {};

struct lparen : one<'('>, lexeme {};
struct rparen : one<')'>, lexeme {};
struct lbracket : one<'['>, lexeme {};
struct rbracket : one<']'>, lexeme {};
struct dot : one<'.'>, lexeme {};
struct comma_char : one<','>, lexeme {};
struct equals : one<'='>, lexeme {};
struct end : eof, lexeme {};
struct comma : seq<ws, comma_char, ws> {};

struct name : seq<alpha, star<id_char>>, lexeme {};          // literal attribute or function name
struct name_ref : seq<one<'#'>, plus<id_char>>, lexeme {};   // ExpressionAttributeNames key
struct value_ref : seq<one<':'>, plus<id_char>>, lexeme {};  // ExpressionAttributeValues key
struct index_digits : plus<digit>, lexeme {};

// ---- document paths (reference §3.2) ----
// Whitespace is accepted around `.` and inside `[ ]` (moto's AWS-derived tokenizer tests parse
// "SET a [  2 ]. b = 5" up to the literal 5; reference Appendix D calls it the lenient choice).

template <typename Keyword>
struct ident : seq<not_at<Keyword>, name> {};
template <typename Keyword>
struct element : sor<ident<Keyword>, name_ref> {};
struct index : seq<lbracket, ws, index_digits, ws, rbracket> {};
template <typename Keyword>
struct member : seq<dot, ws, element<Keyword>> {};
template <typename Keyword>
struct path : seq<element<Keyword>, star<ws, sor<index, member<Keyword>>>> {};

// ---- operands (shared by conditions and updates) ----

template <typename Keyword>
struct operand;
template <typename Keyword>
struct paren_operand : seq<lparen, ws, operand<Keyword>, ws, rparen>, nesting {};
template <typename Keyword>
struct function_call
    : seq<ident<Keyword>, ws, lparen, ws, list<operand<Keyword>, comma>, ws, rparen>,
      nesting {};
template <typename Keyword>
struct operand : sor<paren_operand<Keyword>, function_call<Keyword>, value_ref, path<Keyword>> {};

// ---- conditions (reference §3.4; also KeyConditionExpression, §3.5) ----

using cond_operand = operand<condition_keyword>;

struct op_ne : string<'<', '>'>, lexeme {};
struct op_le : string<'<', '='>, lexeme {};
struct op_lt : one<'<'>, lexeme {};
struct op_ge : string<'>', '='>, lexeme {};
struct op_gt : one<'>'>, lexeme {};
struct op_eq : one<'='>, lexeme {};
struct comparator : sor<op_ne, op_le, op_lt, op_ge, op_gt, op_eq> {};

struct compare_tail : seq<comparator, ws, cond_operand> {};
// BETWEEN takes the first AND: `x BETWEEN :a AND :b AND y = :c` is (x BETWEEN :a AND :b) AND ...
struct between_tail : seq<kw_between, ws, cond_operand, ws, kw_and, ws, cond_operand> {};
struct in_tail : seq<kw_in, ws, lparen, ws, list<cond_operand, comma>, ws, rparen> {};
// An operand alone is not a condition: it needs a comparison, BETWEEN or IN after it...
struct operand_condition : seq<cond_operand, ws, sor<compare_tail, between_tail, in_tail>> {};
// ...unless it is a function call (attribute_exists(a), or size(a), refused later).
struct function_condition : seq<function_call<condition_keyword>> {};

struct condition;
struct paren_condition : seq<lparen, ws, condition, ws, rparen>, nesting {};
// operand_condition first, so that `(size(a)) > :v` reads `(size(a))` as an operand.
struct primary : sor<operand_condition, function_condition, paren_condition> {};
struct not_expr;
struct not_condition : seq<kw_not, ws, not_expr>, nesting {};
struct not_expr : sor<not_condition, primary> {};
struct and_condition : seq<not_expr, star<ws, kw_and, ws, not_expr>> {};
struct condition : seq<and_condition, star<ws, kw_or, ws, and_condition>> {};

struct condition_expression : seq<ws, condition, ws, end> {};

// ---- updates (reference §3.7) ----

using update_operand = operand<update_keyword>;
using update_path = path<update_keyword>;

struct plus_op : one<'+'>, lexeme {};
struct minus_op : one<'-'>, lexeme {};
// At most one + or -: `a + b + c` is a syntax error on AWS.
struct arithmetic : seq<update_operand, opt<ws, sor<plus_op, minus_op>, ws, update_operand>> {};
// One pair of parentheses around a whole SET value, as dynalite accepts.
struct paren_set_value : seq<lparen, ws, arithmetic, ws, rparen>, nesting {};
struct set_value : sor<arithmetic, paren_set_value> {};

struct set_action : seq<update_path, ws, equals, ws, set_value> {};
struct add_action : seq<update_path, ws, value_ref> {};
struct delete_action : seq<update_path, ws, value_ref> {};

struct set_clause : seq<kw_set, ws, list<set_action, comma>> {};
struct remove_clause : seq<kw_remove, ws, list<update_path, comma>> {};
struct add_clause : seq<kw_add, ws, list<add_action, comma>> {};
struct delete_clause : seq<kw_delete, ws, list<delete_action, comma>> {};
struct clause : sor<set_clause, remove_clause, add_clause, delete_clause> {};

// Clauses in any order with no separator; "used once" is checked on the tree.
struct update_expression : seq<ws, clause, star<ws, clause>, ws, end> {};

// ---- projections (reference §3.6) ----

struct projection_expression : seq<ws, list<path<no_keyword>, comma>, ws, end> {};

}  // namespace grammar

// ============================================================================================
// Parse tree
// ============================================================================================

enum class NodeKind {
  kNone,  // the root, and rules that are not kept
  kName,
  kNameRef,
  kValueRef,
  kIndex,
  kPath,
  kParenOperand,
  kFunctionCall,
  kOpEq,
  kOpNe,
  kOpLt,
  kOpLe,
  kOpGt,
  kOpGe,
  kCompareTail,
  kBetweenTail,
  kInTail,
  kOperandCondition,
  kFunctionCondition,
  kParenCondition,
  kNot,
  kAnd,
  kOr,
  kPlus,
  kMinus,
  kArithmetic,
  kParenSetValue,
  kSetAction,
  kAddAction,
  kDeleteAction,
  kSetClause,
  kRemoveClause,
  kAddClause,
  kDeleteClause,
};

// The rules kept in the parse tree, and their kinds.
template <typename Rule>
inline constexpr NodeKind kNodeKindOf = NodeKind::kNone;
// clang-format off
template <> inline constexpr NodeKind kNodeKindOf<grammar::name> = NodeKind::kName;
template <> inline constexpr NodeKind kNodeKindOf<grammar::name_ref> = NodeKind::kNameRef;
template <> inline constexpr NodeKind kNodeKindOf<grammar::value_ref> = NodeKind::kValueRef;
template <> inline constexpr NodeKind kNodeKindOf<grammar::index_digits> = NodeKind::kIndex;
template <typename K> inline constexpr NodeKind kNodeKindOf<grammar::path<K>> = NodeKind::kPath;
template <typename K>
inline constexpr NodeKind kNodeKindOf<grammar::paren_operand<K>> = NodeKind::kParenOperand;
template <typename K>
inline constexpr NodeKind kNodeKindOf<grammar::function_call<K>> = NodeKind::kFunctionCall;
template <> inline constexpr NodeKind kNodeKindOf<grammar::op_eq> = NodeKind::kOpEq;
template <> inline constexpr NodeKind kNodeKindOf<grammar::op_ne> = NodeKind::kOpNe;
template <> inline constexpr NodeKind kNodeKindOf<grammar::op_lt> = NodeKind::kOpLt;
template <> inline constexpr NodeKind kNodeKindOf<grammar::op_le> = NodeKind::kOpLe;
template <> inline constexpr NodeKind kNodeKindOf<grammar::op_gt> = NodeKind::kOpGt;
template <> inline constexpr NodeKind kNodeKindOf<grammar::op_ge> = NodeKind::kOpGe;
template <> inline constexpr NodeKind kNodeKindOf<grammar::compare_tail> = NodeKind::kCompareTail;
template <> inline constexpr NodeKind kNodeKindOf<grammar::between_tail> = NodeKind::kBetweenTail;
template <> inline constexpr NodeKind kNodeKindOf<grammar::in_tail> = NodeKind::kInTail;
template <>
inline constexpr NodeKind kNodeKindOf<grammar::operand_condition> = NodeKind::kOperandCondition;
template <>
inline constexpr NodeKind kNodeKindOf<grammar::function_condition> = NodeKind::kFunctionCondition;
template <>
inline constexpr NodeKind kNodeKindOf<grammar::paren_condition> = NodeKind::kParenCondition;
template <> inline constexpr NodeKind kNodeKindOf<grammar::not_condition> = NodeKind::kNot;
template <> inline constexpr NodeKind kNodeKindOf<grammar::and_condition> = NodeKind::kAnd;
template <> inline constexpr NodeKind kNodeKindOf<grammar::condition> = NodeKind::kOr;
template <> inline constexpr NodeKind kNodeKindOf<grammar::plus_op> = NodeKind::kPlus;
template <> inline constexpr NodeKind kNodeKindOf<grammar::minus_op> = NodeKind::kMinus;
template <> inline constexpr NodeKind kNodeKindOf<grammar::arithmetic> = NodeKind::kArithmetic;
template <>
inline constexpr NodeKind kNodeKindOf<grammar::paren_set_value> = NodeKind::kParenSetValue;
template <> inline constexpr NodeKind kNodeKindOf<grammar::set_action> = NodeKind::kSetAction;
template <> inline constexpr NodeKind kNodeKindOf<grammar::add_action> = NodeKind::kAddAction;
template <> inline constexpr NodeKind kNodeKindOf<grammar::delete_action> = NodeKind::kDeleteAction;
template <> inline constexpr NodeKind kNodeKindOf<grammar::set_clause> = NodeKind::kSetClause;
template <> inline constexpr NodeKind kNodeKindOf<grammar::remove_clause> = NodeKind::kRemoveClause;
template <> inline constexpr NodeKind kNodeKindOf<grammar::add_clause> = NodeKind::kAddClause;
template <> inline constexpr NodeKind kNodeKindOf<grammar::delete_clause> = NodeKind::kDeleteClause;
// clang-format on

template <typename Rule>
struct Selector : std::bool_constant<kNodeKindOf<Rule> != NodeKind::kNone> {};

// A kept rule's match.
struct Node {
  NodeKind kind = NodeKind::kNone;
  const char* begin = nullptr;
  const char* end = nullptr;
  std::span<Node* const> children;  // in the Tree's `children`
  std::string_view string_view() const { return std::string_view(begin, end - begin); }
  std::string string() const { return std::string(begin, end); }
};

// A kept rule's match while parsing, in ParseState::nodes: its descendants follow it, up to
// `last`.
struct FlatNode {
  NodeKind kind;
  uint32_t begin = 0;  // offsets in the text
  uint32_t end = 0;
  uint32_t last = 0;  // one past its last descendant
};

struct ParseState {
  const char* begin = nullptr;
  size_t furthest = 0;          // furthest token start tried, for the syntax error
  int depth = 0;                // open nesting rules
  std::vector<FlatNode> nodes;  // preorder
  std::vector<uint32_t> open;   // indexes in `nodes` of the kept rules being matched
};

// Thrown when the input nests deeper than kMaxNestingDepth; caught in ParseTree().
struct TooDeep {
  size_t offset;
};

template <typename Rule>
struct Control : pegtl::normal<Rule> {
  static constexpr bool kLexeme = std::is_base_of_v<grammar::lexeme, Rule>;
  static constexpr bool kNesting = std::is_base_of_v<grammar::nesting, Rule>;

  template <typename ParseInput>
  static void start(const ParseInput& in, ParseState& st) {
    const auto at = static_cast<size_t>(in.current() - st.begin);
    if constexpr (kLexeme) st.furthest = std::max(st.furthest, at);
    if constexpr (kNesting) {
      if (++st.depth > kMaxNestingDepth) throw TooDeep{at};
    }
    if constexpr (Selector<Rule>::value) {
      st.open.push_back(static_cast<uint32_t>(st.nodes.size()));
      st.nodes.push_back({kNodeKindOf<Rule>, static_cast<uint32_t>(at)});
    }
  }
  template <typename ParseInput>
  static void success(const ParseInput& in, ParseState& st) {
    if constexpr (kNesting) --st.depth;
    if constexpr (Selector<Rule>::value) {
      FlatNode& n = st.nodes[st.open.back()];
      st.open.pop_back();
      n.end = static_cast<uint32_t>(in.current() - st.begin);
      n.last = static_cast<uint32_t>(st.nodes.size());
    }
  }
  template <typename ParseInput>
  static void failure(const ParseInput& /*in*/, ParseState& st) {
    if constexpr (kNesting) --st.depth;
    if constexpr (Selector<Rule>::value) {
      st.nodes.resize(st.open.back());
      st.open.pop_back();
    }
  }
};

Status Invalid(expr::Kind kind, std::string_view message) {
  return Status::Validation(expr::ErrorPrefix(kind) + std::string(message));
}

bool IsBlank(std::string_view text) {
  return text.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

// A parse tree in three allocations: every kept match, every child pointer, and the root (not
// a rule's match: its children are the top-level kept rules).
struct Tree {
  std::vector<Node> nodes;
  std::vector<Node*> children;
  Node root;

  Tree(const std::vector<FlatNode>& flat, std::string_view text) {
    nodes.reserve(flat.size());
    children.reserve(flat.size());
    root.begin = text.data();
    root.end = text.data() + text.size();
    Build(flat, text.data(), 0, flat.size(), &root);
  }

 private:
  // The flat nodes [from, to) that are not descendants of one another, and theirs, as the
  // children of `out`.
  void Build(const std::vector<FlatNode>& flat, const char* text, size_t from, size_t to,
             Node* out) {
    const size_t first = children.size();
    for (size_t c = from; c < to; c = flat[c].last) {
      Node& n = nodes.emplace_back();
      n.kind = flat[c].kind;
      n.begin = text + flat[c].begin;
      n.end = text + flat[c].end;
      children.push_back(&n);
    }
    out->children = std::span<Node* const>(children.data() + first, children.size() - first);
    for (size_t c = from, k = first; c < to; c = flat[c].last, ++k)
      Build(flat, text, c + 1, flat[c].last, children[k]);
  }
};

// A text and its parse tree (whose nodes point into `text`). Never moved once made.
struct ParsedText {
  ParsedText(std::string_view t, const std::vector<FlatNode>& flat) : text(t), tree(flat, text) {}
  const std::string text;
  const Tree tree;
};

// Steps 1-3 of expression_parser.h: emptiness, size, syntax. The root is not a rule's match:
// its children are the top-level kept rules. The trees of the last 256 texts that parsed are
// remembered (one cache per grammar): SDKs send the same expression with new values, and only
// the resolution depends on those.
template <typename Grammar>
Result<std::shared_ptr<const ParsedText>> ParseTree(std::string_view text, expr::Kind kind) {
  static TextCache<ParsedText> cache(256);
  if (std::shared_ptr<const ParsedText> hit = cache.Find(text)) return hit;
  if (IsBlank(text)) return Invalid(kind, "The expression can not be empty;");
  if (text.size() > kMaxExpressionBytes) {
    // An UpdateExpression's message gives no size (deepRequests.test.ts, ten regions, October
    // 2026); a condition's does (Alternator's test_limits.py, against AWS).
    if (kind == expr::Kind::kUpdate) {
      return Invalid(kind, "Expression size has exceeded the maximum allowed size;");
    }
    return Invalid(kind,
                   "Expression size has exceeded the maximum allowed size; expression size: " +
                       std::to_string(text.size()));
  }
  // One state per thread, reused: its vectors keep their capacity from parse to parse.
  thread_local ParseState st;
  st.begin = text.data();
  st.furthest = 0;
  st.depth = 0;
  st.nodes.clear();
  st.open.clear();
  pegtl::memory_input<pegtl::tracking_mode::lazy> in(text.data(), text.size(), "expression");
  try {
    if (pegtl::parse<Grammar, pegtl::nothing, Control>(in, st)) {
      auto parsed = std::make_shared<const ParsedText>(text, st.nodes);
      cache.Add(text, parsed);
      return parsed;
    }
  } catch (const TooDeep& e) {
    return Invalid(kind, SyntaxErrorText(text, e.offset));
  }
  return Invalid(kind, SyntaxErrorText(text, st.furthest));
}

// ============================================================================================
// Parse tree -> resolved AST
// ============================================================================================

constexpr size_t kMaxPathElements = 32;

// Problem categories, in reporting order (expression_parser.h, steps 4-8).
enum Category { kPathLimit, kRedundant, kReserved, kSection, kUndefined, kCategoryCount };

class Builder {
 public:
  // `conditions`: the redundant-parentheses rule applies (it does not in UpdateExpression, where
  // dynalite accepts `SET a = ((:v))` and nothing says AWS refuses it).
  Builder(std::string_view text, const Placeholders& placeholders, bool conditions)
      : text_(text), placeholders_(placeholders), conditions_(conditions) {}

  expr::Condition BuildCondition(const Node& n);
  expr::UpdateExpression BuildUpdate(const Node& root);
  expr::ProjectionExpression BuildProjection(const Node& root);

  // The message of the first problem in category order; null when there is none.
  const std::string* FirstProblem() const {
    for (const auto& p : problems_) {
      if (p) return &*p;
    }
    return nullptr;
  }

  // Adds the placeholders this expression used to *used (may be null).
  void ReportUsed(UsedPlaceholders* used) {
    if (used == nullptr) return;
    for (std::string_view name : used_names_) used->names.emplace(name);
    for (std::string_view name : used_values_) used->values.emplace(name);
  }

 private:
  void Note(Category c, std::string message) {
    if (!problems_[c]) problems_[c] = std::move(message);
  }
  size_t Offset(const Node& n) const { return static_cast<size_t>(n.begin - text_.data()); }

  expr::Path BuildPath(const Node& n);
  expr::Operand BuildOperand(const Node& n, bool* redundant);
  std::string ResolveName(const Node& n);
  AttributeValue ResolveValue(const Node& n);

  std::string_view text_;
  const Placeholders& placeholders_;
  const bool conditions_;
  std::array<std::optional<std::string>, kCategoryCount> problems_;
  // The placeholders resolved, as views of their names in the placeholder maps (which outlive
  // the builder); few and often repeated, so a vector beats a set.
  std::vector<std::string_view> used_names_;
  std::vector<std::string_view> used_values_;
};

void NoteUse(std::string_view name, std::vector<std::string_view>* used) {
  if (std::find(used->begin(), used->end(), name) == used->end()) used->push_back(name);
}

std::string Builder::ResolveName(const Node& n) {
  std::string ref = n.string();
  if (placeholders_.names != nullptr) {
    auto it = placeholders_.names->find(ref);
    if (it != placeholders_.names->end()) {
      NoteUse(it->first, &used_names_);
      return it->second;
    }
  }
  Note(kUndefined,
       "An expression attribute name used in the document path is not defined; attribute name: " +
           ref);
  return ref;
}

AttributeValue Builder::ResolveValue(const Node& n) {
  std::string ref = n.string();
  if (placeholders_.values != nullptr) {
    auto it = placeholders_.values->find(ref);
    if (it != placeholders_.values->end()) {
      NoteUse(it->first, &used_values_);
      return it->second;
    }
  }
  Note(kUndefined,
       "An expression attribute value used in expression is not defined; attribute value: " + ref);
  return AttributeValue();
}

expr::Path Builder::BuildPath(const Node& n) {
  expr::Path path;
  for (const auto& child : n.children) {
    expr::PathElement e;
    switch (child->kind) {
      case NodeKind::kName:
        e.name = child->string();
        if (IsReservedWord(e.name)) {
          Note(kReserved, "Attribute name is a reserved keyword; reserved keyword: " + e.name);
        }
        break;
      case NodeKind::kNameRef:
        e.name = ResolveName(*child);
        break;
      case NodeKind::kIndex: {
        const std::string_view digits = child->string_view();
        e.is_index = true;
        for (char d : digits) {
          e.index = e.index * 10 + (d - '0');
          if (e.index > INT32_MAX) {
            Note(kPathLimit, "List index is not within the allowable range; index: [" +
                                 std::string(digits) + "]");
            break;
          }
        }
        break;
      }
      default:
        continue;
    }
    path.elements.push_back(std::move(e));
  }
  if (path.elements.size() > kMaxPathElements) {
    Note(kPathLimit, "The document path has too many nesting levels; nesting levels: " +
                         std::to_string(path.elements.size()));
  }
  return path;
}

expr::Operand Builder::BuildOperand(const Node& n, bool* redundant) {
  expr::Operand o;
  o.position = Offset(n);
  switch (n.kind) {
    case NodeKind::kPath:
      o.kind = expr::OperandKind::kPath;
      o.path = BuildPath(n);
      break;
    case NodeKind::kValueRef:
      o.kind = expr::OperandKind::kValue;
      o.value = ResolveValue(n);
      break;
    case NodeKind::kFunctionCall:
      o.kind = expr::OperandKind::kFunction;
      o.function = n.children[0]->string();
      for (size_t i = 1; i < n.children.size(); ++i) {
        o.args.push_back(BuildOperand(*n.children[i], redundant));
      }
      break;
    case NodeKind::kParenOperand: {
      const Node& inner = *n.children[0];
      if (conditions_ && inner.kind == NodeKind::kParenOperand) {
        *redundant = true;
        Note(kRedundant, "The expression has redundant parentheses;");
      }
      return BuildOperand(inner, redundant);
    }
    case NodeKind::kParenSetValue:
      return BuildOperand(*n.children[0], redundant);
    case NodeKind::kArithmetic:
      if (n.children.size() == 1) return BuildOperand(*n.children[0], redundant);
      o.kind = n.children[1]->kind == NodeKind::kPlus ? expr::OperandKind::kPlus
                                                      : expr::OperandKind::kMinus;
      o.args.push_back(BuildOperand(*n.children[0], redundant));
      o.args.push_back(BuildOperand(*n.children[2], redundant));
      break;
    default:
      break;
  }
  return o;
}

// The node a condition node stands for once single-child AND/OR levels are skipped.
const Node& Unwrap(const Node& n) {
  const Node* p = &n;
  while ((p->kind == NodeKind::kOr || p->kind == NodeKind::kAnd) && p->children.size() == 1) {
    p = p->children[0];
  }
  return *p;
}

expr::CompareOp CompareOpOf(NodeKind k) {
  switch (k) {
    case NodeKind::kOpNe:
      return expr::CompareOp::kNe;
    case NodeKind::kOpLt:
      return expr::CompareOp::kLt;
    case NodeKind::kOpLe:
      return expr::CompareOp::kLe;
    case NodeKind::kOpGt:
      return expr::CompareOp::kGt;
    case NodeKind::kOpGe:
      return expr::CompareOp::kGe;
    default:
      return expr::CompareOp::kEq;
  }
}

expr::Condition Builder::BuildCondition(const Node& n) {
  expr::Condition c;
  c.position = Offset(n);
  switch (n.kind) {
    case NodeKind::kOr:
    case NodeKind::kAnd:
      if (n.children.size() == 1) return BuildCondition(*n.children[0]);
      c.kind = n.kind == NodeKind::kOr ? expr::ConditionKind::kOr : expr::ConditionKind::kAnd;
      for (const auto& child : n.children) c.children.push_back(BuildCondition(*child));
      break;
    case NodeKind::kNot:
      c.kind = expr::ConditionKind::kNot;
      c.children.push_back(BuildCondition(*n.children[0]));
      break;
    case NodeKind::kParenCondition: {
      const Node& inner = *n.children[0];
      c = BuildCondition(inner);
      if (Unwrap(inner).kind == NodeKind::kParenCondition) {
        c.redundant_parentheses = true;
        Note(kRedundant, "The expression has redundant parentheses;");
      }
      break;
    }
    case NodeKind::kOperandCondition: {
      bool redundant = false;
      c.operands.push_back(BuildOperand(*n.children[0], &redundant));
      const Node& tail = *n.children[1];
      size_t first = 0;
      if (tail.kind == NodeKind::kCompareTail) {
        c.kind = expr::ConditionKind::kCompare;
        c.op = CompareOpOf(tail.children[0]->kind);
        first = 1;
      } else {
        c.kind = tail.kind == NodeKind::kBetweenTail ? expr::ConditionKind::kBetween
                                                     : expr::ConditionKind::kIn;
      }
      for (size_t i = first; i < tail.children.size(); ++i) {
        c.operands.push_back(BuildOperand(*tail.children[i], &redundant));
      }
      c.redundant_parentheses = redundant;
      break;
    }
    case NodeKind::kFunctionCondition: {
      bool redundant = false;
      expr::Operand call = BuildOperand(*n.children[0], &redundant);
      c.kind = expr::ConditionKind::kFunction;
      c.function = std::move(call.function);
      c.operands = std::move(call.args);
      c.redundant_parentheses = redundant;
      break;
    }
    default:
      break;
  }
  return c;
}

expr::UpdateExpression Builder::BuildUpdate(const Node& root) {
  expr::UpdateExpression u;
  std::array<bool, 4> seen{};
  for (const auto& clause : root.children) {
    expr::UpdateActionKind kind = expr::UpdateActionKind::kSet;
    std::string_view section = "SET";
    switch (clause->kind) {
      case NodeKind::kRemoveClause:
        kind = expr::UpdateActionKind::kRemove;
        section = "REMOVE";
        break;
      case NodeKind::kAddClause:
        kind = expr::UpdateActionKind::kAdd;
        section = "ADD";
        break;
      case NodeKind::kDeleteClause:
        kind = expr::UpdateActionKind::kDelete;
        section = "DELETE";
        break;
      default:
        break;
    }
    if (seen[static_cast<size_t>(kind)]) {
      Note(kSection, "The \"" + std::string(section) +
                         "\" section can only be used once in an update expression;");
    }
    seen[static_cast<size_t>(kind)] = true;
    for (const auto& action : clause->children) {
      expr::UpdateAction a;
      a.kind = kind;
      a.position = Offset(*action);
      if (kind == expr::UpdateActionKind::kRemove) {
        a.path = BuildPath(*action);
      } else {
        bool redundant = false;
        a.path = BuildPath(*action->children[0]);
        a.value = BuildOperand(*action->children[1], &redundant);
      }
      u.actions.push_back(std::move(a));
    }
  }
  return u;
}

expr::ProjectionExpression Builder::BuildProjection(const Node& root) {
  expr::ProjectionExpression p;
  for (const auto& path : root.children) p.paths.push_back(BuildPath(*path));
  return p;
}

}  // namespace

namespace {

constexpr std::string_view kUndefinedMarker = "\x00keyhole-undefined-value\x00";

// The top-level AND's clauses of `c`, in order.
void Clauses(const expr::Condition& c, std::vector<const expr::Condition*>* out) {
  if (c.kind != expr::ConditionKind::kAnd) {
    out->push_back(&c);
    return;
  }
  for (const expr::Condition& child : c.children) Clauses(child, out);
}

// The name of the undefined value standing in an operand of `c` (a marker), or "".
std::string UndefinedIn(const expr::Condition& c) {
  auto in = [](const expr::Operand& o, auto& self) -> std::string {
    if (o.kind == expr::OperandKind::kValue && o.value.is(ValueType::kB) &&
        o.value.s().starts_with(kUndefinedMarker)) {
      return o.value.s().substr(kUndefinedMarker.size());
    }
    for (const expr::Operand& a : o.args) {
      if (std::string n = self(a, self); !n.empty()) return n;
    }
    return "";
  };
  for (const expr::Operand& o : c.operands) {
    if (std::string n = in(o, in); !n.empty()) return n;
  }
  for (const expr::Condition& child : c.children) {
    if (std::string n = UndefinedIn(child); !n.empty()) return n;
  }
  return "";
}

// A KeyConditionExpression with an undefined value: DynamoDB walks its clauses in written
// order, checking each completely, so an earlier clause's operand type beats a later undefined
// value (validation-ordering/queryKeyCondition.test.ts, eu-west-2, October 2026). Builds the
// condition with a marker for each undefined value, then reports the first clause's problem.
Status KeyConditionProblemInOrder(const ParsedText& parsed, const Placeholders& placeholders,
                                  const std::string& problem) {
  std::map<std::string, AttributeValue> values;
  if (placeholders.values) values = *placeholders.values;
  const std::string& t = parsed.text;
  for (size_t i = 0; i < t.size(); ++i) {
    if (t[i] != ':') continue;
    size_t j = i + 1;
    while (j < t.size() && (std::isalnum(static_cast<unsigned char>(t[j])) || t[j] == '_')) ++j;
    const std::string name = t.substr(i, j - i);
    if (name.size() > 1 && !values.count(name)) {
      values[name] = AttributeValue::B(std::string(kUndefinedMarker) + name);
    }
  }
  Placeholders marked{placeholders.names, &values};
  Builder builder(parsed.text, marked, /*conditions=*/true);
  expr::Condition c = builder.BuildCondition(*parsed.tree.root.children[0]);
  if (builder.FirstProblem()) return Invalid(expr::Kind::kKeyCondition, problem);
  std::vector<const expr::Condition*> clauses;
  Clauses(c, &clauses);
  for (const expr::Condition* clause : clauses) {
    if (std::string name = UndefinedIn(*clause); !name.empty()) {
      return Invalid(expr::Kind::kKeyCondition,
                     "An expression attribute value used in expression is not defined; "
                     "attribute value: " +
                         name);
    }
    KH_RETURN_IF_ERROR(expr::CheckKeyConditionShape(*clause));
  }
  return Invalid(expr::Kind::kKeyCondition, problem);
}

}  // namespace

Result<expr::Condition> ParseCondition(std::string_view text, expr::Kind kind,
                                       const Placeholders& placeholders, UsedPlaceholders* used) {
  KH_ASSIGN_OR_RETURN(std::shared_ptr<const ParsedText> parsed,
                      ParseTree<grammar::condition_expression>(text, kind));
  Builder builder(parsed->text, placeholders, /*conditions=*/true);
  expr::Condition c = builder.BuildCondition(*parsed->tree.root.children[0]);
  if (const auto* problem = builder.FirstProblem()) {
    if (kind == expr::Kind::kKeyCondition &&
        problem->starts_with("An expression attribute value used in expression is not defined")) {
      return KeyConditionProblemInOrder(*parsed, placeholders, *problem);
    }
    return Invalid(kind, *problem);
  }
  builder.ReportUsed(used);
  return c;
}

Result<expr::UpdateExpression> ParseUpdate(std::string_view text, const Placeholders& placeholders,
                                           UsedPlaceholders* used) {
  constexpr expr::Kind kKind = expr::Kind::kUpdate;
  KH_ASSIGN_OR_RETURN(std::shared_ptr<const ParsedText> parsed,
                      ParseTree<grammar::update_expression>(text, kKind));
  Builder builder(parsed->text, placeholders, /*conditions=*/false);
  expr::UpdateExpression u = builder.BuildUpdate(parsed->tree.root);
  if (const auto* problem = builder.FirstProblem()) return Invalid(kKind, *problem);
  builder.ReportUsed(used);
  return u;
}

Result<expr::ProjectionExpression> ParseProjection(std::string_view text,
                                                   const Placeholders& placeholders,
                                                   UsedPlaceholders* used) {
  constexpr expr::Kind kKind = expr::Kind::kProjection;
  KH_ASSIGN_OR_RETURN(std::shared_ptr<const ParsedText> parsed,
                      ParseTree<grammar::projection_expression>(text, kKind));
  Builder builder(parsed->text, placeholders, /*conditions=*/false);
  expr::ProjectionExpression p = builder.BuildProjection(parsed->tree.root);
  if (const auto* problem = builder.FirstProblem()) return Invalid(kKind, *problem);
  builder.ReportUsed(used);
  return p;
}

size_t AnalyzeGrammars(bool verbose) {
  const int v = verbose ? 1 : 0;
  return pegtl::analyze<grammar::condition_expression>(v) +
         pegtl::analyze<grammar::update_expression>(v) +
         pegtl::analyze<grammar::projection_expression>(v);
}

}  // namespace keyhole::parser
