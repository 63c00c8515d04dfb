#!/usr/bin/env python3
"""portkit: render arch/<name>/ for Linux from arch-spec.yaml.

Usage: ./generate.py SPEC [-o OUTDIR] [--check] [--diff] [--force] [--quiet]
       ./generate.py SPEC --hwdesc OUTDIR   (the board's hardware description,
                                            generator/hwdesc.py)
See generator/__init__.py for the template context and filters.
"""

import os
import sys

ROOT = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, ROOT)

from generator.cli import main  # noqa: E402

if __name__ == "__main__":
    if "--hwdesc" in sys.argv[1:]:
        from generator.hwdesc import main as hwdesc_main  # noqa: E402

        sys.exit(hwdesc_main(sys.argv[1:], root=ROOT))
    sys.exit(main(sys.argv[1:], root=ROOT))
