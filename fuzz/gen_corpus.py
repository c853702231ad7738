#!/usr/bin/env python3
"""Adds the seed inputs of the MLIR fuzz targets from the lit tests.

  python3 fuzz/gen_corpus.py            # writes fuzz/corpus/mlir-module/seed-*.txt

mlir-module: every `// -----` split of test/Dialect, test/Conversion and
test/Execution (*.mlir) with its comment lines removed, if it has a layout
op or a layout attribute and is at most MAX_LEN bytes (scripts/fuzz.sh's
-max_len for modules). Files are named by a hash of their text, so re-running
adds only new seeds; existing seeds (and regress-*.txt reproducers) stay.
"""
import hashlib
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent
MAX_LEN = 2048
DIRS = ["test/Dialect", "test/Conversion", "test/Execution"]


def splits(text):
    for part in re.split(r"^// -----\s*$", text, flags=re.M):
        lines = [l for l in part.splitlines()
                 if not l.lstrip().startswith("//") and l.strip()]
        body = "\n".join(lines).strip() + "\n"
        if "layout." in body and len(body.encode()) <= MAX_LEN:
            yield body


def main():
    out = ROOT / "fuzz/corpus/mlir-module"
    out.mkdir(parents=True, exist_ok=True)
    added = 0
    for d in DIRS:
        for path in sorted((ROOT / d).rglob("*.mlir")):
            for body in splits(path.read_text()):
                name = "seed-" + hashlib.sha256(body.encode()).hexdigest()[:12]
                target = out / (name + ".txt")
                if not target.exists():
                    target.write_text(body)
                    added += 1
    print(f"mlir-module: {added} new seeds, "
          f"{len(list(out.iterdir()))} in {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
