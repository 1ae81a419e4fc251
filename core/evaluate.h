// Validation and evaluation of expression ASTs (core/expression.h) over items.
//
// Validation is static: it needs the AST (and, for some checks, the table's key schema) but no
// item, and runs before any data is read, so a bad expression changes nothing. Evaluation runs
// on one item inside the storage engine's transaction. Messages follow DynamoDB exactly
// (reference §3); each is prefixed with ErrorPrefix(kind) where DynamoDB prefixes it.
#pragma once

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/attribute_value.h"
#include "core/expression.h"
#include "core/operations.h"
#include "core/schema.h"
#include "core/status.h"

namespace keyhole::expr {

// ---- paths ----

// The value at `path` in `item`, or nullptr when it does not resolve (missing attribute,
// wrong container type, index past the end).
const AttributeValue* Resolve(const Item& item, const Path& path);

// Overlap: one path equals or is a prefix of the other. Conflict: at the first differing
// position one has a name and the other an index.
bool PathsOverlap(const Path& a, const Path& b);
bool PathsConflict(const Path& a, const Path& b);

// ---- conditions (ConditionExpression, FilterExpression, KeyConditionExpression) ----

// Checks a condition: function names (case-sensitive) and arity, which functions may appear
// where, operand types of constants, `size` only as an operand, boolean functions only as
// conditions, the first operand distinct from the others, BETWEEN bounds given as constants,
// redundant parentheses, IN with at most 100 operands, at most 300 operators.
Status ValidateCondition(const Condition& c, Kind kind);

// Evaluates a validated condition on `item` (an absent item is an empty Item). Never fails:
// type mismatches coming from the item make a comparison false (reference §1.10).
bool Evaluate(const Condition& c, const Item& item);

// In a Query, a FilterExpression may not name key attributes of the table or queried index:
// "Filter Expression can only contain non-primary key attributes: Primary key attribute: <k>".
// A filter translated from the legacy QueryFilter (`legacy`) names it instead: "QueryFilter can
// only contain non-primary key attributes: Primary key attribute: <k>".
Status CheckFilterAvoidsKeys(const Condition& filter, const std::vector<std::string>& key_names,
                             bool legacy = false);

// Paths that reach inside a key attribute (`a.b`, `a[0]` where a is a key): "Key attributes
// must be scalars; list random access '[]' and map lookup '.' are not allowed: Key: <k>" for
// the table's key, "... IndexKey: <k>" for an index's (dynalite's tests record it against
// DynamoDB for projections and filters, Alternator's for updates). The table's key attributes
// are checked first, in key order, then each index's. `paths`: one expression's.
Status CheckKeyPaths(const std::vector<const Path*>& paths, const TableDescription& table);
// The paths of a condition, a projection, and an update (targets and values), for it.
void AppendPaths(const Condition& c, std::vector<const Path*>* out);
void AppendPaths(const ProjectionExpression& p, std::vector<const Path*>* out);
void AppendPaths(const UpdateExpression& u, std::vector<const Path*>* out);
// CheckKeyPaths of one of `parsed`'s expressions when it is there.
template <typename Expression>
Status CheckKeyPathsOf(const std::shared_ptr<const Expression>& e, const TableDescription& table) {
  if (!e) return Status::OK();
  std::vector<const Path*> paths;
  AppendPaths(*e, &paths);
  return CheckKeyPaths(paths, table);
}

// The checks of a KeyConditionExpression that need no key schema (operators, functions,
// operands, constant types, nesting), which DynamoDB makes before it looks the table up: a
// Query on a missing table with `attribute_type(a, :a)` is a ValidationException.
Status CheckKeyConditionShape(const Condition& c);

// Turns a KeyConditionExpression into the structured KeyCondition, with the messages of
// reference §3.5 ("Query condition missed key schema element: pk", "KeyConditionExpressions
// must only contain one condition per key", ...). `key` is the table's or index's key schema.
// `global_index`: the key is a global secondary index's, where DynamoDB answers a condition on
// an attribute that is not one of the index's keys with "Query key condition not supported".
Result<KeyCondition> ToKeyCondition(const Condition& c, const KeySchema& key,
                                    bool global_index = false);

// The key condition of a GSI with a multi-attribute key from its terms (one per attribute, from
// a KeyConditionExpression or the legacy KeyConditions): equality on every partition attribute;
// on the sort attributes, equalities on a left prefix and at most one other condition, on the
// last attribute constrained ("RANGE key attributes b must have equality conditions specified in
// the query because a condition is present on key attribute c"). REQUIRES:
// key.IsMultiAttribute(); each term has one value (two for BETWEEN).
Result<KeyCondition> MultiAttributeKeyCondition(const std::vector<KeyConditionTerm>& terms,
                                                const KeySchema& key);

// ---- projections ----

// Checks overlap/conflict between the paths ("Two document paths overlap ...").
Status ValidateProjection(const ProjectionExpression& p);
// The parts of `item` the paths name, in DynamoDB's shape: `a.b` -> {"a":{"b":..}},
// `a[1]` -> {"a":[element 1]}; paths that do not resolve are omitted.
Item Project(const Item& item, const std::vector<Path>& paths);

// ---- updates ----

// Static checks of an UpdateExpression (the parser already refused a clause used twice):
// function names/arity/operand types, overlapping and conflicting target paths, key attributes
// as targets ("Cannot update attribute <k>. This attribute is part of the key").
Status ValidateUpdate(const UpdateExpression& u, const KeySchema& table_key);

// Applies a validated update to `item` (the current item, or an Item holding just the key when
// the item does not exist; `existed` tells which). Runtime errors, all ValidationException:
// "The document path provided in the update expression is invalid for update",
// "The provided expression refers to an attribute that does not exist in the item",
// "An operand in the update expression has an incorrect data type", number overflow texts,
// empty-set results of SET. On error *item is unspecified (callers work on a copy). An update
// translated from the legacy AttributeUpdates (`legacy`, ParsedExpressions::legacy) words the
// incorrect data type as DynamoDB does there: "Type mismatch for attribute to update".
Status ApplyUpdate(const UpdateExpression& u, bool existed, Item* item, bool legacy = false);

// What DynamoDB charges an UpdateItem's statement against the 400 KB ceiling (most regions,
// core/regional.h): 3, plus for each SET 19, its target and its value's operands, for each ADD
// 19, its target and what it adds (a set's new members only, by `current`, the item before the
// update or null), and for each REMOVE or DELETE 1 and its target. A target costs its first
// name's bytes and 4 plus the element for each later element (a name's bytes, an index's
// digits); an operand path 1 plus 14 and the element for each element; a value its size;
// `+` 34, `-` 37, if_not_exists 39 and list_append 37 plus their operands. The update is refused
// when this passes 409,600, whatever the finished item measures (the Parity Suite's
// itemSizeBySurface.test.ts, measured against eu-west-2, 2026-08 and 2026-10).
size_t UpdateStatementCharge(const UpdateExpression& u, const Item* current);

// The top-level-rooted paths an update touched, for ReturnValues UPDATED_OLD/UPDATED_NEW:
// Project(old or new item, UpdatedPaths(u)).
std::vector<Path> UpdatedPaths(const UpdateExpression& u);

}  // namespace keyhole::expr
