// Request-level checks of the expression parameters (reference §3.3) and NativeExpressionParser.
// No PEGTL here: the grammar is in expression_parser.cpp.
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "core/item.h"
#include "parser/expression_parser.h"

namespace keyhole::parser {
namespace {

// `#` or `:` followed by one or more of [A-Za-z0-9_].
bool IsPlaceholderKey(std::string_view key, char sigil) {
  if (key.size() < 2 || key[0] != sigil) return false;
  for (char c : key.substr(1)) {
    const bool ok =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    if (!ok) return false;
  }
  return true;
}

template <typename Map>
Status CheckKeys(const Map& map, char sigil, std::string_view parameter) {
  for (const auto& [key, unused] : map) {
    if (!IsPlaceholderKey(key, sigil)) {
      return Status::Validation(std::string(parameter) +
                                " contains invalid key: Syntax error; key: \"" + key + "\"");
    }
  }
  return Status::OK();
}

template <typename Map>
Status CheckUsed(const Map& map, const std::set<std::string>& used, std::string_view parameter) {
  std::string unused;
  for (const auto& [key, value] : map) {
    if (used.count(key) != 0) continue;
    if (!unused.empty()) unused += ", ";
    unused += key;
  }
  if (unused.empty()) return Status::OK();
  return Status::Validation("Value provided in " + std::string(parameter) +
                            " unused in expressions: keys: {" + unused + "}");
}

}  // namespace

Status ValidatePlaceholderMaps(const expr::ExpressionInput& input) {
  const bool any_expression = input.condition || input.filter || input.key_condition ||
                              input.projection || input.update || input.search_condition;
  if (input.names && !any_expression) {
    return Status::Validation(
        "ExpressionAttributeNames can only be specified when using expressions");
  }
  if (input.values && !any_expression) {
    return Status::Validation(
        "ExpressionAttributeValues can only be specified when using expressions");
  }
  if (input.names && input.names->empty()) {
    return Status::Validation("ExpressionAttributeNames must not be empty");
  }
  if (input.values && input.values->empty()) {
    return Status::Validation("ExpressionAttributeValues must not be empty");
  }
  if (input.names) {
    KH_RETURN_IF_ERROR(CheckKeys(*input.names, '#', "ExpressionAttributeNames"));
    // A name reached through a placeholder is checked like an item's attribute names. The
    // empty-name text is DynamoDB's ("ExpressionAttributeNames contains invalid value: Empty
    // attribute name for key #DE", quoted by applications that met it); the too-long text
    // follows the same pattern with ValidateItem's wording.
    for (const auto& [key, name] : *input.names) {
      std::string_view problem = AttributeNameProblem(name);
      if (!problem.empty()) {
        return Status::Validation("ExpressionAttributeNames contains invalid value: " +
                                  std::string(problem) + " for key " + key);
      }
    }
  }
  if (input.values) {
    KH_RETURN_IF_ERROR(CheckKeys(*input.values, ':', "ExpressionAttributeValues"));
    for (const auto& [key, value] : *input.values) {
      Status s = ValidateValue(value);
      if (!s.ok()) {
        return Status::Validation(
            "ExpressionAttributeValues contains invalid value: " + s.message() + " for key " + key);
      }
    }
  }
  return Status::OK();
}

Status CheckAllPlaceholdersUsed(const expr::ExpressionInput& input, const UsedPlaceholders& used) {
  if (input.names) {
    KH_RETURN_IF_ERROR(CheckUsed(*input.names, used.names, "ExpressionAttributeNames"));
  }
  if (input.values) {
    KH_RETURN_IF_ERROR(CheckUsed(*input.values, used.values, "ExpressionAttributeValues"));
  }
  return Status::OK();
}

Result<expr::ParsedExpressions> NativeExpressionParser::Parse(
    const expr::ExpressionInput& input) const {
  KH_RETURN_IF_ERROR(ValidatePlaceholderMaps(input));
  Placeholders placeholders;
  if (input.names) placeholders.names = &*input.names;
  if (input.values) placeholders.values = &*input.values;
  UsedPlaceholders used;
  expr::ParsedExpressions out;

  if (input.update) {
    KH_ASSIGN_OR_RETURN(expr::UpdateExpression u, ParseUpdate(*input.update, placeholders, &used));
    out.update = std::make_shared<const expr::UpdateExpression>(std::move(u));
  }
  auto condition = [&](const std::optional<std::string>& text, expr::Kind kind,
                       std::shared_ptr<const expr::Condition>* dest) -> Status {
    if (!text) return Status::OK();
    KH_ASSIGN_OR_RETURN(expr::Condition c, ParseCondition(*text, kind, placeholders, &used));
    *dest = std::make_shared<const expr::Condition>(std::move(c));
    return Status::OK();
  };
  KH_RETURN_IF_ERROR(condition(input.condition, expr::Kind::kCondition, &out.condition));
  KH_RETURN_IF_ERROR(condition(input.key_condition, expr::Kind::kKeyCondition, &out.key_condition));
  KH_RETURN_IF_ERROR(condition(input.filter, expr::Kind::kFilter, &out.filter));
  KH_RETURN_IF_ERROR(
      condition(input.search_condition, expr::Kind::kSearchCondition, &out.search_condition));
  if (input.projection) {
    KH_ASSIGN_OR_RETURN(expr::ProjectionExpression p,
                        ParseProjection(*input.projection, placeholders, &used));
    out.projection = std::make_shared<const expr::ProjectionExpression>(std::move(p));
  }

  KH_RETURN_IF_ERROR(CheckAllPlaceholdersUsed(input, used));
  return out;
}

}  // namespace keyhole::parser
