// Error bodies read back into a Status (api_json_client.h ErrorFromJson): the inverse of
// api_json_errors.cpp, and what DynamoDB and compatible engines send (reference §7.5).
#include <fmt/format.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "api/api_json_client.h"
#include "core/ddb_json.h"
#include "core/utf8.h"

namespace keyhole {

namespace {

// The code of a DynamoDB error name keyhole knows; kOk for any other. keyhole's own codes
// (DatabaseFormatException, InterruptedException) are not here: ErrorToJson never sends them
// under their names.
ErrorCode CodeOf(std::string_view name) {
  static constexpr ErrorCode kWireCodes[] = {
      ErrorCode::kValidation,          ErrorCode::kResourceNotFound,
      ErrorCode::kResourceInUse,       ErrorCode::kConditionalCheckFailed,
      ErrorCode::kTransactionCanceled, ErrorCode::kTransactionConflict,
      ErrorCode::kDuplicateItem,       ErrorCode::kItemCollectionSizeLimit,
      ErrorCode::kLimitExceeded,       ErrorCode::kIdempotentParameterMismatch,
      ErrorCode::kInternalServerError, ErrorCode::kExpiredIterator,
      ErrorCode::kTrimmedDataAccess,   ErrorCode::kAccessDenied,
      ErrorCode::kSerialization,       ErrorCode::kTableNotFound,
  };
  for (ErrorCode code : kWireCodes) {
    if (ErrorName(code) == name) return code;
  }
  return ErrorCode::kOk;
}

std::string NameOf(const json::Value& body) {
  const json::Value* type = body.Find("__type");
  if (!type || !type->IsString()) return "";
  std::string_view name = type->str();
  if (size_t hash = name.rfind('#'); hash != std::string_view::npos) name.remove_prefix(hash + 1);
  if (size_t colon = name.find(':'); colon != std::string_view::npos) name = name.substr(0, colon);
  return std::string(name);
}

std::string StringMember(const json::Value& o, std::string_view name) {
  const json::Value* m = o.Find(name);
  return m && m->IsString() ? m->str() : "";
}

// "message", else "Message" (DynamoDB's casing differs per error).
std::string MessageOf(const json::Value& o) {
  const json::Value* m = o.Find("message");
  if (m && m->IsString()) return m->str();
  return StringMember(o, "Message");
}

// The item under "Item", or null when absent or not an item.
Status::ItemPtr ItemOf(const json::Value& o) {
  const json::Value* m = o.Find("Item");
  if (!m || !m->IsObject()) return nullptr;
  Result<Item> item = ItemFromJson(*m);
  if (!item.ok()) return nullptr;
  return std::make_shared<const Item>(std::move(item).value());
}

Status::Reasons ReasonsOf(const json::Value& o) {
  const json::Value* list = o.Find("CancellationReasons");
  if (!list || !list->IsArray()) return nullptr;
  auto reasons = std::make_shared<std::vector<Status::CancellationReason>>();
  for (const json::Value& e : list->array()) {
    Status::CancellationReason r;
    if (e.IsObject()) {
      r.code = StringMember(e, "Code");
      r.message = MessageOf(e);
      r.item = ItemOf(e);
    }
    reasons->push_back(std::move(r));
  }
  return reasons;
}

// Up to 200 bytes of a body that is not a DynamoDB error, for the message: cut at a character,
// with '?' for each byte that is not UTF-8 (a message must be valid UTF-8 to travel in JSON).
std::string Excerpt(std::string_view body) {
  if (body.empty()) return "an empty body";
  constexpr size_t kMax = 200;
  std::string out = "the body ";
  size_t i = 0;
  while (i < body.size() && i < kMax) {
    size_t n = utf8::SequenceLength(body.substr(i));
    if (n == 0) {
      out += '?';
      n = 1;
    } else if (i + n > kMax) {
      break;
    } else {
      out.append(body.substr(i, n));
    }
    i += n;
  }
  if (i < body.size()) out += "...";
  return out;
}

}  // namespace

std::string ErrorNameFromJson(std::string_view body) {
  Result<json::Value> v = json::Parse(body);
  if (!v.ok() || !v->IsObject()) return "";
  return NameOf(*v);
}

Status ErrorFromJson(int http_status, std::string_view body) {
  Result<json::Value> parsed = json::Parse(body);
  const json::Value* v = parsed.ok() && parsed->IsObject() ? &parsed.value() : nullptr;
  const std::string name = v ? NameOf(*v) : "";
  if (name.empty()) {
    if (http_status == 413) {
      // DynamoDB answers a body over 16 MiB with 413 and no body (reference §7.3).
      return Status::Validation(
          "The request is larger than DynamoDB accepts (16 MB): HTTP 413 Request Entity Too "
          "Large");
    }
    return Status::Internal(
        fmt::format("HTTP {} without a DynamoDB error: {}", http_status, Excerpt(body)));
  }
  std::string message = MessageOf(*v);
  const ErrorCode code = CodeOf(name);
  if (code == ErrorCode::kOk) return Status::Named(name, std::move(message), http_status);
  Status s(code, std::move(message));
  if (Status::ItemPtr item = ItemOf(*v)) s.WithItem(std::move(item));
  if (Status::Reasons reasons = ReasonsOf(*v)) s.WithCancellationReasons(std::move(reasons));
  return s;
}

}  // namespace keyhole
