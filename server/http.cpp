// HttpServer (http.h) on cpp-httplib: the only translation unit that includes httplib.h.
#include "server/http.h"

#include <fmt/format.h>
#include <httplib.h>

#include <algorithm>
#include <cctype>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace keyhole::server {

namespace {

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

std::string_view HttpRequest::Header(std::string_view name) const {
  for (const auto& [k, v] : headers) {
    if (EqualsIgnoreCase(k, name)) return v;
  }
  return {};
}

bool HttpRequest::HasHeader(std::string_view name) const {
  return std::any_of(headers.begin(), headers.end(),
                     [&](const auto& h) { return EqualsIgnoreCase(h.first, name); });
}

// The connection workers: cpp-httplib serves a keep-alive connection on one worker until the
// connection closes, so a fixed pool of N workers leaves the N+1st client unanswered while the
// others keep talking. This pool starts `min` workers and adds one whenever a connection arrives
// with none idle, up to `max` (connections beyond that wait for one to close). Workers are kept
// once started (an idle one costs a blocked thread).
class ConnectionPool : public httplib::TaskQueue {
 public:
  ConnectionPool(size_t min, size_t max) : max_(std::max(min, max)) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (size_t i = 0; i < min; ++i) StartWorker();
  }
  ~ConnectionPool() override { shutdown(); }

  void enqueue(std::function<void()> fn) override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      jobs_.push_back(std::move(fn));
      if (idle_ < jobs_.size() && threads_.size() < max_) StartWorker();
    }
    wake_.notify_one();
  }

  void shutdown() override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (stopping_) return;
      stopping_ = true;
    }
    wake_.notify_all();
    for (std::thread& t : threads_) t.join();
  }

 private:
  void StartWorker() {  // REQUIRES: mutex_ held
    threads_.emplace_back([this] { Work(); });
  }
  void Work() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      ++idle_;
      wake_.wait(lock, [&] { return !jobs_.empty() || stopping_; });
      --idle_;
      if (jobs_.empty()) return;  // stopping, and nothing left to serve
      std::function<void()> job = std::move(jobs_.front());
      jobs_.pop_front();
      lock.unlock();
      job();
      lock.lock();
    }
  }

  const size_t max_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> jobs_;
  std::vector<std::thread> threads_;  // only grows, under mutex_; joined by shutdown()
  size_t idle_ = 0;
  bool stopping_ = false;
};

struct HttpServer::Impl {
  HttpOptions options;
  Handler handler;
  httplib::Server server;
};

HttpServer::HttpServer(HttpOptions options, Handler handler) : impl_(std::make_unique<Impl>()) {
  impl_->options = std::move(options);
  impl_->handler = std::move(handler);
  httplib::Server& s = impl_->server;
  const size_t min_threads = static_cast<size_t>(std::max(1, impl_->options.threads));
  const size_t max_threads =
      static_cast<size_t>(std::max(impl_->options.threads, impl_->options.max_connections));
  s.new_task_queue = [=] { return new ConnectionPool(min_threads, max_threads); };
  s.set_payload_max_length(impl_->options.max_body_bytes);
  s.set_read_timeout(impl_->options.read_timeout_seconds, 0);
  s.set_write_timeout(impl_->options.read_timeout_seconds, 0);
  s.set_keep_alive_timeout(impl_->options.idle_timeout_seconds);
  s.set_keep_alive_max_count(1000000);
  s.set_tcp_nodelay(true);  // a response is sent at once, not held back for Nagle's algorithm
  auto serve = [this](const httplib::Request& req, httplib::Response& res) {
    HttpRequest r;
    r.method = req.method;
    r.path = req.path;
    r.body = req.body;
    for (const auto& [k, v] : req.headers) r.headers.emplace_back(k, v);
    HttpResponse out;
    try {
      out = impl_->handler(r);
    } catch (const std::exception& e) {
      out.status = 500;
      out.body = fmt::format(
          "{{\"__type\":\"com.amazonaws.dynamodb.v20120810#InternalServerError\","
          "\"message\":\"Internal server error\"}}");
    }
    res.status = out.status;
    for (const auto& [k, v] : out.headers) res.set_header(k, v);
    res.set_content(out.body, out.content_type);
  };
  // Every method and path reaches the handler, which answers as DynamoDB does (GET / is a health
  // check, other methods and paths are UnknownOperation).
  s.Get(".*", serve);
  s.Post(".*", serve);
  s.Put(".*", serve);
  s.Patch(".*", serve);
  s.Delete(".*", serve);
  s.Options(".*", serve);
}

HttpServer::~HttpServer() { Stop(); }

Result<int> HttpServer::Bind() {
  const HttpOptions& o = impl_->options;
  if (o.port == 0) {
    int port = impl_->server.bind_to_any_port(o.host);
    if (port <= 0)
      return Status::Internal(fmt::format("cannot listen on {}: no free port", o.host));
    return port;
  }
  if (!impl_->server.bind_to_port(o.host, o.port)) {
    return Status::Internal(fmt::format(
        "cannot listen on {}:{} (in use, or not an address of this machine)", o.host, o.port));
  }
  return o.port;
}

void HttpServer::Serve() { impl_->server.listen_after_bind(); }

void HttpServer::Stop() { impl_->server.stop(); }

}  // namespace keyhole::server
