// Vector indexes: their definition's checks, the write-time check of an item, scores, JSON
// (vector_index.h).
#include "core/vector_index.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <set>

namespace keyhole {

namespace {

constexpr std::string_view kInvalid = "One or more parameter values were invalid: ";
// The write-time texts have a full stop after "invalid" (captured from DynamoDB).
constexpr std::string_view kInvalidItem = "One or more parameter values were invalid. ";

constexpr double kFloatMax = std::numeric_limits<float>::max();

// The nearest double to `n`, as C's strtod reads its text (from_chars is several times faster;
// strtod still gives what it gives beyond double's range).
double ToDouble(const Number& n) {
  const std::string text = n.ToString();
  double d = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), d);
  if (ec != std::errc() || end != text.data() + text.size())
    return std::strtod(text.c_str(), nullptr);
  return d;
}

const json::Value* Member(const json::Value& v, std::string_view name, json::Kind kind) {
  const json::Value* m = v.Find(name);
  return m && m->kind() == kind ? m : nullptr;
}

// A number as Java's BigDecimal.toString prints DynamoDB's normalized value (the service's
// messages echo it so): plain while it has no negative scale and its exponent is at least -6,
// else scientific ("1E+39", "-3.5E+40").
std::string JavaDecimalText(const Number& n) {
  const std::string& d = n.digits();
  const int e = n.exponent();
  if (d.empty() || (static_cast<int>(d.size()) - 1 - e >= 0 && e >= -6)) return n.ToString();
  std::string out = n.IsNegative() ? "-" : "";
  out += d[0];
  if (d.size() > 1) out += "." + d.substr(1);
  return out + fmt::format("E{:+d}", e);
}

Status Corrupt(std::string_view what) {
  return Status::Format(fmt::format("catalog record is malformed: vector index {}", what));
}

}  // namespace

std::string_view DistanceFunctionName(DistanceFunction f) {
  switch (f) {
    case DistanceFunction::kCosine:
      return "COSINE";
    case DistanceFunction::kDotProduct:
      return "DOT_PRODUCT";
    case DistanceFunction::kEuclidean:
      return "EUCLIDEAN";
  }
  return "COSINE";
}

bool DistanceFunctionFromName(std::string_view name, DistanceFunction* out) {
  for (DistanceFunction f :
       {DistanceFunction::kCosine, DistanceFunction::kDotProduct, DistanceFunction::kEuclidean}) {
    if (name == DistanceFunctionName(f)) {
      *out = f;
      return true;
    }
  }
  return false;
}

const SearchAttribute* VectorIndexDescription::Hash() const {
  for (const SearchAttribute& a : search_schema) {
    if (a.hash) return &a;
  }
  return nullptr;
}

Result<VectorIndexDescription> BuildVectorIndex(const KeySchema& table_key,
                                                const std::vector<AttributeDefinition>& defs,
                                                const VectorIndexSpec& spec) {
  (void)table_key;
  KH_RETURN_IF_ERROR(ValidateTableName(spec.name, "indexName"));
  VectorIndexDescription idx;
  idx.name = spec.name;
  if (spec.dimensions < 1 || spec.dimensions > kMaxVectorDimensions) {
    return Status::Validation(
        fmt::format("{}Number of dimensions must be between 1 and {} inclusive.", kInvalid,
                    kMaxVectorDimensions));
  }
  idx.dimensions = static_cast<int>(spec.dimensions);
  if (!DistanceFunctionFromName(spec.distance_function, &idx.distance)) {
    return Status::Validation(fmt::format(
        "1 validation error detected: Value '{}' at 'distanceFunction' failed to satisfy "
        "constraint: Member must satisfy enum value set: [COSINE, DOT_PRODUCT, EUCLIDEAN]",
        spec.distance_function));
  }
  idx.vector_attribute = spec.vector_attribute;
  if (std::ranges::any_of(
          defs, [&](const AttributeDefinition& d) { return d.name == idx.vector_attribute; })) {
    return Status::Validation(fmt::format(
        "{}Conflicting attribute definition for '{}'. An attribute cannot be defined in "
        "AttributeDefinitions when used as a VectorAttribute.",
        kInvalid, idx.vector_attribute));
  }
  std::set<std::string> seen;
  size_t hashes = 0;
  for (const SearchSchemaElementSpec& e : spec.search_schema) {
    auto d =
        std::ranges::find_if(defs, [&](const AttributeDefinition& x) { return x.name == e.name; });
    if (d == defs.end()) {
      return Status::Validation(fmt::format(
          "{}One element in SearchSchema is not defined in attribute definitions", kInvalid));
    }
    if (!seen.insert(e.name).second) {
      return Status::Validation(
          fmt::format("{}SearchSchema contains a duplicate AttributeName", kInvalid));
    }
    SearchAttribute a;
    a.name = e.name;
    TypeFromName(d->type, &a.type);
    a.hash = e.kind == "HASH";
    hashes += a.hash;
    idx.search_schema.push_back(std::move(a));
  }
  if (hashes > 1) {
    return Status::Validation(fmt::format(
        "{}Value '{}' at 'SearchSchema' failed to satisfy constraint: Member must have HASH count "
        "less than or equal to 1",
        kInvalid, hashes));
  }
  IndexSpec projection;
  projection.name = spec.name;
  projection.projection_type = spec.projection_type;
  projection.non_key_attributes = spec.non_key_attributes;
  KH_ASSIGN_OR_RETURN(idx.projection, BuildProjection(projection));
  return idx;
}

Status CheckVectorIndexes(const std::vector<VectorIndexDescription>& indexes,
                          std::string_view billing_mode) {
  if (indexes.empty()) return Status::OK();
  if (indexes.size() > kMaxVectorIndexes) {
    return Status::Validation(fmt::format("{}VectorIndex count exceeds the per-table limit of {}",
                                          kInvalid, kMaxVectorIndexes));
  }
  std::map<std::string, int> dimensions;
  for (const VectorIndexDescription& v : indexes) {
    auto [it, added] = dimensions.emplace(v.vector_attribute, v.dimensions);
    if (!added && it->second != v.dimensions) {
      return Status::Validation(fmt::format(
          "{}Conflicting attribute definition for '{}'. All VectorIndexes on the same vector "
          "attribute must use the same dimensions.",
          kInvalid, v.vector_attribute));
    }
  }
  if (billing_mode != "PAY_PER_REQUEST") {
    return Status::Validation(
        fmt::format("{}Vector indexes are only supported for PAY_PER_REQUEST tables", kInvalid));
  }
  return Status::OK();
}

Status CheckVectorItem(const VectorIndexDescription& index, const Item& item, bool from_update) {
  const std::string& name = index.vector_attribute;
  if (auto v = item.find(name); v != item.end()) {
    if (!v->second.is(ValueType::kL)) {
      return Status::Validation(fmt::format(
          "{}Invalid type for parameter {}, Expected: 32-bit floating point number list "
          "IndexName: {}",
          kInvalidItem, name, index.name));
    }
    const auto& list = v->second.l();
    if (list.size() != static_cast<size_t>(index.dimensions)) {
      return Status::Validation(
          fmt::format("{}Invalid size for parameter {}, Expected: {}, Actual: {} IndexName: {}",
                      kInvalidItem, name, index.dimensions, list.size(), index.name));
    }
    for (size_t i = 0; i < list.size(); ++i) {
      if (!list[i].is(ValueType::kN)) {
        return Status::Validation(fmt::format(
            "{}Invalid type for parameter {}[{}], Expected: 32-bit floating point number, "
            "Actual: {}. IndexName: {}",
            kInvalidItem, name, i, TypeName(list[i].type()), index.name));
      }
      const double d = ToDouble(list[i].n());
      if (!(std::fabs(d) <= kFloatMax)) {
        return Status::Validation(
            fmt::format("{}Invalid value for parameter {}[{}], Value: {} is outside valid range "
                        "[-3.4028235E38, 3.4028235E38]. IndexName: {}",
                        kInvalidItem, name, i, JavaDecimalText(list[i].n()), index.name));
      }
    }
  }
  for (const SearchAttribute& a : index.search_schema) {
    auto v = item.find(a.name);
    if (v == item.end()) continue;
    if (v->second.type() != a.type) {
      return Status::Validation(fmt::format(
          "{}Attribute '{}' type mismatch. Expected: {}, Actual: {}. IndexName: {}", kInvalidItem,
          a.name, TypeName(a.type), TypeName(v->second.type()), index.name));
    }
    const bool empty = (a.type == ValueType::kS && v->second.s().empty()) ||
                       (a.type == ValueType::kB && v->second.s().empty());
    if (a.hash && empty) {
      std::string text = fmt::format(
          "One or more parameter values are not valid. A value specified for a secondary index "
          "key is not supported. The AttributeValue for a key attribute cannot contain an empty "
          "{} value.",
          a.type == ValueType::kS ? "string" : "binary");
      if (!from_update) text += fmt::format(" IndexName: {}, IndexKey: {}", index.name, a.name);
      return Status::Validation(text);
    }
  }
  return Status::OK();
}

bool InVectorIndex(const VectorIndexDescription& index, const Item& item) {
  if (!item.count(index.vector_attribute)) return false;
  const SearchAttribute* hash = index.Hash();
  return !hash || item.count(hash->name);
}

std::vector<float> VectorOf(const VectorIndexDescription& index, const Item& item) {
  const auto& list = item.at(index.vector_attribute).l();
  std::vector<float> out;
  out.reserve(list.size());
  for (const AttributeValue& v : list) {
    out.push_back(static_cast<float>(ToDouble(v.n())));
  }
  return out;
}

namespace {

// Four float32 lanes (one SSE register; a pair of them, or one AVX register, where wider).
typedef float Lanes __attribute__((vector_size(16)));

Lanes LoadLanes(const unsigned char* p) {
  Lanes v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

float LoadFloat(const unsigned char* p) {
  float f;
  std::memcpy(&f, p, sizeof f);
  return f;
}

float Fold(Lanes s0, Lanes s1, Lanes s2, Lanes s3) {
  const Lanes s = (s0 + s1) + (s2 + s3);
  return (s[0] + s[1]) + (s[2] + s[3]);
}

// Sums term(x, y) over the two vectors in 16 lanes, then the tail one by one. `a` null: the
// terms of b alone (x is 0).
template <typename LaneTerm, typename Term>
float Sum(const unsigned char* a, const unsigned char* b, size_t n, LaneTerm lane, Term term) {
  Lanes s0{}, s1{}, s2{}, s3{}, zero{};
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const size_t o = i * sizeof(float);
    s0 += lane(a ? LoadLanes(a + o) : zero, LoadLanes(b + o));
    s1 += lane(a ? LoadLanes(a + o + 16) : zero, LoadLanes(b + o + 16));
    s2 += lane(a ? LoadLanes(a + o + 32) : zero, LoadLanes(b + o + 32));
    s3 += lane(a ? LoadLanes(a + o + 48) : zero, LoadLanes(b + o + 48));
  }
  float r = Fold(s0, s1, s2, s3);
  for (; i < n; ++i) {
    r += term(a ? LoadFloat(a + i * sizeof(float)) : 0.0f, LoadFloat(b + i * sizeof(float)));
  }
  return r;
}

const unsigned char* Bytes(const void* p) { return static_cast<const unsigned char*>(p); }

}  // namespace

float DotProduct(const float* a, const void* b, size_t n) {
  return Sum(
      Bytes(a), Bytes(b), n, [](Lanes x, Lanes y) { return x * y; },
      [](float x, float y) { return x * y; });
}

float SquaredNorm(const void* b, size_t n) {
  return Sum(
      nullptr, Bytes(b), n, [](Lanes, Lanes y) { return y * y; },
      [](float, float y) { return y * y; });
}

float SquaredDistance(const float* a, const void* b, size_t n) {
  return Sum(
      Bytes(a), Bytes(b), n,
      [](Lanes x, Lanes y) {
        const Lanes d = x - y;
        return d * d;
      },
      [](float x, float y) { return (x - y) * (x - y); });
}

VectorScorer::VectorScorer(DistanceFunction f, std::vector<float> query)
    : f_(f),
      query_(std::move(query)),
      query_squared_norm_(SquaredNorm(query_.data(), query_.size())) {}

double VectorScorer::Score(const void* b, float b_squared_norm) const {
  const size_t n = query_.size();
  switch (f_) {
    case DistanceFunction::kDotProduct:
      return DotProduct(query_.data(), b, n);
    case DistanceFunction::kEuclidean:
      return std::sqrt(static_cast<double>(SquaredDistance(query_.data(), b, n)));
    case DistanceFunction::kCosine: {
      if (query_squared_norm_ == 0 || b_squared_norm == 0) return 1;  // a zero vector: no direction
      // The product of two floats is exact in a double, so a vector scores exactly 0 against
      // itself; rounding may not take a score outside 0..2.
      const double dot = DotProduct(query_.data(), b, n);
      const double cosine =
          dot / std::sqrt(static_cast<double>(query_squared_norm_) * b_squared_norm);
      return std::clamp(1 - cosine, 0.0, 2.0);
    }
  }
  return 0;
}

double VectorScore(DistanceFunction f, const float* a, const float* b, size_t n) {
  return VectorScorer(f, std::vector<float>(a, a + n)).Score(b, SquaredNorm(b, n));
}

TopK::TopK(DistanceFunction f, size_t k) : larger_(f == DistanceFunction::kDotProduct), k_(k) {
  heap_.reserve(k + 1);
}

void TopK::Offer(size_t position, double score) {
  if (k_ == 0) return;
  const ScoredCandidate c{position, score};
  auto better = [this](const ScoredCandidate& a, const ScoredCandidate& b) { return Better(a, b); };
  if (heap_.size() < k_) {
    heap_.push_back(c);
    std::push_heap(heap_.begin(), heap_.end(), better);
  } else if (Better(c, heap_.front())) {
    std::pop_heap(heap_.begin(), heap_.end(), better);
    heap_.back() = c;
    std::push_heap(heap_.begin(), heap_.end(), better);
  }
}

std::vector<ScoredCandidate> TopK::Take() && {
  std::sort_heap(
      heap_.begin(), heap_.end(),
      [this](const ScoredCandidate& a, const ScoredCandidate& b) { return Better(a, b); });
  return std::move(heap_);
}

Status CheckTopK(int64_t top_k) {
  if (top_k >= 1 && top_k <= kMaxTopK) return Status::OK();
  return Status::Validation(fmt::format(
      "Provided TopK value '{}' is out of valid range. The value must be between 1 and {} "
      "inclusive",
      top_k, kMaxTopK));
}

Result<std::vector<float>> SearchVectorOf(const VectorIndexDescription& index,
                                          const std::vector<AttributeValue>& vector) {
  std::vector<float> out;
  out.reserve(vector.size());
  for (const AttributeValue& v : vector) {
    const double d =
        v.is(ValueType::kN) ? ToDouble(v.n()) : std::numeric_limits<double>::infinity();
    if (!(std::fabs(d) <= kFloatMax)) {
      return Status::Validation(
          "Search vector contains invalid values. All values in the search vector must be a "
          "32-bit floating-point number attribute");
    }
    out.push_back(static_cast<float>(d));
  }
  if (out.size() != static_cast<size_t>(index.dimensions)) {
    return Status::Validation(
        fmt::format("Input search vector dimension {} does not match vector index dimension {}",
                    out.size(), index.dimensions));
  }
  return out;
}

namespace {

Status InvalidSearchCondition(std::string_view what) {
  return Status::Validation(fmt::format("Invalid SearchConditionExpression: {}", what));
}

// The leaves of a condition's top-level ANDs, in order.
void AndLeaves(const expr::Condition& c, std::vector<const expr::Condition*>* out) {
  if (c.kind == expr::ConditionKind::kAnd) {
    for (const expr::Condition& child : c.children) AndLeaves(child, out);
  } else {
    out->push_back(&c);
  }
}

}  // namespace

Result<std::vector<SearchTerm>> SearchConditionTerms(const VectorIndexDescription& index,
                                                     const expr::Condition* condition) {
  std::vector<SearchTerm> terms;
  std::vector<const expr::Condition*> leaves;
  if (condition) AndLeaves(*condition, &leaves);
  for (const expr::Condition* c : leaves) {
    if (c->kind != expr::ConditionKind::kCompare || c->op != expr::CompareOp::kEq) {
      return InvalidSearchCondition("Invalid comparator used in SearchConditionExpression");
    }
    const expr::Operand* path = nullptr;
    const expr::Operand* value = nullptr;
    for (const expr::Operand& o : c->operands) {
      if (o.kind == expr::OperandKind::kPath) {
        path = path ? nullptr : &o;
      } else if (o.kind == expr::OperandKind::kValue) {
        value = &o;
      }
    }
    if (!path || !value) {
      return InvalidSearchCondition("Invalid comparator used in SearchConditionExpression");
    }
    if (path->path.elements.size() != 1) {
      return InvalidSearchCondition(
          "SearchConditionExpression cannot have conditions on nested attributes");
    }
    const std::string& name = path->path.elements[0].name;
    auto a = std::ranges::find_if(index.search_schema,
                                  [&](const SearchAttribute& x) { return x.name == name; });
    if (a == index.search_schema.end()) {
      return Status::Validation(
          fmt::format("SearchConditionExpression must not contain any attributes that is not in "
                      "SearchSchema. Invalid attribute: {}",
                      name));
    }
    if (std::ranges::any_of(terms, [&](const SearchTerm& t) { return t.name == name; })) {
      return InvalidSearchCondition(
          "SearchConditionExpression must only contain one condition per attribute");
    }
    terms.push_back({name, value->value});
  }
  const SearchAttribute* hash = index.Hash();
  if (hash &&
      std::ranges::none_of(terms, [&](const SearchTerm& t) { return t.name == hash->name; })) {
    return Status::Validation(
        "SearchConditionExpression must be provided when SearchSchema has a HASH key");
  }
  for (const SearchTerm& t : terms) {
    auto a = std::ranges::find_if(index.search_schema,
                                  [&](const SearchAttribute& x) { return x.name == t.name; });
    if (t.value.type() != a->type) {
      return Status::Validation(fmt::format(
          "Type of '{}' attribute in SearchConditionExpression ({}) does not match type in "
          "search schema ({})",
          t.name, TypeName(t.value.type()), TypeName(a->type)));
    }
    if (a->hash && a->type != ValueType::kN && t.value.s().empty()) {
      return Status::Validation(fmt::format(
          "One or more parameter values are not valid. The AttributeValue for a key attribute "
          "cannot contain an empty {} value. Key: {}",
          a->type == ValueType::kS ? "string" : "binary", t.name));
    }
  }
  return terms;
}

std::vector<ScoredCandidate> ExactTopK(DistanceFunction f, const std::vector<float>& query,
                                       const float* vectors, size_t count, size_t k) {
  const size_t n = query.size();
  const VectorScorer scorer(f, query);
  TopK best(f, k);
  for (size_t i = 0; i < count && k > 0; ++i) {
    const float* v = vectors + i * n;
    best.Offer(i, scorer.Score(v, f == DistanceFunction::kCosine ? SquaredNorm(v, n) : 0));
  }
  return std::move(best).Take();
}

json::Value VectorIndexToJson(const VectorIndexDescription& index, const std::string& table_arn) {
  json::Value o = json::Value::MakeObject();
  o.Add("IndexName", json::Value::String(index.name));
  json::Value va = json::Value::MakeObject();
  va.Add("AttributeName", json::Value::String(index.vector_attribute));
  o.Add("VectorAttribute", std::move(va));
  if (!index.search_schema.empty()) {
    json::Value ss = json::Value::MakeArray();
    for (const SearchAttribute& a : index.search_schema) {
      json::Value e = json::Value::MakeObject();
      e.Add("AttributeName", json::Value::String(a.name));
      e.Add("SearchSchemaElementType", json::Value::String(a.hash ? "HASH" : "INLINE_FILTER"));
      ss.Push(std::move(e));
    }
    o.Add("SearchSchema", std::move(ss));
  }
  o.Add("Projection", ProjectionToJson(index.projection));
  o.Add("Dimensions", json::Value::Int(index.dimensions));
  o.Add("DistanceFunction", json::Value::String(std::string(DistanceFunctionName(index.distance))));
  o.Add("IndexStatus", json::Value::String(index.status));
  o.Add("IndexSizeBytes", json::Value::Int(index.size_bytes));
  o.Add("ItemCount", json::Value::Int(index.item_count));
  o.Add("IndexArn", json::Value::String(table_arn + "/index/" + index.name));
  return o;
}

Result<VectorIndexDescription> VectorIndexFromJson(const json::Value& v,
                                                   const std::map<std::string, ValueType>& types) {
  VectorIndexDescription idx;
  const json::Value* name = Member(v, "IndexName", json::Kind::kString);
  const json::Value* va = Member(v, "VectorAttribute", json::Kind::kObject);
  const json::Value* an = va ? Member(*va, "AttributeName", json::Kind::kString) : nullptr;
  const json::Value* dims = Member(v, "Dimensions", json::Kind::kNumber);
  const json::Value* df = Member(v, "DistanceFunction", json::Kind::kString);
  const json::Value* p = Member(v, "Projection", json::Kind::kObject);
  if (!name || !an || !dims || !df || !p) return Corrupt("members");
  idx.name = name->str();
  idx.vector_attribute = an->str();
  idx.dimensions = std::atoi(dims->number_text().c_str());
  if (idx.dimensions < 1 || idx.dimensions > kMaxVectorDimensions ||
      !DistanceFunctionFromName(df->str(), &idx.distance)) {
    return Corrupt("Dimensions or DistanceFunction");
  }
  KH_ASSIGN_OR_RETURN(idx.projection, ProjectionFromJson(*p));
  if (const json::Value* ss = Member(v, "SearchSchema", json::Kind::kArray)) {
    for (const json::Value& e : ss->array()) {
      const json::Value* n = Member(e, "AttributeName", json::Kind::kString);
      const json::Value* k = Member(e, "SearchSchemaElementType", json::Kind::kString);
      if (!n || !k || !types.count(n->str())) return Corrupt("SearchSchema");
      idx.search_schema.push_back({n->str(), types.at(n->str()), k->str() == "HASH"});
    }
  }
  if (const json::Value* st = Member(v, "IndexStatus", json::Kind::kString)) idx.status = st->str();
  // (The catalog's copy has none; a DescribeTable read by the remote client has them.)
  if (const json::Value* n = Member(v, "ItemCount", json::Kind::kNumber)) {
    idx.item_count = std::strtoll(n->number_text().c_str(), nullptr, 10);
  }
  if (const json::Value* n = Member(v, "IndexSizeBytes", json::Kind::kNumber)) {
    idx.size_bytes = std::strtoll(n->number_text().c_str(), nullptr, 10);
  }
  return idx;
}

}  // namespace keyhole
