// Vector indexes' definitions, write-time checks, scores and catalog JSON (core/vector_index.h),
// with DynamoDB's texts as captured from the service (Dynoxide 3.2's record, August 2026).
#include "core/vector_index.h"

#include <gtest/gtest.h>

#include <cmath>

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

TEST(VectorIndexTest, BuildsAnIndex) {
  Result<VectorIndexDescription> v = BuildVectorIndex(TableKey(), kDefs, Spec());
  ASSERT_TRUE(v.ok()) << v.status().ToString();
  EXPECT_EQ(v->dimensions, 3);
  EXPECT_EQ(v->distance, DistanceFunction::kCosine);
  ASSERT_NE(v->Hash(), nullptr);
  EXPECT_EQ(v->Hash()->name, "tenant");
  EXPECT_EQ(v->search_schema[1], (SearchAttribute{"cat", ValueType::kN, false}));
}

TEST(VectorIndexTest, RefusesBadDefinitions) {
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

TEST(VectorIndexTest, ChecksIndexesTogether) {
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

TEST(VectorIndexTest, ChecksAnItemsVector) {
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

TEST(VectorIndexTest, HoldsOnlyItemsWithTheVectorAndTheHashAttribute) {
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

TEST(VectorIndexTest, Scores) {
  const float a[] = {1, 0}, b[] = {0, 1}, c[] = {-1, 0}, z[] = {0, 0}, d[] = {3, 4};
  EXPECT_DOUBLE_EQ(VectorScore(DistanceFunction::kCosine, a, a, 2), 0);
  EXPECT_DOUBLE_EQ(VectorScore(DistanceFunction::kCosine, a, b, 2), 1);
  EXPECT_DOUBLE_EQ(VectorScore(DistanceFunction::kCosine, a, c, 2), 2);
  EXPECT_DOUBLE_EQ(VectorScore(DistanceFunction::kCosine, a, z, 2), 1);     // no direction
  EXPECT_DOUBLE_EQ(VectorScore(DistanceFunction::kEuclidean, z, d, 2), 5);  // not squared
  EXPECT_DOUBLE_EQ(VectorScore(DistanceFunction::kDotProduct, a, d, 2), 3);
  EXPECT_DOUBLE_EQ(VectorScore(DistanceFunction::kDotProduct, c, d, 2), -3);
}

TEST(VectorIndexTest, TableJsonRoundTrips) {
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
  EXPECT_FALSE(plain.ok());  // tenant and cat defined but unused
  EXPECT_EQ(TableToJson(*BuildTableDescription("Plain", {{"pk", "S"}}, {{"pk", "HASH"}}, {}, {}))
                .Find("VectorIndexes"),
            nullptr);
}

TEST(VectorIndexTest, DuplicateNamesAcrossIndexKinds) {
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

}  // namespace
}  // namespace keyhole
