// The binary item encoding stored as LMDB values (base tables and index entries).
//
// Grammar (DO NOT CHANGE without bumping kItemFormatVersion):
//   item    := 0x01 varint(item_size) varint(n) attr{n}     attributes in name order
//   attr    := str(name) value
//   value   := tag payload                                   tag = ValueType as a byte
//     S, B  := str(bytes)          N := Number key encoding (self-delimiting)
//     BOOL  := 0x00 | 0x01         NULL := (nothing)
//     M     := varint(n) attr{n}   L := varint(n) value{n}
//     SS,BS := varint(n) str{n}    NS := varint(n) number{n}
//   str     := varint(len) bytes
//   varint  := LEB128, at most 10 bytes
// item_size is the DynamoDB item size (core/item.h), kept so that table statistics and
// capacity need not decode the item.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/attribute_value.h"
#include "core/status.h"

namespace keyhole {

constexpr uint8_t kItemFormatVersion = 1;

// Encodes `item` whose DynamoDB size is `size`.
std::string EncodeItem(const Item& item, size_t size);
// Appends the item's attributes as EncodeItem writes them, without the version and size
// before them: bytes that are equal exactly when the items are (attributes in name order, sets
// in their sorted order), for digests of items.
void AppendItemBody(const Item& item, std::string* out);
// Decodes an item. InternalServerError ("corrupt item encoding") on malformed bytes: never a
// crash on any input.
Result<Item> DecodeItem(std::string_view bytes);
// DecodeItem into `*item` (REQUIRES: empty), for a caller that has checked the bytes: false,
// with *item unspecified, where DecodeItem would fail.
bool DecodeItemInto(std::string_view bytes, Item* item);
// Decodes only the top-level attributes named in `names` (sorted, no duplicates), skipping the
// others' values without building them. Malformed bytes as DecodeItem (those after the last
// wanted attribute are not read).
Result<Item> DecodeItemAttributes(std::string_view bytes, const std::vector<std::string>& names);
// Whether DecodeItem would accept `bytes`, checked without building anything (about a fifth of
// a decode's work). Storage checks what it hands out still encoded (core/item_list.h) with it.
bool ValidItemEncoding(std::string_view bytes);
// Appends the item's DynamoDB JSON text, the same as ItemToJsonText (core/ddb_json.h) of the
// decoded item, without building the item. False (*out then unspecified) where DecodeItem
// would fail; a writer of checked bytes (ItemList::Encoded) may rely on true.
bool AppendItemJsonText(std::string_view bytes, std::string* out);
// The item_size field, without decoding the rest. 0 on malformed bytes.
size_t EncodedItemSize(std::string_view bytes);

// The encoding's varint (LEB128, at most 10 bytes), for other formats of storage/ as well.
void AppendVarint(uint64_t v, std::string* out);
// Reads one from the front of *in and advances it; false (*in then unspecified) when *in ends
// first or it runs past 10 bytes.
bool ReadVarint(std::string_view* in, uint64_t* v);

}  // namespace keyhole
