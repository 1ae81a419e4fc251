// AWS Signature Version 4 verification for `keyhole serve --require-signature` (reference §7.7):
// the request's Authorization header is checked against the canonical request built from the
// method, path, signed headers and body, with the secret of the access key it names, as
// DynamoDB checks it, and within DynamoDB's 15-minute window around the server's clock.
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
// epoch seconds. Errors, as DynamoDB answers them:
//  - MissingAuthenticationTokenException "Request is missing Authentication Token": no
//    Authorization header, or not AWS4-HMAC-SHA256;
//  - IncompleteSignatureException: a part (Credential, SignedHeaders, Signature, X-Amz-Date)
//    missing or malformed;
//  - UnrecognizedClientException "The security token included in the request is invalid.": an
//    access key id not in `secrets`;
//  - InvalidSignatureException: a scope for another service, a date outside 15 minutes of
//    `now` ("Signature expired: ..." / "Signature not yet current: ..."), or a signature that
//    does not match.
SignatureCheck VerifySignature(const HttpRequest& request,
                               const std::map<std::string, std::string>& secrets, double now);

// The signature (lower-case hex) of `request` for the given credentials, scope date
// (YYYYMMDD), region and X-Amz-Date, over `signed_headers` (lower-case names separated by ';').
// Used by VerifySignature and by tests that sign requests as an SDK does.
std::string SignRequest(const HttpRequest& request, std::string_view secret, std::string_view date,
                        std::string_view region, std::string_view amz_date,
                        std::string_view signed_headers);

}  // namespace keyhole::server
