// libFuzzer target for aws/'s parsers of what users and services hand in: the shared config
// files' INI dialect (ParseIni), endpoint URLs (ParseEndpoint), ISO 8601 times (ParseIso8601),
// STS's XML answers (XmlText), SigV4's canonical request, and plain_http.h's readers of a
// server's answer (URL, response head, chunked body). The first byte picks the parser.
// Properties, beyond "no crash, no leak, no hang":
//  - an endpoint that parses prints (Url) as a URL that parses to the same endpoint;
//  - an INI file that parses has no key twice in a section and no empty key;
//  - a time that parses is finite;
//  - a canonical request has six lines after its headers, whatever the input;
//  - a response head that parses ends within the input, with a status of 100 or more;
//  - a chunked body that ends used no more than it was given, and never more body than input.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "aws/config.h"
#include "aws/credentials.h"
#include "aws/endpoint.h"
#include "aws/plain_http.h"
#include "aws/sigv4.h"
#include "core/time.h"

namespace {

void Require(bool condition) {
  if (!condition) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace keyhole;
  if (size == 0) return 0;
  const std::string_view input(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 8) {
    case 0: {
      Result<aws::Endpoint> e = aws::ParseEndpoint(input);
      if (e.ok()) {
        Result<aws::Endpoint> again = aws::ParseEndpoint(e->Url());
        Require(again.ok() && again->Url() == e->Url() && again->HostHeader() == e->HostHeader());
      }
      break;
    }
    case 1: {
      Result<aws::IniFile> ini = aws::ParseIni(input, "fuzz");
      if (ini.ok()) {
        for (const auto& [name, section] : *ini) {
          for (const auto& [key, value] : section.values) Require(!key.empty());
        }
      }
      break;
    }
    case 2: {
      std::optional<double> t = ParseIso8601(input);
      if (t) Require(std::isfinite(*t));
      break;
    }
    case 3: {
      const size_t cut = input.find('\0');
      const std::string_view tag = cut == std::string_view::npos ? "Code" : input.substr(0, cut);
      (void)aws::XmlText(cut == std::string_view::npos ? input : input.substr(cut + 1), tag);
      break;
    }
    case 4: {
      const aws::Headers headers = {{"Host", std::string(input.substr(0, 16))},
                                    {"X-Amz-Date", "20300101T000000Z"}};
      const std::string path(input.substr(0, input.size() / 2));
      const std::string canonical = aws::CanonicalRequest(
          "POST", path, input.substr(input.size() / 2), headers, "host;x-amz-date", "HASH");
      Require(canonical.ends_with("\nhost;x-amz-date\nHASH"));
      break;
    }
    case 5: {
      aws::internal::PlainTarget t;
      if (aws::internal::ParsePlainUrl(input, &t)) Require(t.port > 0 && t.target[0] == '/');
      break;
    }
    case 6: {
      aws::internal::ResponseHead h;
      if (aws::internal::ParseResponseHead(input, &h) == 1) {
        Require(h.head_bytes <= input.size() && h.status >= 100);
      }
      break;
    }
    case 7: {  // fed in pieces of a size the input's first byte picks
      aws::internal::ChunkedDecoder d;
      std::string body;
      const size_t piece = input.empty() ? 1 : 1 + static_cast<uint8_t>(input[0]) % 64;
      for (size_t at = 0; at < input.size(); at += piece) {
        const std::string_view more = input.substr(at, piece);
        size_t used = 0;
        const int r = d.Feed(more, &body, &used);
        Require(body.size() <= input.size());
        if (r != 0) {
          Require(r < 0 || used <= more.size());
          break;
        }
      }
      break;
    }
  }
  return 0;
}
