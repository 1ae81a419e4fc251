// The AWS shared configuration as the AWS CLI v2 reads it: the environment, ~/.aws/config and
// ~/.aws/credentials (AWS_CONFIG_FILE, AWS_SHARED_CREDENTIALS_FILE), their profiles,
// [sso-session NAME] and [services NAME] sections; and from them a client's settings: the
// profile, region, endpoint, retry attempts and CA bundle, each with where it came from.
//
// The INI dialect is botocore's (configparser): keys lower-cased, '=' or ':' between key and
// value, '#' and ';' start a comment line only (an inline '#' is part of the value), a key with
// an empty value followed by indented lines holds a nested map (`dynamodb =` then
// `  endpoint_url = ...`), a section or key given twice is an error.
//
// Thread-safety: plain values; Environment's lookup must be safe to call from the thread that
// resolves settings.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "aws/endpoint.h"
#include "core/file.h"
#include "core/status.h"

namespace keyhole::aws {

// Reads an environment variable: the process's own by default; tests give their own.
struct Environment {
  std::function<std::optional<std::string>(std::string_view)> lookup;
  // The process's environment.
  static Environment Process();
  // A variable's value; nullopt when unset (an empty value is returned as "").
  std::optional<std::string> Get(std::string_view name) const { return lookup(name); }
  // A variable's value when set and not empty.
  std::optional<std::string> NonEmpty(std::string_view name) const;
  // $HOME (or the user's home from the password database).
  std::string Home() const;
};

// One section: its keys and, for keys whose value was a nested block, the nested keys.
struct ConfigSection {
  std::map<std::string, std::string> values;
  std::map<std::string, std::map<std::string, std::string>> nested;
  const std::string* Find(std::string_view key) const;
};

// An INI file as sections by their full header text ("profile dev", "default", ...).
using IniFile = std::map<std::string, ConfigSection, std::less<>>;

// Parses INI text. ValidationException "Unable to parse config file: PATH (...)" on a
// duplicate section or key, a key outside any section, or a line that is neither.
Result<IniFile> ParseIni(std::string_view text, std::string_view path);

struct SharedConfig {
  std::string config_path;       // as resolved ("~" expanded)
  std::string credentials_path;  // likewise
  bool config_exists = false, credentials_exists = false;
  // Profiles of the config file ([profile NAME] and [default]) and of the credentials file
  // (every section, by its name).
  std::map<std::string, ConfigSection> config_profiles, credential_profiles;
  std::map<std::string, ConfigSection> sso_sessions, services;
  // A profile's settings: the config file's, with the credentials file's keys over them.
  ConfigSection Profile(const std::string& name) const;
  bool HasProfile(const std::string& name) const;
};

// Reads both files (a missing file is empty). ValidationException when one cannot be parsed.
Result<SharedConfig> LoadSharedConfig(const Environment& env);

// What a client is told on its command line; empty members were not given.
struct ClientFlags {
  std::string profile;
  std::string region;
  std::string endpoint_url;
  std::string ca_bundle;
  int max_attempts = 0;
};

// Where a setting came from, for the shell's opening line and for error messages.
struct Setting {
  std::string value;
  std::string source;  // "--region", "AWS_REGION", "profile dev in ~/.aws/config", ...
  bool empty() const { return value.empty(); }
};

struct ClientSettings {
  Setting profile;                   // "default" unless chosen
  bool profile_explicit = false;     // --profile (which also sets aside environment credentials)
  bool profile_chosen = false;       // --profile, AWS_PROFILE or AWS_DEFAULT_PROFILE
  Setting region;                    // empty when none was configured
  std::optional<Endpoint> endpoint;  // a configured endpoint; nullopt: the region's own
  std::string endpoint_source;
  Setting ca_bundle;
  int max_attempts = 3;
  SharedConfig shared;
};

// The settings of a DynamoDB client, in the AWS CLI v2's order:
//  - profile: --profile, AWS_PROFILE, AWS_DEFAULT_PROFILE, "default"; a chosen profile that is
//    in neither file is an error ("The config profile (NAME) could not be found");
//  - region: --region, AWS_REGION, AWS_DEFAULT_REGION, the profile's region;
//  - endpoint: --endpoint, then (unless AWS_IGNORE_CONFIGURED_ENDPOINT_URLS or the profile's
//    ignore_configured_endpoint_urls is true) AWS_ENDPOINT_URL_DYNAMODB, AWS_ENDPOINT_URL,
//    the profile's [services NAME] section's `dynamodb` endpoint_url, the profile's
//    endpoint_url;
//  - retries: --max-attempts, AWS_MAX_ATTEMPTS, the profile's max_attempts, 3;
//  - CA bundle: --ca-bundle, AWS_CA_BUNDLE, the profile's ca_bundle.
Result<ClientSettings> ResolveClientSettings(const ClientFlags& flags, const Environment& env);

// The endpoint configured for another service (`service_id` as in AWS_ENDPOINT_URL_<ID>:
// "STS", "SSO"; its [services] key is the lower-case id) by the same rules; nullopt when none.
Result<std::optional<Endpoint>> ConfiguredServiceEndpoint(const ClientSettings& settings,
                                                          const Environment& env,
                                                          std::string_view service_id);

// "~/x" with the home directory expanded; other paths as they are.
std::string ExpandHome(const std::string& path, const Environment& env);

}  // namespace keyhole::aws
