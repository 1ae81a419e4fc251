// HttpServer (http.h) on cpp-httplib: the only translation unit that includes httplib.h.
#include "server/http.h"

#include <fmt/format.h>
#include <httplib.h>

#include <algorithm>
#include <cctype>

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

struct HttpServer::Impl {
  HttpOptions options;
  Handler handler;
  httplib::Server server;
};

HttpServer::HttpServer(HttpOptions options, Handler handler) : impl_(std::make_unique<Impl>()) {
  impl_->options = std::move(options);
  impl_->handler = std::move(handler);
  httplib::Server& s = impl_->server;
  const int threads = std::max(1, impl_->options.threads);
  s.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
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
