// Sharded LRU cache of decompressed table blocks (see block_cache.h).
#include "block_cache.h"

#include <new>
#include <string>

namespace deadpos::internal {

namespace {

// The probe reads entries of legal positions only: a table block's invalid entries need not be
// restored.
Status read_for_cache(const TableFile& f, std::uint32_t b, std::vector<std::uint8_t>& out) {
  return f.read_block(b, out, InvalidEntries::Any);
}
Status read_for_cache(const VerdictFile& f, std::uint32_t b, std::vector<std::uint8_t>& out) {
  return f.read_block(b, out);
}

}  // namespace

template <class File>
Result<std::uint8_t> BlockCache::entry(std::uint64_t key, const File& f, std::uint32_t b, std::uint32_t off) {
  Shard& sh = shards_[static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ULL) >> 60) % kShards];
  {
    std::lock_guard lock(sh.mu);
    if (auto it = sh.where.find(key); it != sh.where.end()) {
      if (it->second != sh.lru.begin()) sh.lru.splice(sh.lru.begin(), sh.lru, it->second);
      const auto& data = *it->second->second;
      if (off >= data.size()) return corrupt_offset(f.name(), b, off);
      return data[off];
    }
  }
  // A miss allocates a block. When memory runs short (ulimit -v, a cache limit larger than the
  // memory left), the cache is emptied and the block read once more: the cache must never be the
  // reason a position its tables cover goes unanswered. A second failure is OutOfMemory.
  for (int attempt = 0;; ++attempt) {
    try {
      return insert(sh, key, f, b, off);
    } catch (const std::bad_alloc&) {
      if (attempt > 0) {
        return make_error(ErrorCode::OutOfMemory, f.name() + ": out of memory reading block " + std::to_string(b) +
                                                      " (the block cache was emptied and the read retried)");
      }
      clear();
    }
  }
}

template <class File>
Result<std::uint8_t> BlockCache::insert(Shard& sh, std::uint64_t key, const File& f, std::uint32_t b,
                                        std::uint32_t off) {
  auto data = std::make_shared<std::vector<std::uint8_t>>();
  if (Status s = read_for_cache(f, b, *data); !s) {
    if (s.error().code == ErrorCode::OutOfMemory) throw std::bad_alloc();  // retried by entry()
    return s.error();
  }
  if (off >= data->size()) return corrupt_offset(f.name(), b, off);
  const std::uint8_t v = (*data)[off];
  std::lock_guard lock(sh.mu);
  if (sh.where.count(key)) return v;  // raced with another thread: keep its copy
  const std::size_t cap = cache_bytes_ / kShards;
  // The list node and the map entry are allocated before the block is counted, so that a
  // bad_alloc leaves the shard as it was.
  sh.lru.emplace_front(key, std::move(data));
  try {
    sh.where[key] = sh.lru.begin();
  } catch (...) {
    sh.lru.pop_front();
    throw;
  }
  sh.bytes += sh.lru.front().second->size();
  while (sh.bytes > cap && sh.lru.size() > 1) {
    sh.bytes -= sh.lru.back().second->size();
    sh.where.erase(sh.lru.back().first);
    sh.lru.pop_back();
  }
  return v;
}

void BlockCache::clear() {
  for (Shard& sh : shards_) {
    std::lock_guard lock(sh.mu);
    sh.where.clear();
    sh.lru.clear();
    sh.bytes = 0;
  }
}

Error BlockCache::corrupt_offset(const std::string& name, std::uint32_t b, std::uint32_t off) {
  return make_error(ErrorCode::CorruptTable,
                    name + ": block " + std::to_string(b) + " has no entry " + std::to_string(off));
}

template Result<std::uint8_t> BlockCache::entry(std::uint64_t, const TableFile&, std::uint32_t, std::uint32_t);
template Result<std::uint8_t> BlockCache::entry(std::uint64_t, const VerdictFile&, std::uint32_t, std::uint32_t);

}  // namespace deadpos::internal
