#!/usr/bin/env python3
"""Wall time of several `tributary` builds and sax-count, interleaved, on one feed.

    scripts/bench/interleave.py [--rounds N] FEED TRIBUTARY [TRIBUTARY...]

Each round runs every build (`BUILD parse FEED > /dev/null`) and then sax-count, one after the other, after reading
the executable and the feed into the page cache, so that a slow phase of the machine hits all of them alike. Prints,
per build, the best, first-quartile and median wall time, the median CPU time (user + system) and the ratios to
sax-count's. This is how two builds are compared on a machine whose speed moves (see Benchmarks/README.md); run
scripts/bench/compare.sh once first (it builds sax-count and generates the feeds).
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=20, help="runs of each program (default 20)")
    parser.add_argument("feed", help="the feed file, e.g. .build/bench-feeds/atom-10MB.xml")
    parser.add_argument("builds", nargs="+", help="tributary executables to compare")
    arguments = parser.parse_args()
    repository = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    sax_count = os.path.join(repository, ".build", "bench-work", "sax-count")
    if not os.access(sax_count, os.X_OK):
        print(f"interleave.py: run scripts/bench/compare.sh once first (no {sax_count})", file=sys.stderr)
        return 1
    programs = [(build, [build, "parse", arguments.feed]) for build in arguments.builds]
    programs.append(("sax-count", [sax_count, arguments.feed]))
    wall = {name: [] for name, _ in programs}
    cpu = {name: [] for name, _ in programs}
    with open(os.devnull, "wb") as devnull:
        for _ in range(arguments.rounds):
            for name, command in programs:
                subprocess.run(["cat", arguments.feed, command[0]], stdout=devnull, check=True)
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                start = time.perf_counter()
                subprocess.run(command, stdout=devnull, stderr=devnull, check=False)
                wall[name].append(time.perf_counter() - start)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu[name].append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    reference_best = min(wall["sax-count"])
    reference_median = statistics.median(wall["sax-count"])
    for name, _ in programs:
        times = sorted(wall[name])
        best, quartile, median = times[0], times[len(times) // 4], statistics.median(times)
        print(
            f"{name}: wall best {best * 1000:.1f} ms, p25 {quartile * 1000:.1f}, median {median * 1000:.1f};"
            f" CPU median {statistics.median(cpu[name]) * 1000:.1f} ms;"
            f" vs sax-count best {best / reference_best:.2f}x, median {median / reference_median:.2f}x"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
