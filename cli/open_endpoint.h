// An endpoint opened as the AWS CLI would open it: settings (aws/config.h), credentials
// (aws/credentials.h) and a RemoteBackend, for the remote shell and `keyhole copy`.
#pragma once

#include <atomic>
#include <memory>
#include <string>

#include "aws/config.h"
#include "aws/http_client.h"
#include "core/read_only_backend.h"
#include "remote/remote_backend.h"

namespace keyhole::cli {

struct EndpointFlags {
  std::string endpoint, region, profile, ca_bundle;
  int max_attempts = 0;
  double connect_timeout = 0, read_timeout = 0;  // seconds; 0: the defaults
  bool read_only = false;
  const std::atomic<bool>* cancel = nullptr;  // stops requests in flight (Ctrl-C)
};

struct Endpoint {
  aws::ClientSettings settings;
  std::string url;  // what requests go to
  std::string region, region_source;
  std::string credentials_source;                    // where the credentials came from
  std::unique_ptr<aws::HttpClient> credential_http;  // STS, SSO, metadata
  std::unique_ptr<remote::RemoteBackend> remote;
  std::unique_ptr<ReadOnlyBackend> read_only;  // with EndpointFlags::read_only
  Backend* backend = nullptr;                  // what to run on: read_only, else remote
};

// Resolves the settings and finds the credentials (reading files, running a credential_process,
// calling STS or SSO as configured), then makes the backend. The errors say what to fix:
// NoRegionError, NoCredentialsError (listing where it looked), a profile that does not exist,
// an endpoint URL that is not one.
Result<std::unique_ptr<Endpoint>> OpenEndpoint(const EndpointFlags& flags);

}  // namespace keyhole::cli
