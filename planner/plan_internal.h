// Internal to planner/: WHERE analysis helpers and the per-statement planners that plan.cpp
// dispatches to. Not part of the library's interface.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/expression.h"
#include "core/operations.h"
#include "core/schema.h"
#include "parser/partiql.h"
#include "planner/plan.h"

namespace keyhole::planner::internal {

// The OR branches of `c` (nested top-level ORs flattened); `c` itself when it is not an OR.
std::vector<const expr::Condition*> OrBranches(const expr::Condition& c);
// The AND conjuncts of `c` (nested ANDs flattened); `c` itself when it is not an AND.
std::vector<const expr::Condition*> AndConjuncts(const expr::Condition& c);

// The top-level attribute name of a one-element path operand, or nullopt.
std::optional<std::string> TopName(const expr::Operand& o);
// The top-level names a condition mentions (every path's first element), in order.
void MentionedNames(const expr::Condition& c, std::vector<std::string>* out);

// `name = v` / `v = name`: the value; nullopt for any other shape.
std::optional<AttributeValue> EqualityValue(const expr::Condition& c, const std::string& name);
// `name = v` (one value) or `name IN (v, ...)` (the values); nullopt for any other shape.
std::optional<std::vector<AttributeValue>> PinnedValues(const expr::Condition& c,
                                                        const std::string& name);
// A sort-key predicate on `name` usable as a key condition (=, <, <=, >, >=, BETWEEN,
// begins_with with constant operands); fills kc's sort fields. False for any other shape.
bool SortKeyPredicate(const expr::Condition& c, const std::string& name, KeyCondition* kc);

// AND of `parts` (the single part itself when there is one). REQUIRES: !parts.empty().
expr::Condition AndOf(std::vector<expr::Condition> parts);
// function(name), e.g. attribute_exists(pk).
expr::Condition PathFunction(const std::string& function, const std::string& name);

// The key an UPDATE/DELETE (or EXISTS) WHERE pins with `=` on every key attribute, and its
// other conjuncts; DynamoDB's messages for a WHERE that does not (reference §2.8).
struct KeyedWhere {
  Item key;
  std::vector<expr::Condition> rest;
};
Result<KeyedWhere> SplitKeyedWhere(const std::optional<expr::Condition>& where,
                                   const KeySchema& schema);

// ---- teaching texts (plan_hints.cpp) ----

// When `where` compares one of `key_names` with an attribute name where a value was meant
// (`PK = "USER#1"`, `PK = alice`): the explanation with the single-quoted form; else nullopt.
std::optional<std::string> PathForValue(const std::optional<expr::Condition>& where,
                                        const std::vector<std::string>& key_names);
// "PK is a string (S) in the key schema; the statement gives a number (N): quote it, ...",
// the fix written as a WHERE equality (PK = '1') or, `in_map`, an INSERT's entry ('PK': '1').
std::string KeyTypeHint(const KeyAttribute& key, const AttributeValue& given, bool in_map = false);
// For a refused SELECT, the index that would serve it as a statement to copy (ALTER TABLE ...
// ADD GLOBAL INDEX), the Query to run then, and what the index costs in writes:
//  - the sort key of the table, or of the index the statement reads (`index`), pinned with =
//    or IN in every OR branch: the inverted index (those keys swapped); on an index, nothing
//    else is proposed;
//  - a non-key attribute pinned with = or IN in every OR branch: an index with it as the
//    partition key;
//  - a range or begins_with on one attribute no index keys (or on the table's sort key), in a
//    WHERE without OR: no index serves a range over the whole table; an index whose partition
//    key the wanted items share, sorted by the attribute, does (or SCAN).
// "" when none applies.
std::string IndexSuggestion(const parser::SelectStatement& s, const TableDescription& table,
                            const IndexDescription* index = nullptr);

// An UPDATE that SETs or REMOVEs a key attribute (refused: "Cannot update attribute SK. This
// attribute is part of the key"): how to move the item instead, with the statements (a DELETE
// of the item's `key`, an INSERT under the new key, in one transaction).
std::string KeyUpdateHint(const parser::UpdateStatement& s, const TableDescription& table,
                          const Item& key);

// Plan::names_as_values of a SELECT, UPDATE or DELETE (one-element paths on the right of a
// comparison, in an IN list, as the second argument of begins_with or contains, or as a SET
// value), in order, once each.
std::vector<std::string> NamesWhereValuesGo(const parser::Statement& st);

// The per-statement planners (plan_select.cpp, plan_write.cpp).
Result<Plan> PlanSelect(const parser::Statement& st, const TableDescription& table,
                        const PlanOptions& options);
Result<Plan> PlanInsert(const parser::InsertStatement& s, const TableDescription& table);
Result<Plan> PlanUpdate(const parser::Statement& st, const TableDescription& table);
Result<Plan> PlanDelete(const parser::Statement& st, const TableDescription& table);

}  // namespace keyhole::planner::internal
