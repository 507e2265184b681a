// The four arrays of a table, by (side to move, side to be mated): the one place that maps the
// pair to an array number (docs/format.md section 3). Everything else names an array by its two
// colours, through Sides<T>::operator() or array_of().
//
//   array 0: White to move, DTHM of White   array 1: White to move, DTHM of Black
//   array 2: Black to move, DTHM of White   array 3: Black to move, DTHM of Black
//
// i.e. array = 2 * side to move + side mated (White 0, Black 1): both arrays of one side to move
// are neighbours, which the readers of a whole side (the verifier, statistics) and the block index
// (blocks of array a follow those of array a - 1) rely on.
#pragma once

#include <array>
#include <concepts>
#include <cstddef>

#include "deadpos/types.h"

namespace deadpos {

inline constexpr int kNumArrays = 4;

// Array number (file order, section 3) of (side to move, side to be mated).
constexpr int array_of(Color stm, Color mated) { return to_index(stm) * 2 + to_index(mated); }
// Side to move and side to be mated of array number a (0..3).
constexpr Color side_to_move_of_array(int a) { return a < 2 ? Color::White : Color::Black; }
constexpr Color mated_of_array(int a) { return a % 2 == 0 ? Color::White : Color::Black; }
static_assert(array_of(side_to_move_of_array(3), mated_of_array(3)) == 3);
static_assert(array_of(Color::Black, Color::White) == 2 && array_of(Color::White, Color::Black) == 1);

// One T per array of a table (a byte array, a summary, a count): sides(stm, mated) by colours,
// sides[a] by array number for the loops over all four in file order. An aggregate, like ByColor.
template <typename T>
struct Sides {
  std::array<T, kNumArrays> by_array{};

  constexpr T& operator()(Color stm, Color mated) { return by_array[static_cast<std::size_t>(array_of(stm, mated))]; }
  constexpr const T& operator()(Color stm, Color mated) const {
    return by_array[static_cast<std::size_t>(array_of(stm, mated))];
  }
  constexpr T& operator[](std::size_t a) { return by_array[a]; }
  constexpr const T& operator[](std::size_t a) const { return by_array[a]; }
  static constexpr std::size_t size() { return kNumArrays; }
  constexpr auto begin() { return by_array.begin(); }
  constexpr auto end() { return by_array.end(); }
  constexpr auto begin() const { return by_array.begin(); }
  constexpr auto end() const { return by_array.end(); }
  // Only for a T with == (a defaulted one would be checked, and fail, for every T).
  constexpr bool operator==(const Sides& o) const requires std::equality_comparable<T> {
    return by_array == o.by_array;
  }
};

}  // namespace deadpos
