// Sharded LRU cache of decompressed table blocks (see block_cache.h).
#include "block_cache.h"

#include <string>

namespace deadpos::internal {

Result<std::uint8_t> BlockCache::entry(std::uint64_t key, const TableFile& f, std::uint32_t b, std::uint32_t off) {
  Shard& sh = shards_[static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ULL) >> 60) % kShards];
  {
    std::lock_guard lock(sh.mu);
    if (auto it = sh.where.find(key); it != sh.where.end()) {
      if (it->second != sh.lru.begin()) sh.lru.splice(sh.lru.begin(), sh.lru, it->second);
      const auto& data = *it->second->second;
      if (off >= data.size()) return corrupt_offset(f, b, off);
      return data[off];
    }
  }
  auto data = std::make_shared<std::vector<std::uint8_t>>();
  if (Status s = f.read_block(b, *data); !s) return s.error();
  if (off >= data->size()) return corrupt_offset(f, b, off);
  const std::uint8_t v = (*data)[off];
  std::lock_guard lock(sh.mu);
  if (sh.where.count(key)) return v;  // raced with another thread: keep its copy
  const std::size_t cap = cache_bytes_ / kShards;
  sh.bytes += data->size();
  sh.lru.emplace_front(key, std::move(data));
  sh.where[key] = sh.lru.begin();
  while (sh.bytes > cap && sh.lru.size() > 1) {
    sh.bytes -= sh.lru.back().second->size();
    sh.where.erase(sh.lru.back().first);
    sh.lru.pop_back();
  }
  return v;
}

Error BlockCache::corrupt_offset(const TableFile& f, std::uint32_t b, std::uint32_t off) {
  return make_error(ErrorCode::CorruptTable,
                    f.name() + ": block " + std::to_string(b) + " has no entry " + std::to_string(off));
}

}  // namespace deadpos::internal
