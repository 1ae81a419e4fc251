// .generate: items of one entity type, shaped like the table's own items of it (modeling/model.h
// infers the entity types and their key templates), to show paging, 1 MB pages or a hot
// partition without writing a program.
//
// Each new item follows the entity's commonest key shape: literal segments as they are, a
// placeholder named after an attribute (`USER#<username>`) filled from that attribute's new
// value, `<timestamp>` with an ISO 8601 time in the observed range, `<number>` with the numbers
// after the largest one the entity has (zero-padded to the examples' width), `<id>` with a new
// id shaped as the examples' (each digit and letter drawn anew, from the seed). Segments that
// hold the same value in every example (the id in SK, GSI1PK and GSI1SK; the time in SK and
// GSI2SK) hold one new value in each new item. PER a parent, a segment after the same literal
// as a segment of the parent's keys (`ACCOUNT#<id>` in both) takes the drawn parent's value, so
// every item lands under a parent that exists; an entity whose keys share nothing with the
// parent's is refused. Index keys are carried by the same share of items as in the examples (a
// sparse index stays sparse). Other attributes appear as often as in the examples: a constant stays
// constant, a few recurring strings are drawn from (a status), times from the observed range,
// numbers from the observed range (whole when the examples are), e-mail addresses and ids made
// new and unique, anything else copied from an example. PER a parent entity, each item takes
// the attributes its key names from a parent item (a Post gets its User's username), parents
// drawn uniformly or, with zipf skew S, the first ones far more often: a hot partition.
// Deterministic for a seed.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/attribute_value.h"
#include "core/schema.h"
#include "core/status.h"

namespace keyhole::modeling {

struct GenerateOptions {
  std::string entity;              // as .model names it (any case)
  int64_t count = 0;               // 1 .. 10,000,000
  std::optional<std::string> per;  // the parent entity
  uint64_t seed = 1;
  double zipf = 0;             // 0: parents drawn uniformly
  std::string type_attribute;  // BY: the type attribute, as .model T BY names it ("" finds it)
  // Checked every 1,024 items; when it is set, generation stops (Generated::interrupted).
  const std::atomic<bool>* cancel = nullptr;
};

struct Generated {
  std::vector<Item> items;
  std::string shape;         // "PK = USER#<username>, SK = POST#<timestamp>#<postId>"
  int64_t skipped = 0;       // items not made: every key tried was taken
  bool interrupted = false;  // options.cancel stopped it after items.size() items
};

// New items of options.entity, from the table's items `existing` (their model and examples).
// ValidationException naming the entity types when options.entity (or options.per) is not one,
// or is the name of several (saying how to tell them apart).
Result<Generated> GenerateItems(const TableDescription& table, const std::vector<Item>& existing,
                                const GenerateOptions& options);

}  // namespace keyhole::modeling
