// 5. and 7. Static keys of a profile in the shared credentials file or the config file.
#include <fmt/format.h>

#include <string>

#include "aws/credential_sources.h"

namespace keyhole::aws::internal {

namespace {

// 5. and 7. Static keys in the credentials file or the config file.
class FileKeysSource : public CredentialSource {
 public:
  FileKeysSource(Context ctx, std::string profile, bool credentials_file)
      : ctx_(std::move(ctx)), profile_(std::move(profile)), credentials_file_(credentials_file) {}
  std::string Name() const override {
    return fmt::format(
        "the {} file {}", credentials_file_ ? "shared credentials" : "config",
        credentials_file_ ? ctx_.shared().credentials_path : ctx_.shared().config_path);
  }
  Result<std::optional<Credentials>> Load(std::string* why_not) override {
    const SharedConfig& shared = ctx_.shared();
    const auto& profiles = credentials_file_ ? shared.credential_profiles : shared.config_profiles;
    const bool exists = credentials_file_ ? shared.credentials_exists : shared.config_exists;
    const std::string& path = credentials_file_ ? shared.credentials_path : shared.config_path;
    auto it = profiles.find(profile_);
    if (it == profiles.end()) {
      *why_not = exists ? fmt::format("no profile {}", profile_) : "no such file";
      return std::optional<Credentials>();
    }
    KH_ASSIGN_OR_RETURN(std::optional<Credentials> c,
                        StaticKeys(&it->second, InFile(profile_, path),
                                   credentials_file_ ? "shared-credentials-file" : "config-file"));
    if (!c) {
      // A secret without its key id is skipped, as botocore skips it (NoCredentialsError in
      // the end, not PartialCredentialsError): said here, so that the list shows the half-made
      // profile.
      const std::string* secret = it->second.Find("aws_secret_access_key");
      *why_not = secret && !secret->empty()
                     ? fmt::format(
                           "profile {} has aws_secret_access_key but no "
                           "aws_access_key_id: the AWS CLI skips it too",
                           profile_)
                     : fmt::format("profile {} has no aws_access_key_id", profile_);
    }
    return c;
  }

 private:
  Context ctx_;
  std::string profile_;
  bool credentials_file_;
};

}  // namespace

std::unique_ptr<CredentialSource> MakeFileKeysSource(Context ctx, std::string profile,
                                                     bool credentials_file) {
  return std::make_unique<FileKeysSource>(std::move(ctx), std::move(profile), credentials_file);
}

}  // namespace keyhole::aws::internal
