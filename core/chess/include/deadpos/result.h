// Errors as values (style rule 16): GCC 12 in C++20 has no std::expected, so Result<T> is a
// small variant of a value and an Error. Outside input (FEN, files, command-line arguments,
// large allocations) always comes back through Result; programmer errors use assert/DEADPOS_CHECK.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace deadpos {

// Error categories. Tools map each to a distinct exit code (see tools/main.cpp); keep the list in
// sync with docs/cli.md.
enum class ErrorCode {
  InvalidFen,         // malformed or illegal FEN (message names the field and the problem)
  InvalidArgument,    // impossible request (bad material key, depth out of range, ...)
  InvalidMove,        // a SAN/UCI move that is malformed, illegal or ambiguous
  Io,                 // file could not be opened/read/written
  MissingTable,       // a table the answer needs is absent
  CorruptTable,       // table bytes fail a bounds or checksum check
  OutOfMemory,        // a large allocation failed
  TooManyMen,         // more men on the board than the loaded tables cover
  VerificationFailed  // a table disagrees with its successors
};

const char* error_code_name(ErrorCode c);

struct Error {
  ErrorCode code;
  std::string message;  // one line, names what and where
  bool operator==(const Error&) const = default;
};

// Holds either a T or an Error. Access to the wrong alternative is a programmer error: std::get
// throws std::bad_variant_access (the deadpos command reports it as an internal error, exit 1).
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}  // NOLINT(google-explicit-constructor)
  Result(Error e) : v_(std::move(e)) {}      // NOLINT(google-explicit-constructor)

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  const Error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, Error> v_;
};

// Result of an operation without a value.
struct Ok {};
using Status = Result<Ok>;

inline Error make_error(ErrorCode c, std::string msg) { return Error{c, std::move(msg)}; }

// Outside text as an error message may quote it: printable ASCII stays, any other byte (control,
// newline, non-ASCII) becomes "\xNN", and what does not fit in max_chars characters is cut with
// "...". Messages are one short line that terminals and JSON take as they are (tests/fuzz/fuzz_fen.cpp).
inline std::string shown_text(std::string_view text, std::size_t max_chars = 40) {
  constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  std::size_t i = 0;
  for (; i < text.size(); ++i) {
    const auto b = static_cast<unsigned char>(text[i]);
    const bool plain = b >= 0x20 && b < 0x7f;
    if (out.size() + (plain ? 1 : 4) > max_chars) break;
    if (plain) {
      out += text[i];
    } else {
      out += "\\x";
      out += kHex[b >> 4];
      out += kHex[b & 15];
    }
  }
  if (i < text.size()) out += "...";
  return out;
}

}  // namespace deadpos
