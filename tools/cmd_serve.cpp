// deadpos serve [--tables DIR]... [--listen ADDR:PORT] [--threads T] [--cache-mb M] ...: the HTTP API
// and the arbiters' page (server/server.h, docs/server.md). This file parses the options, prints
// the log lines, and turns SIGTERM/SIGINT into a graceful stop (in-flight requests finish, exit 0).
#include <atomic>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <memory>
#include <thread>

#include <pthread.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "server.h"

namespace deadpos::cli {

namespace {

struct ServeArgs {
  server::Options opt;
  std::string listen = "127.0.0.1:8080";
  std::string web;
  std::int64_t cache_mb = -1, answer_cache_mb = 64, budget_mb = 512, max_body_kb = 1024;
};

// The page's directory: --web, else ../share/deadpos/web beside the program, else the source tree.
std::string web_dir(const std::string& given) {
  if (!given.empty()) return given;
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const auto installed = exe.parent_path().parent_path() / "share" / "deadpos" / "web";
    if (std::filesystem::is_regular_file(installed / "index.html", ec)) return installed.string();
  }
  if (std::filesystem::is_regular_file(std::filesystem::path(DEADPOS_WEB_SOURCE_DIR) / "index.html", ec)) {
    return DEADPOS_WEB_SOURCE_DIR;
  }
  return "";
}

int run_serve(ServeArgs& a) {
  const auto colon = a.listen.rfind(':');
  int port = -1;
  if (colon != std::string::npos && colon > 0) {
    try {
      std::size_t used = 0;
      port = std::stoi(a.listen.substr(colon + 1), &used);
      if (used != a.listen.size() - colon - 1) port = -1;
    } catch (const std::exception&) {
      port = -1;
    }
  }
  if (port < 0 || port > 65535) {
    std::cerr << "deadpos: usage: --listen \"" << one_line(a.listen)
              << "\": expected ADDRESS:PORT, e.g. 127.0.0.1:8080 (port 0: any free port) (see deadpos --help)\n";
    return kExitUsage;
  }
  a.opt.host = a.listen.substr(0, colon);
  if (a.opt.host.size() > 2 && a.opt.host.front() == '[' && a.opt.host.back() == ']') {
    a.opt.host = a.opt.host.substr(1, a.opt.host.size() - 2);  // [::1]:8080
  }
  a.opt.port = port;
  if (a.cache_mb >= 0) a.opt.cache_bytes = static_cast<std::size_t>(a.cache_mb) << 20;  // else the machine's
  a.opt.answer_cache_bytes = static_cast<std::size_t>(a.answer_cache_mb) << 20;
  a.opt.budget.memory_bytes = static_cast<std::size_t>(a.budget_mb) << 20;
  a.opt.max_body_bytes = static_cast<std::size_t>(a.max_body_kb) << 10;
  a.opt.web_dir = web_dir(a.web);

  // SIGTERM/SIGINT are blocked in every thread (the server's workers inherit the mask) and taken
  // by one thread with sigwait, which may then call anything.
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);

  auto srv =
      server::Server::create(a.opt, [](std::string_view line) { std::cerr << "deadpos serve: " << line << '\n'; });
  if (!srv) return report(srv.error());
  server::Server& s = **srv;
  if (auto b = s.bind(); !b) return report(b.error());
  // The one line a script waits for; the port is the bound one (with --listen ...:0, a free port).
  std::cout << "deadpos serve: listening on http://" << (a.opt.host.find(':') != std::string::npos ? "[" : "")
            << a.opt.host << (a.opt.host.find(':') != std::string::npos ? "]" : "") << ':' << s.port() << "/"
            << (a.opt.web_dir.empty() ? " (no page: server/web not found)" : "") << std::endl;
  if (!output_ok()) return finish_output();

  std::atomic<bool> done{false};
  std::atomic<int> signal_seen{0};
  std::thread waiter([&] {
    int sig = 0;
    sigwait(&set, &sig);
    signal_seen.store(sig);
    // stop() before run() has begun listening is retried until run() returns.
    while (!done.load()) {
      s.stop();
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  });
  s.run();
  done.store(true);
  if (signal_seen.load() == 0) pthread_kill(waiter.native_handle(), SIGTERM);  // run() ended on its own
  waiter.join();
  std::cerr << "deadpos serve: stopped (" << (signal_seen.load() == SIGINT ? "SIGINT" : "SIGTERM")
            << "), every accepted request answered\n";
  return finish_output();
}

}  // namespace

Subcommand add_serve(CLI::App& app) {
  auto a = std::make_shared<ServeArgs>();
  CLI::App* cmd = app.add_subcommand("serve", "HTTP API (lichess /standard shape, /flag, /batch) and arbiters' page");
  cmd->add_option("--tables", a->opt.table_dirs, "table directory (repeatable; default: tables)")
      ->allow_extra_args(false)
      ->check(kNonEmpty);
  cmd->add_option("--listen", a->listen, "ADDRESS:PORT to listen on (default 127.0.0.1:8080; port 0: any free port)");
  cmd->add_option("--threads", a->opt.threads,
                  "worker threads, each serving one connection at a time, 1..4096 (default 64)")
      ->check(CLI::Range(1, 4096));
  cmd->add_option("--cache-mb", a->cache_mb,
                  "decompressed-block cache limit in MiB, 0..1048576 (default: 1/8 of the memory, 256..4096)")
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{1} << 20));
  cmd->add_option("--answer-cache-mb", a->answer_cache_mb, "cache of rendered answers in MiB, 0 = none (default 64)")
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{1} << 20));
  cmd->add_option("--max-body-kb", a->max_body_kb, "largest request body in KiB, else 413 (default 1024)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 20));
  cmd->add_option("--max-batch", a->opt.max_batch_lines, "most positions in one POST /batch, else 413 (default 1000)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 24));
  cmd->add_option("--request-ms", a->opt.request_ms,
                  "analysis time of one request, ms; then open questions are undetermined; 0 = no limit (default "
                  "10000)")
      ->check(CLI::Range(std::uint64_t{0}, std::uint64_t{86'400'000}));
  cmd->add_option("--io-timeout", a->opt.io_timeout_s, "seconds to read a request or write an answer (default 5)")
      ->check(CLI::Range(1, 3600));
  cmd->add_option("--budget-nodes", a->opt.budget.nodes,
                  "beyond the tables: positions the search may generate per side, 0 = no limit (default 2000000)")
      ->check(CLI::Range(std::uint64_t{0}, std::uint64_t{1} << 40));
  cmd->add_option("--budget-mb", a->budget_mb, "beyond the tables: MiB the search may store per side (default 512)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 20));
  cmd->add_option("--web", a->web, "directory of the page (default: installed share/deadpos/web, or server/web)")
      ->check(kNonEmpty);
  return {cmd, [a] { return run_serve(*a); }};
}

}  // namespace deadpos::cli
