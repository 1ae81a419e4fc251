// The AWS shared configuration (config.h).
#include "aws/config.h"

#include <fmt/format.h>
#include <pwd.h>
#include <unistd.h>

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

#include "core/strings.h"

namespace keyhole::aws {

namespace {

bool IsTrue(std::string_view v) { return AsciiLower(Trim(v)) == "true"; }

// "profile dev" -> "dev" (quotes around the name removed); nullopt when `header` does not
// start with `kind` and one name.
std::optional<std::string> NamedSection(std::string_view header, std::string_view kind) {
  if (!header.starts_with(kind)) return std::nullopt;
  std::string_view rest = header.substr(kind.size());
  if (rest.empty() || !std::isspace(static_cast<unsigned char>(rest.front()))) return std::nullopt;
  rest = Trim(rest);
  if (rest.size() >= 2 && (rest.front() == '"' || rest.front() == '\'') &&
      rest.back() == rest.front()) {
    rest = rest.substr(1, rest.size() - 2);
  } else if (rest.find_first_of(" \t") != std::string_view::npos) {
    return std::nullopt;
  }
  if (rest.empty()) return std::nullopt;
  return std::string(rest);
}

}  // namespace

Environment Environment::Process() {
  return Environment{[](std::string_view name) -> std::optional<std::string> {
    const char* v = std::getenv(std::string(name).c_str());
    if (!v) return std::nullopt;
    return std::string(v);
  }};
}

std::optional<std::string> Environment::NonEmpty(std::string_view name) const {
  std::optional<std::string> v = Get(name);
  if (!v || v->empty()) return std::nullopt;
  return v;
}

std::string Environment::Home() const {
  if (std::optional<std::string> home = NonEmpty("HOME")) return *home;
  if (const passwd* pw = getpwuid(getuid()); pw && pw->pw_dir) return pw->pw_dir;
  return "";
}

std::string ExpandHome(const std::string& path, const Environment& env) {
  if (path == "~") return env.Home();
  if (path.starts_with("~/")) return env.Home() + path.substr(1);
  return path;
}

const std::string* ConfigSection::Find(std::string_view key) const {
  auto it = values.find(std::string(key));
  return it == values.end() ? nullptr : &it->second;
}

Result<IniFile> ParseIni(std::string_view text, std::string_view path) {
  IniFile file;
  ConfigSection* section = nullptr;
  std::string* value = nullptr;  // the value continuation lines extend
  int line_no = 0;
  const auto error = [&](std::string_view why) {
    return Status::Validation(
        fmt::format("Unable to parse config file: {} (line {}: {})", path, line_no, why));
  };
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const std::string_view stripped = Trim(line);
    if (stripped.empty() || stripped.front() == '#' || stripped.front() == ';') continue;
    if (std::isspace(static_cast<unsigned char>(line.front())) && value) {
      *value += "\n";
      *value += stripped;
      continue;
    }
    if (stripped.front() == '[') {
      if (stripped.back() != ']') return error("a section header without its ']'");
      const std::string name(Trim(stripped.substr(1, stripped.size() - 2)));
      if (file.count(name)) return error(fmt::format("the section [{}] twice", name));
      section = &file[name];
      value = nullptr;
      continue;
    }
    if (!section) return error("a setting before the first [section]");
    const size_t sep = stripped.find_first_of("=:");
    if (sep == std::string_view::npos || sep == 0)
      return error("neither a section nor key = value");
    const std::string key = AsciiLower(Trim(stripped.substr(0, sep)));
    if (section->values.count(key)) return error(fmt::format("the key '{}' twice", key));
    value = &section->values[key];
    *value = std::string(Trim(stripped.substr(sep + 1)));
  }
  // A key whose own line was empty and whose value continued on indented lines is a map.
  for (auto& [name, s] : file) {
    for (auto it = s.values.begin(); it != s.values.end();) {
      if (!it->second.starts_with("\n")) {
        ++it;
        continue;
      }
      std::map<std::string, std::string>& nested = s.nested[it->first];
      std::string_view rest = std::string_view(it->second).substr(1);
      while (!rest.empty()) {
        const size_t nl = rest.find('\n');
        const std::string_view sub = rest.substr(0, nl);
        rest.remove_prefix(nl == std::string_view::npos ? rest.size() : nl + 1);
        const size_t eq = sub.find('=');
        if (eq == std::string_view::npos) continue;
        nested[AsciiLower(Trim(sub.substr(0, eq)))] = std::string(Trim(sub.substr(eq + 1)));
      }
      it = s.values.erase(it);
    }
  }
  return file;
}

ConfigSection SharedConfig::Profile(const std::string& name) const {
  ConfigSection merged;
  if (auto it = config_profiles.find(name); it != config_profiles.end()) merged = it->second;
  if (auto it = credential_profiles.find(name); it != credential_profiles.end()) {
    for (const auto& [k, v] : it->second.values) merged.values[k] = v;
    for (const auto& [k, v] : it->second.nested) merged.nested[k] = v;
  }
  return merged;
}

bool SharedConfig::HasProfile(const std::string& name) const {
  return config_profiles.count(name) || credential_profiles.count(name);
}

Result<SharedConfig> LoadSharedConfig(const Environment& env) {
  SharedConfig shared;
  shared.config_path = ExpandHome(env.NonEmpty("AWS_CONFIG_FILE").value_or("~/.aws/config"), env);
  shared.credentials_path =
      ExpandHome(env.NonEmpty("AWS_SHARED_CREDENTIALS_FILE").value_or("~/.aws/credentials"), env);
  std::string text;
  if (ReadWholeFile(shared.config_path, &text)) {
    shared.config_exists = true;
    KH_ASSIGN_OR_RETURN(IniFile ini, ParseIni(text, shared.config_path));
    for (auto& [header, section] : ini) {
      if (header == "default") {
        shared.config_profiles["default"] = std::move(section);
      } else if (auto name = NamedSection(header, "profile")) {
        shared.config_profiles[*name] = std::move(section);
      } else if (auto session = NamedSection(header, "sso-session")) {
        shared.sso_sessions[*session] = std::move(section);
      } else if (auto services = NamedSection(header, "services")) {
        shared.services[*services] = std::move(section);
      }
    }
  }
  text.clear();
  if (ReadWholeFile(shared.credentials_path, &text)) {
    shared.credentials_exists = true;
    KH_ASSIGN_OR_RETURN(IniFile ini, ParseIni(text, shared.credentials_path));
    for (auto& [header, section] : ini) shared.credential_profiles[header] = std::move(section);
  }
  return shared;
}

namespace {

// The endpoint configured for `service_key` ("dynamodb", "sts", ...) with environment name
// `env_id` ("DYNAMODB", "STS"), after --endpoint; nullopt when none.
Result<std::optional<Endpoint>> ConfiguredEndpoint(const ClientSettings& s, const Environment& env,
                                                   std::string_view env_id,
                                                   std::string_view service_key,
                                                   std::string* source) {
  const ConfigSection profile = s.shared.Profile(s.profile.value);
  const std::string* ignore = profile.Find("ignore_configured_endpoint_urls");
  if ((env.NonEmpty("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS") &&
       IsTrue(*env.NonEmpty("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS"))) ||
      (ignore && IsTrue(*ignore))) {
    return std::optional<Endpoint>();
  }
  const auto parsed = [&](const std::string& url,
                          std::string from) -> Result<std::optional<Endpoint>> {
    KH_ASSIGN_OR_RETURN(Endpoint e, ParseEndpoint(url));
    *source = std::move(from);
    return std::optional<Endpoint>(std::move(e));
  };
  const std::string service_var = fmt::format("AWS_ENDPOINT_URL_{}", env_id);
  if (auto v = env.NonEmpty(service_var)) return parsed(*v, service_var);
  if (auto v = env.NonEmpty("AWS_ENDPOINT_URL")) return parsed(*v, "AWS_ENDPOINT_URL");
  if (const std::string* services = profile.Find("services")) {
    auto it = s.shared.services.find(*services);
    if (it == s.shared.services.end()) {
      return Status::Validation(fmt::format(
          "The profile is configured to use the services section but the \"{}\" services "
          "configuration does not exist.",
          *services));
    }
    auto sub = it->second.nested.find(std::string(service_key));
    if (sub != it->second.nested.end()) {
      auto url = sub->second.find("endpoint_url");
      if (url != sub->second.end()) {
        return parsed(url->second,
                      fmt::format("[services {}] in {}", *services, s.shared.config_path));
      }
    }
  }
  if (const std::string* url = profile.Find("endpoint_url")) {
    return parsed(*url, fmt::format("profile {}'s endpoint_url", s.profile.value));
  }
  return std::optional<Endpoint>();
}

}  // namespace

Result<ClientSettings> ResolveClientSettings(const ClientFlags& flags, const Environment& env) {
  ClientSettings s;
  KH_ASSIGN_OR_RETURN(s.shared, LoadSharedConfig(env));
  if (!flags.profile.empty()) {
    s.profile = {flags.profile, "--profile"};
    s.profile_explicit = s.profile_chosen = true;
  } else if (auto p = env.NonEmpty("AWS_PROFILE")) {
    s.profile = {*p, "AWS_PROFILE"};
    s.profile_chosen = true;
  } else if (auto d = env.NonEmpty("AWS_DEFAULT_PROFILE")) {
    s.profile = {*d, "AWS_DEFAULT_PROFILE"};
    s.profile_chosen = true;
  } else {
    s.profile = {"default", ""};
  }
  if (s.profile_chosen && !s.shared.HasProfile(s.profile.value)) {
    return Status::Validation(fmt::format(
        "The config profile ({}) could not be found (named by {}; looked in {} and {})",
        s.profile.value, s.profile.source, s.shared.config_path, s.shared.credentials_path));
  }
  const ConfigSection profile = s.shared.Profile(s.profile.value);
  const std::string in_profile =
      fmt::format("profile {} in {}", s.profile.value, s.shared.config_path);

  if (!flags.region.empty()) {
    s.region = {flags.region, "--region"};
  } else if (auto r = env.NonEmpty("AWS_REGION")) {
    s.region = {*r, "AWS_REGION"};
  } else if (auto d = env.NonEmpty("AWS_DEFAULT_REGION")) {
    s.region = {*d, "AWS_DEFAULT_REGION"};
  } else if (const std::string* pr = profile.Find("region"); pr && !pr->empty()) {
    s.region = {*pr, in_profile};
  }
  if (!s.region.empty() && !ValidRegionName(s.region.value)) {
    return Status::Validation(
        fmt::format("Provided region_name '{}' doesn't match a supported "
                    "format (from {}).",
                    s.region.value, s.region.source));
  }

  if (!flags.endpoint_url.empty()) {
    KH_ASSIGN_OR_RETURN(Endpoint e, ParseEndpoint(flags.endpoint_url));
    s.endpoint = std::move(e);
    s.endpoint_source = "--endpoint";
  } else {
    KH_ASSIGN_OR_RETURN(s.endpoint,
                        ConfiguredEndpoint(s, env, "DYNAMODB", "dynamodb", &s.endpoint_source));
  }

  const auto attempts = [&](const std::string& v, std::string_view from) -> Status {
    char* end = nullptr;
    const long n = std::strtol(v.c_str(), &end, 10);
    if (v.empty() || *end != '\0' || n < 1 || n > 100) {
      return Status::Validation(
          fmt::format("max attempts '{}' (from {}) is not a whole number from 1 to 100", v, from));
    }
    s.max_attempts = static_cast<int>(n);
    return Status::OK();
  };
  if (flags.max_attempts > 0) {
    KH_RETURN_IF_ERROR(attempts(std::to_string(flags.max_attempts), "--max-attempts"));
  } else if (auto a = env.NonEmpty("AWS_MAX_ATTEMPTS")) {
    KH_RETURN_IF_ERROR(attempts(*a, "AWS_MAX_ATTEMPTS"));
  } else if (const std::string* pa = profile.Find("max_attempts")) {
    KH_RETURN_IF_ERROR(attempts(*pa, in_profile));
  }

  if (!flags.ca_bundle.empty()) {
    s.ca_bundle = {ExpandHome(flags.ca_bundle, env), "--ca-bundle"};
  } else if (auto c = env.NonEmpty("AWS_CA_BUNDLE")) {
    s.ca_bundle = {ExpandHome(*c, env), "AWS_CA_BUNDLE"};
  } else if (const std::string* pc = profile.Find("ca_bundle"); pc && !pc->empty()) {
    s.ca_bundle = {ExpandHome(*pc, env), in_profile};
  }
  return s;
}

Result<std::optional<Endpoint>> ConfiguredServiceEndpoint(const ClientSettings& settings,
                                                          const Environment& env,
                                                          std::string_view service_id) {
  std::string source;
  return ConfiguredEndpoint(settings, env, service_id, AsciiLower(service_id), &source);
}

}  // namespace keyhole::aws
