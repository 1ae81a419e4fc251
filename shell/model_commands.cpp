// The modeling dot-commands, thin adapters from a command line to modeling/ and back to the
// session's output: .model, .partitions, .draw, .generate, and .import-model and .export-model
// (NoSQL Workbench data models in and out, and a database's tables as CloudFormation or
// `aws dynamodb create-table` input).
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <set>

#include "api/batch_writer.h"
#include "core/ddb_json.h"
#include "core/file.h"
#include "core/table_definition.h"
#include "modeling/draw.h"
#include "modeling/generate.h"
#include "modeling/model.h"
#include "modeling/partitions.h"
#include "modeling/workbench.h"
#include "shell/render.h"
#include "shell/session_state.h"

namespace keyhole::shell {

using namespace modeling;  // NOLINT: this file is modeling's front door

namespace {

using Args = std::vector<std::string>;

void SayNotes(Session::State& s, const Notes& notes) {
  for (const std::string& n : notes) s.sink->Err("-- note: " + n + "\n");
}

// Every item of `table`, in key order (Scan).
Status ScanAll(Session::State& s, const std::string& table, std::vector<Item>* items) {
  ScanRequest scan;
  scan.table_name = table;
  while (true) {
    KH_ASSIGN_OR_RETURN(ScanResponse page, s.db().Scan(scan));
    for (Item& item : page.items) items->push_back(std::move(item));
    if (!page.last_evaluated_key) return Status::OK();
    if (g_interrupted.load(std::memory_order_relaxed)) {
      return Status(ErrorCode::kInterrupted,
                    fmt::format("Interrupted after reading {} items of {}", items->size(), table));
    }
    scan.exclusive_start_key = std::move(page.last_evaluated_key);
  }
}

// Writes `text` to `path` whole: into a new file beside it, renamed over it once written.
Status WriteFileWhole(const std::string& path, const std::string& text) {
  const std::string temp = path + ".keyhole-model-tmp";
  std::FILE* f = std::fopen(temp.c_str(), "w");
  if (!f) return Status::Validation(fmt::format("cannot write {}: {}", path, std::strerror(errno)));
  const bool written = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  const bool closed = std::fclose(f) == 0;
  if (!written || !closed || std::rename(temp.c_str(), path.c_str()) != 0) {
    const int error = errno;
    std::remove(temp.c_str());
    return Status::Validation(fmt::format("cannot write {}: {}", path, std::strerror(error)));
  }
  return Status::OK();
}

}  // namespace

// .import-model FILE: the model's tables are created and filled; none may exist yet. Either all
// of it is imported, or, when a write fails part way, the tables made are dropped again and the
// error says so.
bool RunImportModel(Session::State& s, const Args& args, Location at) {
  if (args.size() != 1) return s.Fail(Status::Validation("usage: .import-model MODEL.json"), at);
  std::string text;
  if (!ReadWholeFile(args[0], &text)) {
    return s.Fail(
        Status::Validation(fmt::format("cannot read {}: {}", args[0], std::strerror(errno))), at);
  }
  Result<json::Value> parsed = json::Parse(text);
  if (!parsed.ok()) {
    return s.Fail(
        Status::Validation(fmt::format("{} is not JSON: {}", args[0], parsed.status().message())),
        at);
  }
  Notes notes;
  Result<ImportedModel> model = ReadWorkbenchModel(*parsed, &notes);
  if (!model.ok()) {
    return s.Fail(Status::Validation(
                      fmt::format("{}: {} (nothing imported)", args[0], model.status().message())),
                  at);
  }
  for (const ImportedTable& t : model->tables) {
    Result<DescribeTableResponse> d = s.db().DescribeTable({t.create.table_name});
    if (d.ok()) {
      return s.Fail(Status::InUse(fmt::format(
                        "Table already exists: {} (.import-model creates the model's tables; "
                        "nothing imported)",
                        t.create.table_name)),
                    at);
    }
    if (!d.status().IsNotFound()) return s.Fail(d.status(), at);
  }
  std::vector<std::string> created;
  auto undo = [&](const Status& why) {
    std::vector<std::string> dropped, kept;
    for (const std::string& name : created) {
      (s.db().DeleteTable({name}).ok() ? dropped : kept).push_back(name);
    }
    std::string undone =
        created.empty() ? std::string("nothing imported")
        : kept.empty()  ? fmt::format("the import was undone: {} dropped", fmt::join(dropped, ", "))
                        : fmt::format("the import stopped; {} could not be dropped and {} as made",
                                      fmt::join(kept, ", "), kept.size() == 1 ? "is" : "are");
    return s.Fail(Status(why.code(), fmt::format("{} ({})", why.message(), undone)), at);
  };
  std::string report;
  for (const ImportedTable& t : model->tables) {
    Result<CreateTableResponse> r = s.db().CreateTable(t.create);
    if (!r.ok()) return undo(r.status());
    created.push_back(t.create.table_name);
    // Written once it is ACTIVE (on DynamoDB, seconds after CreateTable).
    if (Status st = WaitUntilActive(s.db(), t.create.table_name, std::chrono::minutes(10));
        !st.ok()) {
      return undo(st);
    }
    std::vector<std::string> keys;
    for (const KeySchemaElement& k : t.create.key_schema) keys.push_back(k.name);
    api::BatchWriter::Options options;
    options.threads = 1;
    api::BatchWriter writer(s.db(), t.create.table_name, keys, options);
    for (const Item& item : t.items) {
      if (Status st = writer.Add(item); !st.ok()) {
        (void)writer.Finish();
        return undo(st);
      }
    }
    if (Status st = writer.Finish(); !st.ok()) return undo(st);
    report += fmt::format("-- table {} created: {}, {} GSI{}, {} facet{}\n", t.create.table_name,
                          t.items.size() == 1 ? "1 item" : fmt::format("{} items", t.items.size()),
                          t.create.global_secondary_indexes.size(),
                          t.create.global_secondary_indexes.size() == 1 ? "" : "s", t.facets,
                          t.facets == 1 ? "" : "s");
  }
  SayNotes(s, notes);
  s.Notice(fmt::format("-- model {} imported from {}\n",
                       model->name.empty() ? std::string("(unnamed)") : model->name, args[0]) +
           report);
  return true;
}

// .export-model FILE [TABLE...] [--format workbench|cloudformation|cli] [--name NAME]
bool RunExportModel(Session::State& s, const Args& args, Location at) {
  const Status usage = Status::Validation(
      "usage: .export-model FILE.json [TABLE...] [--format workbench|cloudformation|cli] "
      "[--name MODEL]");
  std::string path, format = "workbench", name;
  std::vector<std::string> tables;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--format" || args[i] == "--name") {
      if (i + 1 >= args.size()) return s.Fail(usage, at);
      std::string& target = args[i] == "--format" ? format : name;
      target = args[++i];
    } else if (path.empty()) {
      path = args[i];
    } else {
      tables.push_back(args[i]);
    }
  }
  if (path.empty()) return s.Fail(usage, at);
  if (format != "workbench" && format != "cloudformation" && format != "cli") {
    return s.Fail(Status::Validation(
                      fmt::format("unknown format {}: workbench (NoSQL Workbench's data model, the "
                                  "default), cloudformation or cli (create-table --cli-input-json)",
                                  format)),
                  at);
  }
  if (tables.empty()) {
    Result<ListTablesResponse> r = s.db().ListTables({});
    if (!r.ok()) return s.Fail(r.status(), at);
    tables = r->table_names;
  }
  {  // each table once
    std::set<std::string> seen;
    std::erase_if(tables, [&](const std::string& t) { return !seen.insert(t).second; });
  }
  if (tables.empty()) return s.Fail(Status::Validation("there are no tables to export"), at);
  if (format == "cli" && tables.size() != 1) {
    return s.Fail(Status::Validation(fmt::format(
                      "--format cli writes one table's create-table input; name one of {}",
                      fmt::join(tables, ", "))),
                  at);
  }
  std::vector<ModelTable> model;
  int64_t items = 0;
  for (const std::string& table : tables) {
    Result<TableSchemaPtr> t = s.db().TableSchema(table);
    if (!t.ok()) return s.Fail(s.NameMissingTable(t.status(), table), at);
    ModelTable mt{**t, {}};
    if (format == "workbench") {
      if (Status st = ScanAll(s, table, &mt.items); !st.ok()) return s.Fail(st, at);
      items += static_cast<int64_t>(mt.items.size());
    }
    model.push_back(std::move(mt));
  }
  Notes notes;
  json::Value out =
      format == "workbench"
          ? WorkbenchModelJson(name.empty() ? fmt::format("{}", fmt::join(tables, ", ")) : name,
                               s.now(), model, &notes)
      : format == "cloudformation" ? CloudFormationJson(model, &notes)
                                   : CreateTableCliJson(model.front(), &notes);
  if (Status st = WriteFileWhole(path, json::WriteIndented(out)); !st.ok()) return s.Fail(st, at);
  SayNotes(s, notes);
  const std::string what =
      format == "workbench"
          ? fmt::format("a NoSQL Workbench model ({} item{})", items, items == 1 ? "" : "s")
      : format == "cloudformation" ? "a CloudFormation template"
                                   : "create-table --cli-input-json input";
  s.Notice(fmt::format("-- {} written to {}: {}\n", what, path, fmt::join(tables, ", ")));
  return true;
}

// .draw TABLE [INDEX] [TO FILE.html|FILE.svg] [--partitions N] [--items N] [--partition VALUE]
bool RunDraw(Session::State& s, const Args& args, Location at) {
  const Status usage = Status::Validation(
      "usage: .draw TABLE [INDEX] [TO FILE.html|FILE.svg] [--partitions N] [--items N] "
      "[--partition VALUE]");
  std::vector<std::string> words;
  std::string path, partition;
  DrawOptions options;
  for (size_t i = 0; i < args.size(); ++i) {
    if ((args[i] == "TO" || args[i] == "to") && i + 1 < args.size()) {
      path = args[++i];
    } else if (args[i] == "--partitions" && i + 1 < args.size()) {
      char* end = nullptr;
      const long n = std::strtol(args[++i].c_str(), &end, 10);
      if (*end != '\0' || n < 1 || n > 10000) return s.Fail(usage, at);
      options.partitions = static_cast<size_t>(n);
    } else if (args[i] == "--items" && i + 1 < args.size()) {  // rows a partition, at most
      char* end = nullptr;
      const long n = std::strtol(args[++i].c_str(), &end, 10);
      if (*end != '\0' || n < 1 || n > 10000) return s.Fail(usage, at);
      options.items_per_partition = static_cast<size_t>(n);
    } else if (args[i] == "--partition" && i + 1 < args.size()) {
      partition = args[++i];
    } else if (args[i].starts_with("--")) {
      return s.Fail(usage, at);
    } else {
      words.push_back(args[i]);
    }
  }
  if (words.empty() || words.size() > 2) return s.Fail(usage, at);
  // TABLE.INDEX in one word (--draw's form), when no table has the whole name.
  if (const size_t dot = words[0].rfind('.'); words.size() == 1 && dot != std::string::npos &&
                                              dot > 0 && dot + 1 < words[0].size() &&
                                              !s.db().TableSchema(words[0]).ok()) {
    words = {words[0].substr(0, dot), words[0].substr(dot + 1)};
  }
  const std::string table = words[0];
  Result<TableSchemaPtr> t = s.db().TableSchema(table);
  if (!t.ok()) return s.Fail(s.NameMissingTable(t.status(), table), at);
  std::optional<IndexDescription> drawn;
  if (words.size() == 2) {
    std::string why;
    drawn = DrawnIndex(**t, words[1], &why);
    if (!drawn) return s.Fail(Status::Validation(why), at);
    options.index = words[1];
  }
  if (!partition.empty()) {
    const KeySchema& key = drawn ? drawn->key : (*t)->key;
    if (!key.more_partition.empty()) {
      return s.Fail(Status::Validation(
                        "--partition takes one value: this partition key has several attributes"),
                    at);
    }
    if (key.partition.type == ValueType::kB) {
      std::string bytes;
      if (!Base64Decode(partition, &bytes)) {
        return s.Fail(Status::Validation("--partition: the partition key is binary (B); give "
                                         "its value in base64"),
                      at);
      }
      options.partition = AttributeValue::B(std::move(bytes));
    } else if (key.partition.type == ValueType::kN) {
      Result<Number> n = Number::Parse(partition);
      if (!n.ok()) return s.Fail(n.status(), at);
      options.partition = AttributeValue::N(std::move(n).value());
    } else {
      options.partition = AttributeValue::S(partition);
    }
  }
  if (path.empty()) path = table + (options.index ? "." + *options.index : "") + ".html";
  std::vector<Item> items;
  if (Status st = ScanAll(s, table, &items); !st.ok()) return s.Fail(st, at);
  const bool svg = path.ends_with(".svg");
  const std::string text = svg ? DrawSvg(**t, items, options) : DrawHtml(**t, items, options);
  if (Status st = WriteFileWhole(path, text); !st.ok()) return s.Fail(st, at);
  s.Notice(fmt::format("-- {} of {}{} written to {} ({} items read)\n", svg ? "an SVG" : "a page",
                       table, options.index ? "." + *options.index : "", path, items.size()));
  return true;
}

// "a" or "an" before `word` (by its first letter: "an ACCOUNT", "an Order"; a U is read as in
// "a User").
static std::string Article(const std::string& word) {
  return !word.empty() && std::string_view("aeioAEIO").find(word[0]) != std::string_view::npos
             ? "an"
             : "a";
}

// .generate TABLE ENTITY COUNT [PER PARENT] [BY TYPE-ATTRIBUTE] [--seed N] [--skew zipf:S]
bool RunGenerate(Session::State& s, const Args& args, Location at) {
  const Status usage = Status::Validation(
      "usage: .generate TABLE ENTITY COUNT [PER PARENT-ENTITY] [BY TYPE-ATTRIBUTE] [--seed N] "
      "[--skew zipf:S]");
  std::vector<std::string> words;
  GenerateOptions options;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--seed" && i + 1 < args.size()) {
      char* end = nullptr;
      options.seed = std::strtoull(args[++i].c_str(), &end, 10);
      if (*end != '\0') return s.Fail(usage, at);
    } else if (args[i] == "--skew" && i + 1 < args.size()) {
      const std::string& skew = args[++i];
      char* end = nullptr;
      options.zipf = skew.starts_with("zipf:") ? std::strtod(skew.c_str() + 5, &end) : -1;
      if (!end || *end != '\0' || options.zipf <= 0 || options.zipf > 10) {
        return s.Fail(Status::Validation("--skew takes zipf:S, S above 0 (1 is Zipf's law; "
                                         "higher, more skewed)"),
                      at);
      }
    } else if ((args[i] == "PER" || args[i] == "per") && i + 1 < args.size()) {
      options.per = args[++i];
    } else if ((args[i] == "BY" || args[i] == "by") && i + 1 < args.size()) {
      options.type_attribute = args[++i];
    } else if (args[i].starts_with("--")) {
      return s.Fail(usage, at);
    } else {
      words.push_back(args[i]);
    }
  }
  if (words.size() != 3) return s.Fail(usage, at);
  char* end = nullptr;
  options.count = std::strtoll(words[2].c_str(), &end, 10);
  if (*end != '\0' || options.count < 1 || options.count > 10000000) {
    return s.Fail(Status::Validation("COUNT is a number of items from 1 to 10,000,000"), at);
  }
  if (options.zipf > 0 && !options.per) {
    return s.Fail(Status::Validation("--skew draws parents: give PER PARENT-ENTITY"), at);
  }
  options.entity = words[1];
  Result<TableSchemaPtr> t = s.db().TableSchema(words[0]);
  if (!t.ok()) return s.Fail(s.NameMissingTable(t.status(), words[0]), at);
  std::vector<Item> items;
  if (Status st = ScanAll(s, words[0], &items); !st.ok()) return s.Fail(st, at);
  options.cancel = &g_interrupted;
  Result<Generated> made = GenerateItems(**t, items, options);
  if (!made.ok()) return s.Fail(made.status(), at);
  const int64_t n = static_cast<int64_t>(made->items.size());
  if (made->interrupted) {  // Ctrl-C while making them: nothing was written
    return s.Fail(Status(ErrorCode::kInterrupted,
                         fmt::format("Interrupted after making {} of {} {} items: nothing was "
                                     "written",
                                     n, options.count, options.entity)),
                  at);
  }
  if (s.local) {  // the bulk-import path: all or nothing
    Result<LocalControl::ImportResult> r =
        s.local->ImportItems(words[0], made->items, &g_interrupted);
    if (!r.ok()) return s.Fail(r.status(), at);
  } else {
    std::vector<std::string> keys = (*t)->key.Names();
    api::BatchWriter::Options w;
    w.threads = 4;
    w.cancel = &g_interrupted;
    api::BatchWriter writer(s.db(), words[0], keys, w);
    for (Item& item : made->items) {
      if (Status st = writer.Add(std::move(item)); !st.ok()) return s.Fail(st, at);
    }
    if (Status st = writer.Finish(); !st.ok()) return s.Fail(st, at);
  }
  s.Notice(fmt::format(
      "-- {} {} item{} generated into {} (seed {}{}{}): {}{}\n", n, options.entity,
      n == 1 ? "" : "s", words[0], options.seed,
      options.per ? ", each under " + Article(*options.per) + " " + *options.per : std::string(),
      options.zipf > 0 ? fmt::format(", zipf:{:g}", options.zipf) : std::string(), made->shape,
      made->skipped ? fmt::format(" · {} not made: their keys were taken", made->skipped)
                    : std::string()));
  return true;
}

bool RunModel(Session::State& s, const std::vector<std::string>& given, Location at) {
  std::vector<std::string> args = given;
  if (args.empty()) {  // the database's one table
    Result<ListTablesResponse> tables = s.db().ListTables({});
    if (!tables.ok()) return s.Fail(tables.status(), at);
    if (tables->table_names.size() == 1) args = tables->table_names;
    if (args.empty()) {
      return s.Fail(
          Status::Validation(tables->table_names.empty()
                                 ? std::string("usage: .model TABLE (there are no tables yet)")
                                 : fmt::format("usage: .model TABLE, one of {}",
                                               fmt::join(tables->table_names, ", "))),
          at);
    }
  }
  std::string by;  // .model TABLE BY ATTRIBUTE: the type attribute, named
  if (args.size() == 3 && (args[1] == "BY" || args[1] == "by")) {
    by = args[2];
    args.resize(1);
  }
  if (args.size() != 1) {
    return s.Fail(Status::Validation("usage: .model [TABLE [BY TYPE-ATTRIBUTE]]"), at);
  }
  Result<TableSchemaPtr> t = s.db().TableSchema(args[0]);
  if (!t.ok()) return s.Fail(t.status(), at);
  ScanRequest scan;
  scan.table_name = args[0];
  scan.return_consumed_capacity = ReturnConsumedCapacity::kTotal;
  // On an endpoint the model is inferred from a sample: the first pages a Scan returns, up to
  // kSample items (a whole production table is not read to describe its shape).
  constexpr size_t kSample = 10000;
  const bool sampled = !s.settings.endpoint.empty();
  std::vector<Item> items;
  double units = 0;
  bool more = false;
  while (true) {
    Result<ScanResponse> page = s.db().Scan(scan);
    if (!page.ok()) return s.Fail(page.status(), at);
    if (page->consumed_capacity) units += page->consumed_capacity->total.capacity_units;
    for (Item& item : page->items) items.push_back(std::move(item));
    if (!page->last_evaluated_key) break;
    if (sampled && items.size() >= kSample) {
      more = true;
      break;
    }
    scan.exclusive_start_key = std::move(page->last_evaluated_key);
  }
  if (Status named = CheckTypeAttribute(args[0], items, by); !named.ok()) return s.Fail(named, at);
  s.Out(FormatModel(**t, InferModel(**t, items, by)));
  if (sampled) {
    s.Notice(
        fmt::format("-- .model on {}: {} ({} read by Scan · {})\n", s.settings.endpoint,
                    more ? fmt::format("a sample, the first {} items of the table", items.size())
                         : fmt::format("every item of the table ({})", items.size()),
                    items.size(), CapacityText(units, "RCU")));
  }
  return true;
}

namespace {

std::string Percent(double part, double whole) {
  if (whole <= 0) return "0%";
  double p = 100 * part / whole;
  return p >= 10 || p == 0 ? fmt::format("{:.0f}%", p) : fmt::format("{:.1f}%", p);
}

size_t Quantile(const std::vector<size_t>& sorted, double q) {
  if (sorted.empty()) return 0;
  size_t i = static_cast<size_t>(std::ceil(q * static_cast<double>(sorted.size()))) - 1;
  return sorted[std::min(i, sorted.size() - 1)];
}

}  // namespace

// .partitions TABLE [INDEX]: the partition key values by size, the share of the largest 1%, and
// the item sizes.
bool RunPartitions(Session::State& s, const std::vector<std::string>& args, Location at) {
  if (args.empty() || args.size() > 2) {
    return s.Fail(Status::Validation("usage: .partitions TABLE [INDEX]"), at);
  }
  std::string table = args[0];
  std::optional<std::string> index;
  if (args.size() == 2) index = args[1];
  // TABLE.INDEX, as --plan names it, when there is no table of that name.
  if (!index && !s.db().TableSchema(table).ok()) {
    for (size_t dot = table.rfind('.'); dot != std::string::npos && dot > 0;
         dot = table.rfind('.', dot - 1)) {
      if (s.db().TableSchema(table.substr(0, dot)).ok()) {
        index = table.substr(dot + 1);
        table = table.substr(0, dot);
        break;
      }
    }
  }
  const std::string target = index ? table + "." + *index : table;
  bool declined = false;
  if (!Confirm(s, ".partitions",
               fmt::format(".partitions reads every item of {} (a Scan, billed "
                           "by the endpoint). Type the table's name to go on: ",
                           target),
               table, at, &declined)) {
    return declined;
  }
  Result<PartitionStats> stats = CollectPartitions(s.db(), table, index, &g_interrupted);
  if (!stats.ok()) return s.Fail(stats.status(), at);
  const bool machine = IsMachineMode(s.settings.mode);
  std::vector<Item> rows;
  const size_t shown =
      machine ? stats->partitions.size() : std::min<size_t>(10, stats->partitions.size());
  for (size_t i = 0; i < shown; ++i) {
    const PartitionStat& p = stats->partitions[i];
    Item row;
    row["partition"] = KeyCell(p.key);
    row["items"] = AttributeValue::N(Number::FromInt(p.items));
    row["bytes"] = AttributeValue::N(Number::FromInt(p.bytes));
    if (machine) {
      row["bytes_share"] = AttributeValue::N(
          Number::Parse(fmt::format("{:.6g}", stats->bytes > 0
                                                  ? static_cast<double>(p.bytes) /
                                                        static_cast<double>(stats->bytes)
                                                  : 0))
              .value());
    } else {
      row["of bytes"] = AttributeValue::S(
          Percent(static_cast<double>(p.bytes), static_cast<double>(stats->bytes)));
    }
    rows.push_back(std::move(row));
  }
  RenderOptions options;
  options.mode = s.settings.mode;
  options.headers = s.settings.headers;
  options.key_columns = {"partition", "items", "bytes", "of bytes", "bytes_share"};
  s.Out(RenderItems(rows, options));
  const size_t n = stats->partitions.size();
  std::string summary =
      fmt::format("-- {}: {} partition key value{}, {} item{}, {} bytes", target, n,
                  n == 1 ? "" : "s", stats->items, stats->items == 1 ? "" : "s", stats->bytes);
  if (!machine && n > shown) summary += fmt::format(" · the largest {} shown", shown);
  summary += "\n";
  if (n > 0) {
    const size_t top = std::max<size_t>(1, n / 100);
    int64_t top_items = 0, top_bytes = 0;
    std::vector<const PartitionStat*> by_items;
    for (const PartitionStat& p : stats->partitions) by_items.push_back(&p);
    std::stable_sort(
        by_items.begin(), by_items.end(),
        [](const PartitionStat* a, const PartitionStat* b) { return a->items > b->items; });
    for (size_t i = 0; i < top; ++i) {
      top_bytes += stats->partitions[i].bytes;
      top_items += by_items[i]->items;
    }
    summary += fmt::format(
        "-- {} hold{} {} of the items and {} of the bytes; the most items under one value: {} "
        "({})\n",
        n >= 100 ? fmt::format("the largest 1% ({} values)", top)
                 : fmt::format("the largest value (of {})", n),
        n >= 100 ? "" : "s",
        Percent(static_cast<double>(top_items), static_cast<double>(stats->items)),
        Percent(static_cast<double>(top_bytes), static_cast<double>(stats->bytes)),
        by_items[0]->key, by_items[0]->items);
    const std::vector<size_t>& z = stats->sizes;
    summary += fmt::format(
        "-- item sizes in bytes: smallest {}, median {}, 90th percentile {}, 99th {}, largest {}\n",
        z.front(), Quantile(z, 0.5), Quantile(z, 0.9), Quantile(z, 0.99), z.back());
  }
  summary += fmt::format("-- {} · read with a Scan: {}\n",
                         "a partition key value is an item collection: DynamoDB serves each from "
                         "one physical partition (3,000 RCU and 1,000 WCU per second)",
                         CapacityText(stats->read_units, "RCU"));
  s.Notice(summary);
  return true;
}

}  // namespace keyhole::shell
