// HttpClient (http_client.h) on libcurl's easy interface; the only file that includes curl.h.
#include "aws/http_client.h"

#include "aws/plain_http.h"
#include "core/strings.h"

#include <curl/curl.h>

#include <cstdlib>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstring>
#include <mutex>
#include <vector>

namespace keyhole::aws {

namespace {

// A header line's value without its surrounding blanks (and the line end).
std::string_view Trim(std::string_view s) { return keyhole::Trim(s, " \t", " \t\r\n"); }

// What one transfer collects, and what its progress callback watches.
struct Transfer {
  HttpResponse* response;
  const std::atomic<bool>* cancel;
  int read_timeout_ms;
  std::chrono::steady_clock::time_point last_activity = std::chrono::steady_clock::now();
  curl_off_t last_down = -1, last_up = -1;
  bool interrupted = false;
  bool stalled = false;
};

size_t OnBody(char* data, size_t size, size_t n, void* user) {
  static_cast<Transfer*>(user)->response->body.append(data, size * n);
  return size * n;
}

size_t OnHeader(char* data, size_t size, size_t n, void* user) {
  HttpResponse* r = static_cast<Transfer*>(user)->response;
  const std::string_view line(data, size * n);
  if (line.starts_with("HTTP/")) {
    r->headers.clear();  // a proxy's CONNECT answer, or 100 Continue, before the real one
  } else if (const size_t colon = line.find(':'); colon != std::string_view::npos) {
    r->headers.emplace_back(std::string(Trim(line.substr(0, colon))),
                            std::string(Trim(line.substr(colon + 1))));
  }
  return size * n;
}

// A request body given through a read callback (HttpRequest::once): libcurl cannot rewind it, so
// it never sends the request a second time by itself (CURLE_SEND_FAIL_REWIND instead).
struct Upload {
  std::string_view rest;
  bool started = false;  // curl took some of the body: the server may have it
};

size_t OnUpload(char* buffer, size_t size, size_t n, void* user) {
  Upload* u = static_cast<Upload*>(user);
  const size_t take = std::min(size * n, u->rest.size());
  u->started = true;
  std::memcpy(buffer, u->rest.data(), take);
  u->rest.remove_prefix(take);
  return take;
}

int CannotSeek(void*, curl_off_t, int) { return CURL_SEEKFUNC_CANTSEEK; }

// Stops the transfer when the caller cancels, or when nothing moved for the read timeout.
int OnProgress(void* user, curl_off_t, curl_off_t down, curl_off_t, curl_off_t up) {
  Transfer* t = static_cast<Transfer*>(user);
  if (t->cancel && t->cancel->load(std::memory_order_relaxed)) {
    t->interrupted = true;
    return 1;
  }
  const auto now = std::chrono::steady_clock::now();
  if (down != t->last_down || up != t->last_up) {
    t->last_down = down;
    t->last_up = up;
    t->last_activity = now;
    return 0;
  }
  if (now - t->last_activity > std::chrono::milliseconds(t->read_timeout_ms)) {
    t->stalled = true;
    return 1;
  }
  return 0;
}

// The proxy a request to `url` goes through, as the AWS CLI picks it: https:// from
// https_proxy or HTTPS_PROXY, http:// from http_proxy or HTTP_PROXY (libcurl reads only the
// lower-case http_proxy, for CGI's sake; the CLI reads both), then all_proxy; with the variable
// it came from. Empty when none is set or NO_PROXY names the host (or is "*").
struct ProxyChoice {
  std::string url, variable;
};
ProxyChoice ProxyFor(const std::string& url) {
  const bool https = url.starts_with("https://");
  const char* const https_names[] = {"https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"};
  const char* const http_names[] = {"http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"};
  ProxyChoice out;
  for (const char* name : https ? https_names : http_names) {
    const char* v = std::getenv(name);
    if (v && *v) {
      out = {v, name};
      break;
    }
  }
  if (out.url.empty()) return out;
  // The host, for NO_PROXY: between "://" and the next ':' or '/'.
  const size_t start = url.find("://") == std::string::npos ? 0 : url.find("://") + 3;
  std::string host = url.substr(start, url.find_first_of(":/", start) - start);
  for (const char* name : {"no_proxy", "NO_PROXY"}) {
    const char* v = std::getenv(name);
    if (!v || !*v) continue;
    std::string list = v;
    size_t pos = 0;
    while (pos <= list.size()) {
      size_t comma = std::min(list.find(',', pos), list.size());
      std::string entry = list.substr(pos, comma - pos);
      entry.erase(0, entry.find_first_not_of(" \t"));
      entry.erase(entry.find_last_not_of(" \t") + 1);
      if (entry.starts_with(".")) entry.erase(0, 1);
      if (entry == "*" || (!entry.empty() && (host == entry || host.ends_with("." + entry)))) {
        return {};
      }
      pos = comma + 1;
    }
  }
  return out;
}

TransportError Classify(CURLcode code, bool connected) {
  switch (code) {
    case CURLE_OK:
      return TransportError::kNone;
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
      return TransportError::kResolve;
    case CURLE_COULDNT_CONNECT:
      return TransportError::kConnect;
    case CURLE_OPERATION_TIMEDOUT:
      return connected ? TransportError::kReadTimeout : TransportError::kConnectTimeout;
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
    case CURLE_SSL_INVALIDCERTSTATUS:
    case CURLE_SSL_CRL_BADFILE:
    case CURLE_SSL_ENGINE_INITFAILED:
    case CURLE_SSL_ENGINE_NOTFOUND:
    case CURLE_SSL_ENGINE_SETFAILED:
    case CURLE_SSL_SHUTDOWN_FAILED:
    case CURLE_USE_SSL_FAILED:
      return TransportError::kTls;
    case CURLE_GOT_NOTHING:
    case CURLE_SEND_FAIL_REWIND:  // a request sent once (HttpRequest::once) lost its connection
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_PARTIAL_FILE:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
      return TransportError::kConnectionLost;
    default:
      return TransportError::kOther;
  }
}

}  // namespace

std::string_view HttpResponse::Header(std::string_view name) const {
  for (const auto& [k, v] : headers) {
    if (HeaderNameEquals(k, name)) return v;
  }
  return {};
}

std::string_view TransportErrorName(TransportError e) {
  switch (e) {
    case TransportError::kNone:
      return "none";
    case TransportError::kResolve:
      return "cannot resolve the host";
    case TransportError::kConnect:
      return "cannot connect";
    case TransportError::kTls:
      return "TLS failure";
    case TransportError::kConnectTimeout:
      return "connect timeout";
    case TransportError::kReadTimeout:
      return "read timeout";
    case TransportError::kConnectionLost:
      return "connection lost";
    case TransportError::kInterrupted:
      return "interrupted";
    case TransportError::kOther:
      return "HTTP failure";
  }
  return "HTTP failure";
}

struct HttpClient::Pool {
  explicit Pool(const Options& options) : plain(options) {}
  std::mutex mutex;
  std::vector<CURL*> idle;
  internal::PlainHttp plain;  // http:// to an address, no proxy (plain_http.h)
  ~Pool() {
    for (CURL* c : idle) curl_easy_cleanup(c);
  }
};

HttpClient::HttpClient(Options options) : options_(std::move(options)), pool_(new Pool(options_)) {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

HttpClient::~HttpClient() = default;

HttpResult HttpClient::Send(const HttpRequest& request) {
  internal::PlainTarget plain;
  if (!options_.always_libcurl && !internal::HttpProxyConfigured() &&
      internal::ParsePlainUrl(request.url, &plain)) {
    return pool_->plain.Send(request, plain);
  }
  CURL* curl = nullptr;
  {
    std::lock_guard<std::mutex> lock(pool_->mutex);
    if (!pool_->idle.empty()) {
      curl = pool_->idle.back();
      pool_->idle.pop_back();
    }
  }
  HttpResult result;
  if (!curl) {
    curl = curl_easy_init();
    if (!curl) {
      result.error = TransportError::kOther;
      result.message = "libcurl could not make a handle";
      return result;
    }
    // What every request of this client sets alike, once per handle.
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS,
                     static_cast<long>(options_.connect_timeout_ms));
    curl_easy_setopt(curl, CURLOPT_TCP_NODELAY, 1L);
    curl_easy_setopt(curl, CURLOPT_TCP_KEEPALIVE, 1L);
    curl_easy_setopt(curl, CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_1_1);
    if (!options_.ca_bundle.empty()) {
      curl_easy_setopt(curl, CURLOPT_CAINFO, options_.ca_bundle.c_str());
    }
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, &OnBody);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, &OnHeader);
    curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, &OnProgress);
  }
  Transfer transfer{&result.response, options_.cancel, options_.read_timeout_ms};
  Upload upload{request.body};
  curl_slist* headers = nullptr;
  bool content_type = false;
  for (const auto& [name, value] : request.headers) {
    content_type |= HeaderNameEquals(name, "content-type");
    headers = curl_slist_append(headers, (name + ": " + value).c_str());
  }
  // No "Expect: 100-continue" round trip for large bodies, no "Accept: */*" of curl's own, and
  // no form content type where the caller gave none.
  headers = curl_slist_append(headers, "Expect:");
  headers = curl_slist_append(headers, "Accept:");
  if (!content_type) headers = curl_slist_append(headers, "Content-Type:");
  char error_text[CURL_ERROR_SIZE] = "";

  // What differs from request to request (a pooled handle keeps the rest, and its connection).
  const ProxyChoice proxy = ProxyFor(request.url);
  curl_easy_setopt(curl, CURLOPT_URL, request.url.c_str());
  // HTTP_PROXY in capitals: set here, as libcurl would not read it (null: libcurl's own choice).
  curl_easy_setopt(curl, CURLOPT_PROXY,
                   proxy.variable == "HTTP_PROXY" ? proxy.url.c_str() : nullptr);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error_text);
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(
      curl, CURLOPT_CUSTOMREQUEST,
      request.method == "GET" || request.method == "POST" ? nullptr : request.method.c_str());
  if (request.method == "GET") {
    curl_easy_setopt(curl, CURLOPT_HTTPGET, 1L);
  } else {
    curl_easy_setopt(curl, CURLOPT_POST, 1L);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE,
                     static_cast<curl_off_t>(request.body.size()));
    if (request.once) {
      curl_easy_setopt(curl, CURLOPT_POSTFIELDS, nullptr);
      curl_easy_setopt(curl, CURLOPT_READFUNCTION, &OnUpload);
      curl_easy_setopt(curl, CURLOPT_READDATA, &upload);
      curl_easy_setopt(curl, CURLOPT_SEEKFUNCTION, &CannotSeek);
    } else {
      curl_easy_setopt(curl, CURLOPT_SEEKFUNCTION, nullptr);
      curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request.body.data());
    }
  }
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &transfer);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &transfer);
  curl_easy_setopt(curl, CURLOPT_XFERINFODATA, &transfer);

  const CURLcode code = curl_easy_perform(curl);
  curl_slist_free_all(headers);
  long status = 0;
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  curl_off_t connected_at = 0;
  curl_easy_getinfo(curl, CURLINFO_CONNECT_TIME_T, &connected_at);
  if (code == CURLE_OK) {
    result.response.status = static_cast<int>(status);
    std::lock_guard<std::mutex> lock(pool_->mutex);
    if (pool_->idle.size() < options_.max_idle) {
      pool_->idle.push_back(curl);
      curl = nullptr;
    }
  } else if (code == CURLE_ABORTED_BY_CALLBACK) {
    result.error =
        transfer.interrupted ? TransportError::kInterrupted : TransportError::kReadTimeout;
    result.message = transfer.interrupted
                         ? "interrupted"
                         : "no data for " + std::to_string(options_.read_timeout_ms) + " ms";
  } else {
    result.error = Classify(code, connected_at > 0);
    result.message = error_text[0] ? error_text : curl_easy_strerror(code);
    // A dead proxy is not a dead endpoint: name it.
    if (!proxy.url.empty() && !connected_at &&
        (code == CURLE_COULDNT_CONNECT || code == CURLE_COULDNT_RESOLVE_PROXY ||
         code == CURLE_OPERATION_TIMEDOUT)) {
      result.message = "through the proxy " + proxy.url + " (from " + proxy.variable +
                       "), which did not answer: " + result.message;
    }
    // A request sent once that curl began to send, then lost (curl's own reconnection after a
    // reused connection died fails to connect, say), may have reached the server.
    if (request.once && upload.started &&
        (result.error == TransportError::kConnect ||
         result.error == TransportError::kConnectTimeout ||
         result.error == TransportError::kResolve)) {
      result.error = TransportError::kConnectionLost;
    }
  }
  if (curl) curl_easy_cleanup(curl);  // a handle that failed, or one the pool has no room for
  if (!result.ok()) result.response = HttpResponse();
  return result;
}

}  // namespace keyhole::aws
