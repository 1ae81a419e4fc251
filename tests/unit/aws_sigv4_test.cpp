// aws/sigv4.h: signatures equal to AWS's published test suite and to botocore's.
#include "aws/sigv4.h"

#include <gtest/gtest.h>

#include <string>

namespace keyhole::aws {
namespace {

constexpr char kSecret[] = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";

std::string HeaderOf(const Headers& headers, std::string_view name) {
  for (const auto& [k, v] : headers)
    if (k == name) return v;
  return "";
}

// "get-vanilla" of AWS's SigV4 test suite (2015-08-30T12:36:00Z, us-east-1, service
// "service"); botocore 1.43 gives the same signature.
TEST(AwsSigv4Test, GetVanillaAsInAwsTestSuite) {
  Headers headers = {{"Host", "example.amazonaws.com"}};
  const double when = 1440938160;  // 20150830T123600Z
  EXPECT_EQ(AmzDate(when), "20150830T123600Z");
  SignRequest({"AKIDEXAMPLE", kSecret, ""}, "us-east-1", "service", when, "GET", "/", "", "",
              &headers);
  EXPECT_EQ(HeaderOf(headers, "X-Amz-Date"), "20150830T123600Z");
  EXPECT_EQ(HeaderOf(headers, "Authorization"),
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
            "SignedHeaders=host;x-amz-date, "
            "Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31");
}

// A DynamoDB request with a session token and a non-ASCII body, as botocore 1.43 signs it
// (SigV4Auth at the same instant: User-Agent is not signed, the token is).
TEST(AwsSigv4Test, DynamoDbRequestWithSessionTokenAsBotocore) {
  Headers headers = {{"Content-Type", "application/x-amz-json-1.0"},
                     {"X-Amz-Target", "DynamoDB_20120810.GetItem"},
                     {"User-Agent", "x"},
                     {"Host", "dynamodb.eu-west-1.amazonaws.com"}};
  SignRequest({"AKIDEXAMPLE", kSecret, "session+token/\xC3\xA9"}, "eu-west-1", "dynamodb",
              1440938160, "POST", "/", "", "{\"TableName\":\"T\xC3\xA4\"}", &headers);
  EXPECT_EQ(HeaderOf(headers, "X-Amz-Security-Token"), "session+token/\xC3\xA9");
  EXPECT_EQ(HeaderOf(headers, "Authorization"),
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/eu-west-1/dynamodb/aws4_request, "
            "SignedHeaders=content-type;host;x-amz-date;x-amz-security-token;x-amz-target, "
            "Signature=e1b8c00c225cfe85050542a9c1266facd812a088333f1ca1c92771144c97aefc");
}

// Signing again (a retry) replaces the date, token and signature instead of adding more.
TEST(AwsSigv4Test, SigningAgainReplacesTheSignature) {
  Headers headers = {{"Host", "h"}};
  SignRequest({"A", "s", "t"}, "r", "dynamodb", 1440938160, "POST", "/", "", "{}", &headers);
  SignRequest({"A", "s", "t"}, "r", "dynamodb", 1440938161, "POST", "/", "", "{}", &headers);
  int dates = 0, auths = 0, tokens = 0;
  for (const auto& [k, v] : headers) {
    dates += k == "X-Amz-Date";
    auths += k == "Authorization";
    tokens += k == "X-Amz-Security-Token";
  }
  EXPECT_EQ(dates, 1);
  EXPECT_EQ(auths, 1);
  EXPECT_EQ(tokens, 1);
  EXPECT_EQ(HeaderOf(headers, "X-Amz-Date"), "20150830T123601Z");
}

TEST(AwsSigv4Test, CanonicalRequestSortsTheQueryAndFoldsHeaders) {
  Headers headers = {{"Host", "h"}, {"X-A", "  one   two "}, {"x-a", "three"}};
  EXPECT_EQ(CanonicalRequest("GET", "/a b", "b=2&a=1&a=0", headers, "host;x-a", "HASH"),
            "GET\n/a%20b\na=0&a=1&b=2\nhost:h\nx-a:one two,three\n\nhost;x-a\nHASH");
}

// Dot segments and empty segments go before signing, as botocore removes them.
TEST(AwsSigv4Test, PathsAreNormalizedAsBotocoreDoes) {
  const Headers h = {{"Host", "h"}};
  EXPECT_TRUE(
      CanonicalRequest("GET", "/a/./b/../c//", "", h, "host", "X").starts_with("GET\n/a/c/\n"));
  EXPECT_TRUE(CanonicalRequest("GET", "/r28/.", "", h, "host", "X").starts_with("GET\n/r28\n"));
  EXPECT_TRUE(CanonicalRequest("GET", "/..", "", h, "host", "X").starts_with("GET\n/\n"));
  EXPECT_TRUE(CanonicalRequest("GET", "", "", h, "host", "X").starts_with("GET\n/\n"));
}

TEST(AwsSigv4Test, AmzDateRoundTripsAndRejectsJunk) {
  EXPECT_EQ(ParseAmzDate("20150830T123600Z"), 1440938160);
  EXPECT_FALSE(ParseAmzDate("20150830T123600"));
  EXPECT_FALSE(ParseAmzDate("2015083XT123600Z"));
  EXPECT_FALSE(ParseAmzDate(""));
}

}  // namespace
}  // namespace keyhole::aws
