"""Prints the string literal NAME of a header from stencil-translate
--to-c-header (test/Target/c-header.test), decoded: the quoted pieces after
`inline const char NAME[] =` up to the `;`, with C escapes.

    python3 header-literal.py HEADER NAME
"""
import re
import sys

text = open(sys.argv[1]).read()
start = text.index("inline const char %s[] =" % sys.argv[2])
body = text[start:text.index(";\n", start)]
out = []
for piece in re.findall(r'"((?:[^"\\]|\\.)*)"', body):
    i = 0
    while i < len(piece):
        c = piece[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        n = piece[i + 1]
        if n in "01234567":
            out.append(chr(int(piece[i + 1:i + 4], 8)))
            i += 4
        else:
            out.append({"n": "\n", "t": "\t", "\\": "\\", '"': '"'}[n])
            i += 2
sys.stdout.write("".join(out))
