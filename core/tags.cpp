#include "core/tags.h"

#include <fmt/format.h>

#include <cctype>
#include <set>

#include "core/schema.h"
#include "core/utf8.h"

namespace keyhole {

namespace {

constexpr size_t kMaxTags = 50;
constexpr std::string_view kTooMany =
    "Number of Tags exceed the current limit for the provided ResourceArn";

// Characters of UTF-8 text (bytes that do not continue a sequence).
size_t Characters(std::string_view s) { return utf8::CountCharacters(s); }

// Letters, digits, white space and + - = . _ : /. Non-ASCII characters are taken as the
// Unicode letters the guide allows (keyhole does not classify them further).
bool LegalCharacters(std::string_view s) {
  for (unsigned char c : s) {
    if (c >= 0x80) continue;
    const bool ok = std::isalnum(c) || std::isspace(c) || c == '+' || c == '-' || c == '=' ||
                    c == '.' || c == '_' || c == ':' || c == '/';
    if (!ok) return false;
  }
  return true;
}

Status CheckKey(const std::string& key) {
  const size_t n = Characters(key);
  if (n < 1 || n > 128 || !LegalCharacters(key)) {
    return Status::Validation(fmt::format("The Tag Key provided is invalid, Key: {}", key));
  }
  return Status::OK();
}

Status InvalidArn(std::string_view arn) {
  return Status::Validation(
      fmt::format("Invalid TableArn: Invalid ResourceArn provided as input {}", arn));
}

}  // namespace

Result<std::string> TableNameFromResourceArn(std::string_view arn, std::string_view operation) {
  constexpr std::string_view kInvalid = "One or more parameter values were invalid: ";
  if (!arn.starts_with("arn:")) {
    return Status::Validation(fmt::format("{}ARNs must start with 'arn:': {}", kInvalid, arn));
  }
  std::vector<std::string_view> parts;
  std::string_view rest = arn;
  while (parts.size() < 5) {
    const size_t colon = rest.find(':');
    if (colon == std::string_view::npos) break;
    parts.push_back(rest.substr(0, colon));
    rest.remove_prefix(colon + 1);
  }
  if (parts.size() < 5) return InvalidArn(arn);
  const std::string_view partition = parts[1], service = parts[2], region = parts[3],
                         account = parts[4], resource = rest;
  if (service != "dynamodb" || account != ArnAccount()) {
    return Status::AccessDenied(
        fmt::format("User: arn:aws:iam::{}:root is not authorized to perform: dynamodb:{} on "
                    "resource: {}",
                    ArnAccount(), operation, arn));
  }
  if (partition != "aws" || region != ArnRegion()) return InvalidArn(arn);
  if (!resource.starts_with("table/")) {
    return Status::Validation(
        fmt::format("{}Provided Arn is not a DynamoDB resource arn: {}", kInvalid, arn));
  }
  std::string_view name = resource.substr(6);
  if (name.find('/') != std::string_view::npos) {
    return Status::Validation(fmt::format(
        "{}Invalid resource arn provided, only table or stream is accepted. Provided resource "
        "arn: {}",
        kInvalid, arn));
  }
  if (!ValidateTableName(name).ok()) return InvalidArn(arn);
  return std::string(name);
}

Status ResourceArnNotFound(std::string_view arn) {
  return Status::NotFound(
      fmt::format("Requested resource not found: ResourcArn: {} not found", arn));
}

Status ValidateTags(const std::vector<Tag>& tags) {
  if (tags.empty()) return Status::Validation("Atleast one Tag needs to be provided as Input.");
  std::set<std::string> seen;
  for (const Tag& t : tags) {
    KH_RETURN_IF_ERROR(CheckKey(t.key));
    if (!t.value) return Status::Validation("The Tag Value provided is invalid, Value: null");
    if (Characters(*t.value) > 256 || !LegalCharacters(*t.value)) {
      return Status::Validation(
          fmt::format("The Tag Value provided is invalid, Value: {}", *t.value));
    }
    // The guide reserves the prefix in any case ("aws:", "AWS:", ...).
    if (t.key.size() >= 4) {
      std::string prefix = t.key.substr(0, 4);
      for (char& c : prefix) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (prefix == "aws:") {
        return Status::Validation(
            fmt::format("Tag Key cannot be prefixed with aws:, Key: {}", t.key));
      }
    }
    if (!seen.insert(t.key).second) {
      return Status::Validation(
          fmt::format("Duplicate Tag Keys provided as input: Duplicate Tag Key found {}", t.key));
    }
  }
  if (tags.size() > kMaxTags) return Status::Validation(std::string(kTooMany));
  return Status::OK();
}

Status ValidateTagKeys(const std::vector<std::string>& keys) {
  if (keys.empty()) return Status::Validation("Atleast one Tag Key needs to be provided as Input.");
  for (const std::string& k : keys) KH_RETURN_IF_ERROR(CheckKey(k));
  if (keys.size() > kMaxTags) return Status::Validation(std::string(kTooMany));
  return Status::OK();
}

Status MergeTags(const std::vector<Tag>& tags, std::map<std::string, std::string>* existing) {
  std::map<std::string, std::string> merged = *existing;
  for (const Tag& t : tags) merged[t.key] = t.value.value_or("");
  if (merged.size() > kMaxTags) return Status::Validation(std::string(kTooMany));
  *existing = std::move(merged);
  return Status::OK();
}

}  // namespace keyhole
