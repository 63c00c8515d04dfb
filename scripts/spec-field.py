#!/usr/bin/env python3
"""Print one field of a spec (dotted path, e.g. arch.name) for the Makefile.

The spec goes through the generator's own loader, so defaults (such as
arch.defconfig = <name>_defconfig) and size units are what the generator
uses; lists print space-separated.
"""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from generator.errors import PortkitError  # noqa: E402
from generator.spec import load_spec  # noqa: E402

if len(sys.argv) != 3:
    sys.exit("usage: spec-field.py SPEC FIELD")
spec_path, field = sys.argv[1:3]
try:
    value = load_spec(spec_path).data
    for key in field.split("."):
        value = value[key]
except PortkitError as exc:
    print(exc, file=sys.stderr)
    sys.exit(2)
except (KeyError, TypeError):
    sys.exit(f"spec-field: {spec_path} has no field {field!r}")
print(" ".join(map(str, value)) if isinstance(value, list) else value)
