// Escaping of echoed input and plain-text helpers: see deadpos/answers.h.
#include <cstdint>
#include <string>
#include <string_view>

#include "deadpos/answers.h"
#include "internal.h"

namespace deadpos::answers {

namespace {

constexpr std::size_t kMaxEcho = 200;  // bytes of an input echoed back: a runaway line is cut

void append_u(std::string& out, std::uint32_t cp) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(cp));  // lower case, as the JSON lines
  out += buf;
}

// Length of the valid UTF-8 sequence at s[i] and its code point, or 0 when the bytes there are
// not one (overlong forms, surrogates and code points above U+10FFFF are not valid).
std::size_t utf8_at(std::string_view s, std::size_t i, std::uint32_t& cp) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const unsigned char c = b(0);
  std::size_t n = 0;
  std::uint32_t min = 0;
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2, cp = c & 0x1Fu, min = 0x80;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3, cp = c & 0x0Fu, min = 0x800;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4, cp = c & 0x07u, min = 0x10000;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((b(k) & 0xC0u) != 0x80u) return 0;
    cp = (cp << 6) | (b(k) & 0x3Fu);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

void escape_into(std::string& out, std::string_view s, bool quote) {
  for (std::size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7F) {
      if (quote && (c == '\\' || c == '"')) out += '\\';
      out += static_cast<char>(c);
      ++i;
    } else if (c == '\n') {
      out += "\\n", ++i;
    } else if (c == '\r') {
      out += "\\r", ++i;
    } else if (c == '\t') {
      out += "\\t", ++i;
    } else if (c < 0x80) {
      append_u(out, c), ++i;
    } else {
      std::uint32_t cp = 0;
      if (const std::size_t n = utf8_at(s, i, cp)) {
        if (cp > 0xFFFF) {
          cp -= 0x10000;
          append_u(out, 0xD800 + (cp >> 10));
          append_u(out, 0xDC00 + (cp & 0x3FF));
        } else {
          append_u(out, cp);
        }
        i += n;
      } else {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\x%02X", static_cast<unsigned>(c));
        out += buf;
        ++i;
      }
    }
  }
}

}  // namespace

namespace internal {

// The echoed part (echo.h): at most kMaxEcho bytes, cut before a UTF-8 sequence rather than inside it.
std::string_view echoed(std::string_view input) {
  if (input.size() <= kMaxEcho) return input;
  std::size_t cut = kMaxEcho;
  for (int k = 0; k < 3 && cut > 0 && (static_cast<unsigned char>(input[cut]) & 0xC0u) == 0x80u; ++k) --cut;
  return input.substr(0, cut);
}

std::string cut_note(std::string_view input) {
  return input.size() > kMaxEcho ? "... (" + std::to_string(input.size()) + " bytes)" : std::string();
}

}  // namespace internal

using internal::cut_note;
using internal::echoed;

std::string one_line(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  escape_into(out, s, false);
  return out;
}

std::string quoted_input(std::string_view input) {
  std::string out = "\"";
  escape_into(out, echoed(input), true);
  out += '"';
  return out + cut_note(input);
}

std::string json_input(std::string_view input) { return std::string(echoed(input)) + cut_note(input); }

std::string json_line(const nlohmann::json& j) {
  return j.dump(-1, ' ', true, nlohmann::json::error_handler_t::replace);
}

std::string plies(int n) { return std::to_string(n) + (n == 1 ? " ply" : " plies"); }

std::string count_of(std::uint64_t n, std::string_view singular, std::string_view plural) {
  return std::to_string(n) + " " + std::string(n == 1 ? singular : plural);
}

}  // namespace deadpos::answers
