"""Built kernels and guest boots, shared by every test file.

A kernel is built once per pytest session for each (spec, variant) pair
(``guest_kernel``): test files ask for the same object instead of running
make again. ``Kernel.boot`` runs it in the emulator (or in QEMU when the
spec names a QEMU machine, platform.qemu) and returns the exit
status, the console output (CRLF folded) and the emulator's stderr;
``Kernel.run_programs`` boots with ``portkit_run=`` to run guest test
programs (``guest_programs``) after the smoke checks.

``prebuild`` builds the kernels a session will ask for in a background
thread, one after another at low priority, so that they build while the
tests before them run (the emulator boots use one core of two); a test
asking for a kernel still being built waits for it.
"""
import ast
import os
import pathlib
import re
import shutil
import subprocess
import sys
import threading

import pytest

import kbuild
from kbuild import OTHER_SPECS, ROOT, SPECS, kill_running, load_spec, run, series, spec_path

sys.path.insert(0, str(ROOT / "scripts"))
from importlib import import_module  # noqa: E402

from guest_console import without_kernel_messages  # noqa: E402,F401 (the tests import it from here)

qemu_command = import_module("qemu-cmd").qemu_command

EMU = ROOT / "build" / "bin" / "tsar-emu"
BOOT_TIMEOUT = 120          # seconds of wall clock the emulator may take
_built = {}                 # (key, variant) -> Kernel
_prebuilt = {}              # (key, variant) -> Event set once its build ended
_prebuild_errors = {}
_stop = threading.Event()

# Kernel parameters every test boot of a variant gets on a series
# (Kernel.cmdline). 6.12's memcpy KUnit suite has four cases marked slow;
# three of them (memcpy_large_test, memmove_large_test,
# memmove_overlap_test) take about 1000 s each at the emulated 25 MHz,
# past KUnit's 300 s timeout, which still waits for the case to end: the
# debug kernel's boots report the slow cases as skipped instead
# (test_kunit.py runs the fourth, memmove_test, in a boot of its own).
VARIANT_PARAMS = {
    ("debug", "6.12"): "kunit.filter=speed>slow kunit.filter_action=skip",
}


class Kernel:
    """vmlinux (with the initramfs) and the DTB built for one spec and variant."""

    def __init__(self, key, variant=None, background=False):
        self.key, self.variant = key, variant
        path = spec_path(key)
        self.spec = load_spec(path)
        rel = os.path.relpath(path, ROOT)
        self.qemu = bool(self.spec["platform"]["qemu"])
        cmd = ["make", "--no-print-directory", "kernel", f"SPEC={rel}"]
        if not self.qemu and not background:
            cmd.append("emulator")
        if variant:
            cmd.append(f"VARIANT={variant}")
        run(cmd, timeout=3600, nice=background)
        name = self.spec["arch"]["name"] if key == "tsar" else key
        out = ROOT / "build" / (f"{name}-{variant}" if variant else name)
        self.out = out
        # The userland (initramfs and root file system lists): a variant
        # shares its spec's.
        self.uout = ROOT / "build" / name
        self.vmlinux = out / "vmlinux"
        self.dtb = out / f"{self.spec['platform']['name']}.dtb"
        # The console the spec's bootargs name (ttyVTTY0, ttyS0, ...).
        self.console = next((w for w in self.spec["boot"]["bootargs"].split()
                             if w.startswith("console=")), "")
        self.series = self.spec["arch"]["kernel_series"]
        self.params = VARIANT_PARAMS.get((variant, self.series), "")
        self._once = {}

    def cmdline(self, *words):
        """A test boot's command line: the console, the parameters of the
        variant on this series (VARIANT_PARAMS), then ``words``."""
        return " ".join(w for w in (self.console, self.params, *words) if w)

    def once(self, name, make):
        """make()'s result, made once per session for this kernel: a boot
        that the tests of several parametrizations share (pytest makes a
        module fixture again when tests of another parameter came between)."""
        if name not in self._once:
            self._once[name] = make()
        return self._once[name]

    @property
    def smoke_checks(self):
        """The checks /init runs at every boot (userland/init.c), in order.
        A user read of a kernel address is an address error (SIGBUS) where
        the MMU design has MIPS32's fixed windows, a page fault otherwise."""
        kernel_address = ("sigbus-kernel-address" if self.spec["mmu"]["walker"] == "software"
                          else "sigsegv-kernel-address")
        return ["fork-wait", "pipe", "mmap-anon", "tmpfs-file", "signal-handler", "efault",
                "exec", "vdso-clock", "sigsegv-null", kernel_address, "sigbus-misaligned", "sigtrap-break",
                "sigfpe-overflow", "sigill-coprocessor"]

    def default_boot(self):
        """(rc, out, err) of one boot with the board's own command line,
        made once per session and shared by every test that reads it."""
        if not hasattr(self, "_default_boot"):
            self._default_boot = self.boot()
        return self._default_boot

    def boot(self, *extra, timeout=BOOT_TIMEOUT, stdin=None):
        """(rc, out, err) of one boot; without -append in ``extra``, with the
        board's command line and the variant's parameters (VARIANT_PARAMS)."""
        if self.params and not self.qemu and "-append" not in extra:
            extra = ("-append", f"{self.spec['boot']['bootargs']} {self.params}", *extra)
        if self.qemu:
            # QEMU takes the command line as -append; a timeout ends it.
            append = extra[1] if extra[:1] == ("-append",) else ""
            cmd = ["timeout", "-s", "KILL", str(timeout),
                   *qemu_command(self.spec, self.vmlinux, append)]
        else:
            cmd = [str(EMU), "-dtb", str(self.dtb), "-timeout", str(timeout),
                   *extra, str(self.vmlinux)]
        proc = subprocess.run(cmd, input=stdin,
                              stdin=None if stdin is not None else subprocess.DEVNULL,
                              capture_output=True, text=True, errors="replace",
                              timeout=timeout + 30)
        return proc.returncode, proc.stdout.replace("\r\n", "\n"), proc.stderr

    def run_programs(self, *programs, cmdline="", timeout=BOOT_TIMEOUT):
        """Boot, run /bin/<program> for each program, return (rc, out, err).

        ``out`` is the whole console output; ``program_output(out, name)``
        cuts one program's part out of it."""
        append = self.cmdline(f"portkit_run={','.join(programs)}", cmdline)
        return self.boot("-append", append, timeout=timeout)


# The kernel command line `make run` boots a disk root with (the Makefile's
# ROOT_ARGS: root=/dev/ioc0 rw rootfstype=ext4 init=/init).
DISK_ROOT_ARGS = re.search(r"^ROOT_ARGS\s*=\s*(.*\S)\s*$",
                           (ROOT / "Makefile").read_text(), re.M).group(1)


def busybox_disk(kernel, image, size="32M", rootfs=None):
    """The root file system image `make disk` makes for the default spec:
    the BusyBox root file system (rootfs.list, or ``rootfs``'s for a kernel
    built without one) with the nolibc /init and test programs
    (initramfs.list), staged and made by the same scripts."""
    tree = image.parent / (image.name + ".tree")
    subprocess.run([ROOT / "scripts/stage-rootfs.sh", kernel.uout / "userland" / "initramfs.list",
                    (rootfs or kernel).uout / "rootfs.list", tree], check=True,
                   capture_output=True)
    subprocess.run([ROOT / "scripts/make-disk.sh", tree, image, size], check=True,
                   capture_output=True)
    return image


def edited_dtb(dtb, out, edit):
    """``dtb`` decompiled by dtc, its source passed through ``edit`` (a function
    of the DTS text), compiled into ``out``; skips the test without dtc."""
    if not shutil.which("dtc"):
        pytest.skip("dtc not installed")
    dts = subprocess.run(["dtc", "-q", "-I", "dtb", "-O", "dts", str(dtb)],
                         capture_output=True, text=True, check=True).stdout
    subprocess.run(["dtc", "-q", "-I", "dts", "-O", "dtb", "-o", str(out), "-"],
                   input=edit(dts), text=True, check=True)
    return out


# What a kernel prints when something went wrong (the debug kernel's
# checkers above all): a boot that should be clean has none of these.
SPLATS = ["WARNING:", "BUG:", "Oops", "Call Trace:", "possible recursive locking",
          "inconsistent lock state", "possible circular locking",
          "sleeping function called from invalid context", "suspicious RCU usage",
          "scheduling while atomic", "lock held when returning",
          "list_add corruption", "list_del corruption", "Poison overwritten",
          "Redzone", "Bad page state", "INFO: ", "Kernel panic",
          "turning off the locking correctness validator"]

# The series' nolibc-test (portkit_nolibc_test=1): (named results, the tests that may fail).
# 6.1's chmod_net and link_cross use /proc/self/net, which a kernel without
# CONFIG_NET lacks (stock MIPS built without networking fails them too);
# 6.12's link_cross uses /proc/self/cmdline and has no chmod_net. 6.12's
# count includes "-fstackprotector": the program is built with a stack
# protector there (userland/Makefile) and a smashed canary must end a child.
NOLIBC_TEST = {
    "6.1": (75, {"chmod_net", "link_cross"}),
    "6.12": (195, set()),
}


def nolibc_test_results(out):
    """[(name, OK|FAIL|SKIPPED)] of nolibc-test's lines in a boot's output
    (some names repeat: count results, not names)."""
    return re.findall(r"^\s*\d+ (-?\w+)\b.*\[(OK|FAIL|SKIPPED)\]\s*$",
                      without_kernel_messages(out), re.M)


def check_results(out, prog):
    """{check: (details, 'ok'|'FAIL')} of a guest program's check lines,
    "prog: check: details: ok" (userland/include/checks.h)."""
    return {m.group(1): (m.group(2), m.group(3)) for m in re.finditer(
        rf"^{re.escape(prog)}: ([\w.+-]+): (.*): (ok|FAIL)$", out, re.M)}


def guest_programs():
    """The guest test programs, /bin/<name>, as userland/Makefile finds
    them: each userland/tests/<name>.c, and each directory
    userland/tests/<name>/ with .c files (a program of several files)."""
    tests = ROOT / "userland" / "tests"
    return sorted({p.stem for p in tests.glob("*.c")} |
                  {p.parent.name for p in tests.glob("*/*.c")})


def program_lines(out, name):
    """The lines a guest program printed about itself ("<name>: ..."), to
    name what failed when a whole boot's output is too long to show."""
    return "\n".join(l for l in out.splitlines() if l.startswith(f"{name}:"))


def program_status(out, name):
    """'exited with status N' / 'killed by signal N' line of one program."""
    m = re.search(rf"^portkit-run: {re.escape(name)} (exited with status|"
                  rf"killed by signal) (\d+)$", out, re.M)
    return m and (m.group(1).split()[0], int(m.group(2)))


def by_series(table, keys, variant=None):
    """pytest parameters (key, *entry) pairing each kernel of ``keys``
    with each entry ``table`` gives its series ({series: [entries]}), for
    parametrize("kernel,...", indirect=["kernel"], scope="module"): what a
    test expects where the series differ. The id is the kernel's, then
    the entry's (its first item if it is a tuple)."""
    params = []
    for key in keys:
        kid = f"{key}-{variant}" if variant else key
        for entry in table[series(key)]:
            entry = entry if isinstance(entry, tuple) else (entry,)
            params.append(pytest.param(key, *entry, id=f"{kid}-{entry[0]}"))
    return params


def guest_kernel(key="tsar", variant=None):
    """The kernel for (spec, variant), built on first use in this session."""
    k = (key, variant)
    if k in _prebuilt:
        _prebuilt[k].wait()
        if k in _prebuild_errors:
            raise _prebuild_errors[k]
    if k not in _built:
        _built[k] = Kernel(key, variant)
    return _built[k]


def prebuild(kernels):
    """Start building these (key, variant) kernels in the background, in order."""
    todo = [k for k in dict.fromkeys(kernels) if k not in _built and k not in _prebuilt]
    if not todo:
        return
    if any(not load_spec(spec_path(k)).get("platform", {}).get("qemu")
           for k, _ in todo):
        run(["make", "--no-print-directory", "emulator"])   # before the builds, once
    for k in todo:
        _prebuilt[k] = threading.Event()

    def build_all():
        for k in todo:
            try:
                if not _stop.is_set():
                    _built[k] = Kernel(*k, background=True)
            except Exception as e:          # reported by the tests that need it
                _prebuild_errors[k] = e
            finally:
                _prebuilt[k].set()

    threading.Thread(target=build_all, name="kernel-prebuild", daemon=True).start()


def stop_prebuild():
    """End the background builds (the session is over)."""
    _stop.set()
    kill_running()
    for ev in _prebuilt.values():
        ev.set()


def _spec_keys(node):
    """The spec keys a fixture's params= expression names: a list of
    strings, one of kbuild's lists (SERIES_KEYS, DEBUG_KEYS, ...) or
    list(SPECS)."""
    if isinstance(node, ast.Call) and len(node.args) == 1:
        node = node.args[0]
    if isinstance(node, (ast.List, ast.Tuple)):
        keys = [e.value for e in node.elts if isinstance(e, ast.Constant)]
    elif isinstance(node, ast.Name):
        keys = list(getattr(kbuild, node.id, ()))
    else:
        keys = []
    return [k for k in keys if isinstance(k, str) and (k in SPECS or k in OTHER_SPECS)]


def _kernel_calls(path):
    """The guest_kernel calls of a test file, by top-level function:
    [(name, kind, fixture params, [(key expression, variant)])], kind being
    "test", "fixture" or "helper" (any other code: a helper may serve
    every test)."""
    tree = ast.parse(pathlib.Path(path).read_text())
    found = []
    for node in tree.body:
        name, kind, params = None, "helper", None
        if isinstance(node, ast.FunctionDef):
            name = node.name
            kind = "test" if name.startswith("test") else "helper"
            for deco in node.decorator_list:
                call = deco if isinstance(deco, ast.Call) else None
                if ast.unparse(call.func if call else deco) in ("pytest.fixture", "fixture"):
                    kind = "fixture"
                    params = next((_spec_keys(kw.value) for kw in (call.keywords if call else ())
                                   if kw.arg == "params"), None)
        calls = sorted((sub for sub in ast.walk(node) if isinstance(sub, ast.Call)
                        and isinstance(sub.func, ast.Name) and sub.func.id == "guest_kernel"),
                       key=lambda c: (c.lineno, c.col_offset))
        uses = []
        for c in calls:
            variant = c.args[1] if len(c.args) > 1 else \
                next((kw.value for kw in c.keywords if kw.arg == "variant"), None)
            uses.append((c.args[0] if c.args else None,
                         variant.value if isinstance(variant, ast.Constant) else None))
        if uses:
            found.append((name, kind, params, uses))
    return found


def kernels_used_by(path, items=None):
    """(key, variant) pairs a test file asks guest_kernel for, in order;
    with ``items`` (pytest items of that file), only those these tests
    use: their test functions, their fixtures (a parametrized fixture's
    key from the item's parameters) and the file's other code.

    Read from its source, to plan the background builds only: a kernel
    this misses is still built when a test asks for it."""
    calls = _kernel_calls(path)
    # guest_kernel(request.param) in a fixture without params: any key
    # a fixture of the file names, or the TSAR boot specs.
    file_keys = [k for _, _, params, _ in calls for k in params or ()] or list(SPECS)
    found = []
    for name, kind, params, uses in calls:
        for item in items or [None]:
            callspec = getattr(item, "callspec", None)
            given = callspec.params if callspec else {}
            if item is not None and kind != "helper" and \
                    name not in item.fixturenames and name != item.originalname:
                continue
            for key, variant in uses:
                if key is None:
                    keys = ["tsar"]
                elif isinstance(key, ast.Constant):
                    keys = [key.value]
                elif ast.unparse(key) == "request.param":
                    keys = [given[name]] if name in given else params or file_keys
                elif isinstance(key, ast.Name) and key.id in given:
                    keys = [given[key.id]]
                else:
                    keys = []
                found += [(k, variant) for k in keys]
    return list(dict.fromkeys(found))
