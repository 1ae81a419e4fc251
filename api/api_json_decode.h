// Building blocks of the request decoders in api/api_json.h: member checks, typed member reads
// and DynamoDB's constraint-violation messages. Internal to api_json_*.cpp.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

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
// KeySchema: [{AttributeName, KeyType}], 1..2 elements.
Result<std::vector<KeySchemaElement>> ReadKeySchema(const json::Value& list, const Path& at,
                                                    Violations* errs);
// Projection: {ProjectionType?, NonKeyAttributes?} into `spec`.
Status ReadProjection(const json::Value& obj, const Path& at, IndexSpec* spec, Violations* errs);
// ProvisionedThroughput: {ReadCapacityUnits, WriteCapacityUnits}, both required and >= 1.
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

// ---- shared with the batch and transaction decoders (defined in api_json_items.cpp) ----

// ReturnConsumedCapacity (default NONE).
Result<ReturnConsumedCapacity> ReadReturnConsumedCapacity(const json::Value& v, const Path& at,
                                                          Violations* errs);
// ReturnItemCollectionMetrics: true for SIZE, false for NONE or absent.
Result<bool> ReadCollectionMetrics(const json::Value& v, const Path& at, Violations* errs);
// A required object member (Item, Key, RequestItems): nullptr when absent (recorded).
Result<const json::Value*> ReadRequiredObject(const json::Value& v, std::string_view name,
                                              const Path& at, Violations* errs);
// The expression members present in `v` into *out.
Status ReadExpressionMembers(const json::Value& v, const Path& at, expr::ExpressionInput* out);
// TransactWriteItems' Put, Delete and Update bodies at `at`, into the single-item requests.
Status ReadTransactPut(const json::Value& v, const Path& at, PutItemRequest* r);
Status ReadTransactDelete(const json::Value& v, const Path& at, DeleteItemRequest* r);
Status ReadTransactUpdate(const json::Value& v, const Path& at, UpdateItemRequest* r);

}  // namespace keyhole::api_json
