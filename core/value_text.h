// How a value reads to people: as a cell of the shell's tables, of .draw's pictures and of the
// modeling reports (FormatCell), and as plain JSON (AppendPlainJson). Stateless; thread-safe.
#pragma once

#include <string>
#include <string_view>

#include "core/attribute_value.h"

namespace keyhole {

// One value as a cell:
//   S     as is; quoted like a PartiQL string ('...', inner ' doubled) when it is empty, has
//         leading or trailing white space, contains a control character, or reads as a
//         number, true, false, null, or begins like a PartiQL literal (', [, {, <<)
//   N     the exact canonical number (1E+3 prints 1000; 0.10 prints 0.1)
//   B     b'<base64>'            BOOL  true / false          NULL  null
//   SS    <<'a', 'b'>>           NS    <<1, 2>>              BS    <<b'..', b'..'>>
//   L     [1, 'a', true]         M     {'k': 1, 'n': 'x'}    (strings inside always quoted)
// Control characters and newlines never reach the output raw (\n, \t, \uXXXX escapes).
std::string FormatCell(const AttributeValue& value);

// `s` with every control character escaped as FormatCell escapes it (an attribute name as a
// column header).
std::string EscapeControls(std::string_view s);

// A value as plain JSON (the shell's json mode): numbers N (canonical digits), strings S,
// base64 for binary, arrays for lists and sets, objects for maps; appended to `out`.
void AppendPlainJson(const AttributeValue& v, std::string* out);

}  // namespace keyhole
