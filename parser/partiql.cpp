// ParseStatement's pipeline (length, lexical check, syntax, parameters, translation) and the
// small public helpers of partiql.h.
#include "parser/partiql.h"

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>

#include "parser/partiql_hints.h"
#include "parser/partiql_lexer.h"
#include "parser/partiql_syntax.h"
#include "parser/partiql_translate.h"

namespace keyhole::parser {
namespace {

// The begin offsets of the `?` nodes of a tree, in source order.
void CollectParameters(const syntax::Node& n, std::vector<size_t>* out) {
  if (n.kind == syntax::Kind::kParam) out->push_back(n.begin);
  for (const syntax::Node& child : n.children) CollectParameters(child, out);
}

// The offset of the first character past kMaxStatementChars, or npos.
size_t FirstCharPastLimit(std::string_view text) {
  size_t chars = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) continue;
    if (++chars > kMaxStatementChars) return i;
  }
  return std::string_view::npos;
}

// A statement's syntax tree and its `?` offsets: everything ParseStatement computes before
// the parameters are bound.
struct Prepared {
  syntax::Node root;
  std::vector<size_t> offsets;
};

// The Prepared form of recently parsed statement texts (only those that parsed). SDKs send one
// statement text with new parameters again and again, and only the translation depends on the
// parameters. At most kCapacity texts; full, it starts over. Thread-safe.
class PreparedCache {
 public:
  static PreparedCache& Get() {
    static PreparedCache cache;
    return cache;
  }
  std::shared_ptr<const Prepared> Find(std::string_view text) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = map_.find(text);
    return it == map_.end() ? nullptr : it->second;
  }
  void Add(std::string_view text, std::shared_ptr<const Prepared> p) {
    std::lock_guard<std::mutex> lock(mu_);
    if (map_.size() >= kCapacity) map_.clear();
    map_.emplace(std::string(text), std::move(p));
  }

 private:
  static constexpr size_t kCapacity = 256;
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };
  std::mutex mu_;
  std::unordered_map<std::string, std::shared_ptr<const Prepared>, Hash, std::equal_to<>> map_;
};

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
std::variant<std::shared_ptr<const Prepared>, ParseError> Prepare(std::string_view text,
                                                                  const Error& error) {
  if (const auto bad = lexer::FindInvalidUtf8(text)) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    const auto byte = static_cast<unsigned char>(text[*bad]);
    return error(std::string("Invalid UTF-8 in the statement: the byte 0x") + kHex[byte >> 4] +
                     kHex[byte & 0xF] +
                     " here is not part of a valid UTF-8 character (text must be UTF-8)",
                 *bad, /*may_move=*/false);
  }
  std::vector<size_t> token_ends;  // none for CALL: its JSON is not PartiQL's tokens
  if (!lexer::FirstWordIs(text, "CALL")) {
    if (const size_t past = FirstCharPastLimit(text); past != std::string_view::npos) {
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
  return std::shared_ptr<const Prepared>(std::move(p));
}

}  // namespace

ParseResult ParseStatement(std::string_view text, const std::vector<AttributeValue>& parameters) {
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
  // Only statements with `?` markers are worth remembering: their text comes back with new
  // parameters.
  const bool may_repeat = text.find('?') != std::string_view::npos;
  std::shared_ptr<const Prepared> prepared = may_repeat ? PreparedCache::Get().Find(text) : nullptr;
  if (!prepared) {
    std::variant<std::shared_ptr<const Prepared>, ParseError> p = Prepare(text, error);
    if (auto* e = std::get_if<ParseError>(&p)) return std::move(*e);
    prepared = std::get<0>(std::move(p));
    if (may_repeat && !prepared->offsets.empty()) PreparedCache::Get().Add(text, prepared);
  }
  const std::vector<size_t>& offsets = prepared->offsets;
  if (offsets.size() != parameters.size()) {
    return error("Number of parameters in request and statement don't match.",
                 offsets.size() > parameters.size() ? offsets[parameters.size()] : 0);
  }
  const translate::Translator translator(text, parameters, offsets);
  try {
    return translate::BuildStatement(prepared->root, translator);
  } catch (const translate::Error& e) {
    return error(e.message, e.offset);
  }
}

CreateTableRequest ToCreateTableRequest(const CreateTableStatement& s) {
  CreateTableRequest r;
  r.table_name = s.table;
  auto define = [&](const KeyAttribute& a) {
    for (const AttributeDefinition& d : r.attribute_definitions) {
      if (d.name == a.name) return;
    }
    r.attribute_definitions.push_back({a.name, std::string(TypeName(a.type))});
  };
  auto key_schema = [&](const KeySchema& key) {
    for (const KeyAttribute* a : key.Attributes()) define(*a);
    return ToKeySchemaElements(key);
  };
  r.key_schema = key_schema(s.key);
  for (const IndexDefinition& index : s.indexes) {
    IndexSpec spec;
    spec.name = index.name;
    spec.key_schema = key_schema(index.key);
    spec.projection_type = std::string(ProjectionTypeName(index.projection.type));
    if (index.projection.type == ProjectionType::kInclude) {
      spec.non_key_attributes = index.projection.non_key_attributes;
    }
    (index.kind == IndexKind::kGlobal ? r.global_secondary_indexes : r.local_secondary_indexes)
        .push_back(std::move(spec));
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
