// libFuzzer target for keyhole's JSON readers: the strict JSON parser, DynamoDB JSON items, and
// every API request decoder (the bodies `CALL`, `<Operation> {...}` and the coming server take).
// Properties checked, beyond "no crash, no leak, no hang":
//  - json::Write of a parsed value parses back to an equal value;
//  - an item read from DynamoDB JSON writes back to DynamoDB JSON that reads to the same item;
//  - a request a decoder accepts encodes (where keyhole has an encoder) to JSON the decoder
//    accepts again.
// The first input byte picks the operation, the rest is the JSON text.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "api/api_json.h"
#include "core/ddb_json.h"
#include "core/json.h"

namespace {

void Require(bool condition) {
  if (!condition) std::abort();
}

template <typename Decode, typename Encode>
void RoundTrip(const keyhole::json::Value& v, Decode decode, Encode encode) {
  auto request = decode(v);
  if (!request.ok()) return;
  keyhole::json::Value again = encode(*request);
  Require(decode(again).ok());
}

template <typename Decode>
void DecodeOnly(const keyhole::json::Value& v, Decode decode) {
  (void)decode(v);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace keyhole;
  if (size == 0) return 0;
  const uint8_t op = data[0];
  std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  Result<json::Value> parsed = json::Parse(text, 64);
  if (!parsed.ok()) return 0;
  const json::Value& v = *parsed;
  Result<json::Value> reparsed = json::Parse(json::Write(v), 64);
  Require(reparsed.ok() && *reparsed == v);

  Result<Item> item = ItemFromJson(v);
  if (item.ok()) {
    Result<Item> again = ItemFromJsonText(ItemToJsonText(*item));
    Require(again.ok() && *again == *item);
  }
  switch (op % 11) {
    case 0:
      RoundTrip(v, GetItemRequestFromJson, GetItemRequestToJson);
      break;
    case 1:
      RoundTrip(v, PutItemRequestFromJson, PutItemRequestToJson);
      break;
    case 2:
      RoundTrip(v, DeleteItemRequestFromJson, DeleteItemRequestToJson);
      break;
    case 3:
      RoundTrip(v, UpdateItemRequestFromJson, UpdateItemRequestToJson);
      break;
    case 4:
      RoundTrip(v, QueryRequestFromJson, QueryRequestToJson);
      break;
    case 5:
      RoundTrip(v, ScanRequestFromJson, ScanRequestToJson);
      break;
    case 6:
      DecodeOnly(v, CreateTableRequestFromJson);
      break;
    case 7:
      DecodeOnly(v, UpdateTableRequestFromJson);
      break;
    case 8:
      DecodeOnly(v, ListTablesRequestFromJson);
      break;
    case 9:
      DecodeOnly(v, DescribeTableRequestFromJson);
      break;
    default:
      DecodeOnly(v, DeleteTableRequestFromJson);
      break;
  }
  return 0;
}
