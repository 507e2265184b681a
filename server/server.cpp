// deadpos serve's HTTP API (server.h; docs/server.md). The handlers answer with the rendering of
// `deadpos probe --json` (deadpos/answers.h: probe_json, probe_error_json, json_line), so the two can
// never drift apart; this file adds the lichess-shaped /standard, HTTP statuses, limits, the
// answer cache and the metrics.
#include "server.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <list>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <utility>

#include <httplib.h>
#include <sys/socket.h>

#include "deadpos/answers.h"
#include "deadpos/notation.h"
#include "deadpos/table_directory.h"
#include "deadpos/tablebase.h"

namespace deadpos::server {

namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;

enum class Endpoint : std::uint8_t { Standard, Flag, Batch, Health, Metrics, Page, Other };

// ---- routes -------------------------------------------------------------------------------------

// The one route table: every path the server answers, its method, and the endpoint its requests
// are counted under in /metrics. A known path asked with another method is 405 with Allow: its
// method; any other path is 404 (counted as "other"). "/" is the page, served by the mount point.
struct Route {
  std::string_view path;
  const char* method;
  Endpoint endpoint;
  const char* name;  // the endpoint label of /metrics
};
constexpr std::array<Route, 6> kRoutes = {{
    {"/standard", "GET", Endpoint::Standard, "standard"},
    {"/flag", "GET", Endpoint::Flag, "flag"},
    {"/batch", "POST", Endpoint::Batch, "batch"},
    {"/health", "GET", Endpoint::Health, "health"},
    {"/metrics", "GET", Endpoint::Metrics, "metrics"},
    {"/", "GET", Endpoint::Page, "page"},
}};
constexpr const char* endpoint_name(Endpoint e) {
  for (const Route& r : kRoutes)
    if (r.endpoint == e) return r.name;
  return "other";
}
// The endpoint labels of /metrics, in Endpoint order.
constexpr std::array<const char*, 7> kEndpointName = {
    endpoint_name(Endpoint::Standard), endpoint_name(Endpoint::Flag),    endpoint_name(Endpoint::Batch),
    endpoint_name(Endpoint::Health),   endpoint_name(Endpoint::Metrics), endpoint_name(Endpoint::Page),
    endpoint_name(Endpoint::Other)};
// The route of a path, or null.
const Route* route_of(std::string_view path) {
  for (const Route& r : kRoutes)
    if (r.path == path) return &r;
  return nullptr;
}

// ---- metrics ------------------------------------------------------------------------------------

constexpr std::array<int, 9> kStatuses = {200, 400, 404, 405, 408, 413, 500, 503, 0};  // 0: any other
// Latency buckets, seconds (Prometheus histogram "le" bounds).
constexpr std::array<double, 16> kBuckets = {0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
                                             0.05,   0.1,     0.25,   0.5,   1.0,    2.5,   5.0,  10.0};

struct EndpointStats {
  std::array<std::atomic<std::uint64_t>, kStatuses.size()> by_status{};
  std::array<std::atomic<std::uint64_t>, kBuckets.size() + 1> buckets{};  // last: +Inf
  std::atomic<std::uint64_t> micros_sum{0};
};

std::size_t status_slot(int status) {
  for (std::size_t i = 0; i + 1 < kStatuses.size(); ++i)
    if (kStatuses[i] == status) return i;
  return kStatuses.size() - 1;
}

// ---- answer cache -------------------------------------------------------------------------------

// Rendered 200 answers by request key, LRU in 16 shards of max_bytes / 16. The tables never change
// under a running server, so a cached answer is the answer; a table damaged later cannot change
// what was read and checked before.
class AnswerCache {
 public:
  explicit AnswerCache(std::size_t max_bytes) : shard_bytes_(max_bytes / kShards) {}
  std::optional<std::string> get(const std::string& key) {
    if (shard_bytes_ == 0) return std::nullopt;
    Shard& s = shard(key);
    std::lock_guard lock(s.m);
    auto it = s.index.find(key);
    if (it == s.index.end()) {
      misses_.fetch_add(1, std::memory_order_relaxed);
      return std::nullopt;
    }
    s.lru.splice(s.lru.begin(), s.lru, it->second);
    hits_.fetch_add(1, std::memory_order_relaxed);
    return it->second->second;
  }
  void put(const std::string& key, const std::string& value) {
    const std::size_t cost = key.size() + value.size() + kOverhead;
    if (shard_bytes_ == 0 || cost > shard_bytes_) return;
    Shard& s = shard(key);
    std::lock_guard lock(s.m);
    if (s.index.count(key)) return;
    s.lru.emplace_front(key, value);
    s.index.emplace(key, s.lru.begin());
    s.bytes += cost;
    while (s.bytes > shard_bytes_) {
      auto& [k, v] = s.lru.back();
      s.bytes -= k.size() + v.size() + kOverhead;
      s.index.erase(k);
      s.lru.pop_back();
    }
  }
  std::uint64_t hits() const { return hits_.load(std::memory_order_relaxed); }
  std::uint64_t misses() const { return misses_.load(std::memory_order_relaxed); }
  std::size_t bytes() const {
    std::size_t b = 0;
    for (auto& s : shards_) {
      std::lock_guard lock(s.m);
      b += s.bytes;
    }
    return b;
  }

 private:
  static constexpr std::size_t kShards = 16;
  static constexpr std::size_t kOverhead = 128;  // list node, index entry, string headers
  using Entry = std::pair<std::string, std::string>;
  struct Shard {
    mutable std::mutex m;
    std::list<Entry> lru;
    std::unordered_map<std::string, std::list<Entry>::iterator> index;
    std::size_t bytes = 0;
  };
  Shard& shard(const std::string& key) { return shards_[std::hash<std::string>{}(key) % kShards]; }
  std::size_t shard_bytes_;
  std::array<Shard, kShards> shards_;
  std::atomic<std::uint64_t> hits_{0}, misses_{0};
};

// ---- helpers ------------------------------------------------------------------------------------

int status_of(ErrorCode c) {
  switch (c) {
    case ErrorCode::InvalidFen:
    case ErrorCode::InvalidArgument:
    case ErrorCode::InvalidMove: return 400;
    case ErrorCode::Io:
    case ErrorCode::MissingTable:
    case ErrorCode::CorruptTable:
    case ErrorCode::OutOfMemory:
    case ErrorCode::TooManyMen: return 503;
    case ErrorCode::VerificationFailed: return 500;
  }
  return 500;
}

Reply json_reply(int status, const json& j) { return {status, "application/json", answers::json_line(j) + "\n"}; }

// An error about a position: probe_error_json (the command's "input" and "error") plus "status".
Reply position_error(std::string_view input, const Error& e) {
  json j = answers::probe_error_json(input, e);
  const int status = status_of(e.code);
  j["status"] = status;
  return json_reply(status, j);
}

// lichess accepts '_' for the spaces of a FEN in a URL; a FEN never holds '_'.
std::string fen_param(std::string_view fen) {
  std::string s(fen);
  std::replace(s.begin(), s.end(), '_', ' ');
  return s;
}

}  // namespace

std::string error_body(int status, std::string_view category, std::string_view message) {
  json j;
  j["error"] = {{"category", std::string(category)}, {"message", std::string(message)}};
  j["status"] = status;
  return answers::json_line(j) + "\n";
}

struct Server::Impl {
  Options opt;
  LogFn log;
  std::optional<Tablebase> tb;
  std::optional<Error> no_tables;  // every position request answers 503 with it
  httplib::Server http;
  AnswerCache cache;
  std::array<EndpointStats, kEndpointName.size()> stats;
  std::atomic<std::int64_t> in_flight{0};
  std::mutex log_m;
  std::atomic<bool> stopping{false};
  int bound_port = 0;
  int listen_fd = -1;  // the listening socket (set by the socket-options callback), for its backlog

  Impl(const Options& o, LogFn l) : opt(o), log(std::move(l)), cache(o.answer_cache_bytes) {}

  void say(const std::string& line) {
    if (!log) return;
    std::lock_guard lock(log_m);
    log(line);
  }

  // The analysis options of one question asked `deadline` being the request's end.
  AnalysisOptions options_until(std::optional<Clock::time_point> deadline) const {
    AnalysisOptions a;
    a.budget = opt.budget;
    if (deadline) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - Clock::now()).count();
      // time_ms 0 means "no limit": a request out of time still gets 1 ms, and says "undetermined".
      const auto ms = static_cast<std::uint64_t>(std::max<std::int64_t>(1, left));
      a.budget.time_ms = a.budget.time_ms == 0 ? ms : std::min(a.budget.time_ms, ms);
    }
    return a;
  }
  std::optional<Clock::time_point> deadline() const {
    if (opt.request_ms == 0) return std::nullopt;
    return Clock::now() + std::chrono::milliseconds(opt.request_ms);
  }

  // The answer of every surface (answers::answer): both questions, and the flag verdict.
  Result<answers::ProbeAnswer> analyze(const Position& pos, std::optional<Color> flagged, bool lines,
                                       std::optional<Clock::time_point> until) const {
    if (no_tables) return *no_tables;
    return answers::answer(*tb, pos, answers::Request{flagged, lines, options_until(until)});
  }

  // Whether an answer stays the same whatever the time left (Reply::cacheable): not when it is
  // undetermined (the time limit, or a nodes or memory budget that a request's deadline tightens,
  // ran out), nor when castling rights were left to the search (the castling search did not fit
  // the budget: with more time it answers from the tables, with the exact DTHM).
  static bool time_independent(const answers::ProbeAnswer& a) {
    const PositionAnalysis& r = a.analysis;
    if (r.mate[Color::White].method == Method::Undetermined || r.mate[Color::Black].method == Method::Undetermined)
      return false;
    return a.pos.castling_rights() == 0 || r.castling_search || r.checkmate || r.stalemate;
  }

  Reply standard(std::string_view raw) const {
    const std::string input = fen_param(raw);
    auto pos = Position::from_fen(fen_of_epd_line(input));
    if (!pos) return position_error(input, pos.error());
    const auto until = deadline();
    auto a = analyze(*pos, std::nullopt, false, until);
    if (!a) return position_error(input, a.error());
    bool cacheable = time_independent(*a);
    json j = answers::probe_json(input, *a);
    j["insufficient_material"] = j["dead"];  // lichess's name: dead (FIDE 5.2.2), null if undetermined
    std::vector<std::pair<std::string, Move>> moves;
    for (Move m : pos->legal_moves()) moves.emplace_back(to_uci(m), m);
    std::sort(moves.begin(), moves.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    json arr = json::array();
    for (const auto& [uci, m] : moves) {
      const Position child = pos->after(m);
      auto c = analyze(child, std::nullopt, false, until);
      if (!c) return position_error(input, c.error());
      cacheable = cacheable && time_independent(*c);
      json mj = answers::probe_json(child.to_fen(), *c);
      mj.erase("input");
      mj["insufficient_material"] = mj["dead"];
      json entry = {{"uci", uci}, {"san", to_san(*pos, m)}};
      entry.update(mj);
      arr.push_back(std::move(entry));
    }
    j["moves"] = std::move(arr);
    Reply r = json_reply(200, j);
    r.cacheable = cacheable;
    return r;
  }

  static std::optional<Color> side_param(std::string_view s, Color stm) {
    if (s == "white") return Color::White;
    if (s == "black") return Color::Black;
    if (s == "stm") return stm;
    return std::nullopt;
  }

  Reply flag(std::string_view raw, std::string_view flagged) const {
    const std::string input = fen_param(raw);
    auto pos = Position::from_fen(fen_of_epd_line(input));
    if (!pos) return position_error(input, pos.error());
    const auto side = side_param(flagged, pos->side_to_move());
    if (!side) {
      return position_error(input, make_error(ErrorCode::InvalidArgument,
                                              "flagged: \"" + shown_text(flagged) + "\" is not white, black or stm"));
    }
    auto a = analyze(*pos, side, true, deadline());
    if (!a) return position_error(input, a.error());
    Reply r = json_reply(200, answers::probe_json(input, *a));
    r.cacheable = time_independent(*a);
    return r;
  }

  // As `deadpos probe --json [--flag F] [--line]` reading the body on standard input.
  Reply batch(std::string_view body, std::string_view flagged, bool lines) const {
    if (!flagged.empty() && flagged != "white" && flagged != "black" && flagged != "stm") {
      return json_reply(400,
                        json::parse(error_body(400, error_code_name(ErrorCode::InvalidArgument),
                                               "flag: \"" + shown_text(flagged) + "\" is not white, black or stm")));
    }
    std::vector<std::string_view> inputs;
    if (body.starts_with("\xEF\xBB\xBF")) body.remove_prefix(3);
    while (!body.empty()) {
      const auto nl = body.find('\n');
      std::string_view line = body.substr(0, nl);
      body = nl == std::string_view::npos ? std::string_view() : body.substr(nl + 1);
      const auto b = line.find_first_not_of(" \t\r");
      if (b == std::string_view::npos || line[b] == '#') continue;
      const auto e = line.find_last_not_of(" \t\r");
      inputs.push_back(line.substr(b, e - b + 1));
      if (inputs.size() > opt.max_batch_lines) {
        return json_reply(413, json::parse(error_body(413, "too large",
                                                      "more than " + std::to_string(opt.max_batch_lines) +
                                                          " positions in one batch (--max-batch)")));
      }
    }
    const auto until = deadline();
    std::string out;
    for (std::string_view input : inputs) {
      auto pos = Position::from_fen(fen_of_epd_line(input));
      if (!pos) {
        out += answers::json_line(answers::probe_error_json(input, pos.error())) + "\n";
        continue;
      }
      std::optional<Color> side;
      if (!flagged.empty()) side = side_param(flagged, pos->side_to_move());
      auto a = analyze(*pos, side, lines, until);
      out +=
          answers::json_line(a ? answers::probe_json(input, *a) : answers::probe_error_json(input, a.error())) + "\n";
    }
    return {200, "application/x-ndjson", std::move(out)};
  }

  Reply health() const {
    json j;
    if (no_tables) {
      // The error shape of every other answer (docs/server.md, "Errors and limits"): numeric status.
      j["error"] = {{"category", error_code_name(no_tables->code)}, {"message", no_tables->message}};
      j["status"] = 503;
      return json_reply(503, j);
    }
    j["status"] = "ok";
    j["tables"] = tb->materials().size();
    j["max_men"] = tb->max_men();
    return json_reply(200, j);
  }

  Reply metrics() const {
    std::string s;
    s += "# HELP deadpos_http_requests_total HTTP requests answered, by endpoint and status.\n";
    s += "# TYPE deadpos_http_requests_total counter\n";
    for (std::size_t e = 0; e < kEndpointName.size(); ++e) {
      for (std::size_t i = 0; i < kStatuses.size(); ++i) {
        const auto n = stats[e].by_status[i].load(std::memory_order_relaxed);
        if (n == 0) continue;
        s += std::string("deadpos_http_requests_total{endpoint=\"") + kEndpointName[e] + "\",status=\"" +
             (kStatuses[i] ? std::to_string(kStatuses[i]) : std::string("other")) + "\"} " + std::to_string(n) + "\n";
      }
    }
    s += "# HELP deadpos_http_request_duration_seconds Time from routing a request to its answer.\n";
    s += "# TYPE deadpos_http_request_duration_seconds histogram\n";
    for (std::size_t e = 0; e < kEndpointName.size(); ++e) {
      const std::string lbl = std::string("endpoint=\"") + kEndpointName[e] + "\"";
      std::uint64_t cum = 0;
      for (std::size_t b = 0; b <= kBuckets.size(); ++b) {
        cum += stats[e].buckets[b].load(std::memory_order_relaxed);
        char le[32];
        if (b < kBuckets.size()) {
          std::snprintf(le, sizeof le, "%g", kBuckets[b]);
        } else {
          std::snprintf(le, sizeof le, "+Inf");
        }
        s +=
            "deadpos_http_request_duration_seconds_bucket{" + lbl + ",le=\"" + le + "\"} " + std::to_string(cum) + "\n";
      }
      char sum[48];
      std::snprintf(sum, sizeof sum, "%.6f",
                    static_cast<double>(stats[e].micros_sum.load(std::memory_order_relaxed)) / 1e6);
      s += "deadpos_http_request_duration_seconds_sum{" + lbl + "} " + sum + "\n";
      s += "deadpos_http_request_duration_seconds_count{" + lbl + "} " + std::to_string(cum) + "\n";
    }
    s += "# HELP deadpos_block_cache_limit_bytes The tables' decompressed-block cache limit.\n";
    s += "# TYPE deadpos_block_cache_limit_bytes gauge\n";
    s += "deadpos_block_cache_limit_bytes " + std::to_string(tb->cache_bytes()) + "\n";
    s += "# HELP deadpos_http_requests_in_flight Requests being answered now (this one included).\n";
    s += "# TYPE deadpos_http_requests_in_flight gauge\n";
    s += "deadpos_http_requests_in_flight " + std::to_string(in_flight.load()) + "\n";
    s += "# HELP deadpos_answer_cache_hits_total Answers served from the answer cache.\n";
    s += "# TYPE deadpos_answer_cache_hits_total counter\n";
    s += "deadpos_answer_cache_hits_total " + std::to_string(cache.hits()) + "\n";
    s += "# HELP deadpos_answer_cache_misses_total Answers computed (not in the answer cache).\n";
    s += "# TYPE deadpos_answer_cache_misses_total counter\n";
    s += "deadpos_answer_cache_misses_total " + std::to_string(cache.misses()) + "\n";
    s += "# HELP deadpos_answer_cache_bytes Bytes held by the answer cache.\n";
    s += "# TYPE deadpos_answer_cache_bytes gauge\n";
    s += "deadpos_answer_cache_bytes " + std::to_string(cache.bytes()) + "\n";
    s += "# HELP deadpos_tables Tables found in the table directories.\n";
    s += "# TYPE deadpos_tables gauge\n";
    s += "deadpos_tables " + std::to_string(tb ? tb->materials().size() : 0) + "\n";
    return {200, "text/plain; version=0.0.4", std::move(s)};
  }

  // A request refused before any answer is computed: 400 with the invalid-argument JSON body, counted.
  void bad_request(Endpoint e, httplib::Response& res, const std::string& message) {
    res.status = 400;
    res.set_content(error_body(400, error_code_name(ErrorCode::InvalidArgument), message), "application/json");
    count(e, 400, Clock::now());
  }

  void count(Endpoint e, int status, Clock::time_point start) {
    auto& st = stats[static_cast<std::size_t>(e)];
    st.by_status[status_slot(status)].fetch_add(1, std::memory_order_relaxed);
    const double secs = std::chrono::duration<double>(Clock::now() - start).count();
    std::size_t b = 0;
    while (b < kBuckets.size() && secs > kBuckets[b]) ++b;
    st.buckets[b].fetch_add(1, std::memory_order_relaxed);
    st.micros_sum.fetch_add(static_cast<std::uint64_t>(secs * 1e6), std::memory_order_relaxed);
  }

  // Runs a handler: in-flight gauge, answer cache, metrics, the 5xx log line.
  template <typename F>
  void serve(Endpoint e, const httplib::Request& req, httplib::Response& res, const std::string& cache_key, F&& f) {
    const auto start = Clock::now();
    in_flight.fetch_add(1);
    // Also when the handler throws (std::bad_alloc: the exception handler answers 500).
    struct Leave {
      std::atomic<std::int64_t>& n;
      ~Leave() { n.fetch_sub(1); }
    } leave{in_flight};
    Reply r;
    std::optional<std::string> hit;
    if (!cache_key.empty()) hit = cache.get(cache_key);
    if (hit) {
      r.body = std::move(*hit);
    } else {
      r = f();
      if (!cache_key.empty() && r.status == 200 && r.cacheable) cache.put(cache_key, r.body);
    }
    if (r.status >= 500) {
      // The body's own line end is not part of the log line (one_line would print it as \n).
      std::string_view body(r.body);
      if (body.ends_with('\n')) body.remove_suffix(1);
      say(std::to_string(r.status) + " " + req.path + ": " + answers::one_line(std::string(body.substr(0, 400))));
    }
    res.status = r.status;
    res.set_content(std::move(r.body), r.content_type.c_str());
    count(e, r.status, start);
  }

  void routes();
};

namespace {

// "NAME: given more than once" for the first of `names` repeated in the query, else "": two values
// for one question (fen=A&fen=B) are refused rather than one of them answered.
std::string repeated_param(const httplib::Request& req, std::initializer_list<const char*> names) {
  for (const char* n : names)
    if (req.get_param_value_count(n) > 1) return std::string(n) + ": given more than once";
  return {};
}

}  // namespace

void Server::Impl::routes() {
  http.Get("/standard", [this](const httplib::Request& req, httplib::Response& res) {
    const std::string bad = req.has_param("fen") ? repeated_param(req, {"fen"}) : "fen: missing query parameter";
    if (!bad.empty()) return bad_request(Endpoint::Standard, res, bad);
    const std::string fen = req.get_param_value("fen");
    serve(Endpoint::Standard, req, res, "s\n" + fen, [&] { return standard(fen); });
  });
  http.Get("/flag", [this](const httplib::Request& req, httplib::Response& res) {
    const std::string bad = !req.has_param("fen")       ? "fen: missing query parameter"
                            : !req.has_param("flagged") ? "flagged: missing query parameter"
                                                        : repeated_param(req, {"fen", "flagged"});
    if (!bad.empty()) return bad_request(Endpoint::Flag, res, bad);
    const std::string fen = req.get_param_value("fen"), side = req.get_param_value("flagged");
    serve(Endpoint::Flag, req, res, "f\n" + side + "\n" + fen, [&] { return flag(fen, side); });
  });
  // The body is read here, counted as it arrives: the HTTP library's own limit
  // (set_payload_max_length) holds only for a Content-Length body, so a chunked or gzip body (a
  // 200 KB gzip bomb made 200 MiB) was read whole into memory. A Content-Encoding is refused (415):
  // the library's gzip decoder takes a truncated stream for a whole one, and the cut-off last line
  // would be answered as another position; an unknown coding would be read as text.
  http.Post("/batch",
            [this](const httplib::Request& req, httplib::Response& res, const httplib::ContentReader& content_reader) {
              const std::string coding = req.get_header_value("Content-Encoding");
              const bool chunked = req.get_header_value("Transfer-Encoding").find("chunked") != std::string::npos;
              if ((!coding.empty() && coding != "identity") || (!chunked && !req.has_header("Content-Length"))) {
                // The body is not read: the connection cannot carry another request.
                res.set_header("Connection", "close");
                res.status = coding.empty() || coding == "identity" ? 400 : 415;
                res.set_content(
                    res.status == 415
                        ? error_body(415, "unsupported media type",
                                     "Content-Encoding " + shown_text(coding, 40) + ": send the batch uncompressed")
                        : error_body(400, "bad request",
                                     "POST needs a Content-Length header (or a chunked body), even for an empty body"),
                    "application/json");
                count(Endpoint::Batch, res.status, Clock::now());
                return;
              }
              std::string body;
              bool too_large = false;
              const bool read = content_reader([&](const char* data, std::size_t n) {
                if (n > opt.max_body_bytes - body.size()) {
                  too_large = true;
                  return false;
                }
                body.append(data, n);
                return true;
              });
              if (too_large || !read) {
                // The rest of the body is not read: the connection cannot carry another request.
                res.set_header("Connection", "close");
                res.status = too_large || res.status == 413 ? 413 : 400;
                res.set_content(error_body(res.status, res.status == 413 ? "too large" : "bad request",
                                           res.status == 413 ? "request body over --max-body-kb (" +
                                                                   std::to_string(opt.max_body_bytes / 1024) + " KiB)"
                                                             : "the request body could not be read"),
                                "application/json");
                count(Endpoint::Batch, res.status, Clock::now());
                return;
              }
              const std::string side = req.get_param_value("flag");
              const std::string line = req.get_param_value("line");
              // A typo in line= must not silently drop the lines asked for; an empty flag= or line= is a
              // bad value, not an absent parameter (batch() reads an empty flag as none).
              std::string bad = repeated_param(req, {"flag", "line"});
              if (req.has_param("flag") && side.empty()) bad = "flag: \"\" is not white, black or stm";
              if (req.has_param("line") && line != "0" && line != "1" && line != "false" && line != "true")
                bad = "line: \"" + shown_text(line) + "\" is not 1, true, 0 or false";
              if (!bad.empty()) return bad_request(Endpoint::Batch, res, bad);
              serve(Endpoint::Batch, req, res, "", [&] { return batch(body, side, line == "1" || line == "true"); });
            });
  http.Get("/health", [this](const httplib::Request& req, httplib::Response& res) {
    serve(Endpoint::Health, req, res, "", [&] { return health(); });
  });
  http.Get("/metrics", [this](const httplib::Request& req, httplib::Response& res) {
    serve(Endpoint::Metrics, req, res, "", [&] { return metrics(); });
  });
  // Any other GET (the page's files are served by the mount point before routing): 404, but 405
  // with Allow for a route of another method (kRoutes).
  http.Get(".*", [this](const httplib::Request& req, httplib::Response& res) {
    const Route* r = route_of(req.path);
    res.status = r && std::string_view(r->method) != "GET" ? 405 : 404;
    if (res.status == 405) res.set_header("Allow", r->method);
    count(Endpoint::Other, res.status, Clock::now());
  });
  // Known paths with another method: 405 with Allow; unknown paths: 404.
  const auto other_method = [this](const httplib::Request& req, httplib::Response& res) {
    const Route* r = route_of(req.path);
    res.status = r ? 405 : 404;
    if (r) res.set_header("Allow", r->method);
    count(Endpoint::Other, res.status, Clock::now());
  };
  http.Post(".*", other_method);
  http.Put(".*", other_method);
  http.Delete(".*", other_method);
  http.Patch(".*", other_method);
  http.Options(".*", other_method);
  // The page's files are served by the mount point, before routing and past every handler above:
  // counted here (status -1 means the library's 200 is still to be set).
  http.set_file_request_handler([this](const httplib::Request&, httplib::Response& res) {
    count(Endpoint::Page, res.status > 0 ? res.status : 200, Clock::now());
  });
  // Every error without a body of its own (404, 405, httplib's 400/413/414...) gets a JSON one.
  http.set_error_handler(httplib::Server::HandlerWithResponse([](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
    std::string msg;
    switch (res.status) {
      case 404: msg = "no such path: " + shown_text(req.path, 100); break;
      case 405: msg = req.method + " is not allowed on " + shown_text(req.path, 100); break;
      case 413:
        // The HTTP library refuses form-urlencoded bodies over 8 KiB before any handler runs, and
        // curl's --data-binary sends that type unless told otherwise.
        msg = req.get_header_value("Content-Type") == "application/x-www-form-urlencoded"
                  ? "request body too large for Content-Type application/x-www-form-urlencoded (8 KiB at most); "
                    "send the batch as text/plain (curl -H 'Content-Type: text/plain' --data-binary @FILE)"
                  : "request body too large (--max-body-kb)";
        break;
      case 414: msg = "request URI too long"; break;
      default:
        // httplib answers 400 itself, e.g. to a POST without Content-Length (curl -X POST sends none).
        msg = res.status == 400 && req.method == "POST" && !req.has_header("Content-Length") &&
                      !req.has_header("Transfer-Encoding")
                  ? "POST needs a Content-Length header (or a chunked body), even for an empty body"
                  : "HTTP status " + std::to_string(res.status) + " (the request could not be read)";
        break;
    }
    const char* cat = res.status == 404   ? "not found"
                      : res.status == 405 ? "method not allowed"
                      : res.status == 413 ? "too large"
                                          : "bad request";
    res.set_content(error_body(res.status, cat, msg), "application/json");
    return httplib::Server::HandlerResponse::Handled;
  }));
  http.set_exception_handler([this](const httplib::Request& req, httplib::Response& res, std::exception_ptr ep) {
    std::string what = "internal error";
    try {
      std::rethrow_exception(ep);
    } catch (const std::bad_alloc&) {
      what = "out of memory";
    } catch (const std::exception& e) {
      what = e.what();
    } catch (...) {
    }
    say("500 " + req.path + ": " + answers::one_line(what));
    res.status = 500;
    res.set_content(error_body(500, "internal error", what), "application/json");
  });
}

Result<std::unique_ptr<Server>> Server::create(const Options& opt, LogFn log) {
  if (opt.threads < 1 || opt.threads > 4096) return make_error(ErrorCode::InvalidArgument, "threads: 1..4096");
  if (opt.port < 0 || opt.port > 65535) return make_error(ErrorCode::InvalidArgument, "port: 0..65535");
  auto impl = std::make_unique<Impl>(opt, std::move(log));
  if (impl->opt.table_dirs.empty()) impl->opt.table_dirs.push_back("tables");
  Tablebase::Options topt;
  topt.cache_bytes = opt.cache_bytes;
  auto tb = Tablebase::open(impl->opt.table_dirs, topt);
  if (!tb) return tb.error();
  impl->tb.emplace(std::move(*tb));
  if (impl->tb->max_men() == 0) {
    impl->no_tables = no_tables_error(impl->opt.table_dirs);
  }
  auto& h = impl->http;
  const int threads = opt.threads;
  h.new_task_queue = [threads] { return new httplib::ThreadPool(static_cast<std::size_t>(threads)); };
  h.set_payload_max_length(opt.max_body_bytes);
  h.set_read_timeout(opt.io_timeout_s, 0);
  h.set_write_timeout(opt.io_timeout_s, 0);
  h.set_keep_alive_timeout(opt.io_timeout_s);
  h.set_keep_alive_max_count(1'000'000);
  h.set_tcp_nodelay(true);
  // cpp-httplib's default socket options set SO_REUSEPORT, which lets a second server bind a port
  // already listened on (the kernel then splits the connections between the two, tables and all):
  // SO_REUSEADDR only, so a restart may reuse a port in TIME_WAIT but a live listener is refused.
  // The socket is kept so that bind() can raise the library's listen backlog of 5.
  h.set_socket_options([raw = impl.get()](socket_t s) {
    int yes = 1;
    ::setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    raw->listen_fd = s;
  });
  if (!opt.web_dir.empty() && !h.set_mount_point("/", opt.web_dir)) {
    return make_error(ErrorCode::Io, opt.web_dir + ": the page's directory cannot be read");
  }
  impl->routes();
  return std::unique_ptr<Server>(new Server(std::move(impl)));
}

Server::Server(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Server::~Server() = default;

Status Server::bind() {
  auto& i = *impl_;
  if (i.opt.port == 0) {
    i.bound_port = i.http.bind_to_any_port(i.opt.host.c_str());
    if (i.bound_port <= 0) return make_error(ErrorCode::Io, i.opt.host + ": cannot listen on any port");
  } else {
    if (!i.http.bind_to_port(i.opt.host.c_str(), i.opt.port)) {
      return make_error(ErrorCode::Io, i.opt.host + ":" + std::to_string(i.opt.port) +
                                           ": cannot listen (address in use, or not an address of this machine)");
    }
    i.bound_port = i.opt.port;
  }
  // A backlog of 5 makes a burst of new connections beyond it wait for SYN retries (1 s, then 3 s)
  // while the accept thread is busy; listen() again on a listening socket only changes its backlog.
  if (i.listen_fd >= 0 && ::listen(i.listen_fd, SOMAXCONN) != 0) {
    return make_error(ErrorCode::Io,
                      i.opt.host + ":" + std::to_string(i.bound_port) + ": cannot set the listen backlog");
  }
  return Ok{};
}

int Server::port() const { return impl_->bound_port; }

void Server::run() {
  if (impl_->stopping.load()) return;
  impl_->http.listen_after_bind();
}

void Server::stop() {
  impl_->stopping.store(true);
  impl_->http.stop();
}

Reply Server::standard(std::string_view fen) const { return impl_->standard(fen); }
Reply Server::flag(std::string_view fen, std::string_view flagged) const { return impl_->flag(fen, flagged); }
Reply Server::batch(std::string_view body, std::string_view flagged, bool lines) const {
  return impl_->batch(body, flagged, lines);
}
Reply Server::health() const { return impl_->health(); }
Reply Server::metrics() const { return impl_->metrics(); }

}  // namespace deadpos::server
