// The catalog form of a table (TableToJson / TableFromJson): TTL and stream settings survive a
// round trip; DescribeTable's members for streams.
#include <gtest/gtest.h>

#include "core/schema.h"

namespace keyhole {
namespace {

TableDescription Table() {
  auto t = BuildTableDescription("Tab", {{"pk", "S"}, {"sk", "N"}},
                                 {{"pk", "HASH"}, {"sk", "RANGE"}}, {}, {});
  EXPECT_TRUE(t.ok());
  t->id = 7;
  return *t;
}

TEST(SchemaJson, TtlAndStreamRoundTrip) {
  TableDescription t = Table();
  t.ttl_attribute = "expires";
  t.ttl_changed_at = 1700000000.5;
  t.stream_view_type = "NEW_AND_OLD_IMAGES";
  t.latest_stream_label = "2023-11-14T22:13:20.000";
  json::Value j = TableToJson(t);
  const json::Value* spec = j.Find("StreamSpecification");
  ASSERT_TRUE(spec);
  EXPECT_EQ(json::Write(*spec), R"({"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"})");
  ASSERT_TRUE(j.Find("LatestStreamArn"));
  EXPECT_EQ(j.Find("LatestStreamArn")->str(),
            "arn:aws:dynamodb:local:000000000000:table/Tab/stream/2023-11-14T22:13:20.000");
  auto back = TableFromJson(j);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->ttl_attribute, t.ttl_attribute);
  EXPECT_DOUBLE_EQ(back->ttl_changed_at, t.ttl_changed_at);
  EXPECT_EQ(back->stream_view_type, t.stream_view_type);
  EXPECT_EQ(back->latest_stream_label, t.latest_stream_label);
  EXPECT_EQ(json::Write(TableToJson(*back)), json::Write(j));
}

TEST(SchemaJson, DisabledStreamKeepsItsLabel) {
  TableDescription t = Table();
  t.latest_stream_label = "2023-11-14T22:13:20.000";
  json::Value j = TableToJson(t);
  EXPECT_FALSE(j.Find("StreamSpecification"));
  EXPECT_TRUE(j.Find("LatestStreamLabel"));
  EXPECT_FALSE(j.Find("KeyholeTimeToLive"));
  auto back = TableFromJson(j);
  ASSERT_TRUE(back.ok());
  EXPECT_FALSE(back->stream_view_type);
  EXPECT_FALSE(back->ttl_attribute);
}

}  // namespace
}  // namespace keyhole
