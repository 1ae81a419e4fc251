// The catalog: table descriptions and the schema generation (layout in storage/engine.h).
#include <fmt/format.h>

#include "storage/engine.h"
#include "storage/key_codec.h"

namespace keyhole::storage {

std::string TableDbName(uint64_t id) { return fmt::format("t{}", id); }
std::string StreamDbName(uint64_t id) { return fmt::format("t{}#stream", id); }
std::string IndexDbName(uint64_t id, const std::string& index) {
  return fmt::format("t{}/{}", id, index);
}

Result<uint64_t> Database::Impl::ReadGeneration(Txn& txn) {
  std::string_view v;
  bool found;
  KH_RETURN_IF_ERROR(txn.Get(catalog, "generation", &v, &found));
  if (!found || v.size() != 8) return uint64_t{0};
  return ReadBigEndian64(v);
}

Status Database::Impl::BumpGeneration(Txn& txn) {
  KH_ASSIGN_OR_RETURN(uint64_t g, ReadGeneration(txn));
  std::string v;
  AppendBigEndian64(g + 1, &v);
  return txn.Put(catalog, "generation", v);
}

Status Database::Impl::WriteTable(Txn& txn, const TableDescription& t) {
  KH_RETURN_IF_ERROR(txn.Put(catalog, "table/" + t.name, json::Write(TableToJson(t))));
  return BumpGeneration(txn);
}

Result<std::shared_ptr<const TableMap>> Database::Impl::Refresh(Txn& txn, uint64_t* gen) {
  KH_ASSIGN_OR_RETURN(uint64_t g, ReadGeneration(txn));
  if (gen) *gen = g;
  {
    std::lock_guard<std::mutex> lock(cache_mutex);
    if (g == generation) return tables;
  }
  auto fresh = std::make_shared<TableMap>();
  Cursor c(&txn, catalog);
  const std::string_view prefix = "table/";
  for (bool ok = c.Seek(prefix); ok && c.key().starts_with(prefix); ok = c.Next()) {
    KH_ASSIGN_OR_RETURN(json::Value v, json::Parse(c.value()));
    KH_ASSIGN_OR_RETURN(TableDescription t, TableFromJson(v));
    fresh->emplace(t.name, std::move(t));
  }
  KH_RETURN_IF_ERROR(c.status());
  // Generations only grow: a thread that read an older snapshot does not replace a newer map.
  // (A write that changed the schema in this process has not reloaded yet; its generation is
  // newer than any cached one, so the first reader after it reloads.) A write transaction's
  // view is never cached: with group commit it may hold another caller's schema change that
  // is not committed yet, and may never be.
  if (txn.writable()) return std::shared_ptr<const TableMap>(std::move(fresh));
  std::lock_guard<std::mutex> lock(cache_mutex);
  if (generation == ~uint64_t{0} || g > generation) {
    tables = fresh;
    handles.clear();
    generation = g;
  }
  return std::shared_ptr<const TableMap>(std::move(fresh));
}

Result<std::shared_ptr<const TableHandle>> Database::Impl::Resolve(const std::string& name) {
  auto h = std::make_shared<TableHandle>();
  bool found = false;
  KH_RETURN_IF_ERROR(env->Read([&](Txn& txn) -> Status {
    KH_ASSIGN_OR_RETURN(std::shared_ptr<const TableMap> all, Refresh(txn, &h->generation));
    auto it = all->find(name);
    if (it == all->end()) return Status::OK();
    found = true;
    h->desc = it->second;
    std::string_view entry;
    bool present = false;
    KH_RETURN_IF_ERROR(txn.Get(catalog, "table/" + name, &entry, &present));
    h->catalog_entry = std::string(entry);
    h->verified_txn.store(txn.id(), std::memory_order_relaxed);
    return Status::OK();
  }));
  if (!found) return Status::NotFound("Requested resource not found");
  KH_ASSIGN_OR_RETURN(h->dbi, env->OpenDbi(TableDbName(DataId(h->desc))));
  for (const auto& idx : h->desc.indexes) {
    KH_ASSIGN_OR_RETURN(MDB_dbi d, env->OpenDbi(IndexDbName(DataId(h->desc), idx.name)));
    h->index_dbis.push_back(d);
  }
  for (const auto& idx : h->desc.vector_indexes) {
    KH_ASSIGN_OR_RETURN(MDB_dbi d, env->OpenDbi(IndexDbName(DataId(h->desc), idx.name)));
    h->vector_dbis.push_back(d);
  }
  if (!h->desc.latest_stream_label.empty()) {
    KH_ASSIGN_OR_RETURN(h->stream_dbi, env->OpenDbi(StreamDbName(h->desc.id)));
    h->has_stream_db = true;
  }
  h->clock = &clock;
  h->collection_limit = collection_limit;
  std::lock_guard<std::mutex> lock(cache_mutex);
  if (h->generation == generation) handles[name] = h;
  return std::shared_ptr<const TableHandle>(h);
}

Status Database::Impl::WithTable(const std::string& name, bool write,
                                 FunctionRef<Status(Txn&, const TableHandle&)> fn, bool exclusive) {
  return WithTables(
      std::span<const std::string>(&name, 1), write,
      [&](Txn& txn, const Handles& h) { return fn(txn, *h[0]); }, exclusive);
}

std::shared_ptr<const TableHandle> Database::Impl::Cached(const std::string& name) {
  std::lock_guard<std::mutex> lock(cache_mutex);
  auto it = handles.find(name);
  return it == handles.end() ? nullptr : it->second;
}

Result<bool> Database::Impl::StillCurrent(Txn& txn, const TableHandle& h, uint64_t generation) {
  // When other tables changed the catalog since h was resolved, h is still current (a busy
  // schema elsewhere must not starve writers).
  if (generation == h.generation) return true;
  std::string_view entry;
  bool present = false;
  KH_RETURN_IF_ERROR(txn.Get(catalog, "table/" + h.desc.name, &entry, &present));
  return present && entry == h.catalog_entry;
}

Result<std::shared_ptr<const TableHandle>> Database::Impl::Current(const std::string& name) {
  std::shared_ptr<const TableHandle> cached = Cached(name);
  if (!cached) return Resolve(name);
  // Nothing committed since a snapshot that found it current: no transaction needed.
  if (cached->verified_txn.load(std::memory_order_relaxed) == env->LastCommittedTxnId()) {
    return cached;
  }
  bool current = false;
  KH_RETURN_IF_ERROR(env->Read([&](Txn& txn) -> Status {
    KH_ASSIGN_OR_RETURN(uint64_t g, ReadGeneration(txn));
    KH_ASSIGN_OR_RETURN(current, StillCurrent(txn, *cached, g));
    if (current) cached->verified_txn.store(txn.id(), std::memory_order_relaxed);
    return Status::OK();
  }));
  if (current) return cached;
  return Resolve(name);
}

Status Database::Impl::WithTables(std::span<const std::string> names, bool write,
                                  FunctionRef<Status(Txn&, const Handles&)> fn, bool exclusive) {
  // The handles, held for the transaction: in place for the few tables of most calls (a point
  // read has one), on the heap for a large batch.
  constexpr size_t kInPlace = 4;
  std::shared_ptr<const TableHandle> held_in_place[kInPlace];
  const TableHandle* raw_in_place[kInPlace];
  std::vector<std::shared_ptr<const TableHandle>> held_heap;
  std::vector<const TableHandle*> raw_heap;
  if (names.size() > kInPlace) {
    held_heap.resize(names.size());
    raw_heap.resize(names.size());
  }
  const std::span<std::shared_ptr<const TableHandle>> held =
      names.size() > kInPlace ? std::span(held_heap) : std::span(held_in_place, names.size());
  const std::span<const TableHandle*> raw =
      names.size() > kInPlace ? std::span(raw_heap) : std::span(raw_in_place, names.size());
  for (int attempt = 0; attempt < 8; ++attempt) {
    for (size_t i = 0; i < names.size(); ++i) {
      std::shared_ptr<const TableHandle> cached = Cached(names[i]);
      if (cached) {
        held[i] = std::move(cached);
      } else {
        KH_ASSIGN_OR_RETURN(held[i], Resolve(names[i]));
      }
    }
    // Handles resolved at different generations cannot all be current: resolve again.
    const uint64_t seen = held.front()->generation;
    bool mixed = false;
    for (const auto& h : held) mixed |= h->generation != seen;
    for (size_t i = 0; i < held.size(); ++i) raw[i] = held[i].get();
    const Handles hs(raw.data(), raw.size());
    bool stale = mixed;
    auto body = [&](Txn& txn) -> Status {
      // A read of the very snapshot in which every handle was found current skips the check.
      const uint64_t id = txn.writable() ? TableHandle::kNotVerified : txn.id();
      bool verified = !txn.writable();
      for (const auto& h : held) {
        verified &= h->verified_txn.load(std::memory_order_relaxed) == id;
      }
      if (!verified) {
        KH_ASSIGN_OR_RETURN(uint64_t g, ReadGeneration(txn));
        for (const auto& h : held) {
          KH_ASSIGN_OR_RETURN(bool current, StillCurrent(txn, *h, g));
          if (!current) {
            stale = true;
            return Status::Internal("catalog changed");
          }
          if (!txn.writable()) h->verified_txn.store(id, std::memory_order_relaxed);
        }
      }
      return fn(txn, hs);
    };
    Status s;
    if (!mixed) {
      s = write ? env->Write(body, exclusive ? Env::WriteMode::kExclusive : Env::WriteMode::kShared)
                : env->Read(body);
    }
    if (!stale) return s;
    std::lock_guard<std::mutex> lock(cache_mutex);
    for (const std::string& name : names) {  // the next Resolve reloads
      auto it = handles.find(name);
      if (it != handles.end() && it->second->generation == seen) handles.erase(it);
    }
    if (mixed) handles.clear();
  }
  return Status::Internal("the table's schema kept changing during the operation");
}

}  // namespace keyhole::storage
