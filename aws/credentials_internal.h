// What aws/credentials.cpp and the credential sources (credential_sources.h) share; not for other
// folders.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "aws/credentials.h"
#include "core/json.h"

namespace keyhole::aws {

std::string Sha1Hex(std::string_view data);
std::string PythonJsonString(std::string_view s);
std::string FormEncode(std::string_view s);
std::string JsonString(const json::Value& o, std::string_view name);
Status NamedError(std::string_view name, std::string message);
std::string TransportFailure(const HttpResult& r, std::string_view url);

namespace internal {

// The sources of the chain for `options`, in the AWS CLI's order (credentials.h).
std::vector<std::unique_ptr<CredentialSource>> BuildChain(
    const CredentialProvider::Options& options, std::function<double()> now);

}  // namespace internal
}  // namespace keyhole::aws
