// The HTTP API of `deadpos serve` (library deadpos_server; docs/server.md): the lichess tablebase
// shape at /standard with our exact fields, the FIDE 6.9 verdict at /flag, /batch, /health,
// /metrics (Prometheus text) and the arbiters' page at /. Every answer goes through
// answers::answer as `deadpos probe` does, and is rendered by the same code (deadpos/answers.h,
// probe_json), so the JSON fields are those of `deadpos probe --json`: exact, or undetermined
// (said), or an error as JSON with an HTTP status. Nothing here prints: log lines go through the
// callback given to Server::create.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "deadpos/analysis.h"
#include "deadpos/result.h"

namespace deadpos::server {

struct Options {
  std::vector<std::string> table_dirs;  // as `deadpos probe --tables`; empty: "tables"
  std::string host = "127.0.0.1";       // address to listen on
  int port = 8080;                      // 0: any free port (Server::port() says which)
  int threads = 64;                     // worker threads: each serves one connection at a time (keep-alive included)
  // The tables' decompressed-block cache, bytes; nullopt: Tablebase::default_cache_bytes() (an
  // eighth of the machine's memory, 256 MiB..4 GiB: a server's diverse positions thrash less).
  std::optional<std::size_t> cache_bytes;
  std::size_t answer_cache_bytes = std::size_t{64} << 20;  // rendered answers (0: none)
  std::size_t max_body_bytes = std::size_t{1} << 20;       // request bodies (POST /batch); 413 above
  std::size_t max_batch_lines = 1000;                      // FENs in one POST /batch; 413 above
  // Per-question analysis budgets beyond the tables (as `deadpos probe --budget-*`).
  AnalysisBudget budget;
  // Time limit of the analysis of one request (all its questions together), ms; 0: none. Questions
  // still open when it runs out are answered "undetermined" (budget "time"), never guessed.
  std::uint64_t request_ms = 10'000;
  int io_timeout_s = 5;  // reading a request / writing an answer; keep-alive idle time
  std::string web_dir;   // the page's files (index.html, ...); empty: no page at /
};

// One log line (without '\n'): startup, errors answered with 5xx, shutdown. Called from any
// worker thread, serialised by the server.
using LogFn = std::function<void(std::string_view)>;

// The answer of one request, before HTTP: status and body (JSON, JSON lines, or text).
struct Reply {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  // Whether the answer cache may keep it (a 200 only): false when a wall-clock limit may have cut
  // it short (an undetermined answer, or castling rights left to the search), since the same
  // request with more time can get a fuller answer.
  bool cacheable = true;
};

class Server {
 public:
  // Opens the tables (Tablebase::open: nothing read yet). Errors: Io when a table directory cannot
  // be listed, InvalidArgument for options out of range. A directory without tables is not an
  // error: every position request then answers 503 (as `deadpos probe` answers every line with
  // its missing-table error) and /health says so.
  static Result<std::unique_ptr<Server>> create(const Options& opt, LogFn log);
  ~Server();

  // Binds the listening socket (port 0: a free one). Errors: Io naming the address.
  Status bind();
  int port() const;
  // Serves until stop(); returns after the requests being answered have been answered.
  void run();
  // Stops accepting; run() returns when in-flight requests are done. Thread-safe, callable before
  // run() has started; not async-signal-safe (call it from a thread that waited for the signal).
  void stop();

  // The handlers without sockets (also what the HTTP layer calls): `query` holds the decoded
  // query parameters. Thread-safe.
  Reply standard(std::string_view fen) const;
  Reply flag(std::string_view fen, std::string_view flagged) const;
  Reply batch(std::string_view body, std::string_view flagged, bool lines) const;
  Reply health() const;
  Reply metrics() const;

  struct Impl;

 private:
  explicit Server(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// {"error":{"category":C,"message":M},"status":S} as one line: the body of every error reply.
std::string error_body(int status, std::string_view category, std::string_view message);

}  // namespace deadpos::server
