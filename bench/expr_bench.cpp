// Expressions: parse + resolve time per native expression and per PartiQL statement, and
// filter evaluation over 1,000 items.
// The reference point is a raw loop doing the minimum work for the same check (reading the
// attribute out of a std::map and comparing), in the same run.
#include <benchmark/benchmark.h>

#include <map>
#include <string>
#include <vector>

#include "core/evaluate.h"
#include "parser/expression_parser.h"
#include "parser/partiql.h"

namespace keyhole::bench {
namespace {

const std::map<std::string, std::string> kNames = {{"#s", "status"}, {"#t", "tags"}, {"#pk", "pk"}};
const std::map<std::string, AttributeValue> kValues = {
    {":open", AttributeValue::S("open")},
    {":lo", AttributeValue::N(Number::FromInt(10))},
    {":hi", AttributeValue::N(Number::FromInt(500))},
    {":tag", AttributeValue::S("red")},
    {":one", AttributeValue::N(Number::FromInt(1))},
    {":now", AttributeValue::S("2026-11-22")}};

void BM_ParseCondition(benchmark::State& state) {
  parser::Placeholders p{&kNames, &kValues};
  const std::string text = "#s = :open AND price BETWEEN :lo AND :hi AND contains(#t, :tag)";
  for (auto _ : state) {
    auto c = parser::ParseCondition(text, expr::Kind::kFilter, p, nullptr);
    if (!c.ok()) state.SkipWithError(c.status().ToString().c_str());
    benchmark::DoNotOptimize(c);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ParseCondition);

// The condition of a typical conditional put (issue 14's target: 2 us).
void BM_ParseConditionPut(benchmark::State& state) {
  parser::Placeholders p{&kNames, &kValues};
  const std::string text = "attribute_not_exists(#pk) AND #s = :open";
  for (auto _ : state) {
    auto c = parser::ParseCondition(text, expr::Kind::kCondition, p, nullptr);
    if (!c.ok()) state.SkipWithError(c.status().ToString().c_str());
    benchmark::DoNotOptimize(c);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ParseConditionPut);

void BM_ParseUpdate(benchmark::State& state) {
  parser::Placeholders p{&kNames, &kValues};
  const std::string text =
      "SET #s = :open, updated = :now, hits = hits + :one REMOVE draft ADD #t :tag";
  for (auto _ : state) {
    auto u = parser::ParseUpdate(text, p, nullptr);
    if (!u.ok()) state.SkipWithError(u.status().ToString().c_str());
    benchmark::DoNotOptimize(u);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ParseUpdate);

// PartiQL: parse + translate into the shared AST, per statement. The same text every time: after
// the first, its syntax tree comes from ParseStatement's cache of shapes.
void PartiqlParse(benchmark::State& state, const char* text) {
  for (auto _ : state) {
    auto r = parser::ParseStatement(text);
    if (!r.ok()) state.SkipWithError(r.status().ToString().c_str());
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations());
}
// The same statement parsed as if for the first time (no cache): the grammar's cost.
void PartiqlParseUncached(benchmark::State& state, const char* text) {
  for (auto _ : state) {
    auto r = parser::ParseStatementUncached(text);
    if (!r.ok()) state.SkipWithError(r.status().ToString().c_str());
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations());
}
// The point SELECT with new literals every time, as a script sends it (shell_bench's texts):
// one shape, so the tree is remembered and the new strings and numbers translated.
void BM_PartiqlParsePointSelectNewLiterals(benchmark::State& state) {
  std::vector<std::string> texts;
  for (int i = 0; i < 1000; ++i) {
    texts.push_back("SELECT * FROM \"bench_shell\" WHERE pk = 'part-" + std::to_string(10000 + i) +
                    "' AND sk = " + std::to_string(i % 10) + ";");
  }
  size_t i = 0;
  for (auto _ : state) {
    auto r = parser::ParseStatement(texts[i++ % texts.size()]);
    if (!r.ok()) state.SkipWithError(r.status().ToString().c_str());
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_PartiqlParsePointSelectNewLiterals);
// The same SELECT as an SDK sends it, with parameters: the same text every time, so its syntax
// tree is remembered and only the parameters are bound.
void PartiqlParseParams(benchmark::State& state) {
  const std::string text = R"(SELECT * FROM "bench_shell" WHERE pk = ? AND sk = ?)";
  int i = 0;
  for (auto _ : state) {
    std::vector<AttributeValue> params = {AttributeValue::S("part-00042"),
                                          AttributeValue::N(Number::FromInt(++i % 50))};
    auto r = parser::ParseStatement(text, params);
    if (!r.ok()) state.SkipWithError(r.status().ToString().c_str());
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(PartiqlParseParams);

// The key-addressed SELECT of bench/shell_bench.cpp (issue 14's target: 3 us).
BENCHMARK_CAPTURE(PartiqlParse, PointSelect,
                  R"(SELECT * FROM "bench_shell" WHERE pk = 'part-00042' AND sk = 7;)");
BENCHMARK_CAPTURE(PartiqlParseUncached, PointSelect,
                  R"(SELECT * FROM "bench_shell" WHERE pk = 'part-00042' AND sk = 7;)");
BENCHMARK_CAPTURE(
    PartiqlParse, Select,
    R"(SELECT pk, sk, status FROM "App" WHERE pk = 'USER#42' AND begins_with(sk, 'ORDER#') AND status <> 'closed')");
BENCHMARK_CAPTURE(
    PartiqlParse, Update,
    R"(UPDATE "App" SET views = views + 1 SET tags = set_add(tags, <<'red'>>) REMOVE draft WHERE pk = 'USER#42' AND sk = 'PROFILE' RETURNING ALL NEW *)");

std::vector<Item> Items() {
  std::vector<Item> items;
  for (int i = 0; i < 1000; ++i) {
    items.push_back({{"pk", AttributeValue::S("p" + std::to_string(i))},
                     {"status", AttributeValue::S(i % 3 ? "open" : "closed")},
                     {"price", AttributeValue::N(Number::FromInt(i))},
                     {"tags", AttributeValue::SS({"blue", i % 2 ? "red" : "green"})}});
  }
  return items;
}

// Evaluates the parsed filter on 1,000 items.
void BM_Filter1000_Keyhole(benchmark::State& state) {
  parser::Placeholders p{&kNames, &kValues};
  auto c = parser::ParseCondition("#s = :open AND price BETWEEN :lo AND :hi AND contains(#t, :tag)",
                                  expr::Kind::kFilter, p, nullptr);
  std::vector<Item> items = Items();
  int64_t matched = 0;
  for (auto _ : state) {
    for (const auto& item : items) matched += expr::Evaluate(*c, item);
  }
  benchmark::DoNotOptimize(matched);
  state.SetItemsProcessed(state.iterations() * 1000);
}
BENCHMARK(BM_Filter1000_Keyhole);

// The same predicate hand-written: the floor for any evaluator over these Items.
void BM_Filter1000_Raw(benchmark::State& state) {
  std::vector<Item> items = Items();
  const Number lo = Number::FromInt(10), hi = Number::FromInt(500);
  int64_t matched = 0;
  for (auto _ : state) {
    for (const auto& item : items) {
      auto s = item.find("status");
      auto pr = item.find("price");
      auto t = item.find("tags");
      bool ok = s != item.end() && s->second.is(ValueType::kS) && s->second.s() == "open" &&
                pr != item.end() && pr->second.is(ValueType::kN) && pr->second.n() >= lo &&
                pr->second.n() <= hi && t != item.end() && t->second.is(ValueType::kSS);
      if (ok) {
        const auto& m = t->second.strings();
        ok = std::binary_search(m.begin(), m.end(), std::string("red"));
      }
      matched += ok;
    }
  }
  benchmark::DoNotOptimize(matched);
  state.SetItemsProcessed(state.iterations() * 1000);
}
BENCHMARK(BM_Filter1000_Raw);

}  // namespace
}  // namespace keyhole::bench
