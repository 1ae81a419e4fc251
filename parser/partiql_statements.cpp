// Syntax tree -> Statement: SELECT, INSERT, UPDATE, DELETE, EXISTS (through the Translator) and
// keyhole's own statements (contract in partiql.h).
#include <algorithm>
#include <cctype>
#include <map>
#include <string>
#include <utility>

#include "core/json.h"
#include "parser/partiql_translate.h"

namespace keyhole::parser::translate {

using syntax::Kind;

namespace {

std::string Upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

// The first child of kind `k`, or nullptr.
const Node* Find(const Node& n, Kind k) {
  for (const Node& child : n.children) {
    if (child.kind == k) return &child;
  }
  return nullptr;
}

// ============================================================================================
// DML
// ============================================================================================

class DmlBuilder {
 public:
  explicit DmlBuilder(const Translator& t) : t_(t) {}

  SelectStatement Select(const Node& n) const;
  InsertStatement Insert(const Node& n) const;
  UpdateStatement Update(const Node& n) const;
  DeleteStatement Delete(const Node& n) const;

 private:
  void Projection(const Node& n, SelectStatement* s) const;
  void Source(const Node& n, SelectStatement* s) const;
  void OrderBy(const Node& n, SelectStatement* s) const;
  bool Nearest(const Node& n, SelectStatement* s) const;
  std::string Target(const Node& path) const;
  void CheckTableName(const std::string& name, size_t offset) const;
  ReturnValues Returning(const Node& n) const;

  const Translator& t_;
};

void DmlBuilder::CheckTableName(const std::string& name, size_t offset) const {
  const bool chars_ok = std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
  });
  if (!chars_ok || name.size() < 3 || name.size() > 255) {
    t_.Fail(
        "Table name should be within the length [3, 255] and only contain 'a-z', 'A-Z', "
        "'0-9', '-', '_', '.'.",
        offset);
  }
}

// The table of a DML statement: one name.
std::string DmlBuilder::Target(const Node& path) const {
  const expr::Path p = t_.BuildPath(path);
  if (p.elements.size() != 1 || p.elements[0].is_index) {
    t_.Fail("FROM clause may only contain a single table name in data manipulation statements",
            path.begin);
  }
  CheckTableName(p.elements[0].name, path.begin);
  return p.elements[0].name;
}

void DmlBuilder::Projection(const Node& n, SelectStatement* s) const {
  const bool star = Find(n, Kind::kStar) != nullptr;
  if (star && n.children.size() > 1) {
    const Node& other = n.children[0].kind == Kind::kStar ? n.children[1] : n.children[0];
    t_.Fail("Other attributes should not be present in the projection when '*' is used.",
            other.begin);
  }
  s->select_all = star;
  if (star) return;
  for (const Node& child : n.children) {
    const Node& item = Unwrap(child);
    if (item.kind != Kind::kPath) {
      // A call is positioned at its name, with the name's length (`attribute_exists(ss)`:
      // 1:8:16, partiqlFunctions.test.ts, October 2026).
      const Node& at = item.kind == Kind::kCall && !item.children.empty() ? item.children[0] : item;
      t_.Fail("Unexpected path component" + t_.Loc(at), item.begin);
    }
    expr::Path path = t_.BuildPath(item);
    if (std::find(s->projection.begin(), s->projection.end(), path) != s->projection.end()) {
      t_.Fail("Duplicate identifiers in select clause: " + std::string(t_.Text(item)), item.begin);
    }
    s->projection.push_back(std::move(path));
  }
}

void DmlBuilder::Source(const Node& n, SelectStatement* s) const {
  const Node& source = Unwrap(n.children[0]);
  if (source.kind != Kind::kPath) {
    t_.Fail("Only select from a single table or index is supported.", source.begin);
  }
  const expr::Path p = t_.BuildPath(source);
  if (p.elements.size() > 2) {
    t_.Fail("A path may contain at most 2 components in the FROM clause", source.begin);
  }
  for (const expr::PathElement& e : p.elements) {
    if (e.is_index) t_.Fail("Only select from a single table or index is supported.", source.begin);
  }
  CheckTableName(p.elements[0].name, source.begin);
  s->table = p.elements[0].name;
  if (p.elements.size() == 2) s->index = p.elements[1].name;
}

// How partiql-lang-kotlin names the type of an ORDER BY argument that is not a plain name.
std::string OrderByArgumentType(const Node& n) {
  switch (n.kind) {
    case Kind::kPath:
      return "Path";
    case Kind::kParam:
      return "Parameter";
    case Kind::kCall:
      return "Call";
    case Kind::kString:
    case Kind::kNumber:
    case Kind::kTrue:
    case Kind::kFalse:
    case Kind::kNull:
    case Kind::kMissing:
      return "Literal";
    case Kind::kList:
    case Kind::kBag:
    case Kind::kStruct:
    case Kind::kParen:
      return "Collection";
    default:
      return "Expression";
  }
}

// ORDER BY VECTOR_DISTANCE(attr, [n, ...]) [LIMIT k]: keyhole's vector search.
bool DmlBuilder::Nearest(const Node& n, SelectStatement* s) const {
  const Node& item = n.children[0];
  const Node& key = Unwrap(item.children[0]);
  if (key.kind != Kind::kCall || key.children.empty() ||
      Upper(t_.Text(key.children[0])) != "VECTOR_DISTANCE") {
    return false;
  }
  constexpr const char* kUsage =
      "VECTOR_DISTANCE takes the vector attribute and the search vector: ORDER BY "
      "VECTOR_DISTANCE(embedding, [0.1, 0.2, 0.3]) LIMIT 5";
  if (key.children.size() != 3) t_.Fail(kUsage, key.begin);
  const Node& attr = Unwrap(key.children[1]);
  if (attr.kind != Kind::kPath || attr.children.size() != 1) t_.Fail(kUsage, attr.begin);
  const Node& vector = Unwrap(key.children[2]);
  if (vector.kind != Kind::kList) t_.Fail(kUsage, vector.begin);
  NearestOrder order;
  order.attribute = t_.BuildPath(attr).elements[0].name;
  order.vector = t_.Value(vector, "VECTOR_DISTANCE").l();
  if (Find(item, Kind::kDesc) || Find(item, Kind::kAsc)) {
    t_.Fail("ORDER BY VECTOR_DISTANCE(...) takes no ASC or DESC: the nearest come first",
            item.begin);
  }
  if (const Node* limit = Find(n, Kind::kLimit)) {
    int64_t k = 0;
    const AttributeValue count = t_.Value(limit->children[0], "LIMIT");
    if (!count.is(ValueType::kN) || !count.n().ToInt64(&k)) {
      t_.Fail("LIMIT takes a whole number: the K of the search (1 to 100)", limit->begin);
    }
    order.limit = k;
  }
  s->nearest = std::move(order);
  return true;
}

void DmlBuilder::OrderBy(const Node& n, SelectStatement* s) const {
  if (Nearest(n, s)) return;
  if (!s->where) {
    t_.Fail("Must have WHERE clause in the statement when using ORDER BY clause.", n.begin);
  }
  for (const Node& item : n.children) {
    const Node& key = Unwrap(item.children[0]);
    if (key.kind == Kind::kPath && key.children.size() == 1) {
      const expr::Path p = t_.BuildPath(key);
      s->order_by.push_back(OrderKey{p.elements[0].name, Find(item, Kind::kDesc) != nullptr});
      continue;
    }
    t_.Fail(
        "Argument to ORDER BY must be of type VariableReference. Type: " + OrderByArgumentType(key),
        key.begin);
  }
}

SelectStatement DmlBuilder::Select(const Node& n) const {
  SelectStatement s;
  for (const Node& child : n.children) {
    switch (child.kind) {
      case Kind::kProjection:
        Projection(child, &s);
        break;
      case Kind::kSource:
        Source(child, &s);
        break;
      case Kind::kWhere:
        s.where = t_.Where(child);
        break;
      case Kind::kOrderBy:
        OrderBy(child, &s);
        break;
      default:
        break;
    }
  }
  return s;
}

InsertStatement DmlBuilder::Insert(const Node& n) const {
  InsertStatement s;
  s.table = Target(n.children[0]);
  const Node* value = &Unwrap(n.children[1].children[0]);
  while (value->kind == Kind::kParen && value->children.size() == 1) {
    value = &Unwrap(value->children[0]);
  }
  if (value->kind != Kind::kStruct) {
    t_.Fail(
        "Unsupported format in item expression. Please use struct format {...} to express "
        "item values for insert statement.",
        value->begin);
  }
  // Each attribute's value is "root" in the messages, its members below it (`root.x`,
  // `root[1]`): DynamoDB checks the attributes one by one (partiqlGrammar.test.ts,
  // partiqlFunctions.test.ts, October 2026).
  s.item = t_.Value(*value, "").m();
  return s;
}

// RETURNING (ALL|MODIFIED) (OLD|NEW) *.
ReturnValues DmlBuilder::Returning(const Node& n) const {
  const std::string which = Upper(t_.Text(n.children[0]));
  const bool old = Upper(t_.Text(n.children[1])) == "OLD";
  if (which == "ALL") return old ? ReturnValues::kAllOld : ReturnValues::kAllNew;
  return old ? ReturnValues::kUpdatedOld : ReturnValues::kUpdatedNew;
}

UpdateStatement DmlBuilder::Update(const Node& n) const {
  UpdateStatement s;
  s.table = Target(n.children[0]);
  for (size_t i = 1; i < n.children.size(); ++i) {
    const Node& child = n.children[i];
    switch (child.kind) {
      case Kind::kSetClause:
        for (const Node& assignment : child.children) t_.Assignment(assignment, &s.update);
        break;
      case Kind::kRemoveClause: {
        expr::UpdateAction action;
        action.kind = expr::UpdateActionKind::kRemove;
        action.path = t_.BuildPath(child.children[0]);
        action.position = t_.At(child.begin);
        s.update.actions.push_back(std::move(action));
        break;
      }
      case Kind::kWhere:
        s.where = t_.Where(child);
        break;
      case Kind::kReturning:
        s.returning = Returning(child);
        break;
      default:
        break;
    }
  }
  return s;
}

DeleteStatement DmlBuilder::Delete(const Node& n) const {
  DeleteStatement s;
  s.table = Target(n.children[0]);
  if (const Node* where = Find(n, Kind::kWhere)) s.where = t_.Where(*where);
  if (const Node* returning = Find(n, Kind::kReturning)) {
    s.returning = Returning(*returning);
    if (s.returning != ReturnValues::kAllOld) {
      t_.Fail("Invalid returning clause: RETURNING " + Upper(t_.Text(returning->children[0])) +
                  " " + Upper(t_.Text(returning->children[1])) +
                  " *. Only RETURNING ALL OLD * is allowed in DELETE statements.",
              returning->begin);
    }
  }
  return s;
}

// ============================================================================================
// keyhole's table statements
// ============================================================================================

class DdlBuilder {
 public:
  explicit DdlBuilder(const Translator& t) : t_(t) {}

  CreateTableStatement Create(const Node& n);
  AlterTableStatement Alter(const Node& n);

 private:
  // The key of a table (table_key == nullptr) or index from its kKeyColumn children.
  // The key columns of `owner`: a table's, a LOCAL index's (`local`: the table's HASH key when
  // only the RANGE one is given) or a GLOBAL index's (`global`: several of each role allowed).
  KeySchema Key(const Node& owner, const KeySchema* table_key, bool local, bool global = false);
  IndexDefinition Index(const Node& n, const KeySchema* table_key);
  VectorIndexDefinition VectorIndex(const Node& n);
  Projection IndexProjection(const Node& spec) const;
  // Records the type of an attribute; the same attribute may not have two types.
  void Declare(const KeyAttribute& a, size_t offset);
  int64_t Capacity(const Node& n) const;

  const Translator& t_;
  std::map<std::string, ValueType> declared_;
};

void DdlBuilder::Declare(const KeyAttribute& a, size_t offset) {
  auto [it, inserted] = declared_.emplace(a.name, a.type);
  if (!inserted && it->second != a.type) {
    t_.Fail("Attribute " + a.name + " is declared as " + std::string(TypeName(it->second)) +
                " and as " + std::string(TypeName(a.type)),
            offset);
  }
}

KeySchema DdlBuilder::Key(const Node& owner, const KeySchema* table_key, bool local, bool global) {
  std::vector<const Node*> columns;
  for (const Node& child : owner.children) {
    if (child.kind == Kind::kKeyColumn) columns.push_back(&child);
  }
  // A GSI may have a multi-attribute key (up to four HASH and four RANGE attributes, HASH ones
  // first; CreateTable checks the counts with DynamoDB's messages); every other key has two.
  if (columns.size() > 2 && !global) {
    t_.Fail(
        "A key has at most two attributes: one HASH and one RANGE (only a GLOBAL INDEX may "
        "have several of each)",
        columns[2]->begin);
  }
  std::vector<KeyAttribute> hashes, ranges;
  for (size_t i = 0; i < columns.size(); ++i) {
    const Node& column = *columns[i];
    KeyAttribute a;
    a.name = t_.Name(column.children[0]);
    const std::string type = Upper(t_.Text(column.children[1]));
    a.type = type == "N" || type == "NUMBER"   ? ValueType::kN
             : type == "B" || type == "BINARY" ? ValueType::kB
                                               : ValueType::kS;
    std::string role;
    if (column.children.size() > 2) {
      role = Upper(t_.Text(column.children[2]));
    } else if (columns.size() > 2) {
      t_.Fail(
          "A key of several HASH or RANGE attributes names each one's role: (a S HASH, "
          "b S HASH, c N RANGE)",
          column.begin);
    } else {
      // Positional: HASH then RANGE; a LOCAL index's only attribute is its RANGE key.
      role = (i == 0 && !(local && columns.size() == 1)) ? "HASH" : "RANGE";
    }
    if (role == "HASH" && !ranges.empty() && columns.size() > 2) {
      t_.Fail("All HASH key attributes must precede RANGE key attributes", column.begin);
    }
    std::vector<KeyAttribute>& slot = role == "HASH" ? hashes : ranges;
    if (!slot.empty() && !global) {
      t_.Fail("A key needs exactly one HASH attribute and at most one RANGE attribute",
              column.begin);
    }
    Declare(a, column.begin);
    slot.push_back(std::move(a));
  }
  if (hashes.empty() && local && table_key != nullptr) hashes.push_back(table_key->partition);
  if (hashes.empty()) {
    t_.Fail(global ? "A GLOBAL INDEX key needs at least one HASH attribute, listed first"
                   : "A key needs exactly one HASH attribute and at most one RANGE attribute",
            owner.begin);
  }
  // Several attributes of one role: every role written (`(a S, b S HASH)` is ambiguous).
  if (hashes.size() > 1 || ranges.size() > 1) {
    for (const Node* column : columns) {
      if (column->children.size() <= 2) {
        t_.Fail(
            "A key of several HASH or RANGE attributes names each one's role: (a S HASH, "
            "b S HASH, c N RANGE)",
            column->begin);
      }
    }
  }
  KeySchema key;
  key.partition = hashes[0];
  key.more_partition.assign(hashes.begin() + 1, hashes.end());
  if (!ranges.empty()) {
    key.sort = ranges[0];
    key.more_sort.assign(ranges.begin() + 1, ranges.end());
  }
  return key;
}

Projection DdlBuilder::IndexProjection(const Node& spec) const {
  Projection p;
  const std::string type = Upper(t_.Text(spec.children[0]));
  p.type = type == "KEYS_ONLY" ? ProjectionType::kKeysOnly
           : type == "INCLUDE" ? ProjectionType::kInclude
                               : ProjectionType::kAll;
  for (size_t i = 1; i < spec.children.size(); ++i) {
    p.non_key_attributes.push_back(t_.Name(spec.children[i]));
  }
  return p;
}

IndexDefinition DdlBuilder::Index(const Node& n, const KeySchema* table_key) {
  IndexDefinition index;
  index.kind = n.kind == Kind::kLocalIndex ? IndexKind::kLocal : IndexKind::kGlobal;
  index.name = t_.Name(n.children[0]);
  index.key = Key(n, table_key, index.kind == IndexKind::kLocal, index.kind == IndexKind::kGlobal);
  if (const Node* spec = Find(n, Kind::kProjectionSpec)) index.projection = IndexProjection(*spec);
  return index;
}

VectorIndexDefinition DdlBuilder::VectorIndex(const Node& n) {
  VectorIndexDefinition v;
  v.name = t_.Name(n.children[0]);
  for (const Node& child : n.children) {
    if (child.kind == Kind::kVectorColumn) {
      v.vector_attribute = t_.Name(child.children[0]);
      v.dimensions = Capacity(child.children[1]);
      v.distance = Upper(t_.Text(child.children[2]));
    } else if (child.kind == Kind::kSearchColumn) {
      const std::string type = Upper(t_.Text(child.children[1]));
      v.search.push_back({t_.Name(child.children[0]),
                          type[0] == 'N'   ? ValueType::kN
                          : type[0] == 'B' ? ValueType::kB
                                           : ValueType::kS,
                          Upper(t_.Text(child.children[2])) == "HASH"});
    } else if (child.kind == Kind::kProjectionSpec) {
      v.projection = IndexProjection(child);
    }
  }
  return v;
}

int64_t DdlBuilder::Capacity(const Node& n) const {
  const std::string_view digits = t_.Text(n);
  if (digits.size() > 15) t_.Fail("Capacity units out of range: " + std::string(digits), n.begin);
  return std::stoll(std::string(digits));
}

CreateTableStatement DdlBuilder::Create(const Node& n) {
  CreateTableStatement s;
  bool ttl = false, stream = false, billing = false;
  auto once = [&](bool* seen, std::string_view clause, const Node& node) {
    if (*seen) t_.Fail(std::string(clause) + " is given twice", node.begin);
    *seen = true;
  };
  for (const Node& child : n.children) {
    switch (child.kind) {
      case Kind::kIfNotExists:
        s.if_not_exists = true;
        break;
      case Kind::kName:
        s.table = t_.Name(child);
        break;
      case Kind::kKeyColumn:
        if (&child == Find(n, Kind::kKeyColumn)) s.key = Key(n, nullptr, false);
        break;
      case Kind::kGlobalIndex:
      case Kind::kLocalIndex:
        s.indexes.push_back(Index(child, &s.key));
        break;
      case Kind::kVectorIndex:
        s.vector_indexes.push_back(VectorIndex(child));
        break;
      case Kind::kTtl:
        once(&ttl, "TTL", child);
        s.ttl_attribute = t_.Name(child.children[0]);
        break;
      case Kind::kStream:
        once(&stream, "STREAM", child);
        s.stream_view_type = Upper(t_.Text(child.children[0]));
        break;
      case Kind::kBilling:
        once(&billing, "BILLING", child);
        s.billing_mode = Upper(t_.Text(child.children[0]));
        if (child.children.size() == 3) {
          s.read_capacity_units = Capacity(child.children[1]);
          s.write_capacity_units = Capacity(child.children[2]);
        }
        break;
      default:
        break;
    }
  }
  return s;
}

AlterTableStatement DdlBuilder::Alter(const Node& n) {
  AlterTableStatement s;
  s.table = t_.Name(n.children[0]);
  const Node& action = n.children[1];
  switch (action.kind) {
    case Kind::kAlterAdd:
      if (action.children[0].kind == Kind::kVectorIndex) {
        s.action = AlterAction::kAddVectorIndex;
        s.vector_index = VectorIndex(action.children[0]);
      } else {
        s.action = AlterAction::kAddGlobalIndex;
        s.index = Index(action.children[0], nullptr);
      }
      break;
    case Kind::kAlterDropIndex:
      s.action = AlterAction::kDropIndex;
      s.name = t_.Name(action.children[0]);
      break;
    case Kind::kAlterSet: {
      const Node& clause = action.children[0];
      if (clause.kind == Kind::kTtl) {
        s.action = AlterAction::kSetTtl;
        s.name = t_.Name(clause.children[0]);
      } else {
        s.action = AlterAction::kSetStream;
        s.name = Upper(t_.Text(clause.children[0]));
      }
      break;
    }
    default:  // kAlterDisable
      s.action = Upper(t_.Text(action.children[0])) == "TTL" ? AlterAction::kDisableTtl
                                                             : AlterAction::kDisableStream;
      break;
  }
  return s;
}

CallStatement Call(const Node& n, const Translator& t) {
  CallStatement s;
  s.operation = std::string(t.Text(n.children[0]));
  const Node* body = Find(n, Kind::kJsonBody);
  s.body_text = body != nullptr ? std::string(t.Text(*body)) : "{}";
  Result<json::Value> parsed = json::Parse(s.body_text);
  if (!parsed.ok()) t.Fail(parsed.status().message(), body != nullptr ? body->begin : n.begin);
  s.body = std::move(parsed).value();
  return s;
}

// The name child of a statement about one table.
std::string TableName(const Node& n, const Translator& t) { return t.Name(*Find(n, Kind::kName)); }

}  // namespace

Statement BuildStatement(const Node& root, const Translator& t) {
  Statement s;
  const Node* n = &root;
  if (n->kind == Kind::kExplain) {
    s.explain = true;
    s.analyze = Find(*n, Kind::kAnalyze) != nullptr;
    n = &n->children.back();
  }
  if (n->kind == Kind::kScan) {
    s.scan = true;
    n = &n->children[0];
  }
  const DmlBuilder dml(t);
  DdlBuilder ddl(t);
  switch (n->kind) {
    case Kind::kSelect:
      s.body = dml.Select(*n);
      break;
    case Kind::kInsert:
      s.body = dml.Insert(*n);
      break;
    case Kind::kUpdate:
      s.body = dml.Update(*n);
      break;
    case Kind::kDelete:
      s.body = dml.Delete(*n);
      break;
    case Kind::kExists:
      s.body = ExistsStatement{dml.Select(n->children[0])};
      break;
    case Kind::kCreateTable:
      s.body = ddl.Create(*n);
      return s;
    case Kind::kDropTable:
      s.body = DropTableStatement{TableName(*n, t), Find(*n, Kind::kIfExists) != nullptr};
      return s;
    case Kind::kAlterTable:
      s.body = ddl.Alter(*n);
      return s;
    case Kind::kShowTables:
      s.body = ShowTablesStatement{};
      return s;
    case Kind::kDescribe:
      s.body = DescribeStatement{TableName(*n, t)};
      return s;
    case Kind::kShowCreateTable:
      s.body = ShowCreateTableStatement{TableName(*n, t)};
      return s;
    case Kind::kBegin:
      s.body = BeginStatement{!n->children.empty()};  // the only child: the word BATCH
      return s;
    case Kind::kCommit:
      s.body = CommitStatement{};
      return s;
    case Kind::kRollback:
      s.body = RollbackStatement{};
      return s;
    case Kind::kCallStatement:
      s.body = Call(*n, t);
      return s;
    default:  // kNext
      s.body = NextStatement{};
      return s;
  }
  s.dynamodb_text = std::string(t.Text(*n));
  return s;
}

}  // namespace keyhole::parser::translate
