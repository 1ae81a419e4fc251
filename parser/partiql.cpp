// ParseStatement's pipeline (length, lexical check, syntax, parameters, translation) and the
// small public helpers of partiql.h.
#include "parser/partiql.h"

#include <atomic>
#include <memory>
#include <string>
#include <utility>

#include "core/utf8.h"
#include "parser/partiql_hints.h"
#include "parser/partiql_lexer.h"
#include "parser/partiql_syntax.h"
#include "parser/partiql_translate.h"
#include "parser/text_cache.h"

namespace keyhole::parser {
namespace {

// The begin offsets of the `?` nodes of a tree, in source order.
void CollectParameters(const syntax::Node& n, std::vector<size_t>* out) {
  if (n.kind == syntax::Kind::kParam) out->push_back(n.begin);
  for (const syntax::Node& child : n.children) CollectParameters(child, out);
}

// The offset of the first character past kMaxStatementChars, or npos.
size_t FirstCharPastLimit(std::string_view text) {
  if (text.size() <= kMaxStatementChars) return std::string_view::npos;  // a byte or more each
  size_t chars = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) continue;
    if (++chars > kMaxStatementChars) return i;
  }
  return std::string_view::npos;
}

// A statement's syntax tree and what translating it needs besides the text: the offsets of
// its `?` markers and the ends of its literal tokens (lexer::Shape), both in the text it was
// parsed from.
struct Prepared {
  syntax::Node root;
  std::vector<size_t> offsets;
  std::vector<size_t> literal_ends;
  uint64_t id = 0;  // Statement::shape_id of what is translated from it (0: not remembered)
};

std::atomic<uint64_t> next_prepared_id{1};

// The Prepared form of recently parsed DML statements, by lexer::Shape key (only those that
// parsed), at most 256 shapes. SDKs send one statement text with new parameters again and
// again, and scripts one statement with new literals: only the translation depends on those.
TextCache<Prepared>& PreparedCache() {
  static TextCache<Prepared> cache(256);
  return cache;
}

std::atomic<uint64_t> cache_hits{0};

// Statements whose trees are remembered: the DML, which is what comes back with new values.
bool Rememberable(const syntax::Node& root) {
  switch (root.kind) {
    case syntax::Kind::kSelect:
    case syntax::Kind::kInsert:
    case syntax::Kind::kUpdate:
    case syntax::Kind::kDelete:
    case syntax::Kind::kExists:
    case syntax::Kind::kScan:
    case syntax::Kind::kExplain:
      return true;
    default:
      return false;
  }
}

}  // namespace

std::string_view StatementKindName(StatementKind k) {
  static constexpr std::string_view kNames[] = {"SELECT",
                                                "INSERT",
                                                "UPDATE",
                                                "DELETE",
                                                "EXISTS",
                                                "CREATE TABLE",
                                                "DROP TABLE",
                                                "ALTER TABLE",
                                                "SHOW TABLES",
                                                "DESCRIBE",
                                                "SHOW CREATE TABLE",
                                                "BEGIN",
                                                "COMMIT",
                                                "ROLLBACK",
                                                "CALL",
                                                "NEXT"};
  static_assert(std::size(kNames) == std::variant_size_v<StatementBody>);
  return kNames[static_cast<size_t>(k)];
}

namespace {

// Every check of ParseStatement that does not need the parameters, and the syntax tree.
template <typename Error>
std::variant<std::shared_ptr<Prepared>, ParseError> Prepare(std::string_view text,
                                                            const Error& error,
                                                            bool check_length = true) {
  if (const auto bad = utf8::FindInvalid(text)) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    const auto byte = static_cast<unsigned char>(text[*bad]);
    return error(std::string("Invalid UTF-8 in the statement: the byte 0x") + kHex[byte >> 4] +
                     kHex[byte & 0xF] +
                     " here is not part of a valid UTF-8 character (text must be UTF-8)",
                 *bad, /*may_move=*/false);
  }
  std::vector<size_t> token_ends;  // none for CALL: its JSON is not PartiQL's tokens
  if (!lexer::FirstWordIs(text, "CALL")) {
    if (const size_t past = check_length ? FirstCharPastLimit(text) : std::string_view::npos;
        past != std::string_view::npos) {
      // DynamoDB's message; when a string, name or comment left open made the statement this
      // long, the caret points at where it was opened (the hint says so).
      const auto bad = lexer::FindLexicalError(text);
      const bool opened = bad && (text[*bad] == '\'' || text[*bad] == '"' || text[*bad] == '/');
      return error(
          "1 validation error detected: Value at 'statement' failed to satisfy "
          "constraint: Member must have length less than or equal to " +
              std::to_string(kMaxStatementChars),
          opened ? *bad : past);
    }
    if (const auto bad = lexer::FindLexicalError(text, &token_ends)) {
      return error(std::string(syntax::kEnvelope), *bad);
    }
  }
  std::variant<syntax::Node, syntax::Failure> tree = syntax::Parse(text, token_ends);
  if (const auto* failure = std::get_if<syntax::Failure>(&tree)) {
    return error(failure->message, failure->offset);
  }
  auto p = std::make_shared<Prepared>();
  p->root = std::move(std::get<syntax::Node>(tree));
  CollectParameters(p->root, &p->offsets);
  return p;
}

}  // namespace

namespace {

// ParseStatement without the cache; *shape, when not null, is `text`'s (its tree is remembered
// under it when the statement is DML and parses).
ParseResult ParseFully(std::string_view text, const std::vector<AttributeValue>& parameters,
                       const lexer::Shape* shape, bool check_length = true) {
  // A string left open earlier in a script is the likely culprit of any error after it: the
  // caret moves to where it began (partiql_hints.h, SwallowingString).
  auto error = [&](std::string message, size_t offset, bool may_move = true) {
    std::string hint;
    if (const auto open = may_move ? SwallowingString(text, offset) : std::nullopt) {
      offset = *open;
      hint = SwallowingStringHint(text, offset);
    }
    ParseError e{Status::Validation(std::move(message)), PositionOf(text, offset)};
    if (hint.empty()) hint = ParseHint(text, e);
    if (!hint.empty()) e.status.WithHint(std::move(hint));
    return e;
  };
  std::variant<std::shared_ptr<Prepared>, ParseError> p = Prepare(text, error, check_length);
  if (auto* e = std::get_if<ParseError>(&p)) return std::move(*e);
  std::shared_ptr<Prepared> prepared = std::get<0>(std::move(p));
  if (shape != nullptr && Rememberable(prepared->root)) {
    prepared->literal_ends = shape->literal_ends;
    prepared->id = next_prepared_id.fetch_add(1, std::memory_order_relaxed);
    PreparedCache().Add(shape->key, prepared);
  }
  const std::vector<size_t>& offsets = prepared->offsets;
  if (offsets.size() != parameters.size()) {
    return error("Number of parameters in request and statement don't match.",
                 offsets.size() > parameters.size() ? offsets[parameters.size()] : 0);
  }
  const translate::Translator translator(text, parameters, offsets);
  try {
    Statement statement = translate::BuildStatement(prepared->root, translator);
    statement.shape_id = prepared->id;
    return statement;
  } catch (const translate::Error& e) {
    return error(e.message, e.offset);
  }
}

}  // namespace

ParseResult ParseStatement(std::string_view text, const std::vector<AttributeValue>& parameters) {
  // A text that passes the checks that come before the syntax (UTF-8, length, lexical) and has
  // the shape of a remembered statement is translated from that statement's tree. Anything
  // else, and any error found on the way, takes the full path, so that errors, their positions
  // and hints are exactly those of a first parse.
  thread_local lexer::Shape shape;
  if (lexer::FirstWordIs(text, "CALL") || utf8::FindInvalid(text) ||
      FirstCharPastLimit(text) != std::string_view::npos || !lexer::ShapeOf(text, &shape)) {
    return ParseFully(text, parameters, nullptr);
  }
  const std::shared_ptr<const Prepared> prepared = PreparedCache().Find(shape.key);
  if (!prepared) return ParseFully(text, parameters, &shape);
  if (prepared->offsets.size() == parameters.size()) {
    const translate::Translator translator(text, parameters, prepared->offsets,
                                           prepared->literal_ends, shape.literal_ends);
    try {
      Statement statement = translate::BuildStatement(prepared->root, translator);
      statement.shape_id = prepared->id;
      cache_hits.fetch_add(1, std::memory_order_relaxed);
      return statement;
    } catch (const translate::Error&) {
    }
  }
  return ParseFully(text, parameters, nullptr);
}

bool LiteralsOf(std::string_view text, StatementLiterals* out) {
  thread_local lexer::Shape shape;
  if (lexer::FirstWordIs(text, "CALL") || utf8::FindInvalid(text) ||
      FirstCharPastLimit(text) != std::string_view::npos || !lexer::ShapeOf(text, &shape)) {
    return false;
  }
  out->shape.swap(shape.key);
  out->tokens.clear();
  for (size_t i = 0; i < shape.literal_ends.size(); ++i) {
    out->tokens.push_back(
        text.substr(shape.literal_starts[i], shape.literal_ends[i] - shape.literal_starts[i]));
  }
  return true;
}

std::optional<AttributeValue> LiteralValue(std::string_view token) {
  if (token.empty()) return std::nullopt;
  if (token.front() == '\'') {
    if (token.size() < 2 || token.back() != '\'') return std::nullopt;
    return AttributeValue::S(translate::Unquote(token));
  }
  Result<Number> number = Number::ParseAsBigDecimal(token);
  if (!number.ok()) return std::nullopt;
  return AttributeValue::N(std::move(*number));
}

uint64_t ParseStatementCacheHits() { return cache_hits.load(std::memory_order_relaxed); }

ParseResult ParseStatementUncached(std::string_view text,
                                   const std::vector<AttributeValue>& parameters) {
  return ParseFully(text, parameters, nullptr);
}

ParseResult ParseStatementIgnoringLength(std::string_view text) {
  return ParseFully(text, {}, nullptr, /*check_length=*/false);
}

VectorIndexSpec VectorIndexSpecOf(const VectorIndexDefinition& d,
                                  std::vector<AttributeDefinition>* definitions) {
  VectorIndexSpec spec;
  spec.name = d.name;
  spec.vector_attribute = d.vector_attribute;
  for (const SearchColumn& c : d.search) {
    spec.search_schema.push_back({c.name, c.hash ? "HASH" : "INLINE_FILTER"});
    const bool defined = std::ranges::any_of(
        *definitions, [&](const AttributeDefinition& a) { return a.name == c.name; });
    if (!defined) {
      definitions->push_back({c.name, c.type == ValueType::kN   ? "N"
                                      : c.type == ValueType::kB ? "B"
                                                                : "S"});
    }
  }
  spec.projection_type = d.projection.type == ProjectionType::kKeysOnly  ? "KEYS_ONLY"
                         : d.projection.type == ProjectionType::kInclude ? "INCLUDE"
                                                                         : "ALL";
  if (d.projection.type == ProjectionType::kInclude) {
    spec.non_key_attributes = d.projection.non_key_attributes;
  }
  spec.dimensions = d.dimensions;
  spec.distance_function = d.distance;
  return spec;
}

CreateTableRequest ToCreateTableRequest(const CreateTableStatement& s) {
  CreateTableRequest r;
  r.table_name = s.table;
  AddAttributeDefinitions(s.key, &r.attribute_definitions);
  r.key_schema = ToKeySchemaElements(s.key);
  for (const IndexDefinition& index : s.indexes) {
    AddAttributeDefinitions(index.key, &r.attribute_definitions);
    (index.kind == IndexKind::kGlobal ? r.global_secondary_indexes : r.local_secondary_indexes)
        .push_back(IndexSpecOf(index.name, index.key, index.projection));
  }
  for (const VectorIndexDefinition& v : s.vector_indexes) {
    r.vector_indexes.push_back(VectorIndexSpecOf(v, &r.attribute_definitions));
  }
  r.billing_mode = s.billing_mode;
  r.read_capacity_units = s.read_capacity_units;
  r.write_capacity_units = s.write_capacity_units;
  // BILLING PROVISIONED (READ r, WRITE w) gives each GSI the table's throughput: DynamoDB needs
  // one per GSI, and the DDL names one for the table.
  for (IndexSpec& spec : r.global_secondary_indexes) {
    spec.read_capacity_units = s.read_capacity_units;
    spec.write_capacity_units = s.write_capacity_units;
  }
  if (s.stream_view_type) {
    r.stream_specification = StreamSpecification{true, *s.stream_view_type};
  }
  return r;
}

}  // namespace keyhole::parser
