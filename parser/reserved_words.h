// DynamoDB's reserved words for native expressions (reference §3.8 and Appendix B).
//
// A literal attribute name in a ConditionExpression, FilterExpression, KeyConditionExpression,
// ProjectionExpression or UpdateExpression must not be one of them (any element of any path);
// such names must be written through an ExpressionAttributeNames placeholder. The list does not
// apply to PartiQL, to ExpressionAttributeNames values or to function names.
#pragma once

#include <cstddef>
#include <string_view>

namespace keyhole::parser {

// True when `word` is one of the 573 reserved words, compared case-insensitively (ASCII).
bool IsReservedWord(std::string_view word);

// The number of reserved words (573); for tests.
size_t ReservedWordCount();

}  // namespace keyhole::parser
