#!/usr/bin/env python3
"""Checks that the code a document shows is the code the tests build.

Usage: check-doc-snippets.py ROOT DOC.md

Every fenced code block preceded by a line `<!-- file: PATH -->` must equal
the file ROOT/PATH byte for byte (apart from the final newline). Exits 1 and
prints a unified diff for the first block that differs, 2 if the document
names no file at all.
"""

import difflib
import os
import re
import sys


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    root, doc = argv[1], argv[2]
    text = open(doc, encoding="utf-8").read()
    pattern = re.compile(r"<!-- file: (\S+) -->\s*\n```[a-z+]*\n(.*?)```",
                         re.DOTALL)
    blocks = pattern.findall(text)
    if not blocks:
        print(f"{doc}: no <!-- file: PATH --> code blocks", file=sys.stderr)
        return 2
    for path, code in blocks:
        actual = open(os.path.join(root, path), encoding="utf-8").read()
        if code.rstrip("\n") != actual.rstrip("\n"):
            diff = difflib.unified_diff(
                actual.splitlines(), code.splitlines(), path,
                f"{doc} (block for {path})", lineterm="")
            print("\n".join(diff))
            return 1
        print(f"{doc}: block for {path} matches")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
