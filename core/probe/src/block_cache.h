// Sharded LRU cache of decompressed table blocks (internal to core/), used by Tablebase.
//
// Thread-safety: entry() may be called from any number of threads at once.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

#include "deadpos/result.h"
#include "deadpos/table.h"
#include "deadpos/verdict_file.h"

namespace deadpos::internal {

// LRU cache of decompressed blocks, in kShards independent shards (by a hash of the block key)
// so that threads probing different blocks do not wait on one mutex; each shard holds at most
// cache_bytes / kShards bytes, or one block. A hit copies the entry's byte under the shard's
// lock: no reference count is touched, so threads reading the same hot block do not bounce a
// counter between cores.
class BlockCache {
 public:
  static constexpr std::size_t kShards = 16;

  // cache_bytes: the limit over all shards, bytes (Tablebase::Options::cache_bytes).
  explicit BlockCache(std::size_t cache_bytes) : cache_bytes_(cache_bytes) {}

  // Byte `off` of block b of f, a TableFile or a VerdictFile (decompressed and cached on a miss).
  // key names the block uniquely among every file sharing this cache. Errors: those of TableFile::read_block, and
  // CorruptTable if the block has no entry off, OutOfMemory when the block cannot be allocated
  // even after the cache was emptied (never throws std::bad_alloc).
  // Blocks are read with InvalidEntries::Any: only entries of legal positions may be asked for.
  template <class File>
  Result<std::uint8_t> entry(std::uint64_t key, const File& f, std::uint32_t b, std::uint32_t off);

 private:
  using Block = std::shared_ptr<const std::vector<std::uint8_t>>;
  struct alignas(64) Shard {
    std::mutex mu;
    std::list<std::pair<std::uint64_t, Block>> lru;  // front = most recent
    std::unordered_map<std::uint64_t, std::list<std::pair<std::uint64_t, Block>>::iterator> where;
    std::size_t bytes = 0;
  };

  // The miss path of entry(): reads block b, caches it in sh. Throws std::bad_alloc (also for
  // read_block's OutOfMemory) with the shard unchanged.
  template <class File>
  Result<std::uint8_t> insert(Shard& sh, std::uint64_t key, const File& f, std::uint32_t b, std::uint32_t off);
  // Drops every cached block (each shard under its lock).
  void clear();
  static Error corrupt_offset(const std::string& name, std::uint32_t b, std::uint32_t off);

  std::size_t cache_bytes_;
  std::array<Shard, kShards> shards_;
};

}  // namespace deadpos::internal
