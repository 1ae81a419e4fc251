// .model's inference (modeling/model.h): entities by a type attribute or by key prefixes, key
// templates with placeholders named after attributes, sparse index coverage, several key shapes
// of one entity, and hierarchies that are one entity.
#include "modeling/model.h"
#include "error_text.h"
#include "modeling/generate.h"

#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <string>
#include <vector>

namespace keyhole::testing {
namespace {

using modeling::InferModel;
using modeling::Model;

AttributeValue S(const std::string& s) { return AttributeValue::S(s); }
AttributeValue N(int64_t n) { return AttributeValue::N(Number::FromInt(n)); }

TableDescription Table(bool with_gsi) {
  TableDescription t;
  t.name = "App";
  t.key.partition = {"PK", ValueType::kS};
  t.key.sort = KeyAttribute{"SK", ValueType::kS};
  if (with_gsi) {
    IndexDescription g;
    g.name = "GSI1";
    g.key.partition = {"GSI1PK", ValueType::kS};
    g.key.sort = KeyAttribute{"GSI1SK", ValueType::kS};
    t.indexes.push_back(g);
  }
  return t;
}

const modeling::Entity* Find(const Model& m, const std::string& name) {
  for (const modeling::Entity& e : m.entities) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

TEST(ModelingModelTest, TypeAttributeNamesEntitiesAndAttributesNamePlaceholders) {
  std::vector<Item> items = {
      {{"PK", S("USER#alice")},
       {"SK", S("PROFILE")},
       {"Type", S("User")},
       {"username", S("alice")},
       {"email", S("a@x.io")},
       {"GSI1PK", S("EMAIL#a@x.io")},
       {"GSI1SK", S("USER#alice")}},
      {{"PK", S("USER#bob")},
       {"SK", S("PROFILE")},
       {"Type", S("User")},
       {"username", S("bob")},
       {"email", S("b@x.io")}},
      {{"PK", S("USER#alice")},
       {"SK", S("POST#2024-01-02T10:00:00Z#p1")},
       {"Type", S("Post")},
       {"postId", S("p1")}},
      {{"PK", S("USER#bob")},
       {"SK", S("POST#2024-01-03T11:30:00Z#p2")},
       {"Type", S("Post")},
       {"postId", S("p2")}},
  };
  Model m = InferModel(Table(true), items);
  EXPECT_EQ(m.type_attribute, "Type");
  ASSERT_EQ(m.entities.size(), 2u);
  const modeling::Entity* user = Find(m, "User");
  ASSERT_NE(user, nullptr);
  EXPECT_EQ(user->items, 2);
  ASSERT_EQ(user->shapes.size(), 1u);
  EXPECT_EQ(user->shapes[0].keys[0].text, "USER#<username>");
  EXPECT_EQ(user->shapes[0].keys[1].text, "PROFILE");
  // The sparse index: one user of two carries GSI1's keys; one item is no evidence of which
  // parts vary, so its keys show as stored.
  ASSERT_EQ(user->shapes[0].indexes.size(), 1u);
  EXPECT_EQ(user->shapes[0].indexes[0].keys[0].text, "EMAIL#a@x.io");
  EXPECT_EQ(user->shapes[0].indexes[0].keys[0].items, 1);
  // No attribute holds the time: an ISO 8601 segment is <timestamp>; the id is <postId>.
  const modeling::Entity* post = Find(m, "Post");
  ASSERT_NE(post, nullptr);
  EXPECT_EQ(post->shapes[0].keys[1].text, "POST#<timestamp>#<postId>");
  EXPECT_TRUE(post->shapes[0].indexes.empty());
  std::string text = modeling::FormatModel(Table(true), m);
  EXPECT_NE(text.find("-- App: 4 items, 2 entity types (by the attribute Type)"), std::string::npos)
      << text;
  EXPECT_NE(text.find("User · 2 items\n  PK = USER#<username>\n  SK = PROFILE\n"
                      "  GSI1 (1 of 2): GSI1PK = EMAIL#a@x.io, GSI1SK = USER#alice\n"
                      "  attributes: email S, username S\n"),
            std::string::npos)
      << text;
}

TEST(ModelingModelTest, KeyPrefixesWithoutATypeAttribute) {
  std::vector<Item> items;
  for (int m = 1; m <= 2; ++m) {
    std::string movie = "MOVIE#m" + std::to_string(m);
    items.push_back({{"PK", S(movie)}, {"SK", S(movie)}, {"title", S("T")}, {"year", N(1994)}});
    for (int a = 1; a <= 2; ++a) {
      std::string actor = "ACTOR#a" + std::to_string(a);
      items.push_back({{"PK", S(movie)}, {"SK", S(actor)}, {"character", S("c")}});
    }
  }
  items.push_back({{"PK", S("ACTOR#a1")}, {"SK", S("ACTOR#a1")}, {"born", S("1950")}});
  items.push_back({{"PK", S("ACTOR#a2")}, {"SK", S("ACTOR#a2")}, {"born", S("1960")}});
  Model m = InferModel(Table(false), items);
  EXPECT_EQ(m.type_attribute, "");
  ASSERT_EQ(m.entities.size(), 3u);
  const modeling::Entity* movie = Find(m, "MOVIE");
  const modeling::Entity* role = Find(m, "ACTOR in MOVIE");
  const modeling::Entity* actor = Find(m, "ACTOR");
  ASSERT_TRUE(movie && role && actor);
  EXPECT_EQ(movie->items, 2);
  EXPECT_EQ(role->items, 4);
  EXPECT_EQ(actor->items, 2);
  EXPECT_EQ(role->shapes[0].keys[0].text, "MOVIE#<id>");
  EXPECT_EQ(role->shapes[0].keys[1].text, "ACTOR#<id>");
}

TEST(ModelingModelTest, AFixedSortKeyNamesThePartitionsEntity) {
  std::vector<Item> items = {
      {{"PK", S("account:1")}, {"SK", S("metadata:account")}, {"plan", S("pro")}},
      {{"PK", S("account:2")}, {"SK", S("metadata:account")}, {"plan", S("free")}},
      {{"PK", S("account:1")}, {"SK", S("user:7")}, {"userId", S("7")}, {"email", S("e")}},
  };
  Model m = InferModel(Table(false), items);
  ASSERT_EQ(m.entities.size(), 2u);
  EXPECT_NE(Find(m, "account"), nullptr);
  const modeling::Entity* user = Find(m, "user");
  ASSERT_NE(user, nullptr);
  // One user: its key as stored, and the report says a template needs more items.
  EXPECT_EQ(user->shapes[0].keys[1].text, "user:7");
  EXPECT_NE(modeling::FormatModel(Table(false), m)
                .find("user · 1 item\n  (one item: its keys show as stored; a template needs two "
                      "or more)\n"),
            std::string::npos)
      << modeling::FormatModel(Table(false), m);
}

TEST(ModelingModelTest, ANumberThatEqualsAKeySuffixByChanceNamesNothing) {
  // Two posts whose like counts happen to equal their key suffixes: <number>, not <likes>.
  std::vector<Item> items = {
      {{"PK", S("U#a")}, {"SK", S("POST#4")}, {"likes", N(4)}},
      {{"PK", S("U#a")}, {"SK", S("POST#2")}, {"likes", N(2)}},
  };
  Model m = InferModel(Table(false), items);
  ASSERT_EQ(m.entities.size(), 1u);
  EXPECT_EQ(m.entities[0].shapes[0].keys[1].text, "POST#<number>");
  EXPECT_NE(modeling::FormatModel(Table(false), m).find("-- too few items"), std::string::npos);
  // With three or more items that all agree, the attribute names the segment.
  items.push_back({{"PK", S("U#a")}, {"SK", S("POST#9")}, {"likes", N(9)}});
  m = InferModel(Table(false), items);
  EXPECT_EQ(m.entities[0].shapes[0].keys[1].text, "POST#<likes>");
}

TEST(ModelingModelTest, AHierarchyIsOneEntityAndTimesOfDayDoNotSplit) {
  std::vector<Item> items;
  const char* rows[][4] = {{"USA", "CA", "Oakland", "94607"},
                           {"USA", "CA", "Fresno", "93650"},
                           {"USA", "NY", "Albany", "12207"},
                           {"CAN", "ON", "Toronto", "M5V"}};
  for (auto& r : rows) {
    items.push_back({{"PK", S(r[0])},
                     {"SK", S(std::string(r[1]) + "#" + r[2] + "#" + r[3])},
                     {"state", S(r[1])},
                     {"city", S(r[2])},
                     {"opened", S("2024-01-01T09:30:00Z")}});
  }
  Model m = InferModel(Table(false), items);
  ASSERT_EQ(m.entities.size(), 1u);
  EXPECT_EQ(m.entities[0].name, "App");
  EXPECT_EQ(m.entities[0].shapes[0].keys[0].text, "<id>");
  EXPECT_EQ(m.entities[0].shapes[0].keys[1].text, "<state>#<city>#<id>");
}

TEST(ModelingModelTest, ZeroPaddedSegmentsMatchNumberAttributesAndShapesDiffer) {
  std::vector<Item> items = {
      {{"PK", S("P#1")}, {"SK", S("ISSUE#00042")}, {"Type", S("Issue")}, {"n", N(42)}},
      {{"PK", S("P#1")}, {"SK", S("ISSUE#00007")}, {"Type", S("Issue")}, {"n", N(7)}},
      {{"PK", S("USER#a")}, {"SK", S("LIKE#POST#p1")}, {"Type", S("Like")}},
      {{"PK", S("POST#p1")}, {"SK", S("LIKE#USER#a")}, {"Type", S("Like")}},
  };
  Model m = InferModel(Table(false), items);
  const modeling::Entity* issue = Find(m, "Issue");
  ASSERT_NE(issue, nullptr);
  EXPECT_EQ(issue->shapes[0].keys[1].text, "ISSUE#<n>");
  const modeling::Entity* like = Find(m, "Like");
  ASSERT_NE(like, nullptr);
  EXPECT_EQ(like->shapes.size(), 2u);  // stored in both directions
}

TEST(ModelingModelTest, AMultiAttributeIndexKeyShowsEveryAttribute) {
  TableDescription t = Table(false);
  IndexDescription g;
  g.name = "byBracket";
  g.key.partition = {"league", ValueType::kS};
  g.key.more_partition = {{"division", ValueType::kS}};
  g.key.sort = KeyAttribute{"stage", ValueType::kN};
  g.key.more_sort = {{"bracket", ValueType::kS}};
  t.indexes.push_back(g);
  auto match = [](const std::string& id, const std::string& league, const std::string& division,
                  std::optional<int64_t> stage) {
    Item item{{"PK", S("MATCH#" + id)}, {"SK", S("MATCH")},        {"Type", S("Match")},
              {"league", S(league)},    {"division", S(division)}, {"bracket", S("upper")},
              {"matchId", S(id)}};
    if (stage) item["stage"] = N(*stage);
    return item;
  };
  Model m = InferModel(t, {match("m1", "WINTER", "NA", 1), match("m2", "WINTER", "EU", 2),
                           match("m3", "SUMMER", "NA", std::nullopt)});
  const modeling::Entity* e = Find(m, "Match");
  ASSERT_NE(e, nullptr);
  ASSERT_EQ(e->shapes.size(), 1u);
  ASSERT_EQ(e->shapes[0].indexes.size(), 1u);
  const auto& index = e->shapes[0].indexes[0];
  EXPECT_EQ(index.index, "byBracket");
  std::vector<std::string> names;
  for (const auto& k : index.keys) names.push_back(k.attribute);
  EXPECT_EQ(names, (std::vector<std::string>{"league", "division", "stage", "bracket"}));
  EXPECT_EQ(index.keys[2].items, 2);  // m3 has no stage: not in the index
  for (const auto& a : e->attributes) {
    EXPECT_TRUE(a.name != "league" && a.name != "division" && a.name != "stage" &&
                a.name != "bracket")
        << a.name << " is a key attribute";
  }
}

TEST(ModelingModelTest, EmptyTable) {
  Model m = InferModel(Table(false), {});
  EXPECT_TRUE(m.entities.empty());
  EXPECT_EQ(modeling::FormatModel(Table(false), m),
            "-- App: 0 items, 0 entity types (told apart by key prefixes)\n"
            "-- no items: .model reads the entity types off the items; add some first\n");
}

// Random keys built from separators, digits, words and times: inference never fails, every item
// lands in exactly one entity and one shape, and formatting names every entity.
TEST(ModelingModelTest, RandomKeysAreAlwaysAccountedFor) {
  const char* pieces[] = {
      "#", ":",   "|",  "USER", "POST", "a", "42", "007", "2024-01-01T10:00:00Z",
      "",  "x:y", "::", "##",   "9:30"};
  for (uint32_t seed = 1; seed <= 50; ++seed) {
    std::mt19937 rng(seed);
    auto key = [&] {
      std::string k;
      for (int n = 1 + static_cast<int>(rng() % 5); n > 0; --n) k += pieces[rng() % 14];
      return k.empty() ? std::string("k") : k;
    };
    std::vector<Item> items;
    for (int i = 0; i < 40; ++i) {
      Item item{{"PK", S(key())}, {"SK", S(key())}};
      if (rng() % 2) item["GSI1PK"] = S(key());
      if (rng() % 3 == 0) item["Type"] = S(rng() % 2 ? "A" : "B");
      if (rng() % 2) item["attr"] = rng() % 2 ? S(key()) : N(static_cast<int64_t>(rng() % 100));
      items.push_back(std::move(item));
    }
    Model m = InferModel(Table(true), items);
    int64_t in_entities = 0;
    for (const modeling::Entity& e : m.entities) {
      int64_t in_shapes = 0;
      for (const modeling::EntityShape& sh : e.shapes) in_shapes += sh.items;
      EXPECT_EQ(in_shapes, e.items) << "seed " << seed;
      in_entities += e.items;
    }
    EXPECT_EQ(in_entities, 40) << "seed " << seed;
    std::string text = modeling::FormatModel(Table(true), m);
    for (const modeling::Entity& e : m.entities) {
      EXPECT_NE(text.find("\n" + e.name + " · "), std::string::npos) << "seed " << seed;
    }
  }
}

// The entity styles students write (issue 42 §3): ids after '-', '_' or ':' split as after '#',
// so an issue tracker's tenants, projects and issues are three entities, not the table's name
// three times; dates, UUIDs and words with a hyphen stay whole.
TEST(ModelingModelTest, HyphensAndUnderscoresBeforeAnIdSplit) {
  std::vector<Item> items;
  for (int t = 1; t <= 2; ++t) {
    const std::string tenant = "tenant-" + std::to_string(t);
    items.push_back({{"PK", S(tenant)}, {"SK", S(tenant)}, {"plan", S("pro")}});
    for (int p = 1; p <= 2; ++p) {
      const std::string project = "project_" + std::to_string(t * 10 + p);
      items.push_back({{"PK", S(tenant)}, {"SK", S(project)}, {"title", S("P")}});
      items.push_back({{"PK", S(project)},
                       {"SK", S("issue:" + std::to_string(t * 100 + p))},
                       {"state", S("in-progress")},
                       {"opened", S("2024-03-0" + std::to_string(p))}});
    }
  }
  Model m = InferModel(Table(false), items);
  ASSERT_EQ(m.entities.size(), 3u) << modeling::FormatModel(Table(false), m);
  const modeling::Entity* tenant = Find(m, "tenant");
  const modeling::Entity* project = Find(m, "project");
  const modeling::Entity* issue = Find(m, "issue");
  ASSERT_TRUE(tenant && project && issue) << modeling::FormatModel(Table(false), m);
  EXPECT_EQ(project->shapes[0].keys[0].text, "tenant-<number>");
  EXPECT_EQ(project->shapes[0].keys[1].text, "project_<number>");
  EXPECT_EQ(issue->shapes[0].keys[1].text, "issue:<number>");
  EXPECT_EQ(modeling::SplitKeyValue("2024-03-03").parts.size(), 1u);
  EXPECT_EQ(modeling::SplitKeyValue("550e8400-e29b-41d4").parts.size(), 1u);
  EXPECT_EQ(modeling::SplitKeyValue("in-progress").parts.size(), 1u);
  EXPECT_EQ(modeling::SplitKeyValue("user-a1b2").parts.size(), 2u);
}

// kind, _t, etype... name entities as Type does, and BY names the attribute when it is none of
// them (or to prefer one over another).
TEST(ModelingModelTest, MoreTypeAttributesAndOneNamedByBy) {
  std::vector<Item> items = {
      {{"PK", S("a")}, {"SK", S("1")}, {"kind", S("Order")}, {"cat", S("X")}},
      {{"PK", S("a")}, {"SK", S("2")}, {"kind", S("Order")}, {"cat", S("Y")}},
      {{"PK", S("b")}, {"SK", S("1")}, {"kind", S("Invoice")}, {"cat", S("X")}},
  };
  Model m = InferModel(Table(false), items);
  EXPECT_EQ(m.type_attribute, "kind");
  EXPECT_TRUE(Find(m, "Order") && Find(m, "Invoice"));
  Model by = InferModel(Table(false), items, "cat");
  EXPECT_EQ(by.type_attribute, "cat");
  EXPECT_TRUE(Find(by, "X") && Find(by, "Y"));
  for (const char* name : {"_t", "etype", "entity", "itemType", "recordType"}) {
    std::vector<Item> typed = {{{"PK", S("a")}, {"SK", S("1")}, {name, S("Thing")}}};
    EXPECT_EQ(modeling::TypeAttributeOf(typed), name);
  }
  EXPECT_EQ(::keyhole::testing::ErrorText(modeling::CheckTypeAttribute("App", items, "Kind")),
            "ValidationException: no item of App has a string attribute Kind to name its entity "
            "type (names are case-sensitive)");
  EXPECT_TRUE(modeling::CheckTypeAttribute("App", items, "kind").ok());
}

// Two entity types of one name (keys without a word to tell them apart are named after the
// table): .generate refuses the name rather than take the first.
TEST(ModelingModelTest, GenerateRefusesAnEntityNameTwoTypesShare) {
  std::vector<Item> items = {
      {{"PK", S("1001")}, {"SK", S("1")}, {"color", S("red")}},
      {{"PK", S("1002")}, {"SK", S("2")}, {"color", S("blue")}},
      {{"PK", S("1003")}, {"SK", S("a#b")}, {"size", N(3)}, {"weight", N(4)}},
      {{"PK", S("1004")}, {"SK", S("c#d")}, {"size", N(5)}, {"weight", N(6)}},
  };
  Model m = InferModel(Table(false), items);
  int named_app = 0;
  for (const modeling::Entity& e : m.entities) named_app += e.name == "App";
  ASSERT_EQ(named_app, 2) << modeling::FormatModel(Table(false), m);
  modeling::GenerateOptions options;
  options.entity = "App";
  options.count = 1;
  Result<modeling::Generated> made = modeling::GenerateItems(Table(false), items, options);
  ASSERT_FALSE(made.ok());
  EXPECT_NE(made.status().message().find("2 entity types of App are named App: (PK = "),
            std::string::npos)
      << made.status().message();
}

}  // namespace
}  // namespace keyhole::testing
