// keyhole's vector search statement (parser/partiql.h NearestOrder), run as SearchVectors:
//
//   SELECT pk, text FROM "Memory"."byMeaning" WHERE tenant = 'acme' AND kind = 1
//     ORDER BY VECTOR_DISTANCE(embedding, [0.1, 0.2, 0.3]) LIMIT 5;
//
// FROM names the vector index, the WHERE is the SearchConditionExpression (equalities joined
// by AND, as DynamoDB allows), the select list its ProjectionExpression, LIMIT its TopK. Each
// row carries the result's score in a `score` column (`_score` when an item has a `score`).
// EXPLAIN shows the request.
#include <fmt/format.h>

#include <set>

#include "api/api_json.h"
#include "core/expression_text.h"
#include "core/json.h"
#include "core/vector_index.h"
#include "shell/session_state.h"

namespace keyhole::shell {

namespace {

constexpr char kSyntax[] =
    "SELECT ... FROM \"Table\".\"VectorIndex\" [WHERE a = x AND ...] ORDER BY "
    "VECTOR_DISTANCE(vector_attribute, [n, ...]) LIMIT k";

Result<SearchVectorsRequest> Request(const TableDescription& table,
                                     const parser::SelectStatement& q) {
  const parser::NearestOrder& n = *q.nearest;
  if (!q.index) {
    return Status::Validation("A vector search reads a vector index: FROM \"Table\".\"Index\"")
        .WithHint(kSyntax);
  }
  const VectorIndexDescription* index = table.FindVectorIndex(*q.index);
  if (!index) {
    std::string names;
    for (const VectorIndexDescription& v : table.vector_indexes) {
      names += (names.empty() ? "" : ", ") + v.name;
    }
    return Status::Validation(
               fmt::format("The table does not have the specified index: {}", *q.index))
        .WithHint(names.empty() ? fmt::format("{} has no vector index", table.name)
                                : fmt::format("{}'s vector indexes: {}", table.name, names));
  }
  if (index->vector_attribute != n.attribute) {
    return Status::Validation(fmt::format(
        "Vector index {} holds the vectors of {}, not {}: ORDER BY VECTOR_DISTANCE({}, [...])",
        index->name, index->vector_attribute, n.attribute, index->vector_attribute));
  }
  if (!n.limit) {
    return Status::Validation(
               "ORDER BY VECTOR_DISTANCE(...) needs LIMIT k: how many of the nearest to return "
               "(SearchVectors' TopK, 1 to 100)")
        .WithHint(kSyntax);
  }
  SearchVectorsRequest r;
  r.table_name = table.name;
  r.index_name = index->name;
  r.search_vector = n.vector;
  r.top_k = *n.limit;
  expr::Placeholders p;
  if (q.where) r.expressions.search_condition = expr::RenderCondition(*q.where, &p);
  if (!q.select_all) {
    r.expressions.projection = expr::RenderProjection(expr::ProjectionExpression{q.projection}, &p);
  }
  if (!p.names().empty()) r.expressions.names = p.names();
  if (!p.values().empty()) r.expressions.values = p.values();
  r.return_consumed_capacity = ReturnConsumedCapacity::kTotal;
  return r;
}

}  // namespace

bool RunVectorSearch(Session::State& s, const parser::Statement& st, Location at) {
  const auto& q = st.as<parser::SelectStatement>();
  Result<TableSchemaPtr> schema = s.db().TableSchema(q.table);
  if (!schema.ok()) return s.Fail(schema.status(), at);
  Result<SearchVectorsRequest> r = Request(**schema, q);
  if (!r.ok()) return s.Fail(r.status(), at);
  const std::string target = q.table + "." + *q.index;
  if (st.explain) {
    s.Out(fmt::format("SearchVectors on {}\n{}\n", target,
                      json::Write(SearchVectorsRequestToJson(*r))));
    // The cost's bound: every vector of the index examined (DescribeTable's ItemCount).
    std::string bound;
    Result<DescribeTableResponse> d = s.db().DescribeTable({q.table});
    if (const VectorIndexDescription* v =
            d.ok() ? d->table.FindVectorIndex(r->index_name) : nullptr) {
      bound = fmt::format(
          "at most {} bytes examined: the index's {} vectors of {} dimensions at 4 bytes an "
          "element (a search of one HASH value reads that value's only), plus the bytes "
          "returned",
          v->item_count * v->dimensions * 4, v->item_count, v->dimensions);
    }
    s.Notice(fmt::format(
        "-- keyhole scores every vector the condition admits and returns the exact {} "
        "nearest; DynamoDB's search is approximate\n-- cost: VectorSearchRequestBytes, {}\n",
        r->top_k, bound.empty() ? "the bytes of the vectors examined plus those returned" : bound));
    return true;
  }
  Result<SearchVectorsResponse> got = s.db().SearchVectors(*r);
  if (!got.ok()) return s.Fail(got.status(), at);
  std::string score = "score";
  for (const SearchResult& result : got->results) {
    if (result.item.count(score)) score = "_score";
  }
  std::vector<Item> rows;
  for (const SearchResult& result : got->results) {
    Item row = result.item;
    row[score] = AttributeValue::N(*Number::Parse(fmt::format("{}", result.score)));
    rows.push_back(std::move(row));
  }
  // The columns: the selected ones (SELECT *: the table's key, then the other attributes by
  // name), then the score.
  std::vector<std::string> columns;
  if (!q.select_all) {
    for (const expr::Path& path : q.projection) columns.push_back(path.elements[0].name);
  } else {
    std::set<std::string> names;
    for (const SearchResult& result : got->results) {
      for (const auto& [name, value] : result.item) names.insert(name);
    }
    for (const KeyAttribute* a : (*schema)->key.Attributes()) {
      if (names.erase(a->name)) columns.push_back(a->name);
    }
    columns.insert(columns.end(), names.begin(), names.end());
  }
  columns.push_back(score);
  PrintItems(s, rows, q.table, std::nullopt, columns);
  StatementReport& report = s.report;
  report.operation = "SearchVectors";
  report.target = target;
  report.returned = static_cast<int64_t>(rows.size());
  s.Notice(s.Timed(fmt::format("-- {} returned · SearchVectors on {} · {} vector search bytes",
                               rows.size(), target, got->search_request_bytes.value_or(0))) +
           "\n");
  return true;
}

}  // namespace keyhole::shell
