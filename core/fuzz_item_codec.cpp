// libFuzzer target for the stored item encoding (core/item_codec.h), the one parser of bytes
// that come from the database file rather than from a user. Properties checked, beyond "no
// crash, no leak, no hang":
//  - ValidItemEncoding accepts exactly what DecodeItem accepts (ItemList decodes what storage
//    checked with it and cannot report an error then);
//  - AppendItemJsonText succeeds exactly then, with ItemToJsonText's text of the decoded item;
//  - an ItemList holding the bytes reads back the decoded item;
//  - Number::SkipKeyEncoding agrees with DecodeKeyEncoding on the same bytes.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/ddb_json.h"
#include "core/item_codec.h"
#include "core/item_list.h"

namespace {

void Require(bool condition) {
  if (!condition) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace keyhole;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const bool valid = ValidItemEncoding(bytes);
  const Result<Item> item = DecodeItem(bytes);
  Require(valid == item.ok());
  std::string text;
  Require(AppendItemJsonText(bytes, &text) == valid);
  if (valid) {
    Require(text == ItemToJsonText(*item));
    ItemList list;
    list.PushEncoded(bytes);
    Require(list[0] == *item);
  }
  std::string_view a = bytes, b = bytes;
  Number n;
  const bool decoded = Number::DecodeKeyEncoding(&a, &n);
  Require(Number::SkipKeyEncoding(&b) == decoded);
  Require(!decoded || a.size() == b.size());
  return 0;
}
