// Request decoders of the table operations: CreateTable, DeleteTable, DescribeTable, ListTables,
// UpdateTable. See api/api_json.h for the order of checks.
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>

#include <set>

#include "api/api_json.h"
#include "api/api_json_decode.h"

namespace keyhole {

namespace {

using api_json::CheckRange;
using api_json::CheckStructure;
using api_json::CheckTableName;
using api_json::MemberSpec;
using api_json::Path;
using api_json::ReadAttributeDefinitions;
using api_json::ReadEnum;
using api_json::ReadInteger;
using api_json::ReadKeySchema;
using api_json::ReadList;
using api_json::ReadObject;
using api_json::ReadProjection;
using api_json::ReadString;
using api_json::ReadTableNameMember;
using api_json::ReadTableNameOrArnMember;
using api_json::ReadThroughput;
using api_json::Violations;

constexpr std::string_view kInvalid = "One or more parameter values were invalid: ";
constexpr std::string_view kBillingModes[] = {"PROVISIONED", "PAY_PER_REQUEST"};

// Reads one index element at `at` (a GlobalSecondaryIndex, LocalSecondaryIndex or GSI Create).
// `global` admits ProvisionedThroughput, OnDemandThroughput and WarmThroughput.
Result<IndexSpec> ReadIndex(const json::Value& v, const Path& at, bool global, Violations* errs) {
  static constexpr MemberSpec kGlobal[] = {{"IndexName"},          {"KeySchema"},
                                           {"Projection"},         {"ProvisionedThroughput"},
                                           {"OnDemandThroughput"}, {"WarmThroughput"}};
  static constexpr MemberSpec kLocal[] = {{"IndexName"}, {"KeySchema"}, {"Projection"}};
  if (global) {
    KH_RETURN_IF_ERROR(CheckStructure(v, at, kGlobal));
  } else {
    KH_RETURN_IF_ERROR(CheckStructure(v, at, kLocal));
  }
  IndexSpec out;
  KH_ASSIGN_OR_RETURN(out.name, ReadTableNameMember(v, "IndexName", at, true, errs));
  KH_ASSIGN_OR_RETURN(const json::Value* keys, ReadList(v, "KeySchema", at));
  if (keys) {
    KH_ASSIGN_OR_RETURN(out.key_schema, ReadKeySchema(*keys, at.Child("KeySchema"), errs, global));
  } else {
    errs->AddNull(at.Child("KeySchema"));
  }
  KH_ASSIGN_OR_RETURN(const json::Value* projection, ReadObject(v, "Projection", at));
  if (projection) {
    KH_RETURN_IF_ERROR(ReadProjection(*projection, at.Child("Projection"), &out, errs));
  } else {
    errs->AddNull(at.Child("Projection"));
  }
  if (global) {
    KH_ASSIGN_OR_RETURN(const json::Value* pt, ReadObject(v, "ProvisionedThroughput", at));
    if (pt) {
      KH_RETURN_IF_ERROR(ReadThroughput(*pt, at.Child("ProvisionedThroughput"),
                                        &out.read_capacity_units, &out.write_capacity_units, errs));
    }
    KH_ASSIGN_OR_RETURN(out.on_demand_throughput, api_json::ReadOnDemandThroughput(v, at));
    KH_ASSIGN_OR_RETURN(out.warm_throughput, api_json::ReadWarmThroughput(v, at));
  }
  return out;
}

// Reads one VectorIndexes element (also UpdateTable's VectorIndexUpdates Create action).
Result<VectorIndexSpec> ReadVectorIndex(const json::Value& v, const Path& at, Violations* errs) {
  static constexpr MemberSpec kMembers[] = {{"IndexName"},    {"VectorAttribute"},
                                            {"SearchSchema"}, {"Projection"},
                                            {"Dimensions"},   {"DistanceFunction"}};
  static constexpr MemberSpec kAttribute[] = {{"AttributeName"}};
  static constexpr MemberSpec kElement[] = {{"AttributeName"}, {"SearchSchemaElementType"}};
  static constexpr std::string_view kKinds[] = {"HASH", "INLINE_FILTER"};
  static constexpr std::string_view kFunctions[] = {"COSINE", "DOT_PRODUCT", "EUCLIDEAN"};
  KH_RETURN_IF_ERROR(CheckStructure(v, at, kMembers));
  VectorIndexSpec out;
  KH_ASSIGN_OR_RETURN(out.name, ReadTableNameMember(v, "IndexName", at, true, errs));
  KH_ASSIGN_OR_RETURN(const json::Value* attribute, ReadObject(v, "VectorAttribute", at));
  if (attribute) {
    const Path p = at.Child("VectorAttribute");
    KH_RETURN_IF_ERROR(CheckStructure(*attribute, p, kAttribute));
    KH_ASSIGN_OR_RETURN(std::optional<std::string> name,
                        ReadString(*attribute, "AttributeName", p));
    if (!name) {
      errs->AddNull(p.Child("AttributeName"));
    } else {
      api_json::CheckLength(name->size(), 1, 255, *name, p.Child("AttributeName"), errs);
      out.vector_attribute = *name;
    }
  } else {
    errs->AddNull(at.Child("VectorAttribute"));
  }
  KH_ASSIGN_OR_RETURN(const json::Value* schema, ReadList(v, "SearchSchema", at));
  if (schema) {
    const Path p = at.Child("SearchSchema");
    if (schema->array().empty()) api_json::CheckLength(0, 1, SIZE_MAX, "[]", p, errs);
    for (size_t i = 0; i < schema->array().size(); ++i) {
      const json::Value& e = schema->array()[i];
      const Path ep = p.Element(i);
      KH_RETURN_IF_ERROR(CheckStructure(e, ep, kElement));
      SearchSchemaElementSpec element;
      KH_ASSIGN_OR_RETURN(std::optional<std::string> name, ReadString(e, "AttributeName", ep));
      if (!name) errs->AddNull(ep.Child("AttributeName"));
      KH_ASSIGN_OR_RETURN(std::optional<size_t> kind,
                          ReadEnum(e, "SearchSchemaElementType", ep, kKinds, errs));
      if (!e.Find("SearchSchemaElementType")) errs->AddNull(ep.Child("SearchSchemaElementType"));
      element.name = name.value_or("");
      element.kind = kind ? std::string(kKinds[*kind]) : "";
      out.search_schema.push_back(std::move(element));
    }
  }
  KH_ASSIGN_OR_RETURN(const json::Value* projection, ReadObject(v, "Projection", at));
  if (projection) {
    IndexSpec p;
    KH_RETURN_IF_ERROR(ReadProjection(*projection, at.Child("Projection"), &p, errs));
    out.projection_type = p.projection_type;
    out.non_key_attributes = p.non_key_attributes;
  } else {
    errs->AddNull(at.Child("Projection"));
  }
  KH_ASSIGN_OR_RETURN(std::optional<int64_t> dims, ReadInteger(v, "Dimensions", at, true));
  if (!dims) {
    errs->AddNull(at.Child("Dimensions"));
  } else if (*dims < 1) {
    CheckRange(*dims, 1, INT64_MAX, at.Child("Dimensions"), errs);
  } else {
    out.dimensions = *dims;
  }
  KH_ASSIGN_OR_RETURN(std::optional<size_t> function,
                      ReadEnum(v, "DistanceFunction", at, kFunctions, errs));
  if (!v.Find("DistanceFunction")) errs->AddNull(at.Child("DistanceFunction"));
  if (function) out.distance_function = std::string(kFunctions[*function]);
  return out;
}

// Reads the index list member `name` (absent: nullopt).
Result<std::optional<std::vector<IndexSpec>>> ReadIndexList(const json::Value& v,
                                                            std::string_view name, const Path& at,
                                                            bool global, Violations* errs) {
  KH_ASSIGN_OR_RETURN(const json::Value* list, ReadList(v, name, at));
  if (!list) return std::optional<std::vector<IndexSpec>>();
  std::vector<IndexSpec> out;
  for (size_t i = 0; i < list->array().size(); ++i) {
    KH_ASSIGN_OR_RETURN(IndexSpec idx,
                        ReadIndex(list->array()[i], at.Child(name).Element(i), global, errs));
    out.push_back(std::move(idx));
  }
  return std::optional<std::vector<IndexSpec>>(std::move(out));
}

// A request whose only member is TableName (DeleteTable, DescribeTable).
Result<std::string> ReadTableNameOnly(const json::Value& v) {
  static constexpr MemberSpec kMembers[] = {{"TableName"}};
  KH_RETURN_IF_ERROR(CheckStructure(v, Path(), kMembers));
  Violations errs;
  KH_ASSIGN_OR_RETURN(std::string name,
                      ReadTableNameOrArnMember(v, "TableName", Path(), true, &errs));
  KH_RETURN_IF_ERROR(api_json::RequireTableName(v));
  KH_RETURN_IF_ERROR(errs.ToStatus());
  return name;
}

// An index update's Delete action ({"IndexName"}), when given: into *name, counted in *count.
Status ReadDeleteAction(const json::Value& v, const Path& at, Violations* errs,
                        std::optional<std::string>* name, int* count) {
  static constexpr MemberSpec kDelete[] = {{"IndexName"}};
  KH_ASSIGN_OR_RETURN(const json::Value* remove, ReadObject(v, "Delete", at));
  if (!remove) return Status::OK();
  KH_RETURN_IF_ERROR(CheckStructure(*remove, at.Child("Delete"), kDelete));
  KH_ASSIGN_OR_RETURN(*name,
                      ReadTableNameMember(*remove, "IndexName", at.Child("Delete"), true, errs));
  ++*count;
  return Status::OK();
}

// One GlobalSecondaryIndexUpdates element: a Create, an Update (ProvisionedThroughput,
// OnDemandThroughput, WarmThroughput) or a Delete.
struct IndexAction {
  std::optional<IndexSpec> create;
  std::optional<UpdateTableRequest::IndexThroughput> update;
  std::optional<std::string> remove;
  int count = 0;  // actions given in the element
};

Result<IndexAction> ReadIndexAction(const json::Value& v, const Path& at, Violations* errs) {
  static constexpr MemberSpec kMembers[] = {{"Update"}, {"Create"}, {"Delete"}};
  static constexpr MemberSpec kUpdate[] = {
      {"IndexName"}, {"ProvisionedThroughput"}, {"OnDemandThroughput"}, {"WarmThroughput"}};
  KH_RETURN_IF_ERROR(CheckStructure(v, at, kMembers));
  IndexAction a;
  KH_ASSIGN_OR_RETURN(const json::Value* update, ReadObject(v, "Update", at));
  if (update) {
    const Path p = at.Child("Update");
    KH_RETURN_IF_ERROR(CheckStructure(*update, p, kUpdate));
    UpdateTableRequest::IndexThroughput u;
    KH_ASSIGN_OR_RETURN(u.index_name, ReadTableNameMember(*update, "IndexName", p, true, errs));
    KH_ASSIGN_OR_RETURN(const json::Value* pt, ReadObject(*update, "ProvisionedThroughput", p));
    if (pt) {
      std::optional<int64_t> read, write;
      KH_RETURN_IF_ERROR(
          ReadThroughput(*pt, p.Child("ProvisionedThroughput"), &read, &write, errs));
      u.has_provisioned_throughput = true;
      u.read_capacity_units = read.value_or(0);
      u.write_capacity_units = write.value_or(0);
    }
    KH_ASSIGN_OR_RETURN(u.on_demand_throughput, api_json::ReadOnDemandThroughput(*update, p));
    KH_ASSIGN_OR_RETURN(u.warm_throughput, api_json::ReadWarmThroughput(*update, p));
    a.update = std::move(u);
    ++a.count;
  }
  KH_ASSIGN_OR_RETURN(const json::Value* create, ReadObject(v, "Create", at));
  if (create) {
    KH_ASSIGN_OR_RETURN(a.create, ReadIndex(*create, at.Child("Create"), true, errs));
    ++a.count;
  }
  KH_RETURN_IF_ERROR(ReadDeleteAction(v, at, errs, &a.remove, &a.count));
  return a;
}

// One VectorIndexUpdates element: a Create or a Delete (a vector index has no Update: its
// definition cannot change).
struct VectorAction {
  std::optional<VectorIndexSpec> create;
  std::optional<std::string> remove;
  int count = 0;
};

Result<VectorAction> ReadVectorAction(const json::Value& v, const Path& at, Violations* errs) {
  static constexpr MemberSpec kMembers[] = {{"Create"}, {"Delete"}};
  KH_RETURN_IF_ERROR(CheckStructure(v, at, kMembers));
  VectorAction a;
  KH_ASSIGN_OR_RETURN(const json::Value* create, ReadObject(v, "Create", at));
  if (create) {
    KH_ASSIGN_OR_RETURN(a.create, ReadVectorIndex(*create, at.Child("Create"), errs));
    ++a.count;
  }
  KH_RETURN_IF_ERROR(ReadDeleteAction(v, at, errs, &a.remove, &a.count));
  return a;
}

// The rules on VectorIndexUpdates that need no table. keyhole's texts, after those of
// GlobalSecondaryIndexUpdates (DynamoDB's for vector indexes are not recorded).
Status CheckVectorActions(const std::vector<VectorAction>& actions) {
  if (actions.empty()) {
    return Status::Validation(fmt::format("{}List of VectorIndexUpdates is empty", kInvalid));
  }
  for (const VectorAction& a : actions) {
    if (a.count != 1) {
      return Status::Validation(fmt::format(
          "{}Exactly one of VectorIndexUpdate.Create, VectorIndexUpdate.Delete must be given",
          kInvalid));
    }
  }
  if (actions.size() > 1) {
    return Status::LimitExceeded(
        "Subscriber limit exceeded: Only 1 online index can be created or deleted "
        "simultaneously per table");
  }
  return Status::OK();
}

// The rules on GlobalSecondaryIndexUpdates that need no table, then the one-action limit.
Status CheckIndexActions(const std::vector<IndexAction>& actions) {
  if (actions.empty()) {
    return Status::Validation(
        fmt::format("{}List of GlobalSecondaryIndexUpdates is empty", kInvalid));
  }
  std::set<std::string> names;
  for (const IndexAction& a : actions) {
    if (a.count == 0) {
      return Status::Validation(fmt::format(
          "{}One of GlobalSecondaryIndexUpdate.Update, GlobalSecondaryIndexUpdate.Create, "
          "GlobalSecondaryIndexUpdate.Delete must not be null",
          kInvalid));
    }
    if (a.count > 1) {
      return Status::Validation(fmt::format(
          "{}Only one global secondary index action is allowed per GlobalSecondaryIndexUpdate "
          "object",
          kInvalid));
    }
    const std::string& name = a.create   ? a.create->name
                              : a.update ? a.update->index_name
                                         : *a.remove;
    if (!names.insert(name).second) {
      return Status::Validation(fmt::format(
          "{}Only one global secondary index update per index is allowed simultaneously. "
          "Index: {}",
          kInvalid, name));
    }
  }
  // Updates of several indexes go together; Creates and Deletes one per call.
  if (std::ranges::count_if(actions, [](const IndexAction& a) { return !a.update; }) > 1) {
    return Status::LimitExceeded(
        "Subscriber limit exceeded: Only 1 online index can be created or deleted "
        "simultaneously per table");
  }
  return Status::OK();
}

}  // namespace

Result<CreateTableRequest> CreateTableRequestFromJson(const json::Value& v) {
  static constexpr MemberSpec kMembers[] = {
      {"AttributeDefinitions"},
      {"TableName"},
      {"KeySchema"},
      {"LocalSecondaryIndexes"},
      {"GlobalSecondaryIndexes"},
      {"BillingMode"},
      {"ProvisionedThroughput"},
      {"StreamSpecification"},
      {"SSESpecification"},
      {"Tags"},
      {"TableClass", false},
      {"DeletionProtectionEnabled"},
      {"WarmThroughput"},
      {"ResourcePolicy", false},
      {"OnDemandThroughput"},
      {"VectorIndexes"},
  };
  const Path root;
  KH_RETURN_IF_ERROR(CheckStructure(v, root, kMembers));
  Violations errs;
  CreateTableRequest r;
  KH_ASSIGN_OR_RETURN(const json::Value* defs, ReadList(v, "AttributeDefinitions", root));
  if (defs) {
    KH_ASSIGN_OR_RETURN(r.attribute_definitions,
                        ReadAttributeDefinitions(*defs, root.Child("AttributeDefinitions"), &errs));
  } else {
    errs.AddNull(root.Child("AttributeDefinitions"));
  }
  KH_ASSIGN_OR_RETURN(r.table_name, ReadTableNameMember(v, "TableName", root, true, &errs));
  KH_ASSIGN_OR_RETURN(const json::Value* keys, ReadList(v, "KeySchema", root));
  if (keys) {
    KH_ASSIGN_OR_RETURN(r.key_schema, ReadKeySchema(*keys, root.Child("KeySchema"), &errs));
  } else {
    errs.AddNull(root.Child("KeySchema"));
  }
  // The GSIs' constraint errors before the LSIs' (validation-ordering/createTable.test.ts,
  // October 2026).
  KH_ASSIGN_OR_RETURN(auto gsis, ReadIndexList(v, "GlobalSecondaryIndexes", root, true, &errs));
  KH_ASSIGN_OR_RETURN(auto lsis, ReadIndexList(v, "LocalSecondaryIndexes", root, false, &errs));
  KH_ASSIGN_OR_RETURN(const json::Value* vectors, ReadList(v, "VectorIndexes", root));
  if (vectors) {
    for (size_t i = 0; i < vectors->array().size(); ++i) {
      KH_ASSIGN_OR_RETURN(
          VectorIndexSpec spec,
          ReadVectorIndex(vectors->array()[i], root.Child("VectorIndexes").Element(i), &errs));
      r.vector_indexes.push_back(std::move(spec));
    }
  }
  KH_ASSIGN_OR_RETURN(std::optional<size_t> mode,
                      ReadEnum(v, "BillingMode", root, kBillingModes, &errs));
  // The API's default billing mode is PROVISIONED.
  r.billing_mode = std::string(kBillingModes[mode.value_or(0)]);
  KH_ASSIGN_OR_RETURN(const json::Value* pt, ReadObject(v, "ProvisionedThroughput", root));
  if (pt) {
    KH_RETURN_IF_ERROR(ReadThroughput(*pt, root.Child("ProvisionedThroughput"),
                                      &r.read_capacity_units, &r.write_capacity_units, &errs));
  }
  KH_ASSIGN_OR_RETURN(r.stream_specification, api_json::ReadStreamSpecification(v, root, &errs));
  KH_ASSIGN_OR_RETURN(r.sse_specification, api_json::ReadSseSpecification(v, root, &errs));
  KH_ASSIGN_OR_RETURN(std::optional<std::vector<Tag>> tags, api_json::ReadTags(v, root));
  if (tags) r.tags = std::move(*tags);
  KH_ASSIGN_OR_RETURN(r.deletion_protection_enabled,
                      api_json::ReadBool(v, "DeletionProtectionEnabled", root));
  KH_ASSIGN_OR_RETURN(r.warm_throughput, api_json::ReadWarmThroughput(v, root));
  KH_ASSIGN_OR_RETURN(r.on_demand_throughput, api_json::ReadOnDemandThroughput(v, root));
  // CreateTable without TableName: DynamoDB's "required" text, after the JSON types and before
  // the constraints (dynalite's createTable checks, run against AWS; reference §7.2).
  KH_RETURN_IF_ERROR(api_json::RequireTableName(v));
  KH_RETURN_IF_ERROR(errs.ToStatus());
  KH_RETURN_IF_ERROR(api_json::CheckStreamViewTypeGiven(r.stream_specification, v));

  if (lsis && lsis->empty()) {
    return Status::Validation(fmt::format("{}List of LocalSecondaryIndexes is empty", kInvalid));
  }
  if (gsis && gsis->empty()) {
    return Status::Validation(fmt::format("{}List of GlobalSecondaryIndexes is empty", kInvalid));
  }
  if (vectors && vectors->array().empty()) {
    return Status::Validation(fmt::format("{}List of VectorIndexes is empty", kInvalid));
  }
  if (lsis) r.local_secondary_indexes = std::move(*lsis);
  if (gsis) {
    r.global_secondary_indexes = std::move(*gsis);
    // Before storage's checks of the keys, as DynamoDB orders them.
    KH_RETURN_IF_ERROR(CheckIndexThroughput(r.billing_mode, r.read_capacity_units.has_value(),
                                            r.global_secondary_indexes));
  }
  return r;
}

Result<DeleteTableRequest> DeleteTableRequestFromJson(const json::Value& v) {
  DeleteTableRequest r;
  KH_ASSIGN_OR_RETURN(r.table_name, ReadTableNameOnly(v));
  return r;
}

Result<DescribeTableRequest> DescribeTableRequestFromJson(const json::Value& v) {
  DescribeTableRequest r;
  KH_ASSIGN_OR_RETURN(r.table_name, ReadTableNameOnly(v));
  return r;
}

Result<ListTablesRequest> ListTablesRequestFromJson(const json::Value& v) {
  static constexpr MemberSpec kMembers[] = {{"ExclusiveStartTableName"}, {"Limit"}};
  const Path root;
  KH_RETURN_IF_ERROR(CheckStructure(v, root, kMembers));
  Violations errs;
  ListTablesRequest r;
  KH_ASSIGN_OR_RETURN(r.exclusive_start_table_name, ReadString(v, "ExclusiveStartTableName", root));
  if (r.exclusive_start_table_name) {
    CheckTableName(*r.exclusive_start_table_name, root.Child("ExclusiveStartTableName"), &errs);
  }
  KH_ASSIGN_OR_RETURN(std::optional<int64_t> limit, ReadInteger(v, "Limit", root));
  if (limit) {
    CheckRange(*limit, 1, 100, root.Child("Limit"), &errs);
    r.limit = static_cast<int>(*limit);
  }
  KH_RETURN_IF_ERROR(errs.ToStatus());
  return r;
}

Result<UpdateTableRequest> UpdateTableRequestFromJson(const json::Value& v) {
  static constexpr MemberSpec kMembers[] = {
      {"AttributeDefinitions"},
      {"TableName"},
      {"BillingMode"},
      {"ProvisionedThroughput"},
      {"GlobalSecondaryIndexUpdates"},
      {"StreamSpecification"},
      {"SSESpecification"},
      {"ReplicaUpdates", false},
      {"TableClass", false},
      {"DeletionProtectionEnabled"},
      {"MultiRegionConsistency", false},
      {"GlobalTableWitnessUpdates", false},
      {"OnDemandThroughput"},
      {"WarmThroughput"},
      {"VectorIndexUpdates"},
  };
  const Path root;
  KH_RETURN_IF_ERROR(CheckStructure(v, root, kMembers));
  Violations errs;
  UpdateTableRequest r;
  KH_ASSIGN_OR_RETURN(const json::Value* defs, ReadList(v, "AttributeDefinitions", root));
  if (defs) {
    KH_ASSIGN_OR_RETURN(r.attribute_definitions,
                        ReadAttributeDefinitions(*defs, root.Child("AttributeDefinitions"), &errs));
  }
  KH_ASSIGN_OR_RETURN(r.table_name, ReadTableNameOrArnMember(v, "TableName", root, true, &errs));
  KH_ASSIGN_OR_RETURN(const json::Value* updates, ReadList(v, "GlobalSecondaryIndexUpdates", root));
  std::vector<IndexAction> actions;
  if (updates) {
    Path at = root.Child("GlobalSecondaryIndexUpdates");
    for (size_t i = 0; i < updates->array().size(); ++i) {
      KH_ASSIGN_OR_RETURN(IndexAction a,
                          ReadIndexAction(updates->array()[i], at.Element(i), &errs));
      actions.push_back(std::move(a));
    }
  }
  KH_ASSIGN_OR_RETURN(const json::Value* vector_updates, ReadList(v, "VectorIndexUpdates", root));
  std::vector<VectorAction> vector_actions;
  if (vector_updates) {
    Path at = root.Child("VectorIndexUpdates");
    for (size_t i = 0; i < vector_updates->array().size(); ++i) {
      KH_ASSIGN_OR_RETURN(VectorAction a,
                          ReadVectorAction(vector_updates->array()[i], at.Element(i), &errs));
      vector_actions.push_back(std::move(a));
    }
  }
  KH_ASSIGN_OR_RETURN(r.stream_specification, api_json::ReadStreamSpecification(v, root, &errs));
  KH_ASSIGN_OR_RETURN(std::optional<size_t> mode,
                      ReadEnum(v, "BillingMode", root, kBillingModes, &errs));
  if (mode) r.billing_mode = std::string(kBillingModes[*mode]);
  KH_ASSIGN_OR_RETURN(const json::Value* pt, ReadObject(v, "ProvisionedThroughput", root));
  if (pt) {
    r.has_provisioned_throughput = true;
    KH_RETURN_IF_ERROR(ReadThroughput(*pt, root.Child("ProvisionedThroughput"),
                                      &r.read_capacity_units, &r.write_capacity_units, &errs));
  }
  KH_ASSIGN_OR_RETURN(r.sse_specification, api_json::ReadSseSpecification(v, root, &errs));
  KH_ASSIGN_OR_RETURN(r.deletion_protection_enabled,
                      api_json::ReadBool(v, "DeletionProtectionEnabled", root));
  KH_ASSIGN_OR_RETURN(r.on_demand_throughput, api_json::ReadOnDemandThroughput(v, root));
  KH_ASSIGN_OR_RETURN(r.warm_throughput, api_json::ReadWarmThroughput(v, root));
  KH_RETURN_IF_ERROR(api_json::RequireTableName(v));
  KH_RETURN_IF_ERROR(errs.ToStatus());
  KH_RETURN_IF_ERROR(api_json::CheckStreamViewTypeGiven(r.stream_specification, v));
  if (updates) {
    KH_RETURN_IF_ERROR(CheckIndexActions(actions));
    for (IndexAction& a : actions) {
      if (a.create) {
        r.create_global_index = std::move(*a.create);
      } else if (a.update) {
        r.update_global_indexes.push_back(std::move(*a.update));
      } else {
        r.delete_global_index = std::move(a.remove);
      }
    }
  }
  if (vector_updates) {
    KH_RETURN_IF_ERROR(CheckVectorActions(vector_actions));
    // One online index is created or deleted per call, of whatever kind.
    if (!vector_actions.empty() && (r.create_global_index || r.delete_global_index)) {
      return Status::LimitExceeded(
          "Subscriber limit exceeded: Only 1 online index can be created or deleted "
          "simultaneously per table");
    }
    r.create_vector_index = std::move(vector_actions[0].create);
    r.delete_vector_index = std::move(vector_actions[0].remove);
  }
  return r;
}

}  // namespace keyhole
