// keyhole: the shell. Until the language issue lands, it opens the database and says honestly
// what it can do.
#include <cstdio>
#include <iostream>
#include <string>

#include "storage/database.h"

int main(int argc, char** argv) {
  std::string path = argc > 1 ? argv[1] : "keyhole.kh";
  auto db = keyhole::storage::Database::Open(path);
  if (!db.ok()) {
    std::fprintf(stderr, "keyhole: %s\n", db.status().ToString().c_str());
    return 1;
  }
  keyhole::ListTablesRequest req;
  auto tables = (*db)->ListTables(req);
  std::printf("keyhole 0.1 — database %s\n", path.c_str());
  std::printf("The storage engine is ready; the PartiQL language and the REPL are not built yet.\n");
  if (tables.ok()) {
    std::printf("Tables (%zu):", tables->table_names.size());
    for (const auto& t : tables->table_names) std::printf(" %s", t.c_str());
    std::printf("\n");
  }
  return 0;
}
