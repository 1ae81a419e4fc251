// .model TABLE: the entity types a single table's items imply, derived from the data (like NoSQL
// Workbench's facets, but read off the items rather than declared).
//
// Entities. When at least half of the items carry a string type attribute (the first of
// EntityType, entityType, entity_type, Type, type, _type, __typename, _et, Entity, entity, _t,
// etype, entityKind, __type that does), or every item carries one of kind, Kind, ItemType,
// itemType, item_type, RecordType, recordType, record_type, objectType, docType (words that
// also name a sub-kind), or one is named (`.model T BY attr`), its value names each item's entity.
// Items without one are told apart by their key prefixes: the leading literal segment of the
// partition and sort key values
// (`USER#alice` -> USER; a one-segment value such as `PROFILE` counts whole). Groups whose keys
// have the same shape and whose attribute names mostly agree (Jaccard >= 0.75) are one entity with
// a variable where their prefixes differ (a hierarchy such as `CA#Oakland#94607` is not four
// entities).
//
// Key templates. Key values are split into segments at '#', '|' and ':' (a ':' between two
// digits, as in a time of day, does not split), and at '-' or '_' after a word and before a
// run holding a digit (`tenant-1`, `project_7`; not `in-progress`, a date or a UUID). A segment
// equal in every item of the entity is literal; one that varies becomes a placeholder named after
// the item attribute that always holds the same value (`USER#<username>`), else `<timestamp>` (an
// ISO 8601 date), `<number>` (digits) or `<id>`. Naming needs evidence: never from one item (whose
// keys show as stored, and the report says there were too few), and a Number attribute names a
// segment only when the segment varies over three or more items or is zero-padded (a count that
// equals a key suffix by chance does not). Values of differing shapes keep their common literal
// prefix: `ORG#<…>`. One entity whose items have differently shaped keys (a like stored in both
// directions) shows one template block per shape. Index keys carried by only some items (a sparse
// index) show how many do.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/attribute_value.h"
#include "core/schema.h"
#include "core/status.h"

namespace keyhole::modeling {

// A key value cut into segments at the separators above: parts[i], then separators[i] between
// parts[i] and parts[i + 1].
struct KeySegments {
  std::vector<std::string> parts;
  std::string separators;
};
KeySegments SplitKeyValue(const std::string& value);

struct KeyTemplate {
  std::string attribute;  // "PK"
  std::string text;       // "USER#<username>"
  int64_t items = 0;      // how many items of the shape carry the attribute
  // The template cut as its values are (SplitKeyValue): literal parts as they are, placeholders
  // as "<name>". Empty when the values differ in shape (the text ends in "<…>"), for a binary
  // key and for a vector index's vector.
  KeySegments segments;
};

// One key shape of an entity: its table key templates and, per index it appears in, that
// index's key templates.
struct EntityShape {
  int64_t items = 0;
  std::vector<KeyTemplate> keys;
  struct IndexKeys {
    std::string index;
    std::vector<KeyTemplate> keys;
  };
  std::vector<IndexKeys> indexes;
};

struct AttributeSummary {
  std::string name;
  std::string types;  // "S", "N", "S|N", ...
  int64_t items = 0;  // how many items of the entity carry it
};

struct Entity {
  std::string name;
  int64_t items = 0;
  std::vector<EntityShape> shapes;           // most common first
  std::vector<AttributeSummary> attributes;  // non-key attributes, by name
  std::vector<size_t> item_indexes;          // its items: positions in InferModel's `items`
};

struct Model {
  std::string type_attribute;  // "" when entities were told apart by key prefixes
  int64_t items = 0;
  std::vector<Entity> entities;  // in order of first appearance (key order)
};

// The type attribute of `items`: the first of the candidates above that at least half of them
// carry as a string; "" when none.
std::string TypeAttributeOf(const std::vector<Item>& items);
// The candidates, in the order they are tried.
std::vector<std::string> TypeAttributeNames();

// Infers the model of `table` from all of its items (in key order). `type_attribute` names the
// type attribute ("" finds it: TypeAttributeOf).
Model InferModel(const TableDescription& table, const std::vector<Item>& items,
                 const std::string& type_attribute = "");

// OK when `name` is "" or some item of `items` carries it as a string; else a
// ValidationException saying that no item of `table` does.
Status CheckTypeAttribute(const std::string& table, const std::vector<Item>& items,
                          const std::string& name);

// The model as .model prints it:
//   -- Social: 48 items, 6 entity types (by the attribute Type)
//
//   User · 5 items
//     PK = USER#<username>
//     SK = PROFILE
//     GSI1: GSI1PK = EMAIL#<email>, GSI1SK = USER#<username>
//     attributes: email S, name S, username S, website S (2 of 5)
std::string FormatModel(const TableDescription& table, const Model& model);

}  // namespace keyhole::modeling
