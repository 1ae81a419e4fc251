// core/time.h: epoch seconds and ISO-8601 text.
#include "core/time.h"

#include <fmt/format.h>

#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>

namespace keyhole {

namespace {

std::tm Utc(double epoch) {
  const std::time_t t = static_cast<std::time_t>(std::floor(epoch));
  std::tm tm{};
  gmtime_r(&t, &tm);
  return tm;
}

}  // namespace

double WallClockNow() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string IsoSeconds(double epoch) {
  const std::tm tm = Utc(epoch);
  return fmt::format("{:04d}-{:02d}-{:02d}T{:02d}:{:02d}:{:02d}Z", tm.tm_year + 1900, tm.tm_mon + 1,
                     tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

std::string IsoMillis(int64_t epoch_ms, std::string_view suffix) {
  const int64_t ms = ((epoch_ms % 1000) + 1000) % 1000;
  const std::tm tm = Utc(static_cast<double>((epoch_ms - ms) / 1000));
  return fmt::format("{:04d}-{:02d}-{:02d}T{:02d}:{:02d}:{:02d}.{:03d}{}", tm.tm_year + 1900,
                     tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, ms, suffix);
}

std::string IsoDate(double epoch) {
  const std::tm tm = Utc(epoch);
  return fmt::format("{:04d}-{:02d}-{:02d}", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
}

std::optional<double> ParseIso8601(std::string_view text) {
  // YYYY-MM-DDTHH:MM:SS[.fff][Z|UTC|+HH:MM|-HH:MM]
  if (text.size() < 19) return std::nullopt;
  std::tm tm{};
  const std::string head(text.substr(0, 19));
  const char* end = strptime(head.c_str(), "%Y-%m-%dT%H:%M:%S", &tm);
  if (!end || *end != '\0') return std::nullopt;
  double seconds = static_cast<double>(timegm(&tm));
  std::string_view rest = text.substr(19);
  if (!rest.empty() && rest.front() == '.') {
    size_t i = 1;
    double scale = 0.1;
    while (i < rest.size() && std::isdigit(static_cast<unsigned char>(rest[i]))) {
      seconds += (rest[i] - '0') * scale;
      scale /= 10;
      ++i;
    }
    rest.remove_prefix(i);
  }
  if (rest.empty() || rest == "Z" || rest == "UTC" || rest == "GMT") return seconds;
  if ((rest.front() == '+' || rest.front() == '-') && rest.size() == 6 && rest[3] == ':') {
    const int h = std::atoi(std::string(rest.substr(1, 2)).c_str());
    const int m = std::atoi(std::string(rest.substr(4, 2)).c_str());
    const double offset = (h * 60 + m) * 60.0;
    return rest.front() == '+' ? seconds - offset : seconds + offset;
  }
  return std::nullopt;
}

std::optional<double> ParseTimeArgument(std::string_view text) {
  if (std::optional<double> t = ParseIso8601(text)) return t;
  const std::string s(text);
  char* stop = nullptr;
  const double v = std::strtod(s.c_str(), &stop);
  if (!s.empty() && stop != s.c_str() && *stop == '\0' && std::isfinite(v)) return v;
  return std::nullopt;
}

}  // namespace keyhole
