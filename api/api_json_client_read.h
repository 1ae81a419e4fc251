// Building blocks of the response decoders in api/api_json_client.h: lenient typed reads of
// response members. Internal to api_json_client_*.cpp.
//
// Every read takes the object, the member name and `at`, the path of the object in the response
// ("Table.GlobalSecondaryIndexes[0]"; "" for the body itself), used only in messages. An absent
// member or JSON null leaves the output as it was and is OK; a member of the wrong JSON kind is
// Malformed().
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/attribute_value.h"
#include "core/json.h"
#include "core/operations.h"
#include "core/status.h"

namespace keyhole::api_json_client {

// "<at>.<name>", or `name` when `at` is empty; "<at>[<i>]".
std::string Child(std::string_view at, std::string_view name);
std::string Element(std::string_view at, size_t i);

// InternalServerError "Malformed DynamoDB response: <at> <problem>" (`at` "" is "the body").
Status Malformed(std::string_view at, std::string_view problem);

// OK when `v` is a JSON object; else Malformed(at, "is not a JSON object").
Status NeedObject(const json::Value& v, std::string_view at);

// The member `name` of the object `obj` when it has kind `kind`; nullptr when absent or null.
// REQUIRES: obj is an object.
Result<const json::Value*> Find(const json::Value& obj, std::string_view name, json::Kind kind,
                                std::string_view at);

Status ReadString(const json::Value& obj, std::string_view name, std::string_view at,
                  std::string* out);
Status ReadString(const json::Value& obj, std::string_view name, std::string_view at,
                  std::optional<std::string>* out);
Status ReadBool(const json::Value& obj, std::string_view name, std::string_view at, bool* out);
// A JSON number written as an integer that fits int64 ("12"; not "12.0" or "1e3").
Status ReadInt(const json::Value& obj, std::string_view name, std::string_view at, int64_t* out);
// Any JSON number within double's range: the value `v` (at `at`), or the member `name`.
Result<double> DoubleAt(const json::Value& v, std::string_view at);
Status ReadDouble(const json::Value& obj, std::string_view name, std::string_view at, double* out);
// An item in DynamoDB JSON (Item, Attributes, Key, images); an AttributeValue that does not
// decode is Malformed with the decoder's message.
Status ReadItem(const json::Value& obj, std::string_view name, std::string_view at,
                std::optional<Item>* out);
Result<Item> ItemAt(const json::Value& v, std::string_view at);

// The member "ConsumedCapacity": one object, or (batches, transactions) a list of them.
Status ReadCapacity(const json::Value& obj, std::optional<ConsumedCapacity>* out);
Status ReadCapacityList(const json::Value& obj, std::string_view at,
                        std::vector<ConsumedCapacity>* out);

}  // namespace keyhole::api_json_client
