// Database::SearchVectors: the exact top K of a vector index (core/vector_index.h). Every item of
// the table is a candidate: those the index holds and the SearchConditionExpression admits are
// scored, and the K best returned as the index projects them. (The index's own packed float32
// sub-database, grouped by the HASH attribute, is not built yet: a search reads the table.)
#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/evaluate.h"
#include "core/item.h"
#include "core/vector_index.h"
#include "storage/engine.h"

namespace keyhole::storage {

namespace {

// The attributes of `item` an entry of `index` holds: the table's key, the search attributes,
// the vector, and the projection's.
Item VectorEntry(const VectorIndexDescription& index, const KeySchema& table_key,
                 const Item& item) {
  if (index.projection.type == ProjectionType::kAll) return item;
  Item entry = ExtractKey(table_key, item);
  auto copy = [&](const std::string& name) {
    if (auto it = item.find(name); it != item.end()) entry.emplace(name, it->second);
  };
  for (const SearchAttribute& a : index.search_schema) copy(a.name);
  copy(index.vector_attribute);
  for (const std::string& name : index.projection.non_key_attributes) copy(name);
  return entry;
}

// The vector as the index keeps it: each element rounded to float32.
AttributeValue Float32Copy(const std::vector<float>& vector) {
  std::vector<AttributeValue> list;
  list.reserve(vector.size());
  for (float f : vector) list.push_back(AttributeValue::N(*Number::Parse(fmt::format("{}", f))));
  return AttributeValue::L(std::move(list));
}

}  // namespace

Result<SearchVectorsResponse> Database::SearchVectors(const SearchVectorsRequest& r) {
  KH_RETURN_IF_ERROR(CheckTopK(r.top_k));
  KH_ASSIGN_OR_RETURN(TableSchemaPtr schema, TableSchema(r.table_name));
  const VectorIndexDescription* index = nullptr;
  for (const VectorIndexDescription& v : schema->vector_indexes) {
    if (v.name == r.index_name) index = &v;
  }
  if (!index) {
    return Status::Validation(
        fmt::format("The table does not have the specified index: {}", r.index_name));
  }
  KH_ASSIGN_OR_RETURN(expr::ParsedExpressions parsed, impl_->ParseExpressions(r.expressions));
  if (parsed.projection) KH_RETURN_IF_ERROR(expr::ValidateProjection(*parsed.projection));
  KH_ASSIGN_OR_RETURN(std::vector<float> query, SearchVectorOf(*index, r.search_vector));
  KH_ASSIGN_OR_RETURN(std::vector<SearchTerm> terms,
                      SearchConditionTerms(*index, parsed.search_condition.get()));

  // The candidates, and their vectors packed one after another.
  std::vector<Item> candidates;
  std::vector<float> packed;
  ScanRequest scan;
  scan.table_name = r.table_name;
  while (true) {
    KH_ASSIGN_OR_RETURN(ScanResponse page, Scan(scan));
    for (Item& item : page.items) {
      if (!InVectorIndex(*index, item)) continue;
      const bool admitted = std::ranges::all_of(terms, [&](const SearchTerm& t) {
        auto it = item.find(t.name);
        return it != item.end() && it->second == t.value;
      });
      if (!admitted) continue;
      const std::vector<float> v = VectorOf(*index, item);
      packed.insert(packed.end(), v.begin(), v.end());
      candidates.push_back(std::move(item));
    }
    if (!page.last_evaluated_key) break;
    scan.exclusive_start_key = std::move(page.last_evaluated_key);
  }
  const std::vector<ScoredCandidate> best = ExactTopK(
      index->distance, query, packed.data(), candidates.size(), static_cast<size_t>(r.top_k));

  SearchVectorsResponse out;
  int64_t bytes = static_cast<int64_t>(packed.size() * sizeof(float));
  for (const ScoredCandidate& c : best) {
    const Item& item = candidates[c.position];
    Item entry = VectorEntry(*index, schema->key, item);
    // The vector comes back only when the ProjectionExpression names it, as the index's copy.
    entry[index->vector_attribute] = Float32Copy(std::vector<float>(
        packed.begin() + static_cast<std::ptrdiff_t>(c.position * query.size()),
        packed.begin() + static_cast<std::ptrdiff_t>((c.position + 1) * query.size())));
    if (parsed.projection) {
      entry = expr::Project(entry, parsed.projection->paths);
    } else {
      entry.erase(index->vector_attribute);
    }
    bytes += static_cast<int64_t>(ItemSize(entry));
    out.results.push_back({std::move(entry), c.score});
  }
  if (r.return_consumed_capacity != ReturnConsumedCapacity::kNone) {
    out.search_request_bytes = bytes;
  }
  return out;
}

}  // namespace keyhole::storage
