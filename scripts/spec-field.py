#!/usr/bin/env python3
"""Print one field of a spec (dotted path) for the Makefile, e.g. arch.name."""
import sys

import yaml

try:
    spec_path, field = sys.argv[1:3]
    with open(spec_path, encoding="utf-8") as f:
        value = yaml.safe_load(f)
    for key in field.split("."):
        value = value[key]
except (ValueError, OSError, KeyError, TypeError, yaml.YAMLError) as e:
    sys.exit(f"spec-field: cannot read {field!r} from {sys.argv[1:2]}: {e}")
print(" ".join(map(str, value)) if isinstance(value, list) else value)
