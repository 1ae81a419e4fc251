// DynamoDB JSON: the wire form of AttributeValues, items and keys, e.g. {"N":"1"},
// {"SS":["a","b"]}, {"M":{"x":{"BOOL":true}}}. Lossless and strict (reference §1.1).
#pragma once

#include <string>
#include <string_view>

#include "core/attribute_value.h"
#include "core/json.h"
#include "core/status.h"

namespace keyhole {

// Decodes one AttributeValue object. Errors are ValidationException with DynamoDB's texts:
//  - "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"
//  - "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the
//    supported datatypes"
//  - N given as a JSON number, B not valid base64, BOOL not a boolean, a set member of the
//    wrong JSON kind: "... Start of structure or map found where not expected" family is not
//    reproduced; the message names the attribute type and what was wrong.
//  - "One or more parameter values were invalid: Null attribute value types must have the
//    value of true"
//  - Number texts from Number::Parse; set emptiness/duplicates and nesting from ValidateValue.
Result<AttributeValue> ValueFromJson(const json::Value& v);
// Decodes an item: a JSON object of attribute name -> AttributeValue object; validates each
// value (ValidateValue) but not the item size.
Result<Item> ItemFromJson(const json::Value& v);
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
std::string ValueToJsonText(const AttributeValue& v);

// Base64 (RFC 4648, with padding). Decode rejects anything but canonical padded base64.
std::string Base64Encode(std::string_view bytes);
bool Base64Decode(std::string_view text, std::string* out);

}  // namespace keyhole
