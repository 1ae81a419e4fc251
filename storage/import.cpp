// Database::ImportItems (the shell's .import): all or nothing, in one of two ways.
//
//  - A sorted bulk load, when the table is empty, never had a stream and has no local
//    secondary index (the usual case: a table created to be loaded). The items are read and
//    checked, and sorted by their stored key, their index entries by index key (RunSorter:
//    memory holds kSortBytes for the items and as much for the entries, the rest goes to sorted
//    runs in an unlinked temporary file beside the database). Then, into new sub-databases (a
//    hidden copy of the table's, "t<j>" and "t<j>/<index>" for a fresh id j): the items in key
//    order, appended (a key given more than once goes through PutItem's own write path, each
//    time, so the last one is kept and its capacity counted as PutItem counts it), a
//    transaction per kStageBytes; then each index's entries in key order, appended (of a key
//    given more than once, the last item's). In key order a
//    transaction rewrites only the pages it fills, where random order would rewrite most of
//    the tree at every commit. One last transaction switches the new sub-databases in: the
//    table's catalog entry gets data id j (TableDescription::data_id; the catalog's format
//    becomes 2, which older builds refuse) and its old, empty sub-databases are dropped after
//    it. Until that commit the table is untouched; a load that fails or is interrupted drops
//    its staging, and one whose process was killed leaves a catalog record "import/<j>" (with
//    its pid) whose staging the next read-write open by another process drops.
//  - One write transaction otherwise (a table with items, which the import may replace; a
//    stream, whose records must appear with the items; LSIs, whose item collections are
//    checked as each item is written): LMDB keeps the pages the transaction writes in memory
//    until the commit (spilling them to the file past 512 MB).
#include <fmt/format.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <thread>

#include "core/item_codec.h"
#include "storage/engine.h"
#include "storage/key_codec.h"
#include "storage/run_sorter.h"

namespace keyhole::storage {

namespace {

// What one staging transaction writes: about this many bytes of items (or of index entries).
constexpr size_t kStageBytes = size_t{4} << 20;
// The memory of each of the two sorts: the items', and the index entries' (shared by the
// indexes), which fill at the same time.
constexpr size_t kSortBytes = size_t{128} << 20;

const expr::ParsedExpressions kNone;

Status Interrupted(int64_t written) {
  return Status(ErrorCode::kInterrupted,
                fmt::format("Interrupted after {} items: nothing was imported", written));
}

// What PutItem checks without reading: the item's limits, its key and index key attributes.
Status CheckImported(const TableHandle& h, const Item& item) {
  KH_RETURN_IF_ERROR(ValidateItem(item));
  ItemWrite w{WriteKind::kPut, &h, &item, &kNone, ReturnValues::kNone, false};
  return CheckWrite(w);
}

// Writes one checked item of an import into `h`'s sub-databases, as PutItem would.
Status WriteImported(Txn& txn, const TableHandle& h, const Item& item, ConsumedCapacity* cc) {
  ItemWrite w{WriteKind::kPut, &h, &item, &kNone, ReturnValues::kNone, false};
  KH_RETURN_IF_ERROR(EvaluateWrite(txn, &w));
  return ApplyWrite(txn, w, cc);
}

double WriteUnitsOf(ConsumedCapacity cc) {
  return Report(ReturnConsumedCapacity::kTotal, std::move(cc))->total.capacity_units;
}

// Appends (key, value) after the last entry of `dbi` (MDB_APPEND: no search, pages filled).
Status Append(Txn& txn, MDB_dbi dbi, std::string_view key, std::string_view value,
              const char* what) {
  MDB_val k{key.size(), const_cast<char*>(key.data())};
  MDB_val v{value.size(), const_cast<char*>(value.data())};
  int rc = mdb_put(txn.get(), dbi, &k, &v, MDB_APPEND);
  txn.NoteRc(rc);
  return rc ? LmdbError(rc, what) : Status::OK();
}

// The records of one staging transaction, kept in one buffer so that a retried transaction
// (the map grew) writes them again.
class Chunk {
 public:
  struct Record {
    size_t offset;  // of the key in bytes_; the value follows it
    uint32_t key_size, value_size;
    uint64_t seq;
    bool first, last;  // the first and the last record of its key
  };
  void clear() {
    bytes_.clear();
    records_.clear();
  }
  void Add(std::string_view key, uint64_t seq, std::string_view value, bool first) {
    records_.push_back({bytes_.size(), static_cast<uint32_t>(key.size()),
                        static_cast<uint32_t>(value.size()), seq, first, true});
    bytes_.append(key);
    bytes_.append(value);
  }
  void SetLast(size_t i, bool last) { records_[i].last = last; }
  // Drops the records before the i-th; the others move to the front.
  void DropBefore(size_t i) {
    if (i == records_.size()) return clear();
    const size_t from = records_[i].offset;
    bytes_.erase(0, from);
    records_.erase(records_.begin(), records_.begin() + static_cast<std::ptrdiff_t>(i));
    for (Record& r : records_) r.offset -= from;
  }
  size_t size() const { return records_.size(); }
  size_t bytes() const { return bytes_.size(); }
  const Record& record(size_t i) const { return records_[i]; }
  std::string_view key(size_t i) const {
    return {bytes_.data() + records_[i].offset, records_[i].key_size};
  }
  std::string_view value(size_t i) const {
    const Record& r = records_[i];
    return {bytes_.data() + r.offset + r.key_size, r.value_size};
  }

 private:
  std::string bytes_;
  std::vector<Record> records_;
};

// An "import/<id>" record: the pid of the importing process (0: none), then sub-database names.
std::string StagingRecord(long pid, const std::vector<std::string>& dbs) {
  std::string record = fmt::format("{}\n", pid);
  for (const std::string& name : dbs) record += name + "\n";
  return record;
}

// The sub-database names listed in an "import/<id>" record and its pid.
void ParseStagingRecord(std::string_view v, long* pid, std::vector<std::string>* dbs) {
  *pid = 0;
  bool first = true;
  while (!v.empty()) {
    size_t nl = v.find('\n');
    std::string_view line = v.substr(0, nl);
    if (first) {
      *pid = std::atol(std::string(line).c_str());
      first = false;
    } else if (!line.empty()) {
      dbs->emplace_back(line);
    }
    if (nl == std::string_view::npos) break;
    v.remove_prefix(nl + 1);
  }
}

}  // namespace

Status Database::DropStaging(const std::string& record_key, const std::vector<std::string>& dbs) {
  std::vector<MDB_dbi> handles;
  for (const std::string& name : dbs) {
    Result<MDB_dbi> d = impl_->env->OpenDbi(name);
    if (d.ok()) handles.push_back(*d);  // a name that is gone is already dropped
  }
  Status s = impl_->env->Write(
      [&](Txn& txn) -> Status {
        for (MDB_dbi d : handles) KH_RETURN_IF_ERROR(Drop(txn, d));
        return txn.Del(impl_->catalog, record_key);
      },
      Env::WriteMode::kExclusive);
  for (const std::string& name : dbs) impl_->env->ForgetDbi(name);
  return s;
}

Status Database::DropAbandonedImports() {
  std::vector<std::pair<std::string, std::vector<std::string>>> abandoned;
  KH_RETURN_IF_ERROR(impl_->env->Read([&](Txn& txn) -> Status {
    Cursor c(&txn, impl_->catalog);
    const std::string_view prefix = "import/";
    for (bool ok = c.Seek(prefix); ok && c.key().starts_with(prefix); ok = c.Next()) {
      long pid;
      std::vector<std::string> dbs;
      ParseStagingRecord(c.value(), &pid, &dbs);
      // An import of a live process (another one, or this one through another Database) is in
      // progress; a pid that no longer runs left its staging behind.
      if (pid > 0 && (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM)) continue;
      abandoned.emplace_back(std::string(c.key()), std::move(dbs));
    }
    return c.status();
  }));
  for (const auto& [key, dbs] : abandoned) KH_RETURN_IF_ERROR(DropStaging(key, dbs));
  return Status::OK();
}

Result<bool> Database::BulkLoads(const TableHandle& table) {
  // (Vector indexes are kept by the write path, item by item.)
  if (!table.desc.latest_stream_label.empty() || HasLocalIndexes(table.desc) ||
      !table.desc.vector_indexes.empty()) {
    return false;
  }
  bool empty = false;
  KH_RETURN_IF_ERROR(impl_->env->Read([&](Txn& txn) -> Status {
    MDB_stat st;
    int rc = mdb_stat(txn.get(), table.dbi, &st);
    if (rc) return LmdbError(rc, "stat");
    empty = st.ms_entries == 0;
    return Status::OK();
  }));
  return empty;
}

Result<bool> Database::ImportIsBulkLoad(const std::string& table_name) {
  KH_RETURN_IF_ERROR(ValidateTableName(table_name));
  KH_ASSIGN_OR_RETURN(std::shared_ptr<const TableHandle> table, impl_->Current(table_name));
  return BulkLoads(*table);
}

Result<ImportResult> Database::ImportItems(const std::string& table_name,
                                           const ImportSource& source,
                                           const std::atomic<bool>* cancel) {
  KH_RETURN_IF_ERROR(ValidateTableName(table_name));
  KH_ASSIGN_OR_RETURN(std::shared_ptr<const TableHandle> table, impl_->Current(table_name));
  if (source.expected_bytes) {
    // Room for the items, their index entries and half-full B-tree pages: growing the map
    // mid-import would start a transaction over.
    KH_RETURN_IF_ERROR(
        impl_->env->Reserve(source.expected_bytes * 2 * (1 + table->desc.indexes.size())));
  }
  KH_ASSIGN_OR_RETURN(bool bulk, BulkLoads(*table));
  if (bulk) return ImportStaged(*table, source, cancel);
  ImportResult out;
  KH_RETURN_IF_ERROR(impl_->WithTable(table_name, true, [&](Txn& txn, const TableHandle& h) {
    // Each attempt starts from the first item (a transaction that fills the map is retried).
    KH_RETURN_IF_ERROR(source.rewind());
    out = ImportResult();
    ConsumedCapacity cc;
    cc.table_name = h.desc.name;
    std::vector<Item> batch;
    for (;;) {
      batch.clear();
      KH_ASSIGN_OR_RETURN(bool more, source.next(&batch));
      if (!more) break;
      for (const Item& item : batch) {
        if (cancel && cancel->load(std::memory_order_relaxed)) return Interrupted(out.written);
        Status st = CheckImported(h, item);
        if (st.ok()) st = WriteImported(txn, h, item, &cc);
        if (!st.ok()) {
          if (source.refused && !txn.map_full()) source.refused(out.written);
          return st;
        }
        ++out.written;
      }
    }
    out.write_units = WriteUnitsOf(std::move(cc));
    return Status::OK();
  }));
  return out;
}

Result<ImportResult> Database::ImportStaged(const TableHandle& table, const ImportSource& source,
                                            const std::atomic<bool>* cancel) {
  std::string dir = std::filesystem::path(impl_->env->path()).parent_path().string();
  if (dir.empty()) dir = ".";
  auto interrupted = [&] { return cancel && cancel->load(std::memory_order_relaxed); };

  // 1. Every item is read, checked and sorted by its stored key (the order of the table), with
  //    its position in the input: equal keys keep input order, the last one wins. Its index
  //    entries are sorted by index key, per index, with the same position (entries of a key
  //    given more than once are sorted too; phase 3 skips all but the last one's).
  ImportResult out;
  RunSorter sorted(dir, kSortBytes);
  std::vector<std::unique_ptr<RunSorter>> index_sorted;
  for (size_t i = 0; i < table.desc.indexes.size(); ++i) {
    index_sorted.push_back(
        std::make_unique<RunSorter>(dir, kSortBytes / table.desc.indexes.size()));
  }
  uint64_t given = 0;
  std::vector<Item> batch;
  for (;;) {
    batch.clear();
    KH_ASSIGN_OR_RETURN(bool more, source.next(&batch));
    if (interrupted()) return Interrupted(static_cast<int64_t>(given));
    if (!more) break;
    for (const Item& item : batch) {
      if (Status s = CheckImported(table, item); !s.ok()) {
        if (source.refused) source.refused(static_cast<int64_t>(given));
        return s;
      }
      const std::string value = EncodeItem(item, ItemSize(item));
      KH_RETURN_IF_ERROR(sorted.Add(EncodeTableKey(table.desc.key, item), given, value));
      for (size_t i = 0; i < table.desc.indexes.size(); ++i) {
        const IndexDescription& idx = table.desc.indexes[i];
        if (!InIndex(idx, item)) continue;
        const std::string key = EncodeIndexKey(idx.key, table.desc.key, item);
        if (idx.projection.type == ProjectionType::kAll) {  // the table entry's bytes
          KH_RETURN_IF_ERROR(index_sorted[i]->Add(key, given, value));
        } else {
          Item p = ProjectItem(idx, table.desc.key, item);
          KH_RETURN_IF_ERROR(index_sorted[i]->Add(key, given, EncodeItem(p, ItemSize(p))));
        }
      }
      ++given;
    }
  }
  // The index entries are sorted on threads of their own while the items are, and while
  // phase 2 writes them (on a machine with cores to spare, the load's longest step alone).
  // Each sorter is touched by its thread only until phase 3 joins it; a return before that
  // joins them as the jthreads go (they are declared after the sorters).
  std::vector<Status> index_finished(index_sorted.size());
  std::vector<std::jthread> index_finishing;
  for (size_t i = 0; i < index_sorted.size(); ++i) {
    index_finishing.emplace_back(
        [&index_sorted, &index_finished, i] { index_finished[i] = index_sorted[i]->Finish(); });
  }
  KH_RETURN_IF_ERROR(sorted.Finish());
  if (given == 0) return out;

  // The staging: the table's handle with new sub-databases, recorded in the catalog first.
  TableHandle stage = table;
  std::vector<std::string> dbs;
  std::string record_key;
  KH_RETURN_IF_ERROR(impl_->env->Write([&](Txn& txn) -> Status {
    KH_ASSIGN_OR_RETURN(stage.desc.data_id, NextTableId(txn, impl_->catalog));
    dbs = {TableDbName(stage.desc.data_id)};
    for (const IndexDescription& idx : stage.desc.indexes)
      dbs.push_back(IndexDbName(stage.desc.data_id, idx.name));
    record_key = fmt::format("import/{}", stage.desc.data_id);
    KH_RETURN_IF_ERROR(txn.Put(impl_->catalog, record_key, StagingRecord(::getpid(), dbs)));
    stage.index_dbis.clear();
    for (size_t i = 0; i < dbs.size(); ++i) {
      KH_ASSIGN_OR_RETURN(MDB_dbi d, impl_->env->CreateDbi(txn, dbs[i]));
      if (i == 0) {
        stage.dbi = d;
      } else {
        stage.index_dbis.push_back(d);
      }
    }
    return Status::OK();
  }));

  bool switched = false;
  Status st = [&]() -> Status {
    // 2. The items in key order into the staging table, a transaction per kStageBytes: a key
    //    given once is appended; one given more often goes through PutItem's write path (on the
    //    handle without its indexes) each time, its index units counted as PutItem counts them.
    //    The positions of such keys' items are noted (8 bytes each, in memory: the one thing
    //    the sort budgets do not bound): all but the last one's index entries are skipped in
    //    phase 3, and none of them is counted there again.
    TableHandle plain = stage;
    plain.desc.indexes.clear();
    plain.index_dbis.clear();
    std::vector<uint64_t> superseded, rewritten;
    Chunk chunk;  // a transaction's records, then (while the sorter has more) the next one
    // Appends the sorter's next record. One with the key of the record before it makes that
    // one not the last of its key, and is not the first.
    auto read = [&]() -> Result<bool> {
      std::string_view k, v;
      uint64_t seq;
      if (!sorted.Next(&k, &seq, &v)) {
        KH_RETURN_IF_ERROR(sorted.status());
        return false;
      }
      const bool repeat = chunk.size() > 0 && k == chunk.key(chunk.size() - 1);
      if (repeat) chunk.SetLast(chunk.size() - 1, false);
      chunk.Add(k, seq, v, !repeat);
      return true;
    };
    KH_ASSIGN_OR_RETURN(bool more, read());
    while (chunk.size() > 0) {
      if (interrupted()) return Interrupted(out.written);
      // Reads until the records before the last one fill kStageBytes: the last one, read
      // ahead, says whether the one before it is the last of its key. It waits for the next
      // transaction.
      while (more && chunk.record(chunk.size() - 1).offset < kStageBytes) {
        KH_ASSIGN_OR_RETURN(more, read());
      }
      const size_t n = more ? chunk.size() - 1 : chunk.size();
      double units = 0;
      KH_RETURN_IF_ERROR(impl_->env->Write([&](Txn& txn) -> Status {
        // A retry (the map grew) writes the same records again from the first.
        units = 0;
        ConsumedCapacity cc;
        cc.table_name = table.desc.name;
        for (size_t j = 0; j < n; ++j) {
          const Chunk::Record& r = chunk.record(j);
          if (r.first && r.last) {  // a key given once: appended as it is
            KH_RETURN_IF_ERROR(
                Append(txn, stage.dbi, chunk.key(j), chunk.value(j), "append an item"));
            units += WriteUnits(EncodedItemSize(chunk.value(j)));
            continue;
          }
          KH_ASSIGN_OR_RETURN(Item item, DecodeItem(chunk.value(j)));
          ItemWrite w{WriteKind::kPut, &plain, &item, &kNone, ReturnValues::kNone, true};
          KH_RETURN_IF_ERROR(EvaluateWrite(txn, &w));
          KH_RETURN_IF_ERROR(ApplyWrite(txn, w, &cc));
          AddIndexUnits(table.desc, w.cur.item ? &*w.cur.item : nullptr, &item, &cc);
        }
        units += WriteUnitsOf(std::move(cc));
        return Status::OK();
      }));
      out.written += static_cast<int64_t>(n);
      out.write_units += units;
      for (size_t j = 0; j < n; ++j) {
        const Chunk::Record& r = chunk.record(j);
        if (!r.last) {
          superseded.push_back(r.seq);
        } else if (!r.first) {
          rewritten.push_back(r.seq);
        }
      }
      chunk.DropBefore(n);
    }
    std::sort(superseded.begin(), superseded.end());
    std::sort(rewritten.begin(), rewritten.end());
    auto noted = [](const std::vector<uint64_t>& seqs, uint64_t seq) {
      return !seqs.empty() && std::binary_search(seqs.begin(), seqs.end(), seq);
    };
    // 3. Each index's entries in key order, appended, a transaction per kStageBytes; the units
    //    of each as PutItem counts a new entry.
    for (size_t i = 0; i < index_sorted.size(); ++i) {
      RunSorter& entries = *index_sorted[i];
      index_finishing[i].join();
      KH_RETURN_IF_ERROR(index_finished[i]);
      bool rest = true;
      while (rest) {
        if (interrupted()) return Interrupted(out.written);
        chunk.clear();
        std::string_view k, v;
        uint64_t seq;
        while (chunk.bytes() < kStageBytes && (rest = entries.Next(&k, &seq, &v))) {
          if (noted(superseded, seq)) continue;
          chunk.Add(k, seq, v, true);
          if (!noted(rewritten, seq)) out.write_units += WriteUnits(EncodedItemSize(v));
        }
        KH_RETURN_IF_ERROR(entries.status());
        if (chunk.size() == 0) break;
        KH_RETURN_IF_ERROR(impl_->env->Write([&](Txn& txn) -> Status {
          for (size_t j = 0; j < chunk.size(); ++j) {
            KH_RETURN_IF_ERROR(Append(txn, stage.index_dbis[i], chunk.key(j), chunk.value(j),
                                      "append an index entry"));
          }
          return Status::OK();
        }));
      }
    }
    if (interrupted()) return Interrupted(out.written);
    // 4. The switch: only onto the table as it was when the import began, still empty, and
    //    only while the staging's record is there (no other process took it for abandoned).
    //    The table's old, empty sub-databases are named in that record for the drop that
    //    follows (or, if that fails, the next read-write open's). Nothing is dropped here:
    //    mdb_drop closes handles even in a transaction that is then retried or aborted.
    std::vector<std::string> old_dbs = {TableDbName(DataId(table.desc))};
    for (const IndexDescription& idx : table.desc.indexes)
      old_dbs.push_back(IndexDbName(DataId(table.desc), idx.name));
    KH_RETURN_IF_ERROR(impl_->env->Write([&](Txn& txn) -> Status {
      std::string_view entry, staged;
      bool present = false, recorded = false;
      KH_RETURN_IF_ERROR(txn.Get(impl_->catalog, "table/" + table.desc.name, &entry, &present));
      KH_RETURN_IF_ERROR(txn.Get(impl_->catalog, record_key, &staged, &recorded));
      if (!recorded) {
        return Status::Internal(
            "the import's staging was dropped by another process (which took it for abandoned): "
            "nothing was imported");
      }
      MDB_stat ms;
      int rc = present && entry == table.catalog_entry ? mdb_stat(txn.get(), table.dbi, &ms)
                                                       : MDB_NOTFOUND;
      if (rc == 0 && ms.ms_entries != 0) rc = MDB_NOTFOUND;
      if (rc) {
        return Status::InUse(fmt::format(
            "Table {} was changed by another writer during the import: nothing was imported",
            table.desc.name));
      }
      // No process: for whoever opens the file next, should the drop below fail.
      KH_RETURN_IF_ERROR(txn.Put(impl_->catalog, record_key, StagingRecord(0, old_dbs)));
      // A file with data ids needs a keyhole that reads them: older ones refuse it.
      KH_RETURN_IF_ERROR(
          txn.Put(impl_->catalog, "format", fmt::format("keyhole {}", kFormatVersion)));
      return impl_->WriteTable(txn, stage.desc);
    }));
    switched = true;
    (void)DropStaging(record_key, old_dbs);  // empty: quick; else the next open drops them
    return Status::OK();
  }();
  if (!st.ok() && !switched) {
    // Whatever was staged goes. If that fails too (a full disk), the record stays, with this
    // process's pid: a read-write open by another process once this one has ended drops it.
    (void)DropStaging(record_key, dbs);
  }
  KH_RETURN_IF_ERROR(st);
  return out;
}

}  // namespace keyhole::storage
