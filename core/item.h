// Item rules: size as DynamoDB counts it, and the value and item limits (reference §1.5–1.9).
#pragma once

#include <cstddef>
#include <string>

#include "core/attribute_value.h"
#include "core/status.h"

namespace keyhole {

constexpr size_t kMaxItemSize = 409600;         // 400 KB, names + values
constexpr size_t kMaxPartitionKeyBytes = 2048;  // S/B partition key value
constexpr size_t kMaxSortKeyBytes = 1024;       // S/B sort key value
constexpr int kMaxNestingDepth = 32;            // the top-level attribute is level 1
constexpr size_t kMaxAttributeNameBytes = 65535;
constexpr size_t kMaxKeyAttributeNameBytes = 255;

// Size of a value (reference §1.9): S = UTF-8 bytes, B = raw bytes, N = Number::SizeBytes(),
// BOOL/NULL = 1, sets = sum of members, L = 3 + Σ(1 + element), M = 3 + Σ(1 + key + value).
size_t ValueSize(const AttributeValue& v);
// Σ over top-level attributes of (name bytes + value size). {"shirt-color":"R","shirt-size":"M"}
// is 23.
size_t ItemSize(const Item& item);

// Checks one attribute value: sets non-empty and without duplicates, nested levels within 32
// (`depth` is the level of `v`; a top-level attribute is level 1). Map keys are not checked:
// an empty key inside a map is allowed. Returns
// ValidationException with DynamoDB's texts:
//  - "One or more parameter values were invalid: An string set  may not be empty" (two spaces;
//    "An number set  may not be empty", "Binary sets should not be empty")
//  - "One or more parameter values were invalid: Input collection [a, a] contains duplicates."
//    (BS: "Input collection [..]of type BS contains duplicates.")
//  - "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels
//    beyond supported limit"
Status ValidateValue(const AttributeValue& v, int depth = 1);

// Checks every attribute of an item (names non-empty and at most 65535 bytes, values as
// ValidateValue) and the 400 KB limit ("Item size has exceeded the maximum allowed size").
// Name errors: "One or more parameter values were invalid: Empty attribute name" and "...:
// Attribute name is too large, must be less than 65536 bytes" (our wording, see item.cpp).
Status ValidateItem(const Item& item);
// The hint under "Item size has exceeded the maximum allowed size": the item's size and the
// two usual fixes.
std::string OversizeHint(size_t size);
// What is wrong with an attribute name ("Empty attribute name", "Attribute name is too large,
// must be less than 65536 bytes"), or "" when it is valid.
std::string_view AttributeNameProblem(std::string_view name);

// Time to Live (reference §6.1): whether `item` has expired at `now` (epoch seconds) when TTL is
// on `attribute`: the attribute is a top-level Number of epoch seconds below `now` and not more
// than five years in the past (older values are presumed mistakes and ignored, as DynamoDB
// does). Any other type, or no such attribute, never expires.
bool TtlExpired(const Item& item, const std::string& attribute, double now);

}  // namespace keyhole
