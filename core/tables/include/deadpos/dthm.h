// A DTHM value: the number of plies of the shortest legal sequence that ends with the target side
// checkmated, or "none" (no such sequence: docs/rules.md, FIDE 5.2.2 and 6.9). Converts to and
// from the table byte of DthmCode (docs/format.md section 3).
#pragma once

#include <cstdint>

namespace deadpos {

// Byte codes of a DTHM array entry (docs/format.md section 3).
//   0..kMaxDthm : distance to helpmate in plies
//   kNone       : no sequence of legal moves ends in checkmate of that side
//   kInvalid    : the index value is not a position of the table's domain (broken entry, or the
//                 side not to move is in check)
struct DthmCode {
  static constexpr std::uint8_t kMaxDthm = 250;
  static constexpr std::uint8_t kNone = 253;
  static constexpr std::uint8_t kUnknown = 254;  // only while solving; never in a file
  static constexpr std::uint8_t kInvalid = 255;
};

class Dthm {
 public:
  static constexpr int kMaxPlies = DthmCode::kMaxDthm;

  // None.
  constexpr Dthm() = default;
  static constexpr Dthm none() { return Dthm(); }
  // plies in 0..kMaxPlies; past kMaxPlies (a value the format cannot hold) reads as none: callers
  // that extend a value check fits() first where that matters.
  static constexpr Dthm in_plies(int plies) {
    return plies >= 0 && plies <= kMaxPlies ? Dthm(static_cast<std::uint8_t>(plies)) : Dthm();
  }
  // The value of a table byte: a code <= DthmCode::kMaxDthm is that many plies; every other code
  // (kNone, and the solver's kUnknown and kInvalid) is none. kInvalid entries are not positions:
  // callers that count positions test the byte for kInvalid themselves.
  static constexpr Dthm from_code(std::uint8_t code) { return code <= DthmCode::kMaxDthm ? Dthm(code) : Dthm(); }

  constexpr bool is_none() const { return code_ == DthmCode::kNone; }
  constexpr bool is_finite() const { return !is_none(); }
  // Plies; -1 for none.
  constexpr int plies() const { return is_none() ? -1 : code_; }
  // Table byte: plies, or DthmCode::kNone.
  constexpr std::uint8_t code() const { return code_; }
  // The value k plies earlier on a line through this position (a finite value + k; none stays
  // none; past kMaxPlies: none).
  constexpr Dthm before(int k) const { return is_none() ? Dthm() : in_plies(code_ + k); }
  // Whether before(k) still fits the format (finite values only).
  constexpr bool fits_before(int k) const { return is_none() || code_ + k <= kMaxPlies; }

  // Shorter is smaller; none is larger than every finite value.
  constexpr auto operator<=>(const Dthm&) const = default;
  friend constexpr Dthm min(Dthm a, Dthm b) { return b < a ? b : a; }

 private:
  constexpr explicit Dthm(std::uint8_t code) : code_(code) {}
  std::uint8_t code_ = DthmCode::kNone;
};
static_assert(DthmCode::kNone > DthmCode::kMaxDthm, "none must order after every finite value");

}  // namespace deadpos
