// Error bodies on the wire (api_json.h ErrorToJson, reference §7.5).
#include <fmt/format.h>

#include "api/api_json.h"
#include "core/ddb_json.h"

namespace keyhole {

namespace {

struct WireType {
  std::string_view ns;
  std::string name;
  int status = 400;
  bool capital_message = false;  // "Message" rather than "message"
};

WireType WireTypeOf(ErrorCode code) {
  constexpr std::string_view kDynamoDb = "com.amazonaws.dynamodb.v20120810#";
  switch (code) {
    case ErrorCode::kValidation:
      return {"com.amazon.coral.validate#", "ValidationException"};
    case ErrorCode::kAccessDenied:
      return {"com.amazon.coral.service#", "AccessDeniedException", 400, true};
    case ErrorCode::kSerialization:
      return {"com.amazon.coral.service#", "SerializationException", 400, true};
    case ErrorCode::kTransactionCanceled:
    case ErrorCode::kIdempotentParameterMismatch:
      return {kDynamoDb, std::string(ErrorName(code)), 400, true};
    case ErrorCode::kOther:  // named by the Status itself (ErrorToJson)
    case ErrorCode::kOk:
    case ErrorCode::kInternalServerError:
    case ErrorCode::kDatabaseFormat:  // keyhole's own codes never reach the wire
    case ErrorCode::kInterrupted:
      return {kDynamoDb, "InternalServerError", 500};
    default:
      return {kDynamoDb, std::string(ErrorName(code))};
  }
}

// A kOther error goes out under its own name, in DynamoDB's namespace (the name of a coral
// error an endpoint sent, such as UnrecognizedClientException, loses its namespace on the way in;
// SDKs read the part after '#'), with the HTTP status it came with (400 when it had none).
WireType WireTypeOfStatus(const Status& s) {
  if (s.code() != ErrorCode::kOther) return WireTypeOf(s.code());
  return {"com.amazonaws.dynamodb.v20120810#", std::string(s.name()),
          s.http_status() ? s.http_status() : 400};
}

}  // namespace

int ErrorHttpStatus(const Status& s) { return WireTypeOfStatus(s).status; }

json::Value ErrorToJson(const Status& s) {
  const WireType wire = WireTypeOfStatus(s);
  json::Value o = json::Value::MakeObject();
  o.Add("__type", json::Value::String(fmt::format("{}{}", wire.ns, wire.name)));
  const bool keyhole_only =
      s.code() == ErrorCode::kDatabaseFormat || s.code() == ErrorCode::kInterrupted;
  const std::string message = keyhole_only ? "Internal server error" : s.message();
  if (s.cancellation_reasons()) {
    json::Value reasons = json::Value::MakeArray();
    for (const Status::CancellationReason& r : *s.cancellation_reasons()) {
      json::Value e = json::Value::MakeObject();
      e.Add("Code", json::Value::String(r.code));
      if (r.item) e.Add("Item", ItemToJson(*r.item));
      if (!r.message.empty()) e.Add("Message", json::Value::String(r.message));
      reasons.Push(std::move(e));
    }
    o.Add("CancellationReasons", std::move(reasons));
  }
  o.Add(wire.capital_message ? "Message" : "message", json::Value::String(message));
  if (s.item()) o.Add("Item", ItemToJson(*s.item()));
  return o;
}

}  // namespace keyhole
