// Runs one statement typed at the prompt or read from a script, printing results to stdout and
// errors to stderr. A statement is PartiQL (planned by planner/ and refused when it is not
// key-addressable), one of keyhole's statements (CREATE TABLE, DROP TABLE, SHOW TABLES,
// DESCRIBE, CALL), or an API operation written as `<Operation> <request JSON>`.
#pragma once

#include <string_view>

#include "storage/database.h"

namespace keyhole::shell {

// Returns false when the statement failed. Results are printed as DynamoDB JSON, one item per
// line, followed by a footer: items returned and read, the operation and table/index, capacity.
// `line` is the statement's first line in its script (for error positions).
bool RunStatement(storage::Database& db, std::string_view text, int line = 1);

}  // namespace keyhole::shell
