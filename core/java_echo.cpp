#include "core/java_echo.h"

#include <fmt/format.h>

#include "core/ddb_json.h"

namespace keyhole {
namespace {

constexpr std::string_view kModel = "com.amazonaws.dynamodb.v20120810.";

// 32-bit FNV-1a: a stand-in for Java's identity hash that is stable across runs.
uint32_t Hash32(std::string_view bytes, uint32_t h = 2166136261u) {
  for (unsigned char c : bytes) h = (h ^ c) * 16777619u;
  return h;
}

}  // namespace

std::string JavaEchoValue(const AttributeValue& v) {
  return fmt::format("{}AttributeValue@{:08x}", kModel, Hash32(ValueToJsonText(v)));
}

std::string JavaEchoItem(const Item& item) {
  std::string out = "{";
  for (const auto& [name, value] : item) {
    if (out.size() > 1) out += ", ";
    out += name + "=" + JavaEchoValue(value);
  }
  return out + "}";
}

std::string JavaEchoWriteRequests(const std::vector<WriteRequest>& requests) {
  std::string out = "[";
  for (const WriteRequest& w : requests) {
    if (out.size() > 1) out += ", ";
    if (w.put_request) {
      out += "WriteRequest(putRequest=PutRequest(item=" + JavaEchoItem(w.put_request->item) +
             ", workloadProfileName=null), deleteRequest=null)";
    } else if (w.delete_request) {
      // ⚠️ Not captured: the DeleteRequest form is inferred from the PutRequest one.
      out += "WriteRequest(putRequest=null, deleteRequest=DeleteRequest(key=" +
             JavaEchoItem(w.delete_request->key) + ", workloadProfileName=null))";
    } else {
      out += "WriteRequest(putRequest=null, deleteRequest=null)";
    }
  }
  return out + "]";
}

std::string JavaEchoObjects(std::string_view cls, size_t n, std::string_view seed) {
  std::string out = "[";
  const uint32_t base = Hash32(seed);
  for (size_t i = 0; i < n; ++i) {
    if (i) out += ", ";
    out += fmt::format("{}{}@{:08x}", kModel, cls, Hash32(std::to_string(i), base));
  }
  return out + "]";
}

}  // namespace keyhole
