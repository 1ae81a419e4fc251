#include "core/item_codec.h"

#include <algorithm>
#include <iterator>

#include "core/ddb_json.h"
#include "core/json.h"

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

// ValidItemEncoding's walk, and Reader's way of skipping a value: Reader's checks (Varint, Count,
// View, Attrs' order, Value's tags and depth) over raw pointers, building nothing. It must accept
// exactly what Reader::Attrs and Reader::Value accept; ItemEncodingCheck.* compare the two on
// mutated encodings.
class EncodingCheck {
 public:
  explicit EncodingCheck(std::string_view in)
      : p_(reinterpret_cast<const uint8_t*>(in.data())), end_(p_ + in.size()) {}

  bool AtEnd() const { return p_ == end_; }
  std::string_view Rest() const {
    return std::string_view(reinterpret_cast<const char*>(p_), static_cast<size_t>(end_ - p_));
  }
  bool Varint(uint64_t* v) {
    if (p_ != end_ && *p_ < 0x80) {
      *v = *p_++;
      return true;
    }
    if (end_ - p_ >= 2 && p_[1] < 0x80) {  // two bytes: an item's size, a longer string
      *v = (p_[0] & 0x7f) | (uint64_t{p_[1]} << 7);
      p_ += 2;
      return true;
    }
    std::string_view rest = Rest();
    if (!ReadVarint(&rest, v)) return false;
    p_ = end_ - rest.size();
    return true;
  }
  // One value at `depth` (as Reader::depth when Value reads it).
  bool Value(int depth) {
    if (p_ == end_ || depth >= 64) return false;
    uint64_t n;
    switch (static_cast<ValueType>(*p_++)) {
      case ValueType::kS:
      case ValueType::kB:
        return Str();
      case ValueType::kN:
        return Num();
      case ValueType::kBool:
        if (p_ == end_) return false;
        ++p_;
        return true;
      case ValueType::kNull:
        return true;
      case ValueType::kM:
        return Attrs(depth + 1);
      case ValueType::kL:
        if (!Count(&n)) return false;
        for (uint64_t i = 0; i < n; ++i) {
          if (!Value(depth + 1)) return false;
        }
        return true;
      case ValueType::kSS:
      case ValueType::kBS:
        if (!Count(&n)) return false;
        for (uint64_t i = 0; i < n; ++i) {
          if (!Str()) return false;
        }
        return true;
      case ValueType::kNS:
        if (!Count(&n)) return false;
        for (uint64_t i = 0; i < n; ++i) {
          if (!Num()) return false;
        }
        return true;
      default:
        return false;
    }
  }
  // `depth` as Reader::depth when Attrs reads these attributes.
  bool Attrs(int depth) {
    uint64_t n;
    if (!Count(&n)) return false;
    std::string_view previous;
    for (uint64_t i = 0; i < n; ++i) {
      std::string_view name;
      if (!View(&name) || (i > 0 && !Ascending(previous, name)) || !Value(depth)) return false;
      previous = name;
    }
    return true;
  }

 private:
  bool Count(uint64_t* n) { return Varint(n) && *n <= static_cast<uint64_t>(end_ - p_); }
  bool View(std::string_view* s) {
    uint64_t n;
    if (!Count(&n)) return false;
    *s = std::string_view(reinterpret_cast<const char*>(p_), n);
    p_ += n;
    return true;
  }
  bool Str() {
    uint64_t n;
    if (!Count(&n)) return false;
    p_ += n;
    return true;
  }
  bool Num() {
    std::string_view rest = Rest();
    if (!Number::SkipKeyEncoding(&rest)) return false;
    p_ = end_ - rest.size();
    return true;
  }

  const uint8_t* p_;
  const uint8_t* end_;
};

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
  // M, L and the sets (`tag`), one level deeper; false on any other tag.
  [[gnu::noinline]] bool Composite(unsigned char tag, AttributeValue* v);
  // One value, without building it (DecodeItemAttributes' skipping).
  bool Skip() {
    EncodingCheck check(in);
    if (!ok || !check.Value(depth)) return ok = false;
    in = check.Rest();
    return true;
  }
};

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
  // The scalar types inline; the rest in Composite, so that this common path stays small.
  if (in.empty() || depth >= 64) return ok = false;
  auto tag = static_cast<unsigned char>(in[0]);
  in.remove_prefix(1);
  switch (static_cast<ValueType>(tag)) {
    case ValueType::kS:
    case ValueType::kB: {
      std::string_view bytes;
      if (!View(&bytes)) return false;
      v->SetString(static_cast<ValueType>(tag), bytes);
      return true;
    }
    case ValueType::kN:
      return Num(&v->SetNumber());
    case ValueType::kBool:
      if (in.empty()) return ok = false;
      v->SetBool(in[0] != 0);
      in.remove_prefix(1);
      return true;
    case ValueType::kNull:
      *v = AttributeValue::Null();
      return true;
    default:
      ++depth;
      const bool r = Composite(tag, v);
      --depth;
      return r && ok;
  }
}

bool Reader::Composite(unsigned char tag, AttributeValue* v) {
  bool r = true;
  switch (static_cast<ValueType>(tag)) {
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
  return r;
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

void AppendItemBody(const Item& item, std::string* out) { PutAttrs(item, out); }

bool DecodeItemInto(std::string_view bytes, Item* item) {
  if (bytes.empty() || static_cast<uint8_t>(bytes[0]) != kItemFormatVersion) return false;
  Reader r{bytes.substr(1)};
  uint64_t size;
  return r.Varint(&size) && r.Attrs(item) && r.in.empty();
}

Result<Item> DecodeItem(std::string_view bytes) {
  if (bytes.empty() || static_cast<uint8_t>(bytes[0]) != kItemFormatVersion) {
    return Status::Internal("corrupt item encoding: unknown item format version");
  }
  Item item;
  if (!DecodeItemInto(bytes, &item)) return Status::Internal("corrupt item encoding");
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
  EncodingCheck check(bytes.substr(1));
  uint64_t size;
  return check.Varint(&size) && check.Attrs(0) && check.AtEnd();
}

bool AppendItemJsonText(std::string_view bytes, std::string* out) {
  if (bytes.empty() || static_cast<uint8_t>(bytes[0]) != kItemFormatVersion) return false;
  Reader r{bytes.substr(1)};
  uint64_t size, n;
  if (!r.Varint(&size) || !r.Count(&n)) return false;
  out->push_back('{');
  std::string_view previous;
  for (uint64_t i = 0; i < n; ++i) {
    std::string_view name;
    if (!r.View(&name) || r.in.empty() || (i > 0 && !Ascending(previous, name))) return false;
    previous = name;
    if (i > 0) out->push_back(',');
    json::AppendQuoted(name, out);
    out->push_back(':');
    // S and N, the usual types, straight from the bytes; the others through an AttributeValue,
    // so that their text is ValueToJsonText's.
    const auto tag = static_cast<ValueType>(r.in[0]);
    if (tag == ValueType::kS) {
      r.in.remove_prefix(1);
      std::string_view s;
      if (!r.View(&s)) return false;
      out->append("{\"S\":");
      json::AppendQuoted(s, out);
      out->push_back('}');
    } else if (tag == ValueType::kN) {
      r.in.remove_prefix(1);
      Number number;
      if (!r.Num(&number)) return false;
      out->append("{\"N\":\"");
      out->append(number.ToString());
      out->append("\"}");
    } else {
      AttributeValue v;
      if (!r.Value(&v)) return false;
      out->append(ValueToJsonText(v));
    }
  }
  out->push_back('}');
  return r.in.empty();
}

size_t EncodedItemSize(std::string_view bytes) {
  if (bytes.empty() || static_cast<uint8_t>(bytes[0]) != kItemFormatVersion) return 0;
  Reader r{bytes.substr(1)};
  uint64_t size;
  return r.Varint(&size) ? size : 0;
}

}  // namespace keyhole
