// Tags and resource ARNs of the tagging operations (TagResource, UntagResource,
// ListTagsOfResource, CreateTable's Tags), with DynamoDB's messages.
//
// Sources: the texts below were observed on DynamoDB (the ack-api-quirks catalogue of
// services/dynamodb, verified live in 2026: "The Tag Key provided is invalid, Key: <k>", "Tag Key
// cannot be prefixed with aws:, Key: <k>", "Duplicate Tag Keys provided as input: Duplicate Tag
// Key found <k>", "Number of Tags exceed the current limit for the provided ResourceArn" (a
// ValidationException, also for UntagResource with more than 50 keys), "Atleast one Tag needs
// to be provided as Input.", "ARNs must start with 'arn:'", "Invalid TableArn: Invalid
// ResourceArn provided as input <arn>" for another region); dynalite's tests, run against AWS,
// for "Requested resource not found: ResourcArn: <arn> not found" (DynamoDB's spelling) and
// the AccessDeniedException of an ARN that is not DynamoDB's; the DynamoDB Developer Guide
// ("Tagging restrictions") for the lengths (128/256 characters), the characters (letters,
// digits, white space and + - = . _ : /) and the 50-tag limit.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/operations.h"
#include "core/status.h"

namespace keyhole {

// The table a ResourceArn names, checked in DynamoDB's order:
//  - not starting with "arn:": ValidationException "One or more parameter values were invalid:
//    ARNs must start with 'arn:': <arn>";
//  - fewer than six ':'-separated parts: ValidationException "Invalid TableArn: Invalid
//    ResourceArn provided as input <arn>";
//  - another service, or another account than keyhole's 000000000000: AccessDeniedException
//    "User: arn:aws:iam::000000000000:root is not authorized to perform: dynamodb:<operation>
//    on resource: <arn>" (keyhole has no users: it names the account's root);
//  - another partition or region than aws/local, or a table name that is not one: "Invalid
//    TableArn: Invalid ResourceArn provided as input <arn>";
//  - a resource other than table/...: "One or more parameter values were invalid: Provided Arn
//    is not a DynamoDB resource arn: <arn>"; an index or stream ARN (table/<t>/...): "One or
//    more parameter values were invalid: Invalid resource arn provided, only table or stream is
//    accepted. Provided resource arn: <arn>" (keyhole keeps no tags on streams).
Result<std::string> TableNameFromResourceArn(std::string_view arn, std::string_view operation);

// ResourceNotFoundException "Requested resource not found: ResourcArn: <arn> not found".
Status ResourceArnNotFound(std::string_view arn);

// Checks the tags of a TagResource or CreateTable request, each in turn (its key: 1..128
// characters of the allowed ones; its value: given, 0..256 allowed characters; the key not
// starting with "aws:"; the key not given before), then their number (at most 50).
// "Atleast one Tag needs to be provided as Input." when `tags` is empty.
Status ValidateTags(const std::vector<Tag>& tags);
// UntagResource's TagKeys: at least one, each a valid key, at most 50.
Status ValidateTagKeys(const std::vector<std::string>& keys);
// Adds `tags` to `existing` (a key given again takes the new value); more than 50 tags in the
// result is "Number of Tags exceed the current limit for the provided ResourceArn".
Status MergeTags(const std::vector<Tag>& tags, std::map<std::string, std::string>* existing);

}  // namespace keyhole
