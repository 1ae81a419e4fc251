// Table and index schemas: what CreateTable declares and DescribeTable reports.
//
// TableDescription is both the catalog record the storage engine persists (as JSON, see
// TableToJson) and the DescribeTable response body. The planner sees schemas only through
// these structs, never through LMDB.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/attribute_value.h"
#include "core/json.h"
#include "core/status.h"

namespace keyhole {

// A key attribute: its name and its declared type (S, N or B).
struct KeyAttribute {
  std::string name;
  ValueType type = ValueType::kS;
  bool operator==(const KeyAttribute&) const = default;
};

// A primary key or index key: a partition ("HASH") key and an optional sort ("RANGE") key.
//
// A global secondary index may have a multi-attribute key (DynamoDB, since November 2025): up to
// four partition attributes and up to four sort attributes. `partition` and `sort` are then the
// first of each and `more_partition` / `more_sort` the rest, in KeySchema order; both are empty
// for every table key, every LSI key and every single-attribute GSI key, so code that knows only
// `partition` and `sort` stays right for those.
struct KeySchema {
  KeyAttribute partition;
  std::optional<KeyAttribute> sort;
  std::vector<KeyAttribute> more_partition{}, more_sort{};
  bool operator==(const KeySchema&) const = default;

  bool IsMultiAttribute() const { return !more_partition.empty() || !more_sort.empty(); }
  // The partition attributes (partition, then more_partition), the sort attributes (none, or
  // *sort then more_sort), and all of them (partition attributes first).
  std::vector<const KeyAttribute*> PartitionAttributes() const;
  std::vector<const KeyAttribute*> SortAttributes() const;
  std::vector<const KeyAttribute*> Attributes() const;
  // Calls f(attribute, is_partition) for each of Attributes(), in that order, without
  // building a vector (for per-item paths).
  template <class F>
  void ForEachAttribute(F&& f) const {
    f(partition, true);
    for (const KeyAttribute& a : more_partition) f(a, true);
    if (!sort) return;
    f(*sort, false);
    for (const KeyAttribute& a : more_sort) f(a, false);
  }
  // The names of Attributes(), in that order.
  std::vector<std::string> Names() const;
  // Whether `name` is one of the key's attributes.
  bool Has(std::string_view name) const;
};

// The most attributes a multi-attribute GSI key may have on each side (DynamoDB's limit).
inline constexpr size_t kMaxKeyAttributesPerSide = 4;

enum class ProjectionType { kAll, kKeysOnly, kInclude };
std::string_view ProjectionTypeName(ProjectionType t);  // "ALL", "KEYS_ONLY", "INCLUDE"

struct Projection {
  ProjectionType type = ProjectionType::kAll;
  std::vector<std::string> non_key_attributes;  // INCLUDE only
  bool operator==(const Projection&) const = default;
};

enum class IndexKind { kGlobal, kLocal };

// OnDemandThroughput as CreateTable and UpdateTable take it, for a table or a GSI: the most read
// and write request units per second (absent: not given; UpdateTable's -1 removes a limit).
struct OnDemandThroughputSpec {
  std::optional<int64_t> max_read_request_units, max_write_request_units;
  bool operator==(const OnDemandThroughputSpec&) const = default;
};
// WarmThroughput as CreateTable and UpdateTable take it: the read and write units per second a
// table or GSI is to be ready for at once (absent: not given).
struct WarmThroughputSpec {
  std::optional<int64_t> read_units_per_second, write_units_per_second;
  bool operator==(const WarmThroughputSpec&) const = default;
};

struct IndexDescription {
  std::string name;
  IndexKind kind = IndexKind::kGlobal;
  KeySchema key;
  Projection projection;
  std::string status = "ACTIVE";
  // A GSI's ProvisionedThroughput while its table is PROVISIONED (0 while it is on demand, as
  // DynamoDB reports it), kept like the table's: the last increase and decrease (0: never) and
  // the decreases on the UTC day of the last one. Named as TableDescription's members, so one
  // piece of code serves both (storage/tables.cpp, core/schema_json.cpp).
  int64_t read_capacity = 0, write_capacity = 0;
  double last_increase_time = 0, last_decrease_time = 0;
  int64_t decreases_today = 0;
  // A GSI's OnDemandThroughput and WarmThroughput, as TableDescription's (core/throughput.h).
  std::optional<int64_t> max_read_request_units, max_write_request_units;
  int64_t warm_read_units = 0, warm_write_units = 0;
  // Filled by DescribeTable; not persisted.
  int64_t item_count = 0;
  int64_t size_bytes = 0;
};

// ---- vector indexes (core/vector_index.h has their rules) ----

enum class DistanceFunction { kCosine, kDotProduct, kEuclidean };
// One SearchSchema element as CreateTable takes it.
struct SearchSchemaElementSpec {
  std::string name;
  std::string kind;  // "HASH" | "INLINE_FILTER" (validated by the API layer)
};

// A vector index as CreateTable (VectorIndexes) and UpdateTable (a Create action) take it.
struct VectorIndexSpec {
  std::string name;
  std::string vector_attribute;
  std::vector<SearchSchemaElementSpec> search_schema;
  std::optional<std::string> projection_type;  // "ALL" | "KEYS_ONLY" | "INCLUDE"
  std::optional<std::vector<std::string>> non_key_attributes;
  int64_t dimensions = 0;
  std::string distance_function;  // as given (validated by the API layer)
};

// One resolved SearchSchema element: the attribute, its defined type, HASH or INLINE_FILTER.
struct SearchAttribute {
  std::string name;
  ValueType type = ValueType::kS;
  bool hash = false;
  bool operator==(const SearchAttribute&) const = default;
};

// A vector index of a table (TableDescription::vector_indexes).
struct VectorIndexDescription {
  std::string name;
  std::string vector_attribute;
  std::vector<SearchAttribute> search_schema;  // in the order given
  Projection projection;
  int dimensions = 0;
  DistanceFunction distance = DistanceFunction::kCosine;
  std::string status = "ACTIVE";
  // Filled by DescribeTable; not persisted.
  int64_t item_count = 0;
  int64_t size_bytes = 0;

  // The HASH search attribute, or null.
  const SearchAttribute* Hash() const;
};

// Refuses reading `names` (top-level attribute names, in request order) through a GSI that does
// not project them: "One or more parameter values were invalid: Global secondary index g does not
// project [a, b]" (each missing name once, in order). OK for an LSI, which reads the rest from
// the table, and for an index projecting ALL.
Status CheckGsiProjects(const IndexDescription& index, const KeySchema& table_key,
                        const std::vector<std::string>& names);

struct TableDescription {
  std::string name;
  uint64_t id = 0;  // storage's stable id (TableId); names the stream's sub-database
  // The id that names the table's and its indexes' sub-databases when it is not `id` (0): a
  // staged import fills new sub-databases and switches them in by changing this (storage/
  // import.cpp).
  uint64_t data_id = 0;
  KeySchema key;
  std::vector<IndexDescription> indexes;               // GSIs and LSIs, in creation order
  std::vector<VectorIndexDescription> vector_indexes;  // in creation order
  std::string status = "ACTIVE";
  double creation_time = 0;  // epoch seconds
  std::string billing_mode = "PAY_PER_REQUEST";
  int64_t read_capacity = 0, write_capacity = 0;  // PROVISIONED only
  // BillingModeSummary.LastUpdateToPayPerRequestDateTime: when the table last became
  // PAY_PER_REQUEST (its creation time for a table created so; 0: never). ProvisionedThroughput's
  // LastIncreaseDateTime / LastDecreaseDateTime (0: never) and NumberOfDecreasesToday (the
  // decreases on the UTC day of the last one; storage reports 0 on a later day).
  double pay_per_request_since = 0;
  double last_increase_time = 0, last_decrease_time = 0;
  int64_t decreases_today = 0;
  // OnDemandThroughput (PAY_PER_REQUEST only): the most read / write request units per second,
  // absent while unlimited. Recorded and described; keyhole does not throttle by it.
  std::optional<int64_t> max_read_request_units, max_write_request_units;
  // WarmThroughput: the read and write units per second the table is ready for at once, always
  // described (Status ACTIVE: keyhole applies an increase at once). 12000 / 4000 on demand, at
  // least the provisioned units, and never lowered (core/throughput.h).
  int64_t warm_read_units = 0, warm_write_units = 0;
  // SSESpecification: Enabled true means a KMS key (DynamoDB's SSEDescription {Status ENABLED,
  // SSEType KMS, KMSMasterKeyArn}); absent, DynamoDB's default encryption, which it does not
  // describe.
  bool sse_enabled = false;
  // DeletionProtectionEnabled: DeleteTable refuses the table while it is set.
  bool deletion_protection = false;
  std::string kms_master_key_arn;
  // Point-in-time recovery (UpdateContinuousBackups): enabled since (epoch seconds), and the
  // recovery period (1..35 days). Catalog-only (DescribeContinuousBackups reports it).
  bool pitr_enabled = false;
  double pitr_enabled_at = 0;
  int pitr_recovery_period_days = 35;
  // Tags (TagResource, CreateTable's Tags): key -> value, at most 50. Catalog-only
  // (ListTagsOfResource reports them).
  std::map<std::string, std::string> tags;
  // Time to Live (UpdateTimeToLive): the attribute while enabled, and when TTL was last enabled
  // or disabled (epoch seconds; DynamoDB allows one change per hour). Catalog-only: DescribeTable
  // does not show it (DescribeTimeToLive does).
  std::optional<std::string> ttl_attribute;
  double ttl_changed_at = 0;
  // Streams: the view type while the stream is enabled ("KEYS_ONLY", "NEW_IMAGE", "OLD_IMAGE",
  // "NEW_AND_OLD_IMAGES"), and the label of the latest stream (the ISO-8601 time it was
  // enabled, empty when the table never had one). DescribeTable shows StreamSpecification,
  // LatestStreamLabel and LatestStreamArn.
  std::optional<std::string> stream_view_type;
  std::string latest_stream_label;
  // Filled by DescribeTable; not persisted.
  int64_t item_count = 0;
  int64_t size_bytes = 0;

  // "arn:aws:dynamodb:local:000000000000:table/<name>/stream/<label>" (empty without a label).
  std::string LatestStreamArn() const;
  // The table's ARN as another backend reported it (a remote DescribeTable's TableArn); empty
  // for keyhole's own tables. Not persisted.
  std::string arn;
  // `arn` when set, else "arn:aws:dynamodb:local:000000000000:table/<name>" (TableArnOf).
  std::string TableArn() const;

  // The index named `index_name`, or nullptr.
  const IndexDescription* FindIndex(std::string_view index_name) const;
  // The vector index named `index_name`, or nullptr.
  const VectorIndexDescription* FindVectorIndex(std::string_view index_name) const;
  bool HasLocalIndexes() const;
};

// ---- CreateTable input, shaped like the API ----

struct AttributeDefinition {
  std::string name;
  std::string type;  // "S" | "N" | "B" (validated)
};
struct KeySchemaElement {
  std::string name;
  std::string key_type;  // "HASH" | "RANGE" (validated)
};
// A key's elements as CreateTable takes them: the HASH attributes, then the RANGE ones.
std::vector<KeySchemaElement> ToKeySchemaElements(const KeySchema& key);

struct IndexSpec {
  std::string name;
  std::vector<KeySchemaElement> key_schema;
  std::optional<std::string> projection_type;  // "ALL" | "KEYS_ONLY" | "INCLUDE"
  std::optional<std::vector<std::string>> non_key_attributes;
  // A GSI's ProvisionedThroughput (required when the table is PROVISIONED, refused otherwise).
  std::optional<int64_t> read_capacity_units = std::nullopt, write_capacity_units = std::nullopt;
  // A GSI's OnDemandThroughput and WarmThroughput (core/throughput.h checks them).
  std::optional<OnDemandThroughputSpec> on_demand_throughput = std::nullopt;
  std::optional<WarmThroughputSpec> warm_throughput = std::nullopt;
};

// keyhole's region and account, as its ARNs carry them when nothing else is said.
inline constexpr std::string_view kRegion = "local";
inline constexpr std::string_view kAccount = "000000000000";
// The region and account of the ARNs made and accepted on this thread (TableArnOf, stream
// ARNs, stream records' awsRegion, the tag operations' checks): kRegion and kAccount, unless an
// ArnScope is alive on the thread. keyhole serve opens one per request, with the region the
// request was signed for (or serve's --region) and serve's --account.
std::string_view ArnRegion();
std::string_view ArnAccount();
// Sets the thread's ARN region and account for its lifetime (scopes nest).
// Thread-safety: affects only the thread that made it, which must also destroy it.
class ArnScope {
 public:
  ArnScope(std::string region, std::string account);
  ~ArnScope();
  ArnScope(const ArnScope&) = delete;
  ArnScope& operator=(const ArnScope&) = delete;

 private:
  std::string region_, account_;
  const ArnScope* previous_;
  friend std::string_view ArnRegion();
  friend std::string_view ArnAccount();
};
// "arn:aws:dynamodb:<region>:<account>:table/<name>" (ArnRegion, ArnAccount): DescribeTable's
// TableArn.
std::string TableArnOf(std::string_view table_name);
// The KMS key ARN keyhole reports for SSE with no KMSMasterKeyId given (DynamoDB's AWS managed
// key alias/aws/dynamodb): "arn:aws:kms:local:000000000000:key/aws-dynamodb".
std::string DefaultKmsKeyArn();

// Checks a table or index name: 3–255 characters of [a-zA-Z0-9_.-]. `what` is the member
// named in the message ("tableName", "indexName").
Status ValidateTableName(std::string_view name, std::string_view what = "tableName");

// The table name in an ARN of TableArnOf's form, or nullopt when `arn` is not one.
std::optional<std::string> TableNameFromArn(std::string_view arn);
// The TableName of the data-plane operations (GetItem, PutItem, UpdateItem, DeleteItem, Query,
// Scan, the batches and the transactions), which DynamoDB also accepts as a table ARN: length 1
// to 1024 ("1 validation error detected: Value '' at 'tableName' failed to satisfy constraint:
// Member must have length greater than or equal to 1"), then, unless it is this region's table
// ARN, ValidateTableName's pattern and 3..255 characters: a name no table can have is a
// ValidationException, not ResourceNotFoundException (the Parity Suite's record of DynamoDB).
Status ValidateDataTableName(std::string_view name, std::string_view what = "tableName");

// Adds the attributes of `key` to `definitions` (CreateTable's and UpdateTable's
// AttributeDefinitions), each name once, in key order.
void AddAttributeDefinitions(const KeySchema& key, std::vector<AttributeDefinition>* definitions);
// An index as CreateTable and UpdateTable take it: name, key schema and projection (no
// throughput).
IndexSpec IndexSpecOf(const std::string& name, const KeySchema& key, const Projection& projection);

// Builds the description of a new table, applying CreateTable's rules with DynamoDB's messages
// (key schema shape, definitions matching keys, LSIs sharing the table's partition key, at most
// 5 LSIs and 20 GSIs, projections, 100 projected attributes, duplicate index names).
// Vector indexes (`vectors`) are checked as core/vector_index.h says, after the other indexes;
// their SearchSchema attributes count as used definitions.
Result<TableDescription> BuildTableDescription(const std::string& table_name,
                                               const std::vector<AttributeDefinition>& definitions,
                                               const std::vector<KeySchemaElement>& key_schema,
                                               const std::vector<IndexSpec>& gsis,
                                               const std::vector<IndexSpec>& lsis,
                                               const std::vector<VectorIndexSpec>& vectors = {});

// CreateTable's per-GSI ProvisionedThroughput against the table's billing mode: required when
// PROVISIONED ("...ProvisionedThroughput is not specified for index: g"), refused when
// PAY_PER_REQUEST. Checks nothing while the table's own mode and throughput (`table_throughput`:
// given) disagree, which its own check reports first.
Status CheckIndexThroughput(std::string_view billing_mode, bool table_throughput,
                            const std::vector<IndexSpec>& gsis);

// Builds one GSI for UpdateTable's Create action against an existing table.
Result<IndexDescription> BuildGlobalIndex(const TableDescription& table,
                                          const std::vector<AttributeDefinition>& definitions,
                                          const IndexSpec& spec);

// The catalog's stored form of a table (core/schema_json.cpp: a FROZEN FILE FORMAT, members are
// added, never renamed or dropped): JSON in DescribeTable's shape ({"TableName":..,"KeySchema":
// [..],"AttributeDefinitions":[..],"GlobalSecondaryIndexes":[..],...}) plus keyhole's own
// members ("KeyholeTableId", ...). TableFromJson reads what TableToJson writes, and the forms of
// earlier versions.
json::Value TableToJson(const TableDescription& t);
Result<TableDescription> TableFromJson(const json::Value& v);

// An index's Projection from CreateTable's or UpdateTable's ProjectionType and
// NonKeyAttributes (`spec`'s), with DynamoDB's messages.
Result<Projection> BuildProjection(const IndexSpec& spec);
// A Projection in DescribeTable's shape, and back (ProjectionFromJson reads what it writes).
json::Value ProjectionToJson(const Projection& projection);
Result<Projection> ProjectionFromJson(const json::Value& v);

// The primary key attributes of `item`. REQUIRES: the item has them.
Item ExtractKey(const KeySchema& schema, const Item& item);

// Whether `item` belongs in `index` (sparse indexes): it has every key attribute of the index,
// each of the key's type, strings not empty.
bool InIndex(const IndexDescription& index, const Item& item);

// The attributes of `item` an entry of `index` holds (its projection).
Item ProjectItem(const IndexDescription& index, const KeySchema& table_key, const Item& item);

}  // namespace keyhole
