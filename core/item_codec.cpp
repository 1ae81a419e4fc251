#include "core/item_codec.h"

#include <algorithm>
#include <iterator>

namespace keyhole {

namespace {

void PutStr(std::string_view s, std::string* out) {
  AppendVarint(s.size(), out);
  out->append(s);
}

void PutValue(const AttributeValue& v, std::string* out);

void PutAttrs(const Map& m, std::string* out) {
  AppendVarint(m.size(), out);
  for (const auto& [name, value] : m) {
    PutStr(name, out);
    PutValue(value, out);
  }
}

void PutValue(const AttributeValue& v, std::string* out) {
  out->push_back(static_cast<char>(v.type()));
  switch (v.type()) {
    case ValueType::kS:
    case ValueType::kB:
      PutStr(v.s(), out);
      break;
    case ValueType::kN:
      v.n().AppendKeyEncoding(out);
      break;
    case ValueType::kBool:
      out->push_back(v.boolean() ? 1 : 0);
      break;
    case ValueType::kNull:
      break;
    case ValueType::kM:
      PutAttrs(v.m(), out);
      break;
    case ValueType::kL:
      AppendVarint(v.l().size(), out);
      for (const auto& e : v.l()) PutValue(e, out);
      break;
    case ValueType::kSS:
    case ValueType::kBS:
      AppendVarint(v.strings().size(), out);
      for (const auto& s : v.strings()) PutStr(s, out);
      break;
    case ValueType::kNS:
      AppendVarint(v.numbers().size(), out);
      for (const auto& n : v.numbers()) n.AppendKeyEncoding(out);
      break;
  }
}

// previous < name bytewise; the first bytes decide most pairs of names without a memcmp call.
bool Ascending(std::string_view previous, std::string_view name) {
  if (!previous.empty() && !name.empty() && previous[0] != name[0]) {
    return static_cast<uint8_t>(previous[0]) < static_cast<uint8_t>(name[0]);
  }
  return previous < name;
}

// A bounds-checked reader. Any failure sets ok = false and every later read fails too.
struct Reader {
  std::string_view in;
  bool ok = true;
  int depth = 0;

  bool Varint(uint64_t* v) {
    if (ok && !in.empty() && static_cast<uint8_t>(in[0]) < 0x80) {  // one byte: most of them
      *v = static_cast<uint8_t>(in[0]);
      in.remove_prefix(1);
      return true;
    }
    return (ok && ReadVarint(&in, v)) || (ok = false);
  }
  bool Count(uint64_t* n) {  // a count can never exceed the remaining bytes
    return Varint(n) && (*n <= in.size() || (ok = false));
  }
  bool View(std::string_view* s) {
    uint64_t n;
    if (!Varint(&n) || n > in.size()) return ok = false;
    *s = in.substr(0, n);
    in.remove_prefix(n);
    return true;
  }
  bool Str(std::string* s) {
    std::string_view v;
    if (!View(&v)) return false;
    s->append(v.data(), v.size());  // *s is new and empty (append skips assign's alias checks)
    return true;
  }
  bool Num(Number* n) { return Number::DecodeKeyEncoding(&in, n) || (ok = false); }
  bool Attrs(Map* m);
  bool Value(AttributeValue* v);
  bool SkipNum() { return Number::SkipKeyEncoding(&in) || (ok = false); }
  // One value, or `n` attributes, without building them. They accept exactly what Value and
  // Attrs accept (ValidItemEncoding relies on it).
  bool Skip();
  bool SkipAttrs(uint64_t n);
};

bool Reader::Skip() {
  if (in.empty() || ++depth > 64) return ok = false;
  auto tag = static_cast<unsigned char>(in[0]);
  in.remove_prefix(1);
  uint64_t n = 0;
  bool r = true;
  std::string_view bytes;
  auto skip_str = [&] { return View(&bytes); };
  switch (static_cast<ValueType>(tag)) {
    case ValueType::kS:
    case ValueType::kB:
      r = skip_str();
      break;
    case ValueType::kN:
      r = SkipNum();
      break;
    case ValueType::kBool:
      if (in.empty()) return ok = false;
      in.remove_prefix(1);
      break;
    case ValueType::kNull:
      break;
    case ValueType::kM:
      r = Count(&n) && SkipAttrs(n);
      break;
    case ValueType::kL:
      r = Count(&n);
      for (uint64_t i = 0; r && i < n; ++i) r = Skip();
      break;
    case ValueType::kSS:
    case ValueType::kBS:
      r = Count(&n);
      for (uint64_t i = 0; r && i < n; ++i) r = skip_str();
      break;
    case ValueType::kNS:
      r = Count(&n);
      for (uint64_t i = 0; r && i < n; ++i) r = SkipNum();
      break;
    default:
      return ok = false;
  }
  --depth;
  return r && ok;
}

bool Reader::SkipAttrs(uint64_t n) {
  std::string_view previous, name;
  for (uint64_t i = 0; i < n; ++i) {
    if (!View(&name)) return false;
    // As Attrs requires of a decoded map: names strictly ascending (FlatMap::Append's order).
    if (i > 0 && !Ascending(previous, name)) return ok = false;
    if (!Skip()) return false;
    previous = name;
  }
  return true;
}

bool Reader::Attrs(Map* m) {
  uint64_t n;
  if (!Count(&n)) return false;
  m->reserve(std::min<uint64_t>(n, in.size() / 2));  // each attribute takes 2 bytes or more
  for (uint64_t i = 0; i < n; ++i) {
    std::string_view name;
    if (!View(&name)) return false;
    // Names are stored in order, so each is appended; one out of order or repeated is corrupt.
    AttributeValue* v = m->Append(name);
    if (!v) return ok = false;
    if (!Value(v)) return false;
  }
  return true;
}

bool Reader::Value(AttributeValue* v) {
  if (in.empty() || ++depth > 64) return ok = false;
  auto tag = static_cast<unsigned char>(in[0]);
  in.remove_prefix(1);
  bool r = true;
  switch (static_cast<ValueType>(tag)) {
    case ValueType::kS:
    case ValueType::kB:
      r = Str(&v->SetString(static_cast<ValueType>(tag)));
      break;
    case ValueType::kN:
      r = Num(&v->SetNumber());
      break;
    case ValueType::kBool:
      if (in.empty()) return ok = false;
      v->SetBool(in[0] != 0);
      in.remove_prefix(1);
      break;
    case ValueType::kNull:
      *v = AttributeValue::Null();
      break;
    case ValueType::kM: {
      Map m;
      r = Attrs(&m);
      *v = AttributeValue::M(std::move(m));
      break;
    }
    case ValueType::kL: {
      uint64_t n;
      List l;
      r = Count(&n);
      for (uint64_t i = 0; r && i < n; ++i) {
        l.emplace_back();
        r = Value(&l.back());
      }
      *v = AttributeValue::L(std::move(l));
      break;
    }
    case ValueType::kSS:
    case ValueType::kBS: {
      uint64_t n;
      std::vector<std::string> ss;
      r = Count(&n);
      for (uint64_t i = 0; r && i < n; ++i) r = Str(&ss.emplace_back());
      *v = tag == static_cast<int>(ValueType::kSS) ? AttributeValue::SS(std::move(ss))
                                                   : AttributeValue::BS(std::move(ss));
      break;
    }
    case ValueType::kNS: {
      uint64_t n;
      std::vector<Number> ns;
      r = Count(&n);
      for (uint64_t i = 0; r && i < n; ++i) r = Num(&ns.emplace_back());
      *v = AttributeValue::NS(std::move(ns));
      break;
    }
    default:
      return ok = false;
  }
  --depth;
  return r && ok;
}

}  // namespace

void AppendVarint(uint64_t v, std::string* out) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

bool ReadVarint(std::string_view* in, uint64_t* v) {
  *v = 0;
  for (int shift = 0; shift < 70; shift += 7) {
    if (in->empty()) return false;
    auto b = static_cast<unsigned char>((*in)[0]);
    in->remove_prefix(1);
    *v |= static_cast<uint64_t>(b & 0x7f) << shift;
    if (!(b & 0x80)) return true;
  }
  return false;
}

std::string EncodeItem(const Item& item, size_t size) {
  std::string out;
  out.reserve(size + 16);
  out.push_back(static_cast<char>(kItemFormatVersion));
  AppendVarint(size, &out);
  PutAttrs(item, &out);
  return out;
}

Result<Item> DecodeItem(std::string_view bytes) {
  Reader r{bytes};
  uint64_t size;
  Item item;
  if (bytes.empty() || static_cast<uint8_t>(bytes[0]) != kItemFormatVersion) {
    return Status::Internal("corrupt item encoding: unknown item format version");
  }
  r.in.remove_prefix(1);
  if (!r.Varint(&size) || !r.Attrs(&item) || !r.in.empty()) {
    return Status::Internal("corrupt item encoding");
  }
  return item;
}

Result<Item> DecodeItemAttributes(std::string_view bytes, const std::vector<std::string>& names) {
  Reader r{bytes};
  uint64_t size, n;
  Item item;
  if (bytes.empty() || static_cast<uint8_t>(bytes[0]) != kItemFormatVersion) {
    return Status::Internal("corrupt item encoding: unknown item format version");
  }
  r.in.remove_prefix(1);
  if (!r.Varint(&size) || !r.Count(&n)) return Status::Internal("corrupt item encoding");
  auto want = names.begin();
  std::string_view name;
  for (uint64_t i = 0; i < n && want != names.end(); ++i) {
    if (!r.View(&name)) return Status::Internal("corrupt item encoding");
    while (want != names.end() && std::string_view(*want) < name) ++want;
    if (want != names.end() && *want == name) {
      AttributeValue* v = item.Append(name);
      if (!v || !r.Value(v)) return Status::Internal("corrupt item encoding");
      ++want;
    } else if (!r.Skip()) {
      return Status::Internal("corrupt item encoding");
    }
  }
  return item;
}

bool ValidItemEncoding(std::string_view bytes) {
  if (bytes.empty() || static_cast<uint8_t>(bytes[0]) != kItemFormatVersion) return false;
  Reader r{bytes.substr(1)};
  uint64_t size, n;
  return r.Varint(&size) && r.Count(&n) && r.SkipAttrs(n) && r.in.empty();
}

size_t EncodedItemSize(std::string_view bytes) {
  if (bytes.empty() || static_cast<uint8_t>(bytes[0]) != kItemFormatVersion) return 0;
  Reader r{bytes.substr(1)};
  uint64_t size;
  return r.Varint(&size) ? size : 0;
}

}  // namespace keyhole
