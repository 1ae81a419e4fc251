#include "storage/database.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

#include <chrono>

#include "core/item_codec.h"
#include "core/time.h"
#include "core/vector_index.h"
#include "storage/engine.h"
#include "storage/key_codec.h"

namespace keyhole::storage {

Database::Database(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Database::~Database() = default;

const std::string& Database::path() const { return impl_->env->path(); }

namespace {

// LMDB's first meta page starts with a 16-byte page header, then MDB_meta's mm_magic.
constexpr uint32_t kLmdbMagic = 0xBEEFC0DE;
constexpr size_t kLmdbMagicOffset = 16;

// Whether the first bytes of an existing file are an LMDB meta page (OK when it reads as empty:
// a new database); OS errors (unreadable file) are left for LMDB to report.
Status CheckLmdbFile(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return Status::OK();
  unsigned char head[4096];
  const size_t n = std::fread(head, 1, sizeof head, f);
  std::fclose(f);
  if (n == 0) return Status::OK();
  uint32_t magic = 0;
  if (n >= kLmdbMagicOffset + 4) std::memcpy(&magic, head + kLmdbMagicOffset, 4);
  if (magic == kLmdbMagic) return Status::OK();
  const bool text = std::memchr(head, '\0', n) == nullptr;
  return Status::Format(fmt::format("{}: not a keyhole database ({})", path,
                                    text ? "it is a text file" : "not an LMDB file"));
}

}  // namespace

Result<std::unique_ptr<Database>> Database::Open(const std::string& path, const Options& options) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    if (!options.create_if_missing || options.read_only) {
      return Status::NotFound(fmt::format("database file {} does not exist", path));
    }
  } else if (!S_ISREG(st.st_mode)) {
    return Status::Format(fmt::format("{}: not a keyhole database (not a regular file)", path));
  } else {
    // Checked before LMDB opens the file, so that a file that is not a database gets no lock
    // file beside it. Read even when its size is 0: files such as /proc/version have content
    // all the same (an empty read is a new database).
    KH_RETURN_IF_ERROR(CheckLmdbFile(path));
  }
  // A failed open removes the lock file it created.
  const std::string lock_path = path + "-lock";
  const bool had_lock = ::access(lock_path.c_str(), F_OK) == 0;
  Result<std::unique_ptr<Database>> db = OpenChecked(path, options);
  if (!db.ok() && !had_lock) ::unlink(lock_path.c_str());
  return db;
}

Result<std::unique_ptr<Database>> Database::OpenChecked(const std::string& path,
                                                        const Options& options) {
  auto impl = std::make_unique<Impl>();
  impl->clock = options.clock;
  impl->parser = options.expression_parser;
  impl->collection_limit = options.item_collection_limit_bytes;
  if (!impl->clock) impl->clock = WallClockNow;
  Env::Options eo;
  eo.initial_map_size = options.initial_map_size;
  eo.read_only = options.read_only;
  eo.sync = options.sync;
  KH_ASSIGN_OR_RETURN(impl->env, Env::Open(path, eo));
  if (!options.read_only) KH_RETURN_IF_ERROR(impl->env->SettleWriter());

  // Check (or write) the format. A file with sub-databases but no keyhole catalog is refused.
  const std::string expected = fmt::format("keyhole {}", kNewFileFormatVersion);
  Status s = impl->env->Read([&](Txn& txn) -> Status {
    MDB_dbi dbi;
    int rc = mdb_dbi_open(txn.get(), kCatalogDb, 0, &dbi);
    if (rc == MDB_NOTFOUND) {
      MDB_dbi main_dbi;
      MDB_stat ms;
      if (mdb_dbi_open(txn.get(), nullptr, 0, &main_dbi) == 0 &&
          mdb_stat(txn.get(), main_dbi, &ms) == 0 && ms.ms_entries > 0) {
        return Status::Format(fmt::format(
            "{}: not a keyhole database (an LMDB file without a keyhole catalog)", path));
      }
      return Status::NotFound("no catalog");
    }
    if (rc) return LmdbError(rc, "open catalog");
    std::string_view v;
    bool found;
    KH_RETURN_IF_ERROR(txn.Get(dbi, "format", &v, &found));
    if (!found || !v.starts_with("keyhole ")) {
      return Status::Format(fmt::format("{}: not a keyhole database (no format record)", path));
    }
    int version = std::atoi(std::string(v.substr(8)).c_str());
    if (version > kFormatVersion) {
      return Status::Format(
          fmt::format("{}: written by a newer keyhole (format {}; this build reads format {})",
                      path, version, kFormatVersion));
    }
    return Status::OK();
  });
  if (s.IsNotFound()) {
    if (options.read_only)
      return Status::Format(fmt::format("{}: not a keyhole database (empty)", path));
    KH_RETURN_IF_ERROR(impl->env->Write([&](Txn& txn) -> Status {
      KH_ASSIGN_OR_RETURN(MDB_dbi dbi, impl->env->CreateDbi(txn, kCatalogDb));
      return txn.Put(dbi, "format", expected);
    }));
  } else {
    KH_RETURN_IF_ERROR(s);
  }
  KH_ASSIGN_OR_RETURN(impl->catalog, impl->env->OpenDbi(kCatalogDb));
  std::unique_ptr<Database> db(new Database(std::move(impl)));
  // An import whose process was killed left staging sub-databases behind (import.cpp); a
  // failure here (a full disk) leaves them for the next open, and opening succeeds.
  if (!options.read_only) (void)db->DropAbandonedImports();
  if (!options.read_only && options.sweep_on_open) {
    // Expired items go when the database is opened (ttl.cpp). A sweep that fails (a full disk,
    // say) deletes nothing and is retried at the next open or `.ttl sweep`; opening succeeds.
    (void)db->SweepExpiredItems("");
  }
  return db;
}

Result<expr::ParsedExpressions> Database::Impl::ParseExpressions(
    const expr::ExpressionInput& input) const {
  if (input.empty()) return expr::ParsedExpressions{};
  if (input.parsed) return *input.parsed;
  if (!parser) {
    return Status::Validation(
        "This keyhole database was opened without an expression parser: expression "
        "parameters are not available");
  }
  return parser->Parse(input);
}

Status Database::VerifyIntegrity() {
  std::vector<std::string> names;
  KH_RETURN_IF_ERROR(impl_->env->Read([&](Txn& txn) -> Status {
    KH_ASSIGN_OR_RETURN(std::shared_ptr<const TableMap> tables, impl_->Refresh(txn));
    for (const auto& [n, t] : *tables) names.push_back(n);
    return Status::OK();
  }));
  for (const auto& name : names) {
    KH_RETURN_IF_ERROR(impl_->WithTable(name, false, [&](Txn& txn, const TableHandle& h) -> Status {
      std::vector<std::map<std::string, std::string>> expected(h.desc.indexes.size());
      std::vector<std::vector<Item>> vectors(h.desc.vector_indexes.size());
      Cursor c(&txn, h.dbi);
      for (bool ok = c.SeekFirst(); ok; ok = c.Next()) {
        KH_ASSIGN_OR_RETURN(Item item, DecodeItem(c.value()));
        if (EncodeTableKey(h.desc.key, item) != c.key()) {
          return Status::Internal(
              fmt::format("table {}: an item is stored under the wrong key", name));
        }
        for (size_t i = 0; i < h.desc.indexes.size(); ++i) {
          const IndexDescription& idx = h.desc.indexes[i];
          if (!InIndex(idx, item)) continue;
          Item p = ProjectItem(idx, h.desc.key, item);
          expected[i][EncodeIndexKey(idx.key, h.desc.key, item)] = EncodeItem(p, ItemSize(p));
        }
        for (size_t i = 0; i < h.desc.vector_indexes.size(); ++i) {
          if (!InVectorIndex(h.desc.vector_indexes[i], item)) continue;
          vectors[i].push_back(item);
        }
      }
      KH_RETURN_IF_ERROR(c.status());
      for (size_t i = 0; i < h.desc.indexes.size(); ++i) {
        Cursor ic(&txn, h.index_dbis[i]);
        size_t n = 0;
        for (bool ok = ic.SeekFirst(); ok; ok = ic.Next(), ++n) {
          auto it = expected[i].find(std::string(ic.key()));
          if (it == expected[i].end() || it->second != ic.value()) {
            return Status::Internal(fmt::format("table {} index {}: an entry has no matching item",
                                                name, h.desc.indexes[i].name));
          }
        }
        KH_RETURN_IF_ERROR(ic.status());
        if (n != expected[i].size()) {
          return Status::Internal(fmt::format("table {} index {}: {} entries, {} expected", name,
                                              h.desc.indexes[i].name, n, expected[i].size()));
        }
      }
      for (size_t i = 0; i < h.desc.vector_indexes.size(); ++i) {
        Status v = VerifyVectorIndex(txn, h.vector_dbis[i], h.desc.vector_indexes[i], h.desc.key,
                                     vectors[i]);
        if (!v.ok()) return Status::Internal(fmt::format("table {}: {}", name, v.message()));
      }
      return Status::OK();
    }));
  }
  return Status::OK();
}

}  // namespace keyhole::storage
