// aws/config.h and aws/endpoint.h: the shared configuration read as botocore and the AWS CLI
// v2 read it, and a client's settings in their order.
#include "aws/config.h"

#include <gtest/gtest.h>

#include "aws_test_util.h"

namespace keyhole::aws {
namespace {

using testing::EnvOf;
using testing::TempHome;

TEST(AwsConfigIniTest, BotocoresDialect) {
  Result<IniFile> ini = ParseIni(
      "# a comment\n"
      "; another\n"
      "[default]\n"
      "Region = us-west-2 # not a comment\n"
      "output: json\n"
      "[profile dev]\r\n"
      "services = local\r\n"
      "[services local]\n"
      "dynamodb =\n"
      "  endpoint_url = http://localhost:8000\n"
      "  other = x\n"
      "sts =\n"
      "    endpoint_url=http://localhost:9000\n",
      "cfg");
  ASSERT_TRUE(ini.ok()) << ini.status().ToString();
  EXPECT_EQ(ini->at("default").values.at("region"), "us-west-2 # not a comment");
  EXPECT_EQ(ini->at("default").values.at("output"), "json");
  EXPECT_EQ(ini->at("profile dev").values.at("services"), "local");
  const ConfigSection& services = ini->at("services local");
  EXPECT_EQ(services.nested.at("dynamodb").at("endpoint_url"), "http://localhost:8000");
  EXPECT_EQ(services.nested.at("dynamodb").at("other"), "x");
  EXPECT_EQ(services.nested.at("sts").at("endpoint_url"), "http://localhost:9000");
  EXPECT_TRUE(services.values.empty());
}

TEST(AwsConfigIniTest, MistakesAreErrorsNamingTheFile) {
  for (const char* text :
       {"[a]\nx = 1\n[a]\n", "[a]\nx = 1\nX = 2\n", "x = 1\n[a]\n", "[a]\njust words\n", "[a\n"}) {
    SCOPED_TRACE(text);
    Result<IniFile> ini = ParseIni(text, "/home/u/.aws/config");
    ASSERT_FALSE(ini.ok());
    EXPECT_TRUE(ini.status().message().starts_with(
        "Unable to parse config file: /home/u/.aws/config (line "))
        << ini.status().message();
  }
}

TEST(AwsConfigSharedConfigTest, ProfilesOfBothFiles) {
  TempHome home;
  home.Write(".aws/config",
             "[default]\nregion = eu-west-1\n[profile dev]\nregion = us-east-2\n"
             "aws_access_key_id = FROMCONFIG\n[profile \"with space\"]\nregion = x\n"
             "[sso-session corp]\nsso_region = us-east-1\n[plain]\nregion = ignored\n");
  home.Write(".aws/credentials", "[dev]\naws_access_key_id = FROMCREDS\n[other]\nk = v\n");
  Result<SharedConfig> shared = LoadSharedConfig(EnvOf({{"HOME", home.dir()}}));
  ASSERT_TRUE(shared.ok()) << shared.status().ToString();
  EXPECT_EQ(shared->config_path, home.dir() + "/.aws/config");
  EXPECT_TRUE(shared->HasProfile("default"));
  EXPECT_TRUE(shared->HasProfile("with space"));
  EXPECT_TRUE(shared->HasProfile("other"));
  EXPECT_FALSE(shared->HasProfile("plain"));  // [plain] in the config file is not a profile
  EXPECT_EQ(shared->sso_sessions.count("corp"), 1u);
  // The credentials file's keys over the config file's.
  const ConfigSection dev = shared->Profile("dev");
  EXPECT_EQ(*dev.Find("aws_access_key_id"), "FROMCREDS");
  EXPECT_EQ(*dev.Find("region"), "us-east-2");
}

TEST(AwsConfigSharedConfigTest, FilesNamedByTheEnvironmentAndMissingFiles) {
  TempHome home;
  const std::string cfg = home.Write("elsewhere/cfg", "[profile p]\nregion = ap-south-1\n");
  Result<SharedConfig> shared =
      LoadSharedConfig(EnvOf({{"HOME", home.dir()},
                              {"AWS_CONFIG_FILE", cfg},
                              {"AWS_SHARED_CREDENTIALS_FILE", "~/nothing-here"}}));
  ASSERT_TRUE(shared.ok());
  EXPECT_TRUE(shared->config_exists);
  EXPECT_FALSE(shared->credentials_exists);
  EXPECT_EQ(shared->credentials_path, home.dir() + "/nothing-here");
  EXPECT_TRUE(shared->HasProfile("p"));
}

TEST(AwsConfigClientSettingsTest, RegionInTheCliOrder) {
  TempHome home;
  home.Write(".aws/config", "[default]\nregion = eu-west-1\n[profile p]\nregion = sa-east-1\n");
  const auto region = [&](std::map<std::string, std::string> vars, ClientFlags flags = {}) {
    vars["HOME"] = home.dir();
    Result<ClientSettings> s = ResolveClientSettings(flags, EnvOf(vars));
    EXPECT_TRUE(s.ok()) << s.status().ToString();
    return s.ok() ? s->region.value + " from " + s->region.source : "";
  };
  EXPECT_EQ(region({}), "eu-west-1 from profile default in " + home.dir() + "/.aws/config");
  EXPECT_EQ(region({{"AWS_PROFILE", "p"}}),
            "sa-east-1 from profile p in " + home.dir() + "/.aws/config");
  EXPECT_EQ(region({{"AWS_DEFAULT_REGION", "us-west-1"}}), "us-west-1 from AWS_DEFAULT_REGION");
  EXPECT_EQ(region({{"AWS_DEFAULT_REGION", "us-west-1"}, {"AWS_REGION", "us-east-2"}}),
            "us-east-2 from AWS_REGION");
  ClientFlags flags;
  flags.region = "ca-central-1";
  EXPECT_EQ(region({{"AWS_REGION", "us-east-2"}}, flags), "ca-central-1 from --region");
  flags.region = "no_such region";
  Result<ClientSettings> bad = ResolveClientSettings(flags, EnvOf({{"HOME", home.dir()}}));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            "Provided region_name 'no_such region' doesn't match a supported format (from "
            "--region).");
}

TEST(AwsConfigClientSettingsTest, AChosenProfileMustExist) {
  TempHome home;
  ClientFlags flags;
  flags.profile = "ghost";
  Result<ClientSettings> s = ResolveClientSettings(flags, EnvOf({{"HOME", home.dir()}}));
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(s.status().message().starts_with(
      "The config profile (ghost) could not be found (named by --profile"));
  // The default profile may be missing.
  EXPECT_TRUE(ResolveClientSettings({}, EnvOf({{"HOME", home.dir()}})).ok());
}

TEST(AwsConfigClientSettingsTest, EndpointInTheCliOrder) {
  TempHome home;
  home.Write(".aws/config",
             "[default]\nendpoint_url = http://profile:1\n"
             "[profile svc]\nservices = mine\nendpoint_url = http://profile:2\n"
             "[services mine]\ndynamodb =\n  endpoint_url = https://services:3\n"
             "[profile ignoring]\nendpoint_url = http://profile:4\n"
             "ignore_configured_endpoint_urls = true\n");
  const auto endpoint = [&](std::map<std::string, std::string> vars, ClientFlags flags = {}) {
    vars["HOME"] = home.dir();
    Result<ClientSettings> s = ResolveClientSettings(flags, EnvOf(vars));
    EXPECT_TRUE(s.ok()) << s.status().ToString();
    if (!s.ok()) return std::string();
    return s->endpoint ? s->endpoint->Url() + " from " + s->endpoint_source : "none";
  };
  EXPECT_EQ(endpoint({}), "http://profile:1/ from profile default's endpoint_url");
  EXPECT_EQ(endpoint({{"AWS_PROFILE", "svc"}}),
            "https://services:3/ from [services mine] in " + home.dir() + "/.aws/config");
  EXPECT_EQ(endpoint({{"AWS_ENDPOINT_URL", "http://any:5"}}),
            "http://any:5/ from AWS_ENDPOINT_URL");
  EXPECT_EQ(endpoint({{"AWS_ENDPOINT_URL", "http://any:5"},
                      {"AWS_ENDPOINT_URL_DYNAMODB", "http://ddb:6"}}),
            "http://ddb:6/ from AWS_ENDPOINT_URL_DYNAMODB");
  ClientFlags flags;
  flags.endpoint_url = "https://flag:7";
  EXPECT_EQ(endpoint({{"AWS_ENDPOINT_URL_DYNAMODB", "http://ddb:6"}}, flags),
            "https://flag:7/ from --endpoint");
  EXPECT_EQ(endpoint({{"AWS_PROFILE", "ignoring"}, {"AWS_ENDPOINT_URL", "http://any:5"}}), "none");
  EXPECT_EQ(endpoint({{"AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", "true"}}), "none");
}

TEST(AwsConfigClientSettingsTest, AttemptsAndCaBundle) {
  TempHome home;
  home.Write(".aws/config", "[default]\nmax_attempts = 5\nca_bundle = ~/ca.pem\n");
  Result<ClientSettings> s = ResolveClientSettings({}, EnvOf({{"HOME", home.dir()}}));
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->max_attempts, 5);
  EXPECT_EQ(s->ca_bundle.value, home.dir() + "/ca.pem");
  s = ResolveClientSettings(
      {}, EnvOf({{"HOME", home.dir()}, {"AWS_MAX_ATTEMPTS", "2"}, {"AWS_CA_BUNDLE", "/x.pem"}}));
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->max_attempts, 2);
  EXPECT_EQ(s->ca_bundle.value, "/x.pem");
  Result<ClientSettings> bad =
      ResolveClientSettings({}, EnvOf({{"HOME", home.dir()}, {"AWS_MAX_ATTEMPTS", "lots"}}));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            "max attempts 'lots' (from AWS_MAX_ATTEMPTS) is not a whole number from 1 to 100");
}

TEST(AwsConfigEndpointTest, ParsesWhatUsersWrite) {
  Result<Endpoint> e = ParseEndpoint("https://Dynamodb.EU-west-1.amazonaws.com");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->HostHeader(), "dynamodb.eu-west-1.amazonaws.com");
  EXPECT_EQ(e->Url(), "https://dynamodb.eu-west-1.amazonaws.com/");
  e = ParseEndpoint("http://127.0.0.1:8000/");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->HostHeader(), "127.0.0.1:8000");
  EXPECT_TRUE(e->loopback());
  e = ParseEndpoint("https://[::1]:8443/prefix");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->HostHeader(), "[::1]:8443");
  EXPECT_EQ(e->path, "/prefix");
  e = ParseEndpoint("http://h:80");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->HostHeader(), "h");
  for (const char* bad :
       {"dynamodb.us-east-1.amazonaws.com", "ftp://h", "http://", "http://h:0", "http://h:99999",
        "http://h:x", "http://u:p@h", "http://h/?a=1", "http://h h", "http://[::1",
        "http://:.:80/s", "http://::1:8000", "http://[a[b]"}) {
    SCOPED_TRACE(bad);
    Result<Endpoint> r = ParseEndpoint(bad);
    ASSERT_FALSE(r.ok());
    EXPECT_TRUE(r.status().message().starts_with(std::string("endpoint '") + bad + "'"));
  }
}

TEST(AwsConfigEndpointTest, RegionalEndpoints) {
  EXPECT_EQ(RegionalEndpoint("us-east-1").Url(), "https://dynamodb.us-east-1.amazonaws.com/");
  EXPECT_EQ(RegionalEndpoint("cn-north-1").Url(), "https://dynamodb.cn-north-1.amazonaws.com.cn/");
  EXPECT_EQ(RegionalEndpoint("local").Url(), "http://localhost:8000/");
  EXPECT_EQ(RegionalEndpoint("eu-west-1", "streams").Url(),
            "https://streams.dynamodb.eu-west-1.amazonaws.com/");
  EXPECT_TRUE(ValidRegionName("us-gov-west-1"));
  EXPECT_FALSE(ValidRegionName("12345"));
  EXPECT_FALSE(ValidRegionName("-us"));
  EXPECT_FALSE(ValidRegionName("us_east"));
  EXPECT_FALSE(ValidRegionName(""));
}

}  // namespace
}  // namespace keyhole::aws
