#include "api/connection.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <functional>
#include <utility>

#include "api/service.h"
#include "core/ddb_json.h"
#include "core/require.h"
#include "core/transact_target.h"
#include "parser/partiql_lexer.h"
#include "planner/plan_transaction.h"

namespace keyhole::api {

void StatementReport::NoteError(const Status& status) {
  if (!error.empty()) return;
  error = status.ToString();
  refused = status.IsValidation() && status.message().starts_with("keyhole refuses");
}

std::string StatementOutcome::target() const {
  if (!plan) return "";
  return plan->index ? plan->table + "." + *plan->index : plan->table;
}

std::string NamesAsValuesNote(const planner::Plan& plan) {
  if (plan.names_as_values.empty()) return "";
  std::string names, strings;
  for (const std::string& n : plan.names_as_values) {
    names += fmt::format("{}\"{}\"", names.empty() ? "" : ", ", n);
    std::string quoted = "'";
    for (char c : n) quoted += c == '\'' ? std::string("''") : std::string(1, c);
    strings += (strings.empty() ? "" : ", ") + quoted + "'";
  }
  const bool one = plan.names_as_values.size() == 1;
  return fmt::format(
      "{} {} read as attribute name{} (double quotes, or none, name attributes); if you meant "
      "string{}, write {}",
      names, one ? "is" : "are", one ? "" : "s", one ? "" : "s", strings);
}

bool ApplyConsistentRead(planner::Plan& plan) {
  if (plan.kind != parser::StatementKind::kSelect) return false;
  for (planner::Operation& op : plan.operations) {
    if (auto* g = std::get_if<GetItemRequest>(&op)) g->consistent_read = true;
    if (auto* q = std::get_if<QueryRequest>(&op)) q->consistent_read = true;
    if (auto* c = std::get_if<ScanRequest>(&op)) c->consistent_read = true;
  }
  return true;
}

namespace {

// The planner's operations on the backend; a DELETE learns whether an item had the key.
class Executor : public BackendExecutor {
 public:
  explicit Executor(Backend& backend) : BackendExecutor(backend) {}
  Result<DeleteItemResponse> DeleteItem(const DeleteItemRequest& r) override {
    if (!note_missing_deletes) return backend_.DeleteItem(r);
    // Asks for the old item (ALL_OLD changes neither the write nor its capacity) to learn
    // whether there was one; the caller's ReturnValues decides what it gets back.
    DeleteItemRequest with_old = r;
    with_old.return_values = ReturnValues::kAllOld;
    Result<DeleteItemResponse> out = backend_.DeleteItem(with_old);
    if (out.ok()) {
      missing_deletes += !out->attributes.has_value();
      if (r.return_values != ReturnValues::kAllOld) out->attributes.reset();
    }
    return out;
  }
  bool note_missing_deletes = false;
  int64_t missing_deletes = 0;
};

StatementOutcome Failed(Status status, std::shared_ptr<const planner::Plan> plan = nullptr) {
  StatementOutcome out;
  out.report.NoteError(status);
  out.status = std::move(status);
  out.plan = std::move(plan);
  return out;
}

}  // namespace

Result<TableSchemaPtr> Connection::StatementSchemas::TableSchema(const std::string& name) const {
  for (const auto& [seen_name, schema] : seen_) {
    if (seen_name == name) return schema;
  }
  Result<TableSchemaPtr> r = backend_.TableSchema(name);
  if (r.ok()) seen_.emplace_back(name, *r);
  return r;
}

Connection::Connection(Backend& backend, ConnectionOptions options)
    : backend_(backend), options_(std::move(options)), schemas_(backend) {}

Result<planner::Plan> Connection::Plan(const parser::Statement& statement) {
  schemas_.Clear();
  return planner::PlanStatement(statement, schemas_, options_.plan);
}

Result<planner::Plan> Connection::Plan(const parser::Statement& statement, std::string_view text) {
  Result<planner::Plan> plan = Plan(statement);
  if (!plan.ok() || statement.kind() != parser::StatementKind::kSelect || statement.scan ||
      plan->explain || plan->per_item_write || plan->operations.size() != 1 ||
      !std::holds_alternative<GetItemRequest>(plan->operations[0])) {
    return plan;
  }
  if (Result<TableSchemaPtr> schema = schemas_.TableSchema(plan->table); schema.ok()) {
    Remember(text, *schema, *plan);
  }
  return plan;
}

namespace {

// Whether the literal token at `token` (a view into `text`) has a sign written before it, which
// the translation applies to its value: `-` or `+` before it, past blanks.
bool Signed(std::string_view text, std::string_view token) {
  size_t at = static_cast<size_t>(token.data() - text.data());
  while (at > 0 && (text[at - 1] == ' ' || text[at - 1] == '\t' || text[at - 1] == '\n' ||
                    text[at - 1] == '\r' || text[at - 1] == '\f' || text[at - 1] == '\v')) {
    --at;
  }
  return at > 0 && (text[at - 1] == '-' || text[at - 1] == '+');
}

size_t SlotOf(std::string_view shape, size_t slots) {
  return std::hash<std::string_view>()(shape) % slots;
}

}  // namespace

void Connection::Remember(std::string_view text, const TableSchemaPtr& schema,
                          const planner::Plan& plan) {
  parser::StatementLiterals literals;
  // A planned GetItem's WHERE is its key's equalities and nothing else: each key value is a
  // literal of the text, found by its value. Not remembered: a value two literals give (which one
  // is the key's is not known), a signed one, and a text with comments (a sign may hide
  // behind one).
  if (!parser::LiteralsOf(text, &literals) || literals.shape.find("--") != std::string::npos ||
      literals.shape.find("/*") != std::string::npos || schema->key.IsMultiAttribute()) {
    return;
  }
  // A shape remembered on this schema already is not remembered again (RunRemembered found
  // another literal than the key's changed): a statement that misses each time costs nothing more.
  if (!remembered_) remembered_ = std::make_unique<std::array<RememberedRead, kRememberedReads>>();
  RememberedRead& slot = (*remembered_)[SlotOf(literals.shape, kRememberedReads)];
  if (slot.shape == literals.shape && slot.schema == schema) return;
  const auto& get = std::get<GetItemRequest>(plan.operations[0]);
  std::vector<std::optional<AttributeValue>> values;
  for (std::string_view token : literals.tokens) values.push_back(parser::LiteralValue(token));
  RememberedRead r;
  for (const KeyAttribute* a :
       {&schema->key.partition, schema->key.sort ? &*schema->key.sort : nullptr}) {
    if (a == nullptr) continue;
    auto it = get.key.find(a->name);
    if (it == get.key.end()) return;
    std::optional<size_t> found;
    for (size_t i = 0; i < values.size(); ++i) {
      if (!values[i] || !(*values[i] == it->second)) continue;
      if (found || Signed(text, literals.tokens[i])) return;
      found = i;
    }
    if (!found) return;
    for (const auto& [taken, attribute] : r.slots) {
      if (taken == *found) return;
    }
    r.slots.emplace_back(*found, a);
  }
  if (r.slots.size() != get.key.size()) return;
  std::sort(r.slots.begin(), r.slots.end());  // in the text's order
  r.literals.assign(literals.tokens.begin(), literals.tokens.end());
  r.shape = std::move(literals.shape);
  r.schema = schema;
  r.plan = std::make_shared<planner::Plan>(plan);
  slot = std::move(r);
}

std::optional<StatementOutcome> Connection::RunRemembered(std::string_view text) {
  // Only a SELECT can be a remembered read: any other statement is not scanned twice (here,
  // then by the parser).
  thread_local parser::StatementLiterals literals;
  if (!remembered_ || !parser::lexer::FirstWordIs(text, "SELECT") ||
      !parser::LiteralsOf(text, &literals)) {
    return std::nullopt;
  }
  RememberedRead& r = (*remembered_)[SlotOf(literals.shape, kRememberedReads)];
  if (r.shape != literals.shape || r.literals.size() != literals.tokens.size()) {
    return std::nullopt;
  }
  // A remembered key is one or two attributes (Remember takes no multi-attribute key).
  std::array<std::optional<AttributeValue>, 2> keys;
  if (r.slots.size() > keys.size()) return std::nullopt;
  for (size_t i = 0, slot = 0; i < literals.tokens.size(); ++i) {
    if (slot < r.slots.size() && r.slots[slot].first == i) {
      keys[slot] = parser::LiteralValue(literals.tokens[i]);
      if (!keys[slot] || keys[slot]->type() != r.slots[slot].second->type) return std::nullopt;
      ++slot;
    } else if (literals.tokens[i] != r.literals[i]) {
      return std::nullopt;
    }
  }
  schemas_.Clear();
  Result<TableSchemaPtr> schema = schemas_.TableSchema(r.plan->table);
  if (!schema.ok() || schema->get() != r.schema.get()) return std::nullopt;
  // The remembered plan is run itself when nothing else holds it (the connection runs one
  // statement at a time; an outcome a front end kept, or NEXT's plan of another statement,
  // would see its key change): no copy of the plan per read.
  const bool shared = r.plan.use_count() > (last_plan_ == r.plan ? 2 : 1);
  if (shared) r.plan = std::make_shared<planner::Plan>(*r.plan);
  auto& get = std::get<GetItemRequest>(r.plan->operations[0]);
  for (size_t slot = 0; slot < r.slots.size(); ++slot) {
    get.key.find(r.slots[slot].second->name)->second = std::move(*keys[slot]);
  }
  get.consistent_read = false;  // as planned; the options decide (a run before may have set it)
  const bool consistent = options_.consistent_reads && ApplyConsistentRead(*r.plan);
  return ExecutePlan(r.plan, nullptr, consistent);
}

Status Connection::ExplainConditionFailure(const planner::Plan& plan, Status status) {
  if (status.hint().empty() &&
      status.message().find("refers to an attribute that does not exist") != std::string::npos) {
    if (std::string note = NamesAsValuesNote(plan); !note.empty()) return status.WithHint(note);
  }
  if (!status.IsConditionFailed() || plan.per_item_write || plan.operations.size() != 1) {
    return status;
  }
  GetItemRequest get;
  if (const auto* u = std::get_if<UpdateItemRequest>(&plan.operations[0])) {
    get.table_name = u->table_name;
    get.key = u->key;
  } else if (const auto* d = std::get_if<DeleteItemRequest>(&plan.operations[0])) {
    get.table_name = d->table_name;
    get.key = d->key;
  } else {
    return status;
  }
  Result<GetItemResponse> found = backend_.GetItem(get);
  if (!found.ok()) return status;
  const std::string key = ItemToJsonText(get.key);
  if (!found->item) {
    return status.WithHint(
        plan.kind == parser::StatementKind::kUpdate
            ? fmt::format("no item has the key {}: PartiQL's UPDATE changes an existing item "
                          "only (it adds attribute_exists to the condition); INSERT creates one",
                          key)
            : fmt::format("no item has the key {}", key));
  }
  return status.WithHint(fmt::format(
      "the item {} exists, but the rest of the WHERE is false for it: nothing was written", key));
}

StatementOutcome Connection::ExecutePlan(std::shared_ptr<const planner::Plan> plan,
                                         const planner::Cursor* resume, bool consistent) {
  const planner::Plan& p = *plan;
  const bool select = p.kind == parser::StatementKind::kSelect;
  Executor executor(backend_);
  executor.note_missing_deletes =
      options_.explain && p.kind == parser::StatementKind::kDelete && !p.per_item_write;
  planner::ExecuteOptions options;
  options.resume = resume;
  options.limit = options_.page_size;
  options.cancel = options_.cancel;
  Result<planner::ExecuteResult> r = planner::Execute(p, executor, options);
  if (!r.ok()) {
    Status status = r.status();
    if (options_.explain && !status.IsNotFound()) {
      status = ExplainConditionFailure(p, std::move(status));
    }
    return Failed(std::move(status), std::move(plan));
  }
  StatementOutcome out;
  out.plan = std::move(plan);
  out.result = std::move(*r);
  out.consistent = consistent;
  out.missing_deletes = executor.missing_deletes;
  if (select) {  // the SELECT NEXT continues, from here on
    last_plan_ = out.plan;
    next_ = out.result.next;
    if (out.result.count == 0 && !out.result.next) out.nothing_matched = NamesAsValuesNote(p);
  }
  StatementReport& report = out.report;
  report.operation = p.operation_name;
  if (p.operations.size() > 1) report.operation += fmt::format(" ×{}", p.operations.size());
  if (p.per_item_write) report.operation = "Scan, then " + report.operation;
  report.target = out.target();
  report.read = out.result.scanned_count;
  report.returned = out.result.count;
  report.more = out.result.next.has_value();
  report.capacity = out.result.capacity_units;
  report.units = select ? "RCU" : p.per_item_write ? "capacity units" : "WCU";
  report.read_units = out.result.read_units;
  report.write_units = out.result.write_units;
  return out;
}

StatementOutcome Connection::Execute(planner::Plan plan, std::optional<Item> start_key) {
  if (start_key && (plan.kind != parser::StatementKind::kSelect || plan.operations.size() != 1 ||
                    std::holds_alternative<GetItemRequest>(plan.operations[0]))) {
    return Failed(Status::Validation(
        "an ExclusiveStartKey applies to a SELECT that runs one Query or Scan; continue other "
        "statements with NEXT"));
  }
  const bool consistent = options_.consistent_reads && ApplyConsistentRead(plan);
  auto shared = std::make_shared<const planner::Plan>(std::move(plan));
  if (start_key) {
    const planner::Cursor resume{0, std::move(start_key)};
    return ExecutePlan(std::move(shared), &resume, consistent);
  }
  return ExecutePlan(std::move(shared), nullptr, consistent);
}

StatementOutcome Connection::Execute(planner::Plan plan, const planner::Cursor& resume) {
  if (plan.kind != parser::StatementKind::kSelect) {
    return Failed(Status::Validation("only a SELECT continues from where it stopped"));
  }
  const bool consistent = options_.consistent_reads && ApplyConsistentRead(plan);
  return ExecutePlan(std::make_shared<const planner::Plan>(std::move(plan)), &resume, consistent);
}

StatementOutcome Connection::Run(const parser::Statement& statement) {
  using parser::StatementKind;
  switch (statement.kind()) {
    case StatementKind::kSelect:
    case StatementKind::kInsert:
    case StatementKind::kUpdate:
    case StatementKind::kDelete:
      break;
    case StatementKind::kNext:
      return Next();
    default:
      return Failed(Status::Validation(fmt::format("{} is not run by a connection",
                                                   parser::StatementKindName(statement.kind()))));
  }
  Result<planner::Plan> plan = Plan(statement);
  if (!plan.ok()) return Failed(plan.status());
  return Execute(std::move(*plan));
}

StatementOutcome Connection::Run(std::string_view text,
                                 const std::vector<AttributeValue>& parameters) {
  if (parameters.empty()) {
    if (std::optional<StatementOutcome> out = RunRemembered(text)) return std::move(*out);
  }
  parser::ParseResult parsed = parser::ParseStatement(text, parameters);
  if (!parsed.ok()) {
    StatementOutcome out = Failed(parsed.error().status);
    out.parse_error_at = parsed.error().position;
    return out;
  }
  const parser::Statement& statement = parsed.statement();
  if (!parameters.empty() || statement.kind() != parser::StatementKind::kSelect) {
    return Run(statement);
  }
  Result<planner::Plan> plan = Plan(statement, text);
  if (!plan.ok()) return Failed(plan.status());
  return Execute(std::move(*plan));
}

StatementOutcome Connection::Next() {
  if (!last_plan_) {
    return Failed(Status::Validation("NEXT continues the previous SELECT; there is none"));
  }
  if (!next_) return Failed(Status::Validation("NEXT: the previous SELECT has no more pages"));
  const planner::Cursor resume = *next_;
  // The plan's reads asked for ConsistentRead (or not) when it first ran.
  bool consistent = false;
  for (const planner::Operation& op : last_plan_->operations) {
    if (const auto* g = std::get_if<GetItemRequest>(&op)) consistent |= g->consistent_read;
    if (const auto* q = std::get_if<QueryRequest>(&op)) consistent |= q->consistent_read;
    if (const auto* c = std::get_if<ScanRequest>(&op)) consistent |= c->consistent_read;
  }
  return ExecutePlan(last_plan_, &resume, consistent);
}

// ---- BEGIN ... COMMIT ----

namespace {

// The item a transaction's write acts on, as "<table>\n<key JSON>" for comparing ("" when its
// table is unknown), and in *shown as a statement writes it: "pk = 'a', sk = 1 in T".
std::string ItemOf(const TransactWriteItem& w, Backend& backend, std::string* shown) {
  std::optional<TransactTarget> target = TargetOf(w, backend);
  if (!target) return "";
  const std::string& table = target->table;
  const Item& key = target->key;
  *shown = "";
  for (const auto& [name, value] : key) {
    std::string literal;
    if (value.is(ValueType::kS)) {
      literal = "'";
      for (char c : value.s()) literal += c == '\'' ? std::string("''") : std::string(1, c);
      literal += "'";
    } else if (value.is(ValueType::kN)) {
      literal = value.n().ToString();
    } else {
      literal = "b'" + Base64Encode(value.s()) + "'";
    }
    *shown += fmt::format("{}{} = {}", shown->empty() ? "" : ", ", name, literal);
  }
  *shown += " in " + table;
  return table + "\n" + ItemToJsonText(key);
}

// For DynamoDB's "multiple operations on one item": which statements those are.
std::string SameItemHint(const std::vector<parser::Statement>& statements, Backend& backend) {
  Result<planner::TransactionPlan> plan =
      planner::PlanTransaction(statements, BackendSchemas(backend));
  if (!plan.ok() || plan->reads()) return "";
  const auto& items = std::get<TransactWriteItemsRequest>(plan->request).transact_items;
  std::vector<std::string> seen;
  for (size_t i = 0; i < items.size(); ++i) {
    std::string shown;
    seen.push_back(ItemOf(items[i], backend, &shown));
    for (size_t j = 0; j < i; ++j) {
      if (seen[j].empty() || seen[j] != seen[i]) continue;
      return fmt::format(
          "TransactStatements[{}] and [{}] both act on the item {}; a transaction acts on an "
          "item once: merge them (one UPDATE can SET and REMOVE several attributes)",
          j, i, shown);
    }
  }
  return "";
}

}  // namespace

Status Connection::Begin(bool batch) {
  if (queue_) return Status::Validation("a transaction is already open: COMMIT or ROLLBACK it");
  queue_.emplace();
  batch_ = batch;
  failure_.reset();
  return Status::OK();
}

Status Connection::Queue(const parser::Statement& st) {
  KH_REQUIRE(in_transaction());
  if (!queue_->empty()) {
    const bool reads = queue_->front().kind() == parser::StatementKind::kSelect;
    if ((st.kind() == parser::StatementKind::kSelect) != reads) {
      return Status::Validation(fmt::format(
          "a {} takes all reads (SELECT) or all writes (INSERT, UPDATE, DELETE{}), not both: "
          "this one has {} queued",
          batch_ ? "batch (BatchExecuteStatement)" : "transaction (ExecuteTransaction)",
          batch_ ? "" : ", EXISTS", reads ? "reads" : "writes"));
    }
  }
  if (!batch_) {
    // The transaction so far with this statement, planned as Commit will plan it: a statement
    // DynamoDB would refuse is refused now, before it is queued.
    std::vector<parser::Statement> statements = *queue_;
    statements.push_back(st);
    KH_RETURN_IF_ERROR(planner::PlanTransaction(statements, BackendSchemas(backend_)).status());
  }
  queue_->push_back(st);
  return Status::OK();
}

void Connection::MarkFailed(std::string why) {
  if (!failure_) failure_ = std::move(why);
}

size_t Connection::Rollback() {
  const size_t n = queued();
  queue_.reset();
  failure_.reset();
  return n;
}

CommitOutcome Connection::Commit() {
  CommitOutcome out;
  if (!queue_) {
    out.status = Status::Validation("COMMIT without BEGIN");
    return out;
  }
  out.batch = batch_;
  out.statements = std::move(*queue_);
  queue_.reset();
  const size_t n = out.statements.size();
  if (std::optional<std::string> failure = std::exchange(failure_, std::nullopt)) {
    out.status = Status::Validation(fmt::format(
        "the {} was not committed: {}; nothing was sent, and its {} queued "
        "statement{} {} discarded",
        batch_ ? "batch" : "transaction", *failure, n, n == 1 ? "" : "s", n == 1 ? "was" : "were"));
    return out;
  }
  if (n == 0) return out;  // DynamoDB refuses an empty request: nothing to send
  Service service(backend_);
  CallContext context;
  context.cancel = options_.cancel;
  if (batch_) {
    if (n > 25) {
      out.status = Status::Validation(
          "1 validation error detected: Value at 'statements' failed to satisfy constraint: "
          "Member must have length less than or equal to 25");
      return out;
    }
    std::vector<Result<parser::Statement>> parsed(out.statements.begin(), out.statements.end());
    Result<BatchExecuteStatementResponse> r =
        service.ExecuteBatch(parsed, {}, ReturnConsumedCapacity::kTotal, context);
    if (!r.ok()) {
      out.status = r.status();
    } else {
      out.batch_response = std::move(*r);
    }
    return out;
  }
  // One implementation of PartiQL transactions, shared with ExecuteTransaction.
  Result<TransactionOutcome> r =
      service.RunTransaction(out.statements, {}, std::nullopt, ReturnConsumedCapacity::kTotal);
  if (!r.ok()) {
    out.status = r.status();
    if (out.status.message() ==
        "Transaction request cannot include multiple operations on one item") {
      if (std::string hint = SameItemHint(out.statements, backend_); !hint.empty()) {
        out.status.WithHint(hint);
      }
    }
    return out;
  }
  out.transaction = std::move(*r);
  return out;
}

void Connection::ForgetTable(std::string_view table) {
  if (last_plan_ && last_plan_->table == table) {
    last_plan_.reset();
    next_.reset();
  }
}

}  // namespace keyhole::api
