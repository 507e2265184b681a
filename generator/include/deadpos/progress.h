// Progress reports of the generator: core/ and generator/ never print; long phases call a ProgressFn.
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace deadpos {

// The phases of building or checking one table, in the order generate() runs them.
enum class Phase { Init, Solve, Stats, Write, Verify };

// The phase's name as the command prints it: "init", "solve", "stats", "write", "verify".
constexpr std::string_view to_string(Phase p) {
  switch (p) {
    case Phase::Init: return "init";
    case Phase::Solve: return "solve";
    case Phase::Stats: return "stats";
    case Phase::Write: return "write";
    case Phase::Verify: return "verify";
  }
  return "?";
}

struct Progress {
  std::string material;
  Phase phase;
  double fraction;  // 0..1 within the phase
};
using ProgressFn = std::function<void(const Progress&)>;

}  // namespace deadpos
