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
// The first input byte picks the operation (and the error's HTTP status), the rest is the text.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
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
  // Requests 0..20 (0..10 keep the seeds' numbering), responses 21..41, then SearchVectors'
  // request (42) and response (43).
  switch (op % 44) {
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
      RoundTrip(v, CreateTableRequestFromJson, CreateTableRequestToJson);
      break;
    case 7:
      RoundTrip(v, UpdateTableRequestFromJson,
                [](const UpdateTableRequest& r) { return UpdateTableRequestToJson(r); });
      break;
    case 8:
      RoundTrip(v, ListTablesRequestFromJson, ListTablesRequestToJson);
      break;
    case 9:
      RoundTrip(v, DescribeTableRequestFromJson, DescribeTableRequestToJson);
      break;
    case 10:
      RoundTrip(v, DeleteTableRequestFromJson, DeleteTableRequestToJson);
      break;
    case 11:
      RoundTrip(v, UpdateTimeToLiveRequestFromJson, UpdateTimeToLiveRequestToJson);
      break;
    case 12:
      RoundTrip(v, DescribeTimeToLiveRequestFromJson, DescribeTimeToLiveRequestToJson);
      break;
    case 13:
      RoundTrip(v, ListStreamsRequestFromJson, ListStreamsRequestToJson);
      break;
    case 14:
      RoundTrip(v, DescribeStreamRequestFromJson, DescribeStreamRequestToJson);
      break;
    case 15:
      RoundTrip(v, GetShardIteratorRequestFromJson, GetShardIteratorRequestToJson);
      break;
    case 16:
      RoundTrip(v, GetRecordsRequestFromJson, GetRecordsRequestToJson);
      break;
    case 17:
      RoundTrip(v, BatchWriteItemRequestFromJson, BatchWriteItemRequestToJson);
      break;
    case 18:
      RoundTrip(v, BatchGetItemRequestFromJson, BatchGetItemRequestToJson);
      break;
    case 19:
      RoundTrip(v, TransactWriteItemsRequestFromJson, TransactWriteItemsRequestToJson);
      break;
    case 20:
      RoundTrip(v, TransactGetItemsRequestFromJson, TransactGetItemsRequestToJson);
      break;
    case 21:
      RoundTrip(v, CreateTableResponseFromJson, CreateTableResponseToJson);
      break;
    case 22:
      RoundTrip(v, DeleteTableResponseFromJson, DeleteTableResponseToJson);
      break;
    case 23:
      RoundTrip(v, DescribeTableResponseFromJson, DescribeTableResponseToJson);
      break;
    case 24:
      RoundTrip(v, ListTablesResponseFromJson, ListTablesResponseToJson);
      break;
    case 25:
      RoundTrip(v, UpdateTableResponseFromJson, UpdateTableResponseToJson);
      break;
    case 26:
      RoundTrip(v, PutItemResponseFromJson, PutItemResponseToJson);
      break;
    case 27:
      RoundTrip(v, GetItemResponseFromJson, GetItemResponseToJson);
      break;
    case 28:
      RoundTrip(v, DeleteItemResponseFromJson, DeleteItemResponseToJson);
      break;
    case 29:
      RoundTrip(v, UpdateItemResponseFromJson, UpdateItemResponseToJson);
      break;
    case 30:
      RoundTrip(v, QueryResponseFromJson,
                [](const QueryResponse& r) { return QueryResponseToJson(r); });
      break;
    case 31:
      RoundTrip(v, ScanResponseFromJson,
                [](const ScanResponse& r) { return ScanResponseToJson(r, Select::kCount); });
      break;
    case 32:
      RoundTrip(v, BatchWriteItemResponseFromJson, BatchWriteItemResponseToJson);
      break;
    case 33:
      RoundTrip(v, BatchGetItemResponseFromJson, BatchGetItemResponseToJson);
      break;
    case 34:
      RoundTrip(v, TransactWriteItemsResponseFromJson, TransactWriteItemsResponseToJson);
      break;
    case 35:
      RoundTrip(v, TransactGetItemsResponseFromJson, TransactGetItemsResponseToJson);
      break;
    case 36:
      RoundTrip(v, UpdateTimeToLiveResponseFromJson, UpdateTimeToLiveResponseToJson);
      break;
    case 37:
      RoundTrip(v, DescribeTimeToLiveResponseFromJson, DescribeTimeToLiveResponseToJson);
      break;
    case 38:
      RoundTrip(v, ListStreamsResponseFromJson, ListStreamsResponseToJson);
      break;
    case 39:
      RoundTrip(v, DescribeStreamResponseFromJson, DescribeStreamResponseToJson);
      break;
    case 40:
      RoundTrip(v, GetShardIteratorResponseFromJson, GetShardIteratorResponseToJson);
      break;
    case 41:
      RoundTrip(v, GetRecordsResponseFromJson, GetRecordsResponseToJson);
      break;
    case 42:
      RoundTrip(v, SearchVectorsRequestFromJson, SearchVectorsRequestToJson);
      break;
    default:
      RoundTrip(v, SearchVectorsResponseFromJson, SearchVectorsResponseToJson);
      break;
  }
  return 0;
}
