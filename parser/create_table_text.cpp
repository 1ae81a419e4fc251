// CreateTableText: a table's schema as the CREATE TABLE statement that re-creates it (SHOW
// CREATE TABLE). Names are always written as "quoted identifiers" so that any name DynamoDB
// allows (reserved words, dots, dashes) parses back to itself.
#include <fmt/format.h>

#include <string>

#include "parser/partiql.h"

namespace keyhole::parser {

namespace {

std::string Quoted(std::string_view name) {
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out += '"';  // a doubled quote inside a quoted identifier
    out += c;
  }
  return out + "\"";
}

std::string_view TypeLetter(ValueType t) {
  return t == ValueType::kN ? "N" : t == ValueType::kB ? "B" : "S";
}

std::string KeyColumns(const KeySchema& key) {
  std::string out;
  auto add = [&](const KeyAttribute* a, std::string_view role) {
    out += fmt::format("{}{} {} {}", out.empty() ? "(" : ", ", Quoted(a->name), TypeLetter(a->type),
                       role);
  };
  for (const KeyAttribute* a : key.PartitionAttributes()) add(a, "HASH");
  for (const KeyAttribute* a : key.SortAttributes()) add(a, "RANGE");
  return out + ")";
}

std::string ProjectionText(const Projection& p) {
  if (p.type == ProjectionType::kAll) return "";  // the default
  if (p.type == ProjectionType::kKeysOnly) return " PROJECTION KEYS_ONLY";
  std::string out = " PROJECTION INCLUDE (";
  for (size_t i = 0; i < p.non_key_attributes.size(); ++i) {
    out += (i ? ", " : "") + Quoted(p.non_key_attributes[i]);
  }
  return out + ")";
}

}  // namespace

std::string CreateTableText(const TableDescription& table) {
  std::string out = fmt::format("CREATE TABLE {} {}", Quoted(table.name), KeyColumns(table.key));
  for (const IndexDescription& index : table.indexes) {
    out +=
        fmt::format("\n  {} INDEX {} {}{}", index.kind == IndexKind::kGlobal ? "GLOBAL" : "LOCAL",
                    Quoted(index.name), KeyColumns(index.key), ProjectionText(index.projection));
  }
  for (const VectorIndexDescription& v : table.vector_indexes) {
    out += fmt::format("\n  VECTOR INDEX {} ({} VECTOR({}) {}", Quoted(v.name),
                       Quoted(v.vector_attribute), v.dimensions,
                       v.distance == DistanceFunction::kCosine       ? "COSINE"
                       : v.distance == DistanceFunction::kDotProduct ? "DOT_PRODUCT"
                                                                     : "EUCLIDEAN");
    for (const SearchAttribute& a : v.search_schema) {
      out +=
          fmt::format(", {} {} {}", Quoted(a.name), TypeLetter(a.type), a.hash ? "HASH" : "FILTER");
    }
    out += ")" + ProjectionText(v.projection);
  }
  if (table.ttl_attribute) out += "\n  TTL " + Quoted(*table.ttl_attribute);
  if (table.stream_view_type) out += "\n  STREAM " + *table.stream_view_type;
  if (table.billing_mode == "PROVISIONED") {
    out += fmt::format("\n  BILLING PROVISIONED (READ {}, WRITE {})", table.read_capacity,
                       table.write_capacity);
  }
  return out + ";";
}

}  // namespace keyhole::parser
