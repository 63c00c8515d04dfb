"""What /bin/powercut (userland/tests/powercut.c) writes, and what a
power cut may leave of it: the host side of tests/boot/test_powercut.py.

The generators below compute the same bytes as the guest program. The
checks take the files dumped from the image (after the journal replay) and
the console lines the program printed before the cut, and return the list
of problems found (empty: the image is consistent with a power cut at
that point).

What a cut may leave, role by role (ext4, data=ordered): everything the
program reported synced is there, exactly; whatever came after it is
either absent or a state the program's own operations passed through,
where data not yet synced may read as zeros (a block allocated, or a file
size extended, before its data reached the disk) but never as other bytes.
"""
import re

M32 = 0xFFFFFFFF
RECORD = 64
BLOCK = 4096                  # the image's ext4 block size (scripts/make-disk.sh)
CHURN_LAG = 6
KEEP_EVERY = 4
ROLES = "abcdefg"


def rounds(role, scale=1):
    """The rounds of each role (powercut.c's run_role)."""
    return scale * {"a": 40, "b": 40, "c": 40, "d": 16, "e": 16, "f": 24, "g": 24}[role]


def lcg(x):
    return (x * 1103515245 + 12345) & M32


def fnv1a(data):
    h = 2166136261
    for b in data:
        h = ((h ^ b) * 16777619) & M32
    return h


def record(role, seq):
    x = (seq * 2654435761 + ord(role)) & M32
    letters = []
    for _ in range(43):
        x = lcg(x)
        letters.append(chr(ord("a") + (x >> 16) % 26))
    head = f"{role} {seq:08d} {''.join(letters)}".encode()
    return head + f" {fnv1a(head):08x}\n".encode()


def log_stream(role, scale=1):
    """Every record role a, b or c writes, in order."""
    n = sum(1 + (lcg((ord(role) * 977 + k) & M32) >> 16) % 8 for k in range(rounds(role, scale)))
    return b"".join(record(role, s) for s in range(n))


def cfg_content(role, v):
    n = 64 + (lcg((v * 2654435761 + ord(role)) & M32) >> 16) % 12000
    body = bytearray(f"cfg {role} {v:08d} {n:08d}\n".encode())
    body += bytes(ord("a") + (v * 7 + i) % 26 for i in range(24, n - 9))
    return bytes(body) + f"{fnv1a(body):08x}\n".encode()


def trunc_step(k, length):
    """(s, g, w) of step k of role f, from the file length before it."""
    r = lcg((k * 2654435761 + ord("f")) & M32)
    s = (r >> 16) % (min(length, 24000) + 1)
    r = lcg(r)
    g = s + (r >> 16) % 6000
    r = lcg(r)
    return s, g, 1 + (r >> 16) % 9000


def trunc_bytes(k, start, count):
    return bytes(ord("A") + (k * 7 + o) % 53 for o in range(start, start + count))


def trunc_states(steps):
    """The file after each step 0..steps, and each step's (s, g, w)."""
    states, ops, cur = [b""], [None], b""
    for k in range(1, steps + 1):
        s, g, w = trunc_step(k, len(cur))
        cur = cur[:s] + bytes(g - s) + trunc_bytes(k, g, w)
        states.append(cur)
        ops.append((s, g, w))
    return states, ops


def churn_files(i):
    return 1 + i % 5


def churn_content(i, j):
    n = 10 + (lcg((i * 64 + j) & M32) >> 16) % 3000
    return bytes(ord("0") + (i + j * 7 + o) % 75 for o in range(n))


# ------------------------------------------------------------ the console

LINE = re.compile(r"^powercut: ([a-g]) (synced|wrote|replaced|renamed|step|kept|done) (\d+)$")


def progress(out):
    """From the console text up to the cut: whether "ready" was printed,
    the last number each role printed (0 when none), the roles that
    printed "done", the error lines, and whether the whole program ended
    ("powercut: done, N failed" after the unmount)."""
    lines = out.replace("\r\n", "\n").split("\n")
    lines = lines[:-1]                  # the last one is incomplete (or empty)
    last = {r: 0 for r in ROLES}
    done, errors, ready, finished = set(), [], False, False
    for line in lines:
        m = LINE.match(line)
        if m and m.group(2) == "done":
            done.add(m.group(1))
        elif m:
            last[m.group(1)] = int(m.group(3))
        elif line == "powercut: ready":
            ready = True
        elif line == "powercut: done, 0 failed":
            finished = True
        elif line.startswith("powercut: "):
            errors.append(line)
    return ready, last, done, errors, finished


# ------------------------------------------------------------ the checks

def bytes_or_zeros(data, expected, start=0):
    """Offset of the first byte of data[start:] that is neither the expected
    byte nor zero (or past the end of expected), or None."""
    for o in range(start, len(data)):
        b = data[o]
        if b and (o >= len(expected) or b != expected[o]):
            return o
    return None


def check_log(name, data, stream, synced, printed, exact):
    """A log of 64-byte records: the synced ones exact, the rest of the file
    only the records that follow (or zeros), up to one batch (<= 8
    records) past what was printed."""
    problems = []
    if data is None:
        return [f"{name}: missing"]
    if len(data) < synced * RECORD:
        problems.append(f"{name}: {len(data)} bytes, {synced} records were synced")
    first = next((o for o in range(min(len(data), synced * RECORD))
                  if data[o] != stream[o]), None)
    if first is not None:
        problems.append(f"{name}: synced record {first // RECORD} differs at byte {first}: "
                        f"{data[first // RECORD * RECORD:][:RECORD]!r}")
    limit = min(len(stream), (printed + 8) * RECORD)
    if len(data) > limit:
        problems.append(f"{name}: {len(data)} bytes, more than written ({limit})")
    if exact:
        if data != stream[:len(data)] or len(data) != len(stream):
            problems.append(f"{name}: not the {len(stream)} bytes written")
    else:
        bad = bytes_or_zeros(data, stream, synced * RECORD)
        if bad is not None:
            problems.append(f"{name}: byte {bad} is neither the record's nor zero: "
                            f"{data[bad // RECORD * RECORD:][:RECORD]!r}")
    return problems


def cfg_version(data):
    m = re.match(rb"cfg [a-z] (\d{8}) ", data or b"")
    return int(m.group(1)) if m else None


def check_cfg(name, data, role, allowed, unsynced=False):
    """A file replaced by rename: one whole version among allowed. With
    unsynced (role e: no fsync before the rename), a version's new blocks
    may also read as zeros: ext4's auto_da_alloc only starts the writeback
    before the rename, and with dioread_nolock (the default) the blocks are
    allocated unwritten and only marked written when their write completes,
    after the commit that may already carry the rename (upstream ext4
    behaviour, on any architecture). Never old, foreign or mixed bytes."""
    if data is None:
        return [f"{name}: missing"]
    v = cfg_version(data)
    if v is not None and data == cfg_content(role, v):
        if v not in allowed:
            return [f"{name}: version {v}, expected one of {sorted(allowed)}"]
        return []
    if unsynced and any(len(data) == len(cfg_content(role, w)) and
                        bytes_or_zeros(data, cfg_content(role, w)) is None
                        for w in allowed if w):
        return []
    return [f"{name}: not a whole version ({len(data)} bytes, starts {data[:32]!r})"]


def trunc_candidates(states, ops, k):
    """(size range, allowed bytes at an offset) of each state a cut may
    leave when step k is synced and step k + 1 may be under way: the
    journal commits its ftruncate down, ftruncate up and pwrite in order."""
    base = states[k]
    exact = [((len(base), len(base)), lambda o: (base[o],))]
    if k + 1 >= len(states):
        return exact
    s, g, w = ops[k + 1]
    new = trunc_bytes(k + 1, g, w)
    part_end = -(-s // BLOCK) * BLOCK                   # the block ftruncate(s) keeps

    def before(o):
        # Nothing of step k + 1 committed: the old blocks, except the one
        # that ftruncate(s) keeps and zeroes past s, where the write may
        # land too (data=ordered does not order overwrites).
        if s <= o < part_end:
            return (base[o], 0) + ((new[o - g],) if g <= o < g + w else ())
        return (base[o],)

    def after(o):
        # Both ftruncates committed, the write perhaps: zeros in the hole,
        # the new bytes or zeros (not yet written) after it.
        if o < s:
            return (base[o],)
        return (0,) if o < g else (0, new[o - g])

    return [((len(base), len(base)), before), ((s, s), exact[0][1]), ((g, g + w), after)]


def check_trunc(data, states, ops, k, exact):
    if data is None:
        return ["trunc-f: missing"]
    if exact:
        return [] if data == states[k] else [f"trunc-f: not the {len(states[k])} bytes of "
                                             f"step {k} ({len(data)} bytes)"]
    for (lo, hi), allowed in trunc_candidates(states, ops, k):
        if lo <= len(data) <= hi and all(data[o] in allowed(o) for o in range(len(data))):
            return []
    want = len(states[k])
    diff = next((o for o in range(min(want, len(data))) if data[o] != states[k][o]), None)
    return [f"trunc-f: {len(data)} bytes match no state after step {k} (synced) or during "
            f"step {k + 1}; step {k} has {want} bytes, first difference at {diff}"]


def check_churn_file(path, data, i, j, exact):
    want = churn_content(i, j)
    if exact and data != want:
        return [f"{path}: not the {len(want)} bytes written ({len(data)})"]
    if len(data) > len(want) or bytes_or_zeros(data, want) is not None:
        return [f"{path}: {len(data)} bytes, not a prefix of the content or zeros"]
    return []


def check_churn_dir(path, files, i, exact, kind):
    """Directory d<i> (or new, for iteration i): its files f0.. by kind:
    'all' every file, 'suffix' the ones not yet unlinked (in order),
    'prefix' the ones created so far."""
    problems = []
    m = churn_files(i)
    names = {f"f{j}" for j in range(m)}
    extra = set(files) - names
    if extra:
        problems.append(f"{path}: unexpected entries {sorted(extra)}")
    present = sorted(int(n[1:]) for n in set(files) & names)
    if kind == "all" and len(present) != m:
        problems.append(f"{path}: files {present}, expected f0..f{m - 1}")
    if kind == "suffix" and present and present != list(range(present[0], m)):
        problems.append(f"{path}: files {present}, not the last ones of f0..f{m - 1}")
    if kind == "prefix" and present != list(range(len(present))):
        problems.append(f"{path}: files {present}, not the first ones of f0..f{m - 1}")
    for j in present:
        problems += check_churn_file(f"{path}/f{j}", files[f"f{j}"], i, j, exact)
    return problems


def check_churn(tree, kept, total, exact):
    """/pc/g when keeper kept is synced: keepers up to it there, d<j> removed
    for j <= kept - CHURN_LAG, d<kept - 1> and d<kept> whole, and the
    iterations after kept (up to the next keeper) only partly done."""
    if tree is None:
        return ["g: missing"]
    problems = []
    nxt = min(kept + KEEP_EVERY, total)         # the last iteration that may have begun
    for name, value in sorted(tree.items()):
        m = re.fullmatch(r"([dk])(\d+)|new", name)
        if not m:
            problems.append(f"g/{name}: unexpected entry")
            continue
        if name == "new":
            if not isinstance(value, dict) or kept == total:
                problems.append("g/new: unexpected")
                continue
            # Iteration kept + 1 .. nxt was filling it: one of them must fit.
            tries = [check_churn_dir("g/new", value, i, False, "prefix")
                     for i in range(kept + 1, nxt + 1)]
            if all(tries):
                problems += tries[0]
            continue
        j = int(m.group(2))
        if m.group(1) == "k":
            if j % KEEP_EVERY or j > nxt or not isinstance(value, bytes):
                problems.append(f"g/{name}: unexpected")
            else:
                problems += check_churn_file(f"g/{name}", value, j, 99, exact or j <= kept)
            continue
        if not isinstance(value, dict) or j > nxt or j <= kept - CHURN_LAG:
            problems.append(f"g/{name}: should not exist (keeper {kept} synced)")
            continue
        pending_removal = j + CHURN_LAG <= nxt
        problems += check_churn_dir(f"g/{name}", value, j, exact,
                                    "suffix" if pending_removal and not exact else "all")
    for j in range(KEEP_EVERY, kept + 1, KEEP_EVERY):
        if f"k{j}" not in tree:
            problems.append(f"g/k{j}: missing, keeper {kept} was synced")
    for j in range(max(1, kept - 1), kept + 1):
        if j + CHURN_LAG > nxt and f"d{j}" not in tree:
            problems.append(f"g/d{j}: missing, keeper {kept} was synced")
    return problems


def read_tree(path):
    """A dumped directory as {name: bytes or dict}."""
    tree = {}
    for entry in path.iterdir():
        tree[entry.name] = read_tree(entry) if entry.is_dir() else entry.read_bytes()
    return tree


TOP = {"lost+found", "log-a", "log-b", "log-c", "cfg-d", "cfg-e", "cfg-d.tmp", "cfg-e.tmp",
       "trunc-f", "g"}


def check_image(tree, out, scale=1):
    """Problems of the dumped file system (read_tree) against the console."""
    ready, last, done, errors, finished = progress(out)
    problems = [f"the program reported: {e}" for e in errors]
    if not ready:
        return problems                 # cut before the files were set up
    exact = finished                    # unmounted: everything on disk
    if exact and scale and done != set(ROLES):
        problems.append(f"finished, but only roles {sorted(done)} reported done")
    problems += [f"{n}: unexpected entry" for n in sorted(set(tree) - TOP)]
    for role in "abc":
        synced = last[role] if role != "c" else (last[role] if exact else 0)
        problems += check_log(f"log-{role}", tree.get(f"log-{role}"),
                              log_stream(role, scale), synced, last[role], exact)
    v = last["d"]
    problems += check_cfg("cfg-d", tree.get("cfg-d"), "d",
                          {v} if exact else {v, min(v + 1, rounds("d", scale))})
    v = last["e"]
    problems += check_cfg("cfg-e", tree.get("cfg-e"), "e",
                          {v} if exact else set(range(min(v + 1, rounds("e", scale)) + 1)),
                          unsynced=not exact)
    if exact and ("cfg-d.tmp" in tree or "cfg-e.tmp" in tree):
        problems.append("a temporary file was left after the last rename")
    states, ops = trunc_states(rounds("f", scale))
    problems += check_trunc(tree.get("trunc-f"), states, ops, last["f"], exact)
    problems += check_churn(tree.get("g"), last["g"], rounds("g", scale), exact)
    return problems
