// TransactWriteItems and TransactGetItems (reference §3.10, §5).
//
// A transaction is ONE LMDB write (or read) transaction spanning its tables. TransactWriteItems
// runs in three passes over its actions: the checks that need only the request and the schema
// (a failure is a plain ValidationException, as DynamoDB fails such requests up-front), then
// every action's read, condition and update evaluation (item-dependent failures become
// CancellationReasons), then, only when every action passed, every write. LMDB has one writer at
// a time, so keyhole never reports TransactionConflict.
#include <fmt/format.h>

#include <set>

#include "core/ddb_json.h"
#include "core/evaluate.h"
#include "core/expression_text.h"
#include "core/java_echo.h"
#include "core/regional.h"
#include "storage/engine.h"
#include "storage/key_codec.h"

namespace keyhole::storage {

namespace {

constexpr size_t kMaxActions = 100;
constexpr size_t kMaxTransactionBytes = size_t{4} << 20;  // 4 MB
constexpr double kTokenSeconds = 600;                     // ClientRequestToken: 10 minutes
constexpr size_t kMaxTokenLength = 36;

// The count constraint, as DynamoDB words it: the value is echoed as its Java service prints
// the list ("[]" when empty; over 100, the action objects, see core/java_echo.h).
//
// The regions of the 2026-10-08 transaction rollout name the member instead, unvalued ("Value at
// 'TransactItems'"; the Parity Suite's 2026-10-08 captures, core/regional.h).
Status CheckActionCount(size_t n, std::string_view cls) {
  if ((n > kMaxActions || n == 0) && Regional().transactions_checked_up_front) {
    return Status::Validation(fmt::format(
        "1 validation error detected: Value at 'TransactItems' failed to satisfy constraint: "
        "Member must have length {}",
        n ? "less than or equal to 100" : "greater than or equal to 1"));
  }
  if (n > kMaxActions) {
    return Status::Validation(
        fmt::format("1 validation error detected: Value '{}' at 'transactItems' failed to satisfy "
                    "constraint: Member must have length less than or equal to 100",
                    JavaEchoObjects(cls, n, std::to_string(n))));
  }
  if (n == 0) {
    return Status::Validation(
        "1 validation error detected: Value '[]' at 'transactItems' failed to satisfy constraint: "
        "Member must have length greater than or equal to 1");
  }
  return Status::OK();
}

Status MultipleOperations() {
  return Status::Validation("Transaction request cannot include multiple operations on one item");
}

// DynamoDB's 4 MB limit on a transaction's payload. Alternator's suite matches "size cannot
// exceed" against DynamoDB (test_transact_write_items_put_5MB); the whole text here is from a
// third-party record of a DynamoDB answer (which repeated it: "...Payload Size: : Transaction
// payload size cannot exceed 4MB. Payload Size: <n>"), not verified. keyhole counts the items'
// and keys' sizes, up-front (it needs only the request).
Status TooLarge(size_t bytes) {
  return Status::Validation(
      fmt::format("Transaction payload size cannot exceed 4MB. Payload Size: {}", bytes));
}

// Whether `s` is the refusal of an empty string or binary key value.
bool IsEmptyKeyValue(const Status& s) {
  return s.message().starts_with(
      "One or more parameter values are not valid. The AttributeValue for a key attribute "
      "cannot contain an empty");
}

// "Transaction cancelled, please refer cancellation reasons for specific reasons [None, ...]".
Status Cancelled(std::vector<Status::CancellationReason> reasons) {
  std::string codes;
  for (const auto& r : reasons) codes += (codes.empty() ? "" : ", ") + r.code;
  Status s = Status::TransactionCanceled(fmt::format(
      "Transaction cancelled, please refer cancellation reasons for specific reasons [{}]", codes));
  s.WithCancellationReasons(
      std::make_shared<const std::vector<Status::CancellationReason>>(std::move(reasons)));
  return s;
}

// One action, resolved: what it is, and its expressions parsed.
struct Action {
  WriteKind kind = WriteKind::kPut;
  const std::string* table = nullptr;
  const Item* input = nullptr;
  const expr::ExpressionInput* expressions = nullptr;
  ReturnValues on_failure = ReturnValues::kNone;
  expr::ParsedExpressions parsed = {};
};

// Exactly one member of each TransactWriteItem; its checks that need only the request.
Result<Action> Resolve(const Database::Impl& impl, const TransactWriteItem& t) {
  int set = t.condition_check.has_value() + t.put.has_value() + t.delete_.has_value() +
            t.update.has_value();
  if (set == 0) {
    // The regions of the transaction rollout name the constraint against the list; the others
    // keep their sentence (transactWriteItems.test.ts, eu-west-2 and us-east-1, October 2026).
    if (Regional().transactions_checked_up_front) {
      return Status::Validation(
          "1 validation error detected: Value '' at 'transactItems' failed to satisfy "
          "constraint: TransactWriteRequest should contain Delete or Put or Update or "
          "ConditionCheck");
    }
    return Status::Validation(
        "Invalid Request: TransactWriteRequest should contain Delete or Put or Update request");
  }
  if (set > 1) {
    // moto's tests record this text for several actions in one element.
    return Status::Validation("TransactItems can only contain one of Check, Put, Update or Delete");
  }
  Action a{};
  if (t.put) {
    a = {WriteKind::kPut, &t.put->table_name, &t.put->item, &t.put->expressions,
         t.put->return_values_on_condition_check_failure};
    // An empty attribute name is DynamoDB's bare "Empty attribute name" in a transaction
    // (deepRequests.test.ts, ten regions, October 2026).
    for (const auto& [name, value] : t.put->item) {
      if (name.empty()) return Status::Validation("Empty attribute name");
    }
    KH_RETURN_IF_ERROR(ValidateItem(t.put->item));
  } else if (t.update) {
    a = {WriteKind::kUpdate, &t.update->table_name, &t.update->key, &t.update->expressions,
         t.update->return_values_on_condition_check_failure};
  } else if (t.delete_) {
    a = {WriteKind::kDelete, &t.delete_->table_name, &t.delete_->key, &t.delete_->expressions,
         t.delete_->return_values_on_condition_check_failure};
  } else {
    a = {WriteKind::kCheck, &t.condition_check->table_name, &t.condition_check->key,
         &t.condition_check->expressions,
         t.condition_check->return_values_on_condition_check_failure};
  }
  KH_RETURN_IF_ERROR(ValidateDataTableName(*a.table));
  KH_RETURN_IF_ERROR(OnFailureNoneOrAllOld(a.on_failure));
  KH_ASSIGN_OR_RETURN(a.parsed, ParseWithCondition(impl, *a.expressions));
  if (a.kind == WriteKind::kCheck && !a.parsed.condition) {
    // ⚠️ Not verified; the JSON decoder already refuses a ConditionCheck without one in the
    // API's constraint form.
    return Status::Validation("The ConditionCheck action requires a ConditionExpression");
  }
  return a;
}

// The distinct table names of `names`, in first-appearance order, and each one's position.
std::vector<std::string> Distinct(const std::vector<const std::string*>& names,
                                  std::vector<size_t>* index) {
  std::vector<std::string> out;
  for (const std::string* n : names) {
    size_t i = std::find(out.begin(), out.end(), *n) - out.begin();
    if (i == out.size()) out.push_back(*n);
    index->push_back(i);
  }
  return out;
}

// One action's part of the fingerprint: its kind, table, item or key, expressions (given as
// text, or rendered from their ASTs with placeholders) and ReturnValuesOnConditionCheckFailure.
void AddToFingerprint(std::string* out, char kind, const std::string& table, const Item& item,
                      const expr::ExpressionInput& in, ReturnValues on_failure) {
  *out += kind;
  *out += table + '\n' + ItemToJsonText(item) + '\n';
  expr::Placeholders p(in.names.value_or(std::map<std::string, std::string>{}),
                       in.values.value_or(std::map<std::string, AttributeValue>{}));
  auto text = [&](const std::optional<std::string>& given, const auto& ast, auto render) {
    if (ast) return render(*ast, &p);
    return given.value_or("");
  };
  const expr::ParsedExpressions none;
  const expr::ParsedExpressions& parsed = in.parsed ? *in.parsed : none;
  *out += text(in.condition, parsed.condition, expr::RenderCondition) + '\n';
  *out += text(in.update, parsed.update, expr::RenderUpdate) + '\n';
  for (const auto& [placeholder, name] : p.names()) *out += placeholder + '=' + name + '\n';
  for (const auto& [placeholder, value] : p.values()) {
    *out += placeholder + '=' + ItemToJsonText({{"v", value}}) + '\n';
  }
  *out += std::to_string(static_cast<int>(on_failure)) + "\n\n";
}

// The request's identity for ClientRequestToken: its actions, without ReturnConsumedCapacity
// (DynamoDB says a retry may ask for different capacity reporting) and without the token.
std::string Fingerprint(const TransactWriteItemsRequest& r) {
  std::string out;
  for (const TransactWriteItem& t : r.transact_items) {
    if (t.put) {
      AddToFingerprint(&out, 'P', t.put->table_name, t.put->item, t.put->expressions,
                       t.put->return_values_on_condition_check_failure);
    } else if (t.update) {
      AddToFingerprint(&out, 'U', t.update->table_name, t.update->key, t.update->expressions,
                       t.update->return_values_on_condition_check_failure);
    } else if (t.delete_) {
      AddToFingerprint(&out, 'D', t.delete_->table_name, t.delete_->key, t.delete_->expressions,
                       t.delete_->return_values_on_condition_check_failure);
    } else if (t.condition_check) {
      AddToFingerprint(&out, 'C', t.condition_check->table_name, t.condition_check->key,
                       t.condition_check->expressions,
                       t.condition_check->return_values_on_condition_check_failure);
    }
  }
  return out;
}

}  // namespace

Result<TransactWriteItemsResponse> Database::TransactWriteItems(
    const TransactWriteItemsRequest& r) {
  KH_RETURN_IF_ERROR(CheckActionCount(r.transact_items.size(), "TransactWriteItem"));
  if (r.client_request_token &&
      (r.client_request_token->empty() || r.client_request_token->size() > kMaxTokenLength)) {
    return Status::Validation(fmt::format(
        "1 validation error detected: Value '{}' at 'clientRequestToken' failed to satisfy "
        "constraint: Member must have length {} or equal to {}",
        *r.client_request_token, r.client_request_token->empty() ? "greater than" : "less than",
        r.client_request_token->empty() ? 1 : kMaxTokenLength));
  }
  std::vector<Action> actions;
  size_t request_bytes = 0;
  for (const TransactWriteItem& t : r.transact_items) {
    KH_ASSIGN_OR_RETURN(Action a, Resolve(*impl_, t));
    request_bytes += ItemSize(*a.input);
    actions.push_back(std::move(a));
  }
  if (request_bytes > kMaxTransactionBytes) return TooLarge(request_bytes);

  // ClientRequestToken: a replay within 10 minutes succeeds without writing and reports read
  // units (reference §5.2); a different request with the token is refused.
  std::string fingerprint;
  const double now = impl_->clock();
  std::unique_lock<std::mutex> token_lock(impl_->token_mutex, std::defer_lock);
  if (r.client_request_token) {
    token_lock.lock();
    std::erase_if(impl_->tokens,
                  [&](const auto& e) { return now - e.second.completed_at > kTokenSeconds; });
    fingerprint = Fingerprint(r);
    auto it = impl_->tokens.find(*r.client_request_token);
    if (it != impl_->tokens.end()) {
      if (it->second.fingerprint != fingerprint) {
        // ⚠️ The message is not verified: DynamoDB's documentation of the exception.
        return Status::IdempotentMismatch(
            "DynamoDB rejected the request because you retried a request with a different payload "
            "but with an idempotent token that was already used.");
      }
      std::map<std::string, ConsumedCapacity> per_table;
      for (const ConsumedCapacity& cc : it->second.replay_capacity) per_table[cc.table_name] = cc;
      TransactWriteItemsResponse resp;
      resp.consumed_capacity = ReportAll(r.return_consumed_capacity, std::move(per_table));
      return resp;
    }
  }

  std::vector<const std::string*> table_of;
  for (const Action& a : actions) table_of.push_back(a.table);
  std::vector<size_t> index;
  const std::vector<std::string> names = Distinct(table_of, &index);
  std::map<std::string, ConsumedCapacity> per_table, replay;
  std::map<std::string, std::vector<ItemCollectionMetrics>> metrics;
  KH_RETURN_IF_ERROR(impl_->WithTables(names, true, [&](Txn& txn, const Impl::Handles& hs) {
    per_table.clear();
    replay.clear();
    std::vector<ItemWrite> writes;
    std::vector<Status> checks;
    std::set<std::pair<size_t, std::string>> items;
    for (size_t i = 0; i < actions.size(); ++i) {
      const Action& a = actions[i];
      ItemWrite w;
      w.kind = a.kind;
      w.table = hs[index[i]];
      w.input = a.input;
      w.parsed = &a.parsed;
      w.on_failure = a.on_failure;
      // An action the table's schema refuses (a key of the wrong type or with a missing or
      // extra attribute, an index key of the wrong type) cancels the transaction with reason
      // ValidationError, as DynamoDB does, rather than failing the request.
      Status check = CheckWrite(w);
      if (!check.ok() && !check.IsValidation()) return check;
      // An empty string or binary key value is refused up front, as a ValidationException of
      // the request, never a cancellation reason (the Parity Suite's transactWriteItems.test.ts,
      // eu-west-2 and a four-region capture).
      if (!check.ok() && IsEmptyKeyValue(check)) return check;
      if (check.ok() &&
          !items.emplace(index[i], EncodeTableKey(w.table->desc.key, *w.input)).second)
        return MultipleOperations();
      checks.push_back(std::move(check));
      writes.push_back(std::move(w));
    }
    // The actions are evaluated in request order (no two touch one item); the reasons report
    // every failed condition, but the first ValidationError stops the evaluation, the actions
    // after it reported as None ([ValidationError, None, None], as DynamoDB answers).
    std::vector<Status::CancellationReason> reasons;
    bool cancelled = false, stopped = false;
    for (size_t i = 0; i < writes.size(); ++i) {
      ItemWrite& w = writes[i];
      if (stopped) {
        reasons.push_back({"None", "", nullptr});
        continue;
      }
      Status s = checks[i].ok() ? EvaluateWrite(txn, &w) : checks[i];
      stopped = s.IsValidation();
      Status::CancellationReason reason{"None", "", nullptr};
      if (s.IsConditionFailed()) {
        reason = {"ConditionalCheckFailed", s.message(), s.item()};
      } else if (s.IsValidation()) {
        reason = {"ValidationError", s.message(), nullptr};
      } else if (!s.ok()) {
        return s;
      }
      cancelled |= !s.ok();
      reasons.push_back(std::move(reason));
    }
    if (cancelled) return Cancelled(std::move(reasons));
    metrics.clear();
    for (size_t i = 0; i < writes.size(); ++i) {
      ItemWrite& w = writes[i];
      w.want_metrics = r.return_item_collection_metrics;
      Status applied = ApplyWrite(txn, w, &per_table[w.table->desc.name]);
      if (applied.code() == ErrorCode::kItemCollectionSizeLimit) {
        // Cancels the transaction with this action's reason (reference §4.8); the write
        // transaction is abandoned, so nothing is written.
        std::vector<Status::CancellationReason> limit(writes.size(), {"None", "", nullptr});
        limit[i] = {"ItemCollectionSizeLimitExceeded", "Collection size exceeded.", nullptr};
        return Cancelled(std::move(limit));
      }
      KH_RETURN_IF_ERROR(applied);
      if (w.metrics) metrics[w.table->desc.name].push_back(std::move(*w.metrics));
      size_t size =
          w.kind == WriteKind::kPut || w.kind == WriteKind::kUpdate ? w.next_size : w.cur.size;
      replay[w.table->desc.name].table.AddRead(ReadUnits(size, true));
    }
    return Status::OK();
  }));
  // Transactional writes cost double: "prepare" and "commit" (reference §5.2).
  for (auto& [name, cc] : per_table) ScaleCapacity(2, &cc);
  if (r.client_request_token) {
    Impl::TokenEntry& e = impl_->tokens[*r.client_request_token];
    e.fingerprint = std::move(fingerprint);
    e.completed_at = impl_->clock();
    e.replay_capacity = ReportAll(ReturnConsumedCapacity::kIndexes, std::move(replay));
  }
  TransactWriteItemsResponse resp;
  resp.consumed_capacity = ReportAll(r.return_consumed_capacity, std::move(per_table));
  resp.item_collection_metrics = std::move(metrics);
  return resp;
}

Result<TransactGetItemsResponse> Database::TransactGetItems(const TransactGetItemsRequest& r) {
  KH_RETURN_IF_ERROR(CheckActionCount(r.transact_items.size(), "TransactGetItem"));
  std::vector<expr::ParsedExpressions> parsed;
  std::vector<const std::string*> table_of;
  for (const TransactGetItem& t : r.transact_items) {
    KH_RETURN_IF_ERROR(ValidateDataTableName(t.get.table_name));
    KH_ASSIGN_OR_RETURN(expr::ParsedExpressions p, ParseWithCondition(*impl_, t.get.expressions));
    parsed.push_back(std::move(p));
    table_of.push_back(&t.get.table_name);
  }
  std::vector<size_t> index;
  const std::vector<std::string> names = Distinct(table_of, &index);
  TransactGetItemsResponse resp;
  std::map<std::string, ConsumedCapacity> per_table;
  KH_RETURN_IF_ERROR(impl_->WithTables(names, false, [&](Txn& txn, const Impl::Handles& hs) {
    resp = TransactGetItemsResponse();
    per_table.clear();
    std::set<std::pair<size_t, std::string>> items;
    // A Get whose key the schema refuses (empty, wrong type, missing or extra attribute)
    // cancels the transaction with reason ValidationError, as DynamoDB does.
    std::vector<Status::CancellationReason> reasons(r.transact_items.size(), {"None", "", nullptr});
    bool invalid = false;
    for (size_t i = 0; i < r.transact_items.size(); ++i) {
      KH_RETURN_IF_ERROR(expr::CheckKeyPathsOf(parsed[i].projection, hs[index[i]]->desc));
    }
    for (size_t i = 0; i < r.transact_items.size(); ++i) {
      const Item& key = r.transact_items[i].get.key;
      Status s = ValidateKey(hs[index[i]]->desc.key, key, true);
      if (s.IsValidation()) {
        reasons[i] = {"ValidationError", s.message(), nullptr};
        invalid = true;
        continue;
      }
      KH_RETURN_IF_ERROR(s);
      if (!items.emplace(index[i], EncodeTableKey(hs[index[i]]->desc.key, key)).second)
        return MultipleOperations();
    }
    if (invalid) return Cancelled(std::move(reasons));
    size_t total = 0;
    bool too_large = false;
    for (size_t i = 0; i < r.transact_items.size(); ++i) {
      const TableHandle& h = *hs[index[i]];
      size_t size = 0;
      KH_ASSIGN_OR_RETURN(std::optional<Item> item,
                          ReadItem(txn, h, r.transact_items[i].get.key, &size));
      if (item && parsed[i].projection) item = expr::Project(*item, parsed[i].projection->paths);
      total += item ? ItemSize(*item) : 0;
      if (total > kMaxTransactionBytes && !too_large) {
        // ⚠️ Not verified: DynamoDB cancels a TransactGetItems whose items pass 4 MB; the code
        // and message of the reason are keyhole's choice, on the Get that crossed the limit.
        too_large = true;
        reasons[i] = {"ValidationError", "Transaction size has exceeded the maximum allowed size",
                      nullptr};
      }
      // Transactional reads cost double a strongly consistent read (reference §5.1).
      per_table[h.desc.name].table.AddRead(2 * ReadUnits(size, true));
      resp.responses.push_back(std::move(item));
    }
    if (too_large) return Cancelled(std::move(reasons));
    return Status::OK();
  }));
  resp.consumed_capacity = ReportAll(r.return_consumed_capacity, std::move(per_table));
  return resp;
}

}  // namespace keyhole::storage
