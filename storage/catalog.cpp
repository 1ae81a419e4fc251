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
  generation = ~uint64_t{0};  // force a reload after this change
  return txn.Put(catalog, "generation", v);
}

Status Database::Impl::WriteTable(Txn& txn, const TableDescription& t) {
  KH_RETURN_IF_ERROR(txn.Put(catalog, "table/" + t.name, json::Write(TableToJson(t))));
  return BumpGeneration(txn);
}

Status Database::Impl::Refresh(Txn& txn) {
  KH_ASSIGN_OR_RETURN(uint64_t g, ReadGeneration(txn));
  if (g == generation) return Status::OK();
  std::map<std::string, TableDescription> fresh;
  Cursor c(&txn, catalog);
  const std::string_view prefix = "table/";
  for (bool ok = c.Seek(prefix); ok && c.key().starts_with(prefix); ok = c.Next()) {
    KH_ASSIGN_OR_RETURN(json::Value v, json::Parse(c.value()));
    KH_ASSIGN_OR_RETURN(TableDescription t, TableFromJson(v));
    fresh.emplace(t.name, std::move(t));
  }
  KH_RETURN_IF_ERROR(c.status());
  tables = std::move(fresh);
  handles.clear();
  generation = g;
  return Status::OK();
}

Result<std::shared_ptr<const TableHandle>> Database::Impl::Resolve(const std::string& name) {
  auto h = std::make_shared<TableHandle>();
  bool found = false;
  KH_RETURN_IF_ERROR(env->Read([&](Txn& txn) -> Status {
    KH_RETURN_IF_ERROR(Refresh(txn));
    auto it = tables.find(name);
    if (it != tables.end()) {
      found = true;
      h->desc = it->second;
    }
    return Status::OK();
  }));
  if (!found) return Status::NotFound("Requested resource not found");
  KH_ASSIGN_OR_RETURN(h->dbi, env->OpenDbi(TableDbName(h->desc.id)));
  for (const auto& idx : h->desc.indexes) {
    KH_ASSIGN_OR_RETURN(MDB_dbi d, env->OpenDbi(IndexDbName(h->desc.id, idx.name)));
    h->index_dbis.push_back(d);
  }
  if (!h->desc.latest_stream_label.empty()) {
    KH_ASSIGN_OR_RETURN(h->stream_dbi, env->OpenDbi(StreamDbName(h->desc.id)));
    h->has_stream_db = true;
  }
  h->clock = &clock;
  handles[name] = h;
  return std::shared_ptr<const TableHandle>(h);
}

Status Database::Impl::WithTable(const std::string& name, bool write,
                                 const std::function<Status(Txn&, const TableHandle&)>& fn) {
  return WithTables({name}, write, [&](Txn& txn, const Handles& h) { return fn(txn, *h[0]); });
}

Status Database::Impl::WithTables(const std::vector<std::string>& names, bool write,
                                  const std::function<Status(Txn&, const Handles&)>& fn) {
  for (int attempt = 0; attempt < 8; ++attempt) {
    std::vector<std::shared_ptr<const TableHandle>> held;
    const uint64_t start = generation;
    for (const std::string& name : names) {
      auto it = handles.find(name);
      if (it != handles.end()) {
        held.push_back(it->second);
      } else {
        KH_ASSIGN_OR_RETURN(std::shared_ptr<const TableHandle> h, Resolve(name));
        held.push_back(std::move(h));
      }
    }
    // A Resolve that reloaded the catalog may have made handles taken before it stale.
    if (names.size() > 1 && generation != start) continue;
    Handles hs;
    for (const auto& h : held) hs.push_back(h.get());
    const uint64_t seen = generation;
    bool stale = false;
    auto body = [&](Txn& txn) -> Status {
      KH_ASSIGN_OR_RETURN(uint64_t g, ReadGeneration(txn));
      if (g != seen) {
        stale = true;
        return Status::Internal("catalog changed");
      }
      return fn(txn, hs);
    };
    Status s = write ? env->Write(body) : env->Read(body);
    if (!stale) return s;
    for (const std::string& name : names) handles.erase(name);  // the next Resolve reloads
  }
  return Status::Internal("the table's schema kept changing during the operation");
}

}  // namespace keyhole::storage
