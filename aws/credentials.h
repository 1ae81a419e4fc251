// Credentials as the AWS CLI v2 finds them, in its order (botocore's credential chain):
//   1. the environment: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN
//      (AWS_SECURITY_TOKEN), AWS_CREDENTIAL_EXPIRATION; set aside when --profile is given;
//   2. the profile's role_arn with source_profile or credential_source: STS AssumeRole, signed
//      with the source's credentials, cached in the AWS CLI's ~/.aws/cli/cache (shared with it);
//   3. web identity: AWS_WEB_IDENTITY_TOKEN_FILE + AWS_ROLE_ARN (or the profile's
//      web_identity_token_file and role_arn): STS AssumeRoleWithWebIdentity, unsigned;
//   4. SSO (sso_account_id, sso_role_name, an sso-session or sso_start_url): the AWS CLI's token
//      cache (~/.aws/sso/cache), then SSO's GetRoleCredentials; without a valid token, the
//      error says to run `aws sso login`;
//   5. the shared credentials file's aws_access_key_id / aws_secret_access_key;
//   6. credential_process (its JSON, Version 1);
//   7. the config file's aws_access_key_id / aws_secret_access_key;
//   8. container credentials (AWS_CONTAINER_CREDENTIALS_RELATIVE_URI or _FULL_URI, with
//      AWS_CONTAINER_AUTHORIZATION_TOKEN[_FILE]);
//   9. the EC2 instance metadata service, IMDSv2 (a token first; IMDSv1 when the token is
//      refused), at AWS_EC2_METADATA_SERVICE_ENDPOINT when set; AWS_EC2_METADATA_DISABLED=true
//      skips it.
// The first source that is configured gives the credentials; one that is configured but fails
// (a credential_process that exits 1, an STS call refused) stops the chain with its error, as in
// botocore. When none is configured, NoCredentialsError lists what was looked at and where.
// Temporary credentials are refreshed from the same source 15 minutes before they expire (a
// failed refresh keeps them until 10 minutes before).
//
// Secrets (secret keys, session tokens, SSO tokens) never appear in a Status message.
//
// Thread-safety: CredentialProvider::Get may be called from many threads; one refreshes while
// the others wait.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "aws/config.h"
#include "aws/http_client.h"
#include "aws/sigv4.h"
#include "core/status.h"
#include "core/time.h"

namespace keyhole::aws {

struct Credentials {
  std::string access_key_id;
  std::string secret_access_key;
  std::string session_token;         // "" for long-term keys
  std::string account_id;            // when the source says
  std::optional<double> expiration;  // epoch seconds; nullopt: does not expire
  std::string source;  // where they came from: "environment", "profile dev in ~/.aws/credentials"
  SigningKey signing_key() const { return {access_key_id, secret_access_key, session_token}; }
};

// One place credentials may come from.
class CredentialSource {
 public:
  virtual ~CredentialSource() = default;
  // What this source is, for messages: "the environment", "credential_process of profile dev".
  virtual std::string Name() const = 0;
  // The credentials; nullopt when this source is not configured (then `*why_not` says what was
  // missing, for the "nothing found" message); an error when it is configured and failed.
  virtual Result<std::optional<Credentials>> Load(std::string* why_not) = 0;
};

class CredentialProvider {
 public:
  struct Options {
    const ClientSettings* settings = nullptr;  // must outlive the provider
    Environment env = Environment::Process();
    HttpClient* http = nullptr;   // STS, SSO and the metadata services; must outlive it
    std::function<double()> now;  // epoch seconds; the system clock when empty
  };
  // The chain for `options` (nothing is read or fetched until Get).
  explicit CredentialProvider(Options options);
  // A provider of fixed credentials (tests, and a credential_source of another chain).
  static std::unique_ptr<CredentialProvider> Fixed(Credentials credentials);
  ~CredentialProvider();

  // Credentials valid now, found or refreshed as the header says.
  Result<Credentials> Get();
  // Forgets the credentials, so that the next Get finds them again (after the endpoint said
  // they expired).
  void Invalidate();

 private:
  CredentialProvider() = default;
  double Now() const;
  Options options_;
  std::vector<std::unique_ptr<CredentialSource>> chain_;
  bool built_ = false;
  std::mutex mutex_;
  CredentialSource* active_ = nullptr;
  std::optional<Credentials> current_;
  double last_refresh_ = 0;  // when the advisory window last tried a refresh
};

// Helpers shared with the tests.
// The AWS CLI's cache file name for an AssumeRole call: SHA-1 hex of Python's
// json.dumps(args, sort_keys=True), ':' and '/' replaced by '_'. `args` pairs of name and JSON
// text of the value ("\"arn:...\"" or "3600").
std::string CliCacheKey(const std::vector<std::pair<std::string, std::string>>& args,
                        bool compact = false);
// A value of the first element named `tag` in XML `text`, unescaped; "" when absent.
std::string XmlText(std::string_view text, std::string_view tag);

}  // namespace keyhole::aws
