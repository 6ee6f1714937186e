#!/usr/bin/env python3
"""The one entry point of the project's checks (the package scripts/checks):

    python3 scripts/check.py NAME [ARGUMENTS...]
    python3 scripts/check.py --list

Runs the check NAME with its own arguments (`NAME --help` lists them), from
the repository's root. The make targets call it; so can a contributor.
"""

import os
import runpy
import sys

from checks import CHECKS


def main() -> int:
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help", "--list"):
        print(__doc__.strip() + "\n\nChecks:")
        for name, (_, summary) in CHECKS.items():
            print(f"  {name:<15} {summary}")
        return 0 if len(sys.argv) >= 2 else 2
    name = sys.argv[1]
    if name not in CHECKS:
        print(f"check.py: no check named '{name}'; python3 scripts/check.py --list names them", file=sys.stderr)
        return 2
    os.chdir(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    sys.argv = [f"check.py {name}", *sys.argv[2:]]
    runpy.run_module("checks." + CHECKS[name][0], run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main())
