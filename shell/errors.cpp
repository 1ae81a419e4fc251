// How the session says what went wrong: Error lines with the statement's place, a parse error's
// caret, and the hints that name the likely fix (a table or attribute name of another case, an
// index for a refused Scan, the API form of an INSERT too long for ExecuteStatement).

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/ddb_json.h"
#include "core/expression.h"
#include "core/json.h"
#include "core/utf8.h"
#include "modeling/model.h"
#include "parser/partiql.h"
#include "parser/suggest.h"
#include "shell/commands.h"
#include "shell/session_state.h"
#include "shell/terminal.h"

namespace keyhole::shell {

void Session::State::NoteError(const Status& status) { report.NoteError(status); }

namespace {

// For a missing table `name`: the closest existing table name ("did you mean Social? names
// are case-sensitive"), or what SHOW TABLES would say.
std::string TableNameHint(Backend& db, const std::string& name) {
  Result<ListTablesResponse> tables = db.ListTables({});
  if (!tables.ok()) return "";
  if (tables->table_names.empty()) {
    return "the database has no tables yet: CREATE TABLE makes one (.help CREATE TABLE)";
  }
  if (std::optional<std::string> best = parser::ClosestName(name, tables->table_names)) {
    return fmt::format("did you mean {}? Table names are case-sensitive", *best);
  }
  std::string names;
  for (const std::string& t : tables->table_names) names += (names.empty() ? "" : ", ") + t;
  return "the tables are " + names + " (SHOW TABLES lists them)";
}

// For "Requested resource not found: Table: X not found": TableNameHint for X.
std::string MissingTableHint(Backend& db, const std::string& message) {
  static constexpr std::string_view kPrefix = "Requested resource not found: Table: ";
  if (!message.starts_with(kPrefix) || !message.ends_with(" not found")) return "";
  return TableNameHint(
      db, message.substr(kPrefix.size(),
                         message.size() - kPrefix.size() - std::string_view(" not found").size()));
}

}  // namespace

Status Session::State::NameMissingTable(Status status, std::string_view table) {
  if (!status.IsNotFound() || table.empty()) return status;
  // On DynamoDB a table takes reads and writes only once ACTIVE: before that, it is "not
  // found" though DescribeTable shows it.
  if (!settings.endpoint.empty()) {
    if (Result<DescribeTableResponse> d = db().DescribeTable({std::string(table)});
        d.ok() && d->table.status != "ACTIVE") {
      return status.WithHint(fmt::format(
          "table {} is {} on {}: it takes reads and writes once it is ACTIVE (the shell's CREATE "
          "TABLE waits for that; DESCRIBE \"{}\" shows its status)",
          table, d->table.status, settings.endpoint, table));
    }
  }
  if (status.message() != "Requested resource not found" || !status.hint().empty()) {
    return status;
  }
  std::string hint = TableNameHint(db(), std::string(table));
  return status.WithHint(
      fmt::format("there is no table {}{}{}", table, hint.empty() ? "" : ": ", hint));
}

// "  hint: <hint>\n"; for a person at a terminal, word-wrapped to its width, the lines after
// the first indented under the hint's start.
std::string HintLines(std::string_view hint, bool terminal) {
  constexpr std::string_view kHead = "  hint: ";
  if (!terminal) return fmt::format("{}{}\n", kHead, hint);
  const size_t width = std::max<size_t>(40, TerminalColumns());
  std::string out(kHead), line;
  size_t column = kHead.size();
  for (size_t i = 0; i < hint.size();) {
    const size_t space = hint.find(' ', i);
    const std::string_view word =
        hint.substr(i, space == std::string_view::npos ? std::string_view::npos : space - i);
    const size_t length = utf8::TextWidth(word);
    if (column > kHead.size() && column + 1 + length > width) {
      out += "\n" + std::string(kHead.size(), ' ');
      column = kHead.size();
    } else if (column > kHead.size()) {
      out += ' ';
      ++column;
    }
    out += word;
    column += length;
    if (space == std::string_view::npos) break;
    i = space + 1;
  }
  return out + "\n";
}

bool Session::State::Fail(const Status& given, Location at) {
  Status status = given;
  if (status.hint().empty() && status.IsNotFound()) {
    status.WithHint(MissingTableHint(db(), status.message()));
  }
  NoteError(status);
  // A script stopped by Ctrl-C says so in one line ("interrupted at FILE line N; ..."), not
  // with an error for the statement it stopped (unless that has more to say).
  if (status.code() == ErrorCode::kInterrupted && status.message() == "Interrupted" &&
      !at.source.empty()) {
    return false;
  }
  std::string text = fmt::format("Error: {}\n", status.ToString());
  if (!at.source.empty()) text += fmt::format("  at {} line {}\n", at.source, at.line);
  if (!status.hint().empty()) text += HintLines(status.hint(), settings.terminal);
  // A failed condition with ReturnValuesOnConditionCheckFailure=ALL_OLD carries the item.
  if (const auto& item = status.item()) text += fmt::format("  item: {}\n", ItemToJsonText(*item));
  if (const auto& reasons = status.cancellation_reasons()) {
    for (size_t i = 0; i < reasons->size(); ++i) {
      const Status::CancellationReason& r = (*reasons)[i];
      text += fmt::format("  [{}] {}", i, r.code);
      if (!r.message.empty()) text += ": " + r.message;
      if (r.item) text += " " + ItemToJsonText(*r.item);
      text += "\n";
    }
  }
  sink->Err(text);
  return false;
}

namespace {

void CollectPaths(const expr::Operand& o, std::vector<std::string>* out) {
  if (o.kind == expr::OperandKind::kPath && !o.path.elements.empty() &&
      std::find(out->begin(), out->end(), o.path.elements.front().name) == out->end()) {
    out->push_back(o.path.elements.front().name);
  }
  for (const auto& a : o.args) CollectPaths(a, out);
}
void CollectPaths(const expr::Condition& c, std::vector<std::string>* out) {
  for (const auto& o : c.operands) CollectPaths(o, out);
  for (const auto& child : c.children) CollectPaths(child, out);
}

}  // namespace

// A refused SELECT's advice, checked against the table's items (on a file, the first 200; not on
// an endpoint, where reading costs): a WHERE attribute no item has is named, with the closest
// name items do have, instead of advice to index it; and index advice names the table's own type
// attribute (Type, _type, ...) where it said a generic `entityType`.
Status WithDataHints(Session::State& s, Status status, const parser::Statement& st) {
  if (!s.settings.endpoint.empty() || st.kind() != parser::StatementKind::kSelect ||
      !status.message().starts_with("keyhole refuses to scan") ||
      status.hint().starts_with("did you mean")) {  // a key's name in another case
    return status;
  }
  const auto& select = st.as<parser::SelectStatement>();
  Result<TableSchemaPtr> table = s.db().TableSchema(select.table);
  if (!table.ok() || !select.where) return status;
  ScanRequest scan;
  scan.table_name = select.table;
  scan.limit = 200;
  Result<ScanResponse> page = s.db().Scan(scan);
  if (!page.ok() || page->items.empty()) return status;
  std::vector<Item> items(page->items.begin(), page->items.end());
  std::vector<std::string> names;
  CollectPaths(*select.where, &names);
  std::set<std::string> seen;
  for (const Item& item : items) {
    for (const auto& [name, value] : item) seen.insert(name);
  }
  for (const std::string& name : names) {
    bool key = (*table)->key.Has(name);
    for (const IndexDescription& idx : (*table)->indexes) key = key || idx.key.Has(name);
    if (key || seen.contains(name)) continue;
    const std::vector<std::string> have(seen.begin(), seen.end());
    std::string hint = fmt::format(
        "no item of {} has an attribute {}{}", select.table, name,
        page->last_evaluated_key ? fmt::format(" (of the first {} read)", items.size()) : "");
    if (std::optional<std::string> close = parser::ClosestName(name, have)) {
      hint += fmt::format(": did you mean {}? Attribute names are case-sensitive", *close);
    }
    return Status(status).WithHint(hint);
  }
  const std::string generic = "(entityType S,";
  if (status.hint().find(generic) == std::string::npos) return status;
  const std::string type = modeling::TypeAttributeOf(items);
  if (type.empty() || type == "entityType") return status;
  std::string hint = status.hint();
  const std::string named = parser::NameInStatement(type);
  for (size_t at = 0; (at = hint.find("entityType", at)) != std::string::npos;) {
    hint.replace(at, 10, named);
    at += named.size();
  }
  return Status(status).WithHint(hint);
}

namespace {

// The source line to show under a parse error and the caret line under `column` (1-based, in
// characters). A long line is cut to a window of kCaretWindow characters on either side of the
// column, marked with "…"; tabs show as spaces and bytes that are not UTF-8 or control
// characters as '?', so the caret lines up and the terminal gets printable text.
constexpr size_t kCaretWindow = 60;
std::pair<std::string, std::string> CaretExcerpt(std::string_view line, int column) {
  std::vector<std::string> chars;  // one printable character each
  for (size_t i = 0; i < line.size();) {
    const auto c = static_cast<unsigned char>(line[i]);
    const size_t n = utf8::SequenceLength(line.substr(i));
    if (n == 0) {
      chars.emplace_back("?");
      ++i;
      continue;
    }
    std::string ch(line.substr(i, n));
    if (ch == "\t") ch = " ";
    if (n == 1 && (c < 0x20 || c == 0x7F)) ch = "?";
    chars.push_back(std::move(ch));
    i += n;
  }
  const size_t col = static_cast<size_t>(std::max(column, 1)) - 1;
  size_t from = col > kCaretWindow ? col - kCaretWindow : 0;
  size_t to = std::min(chars.size(), col + kCaretWindow);
  std::string shown = from > 0 ? "…" : "";
  for (size_t i = from; i < to; ++i) shown += chars[i];
  if (to < chars.size()) shown += "…";
  std::string caret(col - from + (from > 0 ? 1 : 0), ' ');
  return {shown, caret + "^"};
}

// An INSERT past ExecuteStatement's 8,192 characters: the same item as the API form's PutItem,
// which has no statement limit (an item may be 400 KB). "" for anything else.
std::string LongInsertHint(Session::State& s, const Status& error, std::string_view text) {
  if (error.message().find("Member must have length less than or equal to") == std::string::npos) {
    return "";
  }
  parser::ParseResult parsed = parser::ParseStatementIgnoringLength(text);
  if (!parsed.ok() || parsed.statement().kind() != parser::StatementKind::kInsert) return "";
  const auto& insert = parsed.statement().as<parser::InsertStatement>();
  json::Value request = json::Value::MakeObject();
  request.Add("TableName", json::Value::String(insert.table));
  request.Add("Item", ItemToJson(insert.item));
  if (Result<TableSchemaPtr> schema = s.db().TableSchema(insert.table); schema.ok()) {
    // PartiQL's INSERT never replaces an item: nor does this.
    request.Add("ConditionExpression", json::Value::String("attribute_not_exists(#pk)"));
    json::Value names = json::Value::MakeObject();
    names.Add("#pk", json::Value::String((*schema)->key.partition.name));
    request.Add("ExpressionAttributeNames", std::move(names));
  }
  std::string form = "PutItem " + json::Write(request) + ";";
  constexpr size_t kShown = 64 * 1024;
  if (form.size() > kShown) form = Shorten(form, kShown);
  return fmt::format(
      "ExecuteStatement takes a statement of at most 8,192 characters; an item this large goes "
      "in the API form, whose request may be 16 MB and whose item 400 KB. The same INSERT as a "
      "PutItem: {}",
      form);
}

}  // namespace

// A parse error with the offending line and a caret under its column, then the hint.
bool FailParse(Session::State& s, const parser::ParseError& e, std::string_view text, Location at) {
  std::string out = fmt::format("Error: {}\n", e.status.ToString());
  size_t begin = 0;
  for (int l = 1; l < e.position.line && begin != std::string_view::npos; ++l) {
    begin = text.find('\n', begin);
    if (begin != std::string_view::npos) ++begin;
  }
  if (begin != std::string_view::npos) {
    std::string_view rest = text.substr(begin);
    auto [line, caret] = CaretExcerpt(rest.substr(0, rest.find('\n')), e.position.column);
    std::string where = at.source.empty() ? "" : fmt::format("{} ", at.source);
    out += fmt::format("  at {}line {}, column {}:\n  {}\n  {}\n", where,
                       at.line + e.position.line - 1, e.position.column, line, caret);
  }
  std::string hint = e.status.hint();
  if (hint.empty()) hint = LongInsertHint(s, e.status, text);
  if (!hint.empty()) out += HintLines(hint, s.settings.terminal);
  s.NoteError(e.status);
  s.sink->Err(out);
  return false;
}

}  // namespace keyhole::shell
