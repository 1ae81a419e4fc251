// DynamoDB JSON: the wire form of AttributeValues, items and keys, e.g. {"N":"1"},
// {"SS":["a","b"]}, {"M":{"x":{"BOOL":true}}}. Lossless and strict (reference §1.1).
#pragma once

#include <string>
#include <string_view>

#include "core/attribute_value.h"
#include "core/json.h"
#include "core/status.h"

namespace keyhole {

// DynamoDB checks attribute values in one of two layers, and which one an operation runs
// decides the words of a malformed number or a duplicate set member (the Parity Suite's
// tests/tier3/error-messages/valueLayers.test.ts, captured in four regions, October 2026):
//  - kCurrent (PutItem, UpdateItem, DeleteItem, GetItem, BatchGetItem, Query): numbers as
//    Number::Parse reads them; a duplicate as `Input collection ["a", "b", "b"] contains
//    duplicates.`: the members JSON-quoted, those before the first repeat in the set's order,
//    then the repeat and the rest as sent (a BS's `["AA==","/w=="]of type BS contains
//    duplicates.`, no spaces); a number set's names no members (`Input collection contains
//    duplicates.`).
//  - kOlder (BatchWriteItem, the transactions, Scan): numbers as Java's BigDecimal reads them
//    (Number::ParseAsBigDecimal); duplicates as sent and unquoted (`Input collection [b, a, b]
//    contains duplicates.`, `[/w==, AA==]of type BS ...`), a number set's as the bare `Input
//    collection contains duplicates`.
// Both prefix the set messages with "One or more parameter values were invalid: " (but the
// older number-set one).
enum class ValueLayer { kCurrent, kOlder };

// Decodes one AttributeValue object. Errors are ValidationException with DynamoDB's texts:
//  - "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"
//  - "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the
//    supported datatypes"
//  - N given as a JSON number, B not valid base64, BOOL not a boolean, a set member of the
//    wrong JSON kind: "... Start of structure or map found where not expected" family is not
//    reproduced; the message names the attribute type and what was wrong.
//  - "One or more parameter values were invalid: Null attribute value types must have the
//    value of true"
//  - Number texts, set emptiness and duplicates as `layer` words them; nesting past 32 levels
//    as ValidateValue words it.
// Every check of ValidateValue is made on the way, so the first problem in document order
// (members as sent) is the one reported: a value nested too deep before a malformed number
// inside it.
Result<AttributeValue> ValueFromJson(const json::Value& v, ValueLayer layer = ValueLayer::kCurrent);
// Decodes an item: a JSON object of attribute name -> AttributeValue object; validates each
// value as ValueFromJson does, but not the item size.
Result<Item> ItemFromJson(const json::Value& v, ValueLayer layer = ValueLayer::kCurrent);
// Parses text then ItemFromJson.
Result<Item> ItemFromJsonText(std::string_view text);

// Reads one DynamoDB JSON item (an object of attribute names to AttributeValues) at `in`'s
// position into *out: the item ItemFromJson would give for that text parsed by json::Parse,
// without the Value tree (a read response's items, most of its bytes). False on anything it
// does not take: every error ItemFromJson would report, and spellings it leaves to that slow
// path (a member that is JSON null, BOOL given as a string, nesting past the limit). The caller
// then decodes the whole text again the slow way, for the exact error.
bool ReadItemText(json::TextReader* in, Item* out);

// Encoders: sets in their stored (sorted) order, numbers canonical, binary as base64, map keys
// in sorted order. Output is stable: equal values give identical text.
json::Value ValueToJson(const AttributeValue& v);
json::Value ItemToJson(const Item& item);
std::string ItemToJsonText(const Item& item);
// ItemToJsonText's text appended to `out` (no string of its own: a renderer of many items).
void AppendItemToJsonText(const Item& item, std::string* out);
std::string ValueToJsonText(const AttributeValue& v);

// Base64 (RFC 4648, with padding). Decode rejects anything but canonical padded base64.
std::string Base64Encode(std::string_view bytes);
bool Base64Decode(std::string_view text, std::string* out);

}  // namespace keyhole
