"""Drive the real Linux tree (of the spec's series) with a generated arch directory.

The top-level Makefile owns unpacking the kernel and making each spec's own
hard-linked kernel tree, build/ktree/<series>/<spec stem>/, with arch/<name> linked to
that spec's generated output (make kernel-tree SPEC=...); these helpers run
kbuild there, in a per-spec output directory under build/tests/.
"""
import contextlib
import os
import pathlib
import signal
import subprocess
import sys
import threading
import time


ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from generator.spec import load_spec as _load  # noqa: E402


def ksrc0(series):
    """The pristine unpacked tree of a kernel series (the Makefile's KSRC0)."""
    return ROOT / "build" / f"linux-source-{series}"


def load_spec(path):
    """The spec as the generator sees it: defaults filled, sizes in bytes."""
    return _load(path).data


# The default spec's series and tree.
DEFAULT_SERIES = load_spec(ROOT / "arch-spec.yaml")["arch"]["kernel_series"]
KSRC0 = ksrc0(DEFAULT_SERIES)


def ktree(spec_path):
    """The kernel tree of one spec (see the Makefile's KSRC)."""
    return (ROOT / "build" / "ktree" / load_spec(spec_path)["arch"]["kernel_series"]
            / pathlib.Path(spec_path).stem)


def drop_other_series(out, series):
    """Empty a kbuild output directory that a kernel of another series
    configured (scripts/drop-other-series.sh): its objects would look newer
    than the new tree's sources."""
    run([ROOT / "scripts" / "drop-other-series.sh", series, out])
SPECS = {
    "tsar": ROOT / "arch-spec.yaml",
    "tsar-2g2g": ROOT / "tests" / "specs" / "tsar-2g2g.yaml",
}
# Specs of other architectures (guest_kernel accepts these keys too; the
# TSAR boot tests iterate over SPECS only). qmips: the sister architecture,
# booted in QEMU;
# tsar-page-offset: the default spec with only layout.page_offset changed;
# tsar-6.1 and qmips-6.1: the default specs on the other kernel series.
OTHER_SPECS = {
    "qmips": ROOT / "specs" / "qmips.yaml",
    "tsar-page-offset": ROOT / "tests" / "specs" / "tsar-page-offset.yaml",
    "tsar-6.1": ROOT / "specs" / "tsar-6.1.yaml",
    "qmips-6.1": ROOT / "specs" / "qmips-6.1.yaml",
}
# The default TSAR spec on each kernel series the kit supports: the tests
# that make up "everything works on both series" run on each of these.
SERIES_KEYS = ["tsar", "tsar-6.1"]
QMIPS_SERIES_KEYS = ["qmips", "qmips-6.1"]
# The specs the debug variant (variants/debug.config) is tested on: the
# page-offset one, on the default series (make test: one kernel for the
# KUnit, debug, torture and page-offset tests), and with
# PORTKIT_SERIES_DEBUG=1 the default spec on the other series as well
# (make test-series-debug, opt-in: one more debug kernel to build and boot).
DEBUG_KEYS = ["tsar-page-offset"] + (SERIES_KEYS[1:] if os.environ.get("PORTKIT_SERIES_DEBUG")
                                     else [])


def debug_id(key):
    """The test id of a debug kernel, "tsar-6.1-debug": make
    test-series-debug selects its tests by it (pytest -k)."""
    return f"{key}-debug"


def spec_path(key):
    """The spec file of a key of SPECS or OTHER_SPECS."""
    return SPECS.get(key) or OTHER_SPECS[key]


def series(key):
    """The kernel series (arch.kernel_series) of a spec key."""
    return load_spec(spec_path(key))["arch"]["kernel_series"]


# One make at a time in the repository: kernels built in the background
# (guest.prebuild) share build/ktree and build/gen with the tests' own make
# runs, and a half-updated tree must never be seen by another build.
MAKE_LOCK = threading.RLock()
# (make arguments, start, end) of every make run(): the session's summary
MAKE_TIMES = []
_running = set()


def run(cmd, cwd=ROOT, timeout=1800, check=True, env=None, nice=False):
    """Run a command, returning CompletedProcess with text output.

    make commands hold MAKE_LOCK; ``nice`` runs the command at the lowest
    priority (background builds that must not slow the tests' boots)."""
    argv = [str(c) for c in cmd]
    if nice:
        argv = ["nice", "-n", "19", *argv]
    with MAKE_LOCK if cmd[0] == "make" else contextlib.nullcontext():
        t0 = time.monotonic()
        proc = subprocess.Popen(argv, cwd=cwd, text=True, env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                start_new_session=True)
        _running.add(proc)
        try:
            out, _ = proc.communicate(timeout=timeout)
        except BaseException:
            kill(proc)
            raise
        finally:
            _running.discard(proc)
        if cmd[0] == "make":
            MAKE_TIMES.append((" ".join(str(c) for c in cmd[1:] if not str(c).startswith("--")),
                               t0, time.monotonic()))
    res = subprocess.CompletedProcess(argv, proc.returncode, out)
    if check and proc.returncode != 0:
        raise AssertionError(f"{' '.join(argv)} failed "
                             f"({proc.returncode}):\n{out[-6000:]}")
    return res


def kill(proc):
    """Stop a command started by run() and everything it started."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()


def kill_running():
    """Stop every command run() is waiting for (at the end of a session)."""
    for proc in list(_running):
        kill(proc)


class KernelTree:
    """The kernel tree prepared for one spec, with its own O= directory."""

    def __init__(self, key):
        self.spec_path = spec_path(key)
        self.spec = load_spec(self.spec_path)
        self.arch = self.spec["arch"]["name"]
        self.out = ROOT / "build" / "tests" / key
        drop_other_series(self.out, self.spec["arch"]["kernel_series"])
        self.out.mkdir(parents=True, exist_ok=True)
        rel = os.path.relpath(self.spec_path, ROOT)
        run(["make", "--no-print-directory", "kernel-tree", f"SPEC={rel}"])

    def make(self, *targets, check=True, extra=()):
        jobs = str(os.cpu_count() or 2)
        cmd = ["make", "-C", str(ktree(self.spec_path)), f"O={self.out}", f"ARCH={self.arch}",
               f"-j{jobs}", *extra, *targets]
        return run(cmd, check=check)
