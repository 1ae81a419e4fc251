// api::Service: the DynamoDB service every front end calls (the shell, `keyhole serve`, and
// later the remote shell's local tools). It runs any operation keyhole has, given its name and
// its JSON body as the HTTP API and `aws dynamodb ... --cli-input-json` send them, on a Backend;
// and DynamoDB's PartiQL operations (ExecuteStatement, BatchExecuteStatement,
// ExecuteTransaction), planned by planner/: a SELECT that would scan is refused unless its text
// says SCAN, or run as DynamoDB runs it, a Scan, when ServiceOptions::scan_unpinned_selects
// says so (keyhole serve).
//
// NextToken (ExecuteStatement) is keyhole's own opaque token: base64 of {"h": <fingerprint of
// the statement and parameters>, "o": <operation>, "k": <LastEvaluatedKey>}. A token that does
// not decode is "Invalid NextToken"; one made for another statement is "NextToken does not
// match request" (reference §2.5).
//
// Thread-safety: a Service holds no state of its own besides the Backend reference; it is as
// thread-safe as its Backend.
#pragma once

#include <atomic>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "api/partiql_api.h"
#include "core/backend.h"
#include "core/json.h"
#include "core/status.h"
#include "parser/partiql.h"
#include "planner/plan.h"
#include "planner/plan_transaction.h"

namespace keyhole::api {

// What one call carries besides its request.
struct CallContext {
  // Checked between the operations and pages of a PartiQL statement; when set, the call stops
  // with InterruptedException (the shell's Ctrl-C; a server's shutdown). Null: never.
  const std::atomic<bool>* cancel = nullptr;
  // The host (and port) the request was sent to, as its Host header gives it: DescribeEndpoints
  // answers with it. Empty (the shell): "dynamodb.local.amazonaws.com".
  std::string host;
  // Members the API does not define are skipped, as DynamoDB skips them (keyhole serve), rather
  // than refused with the members there are (the shell).
  bool ignore_unknown_members = false;
};

// The control-plane calls SDKs and tools make routinely that need no storage of their own
// (service_control.cpp), answered as DynamoDB answers them for an account and tables that have
// none of the feature: DescribeLimits (DynamoDB's default account quotas), DescribeEndpoints,
// DescribeKinesisStreamingDestination, DescribeContributorInsights,
// DescribeTableReplicaAutoScaling, ListBackups, ListGlobalTables, ListContributorInsights. The
// per-table ones check the table through Backend::TableSchema (ResourceNotFoundException
// "Requested resource not found: Table: <name> not found").
bool IsControlOperation(std::string_view name);
// Runs one of them. REQUIRES: IsControlOperation(op).
Result<json::Value> CallControl(std::string_view op, const json::Value& body, Backend& backend,
                                const CallContext& context);

// The planner's schemas and operations, served by a Backend.
class BackendSchemas : public planner::SchemaSource {
 public:
  explicit BackendSchemas(Backend& backend) : backend_(backend) {}
  Result<TableSchemaPtr> TableSchema(const std::string& name) const override {
    return backend_.TableSchema(name);
  }

 private:
  Backend& backend_;
};

class BackendExecutor : public planner::Executor {
 public:
  explicit BackendExecutor(Backend& backend) : backend_(backend) {}
  Result<GetItemResponse> GetItem(const GetItemRequest& r) override { return backend_.GetItem(r); }
  Result<QueryResponse> Query(const QueryRequest& r) override { return backend_.Query(r); }
  Result<ScanResponse> Scan(const ScanRequest& r) override { return backend_.Scan(r); }
  Result<PutItemResponse> PutItem(const PutItemRequest& r) override { return backend_.PutItem(r); }
  Result<UpdateItemResponse> UpdateItem(const UpdateItemRequest& r) override {
    return backend_.UpdateItem(r);
  }
  Result<DeleteItemResponse> DeleteItem(const DeleteItemRequest& r) override {
    return backend_.DeleteItem(r);
  }

 protected:
  Backend& backend_;
};

// What a PartiQL transaction did: the items of a read transaction (in statement order, absent
// ones left out) or the capacity of a write transaction.
struct TransactionOutcome {
  bool reads = false;
  std::vector<std::optional<Item>> responses;       // reads: one per statement
  std::vector<ConsumedCapacity> consumed_capacity;  // one per table
  std::string first_table;                          // the first statement's table
};

// A scan one call made: an ExecuteStatement SELECT run as a Scan (ServiceOptions::
// scan_unpinned_selects), or a Scan call.
struct ScanEvent {
  std::string_view operation;  // "ExecuteStatement" or "Scan"
  // The statement's text; for a Scan call, "Scan \"T\"" [."I"] with its FilterExpression.
  std::string_view statement;
  std::string_view table;
  std::optional<std::string_view> index;
  const planner::ScanAdvice* advice = nullptr;  // what would serve it without a scan
  int64_t scanned_count = 0;                    // items the call read
};

// Told of every scan a Service's calls make (keyhole serve's log and --scan-report).
// Thread-safety: Scanned may be called from many threads at once.
class ScanObserver {
 public:
  virtual ~ScanObserver() = default;
  virtual void Scanned(const ScanEvent& event) = 0;
};

struct ServiceOptions {
  // Run an ExecuteStatement SELECT that pins no partition key as DynamoDB does, a Scan with the
  // WHERE as its filter (planner::PlanOptions), rather than refuse it. keyhole serve sets it
  // (unless --refuse-scans); the shell keeps its rule: SCAN is written or the SELECT refused.
  // BatchExecuteStatement and ExecuteTransaction take key-addressed statements either way.
  bool scan_unpinned_selects = false;
  ScanObserver* scans = nullptr;  // not owned; outlives the Service
};

class Service {
 public:
  // `backend` (and options.scans) must outlive the service.
  explicit Service(Backend& backend, ServiceOptions options = {})
      : backend_(backend), options_(options) {}

  Backend& backend() { return backend_; }

  // Every operation Call runs (DynamoDB's and DynamoDB Streams' names): the one list the shell's
  // completion and the HTTP fuzzer use. Its order is stable (the fuzzer's seeds pick an operation
  // by its index): new operations go at the end.
  static std::span<const std::string_view> Operations();
  // True for every name in Operations().
  static bool IsOperation(std::string_view name);

  // Decodes `body` as the request of `operation`, runs it and returns the response body.
  // Errors: the decoder's (ValidationException with DynamoDB's or botocore's wording), the
  // operation's own, and ValidationException "Unknown operation: X" for a name IsOperation
  // does not know (the server answers an unknown target before calling).
  Result<json::Value> Call(std::string_view operation, const json::Value& body,
                           const CallContext& context = {});

  // The PartiQL operations on their request structs.
  Result<ExecuteStatementResponse> ExecuteStatement(const ExecuteStatementRequest& request,
                                                    const CallContext& context = {});
  Result<BatchExecuteStatementResponse> BatchExecuteStatement(
      const BatchExecuteStatementRequest& request, const CallContext& context = {});
  Result<ExecuteTransactionResponse> ExecuteTransaction(const ExecuteTransactionRequest& request,
                                                        const CallContext& context = {});

  // BatchExecuteStatement over statements already parsed (the shell's BEGIN BATCH ... COMMIT
  // too): all reads or all writes (else nothing runs); each statement runs on its own and its
  // error goes into its response. `options` (ConsistentRead, ReturnValuesOnConditionCheckFailure)
  // parallel to `statements`, or empty.
  Result<BatchExecuteStatementResponse> ExecuteBatch(
      const std::vector<Result<parser::Statement>>& statements,
      const std::vector<PartiqlStatement>& options, ReturnConsumedCapacity return_consumed_capacity,
      const CallContext& context = {});

  // A PartiQL transaction (ExecuteTransaction, and the shell's BEGIN ... COMMIT): plans the
  // statements (planner/plan_transaction.h: DynamoDB's rules and messages) and sends one
  // TransactGetItems or TransactWriteItems. `on_failure` (ReturnValuesOnConditionCheckFailure
  // per statement) parallel to `statements`, or empty; `token` the ClientRequestToken.
  Result<TransactionOutcome> RunTransaction(const std::vector<parser::Statement>& statements,
                                            const std::vector<ReturnValues>& on_failure,
                                            const std::optional<std::string>& token,
                                            ReturnConsumedCapacity return_consumed_capacity);

 private:
  // Tells options_.scans of a Scan call's scan (its request and what it read).
  void ObserveScan(const ScanRequest& request, int64_t scanned_count);
  // Call's handlers, one per kind of operations.def's entries (service.cpp): decode the body,
  // run the operation, encode the response.
  template <typename Request, typename Response, auto Decode, auto Execute, auto Encode>
  Result<json::Value> CallBackend(std::string_view op, const json::Value& body,
                                  const CallContext& context);
  template <typename Request, typename Response, auto Decode, auto Execute, auto Encode>
  Result<json::Value> CallPartiql(std::string_view op, const json::Value& body,
                                  const CallContext& context);
  Result<json::Value> CallControlPlane(std::string_view op, const json::Value& body,
                                       const CallContext& context);
  // The handler of `op` (one per operations.def entry), or null for a name it does not list.
  using Handler = Result<json::Value> (Service::*)(std::string_view, const json::Value&,
                                                   const CallContext&);
  static const Handler* FindHandler(std::string_view op);

  Backend& backend_;
  ServiceOptions options_;
};

// Parses a statement of a PartiQL operation: PartiQL DML only (keyhole's own statements and
// EXPLAIN belong to the shell, not to the API).
Result<parser::Statement> ParseApiStatement(const std::string& text,
                                            const std::vector<AttributeValue>& parameters);

}  // namespace keyhole::api
