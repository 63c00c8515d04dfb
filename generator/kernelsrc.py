"""Which Linux a spec's arch is generated for.

``arch.kernel_series`` names the series (one of ``SERIES``); the exact
version, sublevel included, is the one of the tree the build uses, because
point releases change arch interfaces too. Templates ask for an interface
change by name (``CHANGES`` below: the release that made it, and what it
is), so each fact is stated once::

    {% if linux_has("pte_mkwrite_novma") %} ... {% endif %}

or, for a one-off, compare ``linux_version`` (a tuple) with a literal:
``{% if linux_version >= (6, 12, 2) %}``.

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


#: Interfaces between Linux and an arch that changed after 6.1: name ->
#: (the first release with the change, what changed). docs/kernel-series.md
#: walks through them.
CHANGES: dict[str, tuple[tuple[int, ...], str]] = {
    "arch_smp_send_reschedule": (
        (6, 3), "smp_send_reschedule() became a wrapper around the arch's "
                "arch_smp_send_reschedule()"),
    "cpu_idle_irqs_off": (
        (6, 3), "arch_cpu_idle() returns with interrupts still disabled"),
    "no_cpuidle_text": (
        (6, 3), "CPUIDLE_TEXT left the linker script (idle code is noinstr)"),
    "cpuidle_noinstr": (
        (6, 3), "__cpuidle is noinstr: arch_cpu_idle(), which runs with RCU not "
                "watching, is out of the tracers' reach with it"),
    "max_order_inclusive": (
        (6, 4), "ARCH_FORCE_MAX_ORDER is the largest order, not one above it"),
    "export_h_in_asm": (
        (6, 5), "<linux/export.h> serves assembly; asm-generic/export.h went away"),
    "gup_no_vmas": (
        (6, 5), "get_user_pages_remote() lost its vmas argument"),
    "pte_mkwrite_novma": (
        (6, 6), "arches define pte_mkwrite_novma(); pte_mkwrite() takes the vma"),
    "ptdesc": (
        (6, 6), "page-table pages are struct ptdesc: pagetable_pte_dtor(), "
                "tlb_remove_page_ptdesc()"),
    "set_ptes": (
        (6, 6), "the generic set_ptes() maps several pages (set_pte_at() is a "
                "macro on it); update_mmu_cache_range() is required"),
    "queue_limits_at_alloc": (
        (6, 9), "block queue limits are given to blk_mq_alloc_disk(), the "
                "blk_queue_* setters went away"),
    "page_size_kconfig": (
        (6, 9), "the arch selects HAVE_PAGE_SIZE_*; CONFIG_PAGE_SHIFT follows"),
    "pte_advance_pfn": (
        (6, 10), "set_ptes() steps a PTE's page number with pte_advance_pfn()"),
    "uart_xmit_kfifo": (
        (6, 10), "the serial core's transmit buffer is a kfifo (uart_port_tx())"),
    "platform_remove_void": (
        (6, 11), "a platform driver's .remove returns void"),
    "asm_ring_buffer": (
        (6, 12), "the tracing ring buffer includes <asm/ring_buffer.h>"),
    "early_init_dt_phys": (
        (6, 12, 2), "early_init_dt_scan() and early_init_dt_verify() also take "
                    "the blob's physical address (a stable-series backport)"),
}


class KernelSourceError(Exception):
    pass


def has_change(version: tuple[int, ...], name: str) -> bool:
    """Whether Linux ``version`` has the interface change ``name`` (CHANGES)."""
    if name not in CHANGES:
        raise KeyError(f"linux_has({name!r}): no such interface change in "
                       "generator/kernelsrc.py CHANGES")
    return tuple(version) >= CHANGES[name][0]


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
