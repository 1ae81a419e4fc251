// libFuzzer target for the native expression parser (built with -DKEYHOLE_FUZZ=ON, see
// parser/CMakeLists.txt). The first byte picks the expression kind; the rest is the expression.
// Besides crashes and sanitizer reports, it checks the invariants a successful parse promises:
// positions inside the text, paths of 1..32 elements with indexes in int32 range, and the shape
// of every condition and operand node; and that every error is a ValidationException.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <string_view>

#include "parser/expression_parser.h"
#include "parser/fuzz_ast_checks.h"
#include "parser/syntax_error.h"

namespace {

using keyhole::AttributeValue;
using namespace keyhole::expr;  // NOLINT: a fuzz driver

using keyhole::fuzz::Check;
using keyhole::fuzz::CheckPath;

void CheckOperand(const Operand& o, size_t size) { keyhole::fuzz::CheckOperand(o, size, true); }
void CheckCondition(const Condition& c, size_t size) {
  keyhole::fuzz::CheckCondition(c, size, true);
}

template <typename T>
void CheckError(const keyhole::Result<T>& r) {
  if (r.ok()) return;
  Check(r.status().IsValidation(), "error type");
  Check(!r.status().message().empty(), "error message");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t mode = data[0];
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);

  static const std::map<std::string, std::string> names = {
      {"#a", "a"}, {"#b", "b.c"}, {"#c", "c"}, {"#0", "zero"}};
  static const std::map<std::string, AttributeValue> values = {
      {":a", AttributeValue::S("a")},
      {":b", AttributeValue::Bool(true)},
      {":c", AttributeValue::L({AttributeValue::Null()})},
      {":0", AttributeValue::S("")}};
  const keyhole::parser::Placeholders ph{&names, &values};
  keyhole::parser::UsedPlaceholders used;

  switch (mode % 5) {
    case 0:
    case 1: {
      const Kind kind = mode % 5 == 0 ? Kind::kCondition : Kind::kKeyCondition;
      auto r = keyhole::parser::ParseCondition(text, kind, ph, &used);
      CheckError(r);
      if (r.ok()) CheckCondition(*r, text.size());
      break;
    }
    case 2: {
      auto r = keyhole::parser::ParseUpdate(text, ph, &used);
      CheckError(r);
      if (r.ok()) {
        Check(!r->actions.empty(), "update actions");
        for (const UpdateAction& a : r->actions) {
          Check(a.position < text.size(), "action position");
          CheckPath(a.path);
          if (a.kind != UpdateActionKind::kRemove) CheckOperand(a.value, text.size());
        }
      }
      break;
    }
    case 3: {
      auto r = keyhole::parser::ParseProjection(text, ph, &used);
      CheckError(r);
      if (r.ok()) {
        Check(!r->paths.empty(), "projection paths");
        for (const Path& p : r->paths) CheckPath(p);
      }
      break;
    }
    case 4: {
      // The error-context builder on its own, at an offset taken from the input.
      const size_t offset =
          text.empty() ? 0 : (static_cast<size_t>(mode) * 7919) % (text.size() + 1);
      const std::string msg = keyhole::parser::SyntaxErrorText(text, offset);
      Check(msg.rfind("Syntax error; token: \"", 0) == 0, "syntax error text");
      break;
    }
  }
  for (const std::string& n : used.names) Check(names.count(n) == 1, "used name defined");
  for (const std::string& v : used.values) Check(values.count(v) == 1, "used value defined");
  return 0;
}
