// AWS Signature Version 4, the one implementation both directions use (design.md, "The
// shape"): `keyhole serve --require-signature` verifies requests with CanonicalRequest and
// Signature (server/sigv4_verify.h), and the client (remote/, and aws/'s own calls to STS) signs
// with SignRequest. Reference §7.7; the algorithm is AWS's "Create a signed AWS API request".
//
// Thread-safety: every function is a pure function of its arguments.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace keyhole::aws {

// Header name and value, in the order given; names compare case-insensitively.
using Headers = std::vector<std::pair<std::string, std::string>>;
// Whether two header names are the same header (HTTP compares them case-insensitively).
bool HeaderNameEquals(std::string_view a, std::string_view b);

// Lower-case hex of `n` bytes; the SHA-256 of `data` in lower-case hex; HMAC-SHA256 (raw bytes).
std::string Hex(const unsigned char* data, size_t n);
std::string Sha256Hex(std::string_view data);
std::string HmacSha256(std::string_view key, std::string_view data);

// "20240101T120000Z" for epoch seconds `epoch`, and back (nullopt when malformed).
std::string AmzDate(double epoch);
std::optional<double> ParseAmzDate(std::string_view amz_date);

// The scope a request is signed for: its date (YYYYMMDD, the first 8 characters of its
// X-Amz-Date), region and service ("dynamodb" for DynamoDB and DynamoDB Streams).
struct Scope {
  std::string date;
  std::string region;
  std::string service;
  // "20240101/us-east-1/dynamodb/aws4_request"
  std::string ToString() const;
};

// SigV4's canonical request:
//   METHOD \n canonical path \n canonical query \n canonical headers \n signed headers \n
//   payload hash
// `path` as sent (dot segments and empty segments removed as botocore does, then each byte
// outside A-Za-z0-9-_.~/ percent-encoded; "" is "/"); `query` as
// sent, without '?' (its parameters sorted, each kept as encoded); `signed_headers` lower-case
// names separated by ';' (the values of each, trimmed, inner blanks as one space, repeated
// headers joined with ','); `payload_hash` the hex SHA-256 of the body.
std::string CanonicalRequest(std::string_view method, std::string_view path, std::string_view query,
                             const Headers& headers, std::string_view signed_headers,
                             std::string_view payload_hash);

// The signature (lower-case hex) of a canonical request signed at `amz_date` for `scope` with
// `secret`.
std::string Signature(std::string_view secret, const Scope& scope, std::string_view amz_date,
                      std::string_view canonical_request);

// What signs a request: an access key, its secret and, for temporary credentials, the session
// token (sent as X-Amz-Security-Token, and signed).
struct SigningKey {
  std::string access_key_id;
  std::string secret_access_key;
  std::string session_token;
};

// Signs a request as the AWS SDKs do: adds X-Amz-Date (from `now`, epoch seconds),
// X-Amz-Security-Token when `key` has a session token, and Authorization, signing every header
// of `headers` (which must hold Host) but User-Agent, Expect, Transfer-Encoding and
// X-Amzn-Trace-Id. Headers Authorization, X-Amz-Date and X-Amz-Security-Token already present
// are replaced (a retried request is signed again).
void SignRequest(const SigningKey& key, std::string_view region, std::string_view service,
                 double now, std::string_view method, std::string_view path, std::string_view query,
                 std::string_view body, Headers* headers);

}  // namespace keyhole::aws
