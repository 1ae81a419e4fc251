// Vector indexes' definitions, write-time checks, scores and catalog JSON (core/vector_index.h),
// with DynamoDB's texts as captured from the service (Dynoxide 3.2's record, August 2026).
#include "core/vector_index.h"
#include "error_text.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

namespace keyhole {
namespace {

const std::vector<AttributeDefinition> kDefs = {{"pk", "S"}, {"tenant", "S"}, {"cat", "N"}};

KeySchema TableKey() {
  KeySchema k;
  k.partition = {"pk", ValueType::kS};
  return k;
}

VectorIndexSpec Spec() {
  VectorIndexSpec s;
  s.name = "vix";
  s.vector_attribute = "embedding";
  s.search_schema = {{"tenant", "HASH"}, {"cat", "INLINE_FILTER"}};
  s.projection_type = "ALL";
  s.dimensions = 3;
  s.distance_function = "COSINE";
  return s;
}

std::string Error(const Result<VectorIndexDescription>& r) {
  return r.ok() ? "" : r.status().message();
}

TEST(CoreVectorIndexTest, BuildsAnIndex) {
  Result<VectorIndexDescription> v = BuildVectorIndex(TableKey(), kDefs, Spec());
  ASSERT_TRUE(v.ok()) << v.status().ToString();
  EXPECT_EQ(v->dimensions, 3);
  EXPECT_EQ(v->distance, DistanceFunction::kCosine);
  ASSERT_NE(v->Hash(), nullptr);
  EXPECT_EQ(v->Hash()->name, "tenant");
  EXPECT_EQ(v->search_schema[1], (SearchAttribute{"cat", ValueType::kN, false}));
}

TEST(CoreVectorIndexTest, RefusesBadDefinitions) {
  VectorIndexSpec s = Spec();
  s.dimensions = 4097;
  EXPECT_EQ(Error(BuildVectorIndex(TableKey(), kDefs, s)),
            "One or more parameter values were invalid: Number of dimensions must be between 1 "
            "and 4096 inclusive.");
  s = Spec();
  s.vector_attribute = "tenant";
  EXPECT_EQ(Error(BuildVectorIndex(TableKey(), kDefs, s)),
            "One or more parameter values were invalid: Conflicting attribute definition for "
            "'tenant'. An attribute cannot be defined in AttributeDefinitions when used as a "
            "VectorAttribute.");
  s = Spec();
  s.search_schema = {{"nope", "HASH"}};
  EXPECT_EQ(Error(BuildVectorIndex(TableKey(), kDefs, s)),
            "One or more parameter values were invalid: One element in SearchSchema is not defined "
            "in attribute definitions");
  s = Spec();
  s.search_schema = {{"tenant", "HASH"}, {"cat", "HASH"}};
  EXPECT_EQ(Error(BuildVectorIndex(TableKey(), kDefs, s)),
            "One or more parameter values were invalid: Value '2' at 'SearchSchema' failed to "
            "satisfy constraint: Member must have HASH count less than or equal to 1");
  s = Spec();
  s.search_schema = {{"tenant", "HASH"}, {"tenant", "INLINE_FILTER"}};
  EXPECT_EQ(Error(BuildVectorIndex(TableKey(), kDefs, s)),
            "One or more parameter values were invalid: SearchSchema contains a duplicate "
            "AttributeName");
}

TEST(CoreVectorIndexTest, ChecksIndexesTogether) {
  VectorIndexDescription a = *BuildVectorIndex(TableKey(), kDefs, Spec());
  VectorIndexDescription b = a;
  b.name = "other";
  b.dimensions = 4;
  EXPECT_EQ(CheckVectorIndexes({a, b}, "PAY_PER_REQUEST").message(),
            "One or more parameter values were invalid: Conflicting attribute definition for "
            "'embedding'. All VectorIndexes on the same vector attribute must use the same "
            "dimensions.");
  EXPECT_EQ(CheckVectorIndexes({a}, "PROVISIONED").message(),
            "One or more parameter values were invalid: Vector indexes are only supported for "
            "PAY_PER_REQUEST tables");
  std::vector<VectorIndexDescription> six(6, a);
  EXPECT_EQ(CheckVectorIndexes(six, "PAY_PER_REQUEST").message(),
            "One or more parameter values were invalid: VectorIndex count exceeds the per-table "
            "limit of 5");
  EXPECT_TRUE(CheckVectorIndexes({a}, "PAY_PER_REQUEST").ok());
}

Item WithVector(std::vector<AttributeValue> v) {
  Item item;
  item["pk"] = AttributeValue::S("a");
  item["tenant"] = AttributeValue::S("t1");
  item["embedding"] = AttributeValue::L(std::move(v));
  return item;
}

AttributeValue Num(const char* text) { return AttributeValue::N(*Number::Parse(text)); }

TEST(CoreVectorIndexTest, ChecksAnItemsVector) {
  VectorIndexDescription v = *BuildVectorIndex(TableKey(), kDefs, Spec());
  EXPECT_TRUE(CheckVectorItem(v, WithVector({Num("1"), Num("0.5"), Num("-2")})).ok());
  EXPECT_EQ(CheckVectorItem(v, WithVector({Num("1"), Num("2")})).message(),
            "One or more parameter values were invalid. Invalid size for parameter embedding, "
            "Expected: 3, Actual: 2 IndexName: vix");
  EXPECT_EQ(CheckVectorItem(v, WithVector({Num("1"), AttributeValue::S("x"), Num("2")})).message(),
            "One or more parameter values were invalid. Invalid type for parameter embedding[1], "
            "Expected: 32-bit floating point number, Actual: S. IndexName: vix");
  EXPECT_EQ(CheckVectorItem(v, WithVector({Num("1E+39"), Num("1"), Num("2")})).message(),
            "One or more parameter values were invalid. Invalid value for parameter "
            "embedding[0], Value: 1E+39 is outside valid range [-3.4028235E38, 3.4028235E38]. "
            "IndexName: vix");
  Item not_a_list = WithVector({});
  not_a_list["embedding"] = AttributeValue::S("x");
  EXPECT_EQ(CheckVectorItem(v, not_a_list).message(),
            "One or more parameter values were invalid. Invalid type for parameter embedding, "
            "Expected: 32-bit floating point number list IndexName: vix");
  Item wrong_type = WithVector({Num("1"), Num("2"), Num("3")});
  wrong_type["tenant"] = Num("5");
  EXPECT_EQ(CheckVectorItem(v, wrong_type).message(),
            "One or more parameter values were invalid. Attribute 'tenant' type mismatch. "
            "Expected: S, Actual: N. IndexName: vix");
  Item empty = WithVector({Num("1"), Num("2"), Num("3")});
  empty["tenant"] = AttributeValue::S("");
  EXPECT_EQ(CheckVectorItem(v, empty).message(),
            "One or more parameter values are not valid. A value specified for a secondary index "
            "key is not supported. The AttributeValue for a key attribute cannot contain an "
            "empty string value. IndexName: vix, IndexKey: tenant");
  EXPECT_EQ(CheckVectorItem(v, empty, /*from_update=*/true).message(),
            "One or more parameter values are not valid. A value specified for a secondary index "
            "key is not supported. The AttributeValue for a key attribute cannot contain an "
            "empty string value.");
}

TEST(CoreVectorIndexTest, HoldsOnlyItemsWithTheVectorAndTheHashAttribute) {
  VectorIndexDescription v = *BuildVectorIndex(TableKey(), kDefs, Spec());
  Item item = WithVector({Num("1"), Num("2"), Num("3")});
  EXPECT_TRUE(InVectorIndex(v, item));
  EXPECT_EQ(VectorOf(v, item), (std::vector<float>{1, 2, 3}));
  item.erase("tenant");
  EXPECT_TRUE(CheckVectorItem(v, item).ok());
  EXPECT_FALSE(InVectorIndex(v, item));
  item = WithVector({});
  item.erase("embedding");
  EXPECT_FALSE(InVectorIndex(v, item));
}

TEST(CoreVectorIndexTest, Scores) {
  const float a[] = {1, 0}, b[] = {0, 1}, c[] = {-1, 0}, z[] = {0, 0}, d[] = {3, 4};
  EXPECT_DOUBLE_EQ(VectorScore(DistanceFunction::kCosine, a, a, 2), 0);
  EXPECT_DOUBLE_EQ(VectorScore(DistanceFunction::kCosine, a, b, 2), 1);
  EXPECT_DOUBLE_EQ(VectorScore(DistanceFunction::kCosine, a, c, 2), 2);
  EXPECT_DOUBLE_EQ(VectorScore(DistanceFunction::kCosine, a, z, 2), 1);     // no direction
  EXPECT_DOUBLE_EQ(VectorScore(DistanceFunction::kEuclidean, z, d, 2), 5);  // not squared
  EXPECT_DOUBLE_EQ(VectorScore(DistanceFunction::kDotProduct, a, d, 2), 3);
  EXPECT_DOUBLE_EQ(VectorScore(DistanceFunction::kDotProduct, c, d, 2), -3);
}

TEST(CoreVectorIndexTest, TableJsonRoundTrips) {
  Result<TableDescription> t =
      BuildTableDescription("Mem", kDefs, {{"pk", "HASH"}}, {}, {}, {Spec()});
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  ASSERT_EQ(t->vector_indexes.size(), 1u);
  json::Value j = TableToJson(*t);
  const json::Value* vectors = j.Find("VectorIndexes");
  ASSERT_NE(vectors, nullptr);
  EXPECT_EQ(json::Write(vectors->array()[0]),
            R"({"IndexName":"vix","VectorAttribute":{"AttributeName":"embedding"},)"
            R"("SearchSchema":[{"AttributeName":"tenant","SearchSchemaElementType":"HASH"},)"
            R"({"AttributeName":"cat","SearchSchemaElementType":"INLINE_FILTER"}],)"
            R"("Projection":{"ProjectionType":"ALL"},"Dimensions":3,"DistanceFunction":"COSINE",)"
            R"("IndexStatus":"ACTIVE","IndexSizeBytes":0,"ItemCount":0,)"
            R"("IndexArn":"arn:aws:dynamodb:local:000000000000:table/Mem/index/vix"})");
  Result<TableDescription> back = TableFromJson(j);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  ASSERT_EQ(back->vector_indexes.size(), 1u);
  EXPECT_EQ(back->vector_indexes[0].search_schema, t->vector_indexes[0].search_schema);
  EXPECT_EQ(back->vector_indexes[0].dimensions, 3);
  // A table without vector indexes says nothing of them, as DynamoDB's.
  Result<TableDescription> plain = BuildTableDescription("Plain", kDefs, {{"pk", "HASH"}}, {}, {});
  EXPECT_EQ(::keyhole::testing::ErrorText(plain),
            "ValidationException: One or more parameter values were invalid: Number of attributes "
            "in KeySchema does not exactly match number of attributes defined in "
            "AttributeDefinitions");  // tenant and cat defined but unused
  EXPECT_EQ(TableToJson(*BuildTableDescription("Plain", {{"pk", "S"}}, {{"pk", "HASH"}}, {}, {}))
                .Find("VectorIndexes"),
            nullptr);
}

TEST(CoreVectorIndexTest, DuplicateNamesAcrossIndexKinds) {
  IndexSpec gsi;
  gsi.name = "vix";
  gsi.key_schema = {{"tenant", "HASH"}};
  gsi.projection_type = "ALL";
  Result<TableDescription> t =
      BuildTableDescription("Mem", kDefs, {{"pk", "HASH"}}, {gsi}, {}, {Spec()});
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().message(),
            "One or more parameter values were invalid: Duplicate index name: vix");
}

TEST(CoreVectorIndexTest, ChecksTopKAndTheSearchVector) {
  EXPECT_TRUE(CheckTopK(1).ok());
  EXPECT_TRUE(CheckTopK(100).ok());
  EXPECT_EQ(CheckTopK(101).message(),
            "Provided TopK value '101' is out of valid range. The value must be between 1 and "
            "100 inclusive");
  EXPECT_EQ(CheckTopK(0).message(),
            "Provided TopK value '0' is out of valid range. The value must be between 1 and 100 "
            "inclusive");
  VectorIndexDescription v = *BuildVectorIndex(TableKey(), kDefs, Spec());
  Result<std::vector<float>> q = SearchVectorOf(v, {Num("1"), Num("0.5"), Num("-2")});
  ASSERT_TRUE(q.ok());
  EXPECT_EQ(*q, (std::vector<float>{1, 0.5, -2}));
  // Elements first, then the count.
  EXPECT_EQ(SearchVectorOf(v, {Num("1"), AttributeValue::S("x")}).status().message(),
            "Search vector contains invalid values. All values in the search vector must be a "
            "32-bit floating-point number attribute");
  EXPECT_EQ(SearchVectorOf(v, {Num("1"), Num("1E+39"), Num("2")}).status().message(),
            "Search vector contains invalid values. All values in the search vector must be a "
            "32-bit floating-point number attribute");
  EXPECT_EQ(SearchVectorOf(v, {Num("1"), Num("2")}).status().message(),
            "Input search vector dimension 2 does not match vector index dimension 3");
}

expr::Condition Eq(const std::string& name, AttributeValue value) {
  expr::Condition c;
  c.kind = expr::ConditionKind::kCompare;
  c.op = expr::CompareOp::kEq;
  expr::Path p;
  p.elements.push_back({name});
  c.operands = {expr::Operand::MakePath(p), expr::Operand::MakeValue(std::move(value))};
  return c;
}

expr::Condition And(std::vector<expr::Condition> children) {
  expr::Condition c;
  c.kind = expr::ConditionKind::kAnd;
  c.children = std::move(children);
  return c;
}

std::string TermsError(const VectorIndexDescription& v, const expr::Condition* c) {
  Result<std::vector<SearchTerm>> r = SearchConditionTerms(v, c);
  return r.ok() ? "" : r.status().message();
}

TEST(CoreVectorIndexTest, ReadsTheSearchCondition) {
  VectorIndexDescription v = *BuildVectorIndex(TableKey(), kDefs, Spec());
  expr::Condition both = And({Eq("tenant", AttributeValue::S("t1")), Eq("cat", Num("2"))});
  Result<std::vector<SearchTerm>> terms = SearchConditionTerms(v, &both);
  ASSERT_TRUE(terms.ok()) << terms.status().ToString();
  ASSERT_EQ(terms->size(), 2u);
  EXPECT_EQ((*terms)[1].name, "cat");
  EXPECT_EQ(TermsError(v, nullptr),
            "SearchConditionExpression must be provided when SearchSchema has a HASH key");
  expr::Condition only_cat = Eq("cat", Num("2"));
  EXPECT_EQ(TermsError(v, &only_cat),
            "SearchConditionExpression must be provided when SearchSchema has a HASH key");
  expr::Condition lt = Eq("cat", Num("2"));
  lt.op = expr::CompareOp::kLt;
  EXPECT_EQ(TermsError(v, &lt),
            "Invalid SearchConditionExpression: Invalid comparator used in "
            "SearchConditionExpression");
  expr::Condition other = And({Eq("tenant", AttributeValue::S("t1")), Eq("text", Num("2"))});
  EXPECT_EQ(TermsError(v, &other),
            "SearchConditionExpression must not contain any attributes that is not in "
            "SearchSchema. Invalid attribute: text");
  expr::Condition twice =
      And({Eq("tenant", AttributeValue::S("t1")), Eq("tenant", AttributeValue::S("t2"))});
  EXPECT_EQ(TermsError(v, &twice),
            "Invalid SearchConditionExpression: SearchConditionExpression must only contain one "
            "condition per attribute");
  expr::Condition nested = Eq("tenant", AttributeValue::S("t1"));
  nested.operands[0].path.elements.push_back({"x"});
  EXPECT_EQ(TermsError(v, &nested),
            "Invalid SearchConditionExpression: SearchConditionExpression cannot have conditions "
            "on nested attributes");
  expr::Condition typed = Eq("tenant", Num("1"));
  EXPECT_EQ(TermsError(v, &typed),
            "Type of 'tenant' attribute in SearchConditionExpression (N) does not match type in "
            "search schema (S)");
  expr::Condition empty = Eq("tenant", AttributeValue::S(""));
  EXPECT_EQ(TermsError(v, &empty),
            "One or more parameter values are not valid. The AttributeValue for a key attribute "
            "cannot contain an empty string value. Key: tenant");
}

// ExactTopK beside a brute-force model: every candidate scored, sorted, the first k kept.
TEST(CoreVectorIndexTest, ExactTopKMatchesABruteForceModel) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> value(-1, 1);
  std::uniform_int_distribution<int> small(0, 3);  // repeated values make equal scores
  for (int round = 0; round < 300; ++round) {
    const size_t dims = 1 + rng() % 8, count = rng() % 60, k = 1 + rng() % 20;
    const bool ties = round % 3 == 0;
    std::vector<float> query(dims), vectors(dims * count);
    for (float& x : query) x = ties ? static_cast<float>(small(rng)) : value(rng);
    for (float& x : vectors) x = ties ? static_cast<float>(small(rng)) : value(rng);
    for (DistanceFunction f :
         {DistanceFunction::kCosine, DistanceFunction::kDotProduct, DistanceFunction::kEuclidean}) {
      std::vector<ScoredCandidate> model;
      for (size_t i = 0; i < count; ++i) {
        model.push_back({i, VectorScore(f, query.data(), vectors.data() + i * dims, dims)});
      }
      std::stable_sort(
          model.begin(), model.end(), [&](const ScoredCandidate& a, const ScoredCandidate& b) {
            return f == DistanceFunction::kDotProduct ? a.score > b.score : a.score < b.score;
          });
      model.resize(std::min(model.size(), k));
      std::vector<ScoredCandidate> got = ExactTopK(f, query, vectors.data(), count, k);
      ASSERT_EQ(got.size(), model.size()) << "round " << round;
      for (size_t i = 0; i < got.size(); ++i) {
        EXPECT_EQ(got[i].position, model[i].position) << "round " << round << " rank " << i;
        EXPECT_EQ(got[i].score, model[i].score);
      }
    }
  }
}

}  // namespace
}  // namespace keyhole
