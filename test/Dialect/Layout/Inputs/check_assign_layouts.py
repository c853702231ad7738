#!/usr/bin/env python3
"""Reads the remarks of --layout-assign-layouts (report=true
report-exact=true) on stdin: every "bytes moved BEFORE -> AFTER (exhaustive
minimum EXACT)" must have EXACT <= AFTER <= BEFORE (the assignment never
moves more bytes than the layouts as written, nor fewer than the minimum).
Prints the number of blocks, how many the heuristic solved exactly, and how
many it improved; exits 1 on a violation."""
import re
import sys

PAT = re.compile(r"bytes moved (\d+) -> (\d+) \(exhaustive minimum (\d+)\)")
blocks = optimal = improved = 0
for line in sys.stdin:
    m = PAT.search(line)
    if not m:
        continue
    before, after, exact = map(int, m.groups())
    blocks += 1
    if not exact <= after <= before:
        print("violation: %s" % line.strip())
        sys.exit(1)
    optimal += after == exact
    improved += after < before
print("blocks: %d optimal: %d improved: %d" % (blocks, optimal, improved))
