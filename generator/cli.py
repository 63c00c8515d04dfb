"""Command line of generate.py.

Exit codes: 0 ok; 1 --check/--diff found differences; 2 bad spec, template
or override (nothing written); 3 drift: output edited/added by hand
(nothing written unless --force).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from . import __version__
from .errors import DriftError, PortkitError
from .output import lock_outdir, apply_plan, check_report, drift_message, make_plan, unified_diff
from .kernelsrc import tree_dir
from .layers import check_contract
from .render import Project, Renderer
from .spec import load_spec


def _shown(path: Path) -> str:
    """A path as the user would like to read it (relative to cwd if close)."""
    rel = os.path.relpath(os.path.abspath(path))
    return rel if not rel.startswith("../..") else os.path.abspath(path)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="generate.py",
        description="Render arch/<name>/ from an arch-spec.yaml, templates/ and overrides/.")
    p.add_argument("spec", nargs="?", help="the arch spec (YAML)")
    p.add_argument("--status", action="store_true",
                   help="print the porting report (responsibilities, layers, undefined symbols "
                        "after a build) instead of generating")
    p.add_argument("--markdown", metavar="FILE", help="with --status: also write it as Markdown")
    p.add_argument("--build", metavar="DIR",
                   help="with --status: the kernel build directory (default: the Makefile's, "
                        "build/<arch> or build/<spec stem>)")
    p.add_argument("--features", action="store_true",
                   help="print the arch feature table (Documentation/features of the kernel "
                        "tree: the arch's status from its Kconfig, next to peer arches)")
    p.add_argument("--kernel-src", metavar="DIR",
                   help="with --features: the Linux tree (default: the spec's series, "
                        "build/linux-source-<series>)")
    p.add_argument("--peers", metavar="A,B,...",
                   help="with --features: the arches shown next to it (default "
                        "nios2,openrisc,csky,mips,riscv)")
    p.add_argument("--new", metavar="NAME", help="scaffold a new arch: NAME.yaml (a commented "
                   "delta over --from) and an empty layer overrides/NAME/")
    p.add_argument("--from", dest="from_spec", metavar="SPEC", default=None,
                   help="with --new: the spec to start from (default arch-spec.yaml)")
    p.add_argument("-o", "--outdir", help="output directory (default: generated/ in the project root)")
    p.add_argument("--check", action="store_true",
                   help="write nothing; exit 1 if the output is not what the spec produces")
    p.add_argument("--diff", action="store_true",
                   help="write nothing; print a unified diff of what would change (exit like --check)")
    p.add_argument("--force", action="store_true",
                   help="overwrite/remove files that were edited or added by hand")
    p.add_argument("--make-fragment", metavar="FILE",
                   help="write only FILE: the spec's values the Makefile uses, as make variables "
                        "(rewritten only when they change)")
    p.add_argument("--spec-reference", metavar="FILE",
                   help="write the spec reference (every key, its type, default, derivation, "
                        "the contract and the layers) as Markdown to FILE; no spec needed")
    p.add_argument("--quiet", "-q", action="store_true", help="print only errors")
    p.add_argument("--version", action="version", version=f"portkit generator {__version__}")
    return p


def run(argv: list[str] | None, root: Path) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.new:
        from .scaffold import scaffold

        return scaffold(root, args.new, Path(args.from_spec or root / "arch-spec.yaml"),
                        Path(args.spec) if args.spec else None, quiet=args.quiet)
    if args.spec_reference:
        from .reference import spec_reference

        Path(args.spec_reference).write_text(spec_reference(root), encoding="utf-8")
        return 0
    if not args.spec:
        parser.error("the spec is required")
    spec_path = Path(args.spec)
    spec = load_spec(spec_path, display=args.spec)
    if args.make_fragment:
        from .makefrag import write_fragment

        write_fragment(spec, Path(args.make_fragment))
        return 0
    project = Project(root, spec)
    if args.status:
        return _status(args, root, spec_path, project)
    if args.features:
        return _features(args, root, project)
    check_contract(project)
    files = Renderer(project).render_tree()
    return _write(args, root, project, files)


def _status(args, root: Path, spec_path: Path, project) -> int:
    """The porting report; contract violations are shown in it, then exit 2."""
    from .layers import ContractError

    try:
        check_contract(project)
        broken = None
    except ContractError as exc:
        broken = exc
    from .status import format_markdown, format_text, make_report

    if args.build:
        build = Path(args.build)
    elif spec_path.resolve() == (root / "arch-spec.yaml").resolve():
        build = root / "build" / project.arch
    else:
        build = root / "build" / spec_path.stem
    # Lines shared with the project's base port (arch-spec.yaml), when this
    # spec is another one whose contract holds.
    base = None
    base_spec = root / "arch-spec.yaml"
    if broken is None and base_spec.is_file() and spec_path.resolve() != base_spec.resolve():
        try:
            base = Project(root, load_spec(base_spec, display="arch-spec.yaml"))
        except PortkitError:
            base = None
    report = make_report(project, build, base)
    sys.stdout.write(format_text(report))
    if args.markdown:
        Path(args.markdown).write_text(format_markdown(report), encoding="utf-8")
    if broken is not None:
        print(str(broken).replace("nothing written.", "the spec cannot be generated."),
              file=sys.stderr)
        return broken.exit_code
    return 0


def _features(args, root: Path, project) -> int:
    """The feature table of the arch the spec renders (nothing written)."""
    from .features import DEFAULT_PEERS, features_report

    check_contract(project)
    files = {path: r.data.decode("utf-8", errors="replace")
             for path, r in Renderer(project).render_tree().items()
             if path.split("/")[-1].startswith("Kconfig")}
    ksrc = (Path(args.kernel_src) if args.kernel_src
            else tree_dir(root, project.spec.data["arch"]["kernel_series"]))
    peers = [p for p in args.peers.split(",") if p] if args.peers else DEFAULT_PEERS
    sys.stdout.write(features_report(ksrc, files, project.arch, peers))
    return 0


def _write(args, root: Path, project, files) -> int:
    outdir = Path(args.outdir) if args.outdir else root / "generated"
    out_shown = _shown(outdir)
    lock = None if (args.check or args.diff) else lock_outdir(outdir)
    try:
        return _plan_and_write(args, project, files, outdir, out_shown)
    finally:
        if lock is not None:
            os.close(lock)


def _plan_and_write(args, project, files, outdir: Path, out_shown: str) -> int:
    plan = make_plan(outdir, project.arch, files, project.spec_display, force=args.force)
    say = (lambda *a: None) if args.quiet else print

    if args.check or args.diff:
        if args.diff:
            sys.stdout.write(unified_diff(plan))
            if plan.manifest_changed and not plan.changes:
                say(f"(only {out_shown}/.portkit-manifest.json would change)")
        else:
            for line in check_report(plan):
                say(line)
        if plan.clean:
            say(f"{out_shown}: up to date ({len(plan.unchanged)} files)")
            return 0
        say(f"{out_shown}: out of date")
        return 1

    if plan.drift and not args.force:
        raise DriftError(drift_message(plan, out_shown, project.overrides_display))
    written, unchanged, removed = apply_plan(
        plan, force=args.force, log=lambda verb, path: say(f"{verb:<7} {out_shown}/{path}"))
    say(f"{written} written, {unchanged} unchanged, {removed} removed")
    return 0


def main(argv: list[str] | None = None, root: str | Path | None = None) -> int:
    root = Path(root) if root else Path.cwd()
    try:
        return run(argv, root)
    except PortkitError as exc:
        print(str(exc), file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 1
    except OSError as exc:  # unwritable output, full disk...: the environment, not a bug
        print(f"error: {exc}", file=sys.stderr)
        return 2
