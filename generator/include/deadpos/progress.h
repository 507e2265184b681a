// Progress reports of the generator: core/ and generator/ never print; long phases call a ProgressFn.
#pragma once

#include <functional>
#include <string>

namespace deadpos {

struct Progress {
  std::string material;
  std::string phase;  // "init", "solve", "stats", "write", "verify"
  double fraction;    // 0..1 within the phase
};
using ProgressFn = std::function<void(const Progress&)>;

}  // namespace deadpos
