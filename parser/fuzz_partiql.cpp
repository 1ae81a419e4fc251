// libFuzzer target for the PartiQL front end (built with -DKEYHOLE_FUZZ=ON, see
// parser/CMakeLists.txt). The first byte picks how many `?` parameters are bound and which
// values they get; the rest is the statement (and, for the script functions, the script).
//
// Besides crashes and sanitizer reports, it checks what partiql.h promises: every error is a
// ValidationException with a position inside the text; a parsed WHERE is a well-formed
// condition tree that core/evaluate.h accepts and can evaluate; SET/REMOVE actions are
// well-formed; the DynamoDB text of a DML statement parses again to the same kind; script
// splitting returns pieces of the script, and IsComplete agrees with it.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "core/evaluate.h"
#include "parser/fuzz_ast_checks.h"
#include "parser/partiql.h"

namespace {

using keyhole::AttributeValue;
using keyhole::Number;
using namespace keyhole::expr;    // NOLINT: a fuzz driver
using namespace keyhole::parser;  // NOLINT

using keyhole::fuzz::Check;
using keyhole::fuzz::CheckPath;

void CheckOperand(const Operand& o, size_t size) { keyhole::fuzz::CheckOperand(o, size, false); }
void CheckCondition(const Condition& c, size_t size) {
  keyhole::fuzz::CheckCondition(c, size, false);
}

void CheckWhere(const std::optional<Condition>& where, size_t size) {
  if (!where) return;
  CheckCondition(*where, size);
  Check(ValidateCondition(*where, Kind::kCondition).ok(), "validated condition");
  (void)Evaluate(*where, keyhole::Item{});
  (void)Evaluate(*where, keyhole::Item{{"a", AttributeValue::N(Number::FromInt(1))}});
}

void CheckUpdate(const UpdateExpression& u, size_t size) {
  Check(!u.actions.empty(), "update actions");
  for (const UpdateAction& a : u.actions) {
    Check(a.position < size, "action position");
    CheckPath(a.path);
    if (a.kind == UpdateActionKind::kAdd || a.kind == UpdateActionKind::kDelete) {
      Check(a.value.kind == OperandKind::kValue && a.value.value.IsSet(), "set_add value");
    } else if (a.kind == UpdateActionKind::kSet) {
      CheckOperand(a.value, size);
    }
  }
}

// The DML statement's own checks, and its DynamoDB text parsing again to the same kind.
void CheckStatement(const Statement& s, std::string_view text,
                    const std::vector<AttributeValue>& params, bool reparse) {
  const size_t size = text.size();
  switch (s.kind()) {
    case StatementKind::kSelect:
      CheckWhere(s.as<SelectStatement>().where, size);
      for (const Path& p : s.as<SelectStatement>().projection) CheckPath(p);
      Check(s.as<SelectStatement>().select_all == s.as<SelectStatement>().projection.empty(),
            "projection");
      break;
    case StatementKind::kExists:
      CheckWhere(s.as<ExistsStatement>().select.where, size);
      break;
    case StatementKind::kUpdate:
      CheckWhere(s.as<UpdateStatement>().where, size);
      CheckUpdate(s.as<UpdateStatement>().update, size);
      break;
    case StatementKind::kDelete:
      CheckWhere(s.as<DeleteStatement>().where, size);
      break;
    case StatementKind::kCreateTable:
      (void)ToCreateTableRequest(s.as<CreateTableStatement>());
      return;
    case StatementKind::kCall:
      Check(s.as<CallStatement>().body.IsObject(), "CALL body");
      return;
    default:
      break;
  }
  if (s.dynamodb_text.empty()) return;
  Check(text.find(s.dynamodb_text) != std::string_view::npos, "DynamoDB text is a substring");
  if (!reparse) return;
  ParseResult again = ParseStatement(s.dynamodb_text, params);
  Check(again.ok(), "DynamoDB text parses again");
  Check(again.statement().kind() == s.kind(), "same kind");
  Check(!again.statement().explain && !again.statement().scan, "no prefixes");
}

void CheckParse(std::string_view text, const std::vector<AttributeValue>& params) {
  ParseResult r = ParseStatement(text, params);
  if (!r.ok()) {
    const ParseError& e = r.error();
    Check(e.status.IsValidation(), "error type");
    Check(!e.status.message().empty(), "error message");
    Check(e.position.offset <= text.size(), "error offset");
    Check(e.position == PositionOf(text, e.position.offset), "error position");
    return;
  }
  CheckStatement(r.statement(), text, params, /*reparse=*/true);
}

void CheckScript(std::string_view script) {
  const std::vector<ScriptStatement> statements = SplitScript(script);
  for (const ScriptStatement& s : statements) {
    Check(!s.text.empty(), "script statement not empty");
    Check(s.start.offset < script.size(), "script statement start");
    Check(script.substr(s.start.offset, s.text.size()) == s.text, "script statement text");
    Check(s.start == PositionOf(script, s.start.offset), "script statement position");
  }
  const bool all_terminated = statements.empty() || statements.back().terminated;
  if (IsComplete(script)) Check(all_terminated, "complete script ends with ';'");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t mode = data[0];
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);

  static const std::vector<AttributeValue> palette = {
      AttributeValue::S("a"),
      AttributeValue::N(Number::FromInt(1)),
      AttributeValue::L({AttributeValue::S("x"), AttributeValue::N(Number::FromInt(2))}),
      AttributeValue::SS({"x", "y"}),
      AttributeValue::M({{"k", AttributeValue::Null()}}),
      AttributeValue::BS({"\x01"}),
      AttributeValue::Bool(true),
      AttributeValue::L({}),
  };
  std::vector<AttributeValue> params;
  for (int i = 0; i < mode % 4; ++i) params.push_back(palette[(mode / 4 + i) % palette.size()]);

  CheckParse(text, params);
  CheckScript(text);
  // The pieces of the input as a script, each as a statement (a few of them).
  const std::vector<ScriptStatement> statements = SplitScript(text);
  for (size_t i = 0; i < statements.size() && i < 4; ++i) CheckParse(statements[i].text, params);
  return 0;
}
