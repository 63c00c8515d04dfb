"""Which Linux a spec's arch is generated for.

``arch.kernel_series`` names the series (one of ``SERIES``); the exact
version, sublevel included, is the one of the tree the build uses, because
point releases change arch interfaces too. Templates see it as
``linux_version``, a tuple compared with a tuple literal::

    {% if linux_version >= (6, 6) %} ... {% endif %}
    {% if linux_version >= (6, 1, 120) %} ... {% endif %}

The version comes from, in order: ``PORTKIT_LINUX_VERSION`` (tests),
the unpacked tree ``build/linux-source-<series>/Makefile``, the installed
Debian package ``linux-source-<series>`` (the tarball the build unpacks).
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

#: The series the kit knows how to fetch (Debian 12 ships both).
SERIES = ("6.1", "6.12")

VERSION_RE = re.compile(r"(\d+)\.(\d+)\.(\d+)")


class KernelSourceError(Exception):
    pass


def tree_dir(root: Path, series: str) -> Path:
    """The pristine unpacked tree of a series (the Makefile unpacks it there)."""
    return Path(root) / "build" / f"linux-source-{series}"


def _from_makefile(path: Path) -> tuple[int, int, int] | None:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")[:2000]
    except OSError:
        return None
    fields = dict(re.findall(r"^(VERSION|PATCHLEVEL|SUBLEVEL)\s*=\s*(\d+)\s*$", text, re.M))
    if len(fields) != 3:
        return None
    return int(fields["VERSION"]), int(fields["PATCHLEVEL"]), int(fields["SUBLEVEL"])


def _from_package(series: str) -> tuple[int, int, int] | None:
    try:
        out = subprocess.run(["dpkg-query", "-W", "-f=${Status}|${Version}",
                              f"linux-source-{series}"],
                             capture_output=True, text=True, timeout=30, check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    status, _, version = out.partition("|")
    m = VERSION_RE.match(version)
    if "install ok installed" not in status or not m:
        return None
    return int(m[1]), int(m[2]), int(m[3])


def parse_version(text: str) -> tuple[int, int, int] | None:
    m = VERSION_RE.fullmatch(text.strip())
    return (int(m[1]), int(m[2]), int(m[3])) if m else None


def exact_version(root: Path, series: str) -> tuple[int, int, int]:
    """The exact Linux version of ``series`` the build will use."""
    forced = os.environ.get("PORTKIT_LINUX_VERSION")
    if forced:
        version = parse_version(forced)
        if not version:
            raise KernelSourceError(f"PORTKIT_LINUX_VERSION={forced!r} is not a version "
                                    "such as 6.12.118")
    else:
        version = _from_makefile(tree_dir(root, series) / "Makefile") or _from_package(series)
        if not version:
            raise KernelSourceError(
                f"the Linux {series} source is not installed (neither "
                f"build/linux-source-{series}/ nor Debian's linux-source-{series}): "
                "run scripts/install-deps.sh kernel")
    if f"{version[0]}.{version[1]}" != series:
        raise KernelSourceError(f"the Linux {series} source found is version "
                                f"{'.'.join(map(str, version))}, not of the {series} series")
    return version
