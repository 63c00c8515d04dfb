"""The guest speed program (/bin/bench, userland/tests/bench.c) runs and
prints plausible figures; `make bench` (scripts/bench-guest.py) tabulates
them with issue 8's targets. Figures, not thresholds: only sanity here."""
import importlib.util

from guest import guest_kernel, program_status
from kbuild import ROOT

_spec = importlib.util.spec_from_file_location(
    "bench_guest", ROOT / "scripts" / "bench-guest.py")
bench_guest = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench_guest)


def test_bench_program():
    k = guest_kernel("tsar")
    rc, out, err = k.run_programs("bench", timeout=300)
    assert program_status(out, "bench") == ("exited", 0), out[-3000:]
    figs = bench_guest.parse_bench(out)
    names = [n for n, _, _ in bench_guest.FIGURES]
    assert sorted(figs) == sorted(names), figs
    for name, (insns, unit, how) in figs.items():
        print(f"{name}: {insns} per {unit}")
        assert insns > 0, name
    # Orders of magnitude that any working kernel shows: a syscall costs
    # more than a loop iteration and less than a fork; exec adds to fork;
    # a write fault clears a page, a read fault maps the zero page.
    f = {n: v[0] for n, v in figs.items()}
    assert f["empty_loop"] < 20
    assert f["empty_loop"] < f["null_syscall"] < 20_000
    assert f["null_syscall"] < f["sched_yield_pair"] < f["fork_exit_wait"]
    assert f["null_syscall"] < f["pipe_switch"] < f["fork_exit_wait"]
    assert f["null_syscall"] < f["fifo_yield_switch"] < f["fork_exit_wait"]
    assert f["fork_exit_wait"] < f["fork_exec_exit_wait"] < 50_000_000
    assert f["anon_read_fault"] < f["anon_write_fault"] < 1_000_000
    assert "bench: done" in out
