// Thread-safety of Tablebase (tablebase.h: "may be probed from any number of threads at once"):
// threads sharing one Tablebase whose block cache is far too small for the working set, so blocks
// are evicted and re-read while other threads hold them, must give the single-threaded answers.
// (Also a target for the advisory ThreadSanitizer build.)
#include <gtest/gtest.h>

#include <atomic>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "test_probe_util.h"

namespace deadpos {
namespace {

TEST(Concurrency, ThreadsWithATinyCacheAgree) {
  const Tablebase* reference = nullptr;
  ASSERT_TABLES(reference);
  // Positions of two pawnless materials (32 blocks each; both orientations), with their
  // single-threaded answers.
  std::mt19937_64 rng(0x7474);
  std::vector<Position> ps;
  std::vector<ProbeResult> want;
  for (const char* key : {"KRvKN", "KNvKR", "KQvKR", "KRvKQ"}) {
    for (int i = 0; i < 60; ++i) ps.push_back(probe_test::random_position(key, rng));
  }
  for (const Position& p : ps) {
    auto r = reference->probe(p);
    ASSERT_TRUE(r) << p.to_fen() << ": " << r.error().message;
    want.push_back(*r);
  }
  Tablebase::Options opt;
  opt.cache_bytes = 24 * (std::size_t{1} << 18);  // 24 blocks of 256 KiB; the sample reads 64
  auto tb = Tablebase::open({probe_test::tables_dir()}, opt);
  ASSERT_TRUE(tb) << tb.error().message;

  constexpr int kThreads = 4;
  std::atomic<int> mismatches{0};
  std::vector<std::string> first_error(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      // Each thread walks the sample in its own order, twice.
      std::mt19937_64 order(static_cast<std::uint64_t>(t) + 1);
      for (int round = 0; round < 2; ++round) {
        for (std::size_t k = 0; k < ps.size(); ++k) {
          const std::size_t i = (k * 7919 + order() % 64) % ps.size();
          auto r = tb->probe(ps[i]);
          if (!r || r->dthm != want[i].dthm || r->table != want[i].table) {
            mismatches.fetch_add(1);
            std::string& e = first_error[static_cast<std::size_t>(t)];
            if (e.empty()) e = ps[i].to_fen() + (r ? std::string(": different answer") : ": " + r.error().message);
          }
        }
      }
    });
  }
  for (std::thread& th : threads) th.join();
  std::string errors;
  for (const std::string& e : first_error)
    if (!e.empty()) errors += e + "; ";
  EXPECT_EQ(mismatches.load(), 0) << errors;
}

}  // namespace
}  // namespace deadpos
