// Building blocks of the request decoders in api/api_json.h: member checks, typed member reads
// and DynamoDB's constraint-violation messages. Internal to api_json_*.cpp.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/ddb_json.h"
#include "core/json.h"
#include "core/operations.h"
#include "core/schema.h"
#include "core/status.h"

namespace keyhole::api_json {

// Where a value sits in a request, spelled two ways: `param` as the API and botocore name it
// ("KeySchema[0].AttributeName"), for type and member errors, and `member` as DynamoDB's
// constraint messages do ("keySchema.1.member.attributeName").
struct Path {
  std::string param;
  std::string member;

  Path Child(std::string_view name) const;  // a structure member
  Path Element(size_t i) const;             // a list element (0-based; shown 1-based)
  Path Entry(std::string_view key) const;   // a map entry
};

// Constraint violations, reported together in DynamoDB's envelope.
class Violations {
 public:
  // Records "Value '<shown>' at '<at.member>' failed to satisfy constraint: <constraint>";
  // nullopt shows as "Value null".
  void Add(const Path& at, std::optional<std::string_view> shown, std::string_view constraint);
  // "Member must not be null".
  void AddNull(const Path& at);
  // "Value at '<at>' failed to satisfy constraint: <constraint>": the wording of DynamoDB's newer
  // validation framework, which names the member as the API does ('Limit') and shows no value.
  void AddUnvalued(std::string_view at, std::string_view constraint);
  bool empty() const { return messages_.empty(); }
  // OK, or "N validation error(s) detected: m1; m2; ...".
  Status ToStatus() const;

 private:
  std::vector<std::string> messages_;
};

// A member of a request structure and whether keyhole implements it yet.
struct MemberSpec {
  std::string_view name;
  bool supported = true;
};

// "keyhole does not support the parameter <param> yet" (+ " (" detail ")").
Status Unsupported(std::string_view param, std::string_view detail = {});

// While one is alive on the thread, CheckStructure skips members the API does not define, as
// DynamoDB's service reads a request (dynalite's validations drop them; keyhole serve's
// requests). Otherwise they are refused, naming the members there are (the shell's API form).
class UnknownMembersIgnored {
 public:
  UnknownMembersIgnored();
  ~UnknownMembersIgnored();
  UnknownMembersIgnored(const UnknownMembersIgnored&) = delete;
  UnknownMembersIgnored& operator=(const UnknownMembersIgnored&) = delete;

 private:
  bool previous_;
};

// Checks that `v` is a JSON object whose members all appear in `spec`. An unknown member is
// "Unknown parameter in input: \"X\", must be one of: A, B" ("in KeySchema[0]" when nested);
// a member with supported = false is Unsupported().
Status CheckStructure(const json::Value& v, const Path& at, std::span<const MemberSpec> spec);

// Typed reads of the member `name` of the object `obj` at `at`. Absent and JSON null read as
// not given. The wrong JSON type is "Invalid type for parameter <param>, value: <json>, type:
// <kind>, valid types: <expected>".
Result<std::optional<std::string>> ReadString(const json::Value& obj, std::string_view name,
                                              const Path& at);
Result<std::optional<bool>> ReadBool(const json::Value& obj, std::string_view name, const Path& at);
// An integer written as plain JSON integer digits, within int32 (or int64 when `is_long`).
Result<std::optional<int64_t>> ReadInteger(const json::Value& obj, std::string_view name,
                                           const Path& at, bool is_long = false);
// A JSON array, or nullptr.
Result<const json::Value*> ReadList(const json::Value& obj, std::string_view name, const Path& at);
// A JSON object (a map or a structure), or nullptr.
Result<const json::Value*> ReadObject(const json::Value& obj, std::string_view name,
                                      const Path& at);
// The error for `v` found at `at` where `expected` ("string", "array", ...) was required.
Status TypeError(const Path& at, const json::Value& v, std::string_view expected);

// A list member whose elements are strings.
Result<std::optional<std::vector<std::string>>> ReadStringList(const json::Value& obj,
                                                               std::string_view name,
                                                               const Path& at);

// An enum's values in the order DynamoDB's "Member must satisfy enum value set: [..]" lists them.
using EnumValues = std::span<const std::string_view>;

// Reads a string enum member: its index in `values`, or nullopt when absent or not one of them
// (recorded in *errs).
Result<std::optional<size_t>> ReadEnum(const json::Value& obj, std::string_view name,
                                       const Path& at, EnumValues values, Violations* errs);

// Table and index names: [a-zA-Z0-9_.-]+ and 3..255 characters.
void CheckTableName(std::string_view name, const Path& at, Violations* errs);
// Length of a string or list within [min, max]; `shown` is how the message quotes the value.
void CheckLength(size_t length, size_t min, size_t max, std::string_view shown, const Path& at,
                 Violations* errs);
// An integer within [min, max].
void CheckRange(int64_t value, int64_t min, int64_t max, const Path& at, Violations* errs);
// A list as DynamoDB quotes it: "[a, b]".
std::string ShowList(const std::vector<std::string>& items);

// ---- shapes shared by several operations ----

// A request without TableName (or with null): DynamoDB's "The parameter 'TableName' is
// required but was not present in the request" (CreateTable, DescribeTable, DeleteTable,
// UpdateTable, DescribeTimeToLive), found after the members' JSON types and before their
// constraints (dynalite's tests, run against AWS; reference §7.2).
Status RequireTableName(const json::Value& request);
// The TableName of the control-plane operations on an existing table (DescribeTable,
// UpdateTable, DeleteTable, the TTL and backup operations): a table name, or the table's ARN
// in this thread's region and account (core/schema.h ArnScope), which DynamoDB also accepts;
// the name either way.
Result<std::string> ReadTableNameOrArnMember(const json::Value& obj, std::string_view name,
                                             const Path& at, bool required, Violations* errs);
// TableName (required): the name, "" when absent (recorded).
Result<std::string> ReadTableNameMember(const json::Value& obj, std::string_view name,
                                        const Path& at, bool required, Violations* errs);
// The TableName of a data-plane operation (items, reads, batches, transactions): a name or a
// table ARN, length 1 to 1024 (DynamoDB's constraint since table ARNs were accepted there). An
// ARN of a keyhole table is returned as the table's name.
Result<std::string> ReadDataTableNameMember(const json::Value& obj, std::string_view name,
                                            const Path& at, bool required, Violations* errs);
// A RequestItems key of BatchGetItem/BatchWriteItem: a table ARN as its name, else unchanged.
std::string DataTableName(std::string_view name_or_arn);
// AttributeDefinitions: [{AttributeName, AttributeType}].
Result<std::vector<AttributeDefinition>> ReadAttributeDefinitions(const json::Value& list,
                                                                  const Path& at, Violations* errs);
// KeySchema: [{AttributeName, KeyType}], 1..2 elements; a GSI's (`global`) has no upper bound
// in DynamoDB's model since multi-attribute keys (CreateTable checks the 4 + 4 limit).
Result<std::vector<KeySchemaElement>> ReadKeySchema(const json::Value& list, const Path& at,
                                                    Violations* errs, bool global = false);
// Projection: {ProjectionType?, NonKeyAttributes?} into `spec`.
Status ReadProjection(const json::Value& obj, const Path& at, IndexSpec* spec, Violations* errs);
// ProvisionedThroughput: {ReadCapacityUnits, WriteCapacityUnits}, both required and >= 1.
// OnDemandThroughput {MaxReadRequestUnits, MaxWriteRequestUnits} and WarmThroughput
// {ReadUnitsPerSecond, WriteUnitsPerSecond}: members of `obj` at `at` (absent: nullopt). JSON
// types only; core/throughput.h checks the values.
Result<std::optional<OnDemandThroughputSpec>> ReadOnDemandThroughput(const json::Value& obj,
                                                                     const Path& at);
Result<std::optional<WarmThroughputSpec>> ReadWarmThroughput(const json::Value& obj,
                                                             const Path& at);

Status ReadThroughput(const json::Value& obj, const Path& at, std::optional<int64_t>* read,
                      std::optional<int64_t>* write, Violations* errs);

// StreamSpecification {StreamEnabled (required), StreamViewType? (enum)} of CreateTable and
// UpdateTable (api_json_streams.cpp); nullopt when absent.
Result<std::optional<StreamSpecification>> ReadStreamSpecification(const json::Value& v,
                                                                   const Path& at,
                                                                   Violations* errs);
// After the constraint errors: StreamEnabled true needs a StreamViewType (ValidationException).
Status CheckStreamViewTypeGiven(const std::optional<StreamSpecification>& spec,
                                const json::Value& v);

// Tags: [{Key, Value}] (api_json_control.cpp); nullopt when absent. The tag rules are storage's
// (core/tags.h).
Result<std::optional<std::vector<Tag>>> ReadTags(const json::Value& v, const Path& at);
// SSESpecification {Enabled?, SSEType? (AES256 | KMS), KMSMasterKeyId?}; nullopt when absent.
Result<std::optional<SSESpecification>> ReadSseSpecification(const json::Value& v, const Path& at,
                                                             Violations* errs);

// ---- how an operation words its request's errors ----

// Where an operation reads its attribute values (core/ddb_json.h ValueLayer) and whether an
// ExpressionAttributeValues error is wrapped as "ExpressionAttributeValues contains invalid
// value: <message> for key <k>" (the older layer) or bare (the current one). The Parity Suite's
// valueLayers captures (October 2026): PutItem, UpdateItem, DeleteItem, GetItem, BatchGetItem
// and Query read the current layer; BatchWriteItem, the transactions and Scan the older one,
// but where the region reads transactions in the current one (core/regional.h).
struct Wording {
  ValueLayer values = ValueLayer::kCurrent;
  bool key_wrapper = false;
};
inline constexpr Wording kCurrentWording{ValueLayer::kCurrent, false};
inline constexpr Wording kOlderWording{ValueLayer::kOlder, true};
// The transactions' wording in the region this thread serves.
Wording TransactionWording();

// `s` in DynamoDB's "1 validation error detected: " envelope, as its current layer reports a
// single-item write's request errors (values, ReturnValues, Expected, the expression maps, the
// ConditionExpression's own problems); unchanged when it is not a ValidationException or is
// enveloped already.
Status Enveloped(Status s);

// Whether `v` nests JSON more than `levels` deep (a document at the top is one level).
bool NestedDeeperThan(const json::Value& v, int levels);

// ---- shared with the batch and transaction decoders (defined in api_json_items.cpp) ----

// ReturnConsumedCapacity (default NONE).
Result<ReturnConsumedCapacity> ReadReturnConsumedCapacity(const json::Value& v, const Path& at,
                                                          Violations* errs);
// ReturnItemCollectionMetrics: true for SIZE, false for NONE or absent.
Result<bool> ReadCollectionMetrics(const json::Value& v, const Path& at, Violations* errs);
// A required object member (Item, Key, RequestItems): nullptr when absent (recorded).
Result<const json::Value*> ReadRequiredObject(const json::Value& v, std::string_view name,
                                              const Path& at, Violations* errs);
// The expression members present in `v` into *out, their values worded as `wording` says.
Status ReadExpressionMembers(const json::Value& v, const Path& at, expr::ExpressionInput* out,
                             const Wording& wording);
// TransactWriteItems' Put, Delete and Update bodies at `at`, into the single-item requests; their
// values in the older layer when `older` (a request nested 128 JSON levels or more: both groups
// of regions then name a value's key, nestingDepth.test.ts), else the region's
// (TransactionWording).
Status ReadTransactPut(const json::Value& v, const Path& at, PutItemRequest* r, bool older);
Status ReadTransactDelete(const json::Value& v, const Path& at, DeleteItemRequest* r, bool older);
Status ReadTransactUpdate(const json::Value& v, const Path& at, UpdateItemRequest* r, bool older);

// ---- the legacy (non-expression) parameters (api_json_legacy.cpp) ----
// Expected, ConditionalOperator, AttributeUpdates, AttributesToGet, ScanFilter, QueryFilter and
// KeyConditions. A decoder reads them in its constraint phase (ReadLegacyMembers), relates them
// to the expression members once those are read (CheckLegacyMix), and translates them into
// ExpressionInput::parsed (TranslateLegacy). KeyConditions stays structured (KeyConditionTerm).

// The operations that take legacy parameters: each has its own members and messages.
enum class LegacyOp { kPutItem, kDeleteItem, kUpdateItem, kGetItem, kBatchGetItem, kQuery, kScan };

// One entry of KeyConditions, QueryFilter or ScanFilter after the constraint phase: its
// operator (a ComparisonOperator name) and its AttributeValueList, not yet decoded.
struct RawCondition {
  std::string name;
  std::string_view op;
  const json::Value* values = nullptr;  // the AttributeValueList array, or nullptr
  Path at;
  ValueLayer layer = ValueLayer::kCurrent;  // how its values are read (Scan's: the older)
};

// One entry of Expected after the constraint phase.
struct RawExpected {
  std::string name;
  Path at;
  const json::Value* values = nullptr;  // AttributeValueList
  std::optional<std::string_view> op;   // ComparisonOperator
  std::optional<bool> exists;           // Exists
  const json::Value* value = nullptr;   // Value
};

// One entry of AttributeUpdates after the constraint phase.
struct RawUpdate {
  std::string name;
  Path at;
  std::string_view action = "PUT";     // the default Action
  const json::Value* value = nullptr;  // Value
};

// The legacy members of one request (pointers into it), read with their JSON types and
// constraints.
struct LegacyMembers {
  LegacyOp op = LegacyOp::kGetItem;
  const json::Value* body = nullptr;  // the request structure holding them
  std::optional<std::string> conditional_operator;
  const json::Value* expected = nullptr;
  std::vector<RawExpected> expected_entries;
  const json::Value* attribute_updates = nullptr;
  std::vector<RawUpdate> updates;
  std::optional<std::vector<std::string>> attributes_to_get;
  const json::Value* filter = nullptr;  // ScanFilter or QueryFilter
  std::vector<RawCondition> filter_conditions;
  const json::Value* key_conditions = nullptr;  // Query
  std::vector<RawCondition> key_condition_terms;
};

// Right after the member check: a ConditionalOperator that is neither AND nor OR, which
// DynamoDB reports on its own ("Failed to satisfy constraint: Member must satisfy enum value
// set: [ALL, OR]", sic).
Status CheckConditionalOperatorValue(const json::Value& v, const Path& at);
// Reads the legacy members `op` takes from `v` (at `at`), recording their constraint violations
// (ComparisonOperator and Action enums, a null ComparisonOperator in a filter or KeyConditions,
// AttributesToGet's 1..255 length) in *errs. A map naming an attribute twice is refused.
Result<LegacyMembers> ReadLegacyMembers(const json::Value& v, LegacyOp op, const Path& at,
                                        Violations* errs);
// After the expression members are read into `in`, in DynamoDB's order: "Can not use both
// expression and non-expression parameters in the same request: Non-expression parameters:
// {..} Expression parameters: {..}" (each side in the API's member order; KeyConditions counts
// only beside KeyConditionExpression); "ExpressionAttributeNames can only be specified when
// using expressions"; "ExpressionAttributeValues can only be specified when using expressions:
// <the operation's value expressions> is/are null"; "ConditionalOperator cannot be used without
// Filter or Expected" and "ConditionalOperator can only be used when Filter or Expected has two
// or more elements".
Status CheckLegacyMix(const LegacyMembers& m, const expr::ExpressionInput& in);
// Validates the legacy members (except KeyConditions) with DynamoDB's messages and translates
// them into in->parsed (ParsedExpressions::legacy set) and in->legacy. No change when the
// request has none. REQUIRES: CheckLegacyMix passed.
Status TranslateLegacy(const LegacyMembers& m, expr::ExpressionInput* in);

// Reads a KeyConditions, QueryFilter or ScanFilter map (at `at`).
Result<std::vector<RawCondition>> ReadConditionMap(const json::Value& map, const Path& at,
                                                   Violations* errs);
// Decodes one condition's values and applies its operator's rules, in DynamoDB's order: the
// number of values ("Invalid number of argument(s) for the EQ ComparisonOperator"), one type
// for all, a type the operator takes ("ComparisonOperator LE is not valid for SS AttributeValue
// type"), BETWEEN's bounds in order.
Result<std::vector<AttributeValue>> DecodeCondition(const RawCondition& c);
// KeyConditions' rules that need no table: values, operator rules, 1 or 2 conditions, then the
// operators a key condition can use.
Result<std::vector<KeyConditionTerm>> DecodeKeyConditions(const std::vector<RawCondition>& raw);

}  // namespace keyhole::api_json
