// Helpers shared by the renderings (internal to deadpos_answers): the echo of an input (the part
// shown and the note of what was cut: deadpos/answers.h, quoted_input and json_input), the
// names of a side, and a yes/no/undetermined value in JSON.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "deadpos/types.h"

namespace deadpos::answers::internal {

// At most the first 200 bytes of input, cut before a UTF-8 sequence rather than inside it.
std::string_view echoed(std::string_view input);
// "... (N bytes)" when echoed() cut the input, else empty.
std::string cut_note(std::string_view input);

inline const char* side_name(Color c) { return c == Color::White ? "White" : "Black"; }  // in text
inline const char* side_id(Color c) { return c == Color::White ? "white" : "black"; }    // in JSON
// true, false, or null for undetermined.
inline nlohmann::json tri(std::optional<bool> b) { return b ? nlohmann::json(*b) : nlohmann::json(nullptr); }

}  // namespace deadpos::answers::internal
