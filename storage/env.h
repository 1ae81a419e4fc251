// Env: the LMDB environment of one keyhole file, and the transactions on it.
//
// Thread-safety: an Env may be used by many threads at once. Read transactions run in
// parallel (each thread its own, MDB_NOTLS); write transactions of this process are serialized
// by a mutex (and across processes by LMDB's writer lock). Several processes may open the same
// file: LMDB gives them one writer at a time and any number of readers, each seeing a
// consistent snapshot.
//
// LMDB rules kept here (lmdb.h): maxdbs is set before opening; sub-database handles are opened
// once per process and cached; a write transaction that failed is aborted, never reused; a read
// transaction never outlives one operation. Those that concern threads are kept by a
// process-wide gate, a writer-preferring readers-writer lock: every transaction holds it shared;
// it is held exclusively (no transaction of this process open) to grow the map or adopt another
// process's map size (mdb_env_set_mapsize), to open a sub-database handle outside a write
// transaction (mdb_dbi_open may not run beside another transaction's mdb_dbi_open), and for
// writes that drop sub-databases (mdb_drop closes a handle that readers might be using).
// Lock order: the write mutex, then the gate.
#pragma once

#include <lmdb.h>

#include <pthread.h>

#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

#include "core/function_ref.h"
#include "core/status.h"

namespace keyhole::storage {

// Maps an LMDB return code to a Status (InternalServerError naming the call and the error).
Status LmdbError(int rc, std::string_view what);

// A transaction. Aborted by the destructor unless committed.
class Txn {
 public:
  Txn(MDB_txn* txn, bool write) : txn_(txn), write_(write) {}
  Txn(const Txn&) = delete;
  Txn& operator=(const Txn&) = delete;
  ~Txn();

  MDB_txn* get() const { return txn_; }
  bool writable() const { return write_; }
  // The id of the snapshot a read transaction sees (the last transaction committed when it
  // began); for a write transaction, the id its commit will have.
  uint64_t id() const { return mdb_txn_id(txn_); }

  // Value at `key` in `dbi`: OK with *found false when absent. The view is valid until the
  // transaction ends or the next write in it.
  Status Get(MDB_dbi dbi, std::string_view key, std::string_view* value, bool* found);
  Status Put(MDB_dbi dbi, std::string_view key, std::string_view value);
  // Deletes `key`; OK when it was absent.
  Status Del(MDB_dbi dbi, std::string_view key);

  Status Commit();
  void Abort();
  // Gives up ownership without ending the transaction (Env reuses its read transaction).
  MDB_txn* Release() {
    MDB_txn* t = txn_;
    txn_ = nullptr;
    return t;
  }

  // Records an LMDB return code of a call made directly on get(): MDB_MAP_FULL makes
  // Env::Write grow the map and retry.
  void NoteRc(int rc);
  bool map_full() const { return map_full_; }

 private:
  MDB_txn* txn_;
  bool write_;
  bool map_full_ = false;
};

// A cursor over one sub-database, closed by the destructor.
class Cursor {
 public:
  Cursor(Txn* txn, MDB_dbi dbi);
  ~Cursor();
  Cursor(const Cursor&) = delete;
  Cursor& operator=(const Cursor&) = delete;

  // Positioning. Each returns whether the cursor now rests on an entry.
  bool SeekFirst();
  bool SeekLast();
  bool Seek(std::string_view key);  // first entry >= key
  bool Next();
  bool Prev();
  std::string_view key() const { return {static_cast<const char*>(k_.mv_data), k_.mv_size}; }
  std::string_view value() const { return {static_cast<const char*>(v_.mv_data), v_.mv_size}; }
  // Non-OK when positioning failed for a reason other than "no entry".
  const Status& status() const { return status_; }

 private:
  bool Op(MDB_cursor_op op);
  MDB_cursor* cur_ = nullptr;
  MDB_val k_{}, v_{};
  Status status_;
};

// A readers-writer lock that lets a waiting writer in before later readers (glibc's default
// rwlock prefers readers, which would starve a map resize under steady reads). Meets the
// standard SharedLockable requirements, for std::shared_lock / std::unique_lock.
class Gate {
 public:
  Gate();
  ~Gate();
  Gate(const Gate&) = delete;
  Gate& operator=(const Gate&) = delete;
  void lock();
  void unlock();
  void lock_shared();
  void unlock_shared();

 private:
  pthread_rwlock_t rw_;
};

class Env {
 public:
  struct Options {
    size_t initial_map_size = size_t{64} << 20;
    bool read_only = false;
    bool sync = true;  // false: MDB_NOSYNC
  };

  // Opens (creating when missing, unless read_only) the environment at `path` (one file plus
  // "<path>-lock"). DatabaseFormatException when the file is not an LMDB file; AccessDenied-
  // Exception (the OS's words) when the file or its lock file may not be opened. Read-only:
  // when the lock file cannot be created or written (a read-only directory), the file is read
  // without one (MDB_NOLOCK), as sqlite3 reads a database on read-only media.
  static Result<std::unique_ptr<Env>> Open(const std::string& path, const Options& options);
  ~Env();

  const std::string& path() const { return path_; }

  // How a write transaction shares the process with readers.
  enum class WriteMode {
    kShared,     // beside any number of read transactions of this process (the usual case)
    kExclusive,  // alone in the process: for writes that drop sub-databases (mdb_drop)
  };
  // Runs `fn` in a write transaction and commits it. When LMDB reports the map full, the
  // transaction is aborted, the map doubled and `fn` run again from the start; so `fn` must
  // not leave effects outside the transaction that a retry would duplicate. A non-OK Status
  // from `fn` aborts and is returned. One write of this process at a time: a second caller
  // waits. REQUIRES: the calling thread has no transaction of this Env open.
  //
  // Group commit (kShared): callers that arrive while a write is running wait in a queue; the
  // next one to run takes up to kMaxGroup of them and runs each `fn` in a nested transaction
  // of one write transaction (in arrival order; a `fn` that fails is rolled back alone), which
  // it commits once: one B-tree path rewrite and one sync for the whole group instead of one
  // per caller, each caller's writes still atomic and durable before Write returns. A caller
  // alone runs as before, without nesting. A `fn` may therefore run on another thread than its
  // caller's (which waits meanwhile).
  Status Write(FunctionRef<Status(Txn&)> fn, WriteMode mode = WriteMode::kShared);
  // Takes LMDB's write lock and lets it go (a write transaction begun and aborted). A writer
  // killed inside a commit, after its meta page but before the lock file's "last transaction"
  // was updated, leaves readers starting from the snapshot before that commit while writers see
  // it; LMDB repairs the lock file only when the next writer takes the lock. Opening read-write
  // does this, so that a process's reads and writes agree from the start.
  Status SettleWriter();
  // Runs `fn` in a read transaction (a consistent snapshot), in parallel with other threads'
  // reads and with a write. REQUIRES: the calling thread has no transaction of this Env open.
  Status Read(FunctionRef<Status(Txn&)> fn);

  // The handle of sub-database `name`, opened once and cached. With `create`, it is created
  // inside `txn` (a write transaction); the handle is cached only once that commits.
  // Otherwise the handle is opened in its own short transaction; NotFound-style
  // ResourceNotFoundException when the sub-database does not exist.
  // REQUIRES (without create): no transaction of this process is open.
  Result<MDB_dbi> OpenDbi(const std::string& name);
  Result<MDB_dbi> CreateDbi(Txn& txn, const std::string& name);
  // Forgets a cached handle (after the sub-database was dropped).
  void ForgetDbi(const std::string& name);
  bool HasDbi(const std::string& name) const;

  size_t map_size() const;
  // The id of the last transaction committed to the file, by any process (read from the meta
  // pages, without a transaction): when it equals a read transaction's id(), nothing was
  // committed since that snapshot. A commit in progress may not show yet, as for a read
  // transaction begun at the same moment. REQUIRES: the calling thread has no transaction of
  // this Env open (it takes the gate, as a transaction does).
  uint64_t LastCommittedTxnId();
  // Grows the map (doubling) until `bytes` more than the file uses fit, so that a large write
  // transaction is not retried on the way. REQUIRES: no transaction of this process is open
  // on this thread.
  Status Reserve(size_t bytes);
  bool read_only() const { return read_only_; }

 private:
  Env() = default;
  // Begins a transaction while `held` (the gate, shared or exclusive) is held; adopts another
  // process's map size (which needs the gate exclusively: `held` is released and retaken).
  template <typename Lock>
  Status Begin(bool write, MDB_txn** txn, Lock& held);
  Status AdoptMapSize();  // REQUIRES: the gate is not held by this thread
  Status Grow();          // REQUIRES: the gate is not held by this thread
  // A reset read transaction from the pool, renewed; or a new one.
  Status BeginRead(MDB_txn** txn, std::shared_lock<Gate>& held);

  MDB_env* env_ = nullptr;
  std::string path_;
  bool read_only_ = false;
  Gate gate_;
  std::mutex write_mutex_;  // one write transaction of this process at a time
  // Group commit (Write): the callers waiting to write, and whether one of them is running a
  // group (guarded by queue_mutex_; lock order: queue_mutex_ is never held with the others).
  struct WriteRequest;
  static constexpr size_t kMaxGroup = 256;
  std::mutex queue_mutex_;
  std::condition_variable queue_cv_;
  std::deque<WriteRequest*> queue_;
  bool leading_ = false;
  // Runs a group of requests (more than one) as nested transactions of one write transaction.
  // REQUIRES: write_mutex_ held.
  void RunGroup(const std::vector<WriteRequest*>& group);
  // One attempt at a group in one write transaction: false (nothing committed) when the map or
  // the transaction filled. REQUIRES: write_mutex_ held.
  bool TryGroup(const std::vector<WriteRequest*>& group);
  // Runs `fn` alone in a write transaction. REQUIRES: write_mutex_ held.
  Status RunAlone(FunctionRef<Status(Txn&)> fn, WriteMode mode);
  // Read transactions, reset between operations and renewed for the next (cheaper than
  // begin/abort: no allocation, no reader-slot search). Never active while in the pool.
  std::mutex readers_mutex_;
  std::vector<MDB_txn*> readers_;
  mutable std::mutex dbis_mutex_;
  std::map<std::string, MDB_dbi> dbis_;
  std::map<std::string, MDB_dbi> pending_;  // created in the open write txn (write_mutex_)
};

}  // namespace keyhole::storage
