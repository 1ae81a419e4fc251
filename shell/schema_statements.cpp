// CREATE TABLE, ALTER TABLE, DROP TABLE, DESCRIBE and SHOW TABLES: the control plane as the
// shell runs it, waiting on an endpoint until a change is ACTIVE.

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "api/partiql_api.h"
#include "core/table_definition.h"
#include "core/vector_index.h"
#include "parser/partiql.h"
#include "shell/commands.h"
#include "shell/render.h"
#include "shell/session_state.h"

namespace keyhole::shell {

namespace {

// After CREATE TABLE, ALTER TABLE ADD GLOBAL INDEX or DROP TABLE on an endpoint that takes
// time (DynamoDB: seconds to minutes), the shell waits as `keyhole copy` does, so that the next
// statement of a schema script finds the table ACTIVE (or gone). It says what it waits on once,
// then every 10 seconds; Ctrl-C stops the wait (not the change). A keyhole file answers ACTIVE
// at once: nothing is printed. Returns the seconds waited, or the failure.
Result<double> WaitForTable(Session::State& s, const std::string& table, bool gone) {
  double waited = 0, said = -1;
  WaitProgress progress = [&](const std::string& state, double seconds) {
    waited = seconds;
    if (said < 0 || seconds - said >= 10) {
      s.Notice(said < 0 ? fmt::format("-- waiting: {} (Ctrl-C stops waiting)\n", state)
                        : fmt::format("-- still waiting: {} ({:.0f} s)\n", state, seconds));
      said = seconds;
    }
  };
  const auto limit = std::chrono::minutes(30);
  Status st = gone ? WaitUntilGone(s.db(), table, limit, &g_interrupted, progress)
                   : WaitUntilActive(s.db(), table, limit, &g_interrupted, progress);
  if (st.code() == ErrorCode::kInterrupted) {
    return st.WithHint(fmt::format("the change goes on on {}: DESCRIBE \"{}\" shows its status",
                                   s.settings.endpoint, table));
  }
  if (!st.ok()) return st;
  return said < 0 ? 0.0 : waited;
}

// " (ACTIVE after 12 s)" when the wait took any time.
std::string Waited(double seconds, std::string_view state) {
  return seconds > 0 ? fmt::format(" ({} after {:.0f} s)", state, std::max(1.0, seconds)) : "";
}

}  // namespace

bool RunCreate(Session::State& s, const parser::CreateTableStatement& c, Location at) {
  Result<CreateTableResponse> r = s.db().CreateTable(parser::ToCreateTableRequest(c));
  if (!r.ok() && !(c.if_not_exists && r.status().code() == ErrorCode::kResourceInUse)) {
    return s.Fail(r.status(), at);
  }
  if (!r.ok()) {
    s.Notice(fmt::format("-- table {} exists\n", c.table));
    return true;
  }
  std::string done = fmt::format("-- table {} created", c.table);
  if (r->table_description.status != "ACTIVE") {
    Result<double> waited = WaitForTable(s, c.table, /*gone=*/false);
    if (!waited.ok()) return s.Fail(waited.status(), at);
    done += Waited(*waited, "ACTIVE");
  }
  if (c.ttl_attribute) {  // TTL is UpdateTimeToLive's, not CreateTable's (as in DynamoDB)
    UpdateTimeToLiveRequest ttl{c.table, {*c.ttl_attribute, true}};
    Result<UpdateTimeToLiveResponse> t = s.db().UpdateTimeToLive(ttl);
    if (!t.ok()) return s.Fail(t.status(), at);
    done += fmt::format(" · TTL on {}", *c.ttl_attribute);
  }
  if (c.stream_view_type) done += fmt::format(" · stream {}", *c.stream_view_type);
  s.Notice(done + "\n");
  return true;
}

namespace {

// ALTER TABLE ... SET TTL / DISABLE TTL: UpdateTimeToLive.
bool RunAlterTtl(Session::State& s, const parser::AlterTableStatement& a, Location at) {
  UpdateTimeToLiveRequest request{a.table, {a.name, true}};
  if (a.action == parser::AlterAction::kDisableTtl) {
    Result<TableSchemaPtr> t = s.db().TableSchema(a.table);
    if (!t.ok()) return s.Fail(t.status(), at);
    if (!(*t)->ttl_attribute)
      return s.Fail(Status::Validation("TimeToLive is already disabled"), at);
    request.specification = {*(*t)->ttl_attribute, false};
  }
  Result<UpdateTimeToLiveResponse> r = s.db().UpdateTimeToLive(request);
  if (!r.ok()) return s.Fail(r.status(), at);
  s.Notice(request.specification.enabled
               ? fmt::format("-- TTL on {} enabled for {}\n", a.name, a.table)
               : fmt::format("-- TTL disabled for {}\n", a.table));
  return true;
}

}  // namespace

bool RunAlter(Session::State& s, const parser::AlterTableStatement& a, Location at) {
  UpdateTableRequest request;
  request.table_name = a.table;
  std::string done;
  switch (a.action) {
    case parser::AlterAction::kAddGlobalIndex: {
      const parser::IndexDefinition& def = *a.index;
      AddAttributeDefinitions(def.key, &request.attribute_definitions);
      IndexSpec spec = IndexSpecOf(def.name, def.key, def.projection);
      // A PROVISIONED table's new GSI needs throughput: the table's, as CREATE TABLE gives.
      if (Result<TableSchemaPtr> t = s.db().TableSchema(a.table);
          t.ok() && (*t)->billing_mode == "PROVISIONED") {
        spec.read_capacity_units = (*t)->read_capacity;
        spec.write_capacity_units = (*t)->write_capacity;
      }
      request.create_global_index = std::move(spec);
      done = fmt::format("index {} added to {}", def.name, a.table);
      break;
    }
    case parser::AlterAction::kAddVectorIndex: {
      request.create_vector_index =
          parser::VectorIndexSpecOf(*a.vector_index, &request.attribute_definitions);
      done = fmt::format("vector index {} added to {}", a.vector_index->name, a.table);
      break;
    }
    case parser::AlterAction::kDropIndex: {
      // DROP INDEX names a GSI or a vector index (names are unique across both).
      Result<TableSchemaPtr> t = s.db().TableSchema(a.table);
      const bool vector = t.ok() && (*t)->FindVectorIndex(a.name);
      (vector ? request.delete_vector_index : request.delete_global_index) = a.name;
      done = fmt::format("{}index {} dropped from {}", vector ? "vector " : "", a.name, a.table);
      break;
    }
    case parser::AlterAction::kSetTtl:
    case parser::AlterAction::kDisableTtl:
      return RunAlterTtl(s, a, at);
    case parser::AlterAction::kSetStream:
      request.stream_specification = StreamSpecification{true, a.name};
      done = fmt::format("stream {} enabled for {}", a.name, a.table);
      break;
    case parser::AlterAction::kDisableStream:
      request.stream_specification = StreamSpecification{false, std::nullopt};
      done =
          fmt::format("stream disabled for {} (its records stay readable for 24 hours)", a.table);
      break;
  }
  Result<UpdateTableResponse> r = s.db().UpdateTable(request);
  if (!r.ok()) return s.Fail(r.status(), at);
  if (request.create_global_index || request.delete_global_index) {
    const IndexDescription* idx =
        request.create_global_index
            ? r->table_description.FindIndex(request.create_global_index->name)
            : nullptr;
    if (r->table_description.status != "ACTIVE" || (idx && idx->status != "ACTIVE")) {
      Result<double> waited = WaitForTable(s, a.table, /*gone=*/false);
      if (!waited.ok()) return s.Fail(waited.status(), at);
      done += Waited(*waited, "ACTIVE");
    }
  }
  if (request.create_global_index) {  // how many items the new index holds
    Result<DescribeTableResponse> d = s.db().DescribeTable({a.table});
    const IndexDescription* idx =
        d.ok() ? d->table.FindIndex(request.create_global_index->name) : nullptr;
    if (idx && idx->status != "ACTIVE") {
      done += fmt::format(" (IndexStatus {}: the index is being filled)", idx->status);
    } else if (idx) {
      done +=
          fmt::format(": {} of {} indexed", idx->item_count, Count(d->table.item_count, "item"));
      if (idx->item_count < d->table.item_count) {
        done +=
            " (the others lack a key attribute of the index, or hold one of another type: "
            "a sparse index)";
      }
    }
  }
  s.Notice(s.Timed("-- " + done) + "\n");
  return true;
}

// DESCRIBE in box, table and line modes: a row for the table and each index (keys, projection,
// items, bytes, status), then its billing, stream and protection. (csv, json and ddb print
// DescribeTable's JSON answer, for programs.)
namespace {

bool DescribeForPeople(Session::State& s, const std::string& table, Location at) {
  Result<DescribeTableResponse> d = s.db().DescribeTable({table});
  if (!d.ok()) return s.Fail(s.NameMissingTable(d.status(), table), at);
  const TableDescription& t = d->table;
  auto key_text = [](const std::vector<const KeyAttribute*>& attributes) {
    std::string out;
    for (const KeyAttribute* a : attributes) {
      out += fmt::format("{}{} {}", out.empty() ? "" : ", ", a->name, TypeName(a->type));
    }
    return out;
  };
  auto row = [&](const std::string& name, const std::string& kind, const KeySchema& key,
                 const std::string& projection, int64_t items, int64_t bytes,
                 const std::string& status) {
    Item r;
    r["name"] = AttributeValue::S(name);
    r["kind"] = AttributeValue::S(kind);
    r["partition key"] = AttributeValue::S(key_text(key.PartitionAttributes()));
    r["sort key"] = AttributeValue::S(key.sort ? key_text(key.SortAttributes()) : "-");
    r["projection"] = AttributeValue::S(projection);
    r["items"] = AttributeValue::N(Number::FromInt(items));
    r["bytes"] = AttributeValue::N(Number::FromInt(bytes));
    r["status"] = AttributeValue::S(status);
    return r;
  };
  std::vector<Item> rows = {row(t.name, "table", t.key, "-", t.item_count, t.size_bytes, t.status)};
  for (const IndexDescription& i : t.indexes) {
    std::string projection(ProjectionTypeName(i.projection.type));
    if (i.projection.type == ProjectionType::kInclude) {
      projection +=
          " (" + fmt::format("{}", fmt::join(i.projection.non_key_attributes, ", ")) + ")";
    }
    rows.push_back(row(i.name, i.kind == IndexKind::kGlobal ? "global index" : "local index", i.key,
                       projection, i.item_count, i.size_bytes,
                       i.kind == IndexKind::kGlobal ? i.status : t.status));
  }
  RenderOptions options;
  options.mode = s.settings.mode;
  options.headers = s.settings.headers;
  options.columns = {"name",       "kind",  "partition key", "sort key",
                     "projection", "items", "bytes",         "status"};
  options.max_cell_width = s.settings.max_cell_width;
  s.Out(RenderItems(rows, options));
  std::string about =
      t.billing_mode == "PROVISIONED"
          ? fmt::format("PROVISIONED ({} RCU, {} WCU)", t.read_capacity, t.write_capacity)
          : std::string("PAY_PER_REQUEST");
  about += t.stream_view_type ? " · stream " + *t.stream_view_type : " · no stream";
  if (t.deletion_protection) about += " · deletion protection";
  s.Notice(fmt::format("-- {}: {} · {} (DescribeTable; .mode json shows its whole answer)\n",
                       t.name, about, t.TableArn()));
  return true;
}

}  // namespace

bool RunDescribe(Session::State& s, const std::string& table, Location at) {
  if (!IsMachineMode(s.settings.mode)) return DescribeForPeople(s, table, at);
  json::Value body = json::Value::MakeObject();
  body.Add("TableName", json::Value::String(table));
  return PrintJson(s, s.service().Call("DescribeTable", body, s.Context()), at);
}

bool RunDropTable(Session::State& s, const parser::DropTableStatement& d, Location at) {
  bool declined = false;
  if (!Confirm(s, "DROP TABLE",
               fmt::format("DROP TABLE \"{}\" on {} deletes the table and every item in it. "
                           "Type the table's name to go on: ",
                           d.table, s.settings.endpoint),
               d.table, at, &declined)) {
    return declined;
  }
  Result<DeleteTableResponse> r = s.db().DeleteTable({d.table});
  if (!r.ok() && !(d.if_exists && r.status().IsNotFound())) return s.Fail(r.status(), at);
  std::string waited_text;
  if (r.ok() && !s.settings.endpoint.empty()) {  // DELETING for a while on DynamoDB
    Result<double> waited = WaitForTable(s, d.table, /*gone=*/true);
    if (!waited.ok()) return s.Fail(waited.status(), at);
    waited_text = Waited(*waited, "gone");
  }
  // IF EXISTS on a missing table is routine (a schema script on a new file): said so, not in
  // words that read as an error.
  s.Notice(r.ok() ? fmt::format("-- table {} dropped{}\n", d.table, waited_text)
                  : fmt::format("-- no table {} to drop (IF EXISTS)\n", d.table));
  s.connection().ForgetTable(d.table);
  return true;
}

bool RunShowTables(Session::State& s, Location at) {
  Result<ListTablesResponse> r = s.db().ListTables({});
  if (!r.ok()) return s.Fail(r.status(), at);
  std::vector<Item> rows;
  for (const std::string& n : r->table_names) rows.push_back({{"TableName", AttributeValue::S(n)}});
  PrintItems(s, rows, "", std::nullopt);
  s.Notice(s.Timed(fmt::format("-- {} table{}", rows.size(), rows.size() == 1 ? "" : "s")) + "\n");
  return true;
}

bool RunShowCreateTable(Session::State& s, const std::string& table, Location at) {
  Result<TableSchemaPtr> t = s.db().TableSchema(table);
  if (!t.ok()) return s.Fail(t.status(), at);
  s.Out(parser::CreateTableText(**t) + "\n");
  return true;
}

}  // namespace keyhole::shell
