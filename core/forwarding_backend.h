// ForwardingBackend: a Backend that passes every operation to the backend it wraps. A decorator
// derives from it and overrides only the operations it changes (ReadOnlyBackend refuses writes;
// the shell's RecordingBackend records what each item operation consumed).
//
// Thread-safety: as the wrapped backend's.
#pragma once

#include <string>

#include "core/backend.h"

namespace keyhole {

class ForwardingBackend : public Backend {
 public:
  explicit ForwardingBackend(Backend& inner) : inner_(inner) {}

#define KH_BACKEND_OPERATION(Name) \
  Result<Name##Response> Name(const Name##Request& r) override { return inner_.Name(r); }
#include "core/operations.def"
  Result<TableSchemaPtr> TableSchema(const std::string& table_name) override {
    return inner_.TableSchema(table_name);
  }

 protected:
  Backend& inner_;
};

}  // namespace keyhole
