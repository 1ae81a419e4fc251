// keyhole_sigv4_tool: signs requests with aws/sigv4.h for tests/remote/sigv4_botocore_test.py,
// which signs the same requests with botocore and compares. Reads one JSON object per line:
//   {"method":..., "path":..., "query":..., "headers":[[name, value], ...], "body": base64,
//    "key":..., "secret":..., "token":..., "region":..., "service":..., "time": epoch seconds}
// and writes, per line, the Authorization header it computed (or "error: ..." for a bad line).
#include <iostream>
#include <string>

#include "aws/sigv4.h"
#include "core/ddb_json.h"
#include "core/json.h"

namespace {

std::string Str(const keyhole::json::Value& o, std::string_view k) {
  const keyhole::json::Value* v = o.Find(k);
  return v && v->IsString() ? v->str() : "";
}

std::string Body(const keyhole::json::Value& o) {
  std::string body;
  keyhole::Base64Decode(Str(o, "body"), &body);
  return body;
}

}  // namespace

int main() {
  std::string line;
  while (std::getline(std::cin, line)) {
    keyhole::Result<keyhole::json::Value> v = keyhole::json::Parse(line);
    if (!v.ok() || !v->IsObject()) {
      std::cout << "error: not a JSON object\n";
      continue;
    }
    keyhole::aws::Headers headers;
    if (const keyhole::json::Value* h = v->Find("headers"); h && h->IsArray()) {
      for (const keyhole::json::Value& pair : h->array()) {
        if (pair.IsArray() && pair.array().size() == 2) {
          headers.emplace_back(pair.array()[0].str(), pair.array()[1].str());
        }
      }
    }
    const keyhole::json::Value* t = v->Find("time");
    const double when = t && t->IsNumber() ? std::stod(t->number_text()) : 0;
    keyhole::aws::SignRequest({Str(*v, "key"), Str(*v, "secret"), Str(*v, "token")},
                              Str(*v, "region"), Str(*v, "service"), when, Str(*v, "method"),
                              Str(*v, "path"), Str(*v, "query"), Body(*v), &headers);
    std::string auth;
    for (const auto& [k, val] : headers) {
      if (k == "Authorization") auth = val;
    }
    std::cout << auth << "\n";
  }
  return 0;
}
