// The command's progress printer and material keys: see progress.h.
#include "progress.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <memory>

namespace deadpos::cli {

ProgressFn make_progress() {
  const bool tty = ::isatty(STDERR_FILENO) != 0;
  struct State {
    std::string key;
    Phase phase = Phase::Init;
    std::chrono::steady_clock::time_point start;
    int last_pct = -1;
    std::string done;  // non-tty: finished phases of the current table with their times
  };
  auto st = std::make_shared<State>();
  return [tty, st](const Progress& p) {
    if (p.material != st->key || p.phase != st->phase) {
      if (p.material != st->key) st->done.clear();
      st->key = p.material;
      st->phase = p.phase;
      st->start = std::chrono::steady_clock::now();
      st->last_pct = -1;
    }
    const int pct = static_cast<int>(p.fraction * 100.0);
    if (tty) {
      if (pct == st->last_pct) return;
      st->last_pct = pct;
      const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - st->start).count();
      const double eta = p.fraction > 0.01 ? el * (1.0 - p.fraction) / p.fraction : 0.0;
      std::fprintf(stderr, "\r\033[K%s %s %3d%% ETA %.0fs", p.material.c_str(), std::string(to_string(p.phase)).c_str(),
                   pct, eta);
      if (p.fraction >= 1.0) std::fprintf(stderr, "\n");
    } else if (p.fraction >= 1.0 && st->last_pct != 100) {
      // One line per table for logs: the phases' times, printed when the last phase ends.
      st->last_pct = 100;
      const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - st->start).count();
      char part[64];
      std::snprintf(part, sizeof part, "%s%s %.1f s", st->done.empty() ? "" : ", ",
                    std::string(to_string(p.phase)).c_str(), el);
      st->done += part;
      if (p.phase == Phase::Write || p.phase == Phase::Verify) {
        std::fprintf(stderr, "%s: %s\n", p.material.c_str(), st->done.c_str());
        st->done.clear();
      }
    }
  };
}

Result<std::vector<Material>> parse_materials(const std::vector<std::string>& keys) {
  std::vector<Material> out;
  for (const auto& k : keys) {
    auto m = Material::parse(k);
    if (!m) return m.error();
    if (m->men() > kMaxGenerateMen) {
      return make_error(ErrorCode::InvalidArgument, "material " + k + " has " + std::to_string(m->men()) +
                                                        " men; tables exist for at most " +
                                                        std::to_string(kMaxGenerateMen));
    }
    out.push_back(m->canonical());
  }
  return out;
}

}  // namespace deadpos::cli
