// AWS Signature Version 4 verification for `keyhole serve --require-signature` (reference §7.7):
// the request's Authorization header, or its query-string parameters (a presigned URL:
// X-Amz-Algorithm, X-Amz-Credential, X-Amz-Date, X-Amz-SignedHeaders, X-Amz-Signature, over the
// body's SHA-256 as botocore signs it or UNSIGNED-PAYLOAD), checked against the canonical request
// built from the method, path, query, signed headers and body, with the secret of the access key it
// names, as DynamoDB checks it, within DynamoDB's 15-minute window around the server's clock.
//
// Thread-safety: Verify is a pure function of its arguments.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "server/http.h"

namespace keyhole::server {

// Why a request was not accepted: DynamoDB's error type (a com.amazon.coral.service# one) and
// message; type empty when the signature is good.
struct SignatureCheck {
  std::string type;
  std::string message;
  bool ok() const { return type.empty(); }
};

// Verifies `request`'s SigV4 signature. `secrets`: access key id -> secret access key. `now`:
// epoch seconds. The checks in DynamoDB's order, with its errors (dynalite's index.js and
// tests, run against AWS; Alternator's test_authorization.py):
//  1. both an Authorization header and X-Amz-Algorithm in the query: InvalidSignatureException;
//     neither, or a header not starting "AWS4-": MissingAuthenticationTokenException;
//  2. every missing part at once (Credential, Signature, SignedHeaders, a date; or the five
//     query parameters): IncompleteSignatureException;
//  3. the date (X-Amz-Date, else Date) malformed (Incomplete) or outside 15 minutes of `now`
//     ("Signature expired: ..." / "Signature not yet current: ...", InvalidSignature);
//  4. Host not among the signed headers (InvalidSignature);
//  5. an algorithm other than AWS4-HMAC-SHA256 (Incomplete);
//  6. a credential without exactly 5 '/'-separated parts (Incomplete), then every wrong part
//     of its scope at once: region, service, terminator, date (InvalidSignature);
//  7. an access key id not in `secrets`: UnrecognizedClientException;
//  8. a signature that does not match: InvalidSignatureException.
SignatureCheck VerifySignature(const HttpRequest& request,
                               const std::map<std::string, std::string>& secrets, double now);

// The signature (lower-case hex) of `request` for the given credentials, scope date
// (YYYYMMDD), region and X-Amz-Date, over `signed_headers` (lower-case names separated by ';').
// Used by VerifySignature and by tests that sign requests as an SDK does.
std::string SignRequest(const HttpRequest& request, std::string_view secret, std::string_view date,
                        std::string_view region, std::string_view amz_date,
                        std::string_view signed_headers);

// The same for a presigned request (its query's X-Amz-Signature left out, over
// UNSIGNED-PAYLOAD).
std::string PresignedSignature(const HttpRequest& request, std::string_view secret,
                               std::string_view date, std::string_view region,
                               std::string_view amz_date, std::string_view signed_headers);

}  // namespace keyhole::server
