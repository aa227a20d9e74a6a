#!/usr/bin/env python3
"""Prints, per state file (like sha256sum: DIGEST  PATH), a SHA-256 over what a virtual drive stores and how it is formatted (data blocks,
media keys and TCG state, block size, protection, capacity, operations run) from its state
files, leaving out clocks and counters that every read-only command advances."""
import hashlib
import json
import sys

CONTENT = ("store", "sed", "lb_len", "num_blocks", "prot_type", "op", "format_corrupt",
           "sanitize_failed", "last_format", "media_ops")

for path in sys.argv[1:]:
    with open(path) as f:
        state = json.load(f)
    missing = [k for k in CONTENT if k not in state]
    if missing:
        sys.exit("%s: state file lacks %s (simulator layout changed?)" % (path, missing))
    h = hashlib.sha256(json.dumps({k: state[k] for k in CONTENT}, sort_keys=True).encode())
    print("%s  %s" % (h.hexdigest(), path))
