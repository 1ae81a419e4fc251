// DynamoDB Streams (reference §6.2): stream records written with every item change, and the
// Streams read operations ListStreams, DescribeStream, GetShardIterator and GetRecords.
//
// Each table that ever had a stream has one sub-database "t<id>#stream" ('#' cannot appear in
// an index name, so it never collides with "t<id>/<index>"), created when a stream is first
// enabled and dropped with the table. It holds every stream of the table (a disable and a
// re-enable start a new stream with a new label; the old one stays readable for 24 hours):
//
//   "n"              -> u64be(next_seq)   the table's next sequence number (starts at 1; never
//                                         reused, so sequence numbers strictly increase)
//   "s" label        -> u64be(start_seq) u64be(end_seq) u64be(created_ms) u64be(disabled_ms)
//                       u8(view)          one per stream; end_seq = ~0 and disabled_ms = 0
//                                         while enabled
//   "r" u64be(seq)   -> record
//
//   record  := 0x01 varint(created_ms) u8(event) u8(flags) u8(view) varint(size_bytes)
//              str(keys) [str(new_image)] [str(old_image)]
//     event := 1 INSERT | 2 MODIFY | 3 REMOVE
//     flags := bit0 userIdentity Service (TTL) | bit1 new_image present | bit2 old_image present
//     view  := 0 KEYS_ONLY | 1 NEW_IMAGE | 2 OLD_IMAGE | 3 NEW_AND_OLD_IMAGES
//     str   := varint(len) bytes, the images being core/item_codec.h items
//     varint:= LEB128
// A record belongs to the stream whose [start_seq, end_seq] holds its sequence number.
//
// Retention: a record older than 24 hours (by the Database's clock) is never returned, and each
// write deletes at most kTrimPerWrite such records from the front, so trimming is bounded work.
// keyhole choices where DynamoDB's behaviour is not in the reference: an iterator whose position
// was trimmed meanwhile skips to the first record still kept (DynamoDB may answer
// TrimmedDataAccessException); AT_/AFTER_SEQUENCE_NUMBER of a trimmed record is
// TrimmedDataAccessException; a sequence number outside the shard is a ValidationException.
// One shard per stream: "shardId-<20-digit start_seq>-<8 hex digits of the table id>".
// A shard iterator is "<stream ARN>|1|<hex: u64 position, u64 expiry ms, u64 table id>": the
// next sequence number to read, valid 15 minutes (reference §6.2).
#include <fmt/format.h>

#include <cmath>
#include <ctime>
#include <tuple>

#include "core/item.h"
#include "core/item_codec.h"
#include "core/time.h"
#include "storage/engine.h"
#include "storage/key_codec.h"

namespace keyhole::storage {

namespace {

constexpr int64_t kRetentionMs = int64_t{24} * 3600 * 1000;
constexpr int64_t kIteratorMs = int64_t{15} * 60 * 1000;
constexpr size_t kMaxRecordsBytes = size_t{1} << 20;
constexpr int kTrimPerWrite = 8;
constexpr uint64_t kOpen = ~uint64_t{0};
constexpr std::string_view kViewTypes[] = {"KEYS_ONLY", "NEW_IMAGE", "OLD_IMAGE",
                                           "NEW_AND_OLD_IMAGES"};
constexpr std::string_view kEvents[] = {"", "INSERT", "MODIFY", "REMOVE"};

// The clock in whole milliseconds (rounded, so that 0.123 s is 123 ms despite binary floating
// point); ApproximateCreationDateTime is that floored to seconds.
int64_t NowMs(const std::function<double()>& clock) { return std::llround(clock() * 1000.0); }

bool GetStr(std::string_view* in, std::string_view* s) {
  uint64_t n;
  if (!ReadVarint(in, &n) || n > in->size()) return false;
  *s = in->substr(0, n);
  in->remove_prefix(n);
  return true;
}
void PutStr(std::string_view s, std::string* out) {
  AppendVarint(s.size(), out);
  out->append(s);
}

std::string RecordKey(uint64_t seq) {
  std::string k = "r";
  AppendBigEndian64(seq, &k);
  return k;
}

std::string SequenceText(uint64_t seq) { return fmt::format("{:021d}", seq); }

int ViewIndex(std::string_view view) {
  for (int i = 0; i < 4; ++i) {
    if (kViewTypes[i] == view) return i;
  }
  return 0;
}

// The label of a stream enabled at `ms`: ISO-8601 UTC with milliseconds and no zone, as
// DynamoDB's.
std::string Label(int64_t ms) { return IsoMillis(ms, ""); }

struct StreamMeta {
  std::string label;
  uint64_t start_seq = 1;
  uint64_t end_seq = kOpen;
  int64_t created_ms = 0;
  int64_t disabled_ms = 0;
  int view = 0;
  bool open() const { return end_seq == kOpen; }
};

std::string EncodeMeta(const StreamMeta& m) {
  std::string v;
  AppendBigEndian64(m.start_seq, &v);
  AppendBigEndian64(m.end_seq, &v);
  AppendBigEndian64(static_cast<uint64_t>(m.created_ms), &v);
  AppendBigEndian64(static_cast<uint64_t>(m.disabled_ms), &v);
  v.push_back(static_cast<char>(m.view));
  return v;
}

Result<StreamMeta> DecodeMeta(std::string_view label, std::string_view v) {
  if (v.size() != 33) return Status::Internal("corrupt stream entry");
  StreamMeta m;
  m.label = std::string(label);
  m.start_seq = ReadBigEndian64(v.substr(0, 8));
  m.end_seq = ReadBigEndian64(v.substr(8, 8));
  m.created_ms = static_cast<int64_t>(ReadBigEndian64(v.substr(16, 8)));
  m.disabled_ms = static_cast<int64_t>(ReadBigEndian64(v.substr(24, 8)));
  m.view = static_cast<uint8_t>(v[32]) & 3;
  return m;
}

Result<uint64_t> NextSeq(Txn& txn, MDB_dbi dbi) {
  std::string_view v;
  bool found;
  KH_RETURN_IF_ERROR(txn.Get(dbi, "n", &v, &found));
  return found && v.size() == 8 ? ReadBigEndian64(v) : uint64_t{1};
}

// The stream `label` of a table; found false when it does not exist.
Result<StreamMeta> ReadMeta(Txn& txn, MDB_dbi dbi, const std::string& label, bool* found) {
  std::string_view v;
  KH_RETURN_IF_ERROR(txn.Get(dbi, "s" + label, &v, found));
  if (!*found) return StreamMeta{};
  return DecodeMeta(label, v);
}

// A stream is listed and readable while enabled and for 24 hours after it was disabled.
bool Alive(const StreamMeta& m, int64_t now_ms) {
  return m.open() || now_ms - m.disabled_ms < kRetentionMs;
}

std::string ShardId(const StreamMeta& m, uint64_t table_id) {
  return fmt::format("shardId-{:020d}-{:08x}", m.start_seq, table_id & 0xffffffffu);
}

// The sequence number that ends a closed shard (its last record, or its start when empty).
uint64_t EndSeq(const StreamMeta& m) { return std::max(m.end_seq, m.start_seq); }

// Decodes a record stored under sequence number `seq` of table `table_id`.
Result<StreamRecord> DecodeRecord(uint64_t table_id, uint64_t seq, std::string_view v,
                                  int64_t* created_ms) {
  Status corrupt = Status::Internal("corrupt stream record");
  if (v.size() < 5 || v[0] != 0x01) return corrupt;
  v.remove_prefix(1);
  uint64_t ms, size;
  if (!ReadVarint(&v, &ms) || v.size() < 3) return corrupt;
  uint8_t event = static_cast<uint8_t>(v[0]), flags = static_cast<uint8_t>(v[1]),
          view = static_cast<uint8_t>(v[2]);
  v.remove_prefix(3);
  if (event < 1 || event > 3 || view > 3 || !ReadVarint(&v, &size)) return corrupt;
  StreamRecord r;
  *created_ms = static_cast<int64_t>(ms);
  r.event_id = fmt::format("{:016x}{:016x}", table_id, seq);
  r.event_name = std::string(kEvents[event]);
  r.approximate_creation_date_time = static_cast<int64_t>(ms / 1000);
  r.sequence_number = SequenceText(seq);
  r.size_bytes = static_cast<int64_t>(size);
  r.stream_view_type = std::string(kViewTypes[view]);
  r.service_deletion = flags & 1;
  std::string_view bytes;
  if (!GetStr(&v, &bytes)) return corrupt;
  KH_ASSIGN_OR_RETURN(r.keys, DecodeItem(bytes));
  if (flags & 2) {
    if (!GetStr(&v, &bytes)) return corrupt;
    KH_ASSIGN_OR_RETURN(r.new_image, DecodeItem(bytes));
  }
  if (flags & 4) {
    if (!GetStr(&v, &bytes)) return corrupt;
    KH_ASSIGN_OR_RETURN(r.old_image, DecodeItem(bytes));
  }
  return r;
}

// created_ms of a stored record without decoding the rest (0 when malformed).
int64_t RecordMs(std::string_view v) {
  if (v.size() < 2) return 0;
  v.remove_prefix(1);
  uint64_t ms;
  return ReadVarint(&v, &ms) ? static_cast<int64_t>(ms) : 0;
}

// Deletes up to kTrimPerWrite records older than 24 hours from the front.
Status Trim(Txn& txn, MDB_dbi dbi, int64_t now_ms) {
  for (int i = 0; i < kTrimPerWrite; ++i) {
    std::string key;
    {
      Cursor c(&txn, dbi);
      if (!c.Seek("r") || !c.key().starts_with("r")) return c.status();
      if (now_ms - RecordMs(c.value()) < kRetentionMs) return Status::OK();
      key = std::string(c.key());
    }
    KH_RETURN_IF_ERROR(txn.Del(dbi, key));
  }
  return Status::OK();
}

// "Requested resource not found: Stream: <arn> not found" (keyhole's wording, after DynamoDB's
// table message).
Status StreamNotFound(std::string_view arn) {
  return Status::NotFound(fmt::format("Requested resource not found: Stream: {} not found", arn));
}

// Splits a stream ARN into table name and label.
bool ParseArn(std::string_view arn, std::string* table, std::string* label) {
  const std::string prefix = TableArnOf("");  // "arn:aws:dynamodb:<region>:...:table/"
  if (!arn.starts_with(prefix)) return false;
  arn.remove_prefix(prefix.size());
  size_t at = arn.find("/stream/");
  if (at == std::string_view::npos || at == 0) return false;
  *table = std::string(arn.substr(0, at));
  *label = std::string(arn.substr(at + 8));
  return !label->empty();
}

// A stream ARN that keyhole cannot resolve: one shaped like a DynamoDB stream ARN
// ("arn:<partition>:dynamodb:<region>:<account>:table/<T>/stream/<label>") but of another
// region, account or table is not found; anything else is "Invalid StreamArn", the
// ValidationException DynamoDB Streams answers (the AWS SDK for JavaScript's integration test
// expects it for StreamArn 'fake-stream').
Status UnresolvedStreamArn(std::string_view arn) {
  size_t table = arn.find(":table/");
  bool shaped = arn.starts_with("arn:") && arn.find(":dynamodb:") != std::string_view::npos &&
                table != std::string_view::npos &&
                arn.find("/stream/", table) != std::string_view::npos;
  if (shaped) return StreamNotFound(arn);
  return Status::Validation("Invalid StreamArn");
}

bool ParseSeq(std::string_view text, uint64_t* seq) {
  if (text.empty() || text.size() > 40) return false;
  uint64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    if (v > (~uint64_t{0} - 9) / 10) return false;  // beyond any keyhole sequence number
    v = v * 10 + static_cast<uint64_t>(c - '0');
  }
  *seq = v;
  return true;
}

std::string EncodeIterator(const std::string& arn, uint64_t pos, int64_t expiry_ms,
                           uint64_t table_id) {
  return fmt::format("{}|1|{:016x}{:016x}{:016x}", arn, pos, static_cast<uint64_t>(expiry_ms),
                     table_id);
}

struct Iterator {
  std::string arn, table, label;
  uint64_t pos = 0, table_id = 0;
  int64_t expiry_ms = 0;
};

bool DecodeIterator(std::string_view text, Iterator* it) {
  size_t bar = text.rfind("|1|");
  if (bar == std::string_view::npos || text.size() - bar - 3 != 48) return false;
  it->arn = std::string(text.substr(0, bar));
  if (!ParseArn(it->arn, &it->table, &it->label)) return false;
  std::string_view hex = text.substr(bar + 3);
  uint64_t parts[3];
  for (int i = 0; i < 3; ++i) {
    uint64_t v = 0;
    for (char c : hex.substr(static_cast<size_t>(i) * 16, 16)) {
      int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
      if (d < 0) return false;
      v = v << 4 | static_cast<uint64_t>(d);
    }
    parts[i] = v;
  }
  it->pos = parts[0];
  it->expiry_ms = static_cast<int64_t>(parts[1]);
  it->table_id = parts[2];
  return true;
}

}  // namespace

Status CheckStreamSpecification(const StreamSpecification& spec) {
  if (!spec.stream_enabled) return Status::OK();
  // keyhole's wording: DynamoDB's text for a missing StreamViewType is not in the reference.
  if (!spec.stream_view_type) {
    return Status::Validation(
        "One or more parameter values were invalid: StreamViewType is required when "
        "StreamEnabled is true");
  }
  for (std::string_view v : kViewTypes) {
    if (v == *spec.stream_view_type) return Status::OK();
  }
  return Status::Validation(fmt::format(
      "1 validation error detected: Value '{}' at 'streamSpecification.streamViewType' failed to "
      "satisfy constraint: Member must satisfy enum value set: [NEW_IMAGE, OLD_IMAGE, "
      "NEW_AND_OLD_IMAGES, KEYS_ONLY]",
      *spec.stream_view_type));
}

Status ApplyStreamSpecification(Database::Impl& impl, Txn& txn, const StreamSpecification& spec,
                                TableDescription* t) {
  KH_RETURN_IF_ERROR(CheckStreamSpecification(spec));
  if (spec.stream_enabled && t->stream_view_type) {
    return Status::Validation(
        fmt::format("Table already has an enabled stream: {}", t->LatestStreamArn()));
  }
  if (!spec.stream_enabled && !t->stream_view_type) {
    // keyhole's wording: DynamoDB's text for disabling an absent stream is not in the reference.
    return Status::Validation(
        fmt::format("Table has no stream to disable: TableName: {}", t->name));
  }
  KH_ASSIGN_OR_RETURN(MDB_dbi dbi, impl.env->CreateDbi(txn, StreamDbName(t->id)));
  KH_ASSIGN_OR_RETURN(uint64_t next, NextSeq(txn, dbi));
  int64_t now = NowMs(impl.clock);
  if (spec.stream_enabled) {
    StreamMeta m;
    // Labels are the enabling time; a second stream enabled within the same millisecond (a
    // fixed clock) takes the next free millisecond so that labels stay unique.
    for (int64_t ms = now;; ++ms) {
      bool found;
      KH_RETURN_IF_ERROR(ReadMeta(txn, dbi, Label(ms), &found).status());
      if (!found) {
        m.label = Label(ms);
        m.created_ms = ms;
        break;
      }
    }
    m.start_seq = next;
    m.view = ViewIndex(*spec.stream_view_type);
    KH_RETURN_IF_ERROR(txn.Put(dbi, "s" + m.label, EncodeMeta(m)));
    std::string n;
    AppendBigEndian64(next, &n);
    KH_RETURN_IF_ERROR(txn.Put(dbi, "n", n));
    t->stream_view_type = spec.stream_view_type;
    t->latest_stream_label = m.label;
    return Status::OK();
  }
  bool found;
  KH_ASSIGN_OR_RETURN(StreamMeta m, ReadMeta(txn, dbi, t->latest_stream_label, &found));
  if (found && m.open()) {
    m.end_seq = next - 1;
    m.disabled_ms = std::max<int64_t>(now, 1);
    KH_RETURN_IF_ERROR(txn.Put(dbi, "s" + m.label, EncodeMeta(m)));
  }
  t->stream_view_type.reset();  // the label stays: the stream is readable for 24 hours
  return Status::OK();
}

Status WriteStreamRecord(Txn& txn, const TableHandle& h, const Item* old_item, const Item* new_item,
                         bool service_deletion) {
  if (!h.desc.stream_view_type || !h.has_stream_db) return Status::OK();
  if (!old_item && !new_item) return Status::OK();
  if (old_item && new_item && *old_item == *new_item) return Status::OK();  // nothing changed
  const int view = ViewIndex(*h.desc.stream_view_type);
  const bool with_new = (view == 1 || view == 3) && new_item;
  const bool with_old = (view == 2 || view == 3) && old_item;
  const int64_t now =
      h.clock && *h.clock ? NowMs(*h.clock) : static_cast<int64_t>(std::time(nullptr)) * 1000;
  Item keys = ExtractKey(h.desc.key, new_item ? *new_item : *old_item);
  size_t keys_size = ItemSize(keys);
  size_t size = keys_size;
  if (with_new) size += ItemSize(*new_item);
  if (with_old) size += ItemSize(*old_item);

  std::string v;
  v.push_back(0x01);
  AppendVarint(static_cast<uint64_t>(now), &v);
  v.push_back(static_cast<char>(!old_item ? 1 : new_item ? 2 : 3));
  v.push_back(
      static_cast<char>((service_deletion ? 1 : 0) | (with_new ? 2 : 0) | (with_old ? 4 : 0)));
  v.push_back(static_cast<char>(view));
  AppendVarint(size, &v);
  PutStr(EncodeItem(keys, keys_size), &v);
  if (with_new) PutStr(EncodeItem(*new_item, ItemSize(*new_item)), &v);
  if (with_old) PutStr(EncodeItem(*old_item, ItemSize(*old_item)), &v);

  KH_ASSIGN_OR_RETURN(uint64_t seq, NextSeq(txn, h.stream_dbi));
  std::string n;
  AppendBigEndian64(seq + 1, &n);
  KH_RETURN_IF_ERROR(txn.Put(h.stream_dbi, "n", n));
  KH_RETURN_IF_ERROR(txn.Put(h.stream_dbi, RecordKey(seq), v));
  return Trim(txn, h.stream_dbi, now);
}

// ---- the Streams operations ----

namespace {

// The stream `arn` of an existing table, read in `txn`; ResourceNotFoundException when the
// table or the stream does not exist or the stream is past its 24 hours.
Result<StreamMeta> FindStream(Txn& txn, const TableHandle& h, const std::string& label,
                              const std::string& arn, int64_t now_ms) {
  if (!h.has_stream_db) return StreamNotFound(arn);
  bool found;
  KH_ASSIGN_OR_RETURN(StreamMeta m, ReadMeta(txn, h.stream_dbi, label, &found));
  if (!found || !Alive(m, now_ms)) return StreamNotFound(arn);
  return m;
}

Status LimitError(std::string_view member, int64_t value, int64_t min, int64_t max) {
  return Status::Validation(fmt::format(
      "1 validation error detected: Value '{}' at '{}' failed to satisfy constraint: Member must "
      "have value {} {}",
      value, member, value < min ? "greater than or equal to" : "less than or equal to",
      value < min ? min : max));
}

}  // namespace

Result<ListStreamsResponse> Database::ListStreams(const ListStreamsRequest& r) {
  int limit = r.limit.value_or(100);
  if (limit < 1 || limit > 100) return LimitError("limit", limit, 1, 100);
  std::vector<std::string> names;
  std::shared_ptr<const TableMap> tables;
  KH_RETURN_IF_ERROR(impl_->env->Read([&](Txn& txn) -> Status {
    KH_ASSIGN_OR_RETURN(tables, impl_->Refresh(txn));
    return Status::OK();
  }));
  for (const auto& [name, t] : *tables) {
    if (r.table_name && name != *r.table_name) continue;
    if (!t.latest_stream_label.empty()) names.push_back(name);
  }
  if (r.table_name && !tables->count(*r.table_name)) {
    return Status::NotFound(
        fmt::format("Requested resource not found: Table: {} not found", *r.table_name));
  }
  const int64_t now = NowMs(impl_->clock);
  std::vector<StreamSummary> all;
  for (const std::string& name : names) {
    Status s = impl_->WithTable(name, false, [&](Txn& txn, const TableHandle& h) -> Status {
      if (!h.has_stream_db) return Status::OK();
      Cursor c(&txn, h.stream_dbi);
      for (bool ok = c.Seek("s"); ok && c.key().starts_with("s"); ok = c.Next()) {
        std::string label(c.key().substr(1));
        KH_ASSIGN_OR_RETURN(StreamMeta m, DecodeMeta(label, c.value()));
        if (!Alive(m, now)) continue;
        TableDescription t = h.desc;
        t.latest_stream_label = label;
        all.push_back({t.LatestStreamArn(), name, label});
      }
      return c.status();
    });
    if (s.IsNotFound()) continue;  // dropped meanwhile
    KH_RETURN_IF_ERROR(s);
  }
  ListStreamsResponse resp;
  // Streams are listed by table name, then label (creation time); ExclusiveStartStreamArn
  // continues after its position in that order, even when that stream has since expired.
  size_t i = 0;
  if (r.exclusive_start_stream_arn) {
    std::string table, label;
    if (!ParseArn(*r.exclusive_start_stream_arn, &table, &label)) {
      return Status::Validation(
          fmt::format("Invalid ExclusiveStartStreamArn: {}", *r.exclusive_start_stream_arn));
    }
    while (i < all.size() &&
           std::tie(all[i].table_name, all[i].stream_label) <= std::tie(table, label)) {
      ++i;
    }
  }
  for (; i < all.size(); ++i) {
    if (static_cast<int>(resp.streams.size()) == limit) {
      resp.last_evaluated_stream_arn = resp.streams.back().stream_arn;
      break;
    }
    resp.streams.push_back(all[i]);
  }
  return resp;
}

Result<DescribeStreamResponse> Database::DescribeStream(const DescribeStreamRequest& r) {
  if (r.limit && (*r.limit < 1 || *r.limit > 100)) return LimitError("limit", *r.limit, 1, 100);
  std::string table, label;
  if (!ParseArn(r.stream_arn, &table, &label)) return UnresolvedStreamArn(r.stream_arn);
  const int64_t now = NowMs(impl_->clock);
  DescribeStreamResponse resp;
  Status s = impl_->WithTable(table, false, [&](Txn& txn, const TableHandle& h) -> Status {
    KH_ASSIGN_OR_RETURN(StreamMeta m, FindStream(txn, h, label, r.stream_arn, now));
    StreamDescription& d = resp.stream_description;
    d.stream_arn = r.stream_arn;
    d.stream_label = label;
    d.stream_status = m.open() ? "ENABLED" : "DISABLED";
    d.stream_view_type = std::string(kViewTypes[m.view]);
    d.creation_request_date_time = static_cast<double>(m.created_ms) / 1000.0;
    d.table_name = h.desc.name;
    d.key_schema = h.desc.key;
    StreamShard shard;
    shard.shard_id = ShardId(m, h.desc.id);
    shard.starting_sequence_number = SequenceText(m.start_seq);
    if (!m.open()) shard.ending_sequence_number = SequenceText(EndSeq(m));
    if (r.shard_filter) {
      // The children of a shard. keyhole keeps one shard per stream, which never splits: a
      // shard of the stream has none (an empty list, as DynamoDB answers for a shard that is
      // still open); another shard is not found, as GetShardIterator says (DynamoDB's texts for
      // these are not recorded; keyhole's wording).
      if (!r.shard_filter->type || !r.shard_filter->shard_id) {
        return Status::Validation(
            "ShardFilter needs both Type (CHILD_SHARDS) and the ShardId of the parent shard");
      }
      if (*r.shard_filter->shard_id != shard.shard_id) {
        return Status::NotFound(
            fmt::format("Requested resource not found: Shard: {} in Stream: {} not found",
                        *r.shard_filter->shard_id, r.stream_arn));
      }
      return Status::OK();
    }
    if (!r.exclusive_start_shard_id || *r.exclusive_start_shard_id < shard.shard_id) {
      d.shards.push_back(std::move(shard));
    }
    return Status::OK();
  });
  if (s.IsNotFound() && s.message() == "Requested resource not found") {
    return StreamNotFound(r.stream_arn);
  }
  KH_RETURN_IF_ERROR(s);
  return resp;
}

Result<GetShardIteratorResponse> Database::GetShardIterator(const GetShardIteratorRequest& r) {
  std::string table, label;
  if (!ParseArn(r.stream_arn, &table, &label)) return UnresolvedStreamArn(r.stream_arn);
  const std::string& type = r.shard_iterator_type;
  const bool at = type == "AT_SEQUENCE_NUMBER", after = type == "AFTER_SEQUENCE_NUMBER";
  if (!at && !after && type != "TRIM_HORIZON" && type != "LATEST") {
    return Status::Validation(fmt::format(
        "1 validation error detected: Value '{}' at 'shardIteratorType' failed to satisfy "
        "constraint: Member must satisfy enum value set: [AFTER_SEQUENCE_NUMBER, LATEST, "
        "AT_SEQUENCE_NUMBER, TRIM_HORIZON]",
        type));
  }
  uint64_t seq = 0;
  if (!at && !after && r.sequence_number) {
    // DynamoDB refuses a SequenceNumber beside TRIM_HORIZON or LATEST (Alternator's
    // test_streams.py::test_get_shard_iterator, run against AWS); its text is not recorded,
    // this one is keyhole's.
    return Status::Validation(fmt::format(
        "A SequenceNumber cannot be given with ShardIteratorType {}: only AT_SEQUENCE_NUMBER and "
        "AFTER_SEQUENCE_NUMBER take one",
        type));
  }
  if (at || after) {
    // keyhole's wording for these two (DynamoDB's texts are not in the reference).
    if (!r.sequence_number) {
      return Status::Validation(
          fmt::format("A SequenceNumber is required for ShardIteratorType {}", type));
    }
    if (!ParseSeq(*r.sequence_number, &seq)) {
      return Status::Validation(fmt::format("Invalid SequenceNumber: {}", *r.sequence_number));
    }
  }
  const int64_t now = NowMs(impl_->clock);
  GetShardIteratorResponse resp;
  Status s = impl_->WithTable(table, false, [&](Txn& txn, const TableHandle& h) -> Status {
    KH_ASSIGN_OR_RETURN(StreamMeta m, FindStream(txn, h, label, r.stream_arn, now));
    if (r.shard_id != ShardId(m, h.desc.id)) {
      return Status::NotFound(
          fmt::format("Requested resource not found: Shard: {} in Stream: {} not found", r.shard_id,
                      r.stream_arn));
    }
    KH_ASSIGN_OR_RETURN(uint64_t next, NextSeq(txn, h.stream_dbi));
    const uint64_t last = m.open() ? next - 1 : m.end_seq;  // the last sequence number assigned
    uint64_t pos = m.start_seq;
    if (type == "LATEST") {
      pos = last + 1;
    } else if (seq == m.start_seq && last < m.start_seq) {
      // AT_ or AFTER_SEQUENCE_NUMBER at an empty shard's own StartingSequenceNumber (as
      // DescribeStream reports it) is accepted, as DynamoDB does (Alternator's
      // test_get_shard_iterator, written against it): the iterator waits at the shard's start,
      // or just after the number for AFTER (the first record takes that number).
      pos = after ? seq + 1 : seq;
    } else if (at || after) {
      if (seq < m.start_seq || seq > last) {
        return Status::Validation(fmt::format(
            "Invalid SequenceNumber: {} is not in the shard {} ({} to {})", *r.sequence_number,
            r.shard_id, SequenceText(m.start_seq), SequenceText(std::max(last, m.start_seq))));
      }
      // A record that was trimmed, or is past its 24 hours, cannot be read.
      std::string_view v;
      bool found;
      KH_RETURN_IF_ERROR(txn.Get(h.stream_dbi, RecordKey(seq), &v, &found));
      if (!found || now - RecordMs(v) >= kRetentionMs) {
        return Status(ErrorCode::kTrimmedDataAccess,
                      fmt::format("The requested sequence number {} is beyond the trim horizon "
                                  "of the shard (its record was trimmed after 24 hours)",
                                  *r.sequence_number));
      }
      pos = after ? seq + 1 : seq;
    }
    resp.shard_iterator = EncodeIterator(r.stream_arn, pos, now + kIteratorMs, h.desc.id);
    return Status::OK();
  });
  if (s.IsNotFound() && s.message() == "Requested resource not found") {
    return StreamNotFound(r.stream_arn);
  }
  KH_RETURN_IF_ERROR(s);
  return resp;
}

Result<GetRecordsResponse> Database::GetRecords(const GetRecordsRequest& r) {
  int limit = r.limit.value_or(1000);
  if (limit < 1 || limit > 1000) return LimitError("limit", limit, 1, 1000);
  Iterator it;
  // keyhole's wording for an iterator it did not issue.
  if (!DecodeIterator(r.shard_iterator, &it)) return Status::Validation("Invalid ShardIterator");
  const int64_t now = NowMs(impl_->clock);
  if (now > it.expiry_ms) {
    return Status(ErrorCode::kExpiredIterator,
                  fmt::format("Iterator expired. The iterator was created at time {} while right "
                              "now it is {} which is further in the future than the tolerated "
                              "delay of {} milliseconds.",
                              Label(it.expiry_ms - kIteratorMs), Label(now), kIteratorMs));
  }
  GetRecordsResponse resp;
  Status s = impl_->WithTable(it.table, false, [&](Txn& txn, const TableHandle& h) -> Status {
    if (h.desc.id != it.table_id) return StreamNotFound(it.arn);
    KH_ASSIGN_OR_RETURN(StreamMeta m, FindStream(txn, h, it.label, it.arn, now));
    uint64_t pos = std::max(it.pos, m.start_seq);
    size_t bytes = 0;
    Cursor c(&txn, h.stream_dbi);
    for (bool ok = c.Seek(RecordKey(pos)); ok && c.key().starts_with("r"); ok = c.Next()) {
      if (static_cast<int>(resp.records.size()) == limit) break;
      uint64_t seq = ReadBigEndian64(c.key().substr(1));
      if (!m.open() && seq > m.end_seq) break;
      if (now - RecordMs(c.value()) >= kRetentionMs) {  // past retention: trimmed
        pos = seq + 1;
        continue;
      }
      int64_t ms;
      KH_ASSIGN_OR_RETURN(StreamRecord rec, DecodeRecord(h.desc.id, seq, c.value(), &ms));
      if (!resp.records.empty() && bytes + static_cast<size_t>(rec.size_bytes) > kMaxRecordsBytes)
        break;
      bytes += static_cast<size_t>(rec.size_bytes);
      resp.records.push_back(std::move(rec));
      pos = seq + 1;
    }
    KH_RETURN_IF_ERROR(c.status());
    if (m.open() || pos <= m.end_seq) {
      resp.next_shard_iterator = EncodeIterator(it.arn, pos, now + kIteratorMs, h.desc.id);
    }
    return Status::OK();
  });
  if (s.IsNotFound() && s.message() == "Requested resource not found") {
    return StreamNotFound(it.arn);
  }
  KH_RETURN_IF_ERROR(s);
  return resp;
}

}  // namespace keyhole::storage
