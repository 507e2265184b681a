// The names of the error categories (deadpos/result.h).
#include "deadpos/result.h"

namespace deadpos {

const char* error_code_name(ErrorCode c) {
  switch (c) {
    case ErrorCode::InvalidFen: return "invalid FEN";
    case ErrorCode::InvalidArgument: return "invalid argument";
    case ErrorCode::InvalidMove: return "invalid move";
    case ErrorCode::Io: return "I/O error";
    case ErrorCode::MissingTable: return "missing table";
    case ErrorCode::CorruptTable: return "corrupt table";
    case ErrorCode::OutOfMemory: return "out of memory";
    case ErrorCode::TooManyMen: return "too many men";
    case ErrorCode::VerificationFailed: return "verification failed";
  }
  return "?";
}

}  // namespace deadpos
