// Times as keyhole reads and writes them: epoch seconds (UTC, a double where fractions count)
// and their ISO-8601 text. One format for every folder: TTL and .clock, stream labels, export
// manifests, credentials' expirations, generated data. (SigV4's compact dates and HTTP dates
// are SigV4's: aws/sigv4.h and server/sigv4_verify.h.) Pure functions, safe from any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace keyhole {

// The system clock, in epoch seconds.
double WallClockNow();

// "2030-01-01T00:00:00Z": whole seconds (the fraction is dropped).
std::string IsoSeconds(double epoch);

// "2030-01-01T00:00:00.123Z", then `suffix` instead of "Z" where given (DynamoDB's stream
// labels have none).
std::string IsoMillis(int64_t epoch_ms, std::string_view suffix = "Z");

// "2030-01-01".
std::string IsoDate(double epoch);

// "YYYY-MM-DDTHH:MM:SS[.fff][Z|UTC|GMT|+HH:MM|-HH:MM]" (no zone: UTC) -> epoch seconds;
// nullopt for anything else (a date without a time too).
std::optional<double> ParseIso8601(std::string_view text);

// A time given by a person (.clock, keyhole serve --clock): ParseIso8601's text, or epoch
// seconds ("1893456000", "1.5e9"). nullopt for anything else, infinities and NaN too.
std::optional<double> ParseTimeArgument(std::string_view text);

}  // namespace keyhole
