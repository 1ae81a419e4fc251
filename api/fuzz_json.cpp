// libFuzzer target for keyhole's JSON readers: the strict JSON parser, DynamoDB JSON items, every
// API request decoder (the bodies `CALL`, `<Operation> {...}` and the server take), every
// response decoder (api_json_client.h, what a remote backend reads) and the error decoder.
// Properties checked, beyond "no crash, no leak, no hang":
//  - json::Write of a parsed value parses back to an equal value;
//  - an item read from DynamoDB JSON writes back to DynamoDB JSON that reads to the same item;
//  - a request a decoder accepts encodes (where keyhole has an encoder) to JSON the decoder
//    accepts again;
//  - a response a decoder accepts encodes to JSON the decoder accepts again;
//  - ReadItemText and the read responses' fast paths from the text agree with json::Parse and
//    the decoders wherever they read an item;
//  - the error read from any body (as 400, 413 or 500) encodes (ErrorToJson) to a body that reads
//    back to the same code and message.
// The first input byte picks the operation and direction (and the error's HTTP status), the rest
// is the text.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <string_view>

#include "api/api_json.h"
#include "api/api_json_client.h"
#include "core/ddb_json.h"
#include "core/json.h"

namespace {

void Require(bool condition) {
  if (!condition) std::abort();
}

template <typename Decode, typename Encode>
void RoundTrip(const keyhole::json::Value& v, Decode decode, Encode encode) {
  auto decoded = decode(v);
  if (!decoded.ok()) return;
  auto again = keyhole::json::Parse(keyhole::json::Write(encode(*decoded)));
  Require(again.ok() && decode(*again).ok());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace keyhole;
  if (size == 0) return 0;
  const uint8_t op = data[0];
  std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);

  static constexpr int kStatuses[] = {400, 413, 500};
  Status error = ErrorFromJson(kStatuses[op % 3], text);
  Require(!error.ok());
  Status error_again = ErrorFromJson(ErrorHttpStatus(error), json::Write(ErrorToJson(error)));
  Require(error_again.code() == error.code() && error_again.message() == error.message());

  // The fast paths from the text (ReadItemText, the read responses') read what the slow ones
  // read, or step aside.
  {
    json::TextReader in(text);
    Item fast;
    if (ReadItemText(&in, &fast) && in.AtEnd()) {
      Result<Item> slow = ItemFromJsonText(text);
      Require(slow.ok() && *slow == fast);
    }
    if (std::optional<ReadResponse> r = ReadResponseFromText(text)) {
      Result<json::Value> p = json::Parse(text);
      Require(p.ok());
      Result<ReadResponse> slow = QueryResponseFromJson(*p);
      Require(slow.ok() && slow->items == r->items && slow->count == r->count &&
              slow->last_evaluated_key == r->last_evaluated_key);
    }
    if (std::optional<GetItemResponse> g = GetItemResponseFromText(text)) {
      Result<json::Value> p = json::Parse(text);
      Require(p.ok());
      Result<GetItemResponse> slow = GetItemResponseFromJson(*p);
      Require(slow.ok() && slow->item == g->item);
    }
  }

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
  // Operation i of core/operations.def's Backend operations: its request (2i) and its response
  // (2i + 1), decoded, encoded and decoded again; the last case is a Scan response encoded for
  // Select COUNT.
  using RoundTripCase = void (*)(const json::Value&);
  static constexpr RoundTripCase kCases[] = {
#define KH_BACKEND_OPERATION(Name)                                                  \
  [](const json::Value& v) {                                                        \
    RoundTrip(v, Name##RequestFromJson,                                             \
              [](const Name##Request& r) { return Name##RequestToJson(r); });       \
  },                                                                                \
      [](const json::Value& v) {                                                    \
        RoundTrip(v, Name##ResponseFromJson,                                        \
                  [](const Name##Response& r) { return Name##ResponseToJson(r); }); \
      },
#include "core/operations.def"
      [](const json::Value& v) {
        RoundTrip(v, ScanResponseFromJson,
                  [](const ScanResponse& r) { return ScanResponseToJson(r, Select::kCount); });
      },
  };
  kCases[op % std::size(kCases)](v);
  return 0;
}
