#!/usr/bin/env python3
"""Runs every documented example through the built tools, so that none goes
stale (test/docs/examples.test runs it on docs/*.md and README.md).

* A fenced ```mlir block must parse and verify with `layout-opt`. A complete
  module is checked as it is. A fragment (ops using values it does not
  define) is wrapped in an unregistered op's region, with one placeholder
  definition per undefined value; the placeholder types are read off the
  parser's "previously used here with type" notes, so the fragment's own
  types are the ones checked. `!alias = ...` / `#alias = ...` lines stay at
  the top level. A `// becomes` line separates the snippets of a rewrite,
  checked one by one.
* A fenced ```console block holds `$ layout-explain ...` commands, each
  followed by its exact output; `(exit N)` ends the output of a command that
  exits with N (errors go to stderr and are compared too).

A marker in an HTML comment on the line before a block says otherwise:
  <!-- doc-example: invalid -->   the block must be rejected;
  <!-- doc-example: types -->     one MLIR type per line (a `//` comment may
                                  follow), each must be a valid type;
  <!-- doc-example: attributes --> the same, one attribute per line;
  <!-- doc-example: skip REASON -->  not checked (REASON is required).

Usage: check-doc-examples.py --layout-opt BIN --layout-explain BIN FILE...
Exit status 1 and one line per failing example (FILE:LINE: reason).
Python 3 standard library only.
"""

import argparse
import re
import shlex
import subprocess
import sys

BLOCK = re.compile(r"^```(\w+)[ \t]*\n(.*?)^```[ \t]*$", re.S | re.M)
MARKER = re.compile(r"<!--\s*doc-example:\s*(\w+)\s*(.*?)\s*-->\s*$")
USE_TYPE = re.compile(r"previously used here with type '(.*)'")
DEF_NAME = re.compile(r"definition of SSA value '(%[\w.$-]+)#0'")
VALUE = re.compile(r"%[\w.$-]+")


def run(cmd, text=None):
    return subprocess.run(cmd, input=text, capture_output=True, text=True)


def marker_before(text, start):
    """The doc-example marker on the line before offset `start`, if any."""
    before = text[:start].rstrip("\n").rsplit("\n", 1)[-1]
    match = MARKER.search(before)
    return (match.group(1), match.group(2)) if match else (None, "")


def defined_values(body):
    """Values a block defines: results (`%a, %b:2 = ...`) and arguments
    (`%x: T` in a signature or block header)."""
    names = set()
    for line in body.splitlines():
        code = line.split("//", 1)[0]
        lhs = re.match(r"\s*((?:%[\w.$-]+(?::\d+)?\s*,\s*)*%[\w.$-]+(?::\d+)?)\s*=",
                       code)
        if lhs:
            names.update(VALUE.findall(lhs.group(1)))
        names.update(re.findall(r"[(,]\s*(%[\w.$-]+):", code))
    return names


def check_mlir(opt, body):
    """None if `body` parses and verifies, else the first error line."""
    result = run([opt, "-", "-o", "/dev/null"], body)
    if result.returncode == 0:
        return None
    if "use of undeclared SSA value name" not in result.stderr:
        return result.stderr.strip().splitlines()[0]
    # A fragment: wrap it, define each undefined value after it (regions of
    # unregistered ops may use values defined later), learn the types.
    top = [l for l in body.splitlines() if re.match(r"\s*[!#][\w.$-]+\s*=", l)]
    ops = [l for l in body.splitlines() if l not in top]
    used = []
    for line in ops:
        for name in VALUE.findall(line.split("//", 1)[0]):
            if name not in used:
                used.append(name)
    undefined = [n for n in used if n not in defined_values("\n".join(ops))]
    types = {name: "i1" for name in undefined}
    for _ in range(len(undefined) + 1):
        defs = [f'{n} = "doc.value"() : () -> {t}' for n, t in types.items()]
        module = "\n".join(top + ['"doc.example"() ({'] + ops + defs +
                           ["}) : () -> ()"])
        result = run([opt, "--allow-unregistered-dialect", "-", "-o",
                      "/dev/null"], module)
        if result.returncode == 0:
            return None
        name, use = DEF_NAME.search(result.stderr), USE_TYPE.search(
            result.stderr)
        if not (name and use and name.group(1) in types and
                types[name.group(1)] != use.group(1)):
            return result.stderr.strip().splitlines()[0]
        types[name.group(1)] = use.group(1)
    return "could not infer the fragment's value types"


def check_lines(opt, body, template):
    """Each non-empty line (minus a `//` comment) put into `template`."""
    for line in body.splitlines():
        item = line.split("//", 1)[0].strip()
        if not item:
            continue
        result = run([opt, "-", "-o", "/dev/null"], template.format(item))
        if result.returncode != 0:
            return result.stderr.strip().splitlines()[0]
    return None


def check_snippets(opt, body):
    """A block may show a rewrite: a `// becomes` line separates snippets
    that are checked one by one."""
    for snippet in re.split(r"^\s*// becomes.*\n", body, flags=re.M):
        error = check_mlir(opt, snippet)
        if error:
            return error
    return None


def check_console(explain, body):
    """Each `$ layout-explain ...` line, then its expected output lines."""
    commands = []
    for line in body.splitlines():
        if line.startswith("$ "):
            commands.append((line[2:], []))
        elif commands:
            commands[-1][1].append(line)
        else:
            return f"output before any command: {line!r}"
    for command, expected in commands:
        argv = shlex.split(command)
        if not argv or argv[0] != "layout-explain":
            return f"not a layout-explain command: {command}"
        status = 0
        if expected and re.fullmatch(r"\(exit \d+\)", expected[-1]):
            status = int(expected[-1][6:-1])
            expected = expected[:-1]
        result = run([explain] + argv[1:])
        actual = (result.stdout + result.stderr).rstrip("\n").split("\n")
        if result.returncode != status:
            return f"'{command}' exited {result.returncode}, expected {status}"
        if actual != expected:
            return (f"'{command}' printed {actual!r}, documented "
                    f"{expected!r}")
    return None


def check_file(path, opt, explain):
    text = open(path, encoding="utf-8").read()
    failures, checked = [], 0
    for block in BLOCK.finditer(text):
        lang, body = block.group(1), block.group(2)
        if lang not in ("mlir", "console"):
            continue
        line = text.count("\n", 0, block.start()) + 1
        kind, reason = marker_before(text, block.start())
        if kind == "skip":
            if not reason:
                failures.append(f"{path}:{line}: skip marker without a reason")
            continue
        checked += 1
        if lang == "console":
            error = check_console(explain, body)
        elif kind == "types":
            error = check_lines(opt, body, "func.func private @t({})\n")
        elif kind == "attributes":
            error = check_lines(opt, body,
                                "func.func private @a() attributes {{a = {}}}\n")
        else:
            error = check_snippets(opt, body)
            if kind == "invalid":
                error = None if error else "documented as invalid, but verifies"
        if error:
            failures.append(f"{path}:{line}: {error}")
    return failures, checked


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--layout-opt", required=True)
    parser.add_argument("--layout-explain", required=True)
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    failures, checked = [], 0
    for path in args.files:
        file_failures, file_checked = check_file(path, args.layout_opt,
                                                 args.layout_explain)
        failures += file_failures
        checked += file_checked
    for failure in failures:
        print(failure)
    print(f"{checked} examples checked, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
