// What one write of a TransactWriteItems acts on: its table and its item's key. Shared by the
// connection (which item two statements both write) and the usage recorder (which items to read
// before and after). Stateless; thread-safe as `backend` is.
#pragma once

#include <optional>
#include <string>

#include "core/backend.h"

namespace keyhole {

struct TransactTarget {
  std::string table;
  Item key;
};

// The table and key of `w`: an Update's, Delete's or ConditionCheck's key as given; a Put's key
// attributes taken from its item, with the table's key schema read from `backend`. nullopt when
// `w` holds no action, or a Put's table is unknown or its item lacks a key attribute.
std::optional<TransactTarget> TargetOf(const TransactWriteItem& w, Backend& backend);

}  // namespace keyhole
