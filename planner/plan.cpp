// PlanStatement: fetches the schema and dispatches to the per-statement planners; remembers
// the plans of point reads by statement shape.
#include <array>
#include <memory>
#include <string>

#include "planner/plan.h"
#include "planner/plan_internal.h"

namespace keyhole::planner {

namespace {

// A point read's plan remembered by the shape of its statement (parser::Statement::shape_id)
// and its table's schema object, with where each key value came from: the statements of a
// shape whose WHERE is `<key attribute> = <value>` for each attribute of the table's primary
// key and nothing else. Another statement of that shape and schema, whose WHERE has the same
// form with values of the key's types and whose other parts (table, index, projection,
// ORDER BY) are equal to the remembered statement's, is planned as the same GetItem with its
// own values: those are all PlanSelect reads. (The other parts are compared, not taken from
// the shape: a number in the projection, `a[1]`, is a literal of the shape.) Anything else
// (another form, a value of another type) is planned in full, errors included.
struct PointRead {
  struct Slot {
    size_t conjunct;  // in AndConjuncts(where)
    size_t operand;   // which of its two operands is the value (the other is the key's path)
    const KeyAttribute* attribute;  // in *schema
  };
  uint64_t shape_id = 0;
  const TableDescription* schema = nullptr;
  // With `schema`: the very object (whose control block outlives it while this points at it,
  // so no later schema can share both).
  std::weak_ptr<const TableDescription> owner;
  std::vector<Slot> slots;
  parser::SelectStatement rest;  // the remembered statement without its WHERE
  Plan plan;                     // operations[0] is the GetItemRequest
};

// Whether two SELECTs agree outside their WHERE clauses.
bool SameOutsideWhere(const parser::SelectStatement& a, const parser::SelectStatement& b) {
  return a.table == b.table && a.index == b.index && a.select_all == b.select_all &&
         a.projection == b.projection && a.order_by == b.order_by;
}

constexpr size_t kPointReads = 32;

thread_local uint64_t remembered_plan_hits = 0;

// Per thread (the server plans on several): no locks; slot = shape_id % kPointReads.
std::array<PointRead, kPointReads>& PointReads() {
  thread_local std::array<PointRead, kPointReads> reads;
  return reads;
}

// Whether `c` is `<key name> = <value>`, the value (of the key's type) at operands[value].
bool IsKeyEquality(const expr::Condition& c, const KeyAttribute& key, size_t value) {
  if (c.kind != expr::ConditionKind::kCompare || c.op != expr::CompareOp::kEq ||
      c.operands.size() != 2) {
    return false;
  }
  const expr::Operand& v = c.operands[value];
  const expr::Operand& path = c.operands[1 - value];
  return v.kind == expr::OperandKind::kValue && v.value.type() == key.type &&
         path.kind == expr::OperandKind::kPath && path.path.elements.size() == 1 &&
         !path.path.elements[0].is_index && path.path.elements[0].name == key.name;
}

// The remembered plan for `st` on `schema`, with st's key values, into *out: false when there
// is none.
bool FindPointRead(const parser::Statement& st, const TableSchemaPtr& schema, Plan* out) {
  const PointRead& r = PointReads()[st.shape_id % kPointReads];
  if (r.shape_id != st.shape_id || r.schema != schema.get() || r.owner.owner_before(schema) ||
      schema.owner_before(r.owner)) {
    return false;
  }
  const auto& s = st.as<parser::SelectStatement>();
  if (!s.where || !SameOutsideWhere(s, r.rest)) return false;
  const std::vector<const expr::Condition*> conjuncts = internal::AndConjuncts(*s.where);
  if (conjuncts.size() != r.slots.size()) return false;
  for (const PointRead::Slot& slot : r.slots) {
    if (!IsKeyEquality(*conjuncts[slot.conjunct], *slot.attribute, slot.operand)) return false;
  }
  *out = r.plan;
  auto& get = std::get<GetItemRequest>(out->operations[0]);
  for (const PointRead::Slot& slot : r.slots) {
    get.key.find(slot.attribute->name)->second =
        conjuncts[slot.conjunct]->operands[slot.operand].value;
  }
  return true;
}

// Remembers `plan` when it is a point read of the form FindPointRead serves.
void RememberPointRead(const parser::Statement& st, const TableSchemaPtr& schema,
                       const Plan& plan) {
  if (st.shape_id == 0 || st.kind() != parser::StatementKind::kSelect || st.scan ||
      plan.operations.size() != 1 || !std::holds_alternative<GetItemRequest>(plan.operations[0])) {
    return;
  }
  const auto& s = st.as<parser::SelectStatement>();
  const KeySchema& key = schema->key;
  if (!s.where || key.IsMultiAttribute()) return;
  std::vector<const KeyAttribute*> attributes = {&key.partition};
  if (key.sort) attributes.push_back(&*key.sort);
  const std::vector<const expr::Condition*> conjuncts = internal::AndConjuncts(*s.where);
  if (conjuncts.size() != attributes.size()) return;
  const auto& get = std::get<GetItemRequest>(plan.operations[0]);
  PointRead r;
  for (const KeyAttribute* a : attributes) {
    bool found = false;
    for (size_t j = 0; j < conjuncts.size() && !found; ++j) {
      for (size_t operand = 0; operand < 2 && !found; ++operand) {
        if (!IsKeyEquality(*conjuncts[j], *a, operand)) continue;
        auto it = get.key.find(a->name);
        if (it == get.key.end() || !(it->second == conjuncts[j]->operands[operand].value)) return;
        for (const PointRead::Slot& taken : r.slots) {
          if (taken.conjunct == j) return;
        }
        r.slots.push_back({j, operand, a});
        found = true;
      }
    }
    if (!found) return;
  }
  if (get.key.size() != attributes.size()) return;
  r.rest.table = s.table;
  r.rest.index = s.index;
  r.rest.select_all = s.select_all;
  r.rest.projection = s.projection;
  r.rest.order_by = s.order_by;
  r.shape_id = st.shape_id;
  r.schema = schema.get();
  r.owner = schema;
  r.plan = plan;
  PointReads()[st.shape_id % kPointReads] = std::move(r);
}

Result<Plan> PlanWith(const parser::Statement& st, const TableDescription& desc,
                      const PlanOptions& options) {
  using parser::StatementKind;
  Result<Plan> plan = [&]() -> Result<Plan> {
    switch (st.kind()) {
      case StatementKind::kSelect:
        return internal::PlanSelect(st, desc, options);
      case StatementKind::kInsert: {
        KH_ASSIGN_OR_RETURN(Plan p, internal::PlanInsert(st.as<parser::InsertStatement>(), desc));
        p.explain = st.explain;
        p.analyze = st.analyze;
        return p;
      }
      case StatementKind::kUpdate:
        return internal::PlanUpdate(st, desc);
      default:
        return internal::PlanDelete(st, desc);
    }
  }();
  if (plan.ok()) plan->names_as_values = internal::NamesWhereValuesGo(st);
  return plan;
}

// The table a DML statement names, or the refusal of any other statement.
Result<std::string> TableOf(const parser::Statement& st) {
  using parser::StatementKind;
  switch (st.kind()) {
    case StatementKind::kSelect:
      return st.as<parser::SelectStatement>().table;
    case StatementKind::kInsert:
      return st.as<parser::InsertStatement>().table;
    case StatementKind::kUpdate:
      return st.as<parser::UpdateStatement>().table;
    case StatementKind::kDelete:
      return st.as<parser::DeleteStatement>().table;
    case StatementKind::kExists:
      return Status::Validation("EXISTS can only be used in ExecuteTransaction write requests.");
    default:
      return Status::Validation(std::string(parser::StatementKindName(st.kind())) +
                                " is not planned: the planner handles SELECT, INSERT, UPDATE "
                                "and DELETE only");
  }
}

}  // namespace

Result<Plan> PlanStatement(const parser::Statement& st, const SchemaSource& schemas,
                           const PlanOptions& options) {
  // One Result, returned from every path (no move of the Plan on the way out).
  Result<Plan> plan{Plan()};
  Result<std::string> table = TableOf(st);
  Result<TableSchemaPtr> schema = table.ok() ? schemas.TableSchema(*table) : table.status();
  if (!schema.ok()) {
    plan = schema.status();
    return plan;
  }
  const bool rememberable = st.shape_id != 0 && st.kind() == parser::StatementKind::kSelect;
  if (rememberable && FindPointRead(st, *schema, &*plan)) {
    ++remembered_plan_hits;
    return plan;
  }
  plan = PlanWith(st, **schema, options);
  if (rememberable && plan.ok()) RememberPointRead(st, *schema, *plan);
  return plan;
}

Result<Plan> PlanStatementUncached(const parser::Statement& st, const SchemaSource& schemas,
                                   const PlanOptions& options) {
  KH_ASSIGN_OR_RETURN(const std::string table, TableOf(st));
  KH_ASSIGN_OR_RETURN(TableSchemaPtr schema, schemas.TableSchema(table));
  return PlanWith(st, *schema, options);
}

uint64_t RememberedPlanHits() { return remembered_plan_hits; }

}  // namespace keyhole::planner
