"""Shared pytest configuration for portkit's tests.

The guest kernels are the slow part of a run (minutes each, on both cores),
while the boot tests use one core: the kernels the collected boot tests
need are built in the background (guest.prebuild), and the tests are
ordered so that each kernel builds while earlier tests run: tests that need
no kernel first, then the boot tests grouped by the last kernel they need,
then the kbuild step tests (tests/kernel), which run make themselves.
"""
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
BOOT = ROOT / "tests" / "boot"
KBUILD = ROOT / "tests" / "kernel"


def _plan(items):
    """The kernels in build order, and each boot test file's rank in it:
    the kernels the selected tests use (-k, node ids: not every kernel
    the file names)."""
    import guest
    order, rank = [], {}
    for path in sorted({pathlib.Path(str(item.fspath)) for item in items}):
        if path.parent != BOOT:
            continue
        used = guest.kernels_used_by(
            path, [item for item in items if pathlib.Path(str(item.fspath)) == path])
        order += [k for k in used if k not in order]
        rank[path] = max((order.index(k) for k in used), default=-1)
    return order, rank


# trylast: after -k and -m have deselected what will not run.
@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session, config, items):
    order, rank = _plan(items)

    def group(item):
        path = pathlib.Path(str(item.fspath))
        if path.parent == BOOT:
            return (1, rank[path], str(path))
        if path.parent == KBUILD:
            return (2, 0, str(path))
        return (0, 0, "")

    items.sort(key=group)         # stable: each file's tests keep their order
    if order and not config.option.collectonly:
        import guest
        guest.prebuild(order)


def pytest_sessionfinish(session, exitstatus):
    import guest
    guest.stop_prebuild()


def pytest_terminal_summary(terminalreporter):
    """Wall time of each make the tests ran (kernel builds above all), so a
    CI log shows where the run's time went."""
    import kbuild
    if not kbuild.MAKE_TIMES:
        return
    start = min(t0 for _, t0, _ in kbuild.MAKE_TIMES)
    terminalreporter.section("make runs (start after the first, wall seconds)")
    for args, t0, t1 in kbuild.MAKE_TIMES:
        if t1 - t0 >= 5:
            terminalreporter.write_line("%7.0f %6.0f  make %s" % (t0 - start, t1 - t0, args))
