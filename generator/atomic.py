"""Writing a file so that a reader (or a killed run) never sees half of it:
the data goes to a temporary file next to the target, which then replaces
it in one rename."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

#: the temporary files' suffix (output.py clears stale ones left by a kill)
TMP_SUFFIX = ".portkit-tmp"


def atomic_write(target: Path, data: bytes, mode: int = 0o644) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=TMP_SUFFIX)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def write_if_changed(target: Path, data: bytes, touch: bool = False) -> bool:
    """Write ``target`` when its bytes differ (True). An unchanged file is
    left alone, or with ``touch`` gets a fresh time stamp (for make)."""
    try:
        if target.read_bytes() == data:
            if touch:
                os.utime(target)
            return False
    except OSError:
        pass
    atomic_write(target, data)
    return True
