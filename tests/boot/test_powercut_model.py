"""The power-cut checker itself (tests/boot/powercut_model.py), without a
kernel: the state of a finished workload passes, the states a cut may
leave pass, and every kind of damage is caught."""
import powercut_model as model

ROLES = model.ROLES


def console(last, ready=True, finished=False, partial=""):
    lines = ["[    1.0] some kernel line", "powercut: ready"] if ready else []
    for role in ROLES:
        word = {"a": "synced", "b": "synced", "c": "wrote", "d": "replaced",
                "e": "renamed", "f": "step", "g": "kept"}[role]
        if last.get(role):
            lines.append(f"powercut: {role} {word} {last[role]}")
    if finished:
        lines += [f"powercut: {r} done 1" for r in ROLES] + ["powercut: done, 0 failed"]
    return "\r\n".join(lines) + "\r\n" + partial


def final_tree():
    """What the workload leaves when it runs to the end."""
    states, _ = model.trunc_states(model.rounds("f"))
    total = model.rounds("g")
    g = {f"k{j}": model.churn_content(j, 99) for j in range(4, total + 1, 4)}
    for i in range(total - model.CHURN_LAG + 1, total + 1):
        g[f"d{i}"] = {f"f{j}": model.churn_content(i, j) for j in range(model.churn_files(i))}
    return {"lost+found": {}, "log-a": model.log_stream("a"), "log-b": model.log_stream("b"),
            "log-c": model.log_stream("c"), "cfg-d": model.cfg_content("d", 16),
            "cfg-e": model.cfg_content("e", 16), "trunc-f": states[-1], "g": g}


FINAL_LAST = {"a": len(model.log_stream("a")) // 64, "b": len(model.log_stream("b")) // 64,
              "c": len(model.log_stream("c")) // 64, "d": 16, "e": 16, "f": 24, "g": 24}


def test_the_final_state_passes_and_damage_to_it_is_caught():
    out = console(FINAL_LAST, finished=True)
    assert model.check_image(final_tree(), out) == []
    tree = final_tree()
    tree["log-c"] = tree["log-c"][:-64]                 # unsynced at the cut, but unmounted
    assert model.check_image(tree, out)
    tree = final_tree()
    tree["g"]["d24"]["f0"] = bytes(len(tree["g"]["d24"]["f0"]))
    assert model.check_image(tree, out)


def test_console_is_read_up_to_the_last_whole_line():
    ready, last, done, errors, finished = model.progress(
        console({"a": 7, "d": 2}, partial="powercut: a synced 9"))
    assert ready and last["a"] == 7 and last["d"] == 2 and not errors and not finished
    assert model.progress("powercut: a error write, errno 28\n")[3]


def cut_tree(a=40, d=3, f=5, g=8):
    """A consistent state of a cut: a records synced, cfg-d version d, f
    steps, churn up to keeper g and nothing of the iterations after it."""
    states, _ = model.trunc_states(24)
    tree = {"log-a": model.log_stream("a")[:a * 64], "log-b": b"", "log-c": b"",
            "cfg-d": model.cfg_content("d", d), "cfg-e": model.cfg_content("e", 0),
            "trunc-f": states[f], "g": {}}
    for j in range(4, g + 1, 4):
        tree["g"][f"k{j}"] = model.churn_content(j, 99)
    for i in range(max(1, g - model.CHURN_LAG + 1), g + 1):
        tree["g"][f"d{i}"] = {f"f{j}": b"" for j in range(model.churn_files(i))}
    return tree


CUT = {"a": 40, "d": 3, "f": 5, "g": 8}


def test_a_consistent_cut_passes():
    assert model.check_image(cut_tree(), console(CUT)) == []
    # The step after the last one printed may be committed, or half done.
    tree = cut_tree()
    tree["log-a"] = model.log_stream("a")[:43 * 64] + bytes(64)
    tree["cfg-d"] = model.cfg_content("d", 4)
    s, g, w = model.trunc_states(24)[1][6]
    tree["trunc-f"] = model.trunc_states(24)[0][5][:s] + bytes(g - s)
    assert model.check_image(tree, console(CUT)) == []


def test_lost_or_damaged_synced_data_is_caught():
    cases = {
        "log-a": model.log_stream("a")[:39 * 64],                       # a synced record lost
        "cfg-d": model.cfg_content("d", 2),                             # an older version
    }
    for name, data in cases.items():
        tree = cut_tree()
        tree[name] = data
        assert model.check_image(tree, console(CUT)), name
    tree = cut_tree()
    rec = bytearray(tree["log-a"])
    rec[100] ^= 1                                                        # a flipped byte
    tree["log-a"] = bytes(rec)
    assert model.check_image(tree, console(CUT))
    tree = cut_tree()
    del tree["g"]["k8"]                                                  # a synced keeper
    assert model.check_image(tree, console(CUT))
    tree = cut_tree()
    tree["g"]["d1"] = {"f0": b""}                                        # removed before k8
    assert model.check_image(tree, console(CUT))


def test_half_written_data_is_caught():
    tree = cut_tree()
    new = model.cfg_content("d", 4)
    tree["cfg-d"] = new[:len(new) // 2]                                  # half a replace
    assert model.check_image(tree, console(CUT))
    tree = cut_tree()
    tree["log-a"] += model.record("b", 40)                               # foreign bytes
    assert model.check_image(tree, console(CUT))
    tree = cut_tree()
    tree["cfg-e"] = b""                                                  # an empty replace
    assert model.check_image(tree, console(CUT))
    # Unsynced, renamed: the new version's blocks may still read as zeros
    # (not yet written), but not with another version's size or bytes.
    one, two = model.cfg_content("e", 1), model.cfg_content("e", 2)
    tree["cfg-e"] = bytes(len(one))
    assert model.check_image(tree, console(CUT)) == []
    tree["cfg-e"] = bytes(len(one) - 1)
    assert model.check_image(tree, console(CUT))
    tree["cfg-e"] = two[:len(one)] if len(two) >= len(one) else two + bytes(len(one) - len(two))
    assert model.check_image(tree, console(CUT))
    # Stale data in the hole of a committed ftruncate down and up.
    states, ops = model.trunc_states(24)
    s, g, w = ops[6]
    old = states[5]
    tree = cut_tree()
    tree["trunc-f"] = old[:s] + old[s:g] + bytes(max(0, g - len(old)))
    assert len(tree["trunc-f"]) == g and old[s:g].strip(b"\0")
    assert model.check_image(tree, console(CUT))
