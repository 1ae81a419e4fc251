// ErrorFromJson (api/api_json_client.h): the inverse of ErrorToJson for every ErrorCode, and
// error bodies as DynamoDB and its look-alikes really send them.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "api/api_json.h"
#include "api/api_json_client.h"
#include "api_json_client_test_util.h"

namespace keyhole {
namespace {

using testing::Key;
using testing::Rich;

// Every ErrorCode but kOk.
std::vector<ErrorCode> AllErrorCodes() {
  std::vector<ErrorCode> out;
  for (int i = 1; i < static_cast<int>(ErrorCode::kOther); ++i) {
    out.push_back(static_cast<ErrorCode>(i));
  }
  return out;
}

// The wire form of `s`, read back, written again: the same text. Returns what was read.
Status RoundTrip(const Status& s) {
  const std::string body = json::Write(ErrorToJson(s));
  Status back = ErrorFromJson(ErrorHttpStatus(s), body);
  EXPECT_FALSE(back.ok());  // its code and message: the body written again below
  EXPECT_EQ(json::Write(ErrorToJson(back)), body);
  EXPECT_EQ(ErrorHttpStatus(back), ErrorHttpStatus(s));
  return back;
}

TEST(ApiJsonClientErrorTest, EveryErrorCodeRoundTrips) {
  std::vector<ErrorCode> codes = AllErrorCodes();
  EXPECT_EQ(codes.back(), ErrorCode::kTableNotFound);  // ErrorName names every code
  for (ErrorCode code : codes) {
    SCOPED_TRACE(std::string(ErrorName(code)));
    Status back = RoundTrip(Status(code, "what happened to " + std::string(ErrorName(code))));
    if (code == ErrorCode::kDatabaseFormat || code == ErrorCode::kInterrupted) {
      // keyhole's own codes travel as InternalServerError, without their message.
      EXPECT_EQ(back.code(), ErrorCode::kInternalServerError);
      EXPECT_EQ(back.message(), "Internal server error");
    } else {
      EXPECT_EQ(back.code(), code);
      EXPECT_EQ(back.message(), "what happened to " + std::string(ErrorName(code)));
    }
    EXPECT_FALSE(back.item());
    EXPECT_FALSE(back.cancellation_reasons());
  }
  EXPECT_EQ(RoundTrip(Status(ErrorCode::kValidation, "")).message(), "");
}

TEST(ApiJsonClientErrorTest, ConditionalCheckFailedKeepsItsItem) {
  Status s = Status::ConditionFailed("The conditional request failed");
  s.WithItem(std::make_shared<const Item>(Rich("x")));
  Status back = RoundTrip(s);
  EXPECT_EQ(back.code(), ErrorCode::kConditionalCheckFailed);
  ASSERT_TRUE(back.item());
  EXPECT_TRUE(*back.item() == Rich("x"));
}

TEST(ApiJsonClientErrorTest, CancellationReasonsRoundTrip) {
  Status s = Status::TransactionCanceled(
      "Transaction cancelled, please refer cancellation reasons for specific reasons [None, "
      "ConditionalCheckFailed, ValidationError]");
  s.WithCancellationReasons(std::make_shared<const std::vector<Status::CancellationReason>>(
      std::vector<Status::CancellationReason>{
          {"None", "", nullptr},
          {"ConditionalCheckFailed", "The conditional request failed",
           std::make_shared<const Item>(Key("u", "1"))},
          {"ValidationError", "One or more parameter values were invalid", nullptr}}));
  Status back = RoundTrip(s);
  EXPECT_EQ(back.code(), ErrorCode::kTransactionCanceled);
  ASSERT_TRUE(back.cancellation_reasons());
  const auto& reasons = *back.cancellation_reasons();
  ASSERT_EQ(reasons.size(), 3u);
  EXPECT_EQ(reasons[0].code, "None");
  EXPECT_EQ(reasons[0].message, "");
  EXPECT_FALSE(reasons[0].item);
  EXPECT_EQ(reasons[1].code, "ConditionalCheckFailed");
  EXPECT_EQ(reasons[1].message, "The conditional request failed");
  ASSERT_TRUE(reasons[1].item);
  EXPECT_TRUE(*reasons[1].item == Key("u", "1"));
  EXPECT_EQ(reasons[2].code, "ValidationError");
}

TEST(ApiJsonClientErrorTest, DynamoDbBodies) {
  Status v = ErrorFromJson(400, R"({"__type":"com.amazon.coral.validate#ValidationException",)"
                                R"("message":"1 validation error detected: Value '0' at 'limit' )"
                                R"(failed to satisfy constraint: Member must have value greater )"
                                R"(than or equal to 1"})");
  EXPECT_EQ(v.code(), ErrorCode::kValidation);
  EXPECT_EQ(v.message(),
            "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: "
            "Member must have value greater than or equal to 1");

  Status nf = ErrorFromJson(
      400, R"({"__type":"com.amazonaws.dynamodb.v20120810#ResourceNotFoundException",)"
           R"("message":"Requested resource not found: Table: tablename not found"})");
  EXPECT_TRUE(nf.IsNotFound());
  EXPECT_EQ(nf.message(), "Requested resource not found: Table: tablename not found");

  Status tc = ErrorFromJson(
      400, R"({"__type":"com.amazonaws.dynamodb.v20120810#TransactionCanceledException",)"
           R"("Message":"Transaction cancelled, please refer cancellation reasons for specific )"
           R"(reasons [ConditionalCheckFailed, None]","CancellationReasons":[{"Code":)"
           R"("ConditionalCheckFailed","Message":"The conditional request failed","Item":)"
           R"({"pk":{"S":"a"},"n":{"N":"5"}}},{"Code":"None"}]})");
  EXPECT_EQ(tc.code(), ErrorCode::kTransactionCanceled);
  EXPECT_EQ(tc.message(),
            "Transaction cancelled, please refer cancellation reasons for specific reasons "
            "[ConditionalCheckFailed, None]");
  ASSERT_TRUE(tc.cancellation_reasons());
  ASSERT_EQ(tc.cancellation_reasons()->size(), 2u);
  EXPECT_EQ((*tc.cancellation_reasons())[0].message, "The conditional request failed");
  ASSERT_TRUE((*tc.cancellation_reasons())[0].item);
  EXPECT_EQ((*tc.cancellation_reasons())[0].item->size(), 2u);
  EXPECT_EQ((*tc.cancellation_reasons())[1].code, "None");

  Status ccf = ErrorFromJson(
      400, R"({"__type":"com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException",)"
           R"("message":"The conditional request failed","Item":{"pk":{"S":"a"}}})");
  EXPECT_TRUE(ccf.IsConditionFailed());
  ASSERT_TRUE(ccf.item());
  EXPECT_EQ(ccf.item()->at("pk"), AttributeValue::S("a"));

  // DynamoDB's answer to a body that is not JSON: a coral error without a message.
  Status ser =
      ErrorFromJson(400, R"({"__type":"com.amazon.coral.service#SerializationException"})");
  EXPECT_EQ(ser.code(), ErrorCode::kSerialization);
  EXPECT_EQ(ser.message(), "");

  Status denied = ErrorFromJson(
      400, R"({"__type":"com.amazon.coral.service#AccessDeniedException","Message":"User: )"
           R"(arn:aws:iam::123456789012:user/x is not authorized to perform: dynamodb:PutItem"})");
  EXPECT_EQ(denied.code(), ErrorCode::kAccessDenied);
  EXPECT_NE(denied.message().find("not authorized"), std::string::npos);

  // Alternator's namespace for everything; a __type with a trailing ':' part.
  EXPECT_EQ(
      ErrorFromJson(400, R"({"__type":"com.amazonaws.dynamodb.v20120810#ValidationException",)"
                         R"("message":"m"})")
          .code(),
      ErrorCode::kValidation);
  EXPECT_EQ(ErrorFromJson(400, R"({"__type":"ResourceInUseException:http://internal.amazon.com/",)"
                               R"("message":"in use"})")
                .code(),
            ErrorCode::kResourceInUse);
  EXPECT_EQ(
      ErrorFromJson(400, R"({"__type":"com.amazonaws.dynamodb.v20120810#ExpiredIteratorException",)"
                         R"("message":"Iterator expired"})")
          .code(),
      ErrorCode::kExpiredIterator);
}

TEST(ApiJsonClientErrorTest, UnknownNamesKeepNameMessageAndStatus) {
  const std::string throttled =
      R"({"__type":"com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException",)"
      R"("message":"The level of configured provisioned throughput for the table was exceeded."})";
  Status s = ErrorFromJson(400, throttled);
  EXPECT_EQ(s.code(), ErrorCode::kOther);
  EXPECT_EQ(s.name(), "ProvisionedThroughputExceededException");
  EXPECT_EQ(s.message(),
            "The level of configured provisioned throughput for the table was exceeded.");
  EXPECT_EQ(s.http_status(), 400);
  EXPECT_EQ(s.ToString(),
            "ProvisionedThroughputExceededException: The level of configured provisioned "
            "throughput for the table was exceeded.");
  EXPECT_EQ(ErrorNameFromJson(throttled), "ProvisionedThroughputExceededException");
  // Written back, it keeps its name and status.
  EXPECT_EQ(
      json::Write(ErrorToJson(s)),
      R"({"__type":"com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException",)"
      R"("message":"The level of configured provisioned throughput for the table was exceeded."})");
  EXPECT_EQ(ErrorHttpStatus(s), 400);

  Status t = ErrorFromJson(400, R"({"__type":"com.amazon.coral.availability#ThrottlingException",)"
                                R"("message":"Rate of requests exceeds the allowed throughput."})");
  EXPECT_EQ(t.name(), "ThrottlingException");
  EXPECT_EQ(t.message(), "Rate of requests exceeds the allowed throughput.");
  Status u =
      ErrorFromJson(400, R"({"__type":"com.amazon.coral.service#UnknownOperationException"})");
  EXPECT_EQ(u.ToString(), "UnknownOperationException: ");
  EXPECT_EQ(ErrorFromJson(503, R"({"__type":"x#ServiceUnavailable"})").http_status(), 503);
  // keyhole's own names are not DynamoDB's.
  Status own = ErrorFromJson(400, R"({"__type":"x#InterruptedException","message":"m"})");
  EXPECT_EQ(own.code(), ErrorCode::kOther);
  EXPECT_EQ(own.ToString(), "InterruptedException: m");
  EXPECT_EQ(ErrorNameFromJson("not json"), "");
  EXPECT_EQ(ErrorNameFromJson(R"({"message":"no type"})"), "");
}

TEST(ApiJsonClientErrorTest, BodiesThatAreNotDynamoDbErrors) {
  Status big = ErrorFromJson(413, "");
  EXPECT_TRUE(big.IsValidation());
  EXPECT_NE(big.message().find("16 MB"), std::string::npos);
  EXPECT_TRUE(ErrorFromJson(413, "<html>Request Entity Too Large</html>").IsValidation());

  Status unavailable = ErrorFromJson(503, "");
  EXPECT_EQ(unavailable.code(), ErrorCode::kInternalServerError);
  EXPECT_EQ(unavailable.message(), "HTTP 503 without a DynamoDB error: an empty body");

  Status html = ErrorFromJson(502, "<html><body>Bad Gateway</body></html>");
  EXPECT_EQ(html.code(), ErrorCode::kInternalServerError);
  EXPECT_EQ(html.message(),
            "HTTP 502 without a DynamoDB error: the body <html><body>Bad Gateway</body></html>");

  Status long_body = ErrorFromJson(500, std::string(300, 'x'));
  EXPECT_EQ(long_body.message(),
            "HTTP 500 without a DynamoDB error: the body " + std::string(200, 'x') + "...");

  Status untyped = ErrorFromJson(400, R"({"message":"no type"})");
  EXPECT_EQ(untyped.code(), ErrorCode::kInternalServerError);
  EXPECT_EQ(untyped.message(),
            R"(HTTP 400 without a DynamoDB error: the body {"message":"no type"})");

  // A JSON 5xx with a type is that error.
  Status ise = ErrorFromJson(
      500, R"({"__type":"com.amazonaws.dynamodb.v20120810#InternalServerError","message":"boom"})");
  EXPECT_EQ(ise.code(), ErrorCode::kInternalServerError);
  EXPECT_EQ(ise.message(), "boom");

  // A reason's or error's Item that is not an item is left out; the error stays.
  Status bad_item = ErrorFromJson(
      400, R"({"__type":"#ConditionalCheckFailedException","message":"m","Item":{"a":{}}})");
  EXPECT_TRUE(bad_item.IsConditionFailed());
  EXPECT_FALSE(bad_item.item());
}

}  // namespace
}  // namespace keyhole
