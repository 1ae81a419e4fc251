#include "storage/env.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <cerrno>
#include <shared_mutex>

namespace keyhole::storage {

namespace {
constexpr unsigned kMaxDbs = 1024;  // sub-databases per file: see README "Limits"
constexpr int kMaxGrowRetries = 40;

MDB_val Val(std::string_view s) { return MDB_val{s.size(), const_cast<char*>(s.data())}; }

// The Env in which this thread has a transaction open (Read and Write may not nest: with a
// writer waiting at the gate, a second shared lock would deadlock).
thread_local const Env* open_in = nullptr;

// Marks the thread as inside a transaction of `env` for the scope; Internal error when it
// already is.
class NoNesting {
 public:
  explicit NoNesting(const Env* env) : ok_(open_in != env) {
    if (ok_) open_in = env;
  }
  ~NoNesting() {
    if (ok_) open_in = nullptr;
  }
  Status status() const {
    return ok_ ? Status::OK()
               : Status::Internal("a transaction was begun inside another on the same thread");
  }

 private:
  bool ok_;
};
}  // namespace

Status LmdbError(int rc, std::string_view what) {
  if (rc == EACCES || rc == EPERM || rc == EROFS) {
    return Status::AccessDenied(fmt::format("{}: {}", what, mdb_strerror(rc)));
  }
  if (rc == MDB_INVALID || rc == MDB_VERSION_MISMATCH) {
    return Status::Format(fmt::format("{}: not a keyhole database ({})", what, mdb_strerror(rc)));
  }
  return Status::Internal(fmt::format("{}: {}", what, mdb_strerror(rc)));
}

// ---- Txn ----

Txn::~Txn() { Abort(); }

void Txn::Abort() {
  if (txn_) mdb_txn_abort(txn_);
  txn_ = nullptr;
}

Status Txn::Commit() {
  int rc = mdb_txn_commit(txn_);
  txn_ = nullptr;
  if (rc == MDB_MAP_FULL) map_full_ = true;
  return rc ? LmdbError(rc, "commit") : Status::OK();
}

Status Txn::Get(MDB_dbi dbi, std::string_view key, std::string_view* value, bool* found) {
  MDB_val k = Val(key), v;
  int rc = mdb_get(txn_, dbi, &k, &v);
  *found = rc == 0;
  if (rc == MDB_NOTFOUND) return Status::OK();
  if (rc) return LmdbError(rc, "get");
  *value = std::string_view(static_cast<const char*>(v.mv_data), v.mv_size);
  return Status::OK();
}

Status Txn::Put(MDB_dbi dbi, std::string_view key, std::string_view value) {
  MDB_val k = Val(key), v = Val(value);
  int rc = mdb_put(txn_, dbi, &k, &v, 0);
  if (rc == MDB_MAP_FULL || rc == MDB_TXN_FULL) map_full_ = true;
  return rc ? LmdbError(rc, "put") : Status::OK();
}

Status Txn::Del(MDB_dbi dbi, std::string_view key) {
  MDB_val k = Val(key);
  int rc = mdb_del(txn_, dbi, &k, nullptr);
  if (rc == MDB_NOTFOUND) return Status::OK();
  if (rc == MDB_MAP_FULL) map_full_ = true;
  return rc ? LmdbError(rc, "del") : Status::OK();
}

void Txn::NoteRc(int rc) {
  if (rc == MDB_MAP_FULL || rc == MDB_TXN_FULL) map_full_ = true;
}

// ---- Cursor ----

Cursor::Cursor(Txn* txn, MDB_dbi dbi) {
  int rc = mdb_cursor_open(txn->get(), dbi, &cur_);
  if (rc) {
    cur_ = nullptr;
    status_ = LmdbError(rc, "cursor");
  }
}

Cursor::~Cursor() {
  if (cur_) mdb_cursor_close(cur_);
}

bool Cursor::Op(MDB_cursor_op op) {
  if (!cur_) return false;
  int rc = mdb_cursor_get(cur_, &k_, &v_, op);
  if (rc == 0) return true;
  if (rc != MDB_NOTFOUND) status_ = LmdbError(rc, "cursor");
  return false;
}

bool Cursor::SeekFirst() { return Op(MDB_FIRST); }
bool Cursor::SeekLast() { return Op(MDB_LAST); }
bool Cursor::Next() { return Op(MDB_NEXT); }
bool Cursor::Prev() { return Op(MDB_PREV); }
bool Cursor::Seek(std::string_view key) {
  k_ = Val(key);
  return Op(MDB_SET_RANGE);
}

// ---- Gate ----

Gate::Gate() {
  pthread_rwlockattr_t attr;
  pthread_rwlockattr_init(&attr);
  pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
  pthread_rwlock_init(&rw_, &attr);
  pthread_rwlockattr_destroy(&attr);
}
Gate::~Gate() { pthread_rwlock_destroy(&rw_); }
void Gate::lock() { pthread_rwlock_wrlock(&rw_); }
void Gate::unlock() { pthread_rwlock_unlock(&rw_); }
void Gate::lock_shared() { pthread_rwlock_rdlock(&rw_); }
void Gate::unlock_shared() { pthread_rwlock_unlock(&rw_); }

// ---- Env ----

Result<std::unique_ptr<Env>> Env::Open(const std::string& path, const Options& options) {
  std::unique_ptr<Env> env(new Env());
  env->path_ = path;
  struct stat st;
  bool exists = ::stat(path.c_str(), &st) == 0;
  auto create = [&]() -> int {
    int rc = mdb_env_create(&env->env_);
    if (rc) return rc;
    mdb_env_set_maxdbs(env->env_, kMaxDbs);
    mdb_env_set_maxreaders(env->env_, 254);
    // A new file starts at the initial size; an existing one keeps its size (0 = adopt).
    mdb_env_set_mapsize(env->env_, exists ? 0 : options.initial_map_size);
    if (exists && static_cast<size_t>(st.st_size) < options.initial_map_size) {
      mdb_env_set_mapsize(env->env_, options.initial_map_size);
    }
    return 0;
  };
  int rc = create();
  if (rc) return LmdbError(rc, "mdb_env_create");
  unsigned flags = MDB_NOSUBDIR | MDB_NOTLS;
  if (options.read_only) flags |= MDB_RDONLY;
  if (!options.sync) flags |= MDB_NOSYNC;
  env->read_only_ = options.read_only;
  rc = mdb_env_open(env->env_, path.c_str(), flags, 0644);
  if (rc && options.read_only && (rc == EACCES || rc == EROFS)) {
    // The lock file cannot be made or written: read without one. mdb_env_open may not be
    // retried on the same handle after a failure, so start over.
    mdb_env_close(env->env_);
    env->env_ = nullptr;
    rc = create();
    if (rc) return LmdbError(rc, "mdb_env_create");
    rc = mdb_env_open(env->env_, path.c_str(), flags | MDB_NOLOCK, 0644);
  }
  if (rc) return LmdbError(rc, path);
  // A process killed inside a read keeps its reader slot until someone clears it.
  int dead = 0;
  mdb_reader_check(env->env_, &dead);
  return env;
}

Env::~Env() {
  for (MDB_txn* t : readers_) mdb_txn_abort(t);
  if (env_) mdb_env_close(env_);
}

size_t Env::map_size() const {
  MDB_envinfo info;
  mdb_env_info(env_, &info);
  return info.me_mapsize;
}

uint64_t Env::LastCommittedTxnId() {
  std::shared_lock<Gate> shared(gate_);  // the meta pages move when the map is remapped
  MDB_envinfo info;
  return mdb_env_info(env_, &info) == 0 ? info.me_last_txnid : 0;
}

template <typename Lock>
Status Env::Begin(bool write, MDB_txn** txn, Lock& held) {
  if (write && read_only_) {
    return Status::AccessDenied(fmt::format(
        "{} is open read-only (--readonly, or the file is not writable): nothing was written",
        path_));
  }
  for (int attempt = 0; attempt < 4; ++attempt) {
    int rc = mdb_txn_begin(env_, nullptr, write ? 0 : MDB_RDONLY, txn);
    if (rc == MDB_MAP_RESIZED) {  // another process grew the map: adopt its size
      held.unlock();
      Status s = AdoptMapSize();
      held.lock();
      KH_RETURN_IF_ERROR(s);
      continue;
    }
    if (rc == MDB_READERS_FULL) {  // slots of processes that died inside a read: reclaim them
      int dead = 0;
      if (mdb_reader_check(env_, &dead) == 0 && dead > 0) continue;
    }
    return rc ? LmdbError(rc, "begin transaction") : Status::OK();
  }
  return Status::Internal("begin transaction: the map keeps being resized");
}

Status Env::AdoptMapSize() {
  std::unique_lock<Gate> alone(gate_);
  int rc = mdb_env_set_mapsize(env_, 0);
  return rc ? LmdbError(rc, "adopt map size") : Status::OK();
}

Status Env::Grow() {
  std::unique_lock<Gate> alone(gate_);
  size_t next = map_size() * 2;
  int rc = mdb_env_set_mapsize(env_, next);
  return rc ? LmdbError(rc, "grow map") : Status::OK();
}

Status Env::Reserve(size_t bytes) {
  if (read_only_) return Status::OK();
  NoNesting scope(this);
  KH_RETURN_IF_ERROR(scope.status());
  std::unique_lock<Gate> alone(gate_);
  MDB_envinfo info;
  MDB_stat stat;
  if (mdb_env_info(env_, &info) || mdb_env_stat(env_, &stat)) return Status::OK();  // a hint
  const size_t used = (info.me_last_pgno + 1) * size_t{stat.ms_psize};
  size_t next = info.me_mapsize;
  while (next < used + bytes) next *= 2;
  if (next == info.me_mapsize) return Status::OK();
  int rc = mdb_env_set_mapsize(env_, next);
  return rc ? LmdbError(rc, "grow map") : Status::OK();
}

struct Env::WriteRequest {
  FunctionRef<Status(Txn&)> fn;
  Status status;
  bool done = false;
};

Status Env::Write(FunctionRef<Status(Txn&)> fn, WriteMode mode) {
  NoNesting scope(this);
  KH_RETURN_IF_ERROR(scope.status());
  if (mode == WriteMode::kExclusive) {
    std::lock_guard<std::mutex> one_writer(write_mutex_);
    return RunAlone(fn, mode);
  }
  WriteRequest me{fn, Status::OK(), false};
  std::unique_lock<std::mutex> queue(queue_mutex_);
  queue_.push_back(&me);
  for (;;) {
    if (me.done) return std::move(me.status);
    if (leading_) {
      queue_cv_.wait(queue);
      continue;
    }
    // This caller runs the next group: the waiting requests in arrival order, itself among
    // them unless more than kMaxGroup came before it.
    leading_ = true;
    std::vector<WriteRequest*> group;
    while (!queue_.empty() && group.size() < kMaxGroup) {
      group.push_back(queue_.front());
      queue_.pop_front();
    }
    queue.unlock();
    // Whatever happens (an exception from a `fn` included), the group ends and the next
    // caller may lead.
    struct Finish {
      Env* env;
      std::unique_lock<std::mutex>* queue;
      const std::vector<WriteRequest*>* group;
      ~Finish() {
        if (!queue->owns_lock()) queue->lock();
        for (WriteRequest* r : *group) {
          if (!r->done && r->status.ok() && std::uncaught_exceptions() > 0) {
            r->status = Status::Internal("a write of the same group failed unexpectedly");
          }
          r->done = true;
        }
        env->leading_ = false;
        env->queue_cv_.notify_all();
      }
    } finish{this, &queue, &group};
    {
      std::lock_guard<std::mutex> one_writer(write_mutex_);
      if (group.size() == 1) {
        group[0]->status = RunAlone(group[0]->fn, WriteMode::kShared);
      } else {
        RunGroup(group);
      }
    }
  }
}

Status Env::RunAlone(FunctionRef<Status(Txn&)> fn, WriteMode mode) {
  for (int attempt = 0; attempt < kMaxGrowRetries; ++attempt) {
    bool map_full = false;
    Status s;
    {
      std::shared_lock<Gate> shared(gate_, std::defer_lock);
      std::unique_lock<Gate> exclusive(gate_, std::defer_lock);
      MDB_txn* raw;
      if (mode == WriteMode::kExclusive) {
        exclusive.lock();
        KH_RETURN_IF_ERROR(Begin(true, &raw, exclusive));
      } else {
        shared.lock();
        KH_RETURN_IF_ERROR(Begin(true, &raw, shared));
      }
      Txn txn(raw, true);
      pending_.clear();
      s = fn(txn);
      if (s.ok() && !txn.map_full()) s = txn.Commit();
      if (s.ok()) {
        std::lock_guard<std::mutex> lock(dbis_mutex_);
        dbis_.insert(pending_.begin(), pending_.end());
        pending_.clear();
        return s;
      }
      txn.Abort();
      pending_.clear();
      map_full = txn.map_full();
    }
    if (!map_full) return s;
    KH_RETURN_IF_ERROR(Grow());  // with this process's transactions all ended
  }
  return Status::Internal("the database map could not be grown enough");
}

void Env::RunGroup(const std::vector<WriteRequest*>& group) {
  // A full map is grown and the group run again as a group (a fresh file doubles its map a few
  // times while it fills; running the group's requests alone then would cost a commit and a
  // sync each). Full once more (the group's dirty pages outgrew what one transaction holds: a
  // child can spill only its own pages, MDB_TXN_FULL), every request runs again alone, in
  // order, each in a transaction of its own that grows the map as it needs.
  for (int attempt = 0; attempt < 2; ++attempt) {
    for (WriteRequest* r : group) r->status = Status::OK();
    if (TryGroup(group)) return;
    if (attempt == 0) {
      if (Status grown = Grow(); !grown.ok()) break;  // with this process's transactions ended
    }
  }
  for (WriteRequest* r : group) r->status = RunAlone(r->fn, WriteMode::kShared);
}

bool Env::TryGroup(const std::vector<WriteRequest*>& group) {
  const auto all = [&](const Status& s) {
    for (WriteRequest* r : group) r->status = s;
    return true;
  };
  bool map_full = false;
  std::shared_lock<Gate> shared(gate_);
  MDB_txn* raw;
  if (Status s = Begin(true, &raw, shared); !s.ok()) return all(s);
  Txn outer(raw, true);
  pending_.clear();
  for (WriteRequest* r : group) {
    MDB_txn* child = nullptr;
    if (int rc = mdb_txn_begin(env_, raw, 0, &child); rc != 0) {
      r->status = LmdbError(rc, "begin nested transaction");
      continue;
    }
    const std::map<std::string, MDB_dbi> pending_before = pending_;
    Txn txn(child, true);
    Status s = r->fn(txn);
    if (txn.map_full()) {
      map_full = true;
      break;
    }
    if (s.ok()) {
      s = txn.Commit();
      if (txn.map_full()) {
        map_full = true;
        break;
      }
    } else {
      txn.Abort();
    }
    if (!s.ok()) pending_ = pending_before;  // handles its rolled-back writes created
    r->status = std::move(s);
  }
  if (!map_full) {
    Status committed = outer.Commit();
    if (!outer.map_full()) {
      if (committed.ok()) {
        std::lock_guard<std::mutex> lock(dbis_mutex_);
        dbis_.insert(pending_.begin(), pending_.end());
      } else {
        for (WriteRequest* r : group) {
          if (r->status.ok()) r->status = committed;
        }
      }
      pending_.clear();
      return true;
    }
  }
  outer.Abort();
  pending_.clear();
  return false;
}

Status Env::SettleWriter() {
  NoNesting scope(this);
  KH_RETURN_IF_ERROR(scope.status());
  std::lock_guard<std::mutex> one_writer(write_mutex_);
  std::shared_lock<Gate> shared(gate_);
  MDB_txn* raw;
  KH_RETURN_IF_ERROR(Begin(true, &raw, shared));
  mdb_txn_abort(raw);
  return Status::OK();
}

Status Env::BeginRead(MDB_txn** txn, std::shared_lock<Gate>& held) {
  MDB_txn* pooled = nullptr;
  {
    std::lock_guard<std::mutex> lock(readers_mutex_);
    if (!readers_.empty()) {
      pooled = readers_.back();
      readers_.pop_back();
    }
  }
  if (pooled) {
    if (mdb_txn_renew(pooled) == 0) {
      *txn = pooled;
      return Status::OK();
    }
    mdb_txn_abort(pooled);  // e.g. MDB_MAP_RESIZED: start afresh through Begin, which handles it
  }
  return Begin(false, txn, held);
}

Status Env::Read(FunctionRef<Status(Txn&)> fn) {
  NoNesting scope(this);
  KH_RETURN_IF_ERROR(scope.status());
  std::shared_lock<Gate> shared(gate_);
  MDB_txn* raw = nullptr;
  KH_RETURN_IF_ERROR(BeginRead(&raw, shared));
  Txn txn(raw, false);
  Status s = fn(txn);
  MDB_txn* done = txn.Release();
  mdb_txn_reset(done);
  std::lock_guard<std::mutex> lock(readers_mutex_);
  readers_.push_back(done);
  return s;
}

bool Env::HasDbi(const std::string& name) const {
  std::lock_guard<std::mutex> lock(dbis_mutex_);
  return dbis_.count(name) > 0;
}

Result<MDB_dbi> Env::OpenDbi(const std::string& name) {
  {
    std::lock_guard<std::mutex> lock(dbis_mutex_);
    auto it = dbis_.find(name);
    if (it != dbis_.end()) return it->second;
  }
  // mdb_dbi_open may not run beside another transaction's mdb_dbi_open (a write's CreateDbi):
  // open the handle with the process to itself.
  NoNesting scope(this);
  KH_RETURN_IF_ERROR(scope.status());
  std::unique_lock<Gate> alone(gate_);
  {
    std::lock_guard<std::mutex> lock(dbis_mutex_);
    auto it = dbis_.find(name);
    if (it != dbis_.end()) return it->second;
  }
  MDB_txn* raw;
  KH_RETURN_IF_ERROR(Begin(false, &raw, alone));
  MDB_dbi dbi;
  int rc = mdb_dbi_open(raw, name.c_str(), 0, &dbi);
  if (rc) {
    mdb_txn_abort(raw);
    if (rc == MDB_NOTFOUND) return Status::NotFound("sub-database " + name + " not found");
    return LmdbError(rc, "open " + name);
  }
  rc = mdb_txn_commit(raw);  // a read txn's commit keeps the handle in the environment
  if (rc) return LmdbError(rc, "open " + name);
  std::lock_guard<std::mutex> lock(dbis_mutex_);
  dbis_[name] = dbi;
  return dbi;
}

Result<MDB_dbi> Env::CreateDbi(Txn& txn, const std::string& name) {
  {
    std::lock_guard<std::mutex> lock(dbis_mutex_);
    auto it = dbis_.find(name);
    if (it != dbis_.end()) return it->second;
  }
  MDB_dbi dbi;
  int rc = mdb_dbi_open(txn.get(), name.c_str(), MDB_CREATE, &dbi);
  txn.NoteRc(rc);
  if (rc) return LmdbError(rc, "create " + name);
  pending_[name] = dbi;
  return dbi;
}

void Env::ForgetDbi(const std::string& name) {
  std::lock_guard<std::mutex> lock(dbis_mutex_);
  dbis_.erase(name);
}

}  // namespace keyhole::storage
