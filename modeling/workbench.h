// Models in and out: NoSQL Workbench's data model JSON (ModelMetadata Version "3.0", the format
// its "Export data model" writes and "Import data model" reads), a CloudFormation template, and
// the input of `aws dynamodb create-table --cli-input-json`.
//
// The Workbench format, as its public examples show it (aws-samples/aws-dynamodb-examples,
// schema_design/SchemaExamples): {ModelName, ModelMetadata {Author, DateCreated,
// DateLastModified, Description, AWSService, Version}, DataModel: [{TableName, KeyAttributes
// {PartitionKey, SortKey?}, NonKeyAttributes [{AttributeName, AttributeType}], TableFacets
// [{FacetName, KeyAttributeAlias {PartitionKeyAlias, SortKeyAlias?}, TableData [items],
// NonKeyAttributes [names], DataAccess}], GlobalSecondaryIndexes [{IndexName, KeyAttributes,
// Projection}], TableData [items], DataAccess, BillingMode, ProvisionedCapacitySettings?}]}.
// Items are DynamoDB JSON; each sits in exactly one place, its facet's TableData or the
// table's. The format has no local secondary indexes, multi-attribute keys, TTL, streams, tags,
// deletion protection or per-index throughput: an export names what it leaves out.
#pragma once

#include <string>
#include <vector>

#include "core/item.h"
#include "core/json.h"
#include "core/operations.h"
#include "core/schema.h"
#include "core/status.h"

namespace keyhole::modeling {

// A table as a model holds it: its definition and its items (in key order).
struct ModelTable {
  TableDescription table;
  std::vector<Item> items;
};

// Sentences naming what a conversion left out or read loosely, one each.
using Notes = std::vector<std::string>;

// The Workbench data model of `tables`, named `name`, dated `now` (epoch seconds, as
// "May 18, 2023, 10:24 AM" in UTC). One facet per entity type .model infers (modeling/model.h),
// its key aliases the entity's key templates ("USER#<username>"), holding the entity's items.
json::Value WorkbenchModelJson(const std::string& name, double now,
                               const std::vector<ModelTable>& tables, Notes* notes);

// A Workbench data model read back: per table the CreateTable request and the items (from the
// table's TableData and every facet's). Versions "3.0" and "2.0". Values inside a map or list
// that are plain JSON rather than DynamoDB JSON (some public examples have them) are read by
// their JSON type, and counted in a note. ValidationException, naming where, for anything that
// cannot make a table: a missing key, a key type other than S, N or B, an item without the
// table's key or with a key of another type, one attribute defined with two types.
struct ImportedTable {
  CreateTableRequest create;
  std::vector<Item> items;
  size_t facets = 0;
};
struct ImportedModel {
  std::string name;
  std::vector<ImportedTable> tables;
};
Result<ImportedModel> ReadWorkbenchModel(const json::Value& model, Notes* notes);

// A CloudFormation template with an AWS::DynamoDB::Table resource per table: keys, GSIs, LSIs,
// projections, billing and throughput, TTL, stream, tags, deletion protection.
json::Value CloudFormationJson(const std::vector<ModelTable>& tables, Notes* notes);

// The JSON `aws dynamodb create-table --cli-input-json` takes for `table` (TTL, which
// create-table does not take, is named in a note with the command that sets it).
json::Value CreateTableCliJson(const ModelTable& table, Notes* notes);

}  // namespace keyhole::modeling
