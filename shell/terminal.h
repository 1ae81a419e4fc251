// The terminal the REPL prints on: its size, and the pager long results go through (psql's
// habit). Used only when Settings::terminal is set (standard output is a terminal and a person
// is at the prompt).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace keyhole::shell {

// Columns and rows of the terminal on standard output; 0 when unknown (not a terminal).
size_t TerminalColumns();
size_t TerminalRows();

// The pager command: $PAGER when set (empty: none), else `less -FRX` when less is on PATH,
// else `more` when it is; "" when there is none.
std::string PagerCommand();

// Writes `text` through the pager and waits for it to end. False (nothing written) when there
// is no pager or it could not be started; the caller then prints the text itself. A pager
// quit early (q in less) is not an error.
bool Page(std::string_view text);

}  // namespace keyhole::shell
