// Tests for aws/plain_http.h: URLs it takes, response heads, chunked bodies, and whole
// exchanges through HttpClient with a scripted loopback server (exact bytes, closes, resets).
#include "aws/plain_http.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "aws/http_client.h"

namespace keyhole::aws {
namespace {

using internal::ChunkedDecoder;
using internal::ParsePlainUrl;
using internal::ParseResponseHead;
using internal::PlainTarget;
using internal::ResponseHead;

TEST(AwsPlainHttpPlainUrl, TakesAddressesAndLocalhostOnly) {
  PlainTarget t;
  ASSERT_TRUE(ParsePlainUrl("http://127.0.0.1:8000", &t));
  EXPECT_EQ(t.host, "127.0.0.1");
  EXPECT_EQ(t.port, 8000);
  EXPECT_EQ(t.target, "/");
  ASSERT_TRUE(ParsePlainUrl("HTTP://[::1]/a/b?x=1", &t));
  EXPECT_EQ(t.host, "::1");
  EXPECT_EQ(t.port, 80);
  EXPECT_EQ(t.target, "/a/b?x=1");
  ASSERT_TRUE(ParsePlainUrl("http://LocalHost:1?q", &t));
  EXPECT_EQ(t.host, "localhost");
  EXPECT_EQ(t.target, "/?q");
  for (const char* url : {"https://127.0.0.1", "http://example.com", "http://127.0.0.1:0",
                          "http://127.0.0.1:70000", "http://127.0.0.1:", "http://u@127.0.0.1",
                          "http://[::1", "http://127.1", "http://127.0.0.1/#f", "http://"}) {
    EXPECT_FALSE(ParsePlainUrl(url, &t)) << url;
  }
}

TEST(AwsPlainHttpResponseHeadTest, ParsesStatusHeadersAndFraming) {
  ResponseHead h;
  const std::string head =
      "HTTP/1.1 200 OK\r\nContent-Type: x\r\nx-amz-crc32:  12 \r\nContent-Length: 5\r\n\r\nhello";
  EXPECT_EQ(ParseResponseHead(head.substr(0, 20), &h), 0);
  ASSERT_EQ(ParseResponseHead(head, &h), 1);
  EXPECT_EQ(h.status, 200);
  EXPECT_EQ(h.content_length, 5);
  EXPECT_EQ(h.head_bytes, head.size() - 5);
  EXPECT_TRUE(h.keep_alive);
  ASSERT_EQ(h.headers.size(), 3u);
  EXPECT_EQ(h.headers[1].second, "12");
  ASSERT_EQ(ParseResponseHead("HTTP/1.0 503\r\nTransfer-Encoding: Chunked\r\n\r\n", &h), 1);
  EXPECT_EQ(h.status, 503);
  EXPECT_TRUE(h.chunked);
  EXPECT_FALSE(h.keep_alive);
  ASSERT_EQ(ParseResponseHead("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n", &h), 1);
  EXPECT_FALSE(h.keep_alive);
  for (const char* bad :
       {"HTTX/1.1 200 OK\r\n\r\n", "HTTP/2 200 OK\r\n\r\n", "HTTP/1.1 2x0 OK\r\n\r\n",
        "HTTP/1.1 200OK\r\n\r\n", "HTTP/1.1 099 x\r\n\r\n", "HTTP/1.1 200 OK\r\nno colon\r\n\r\n",
        "HTTP/1.1 200 OK\r\n folded: x\r\n\r\n", "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n", "<html>"}) {
    EXPECT_EQ(ParseResponseHead(bad, &h), -1) << bad;
  }
  EXPECT_EQ(ParseResponseHead("HTTP/1.1 200 OK\r\n" + std::string(70000, 'a'), &h), -1);
}

TEST(AwsPlainHttpChunkedDecoderTest, DecodesInAnyPieces) {
  const std::string wire =
      "5;ext=1\r\nhello\r\n1A\r\n" + std::string(26, 'z') + "\r\n0\r\nTrailer: t\r\n\r\n";
  for (size_t piece : {1u, 2u, 3u, 7u, 1000u}) {
    ChunkedDecoder d;
    std::string body;
    int r = 0;
    size_t used = 0, at = 0;
    while (at < wire.size()) {
      const std::string_view more = std::string_view(wire).substr(at, piece);
      r = d.Feed(more, &body, &used);
      ASSERT_GE(r, 0);
      if (r == 1) {
        at += used;
        break;
      }
      at += more.size();
    }
    EXPECT_EQ(r, 1) << piece;
    EXPECT_EQ(at, wire.size());
    EXPECT_EQ(body, "hello" + std::string(26, 'z'));
  }
  for (const char* bad : {"x\r\n", "5\r\nhelloXX", "5\n", "-1\r\n"}) {
    ChunkedDecoder d;
    std::string body;
    size_t used = 0;
    EXPECT_EQ(d.Feed(bad, &body, &used), -1) << bad;
  }
}

// A loopback server that runs `handle` on each accepted connection, one at a time.
class Scripted {
 public:
  explicit Scripted(std::function<void(int fd, int n)> handle) : handle_(std::move(handle)) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
    socklen_t len = sizeof a;
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
    ::listen(fd_, 16);
    thread_ = std::thread([this] {
      for (int n = 0;; ++n) {
        const int c = ::accept(fd_, nullptr, nullptr);
        if (c < 0 || stop_) {
          if (c >= 0) ::close(c);
          return;
        }
        ++accepted;
        handle_(c, n);
        ::close(c);
      }
    });
  }
  ~Scripted() {
    stop_ = true;
    ::shutdown(fd_, SHUT_RDWR);
    const int c = ::socket(AF_INET, SOCK_STREAM, 0);  // wakes accept on every kernel
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port_);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::connect(c, reinterpret_cast<sockaddr*>(&a), sizeof a);
    ::close(c);
    thread_.join();
    ::close(fd_);
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/"; }
  std::atomic<int> accepted{0};

 private:
  std::function<void(int, int)> handle_;
  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

// Reads one request (head and Content-Length body) from fd: its text, "" at the end.
std::string ReadRequest(int fd) {
  std::string in;
  char buf[4096];
  for (;;) {
    const size_t end = in.find("\r\n\r\n");
    if (end != std::string::npos) {
      const size_t cl = in.find("Content-Length: ");
      const size_t body = cl == std::string::npos ? 0 : std::stoul(in.substr(cl + 16));
      if (in.size() >= end + 4 + body) return in;
    }
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) return "";
    in.append(buf, static_cast<size_t>(n));
  }
}

void Write(int fd, std::string_view s) { ::send(fd, s.data(), s.size(), MSG_NOSIGNAL); }

HttpRequest Post(const std::string& url, std::string body = "{}") {
  HttpRequest r;
  r.url = url;
  r.headers = {{"X-Amz-Target", "DynamoDB_20120810.ListTables"}};
  r.body = std::move(body);
  return r;
}

TEST(AwsPlainHttpTest, KeepsTheConnectionAndReadsEveryFraming) {
  std::string seen;
  Scripted server([&](int fd, int) {
    seen = ReadRequest(fd);
    Write(fd,
          "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\nx-a: 1\r\n\r\nok");
    ReadRequest(fd);
    Write(fd, "HTTP/1.1 400 Bad\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n");
    usleep(20000);
    Write(fd, "2\r\nde\r\n0\r\n\r\n");
    ReadRequest(fd);
    Write(fd, "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nuntil the end");
  });
  HttpClient client(HttpClient::Options{});
  HttpResult r = client.Send(Post(server.url(), "{\"a\":1}"));
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(r.response.status, 200);
  EXPECT_EQ(r.response.body, "ok");
  EXPECT_EQ(r.response.Header("X-A"), "1");
  EXPECT_NE(seen.find("POST / HTTP/1.1\r\n"), std::string::npos) << seen;
  EXPECT_NE(seen.find("Host: 127.0.0.1:"), std::string::npos) << seen;
  EXPECT_NE(seen.find("Content-Length: 7\r\n\r\n{\"a\":1}"), std::string::npos) << seen;
  r = client.Send(Post(server.url()));
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(r.response.status, 400);
  EXPECT_EQ(r.response.body, "abcde");
  r = client.Send(Post(server.url()));
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(r.response.body, "until the end");
  EXPECT_EQ(server.accepted.load(), 1);
}

TEST(AwsPlainHttpTest, AClosedKeptConnectionIsSentAgainOnlyWhenRepeatable) {
  // Each connection answers one request, then is closed after the client's next request
  // arrived, unanswered: a server letting a kept connection go as the client reuses it.
  Scripted server([&](int fd, int) {
    if (ReadRequest(fd).empty()) return;
    Write(fd, "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\n1");
    ReadRequest(fd);
  });
  HttpClient client(HttpClient::Options{});
  ASSERT_TRUE(client.Send(Post(server.url())).ok());
  HttpResult r = client.Send(Post(server.url()));
  ASSERT_TRUE(r.ok()) << r.message;  // sent again on a new connection
  EXPECT_EQ(server.accepted.load(), 2);
  HttpRequest once = Post(server.url());
  once.once = true;
  r = client.Send(once);
  EXPECT_EQ(r.error, TransportError::kConnectionLost) << r.message;
  EXPECT_EQ(server.accepted.load(), 2);
}

TEST(AwsPlainHttpTest, FailuresAreNamed) {
  {
    Scripted server([&](int fd, int) {
      ReadRequest(fd);
      Write(fd, "SSH-2.0-OpenSSH\r\n\r\n");
    });
    HttpClient client(HttpClient::Options{});
    EXPECT_EQ(client.Send(Post(server.url())).error, TransportError::kOther);
  }
  {
    Scripted server([&](int fd, int) {
      ReadRequest(fd);
      Write(fd, "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort");
    });
    HttpClient client(HttpClient::Options{});
    EXPECT_EQ(client.Send(Post(server.url())).error, TransportError::kConnectionLost);
  }
  {  // an answer that says it is larger than any DynamoDB answer: refused, nothing allocated
    Scripted server([&](int fd, int) {
      ReadRequest(fd);
      Write(fd, "HTTP/1.1 200 OK\r\nContent-Length: 99999999999999\r\n\r\n{}");
    });
    HttpClient client(HttpClient::Options{});
    HttpResult r = client.Send(Post(server.url()));
    EXPECT_EQ(r.error, TransportError::kOther);
    EXPECT_EQ(r.message, "the answer is larger than 256 MB");
  }
  {
    Scripted server([&](int fd, int) {
      ReadRequest(fd);
      usleep(400000);
    });
    HttpClient::Options o;
    o.read_timeout_ms = 100;
    HttpClient client(o);
    HttpResult r = client.Send(Post(server.url()));
    EXPECT_EQ(r.error, TransportError::kReadTimeout);
    EXPECT_EQ(r.message, "no data for 100 ms");
  }
  {
    std::atomic<bool> cancel{false};
    Scripted server([&](int fd, int) {
      ReadRequest(fd);
      cancel = true;
      usleep(400000);
    });
    HttpClient::Options o;
    o.cancel = &cancel;
    HttpClient client(o);
    EXPECT_EQ(client.Send(Post(server.url())).error, TransportError::kInterrupted);
  }
  int port;
  {
    Scripted gone([](int, int) {});
    port = std::stoi(gone.url().substr(17));
  }
  HttpClient client(HttpClient::Options{});
  HttpResult r = client.Send(Post("http://127.0.0.1:" + std::to_string(port) + "/"));
  EXPECT_EQ(r.error, TransportError::kConnect);
  EXPECT_EQ(r.message,
            "Failed to connect to 127.0.0.1 port " + std::to_string(port) + ": Connection refused");
}

}  // namespace
}  // namespace keyhole::aws
