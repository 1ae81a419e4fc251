// DynamoDB's validation messages echo some collection values the way its Java service prints
// them (toString of its model classes): BatchWriteItem's over-25 message shows
// "{T=[WriteRequest(putRequest=PutRequest(item={pk=com.amazonaws.dynamodb.v20120810.AttributeValue@483470e1},
// workloadProfileName=null), deleteRequest=null)]}" and TransactWriteItems' count message the list
// of its actions. The "@483470e1" parts are Java identity hashes, different on every call in
// DynamoDB; keyhole prints a hash of the value instead, so its messages are repeatable. Rendered
// as captured from DynamoDB (eu-west-2, 2026); attribute order is keyhole's (name order), where
// Java's HashMap order is arbitrary.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/operations.h"

namespace keyhole {

// "com.amazonaws.dynamodb.v20120810.AttributeValue@<8 hex digits>".
std::string JavaEchoValue(const AttributeValue& v);
// "{a=<value>, b=<value>}".
std::string JavaEchoItem(const Item& item);
// "[WriteRequest(putRequest=PutRequest(item={...}, workloadProfileName=null), deleteRequest=null),
// WriteRequest(putRequest=null, deleteRequest=DeleteRequest(key={...},
// workloadProfileName=null))]".
std::string JavaEchoWriteRequests(const std::vector<WriteRequest>& requests);
// "[com.amazonaws.dynamodb.v20120810.<cls>@<hash>, ...]" with `n` elements; the hashes derive
// from `seed` and the position.
std::string JavaEchoObjects(std::string_view cls, size_t n, std::string_view seed);

}  // namespace keyhole
