#!/usr/bin/env python3
"""Runs a command and fails when it takes more CPU time than allowed.

  cpu-time.py SECONDS COMMAND [ARG...]

The CPU time is user + sys of the command and of every process it waited
for (ptxas under --lower-to-auto): what an idle machine takes, which a
loaded one inflates far less than the wall time. The command is stopped
after 20 x SECONDS of wall time (a hang). Prints `cpu: S.SS s (limit L s)`
on stderr; exits with the command's status, or 1 when it is over the limit.
"""
import resource
import subprocess
import sys


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    limit = float(sys.argv[1])
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        rc = subprocess.run(sys.argv[2:], timeout=20 * limit).returncode
    except subprocess.TimeoutExpired:
        print("cpu-time: %s still ran after %g s of wall time" %
              (sys.argv[2], 20 * limit), file=sys.stderr)
        return 1
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    used = (after.ru_utime - before.ru_utime) + (after.ru_stime -
                                                  before.ru_stime)
    print("cpu: %.2f s (limit %g s)" % (used, limit), file=sys.stderr)
    if used > limit:
        print("cpu-time: %s took %.2f s of CPU time, more than %g s" %
              (sys.argv[2], used, limit), file=sys.stderr)
        return 1
    return rc


if __name__ == "__main__":
    sys.exit(main())
