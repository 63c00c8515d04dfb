"""Safe regeneration: compare, detect drift, write atomically, keep a manifest.

The manifest (``OUTDIR/.portkit-manifest.json``) records, per arch, the
sha256 of every file portkit wrote. It lets us

* leave unchanged files alone (mtime kept: the kernel rebuilds only what a
  spec change affects),
* remove files that are no longer produced (only ones we wrote),
* notice hand edits or hand-added files in the output (drift) and refuse to
  clobber them: the right place for a change is overrides/<arch>/.

Writing happens only after everything rendered; each file goes through a
temporary file in its directory and ``os.replace``; the manifest is last.

Crash safety: before the first file is touched, a journal
(``OUTDIR/.portkit-journal.json``, itself written atomically) records the
sha256 every file is about to get. If the run dies anywhere (even kill -9),
the next run finds the journal and accepts a file holding either its
manifest content or its journal content as portkit's own, so it completes
the interrupted generation without ``--force``; temporary files left behind
are removed. A file matching neither is still a hand edit. The journal
holds one entry per arch: a run removes its own arch's entry once the
manifest is written (the file when no other arch's is left), and keeps the
entries of other arches, whose killed generations the next run of that arch
still has to finish. Concurrent runs on one output directory are
serialized by a lock (flock on OUTDIR itself).
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import __version__
from .atomic import TMP_SUFFIX, atomic_write
from .errors import DriftError, PortkitError
from .render import Rendered

MANIFEST_NAME = ".portkit-manifest.json"
MANIFEST_FORMAT = 1
JOURNAL_NAME = ".portkit-journal.json"


def lock_outdir(outdir: Path):
    """Hold an exclusive lock on OUTDIR for the rest of the process (or until closed)."""
    import fcntl

    outdir.mkdir(parents=True, exist_ok=True)
    fd = os.open(outdir, os.O_RDONLY | os.O_DIRECTORY)  # the directory itself: no lock file
    fcntl.flock(fd, fcntl.LOCK_EX)
    return fd


def _load_journals(outdir: Path) -> dict[str, dict[str, str | None]]:
    """arch -> its interrupted run's entries, for every arch of the journal."""
    try:
        data = json.loads((outdir / JOURNAL_NAME).read_text(encoding="utf-8"))
        arches = data.get("arches", {})
        return {a: dict(e) for a, e in arches.items() if isinstance(e, dict)} \
            if isinstance(arches, dict) else {}
    except (OSError, ValueError, AttributeError, TypeError):
        return {}


def load_journal(outdir: Path, arch: str) -> dict[str, str | None]:
    """path -> sha256 an interrupted run was writing (None: it was removing it)."""
    return _load_journals(outdir).get(arch, {})


def _write_journals(path: Path, journals: dict[str, dict[str, str | None]]) -> None:
    if journals:
        atomic_write(path, dump_manifest({"arches": journals}), 0o644)
    else:
        path.unlink(missing_ok=True)


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class ManifestError(PortkitError):
    exit_code = 3


def load_manifest(outdir: Path) -> dict:
    path = outdir / MANIFEST_NAME
    if not path.exists():
        return {"format": MANIFEST_FORMAT, "arches": {}}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data.get("arches"), dict):
            raise ValueError("no 'arches' table")
        return data
    except (ValueError, OSError, AttributeError) as exc:
        raise ManifestError(f"error: {path} is unreadable ({exc}); remove it, or rerun with --force"
                            " (files in the output will then be overwritten)") from None


def dump_manifest(manifest: dict) -> bytes:
    return (json.dumps(manifest, indent=2, sort_keys=True) + "\n").encode("utf-8")


@dataclass
class Change:
    path: str                 # relative to OUTDIR
    kind: str                 # "new", "changed", "mode", "remove"
    old: bytes | None = None
    new: Rendered | None = None


@dataclass
class Plan:
    outdir: Path
    arch: str
    changes: list[Change] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    edited: list[str] = field(default_factory=list)     # drift: differs from manifest
    added: list[str] = field(default_factory=list)      # drift: unknown to the manifest
    manifest_old: bytes | None = None
    manifest_new: bytes = b""
    recovering: bool = False     # an interrupted run left a journal or temporaries
    #: when planning began: temporaries older than that are an interrupted run's
    started: float = 0.0

    @property
    def drift(self) -> bool:
        return bool(self.edited or self.added)

    @property
    def manifest_changed(self) -> bool:
        return self.manifest_old != self.manifest_new

    @property
    def clean(self) -> bool:
        return (not self.changes and not self.drift and not self.manifest_changed
                and not self.recovering)


def _disk_files(arch_dir: Path, outdir: Path) -> set[str]:
    found = set()
    if arch_dir.is_dir():
        for dirpath, dirnames, filenames in os.walk(arch_dir):
            for name in filenames:
                if name.endswith(TMP_SUFFIX):
                    continue  # an interrupted write's temporary: removed by apply_plan
                found.add(Path(dirpath, name).relative_to(outdir).as_posix())
    return found


def _stale_temporaries(outdir: Path, arch: str, before: float | None = None) -> list[Path]:
    """Temporaries of interrupted writes (of this arch, and the manifest's or journal's).

    With ``before``, only those last written before then: a run that had died
    before this one began (under the lock, every one). A newer one is another
    run's write in progress, left alone (only without the lock can one exist)."""
    out = [p for p in (outdir / "arch" / arch).rglob(f"*{TMP_SUFFIX}")] \
        if (outdir / "arch" / arch).is_dir() else []
    out = out + list(outdir.glob(f"*{TMP_SUFFIX}")) if outdir.is_dir() else out
    if before is None:
        return out
    stale = []
    for p in out:
        try:
            if p.stat().st_mtime < before:
                stale.append(p)
        except OSError:
            pass  # gone meanwhile
    return stale


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes() if path.is_file() else None
    except OSError:
        return None


def make_plan(outdir: Path, arch: str, files: dict[str, Rendered], spec_display: str,
              force: bool = False) -> Plan:
    """Compare the rendered tree with OUTDIR; nothing is written."""
    started = time.time()
    manifest = _load_or_empty(outdir, force)
    old = manifest["arches"].get(arch, {}).get("files", {})
    journal = load_journal(outdir, arch)
    plan = Plan(outdir=outdir, arch=arch, started=started)
    plan.recovering = bool(journal) or bool(_stale_temporaries(outdir, arch))
    on_disk = _disk_files(outdir / "arch" / arch, outdir)
    for path in sorted(set(files) | set(old) | on_disk):
        disk = _read(outdir / path)
        new = files.get(path)
        if new is not None and disk == new.data:
            mode = (outdir / path).stat().st_mode & 0o777
            if mode != new.mode:
                plan.changes.append(Change(path, "mode", disk, new))
            else:
                plan.unchanged.append(path)
            continue
        if disk is not None:
            digest = sha256(disk)
            ours = digest == old.get(path) or (path in journal and digest == journal[path])
            if not ours and path not in old:
                plan.added.append(path)
            elif not ours:
                plan.edited.append(path)
        if new is not None:
            plan.changes.append(Change(path, "new" if disk is None else "changed", disk, new))
        elif disk is not None:
            plan.changes.append(Change(path, "remove", disk, None))

    arches = dict(manifest["arches"])
    arches[arch] = {
        "files": {p: sha256(r.data) for p, r in sorted(files.items())},
        "generator_version": __version__,
        "spec": spec_display,
    }
    plan.manifest_new = dump_manifest({"format": MANIFEST_FORMAT, "arches": arches})
    plan.manifest_old = _read(outdir / MANIFEST_NAME)
    return plan


def _load_or_empty(outdir: Path, force: bool) -> dict:
    try:
        return load_manifest(outdir)
    except ManifestError:
        if force:
            return {"format": MANIFEST_FORMAT, "arches": {}}
        raise


def drift_message(plan: Plan, outdir_display: str, overrides_display: str) -> str:
    prefix = f"arch/{plan.arch}/"
    lines = [f"error: files under {outdir_display}/arch/{plan.arch} were changed by hand; "
             "refusing to overwrite them:"]
    for path in sorted(set(plan.edited) | set(plan.added)):
        how = "edited by hand" if path in plan.edited else "added by hand (not produced by portkit)"
        rel = path[len(prefix):] if path.startswith(prefix) else path
        lines.append(f"  {outdir_display}/{path}: {how}; move the change into "
                     f"{overrides_display}/{rel}")
    lines.append("Generated files are rewritten from templates/, the spec and "
                 f"{overrides_display}/: put changes there, then rerun; or rerun with --force "
                 "to overwrite/remove these files.")
    lines.append("nothing written.")
    return "\n".join(lines)


def _prune(directory: Path, stop: Path) -> None:
    """Remove empty directories from ``directory`` up to (not including) ``stop``."""
    d = directory
    while d != stop and stop in d.parents:
        try:
            d.rmdir()
        except OSError:
            return
        d = d.parent


def apply_plan(plan: Plan, force: bool = False, log=lambda verb, path: None) -> tuple[int, int, int]:
    """Write the plan; returns (written, unchanged, removed). ``log(verb, path)`` per file."""
    if plan.drift and not force:
        raise DriftError("drift")  # callers check first; this is a safety net
    written = removed = 0
    for tmp in _stale_temporaries(plan.outdir, plan.arch, before=plan.started):
        tmp.unlink(missing_ok=True)
    journal_path = plan.outdir / JOURNAL_NAME
    if plan.changes:
        entries = {ch.path: (sha256(ch.new.data) if ch.new else None) for ch in plan.changes}
        journals = _load_journals(plan.outdir)  # other arches' and earlier runs' entries stay
        journals[plan.arch] = {**journals.get(plan.arch, {}), **entries}
        _write_journals(journal_path, journals)
    for ch in plan.changes:
        target = plan.outdir / ch.path
        if ch.kind == "remove":
            target.unlink()
            _prune(target.parent, plan.outdir / "arch" / plan.arch)
            removed += 1
            log("removed", ch.path)
        elif ch.kind == "mode":
            os.chmod(target, ch.new.mode)
            written += 1
            log("chmod", ch.path)
        else:
            atomic_write(target, ch.new.data, ch.new.mode)
            written += 1
            log("wrote" if ch.kind == "changed" else "created", ch.path)
    if plan.manifest_changed:
        atomic_write(plan.outdir / MANIFEST_NAME, plan.manifest_new, 0o644)
    journals = _load_journals(plan.outdir)
    if plan.arch in journals or (journal_path.exists() and not journals):
        journals.pop(plan.arch, None)  # this arch's generation is complete; others' stay
        _write_journals(journal_path, journals)
    return written, len(plan.unchanged), removed


def check_report(plan: Plan) -> list[str]:
    """Lines describing what a real run would do (for --check)."""
    out = []
    for path in plan.edited:
        out.append(f"drift   {path} (edited by hand)")
    for path in plan.added:
        out.append(f"drift   {path} (added by hand)")
    verbs = {"new": "would create", "changed": "would write", "mode": "would chmod",
             "remove": "would remove"}
    for ch in plan.changes:
        out.append(f"{verbs[ch.kind]} {ch.path}")
    if plan.manifest_changed:
        out.append(f"would update {MANIFEST_NAME}")
    if plan.recovering:
        out.append("would finish an interrupted generation (journal or temporary files left)")
    return out


def unified_diff(plan: Plan) -> str:
    """A unified diff (a/ b/ relative to OUTDIR) from the output to what would be produced."""
    chunks = []
    for ch in plan.changes:
        if ch.kind == "mode":
            chunks.append(f"mode change {ch.new.mode:o} {ch.path}\n")
            continue
        old = ch.old or b""
        new = ch.new.data if ch.new else b""
        a = "/dev/null" if ch.kind == "new" else f"a/{ch.path}"
        b = "/dev/null" if ch.kind == "remove" else f"b/{ch.path}"
        try:
            old_t, new_t = old.decode("utf-8"), new.decode("utf-8")
        except UnicodeDecodeError:
            chunks.append(f"Binary files {a} and {b} differ\n")
            continue
        lines = difflib.unified_diff(old_t.splitlines(keepends=True), new_t.splitlines(keepends=True),
                                     fromfile=a, tofile=b)
        for line in lines:
            chunks.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(chunks)
