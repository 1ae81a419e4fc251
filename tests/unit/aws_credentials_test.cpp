// aws/credentials.h: the credential chain in the AWS CLI's order, against files in a temporary
// HOME and loopback stand-ins for STS, SSO, the container endpoint and the instance metadata
// service; caching, and refresh before expiry on a clock of the test's own.
#include "aws/credentials.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <atomic>

#include "aws/credentials_internal.h"
#include "aws/sigv4.h"
#include "aws_test_util.h"
#include "error_text.h"

namespace keyhole::aws {
namespace {

using testing::EnvOf;
using testing::StandIn;
using testing::TempHome;

constexpr double kNow = 1900000000;  // 2030-03-17T17:46:40Z

// A chain over `vars` (HOME included by the caller) with a clock the test moves.
struct Chain {
  Chain(std::map<std::string, std::string> vars, ClientFlags flags = {}) {
    env = EnvOf(std::move(vars));
    Result<ClientSettings> s = ResolveClientSettings(flags, env);
    EXPECT_TRUE(s.ok()) << s.status().ToString();
    if (s.ok()) settings = std::move(*s);
    CredentialProvider::Options o;
    o.settings = &settings;
    o.env = env;
    o.http = &http;
    o.now = [this] { return now.load(); };
    provider = std::make_unique<CredentialProvider>(o);
  }
  Environment env;
  ClientSettings settings;
  HttpClient http{HttpClient::Options{}};
  std::atomic<double> now{kNow};
  std::unique_ptr<CredentialProvider> provider;
};

TEST(AwsCredentialsTest, EnvironmentFirstUnlessAProfileIsNamed) {
  TempHome home;
  home.Write(".aws/credentials",
             "[default]\naws_access_key_id = FILEKEY\n"
             "aws_secret_access_key = filesecret\n"
             "[p]\naws_access_key_id = PKEY\naws_secret_access_key = ps\n");
  Chain env({{"HOME", home.dir()},
             {"AWS_ACCESS_KEY_ID", "ENVKEY"},
             {"AWS_SECRET_ACCESS_KEY", "envsecret"},
             {"AWS_SESSION_TOKEN", "tok"}});
  Result<Credentials> c = env.provider->Get();
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->access_key_id, "ENVKEY");
  EXPECT_EQ(c->session_token, "tok");
  EXPECT_EQ(c->source, "the environment (AWS_ACCESS_KEY_ID)");
  // AWS_PROFILE does not set the environment's keys aside; --profile does.
  Chain env_profile({{"HOME", home.dir()},
                     {"AWS_PROFILE", "p"},
                     {"AWS_ACCESS_KEY_ID", "ENVKEY"},
                     {"AWS_SECRET_ACCESS_KEY", "envsecret"}});
  EXPECT_EQ(env_profile.provider->Get()->access_key_id, "ENVKEY");
  ClientFlags flags;
  flags.profile = "p";
  Chain flag({{"HOME", home.dir()},
              {"AWS_ACCESS_KEY_ID", "ENVKEY"},
              {"AWS_SECRET_ACCESS_KEY", "envsecret"}},
             flags);
  c = flag.provider->Get();
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->access_key_id, "PKEY");
  EXPECT_EQ(c->source, "profile p in " + home.dir() + "/.aws/credentials");
}

TEST(AwsCredentialsTest, PartialCredentialsAreAnError) {
  TempHome home;
  Chain env({{"HOME", home.dir()}, {"AWS_ACCESS_KEY_ID", "ENVKEY"}});
  Result<Credentials> c = env.provider->Get();
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().ToString(),
            "PartialCredentialsError: Partial credentials found in env, missing: "
            "AWS_SECRET_ACCESS_KEY");
  home.Write(".aws/credentials", "[default]\naws_access_key_id = K\n");
  Chain file({{"HOME", home.dir()}});
  EXPECT_EQ(file.provider->Get().status().ToString(),
            "PartialCredentialsError: Partial credentials found in shared-credentials-file, "
            "missing: aws_secret_access_key");
}

// A secret without its key id: skipped in either file, as botocore skips it, and the list of
// places looked says so.
TEST(AwsCredentialsTest, SecretWithoutKeyIdIsSkippedAndSaid) {
  for (const char* file : {".aws/credentials", ".aws/config"}) {
    TempHome home;
    home.Write(file, "[default]\naws_secret_access_key = s\n");
    Chain chain({{"HOME", home.dir()}, {"AWS_EC2_METADATA_DISABLED", "true"}});
    Result<Credentials> c = chain.provider->Get();
    ASSERT_FALSE(c.ok()) << file;
    EXPECT_EQ(c.status().name(), "NoCredentialsError") << file;
    EXPECT_NE(c.status().message().find("profile default has aws_secret_access_key but no "
                                        "aws_access_key_id: the AWS CLI skips it too"),
              std::string::npos)
        << c.status().message();
  }
}

TEST(AwsCredentialsTest, CredentialsFileBeforeProcessBeforeConfigFile) {
  TempHome home;
  home.Write(".aws/config",
             "[default]\naws_access_key_id = CFGKEY\naws_secret_access_key = s\n"
             "credential_process = /bin/false\n");
  Chain config({{"HOME", home.dir()}});
  Result<Credentials> c = config.provider->Get();
  // credential_process comes before the config file's keys, and it failed: the chain stops.
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().name(), "CredentialRetrievalError");
  EXPECT_NE(c.status().message().find("/bin/false exited with status 1"), std::string::npos);
  home.Write(".aws/credentials",
             "[default]\naws_access_key_id = CREDKEY\n"
             "aws_secret_access_key = s\n");
  Chain creds({{"HOME", home.dir()}});
  EXPECT_EQ(creds.provider->Get()->access_key_id, "CREDKEY");
}

TEST(AwsCredentialsTest, CredentialProcessAndItsRefresh) {
  TempHome home;
  // The process counts its runs; its credentials expire 20 minutes after "now" of its first run.
  const std::string script = home.Write(
      "creds.sh",
      "#!/bin/sh\nn=$(cat \"$(dirname \"$0\")/runs\" 2>/dev/null || echo 0)\nn=$((n+1))\n"
      "echo $n > \"$(dirname \"$0\")/runs\"\n"
      "printf '{\"Version\": 1, \"AccessKeyId\": \"PROC%s\", \"SecretAccessKey\": \"s\", "
      "\"SessionToken\": \"t\", \"Expiration\": \"2030-03-17T18:06:40Z\"}' $n\n",
      0700);
  home.Write(".aws/config", "[default]\ncredential_process = \"" + script + "\" --flag 'a b'\n");
  Chain chain({{"HOME", home.dir()}});
  Result<Credentials> c = chain.provider->Get();
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->access_key_id, "PROC1");
  EXPECT_EQ(c->expiration, kNow + 20 * 60);
  EXPECT_EQ(chain.provider->Get()->access_key_id, "PROC1");  // still 20 minutes left
  chain.now = kNow + 6 * 60;                                 // 14 minutes left: refreshed
  EXPECT_EQ(chain.provider->Get()->access_key_id, "PROC2");
}

TEST(AwsCredentialsTest, CredentialProcessOutputIsChecked) {
  TempHome home;
  const auto error_of = [&](const std::string& output) {
    const std::string script = home.Write("p.sh", "#!/bin/sh\necho '" + output + "'\n", 0700);
    home.Write(".aws/config", "[default]\ncredential_process = " + script + "\n");
    Chain chain({{"HOME", home.dir()}});
    return chain.provider->Get().status().message();
  };
  EXPECT_NE(error_of(R"({"Version": 2, "AccessKeyId": "a", "SecretAccessKey": "b"})")
                .find("Unsupported version '2' for credential process provider"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"Version": 1, "SecretAccessKey": "b"})")
                .find("Missing required key in response: 'AccessKeyId'"),
            std::string::npos);
  EXPECT_NE(error_of("not json").find("its output is not a JSON object"), std::string::npos);
}

TEST(AwsCredentialsTest, NothingFoundListsWhereItLooked) {
  TempHome home;
  Chain chain({{"HOME", home.dir()}, {"AWS_EC2_METADATA_DISABLED", "true"}});
  Result<Credentials> c = chain.provider->Get();
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().name(), "NoCredentialsError");
  const std::string& m = c.status().message();
  EXPECT_TRUE(m.starts_with("Unable to locate credentials.")) << m;
  for (const std::string& part :
       {std::string("the environment (AWS_ACCESS_KEY_ID is not set)"),
        "the shared credentials file " + home.dir() + "/.aws/credentials (no such file)",
        std::string("the container credentials endpoint (AWS_CONTAINER_CREDENTIALS_RELATIVE_URI "
                    "and _FULL_URI are not set)"),
        std::string("the EC2 instance metadata service (AWS_EC2_METADATA_DISABLED is true)")}) {
    EXPECT_NE(m.find(part), std::string::npos) << part << "\n" << m;
  }
}

TEST(AwsCredentialsTest, ExpiredCredentialsSaySo) {
  TempHome home;
  Chain chain({{"HOME", home.dir()},
               {"AWS_ACCESS_KEY_ID", "K"},
               {"AWS_SECRET_ACCESS_KEY", "s"},
               {"AWS_CREDENTIAL_EXPIRATION", "2030-03-17T17:00:00Z"}});
  Result<Credentials> c = chain.provider->Get();
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().name(), "ExpiredTokenException");
  EXPECT_NE(c.status().message().find("expired at 2030-03-17T17:00:00Z"), std::string::npos);
}

std::string StsAnswer(std::string_view action, const std::string& key, const char* expiration) {
  return fmt::format(
      "<{0}Response xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\"><{0}Result>"
      "<AssumedRoleUser><Arn>arn:aws:sts::123456789012:assumed-role/r/s</Arn>"
      "<AssumedRoleId>AROA:s</AssumedRoleId></AssumedRoleUser><Credentials>"
      "<AccessKeyId>{1}</AccessKeyId><SecretAccessKey>sec&amp;ret</SecretAccessKey>"
      "<SessionToken>session</SessionToken><Expiration>{2}</Expiration></Credentials>"
      "</{0}Result><ResponseMetadata><RequestId>r</RequestId></ResponseMetadata></{0}Response>",
      action, key, expiration);
}

TEST(AwsCredentialsTest, AssumeRoleSignedBySourceProfileAndCachedAsTheCliDoes) {
  TempHome home;
  StandIn sts;
  std::atomic<int> calls{0};
  std::string seen_body, seen_auth;
  sts.server.Post("/", [&](const httplib::Request& req, httplib::Response& res) {
    ++calls;
    seen_body = req.body;
    seen_auth = req.get_header_value("Authorization");
    res.set_content(StsAnswer("AssumeRole", "ASIAROLE", "2030-03-17T18:46:40Z"), "text/xml");
  });
  sts.Start();
  home.Write(".aws/config",
             "[profile role]\nrole_arn = arn:aws:iam::123456789012:role/r\n"
             "source_profile = base\nexternal_id = ext\nduration_seconds = 3600\n"
             "region = eu-west-1\n");
  home.Write(".aws/credentials",
             "[base]\naws_access_key_id = BASEKEY\n"
             "aws_secret_access_key = basesecret\n");
  const std::map<std::string, std::string> vars = {
      {"HOME", home.dir()}, {"AWS_PROFILE", "role"}, {"AWS_ENDPOINT_URL_STS", sts.url()}};
  Chain chain(vars);
  Result<Credentials> c = chain.provider->Get();
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->access_key_id, "ASIAROLE");
  EXPECT_EQ(c->secret_access_key, "sec&ret");
  EXPECT_EQ(c->account_id, "123456789012");
  EXPECT_EQ(c->expiration, kNow + 3600);
  EXPECT_NE(seen_body.find("Action=AssumeRole&Version=2011-06-15&RoleArn=arn%3Aaws%3Aiam%3A%3A"
                           "123456789012%3Arole%2Fr"),
            std::string::npos)
      << seen_body;
  EXPECT_NE(seen_body.find("&ExternalId=ext&DurationSeconds=3600"), std::string::npos);
  EXPECT_TRUE(
      seen_auth.starts_with("AWS4-HMAC-SHA256 Credential=BASEKEY/20300317/eu-west-1/sts/"
                            "aws4_request"))
      << seen_auth;
  // The AWS CLI's cache file (its name: the CLI's key for these arguments, checked against
  // the CLI's own in CliCacheKeyIsTheAwsClis).
  EXPECT_TRUE(home.Exists(".aws/cli/cache/231a8b3297509b0e13a9c4424e151c174544e232.json"));
  // A new process reads the cache instead of calling STS.
  Chain again(vars);
  Result<Credentials> cached = again.provider->Get();
  ASSERT_TRUE(cached.ok());
  EXPECT_EQ(cached->access_key_id, "ASIAROLE");
  EXPECT_NE(cached->source.find("cached in"), std::string::npos);
  EXPECT_EQ(calls.load(), 1);
}

TEST(AwsCredentialsTest, AssumeRoleConfigurationMistakes) {
  TempHome home;
  home.Write(
      ".aws/config",
      "[profile both]\nrole_arn = arn:r\nsource_profile = x\ncredential_source = Environment\n"
      "[profile neither]\nrole_arn = arn:r\n"
      "[profile ghost]\nrole_arn = arn:r\nsource_profile = nobody\n"
      "[profile loop1]\nrole_arn = arn:r\nsource_profile = loop2\n"
      "[profile loop2]\nrole_arn = arn:r\nsource_profile = loop1\n"
      "[profile badsource]\nrole_arn = arn:r\ncredential_source = Moon\n");
  const auto error_of = [&](const std::string& profile) {
    Chain chain({{"HOME", home.dir()}, {"AWS_PROFILE", profile}});
    return chain.provider->Get().status().ToString();
  };
  EXPECT_EQ(error_of("both"),
            "InvalidConfigError: The profile \"both\" contains both source_profile and "
            "credential_source.");
  EXPECT_EQ(error_of("neither"),
            "PartialCredentialsError: Partial credentials found in assume-role (profile neither), "
            "missing: source_profile or credential_source");
  EXPECT_EQ(error_of("ghost"),
            "InvalidConfigError: The source_profile \"nobody\" referenced in the profile \"ghost\" "
            "does not exist.");
  EXPECT_NE(error_of("loop1").find("InfiniteLoopConfigError"), std::string::npos);
  EXPECT_EQ(error_of("badsource"),
            "InvalidConfigError: The credential source \"Moon\" referenced in profile "
            "\"badsource\" is not valid.");
}

TEST(AwsCredentialsTest, StsRefusalIsNamedAsStsNamesIt) {
  TempHome home;
  StandIn sts;
  sts.server.Post("/", [&](const httplib::Request&, httplib::Response& res) {
    res.status = 403;
    res.set_content(
        "<ErrorResponse><Error><Type>Sender</Type><Code>AccessDenied</Code><Message>User is not "
        "authorized to perform: sts:AssumeRole</Message></Error></ErrorResponse>",
        "text/xml");
  });
  sts.Start();
  home.Write(".aws/config", "[default]\nrole_arn = arn:r\ncredential_source = Environment\n");
  Chain chain({{"HOME", home.dir()},
               {"AWS_ENDPOINT_URL_STS", sts.url()},
               {"AWS_ACCESS_KEY_ID", "K"},
               {"AWS_SECRET_ACCESS_KEY", "s"}});
  // The environment comes first in the chain; a profile named with --profile skips it.
  ClientFlags flags;
  flags.profile = "default";
  Chain named({{"HOME", home.dir()},
               {"AWS_ENDPOINT_URL_STS", sts.url()},
               {"AWS_ACCESS_KEY_ID", "K"},
               {"AWS_SECRET_ACCESS_KEY", "s"}},
              flags);
  Result<Credentials> c = named.provider->Get();
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().name(), "AccessDenied");
  EXPECT_EQ(c.status().message(),
            "STS AssumeRole for arn:r failed (HTTP 403): User is not authorized to perform: "
            "sts:AssumeRole");
}

TEST(AwsCredentialsTest, WebIdentityFromTheEnvironment) {
  TempHome home;
  StandIn sts;
  std::string seen;
  sts.server.Post("/", [&](const httplib::Request& req, httplib::Response& res) {
    seen = req.body;
    EXPECT_FALSE(req.has_header("Authorization"));  // AssumeRoleWithWebIdentity is unsigned
    res.set_content(StsAnswer("AssumeRoleWithWebIdentity", "ASIAWEB", "2030-03-17T18:46:40Z"),
                    "text/xml");
  });
  sts.Start();
  const std::string token = home.Write("token", "eyJ.token+/=");
  Chain chain({{"HOME", home.dir()},
               {"AWS_WEB_IDENTITY_TOKEN_FILE", token},
               {"AWS_ROLE_ARN", "arn:aws:iam::1:role/ci"},
               {"AWS_ROLE_SESSION_NAME", "job"},
               {"AWS_ENDPOINT_URL_STS", sts.url()}});
  Result<Credentials> c = chain.provider->Get();
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->access_key_id, "ASIAWEB");
  EXPECT_EQ(seen,
            "Action=AssumeRoleWithWebIdentity&Version=2011-06-15&RoleArn=arn%3Aaws%3Aiam%3A%3A1"
            "%3Arole%2Fci&RoleSessionName=job&WebIdentityToken=eyJ.token%2B%2F%3D");
}

TEST(AwsCredentialsTest, ContainerCredentialsWithAnAuthorizationTokenFile) {
  TempHome home;
  StandIn container;
  std::string auth;
  container.server.Get("/creds", [&](const httplib::Request& req, httplib::Response& res) {
    auth = req.get_header_value("Authorization");
    res.set_content(R"({"AccessKeyId":"ASIACONT","SecretAccessKey":"s","Token":"t",)"
                    R"("Expiration":"2030-03-17T18:46:40Z","AccountId":"999"})",
                    "application/json");
  });
  container.Start();
  const std::string token = home.Write("auth", "Bearer abc");
  Chain chain({{"HOME", home.dir()},
               {"AWS_CONTAINER_CREDENTIALS_FULL_URI", container.url() + "/creds"},
               {"AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE", token}});
  Result<Credentials> c = chain.provider->Get();
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->access_key_id, "ASIACONT");
  EXPECT_EQ(c->account_id, "999");
  EXPECT_EQ(auth, "Bearer abc");
  Chain foreign(
      {{"HOME", home.dir()}, {"AWS_CONTAINER_CREDENTIALS_FULL_URI", "http://example.com/creds"}});
  EXPECT_NE(foreign.provider->Get().status().message().find("Unsupported host"), std::string::npos);
}

// An instance metadata stand-in: IMDSv2 unless `v1_only`; credentials expiring at `expiration`
// (an ISO time), a new key each time they are fetched.
struct Imds {
  explicit Imds(bool v1_only = false) {
    stand_in.server.Put(
        "/latest/api/token", [=, this](const httplib::Request& req, httplib::Response& res) {
          if (v1_only || req.get_header_value("x-aws-ec2-metadata-token-ttl-seconds") != "21600") {
            res.status = 403;
            return;
          }
          res.set_content("TOKEN", "text/plain");
        });
    stand_in.server.Get(
        "/latest/meta-data/iam/security-credentials/",
        [=, this](const httplib::Request& req, httplib::Response& res) {
          if (!v1_only && req.get_header_value("x-aws-ec2-metadata-token") != "TOKEN") {
            res.status = 401;
            return;
          }
          res.set_content("web-role", "text/plain");
        });
    stand_in.server.Get(
        "/latest/meta-data/iam/security-credentials/web-role",
        [this](const httplib::Request&, httplib::Response& res) {
          ++fetches;
          res.set_content(fmt::format(R"({{"Code":"Success","AccessKeyId":"ASIAIMDS{}",)"
                                      R"("SecretAccessKey":"s","Token":"t","Expiration":"{}"}})",
                                      fetches.load(), expiration),
                          "application/json");
        });
    stand_in.Start();
  }
  StandIn stand_in;
  std::atomic<int> fetches{0};
  std::string expiration = "2030-03-17T18:06:40Z";  // 20 minutes after kNow
};

TEST(AwsCredentialsTest, InstanceMetadataV2AndRefreshBeforeExpiry) {
  TempHome home;
  Imds imds;
  Chain chain({{"HOME", home.dir()}, {"AWS_EC2_METADATA_SERVICE_ENDPOINT", imds.stand_in.url()}});
  Result<Credentials> c = chain.provider->Get();
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->access_key_id, "ASIAIMDS1");
  EXPECT_EQ(c->source, "instance metadata (role web-role)");
  chain.now = kNow + 4 * 60;  // 16 minutes left: kept
  EXPECT_EQ(chain.provider->Get()->access_key_id, "ASIAIMDS1");
  chain.now = kNow + 6 * 60;  // 14 minutes left: refreshed
  EXPECT_EQ(chain.provider->Get()->access_key_id, "ASIAIMDS2");
  // A refresh that fails keeps the old credentials until 10 minutes before they expire.
  imds.stand_in.Stop();
  imds.expiration = "2030-03-17T18:06:40Z";
  chain.now = kNow + 8 * 60;
  EXPECT_EQ(chain.provider->Get()->access_key_id, "ASIAIMDS2");
  chain.now = kNow + 11 * 60;
  EXPECT_TRUE(::keyhole::testing::ErrorText(chain.provider->Get())
                  .starts_with("NoCredentialsError: the credentials from instance metadata (role "
                               "web-role) expire in 540 s and could not be refreshed: no answer "
                               "from http://127.0.0.1:"));
}

TEST(AwsCredentialsTest, InstanceMetadataV1WhenTheTokenIsRefused) {
  TempHome home;
  Imds imds(/*v1_only=*/true);
  Chain chain({{"HOME", home.dir()}, {"AWS_EC2_METADATA_SERVICE_ENDPOINT", imds.stand_in.url()}});
  EXPECT_EQ(chain.provider->Get()->access_key_id, "ASIAIMDS1");
  Chain v2_only({{"HOME", home.dir()},
                 {"AWS_EC2_METADATA_SERVICE_ENDPOINT", imds.stand_in.url()},
                 {"AWS_EC2_METADATA_V1_DISABLED", "true"}});
  EXPECT_EQ(v2_only.provider->Get().status().name(), "MetadataRetrievalError");
}

TEST(AwsCredentialsTest, SsoFromTheCliTokenCache) {
  TempHome home;
  StandIn portal;
  std::string bearer, query;
  portal.server.Get(
      "/federation/credentials", [&](const httplib::Request& req, httplib::Response& res) {
        bearer = req.get_header_value("x-amz-sso_bearer_token");
        query = req.get_param_value("role_name") + "@" + req.get_param_value("account_id");
        res.set_content(R"({"roleCredentials":{"accessKeyId":"ASIASSO","secretAccessKey":"s",)"
                        R"("sessionToken":"t","expiration":1900003600000}})",
                        "application/json");
      });
  portal.Start();
  home.Write(".aws/config",
             "[profile dev]\nsso_session = corp\nsso_account_id = 111122223333\n"
             "sso_role_name = Developer\nregion = us-east-1\n"
             "[sso-session corp]\nsso_start_url = https://corp.awsapps.com/start\n"
             "sso_region = eu-central-1\n");
  const std::map<std::string, std::string> vars = {
      {"HOME", home.dir()}, {"AWS_PROFILE", "dev"}, {"AWS_ENDPOINT_URL_SSO", portal.url()}};
  {
    Chain no_token(vars);
    Result<Credentials> c = no_token.provider->Get();
    ASSERT_FALSE(c.ok());
    EXPECT_EQ(c.status().name(), "SSOTokenLoadError");
    EXPECT_NE(c.status().message().find("aws sso login --profile dev"), std::string::npos);
  }
  // sha1("corp"): the AWS CLI's cache file for the session named corp.
  const std::string token_file = ".aws/sso/cache/" + Sha1Hex("corp") + ".json";
  home.Write(token_file, R"({"accessToken":"SECRET-TOKEN","expiresAt":"2030-03-17T17:00:00Z"})");
  {
    Chain expired(vars);
    EXPECT_EQ(expired.provider->Get().status().name(), "UnauthorizedSSOTokenError");
  }
  home.Write(token_file, R"({"accessToken":"SECRET-TOKEN","expiresAt":"2030-03-18T00:00:00Z"})");
  Chain chain(vars);
  Result<Credentials> c = chain.provider->Get();
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->access_key_id, "ASIASSO");
  EXPECT_EQ(c->account_id, "111122223333");
  EXPECT_EQ(c->expiration, 1900003600);
  EXPECT_EQ(bearer, "SECRET-TOKEN");
  EXPECT_EQ(query, "Developer@111122223333");
}

// The AWS CLI's cache keys, as its Python computes them:
//   sha1(json.dumps({"DurationSeconds": 3600, "ExternalId": "ext",
//                    "RoleArn": "arn:aws:iam::123456789012:role/r"}, sort_keys=True))
TEST(AwsCredentialsTest, CliCacheKeyIsTheAwsClis) {
  EXPECT_EQ(CliCacheKey({{"RoleArn", "\"arn:aws:iam::123456789012:role/r\""},
                         {"ExternalId", "\"ext\""},
                         {"DurationSeconds", "3600"}}),
            "231a8b3297509b0e13a9c4424e151c174544e232");
}

TEST(AwsCredentialsTest, Iso8601AndXml) {
  EXPECT_EQ(ParseIso8601("2030-03-17T17:46:40Z"), kNow);
  EXPECT_EQ(ParseIso8601("2030-03-17T17:46:40UTC"), kNow);
  EXPECT_EQ(ParseIso8601("2030-03-17T18:46:40+01:00"), kNow);
  EXPECT_EQ(ParseIso8601("2030-03-17T17:46:40.500Z"), kNow + 0.5);
  EXPECT_FALSE(ParseIso8601("2030-03-17"));
  EXPECT_FALSE(ParseIso8601("2030-03-17T17:46:40 later"));
  EXPECT_EQ(XmlText("<a><b>x &lt;&amp;&gt; y</b></a>", "b"), "x <&> y");
  EXPECT_EQ(XmlText("<a></a>", "b"), "");
}

}  // namespace
}  // namespace keyhole::aws
