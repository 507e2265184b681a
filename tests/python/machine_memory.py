"""The block-cache default that docs/cli.md states (`deadpos probe --cache-mb`), computed here from
/proc/meminfo, cgroup v2 memory.max and RLIMIT_AS, apart from the C++ code (sysconf), for the tests
of the Python module and of the server."""

import resource

MIB = 1 << 20


def default_cache_bytes():
    """An eighth of the memory (MemTotal, or a lower memory.max), clamped to 256 MiB..4 GiB, and at
    most a quarter of RLIMIT_AS when one is set."""
    with open("/proc/meminfo") as f:
        mem = next(int(line.split()[1]) * 1024 for line in f if line.startswith("MemTotal:"))
    try:
        with open("/sys/fs/cgroup/memory.max") as f:
            text = f.read().strip()
        if text.isdigit() and 0 < int(text) < mem:
            mem = int(text)
    except OSError:
        pass
    cache = min(max(mem // 8, 256 * MIB), 4096 * MIB)
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft != resource.RLIM_INFINITY:
        cache = min(cache, soft // 4)
    return cache
