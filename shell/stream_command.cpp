// .stream: the table's latest stream as a log (reference §6.2).
//
//   .stream TABLE [N]                    the latest N records (default 10)
//   .stream TABLE FROM <sequence number> every record after that one
//
// One record per line as compact JSON in GetRecords' record shape, whatever the output mode (a
// stream is a log, not a result set), then "-- N records · stream <label>". It reads through the
// Streams operations (DescribeStream, GetShardIterator, GetRecords) as a consumer would.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <deque>
#include <string>
#include <vector>

#include "api/api_json.h"
#include "shell/session_state.h"

namespace keyhole::shell {

namespace {

constexpr std::string_view kUsage = "usage: .stream TABLE [N] | .stream TABLE FROM SEQUENCE_NUMBER";

bool IsFrom(std::string_view word) {
  return word.size() == 4 && std::equal(word.begin(), word.end(), "FROM", [](char a, char b) {
           return std::toupper(static_cast<unsigned char>(a)) == b;
         });
}

}  // namespace

bool RunStreamCommand(Session::State& s, const std::vector<std::string>& args, Location at) {
  if (args.empty() || args.size() > 3) return s.Fail(Status::Validation(std::string(kUsage)), at);
  const std::string& table = args[0];
  size_t latest = 10;
  std::optional<std::string> from;
  if (args.size() == 2) {
    const std::string& n = args[1];
    auto [end, ec] = std::from_chars(n.data(), n.data() + n.size(), latest);
    if (ec != std::errc() || end != n.data() + n.size() || latest == 0) {
      return s.Fail(Status::Validation(std::string(kUsage)), at);
    }
  } else if (args.size() == 3) {
    if (!IsFrom(args[1])) return s.Fail(Status::Validation(std::string(kUsage)), at);
    from = args[2];
  }

  Result<TableSchemaPtr> t = s.db().TableSchema(table);
  if (!t.ok()) return s.Fail(t.status(), at);
  if ((*t)->latest_stream_label.empty()) {
    return s.Fail(
        Status::Validation(fmt::format(
            "Table {} has no stream (enable one with UpdateTable's StreamSpecification)", table)),
        at);
  }
  DescribeStreamRequest describe;
  describe.stream_arn = (*t)->LatestStreamArn();
  Result<DescribeStreamResponse> d = s.db().DescribeStream(describe);
  if (!d.ok()) return s.Fail(d.status(), at);
  if (d->stream_description.shards.empty()) {
    return s.Fail(Status::Internal("the stream has no shard"), at);
  }
  GetShardIteratorRequest gi;
  gi.stream_arn = describe.stream_arn;
  gi.shard_id = d->stream_description.shards[0].shard_id;
  gi.shard_iterator_type = from ? "AFTER_SEQUENCE_NUMBER" : "TRIM_HORIZON";
  gi.sequence_number = from;
  Result<GetShardIteratorResponse> it = s.db().GetShardIterator(gi);
  if (!it.ok()) return s.Fail(it.status(), at);

  std::deque<StreamRecord> records;
  std::optional<std::string> next = it->shard_iterator;
  while (next) {
    if (g_interrupted.load()) return s.Fail(Status(ErrorCode::kInterrupted, "Interrupted"), at);
    GetRecordsRequest g;
    g.shard_iterator = *next;
    Result<GetRecordsResponse> r = s.db().GetRecords(g);
    if (!r.ok()) return s.Fail(r.status(), at);
    if (r->records.empty()) break;
    for (StreamRecord& rec : r->records) {
      records.push_back(std::move(rec));
      if (!from && records.size() > latest) records.pop_front();
    }
    next = r->next_shard_iterator;
  }
  std::string out;
  for (const StreamRecord& rec : records) {
    out += json::Write(StreamRecordToJson(rec));
    out += '\n';
  }
  s.Out(out);
  s.Notice(fmt::format("-- {} record{} · stream {}\n", records.size(),
                       records.size() == 1 ? "" : "s", d->stream_description.stream_label));
  return true;
}

}  // namespace keyhole::shell
