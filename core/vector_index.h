// DynamoDB's vector indexes (2026): a third kind of index, searched with SearchVectors for the
// items whose vector attribute is nearest a given vector. The rules and texts here are
// DynamoDB's, as the developer guide ("Creating and searching vector indexes") and the API
// reference state them and as the emulators that captured them from the service record them
// (Dynoxide 3.2, August 2026):
//  - CreateTable's VectorIndexes, UpdateTable's VectorIndexUpdates: IndexName, VectorAttribute
//    {AttributeName}, SearchSchema [{AttributeName, SearchSchemaElementType HASH |
//    INLINE_FILTER}] (at most one HASH; each attribute in AttributeDefinitions), Projection,
//    Dimensions (1 to 4096), DistanceFunction (COSINE, DOT_PRODUCT, EUCLIDEAN). At most 5 per
//    table; on-demand tables only. The vector attribute is not an AttributeDefinition, and every
//    index on one vector attribute has the same dimensions.
//  - An item's vector is a List of Numbers, each within float32's finite range, as many as the
//    index's dimensions. A present but malformed vector, or a search attribute of the wrong type,
//    fails the write; an item without the vector or without the HASH attribute is not indexed
//    (sparse).
//  - Scores: COSINE 1 - cosine similarity (0 identical to 2 opposite; a zero vector scores 1),
//    EUCLIDEAN the distance (not squared), both smallest first; DOT_PRODUCT largest first.
// keyhole keeps the vector as the item holds it (full precision) and the index's float32 copy.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/attribute_value.h"
#include "core/expression.h"
#include "core/json.h"
#include "core/schema.h"
#include "core/status.h"

namespace keyhole {

// DistanceFunction, VectorIndexSpec and VectorIndexDescription are in core/schema.h, beside
// the other index descriptions.

// "COSINE", "DOT_PRODUCT", "EUCLIDEAN".
std::string_view DistanceFunctionName(DistanceFunction f);
bool DistanceFunctionFromName(std::string_view name, DistanceFunction* out);

inline constexpr int64_t kMaxVectorDimensions = 4096;
inline constexpr size_t kMaxVectorIndexes = 5;

// Resolves and checks one vector index of a table keyed `table_key` whose AttributeDefinitions
// are `defs`, with DynamoDB's messages: the index name, Dimensions 1..4096, the vector attribute
// not among the definitions, SearchSchema attributes defined, at most one HASH, no duplicate;
// the projection as a GSI's. (The SearchSchema attributes count toward CreateTable's "Number of
// attributes in KeySchema does not exactly match ..."; the caller counts them.)
Result<VectorIndexDescription> BuildVectorIndex(const KeySchema& table_key,
                                                const std::vector<AttributeDefinition>& defs,
                                                const VectorIndexSpec& spec);

// Checks a table's vector indexes together, after each was built: at most 5, and the same
// dimensions for every index on one vector attribute. `billing_mode`: vector indexes need
// PAY_PER_REQUEST.
Status CheckVectorIndexes(const std::vector<VectorIndexDescription>& indexes,
                          std::string_view billing_mode);

// The write-time check of `item` against `index`: a present vector must be a List of as many
// Numbers as the index's dimensions, each within float32's range; a present SearchSchema
// attribute must be of its defined type, and a HASH string or binary must not be empty.
// `from_update`: an UpdateItem, whose empty-key text drops the "IndexName: ..., IndexKey: ..."
// suffix. OK for an item the index does not hold.
Status CheckVectorItem(const VectorIndexDescription& index, const Item& item,
                       bool from_update = false);

// Whether `index` holds `item`: it has the vector attribute and, when the index has a HASH
// search attribute, that attribute. REQUIRES: CheckVectorItem(index, item) is OK.
bool InVectorIndex(const VectorIndexDescription& index, const Item& item);

// The item's vector as float32 values. REQUIRES: InVectorIndex(index, item).
std::vector<float> VectorOf(const VectorIndexDescription& index, const Item& item);

// ---- scores ----
// Every score is made of these sums, taken in float32 lanes of 16 (the compiler vectorises
// them) and folded in a fixed order, so a score is the same on every call and machine. `b` is
// `n` float32 values that need not be aligned (a vector packed in the file).
float DotProduct(const float* a, const void* b, size_t n);
float SquaredNorm(const void* b, size_t n);
float SquaredDistance(const float* a, const void* b, size_t n);

// Scores stored vectors against one query vector under `f` (see above): the query's own norm
// is taken once. A stored vector's squared norm (SquaredNorm) is kept beside it, so COSINE
// costs one pass over the vector, as the others do.
class VectorScorer {
 public:
  VectorScorer(DistanceFunction f, std::vector<float> query);
  // The score of `b` (query().size() floats), whose SquaredNorm is `b_squared_norm`.
  double Score(const void* b, float b_squared_norm) const;
  const std::vector<float>& query() const { return query_; }

 private:
  DistanceFunction f_;
  std::vector<float> query_;
  float query_squared_norm_;
};

// The score of `b` against the query vector `a` (both `n` long) under `f`: VectorScorer's.
double VectorScore(DistanceFunction f, const float* a, const float* b, size_t n);

// ---- SearchVectors ----

inline constexpr int64_t kMaxTopK = 100;

// TopK within 1..100: "Provided TopK value '101' is out of valid range. The value must be
// between 1 and 100 inclusive".
Status CheckTopK(int64_t top_k);

// The search vector as float32 values: every element a Number within float32's range ("Search
// vector contains invalid values. All values in the search vector must be a 32-bit
// floating-point number attribute"), then as many as the index's dimensions ("Input search
// vector dimension N does not match vector index dimension D").
Result<std::vector<float>> SearchVectorOf(const VectorIndexDescription& index,
                                          const std::vector<AttributeValue>& vector);

// The equalities of a SearchConditionExpression (its AST, with values in place), checked as
// DynamoDB checks them: only `=` joined by AND ("Invalid SearchConditionExpression: Invalid
// comparator used in SearchConditionExpression"), top-level attributes of the SearchSchema
// ("... cannot have conditions on nested attributes"; "SearchConditionExpression must not
// contain any attributes that is not in SearchSchema. Invalid attribute: x"), one condition per
// attribute, the value of the attribute's type ("Type of 'tenant' attribute in
// SearchConditionExpression (N) does not match type in search schema (S)"), and an equality on
// the HASH attribute when the schema has one ("SearchConditionExpression must be provided when
// SearchSchema has a HASH key"). `condition` null: none was given.
struct SearchTerm {
  std::string name;
  AttributeValue value;
};
Result<std::vector<SearchTerm>> SearchConditionTerms(const VectorIndexDescription& index,
                                                     const expr::Condition* condition);

// One candidate's place in a result: its position among the candidates and its score.
struct ScoredCandidate {
  size_t position = 0;
  double score = 0;
};

// The k best candidates offered so far: the smallest scores for COSINE and EUCLIDEAN, the
// largest for DOT_PRODUCT; of equal scores, the earlier position. Offer positions in
// increasing order.
class TopK {
 public:
  TopK(DistanceFunction f, size_t k);
  void Offer(size_t position, double score);
  // The candidates kept, best first.
  std::vector<ScoredCandidate> Take() &&;

 private:
  bool Better(const ScoredCandidate& a, const ScoredCandidate& b) const {
    if (a.score != b.score) return larger_ ? a.score > b.score : a.score < b.score;
    return a.position < b.position;
  }
  bool larger_;
  size_t k_;
  std::vector<ScoredCandidate> heap_;  // the worst kept on top
};
// The `k` best of `count` candidate vectors packed one after another in `vectors` (each
// `query.size()` floats), scored against `query` under `f`: the smallest scores first for
// COSINE and EUCLIDEAN, the largest first for DOT_PRODUCT; equal scores in candidate order.
// Every candidate is scored: the result is the exact top k.
std::vector<ScoredCandidate> ExactTopK(DistanceFunction f, const std::vector<float>& query,
                                       const float* vectors, size_t count, size_t k);

// DescribeTable's VectorIndexDescription (IndexArn under `table_arn`); VectorIndexFromJson
// reads what it writes, with the SearchSchema attributes' types from the table's
// AttributeDefinitions (`types`).
json::Value VectorIndexToJson(const VectorIndexDescription& index, const std::string& table_arn);
Result<VectorIndexDescription> VectorIndexFromJson(const json::Value& v,
                                                   const std::map<std::string, ValueType>& types);

}  // namespace keyhole
