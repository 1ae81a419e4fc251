// PartiQL transactions: the statements between BEGIN and COMMIT planned as DynamoDB's
// ExecuteTransaction plans them (reference §2.10), into one TransactWriteItems or one
// TransactGetItems request.
//
//  - 1..100 statements, all reads (SELECT) or all writes (INSERT, UPDATE, DELETE, with
//    EXISTS(SELECT ...) as a ConditionCheck among writes).
//  - A SELECT must pin the full primary key of the table with `=` and nothing else:
//    "Select statements within ExecuteTransaction must specify the primary key in the where
//    clause." Reading an index: "Reads on indices are not supported within transactions."
//  - EXISTS(SELECT ... WHERE <full key> AND <condition>) is a ConditionCheck on that item (the
//    condition may test key attributes too, e.g. attribute_exists(pk)):
//    "EXISTS() must contain a single item read with additional condition" otherwise; on an
//    index: "Operations on indices are not supported in transactions".
//  - RETURNING: "RETURNING clause is not supported in ExecuteTransaction."
//  - INSERT is a Put with attribute_not_exists(<partition key>), UPDATE an Update with
//    attribute_exists(<partition key>) and the WHERE's other terms, DELETE a Delete with them,
//    exactly as the single statements plan (plan.h).
// A statement-level error is "Validation failed in TransactStatements[<i>]: <message>" (0-based
// index). Mixing reads and writes is keyhole's wording (DynamoDB's is not documented):
// "Validation failed in TransactStatements[<i>]: a transaction's statements must be all reads
// (SELECT) or all writes (INSERT, UPDATE, DELETE, EXISTS)". Statements other than
// SELECT/INSERT/UPDATE/DELETE/EXISTS, and SCAN or EXPLAIN prefixes, are refused the same way.
// Two statements on one item, sizes and conditions are the storage engine's to check
// (TransactWriteItems / TransactGetItems).
#pragma once

#include <string>
#include <variant>
#include <vector>

#include "core/operations.h"
#include "core/status.h"
#include "parser/partiql.h"
#include "planner/plan.h"

namespace keyhole::planner {

struct TransactionPlan {
  // TransactWriteItemsRequest for writes, TransactGetItemsRequest for reads; both ask for
  // ReturnConsumedCapacity TOTAL.
  std::variant<TransactWriteItemsRequest, TransactGetItemsRequest> request;
  bool reads() const { return std::holds_alternative<TransactGetItemsRequest>(request); }
};

Result<TransactionPlan> PlanTransaction(const std::vector<parser::Statement>& statements,
                                        const SchemaSource& schemas);

}  // namespace keyhole::planner
