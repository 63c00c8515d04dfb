"""Malformed and hostile input beyond the core spec path: layer paths and
symbolic links, the contract over a stack of layers, YAML features (tags,
merge keys, aliases, duplicate keys, NUL) in specs, bases and layer.yaml
files alike, names and bounds, messages that must point at the right place,
and the recovery journal of one output directory shared by several arches.

Every refusal is checked the same way (``refused``): exit 2, the file, line
and key named, no traceback, nothing written."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from gen_helpers import make_project

ARCH_LINE = "  uts_machine: tsar\n"


def refused(proj, r, file: str, line: int | None, key: str, *words: str,
            outdir: Path | None = None) -> str:
    """Exit 2, an error line 'file:line: key: ...' holding ``words``, nothing written."""
    assert r.rc == 2, (r.rc, r.err)
    assert "Traceback" not in r.err and "nothing written" in r.err, r.err
    head = f"{file}:{line}: {key}" if line is not None else f"{file}"
    chunks = [c for c in r.err.split("error: ") if c.startswith(head)]
    assert chunks, f"no error starting {head!r} in:\n{r.err}"
    assert any(all(w in c for w in words) for c in chunks), f"{words} not in:\n{r.err}"
    assert not (outdir or proj.outdir).exists()
    return r.err


def set_layers(proj, *entries: str) -> None:
    proj.edit(ARCH_LINE, ARCH_LINE + f"  layers: [{', '.join(entries)}]\n")


def layer_yaml(proj, text: str = "", name: str = "tsar") -> Path:
    """The fixture's layer.yaml (its bindings kept) with ``text`` appended."""
    path = proj.path / "overrides" / name / "layer.yaml"
    old = path.read_text() if path.exists() else ""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(old + text)
    return path


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A directory outside the project, looking like a layer."""
    d = tmp_path / "outside"
    (d / "kernel").mkdir(parents=True)
    (d / "kernel" / "secret.c").write_text("secret\n")
    (d / "layer.yaml").write_text("description: not ours\n")
    return d


# --- layers stay in the project ---------------------------------------------

@pytest.mark.parametrize("entry", ["../outside", "./../outside", "sub/../../outside",
                                   "a/b/../../../outside", ".hidden/layer"])
@pytest.mark.parametrize("key", ["layers", "overrides"])
def test_layer_path_never_climbs_out(proj, outside, entry, key):
    if key == "layers":
        set_layers(proj, entry, "tsar")
        where, path = "layers:", "arch.layers[0]"
    else:
        proj.edit(ARCH_LINE, ARCH_LINE + f"  overrides: {entry}\n")
        where, path = "overrides:", "arch.overrides"
    refused(proj, proj.run(), "spec.yaml", proj.line_of(where), path, "without '..'")


@pytest.mark.parametrize("how", ["name", "path", "overrides"])
def test_layer_symlink_leading_outside(proj, outside, how):
    (proj.path / "overrides" / "ext").symlink_to(outside, target_is_directory=True)
    if how == "name":
        set_layers(proj, "ext", "tsar")
        where, key = "layers:", "arch.layers[0]"
    elif how == "path":
        set_layers(proj, "overrides/ext", "tsar")
        where, key = "layers:", "arch.layers[0]"
    else:
        proj.edit(ARCH_LINE, ARCH_LINE + "  overrides: overrides/ext\n")
        where, key = "overrides:", "arch.overrides"
    refused(proj, proj.run(), "spec.yaml", proj.line_of(where), key,
            "symbolic link leading outside the project")


def test_layer_symlink_inside_the_project_is_fine(proj):
    (proj.path / "shared" / "fam").mkdir(parents=True)
    (proj.path / "shared" / "fam" / "layer.yaml").write_text("description: shared family\n")
    (proj.path / "shared" / "fam" / "fam.h").write_text("/* SPDX-License-Identifier: GPL-2.0 */\n")
    (proj.path / "overrides" / "fam").symlink_to(proj.path / "shared" / "fam")
    set_layers(proj, "fam", "tsar")
    r = proj.run()
    assert r.rc == 0, r.err
    assert (proj.arch_dir / "fam.h").is_file()


@pytest.mark.parametrize("where", ["overrides/tsar/kernel/leak.c", "overrides/tsar/leakdir",
                                   "overrides/tsar/layer.yaml", "templates/kernel/leak.c"])
def test_symlink_inside_a_layer_or_templates_leading_outside(proj, outside, where):
    link = proj.path / where
    if link.exists():
        link.unlink()
    target = outside / "kernel" if where.endswith("dir") else \
        outside / ("layer.yaml" if where.endswith(".yaml") else "kernel/secret.c")
    link.symlink_to(target)
    r = proj.run()
    refused(proj, r, where, None, "", "symbolic link leading outside the project")
    assert "secret" not in r.out + r.err


def test_layer_of_a_spec_outside_the_project(proj, tmp_path):
    """A spec elsewhere may extend the project's, but its layers must be in the project."""
    away = tmp_path / "away"
    (away / "mine").mkdir(parents=True)
    (away / "mine" / "layer.yaml").write_text("description: mine\n")
    (away / "board.yaml").write_text(f"extends: {proj.spec}\narch:\n  layers: [./mine]\n")
    r = proj.run(str(away / "board.yaml"))
    refused(proj, r, str(away / "board.yaml"), 3, "arch.layers[0]", "lies outside the project")


@pytest.mark.parametrize("how", ["listed", "default"])
def test_layer_directory_without_layer_yaml(proj, how):
    if how == "listed":
        proj.write("overrides/fam/kernel/any.c", "int x;\n")   # files, but no layer.yaml
        set_layers(proj, "fam", "tsar")
        where, key, shown = "layers:", "arch.layers[0]", "overrides/fam/"
    else:
        (proj.path / "overrides/tsar/layer.yaml").unlink()       # the arch's own layer
        where, key, shown = "  name: tsar", "arch.name", "overrides/tsar/"
    refused(proj, proj.run(), "spec.yaml", proj.line_of(where), key,
            f"{shown} has no layer.yaml")


def test_missing_default_layer_is_still_allowed(proj):
    import shutil
    shutil.rmtree(proj.path / "overrides/tsar")
    r = proj.run()
    # only the device properties nobody declares any more are refused, not the layer
    assert r.rc == 2 and "no layer declares properties of soclib,vci_xicu" in r.err
    assert "override layer directory" not in r.err and "has no layer.yaml" not in r.err


# --- the contract holds for every layer of the stack -------------------------

@pytest.mark.parametrize("key,spec_old,spec_new,fam,arch", [
    ("isa.endianness", "  endianness: little", "  endianness: big", "[little, big]", "[little]"),
    ("mmu.walker", "  walker: hardware\n", "  walker: hardware\n", "[hardware]", "[software]"),
    ("mmu.tlb_coherent", "  tlb_coherent: true", "  tlb_coherent: false", "[true, false]",
     "[true]"),
    ("platform.cpus.count", "    count: 1", "    count: 2", "[1, 2, 4]", "[1]"),
])
def test_every_declaring_layer_must_implement_the_value(proj, key, spec_old, spec_new, fam,
                                                       arch):
    layer_yaml(proj, f"description: family\nimplements:\n  {key}: {fam}\n", "fam")
    layer_yaml(proj, f"implements:\n  {key}: {arch}\n")
    set_layers(proj, "fam", "tsar")
    proj.edit(spec_old, spec_new)
    r = proj.run()
    line = proj.line_of(spec_new.rstrip("\n"))
    refused(proj, r, "spec.yaml", line, key, "which overrides/tsar does not implement",
            f"overrides/tsar implements only {arch.strip('[]')}",
            "every layer that states", "not only overrides/fam")
    # once the arch layer supports it too, the spec generates
    layer_yaml(proj, "").write_text(layer_yaml(proj, "").read_text().replace(
        f"  {key}: {arch}\n", f"  {key}: {fam}\n"))
    r = proj.run()
    assert r.rc == 0, r.err


def test_true_is_not_one(proj):
    layer_yaml(proj, "implements:\n  platform.cpus.count: [true]\n  mmu.tlb_coherent: [1]\n")
    path = proj.path / "overrides/tsar/layer.yaml"
    r = proj.run()
    err = refused(proj, r, "overrides/tsar/layer.yaml", proj.line_of("count: [true]", path),
                  "implements.platform.cpus.count[0]", "expected an integer, found true")
    assert "implements.mmu.tlb_coherent[0]: expected true or false, found 1" in err


# --- YAML: one loader for specs, bases and layer.yaml -------------------------

def in_spec(proj, text):
    """``text`` as a delta over the fixture spec (board.yaml)."""
    proj.write("board.yaml", "extends: spec.yaml\n" + text)
    return proj.run("board.yaml"), "board.yaml"


def in_base(proj, text):
    """``text`` in a base spec between board.yaml and the fixture spec."""
    proj.write("base.yaml", "extends: spec.yaml\n" + text)
    proj.write("board.yaml", "extends: base.yaml\nkernel:\n  hz: 250\n")
    return proj.run("board.yaml"), "base.yaml"


def in_layer(proj, text):
    layer_yaml(proj, text)
    return proj.run(), "overrides/tsar/layer.yaml"


WHERE = {"spec": in_spec, "base": in_base, "layer": in_layer}
#: Per file kind: a mapping, a list and a scalar to put a tag on (line 2 of the text).
TAGGED = {
    "spec": ("isa: {tag}\n  fpu: none\n", "isa:\n  cflags: {tag} [-G0]\n",
             "kernel:\n  hz: {tag} 250\n"),
    "layer": ("implements: {tag}\n  isa.fpu: [none]\n", "implements:\n  isa.fpu: {tag} [none]\n",
              "implements:\n  isa.fpu: [{tag} none]\n"),
}


@pytest.mark.parametrize("where", ["spec", "base", "layer"])
@pytest.mark.parametrize("tag,shape", [
    (tag, shape) for tag in ("!replce", "!include", "!!python/object/apply:os.system", "!!binary",
                             "!<tag:example.com,2000:x>") for shape in (0, 1, 2)] + [("!!set", 0)])
def test_unknown_tags_are_refused(proj, where, shape, tag):
    text = TAGGED["layer" if where == "layer" else "spec"][shape].format(tag=tag)
    r, file = WHERE[where](proj, text)
    refused(proj, r, file, proj.line_of(tag, proj.path / file), "", "unknown YAML tag")


@pytest.mark.parametrize("where", ["spec", "base", "layer"])
def test_merge_keys_are_refused(proj, where):
    text = ("kernel:\n  <<: {hz: 250}\n" if where != "layer"
            else "implements:\n  <<: {isa.fpu: [none]}\n")
    r, file = WHERE[where](proj, text)
    line = 3 if where != "layer" else proj.line_of("<<:", proj.path / file)
    refused(proj, r, file, line, "", "merge keys ('<<') are not supported")


@pytest.mark.parametrize("where", ["spec", "base", "layer"])
def test_nul_and_control_characters(proj, where):
    text = ("kernel:\n  hz: 250 # a\x00b\n" if where != "layer"
            else "description: a\x00b\n")
    r, file = WHERE[where](proj, text)
    line = 3 if where != "layer" else proj.line_of("description: a", proj.path / file)
    refused(proj, r, file, line, "", "U+0000 (NUL)", "not allowed in a YAML file")


@pytest.mark.parametrize("where", ["spec", "base", "layer"])
def test_nesting_too_deep(proj, where):
    deep = "[" * 3000 + "]" * 3000
    text = f"kernel:\n  config: {deep}\n" if where != "layer" else f"relies_on: {{x: {deep}}}\n"
    r, file = WHERE[where](proj, text)
    assert r.rc == 2 and "Traceback" not in r.err, r.err
    assert f"error: {file}:" in r.err and "nests mappings or lists too deeply" in r.err


def test_nul_through_status(proj):
    proj.write("board.yaml", "extends: spec.yaml\nkernel:\n  hz: 250\x00\n")
    r = proj.run("--status", "board.yaml")
    assert r.rc == 2 and "board.yaml:3: character U+0000 (NUL)" in r.err
    assert "Traceback" not in r.err


@pytest.mark.parametrize("text,key,first,second", [
    ("description: a\ndescription: b\n", "description", "description: a", "description: b"),
    ("implements:\n  isa.fpu: [none]\n  isa.fpu: [hard]\n", "implements.isa.fpu",
     "isa.fpu: [none]", "isa.fpu: [hard]"),
    ("kbuild:\n  x.o: A\n  x.o: B\n", "kbuild.x.o", "x.o: A", "x.o: B"),
    ("relies_on:\n  abi.frame: [epc]\n  abi.frame: [lo]\n", "relies_on.abi.frame",
     "abi.frame: [epc]", "abi.frame: [lo]"),
])
def test_layer_duplicate_keys(proj, text, key, first, second):
    path = layer_yaml(proj, text)
    err = refused(proj, proj.run(), "overrides/tsar/layer.yaml", proj.line_of(second, path), key,
                  "duplicate key")
    assert f"first given at line {proj.line_of(first, path)}" in err


@pytest.mark.parametrize("text,needle,key,words", [
    ("provides:\n  1: [kernel/extra.c.j2]\n", "1: [kernel", "provides.1", ("as key",)),
    ("provides:\n  console: [1]\n", "console: [1]", "provides.console[0]", ("found integer 1",)),
    ("implements:\n  3: [x]\n", "3: [x]", "implements.3", ("a spec key path as key",)),
    ("relies_on:\n  abi.frame: [1, 2]\n", "abi.frame: [1, 2]", "relies_on.abi.frame[0]",
     ("found integer 1",)),
    ("kbuild:\n  1: 2\n", "1: 2", "kbuild.1", ("an object path",)),
    ("kbuild:\n  drivers/x.o: 2\n", "drivers/x.o: 2", "kbuild.drivers/x.o", ("found integer 2",)),
    ("description: 5\n", "description: 5", "description", ("found integer 5",)),
    ("implements:\n  isa.endianness: [littel]\n", "endianness: [littel]",
     "implements.isa.endianness[0]", ("did you mean 'little'",)),
    ("provides:\n  consle: [kernel/extra.c.j2]\n", "consle:", "provides.consle",
     ("unknown responsibility", "did you mean 'console'")),
    ("provides:\n  console: [../../etc/passwd]\n", "console: [../", "provides.console[0]",
     ("without '..'",)),
])
def test_layer_values_of_the_wrong_kind(proj, text, needle, key, words):
    path = layer_yaml(proj, text)
    refused(proj, proj.run(), "overrides/tsar/layer.yaml", proj.line_of(needle, path), key, *words)


def test_layer_binding_named_by_an_integer(proj):
    path = proj.path / "overrides/tsar/layer.yaml"
    path.write_text(path.read_text().replace("bindings:\n", "bindings:\n  7: {}\n", 1))
    refused(proj, proj.run(), "overrides/tsar/layer.yaml", proj.line_of("7: {}", path),
            "bindings.7", "expected a compatible string ('vendor,model') as key, found integer 7")


def test_layer_alias_bomb(proj):
    bomb = "x0: &a0 [q, q, q, q, q, q, q, q, q]\n" + "".join(
        f"x{i}: &a{i} [*a{i-1}, *a{i-1}, *a{i-1}, *a{i-1}, *a{i-1}, *a{i-1}, *a{i-1}, *a{i-1}, "
        f"*a{i-1}]\n" for i in range(1, 8))
    # each of 4.8 million leaves once printed in full made a 39 MB error message
    for text in (bomb + "kbuild:\n  drivers/x.o: *a7\n", bomb + "relies_on:\n  abi.frame: *a7\n",
                 bomb + "provides: {console: *a7}\n", bomb + "implements: {isa.fpu: *a7}\n"):
        (proj.path / "overrides/tsar/layer.yaml").write_text(text)
        assert len(text) < 1000
        t = time.monotonic()
        r = proj.run()
        assert time.monotonic() - t < 5
        assert r.rc == 2 and "Traceback" not in r.err and "nothing written" in r.err
        assert len(r.err) < 20_000, len(r.err)
        assert "overrides/tsar/layer.yaml:" in r.err


def test_layer_size_limit(proj):
    layer_yaml(proj, ("# " + "x" * 1000 + "\n") * 1100)
    r = proj.run()
    assert r.rc == 2 and "overrides/tsar/layer.yaml:0: the file is" in r.err


# --- !replace --------------------------------------------------------------------

def test_replace_keeps_the_type_of_plain_scalars(proj):
    from generator.spec import load_spec
    proj.write("board.yaml", "extends: spec.yaml\nmmu:\n  tlb_coherent: !replace false\n"
               "kernel:\n  hz: !replace 250\nplatform:\n  cpus: {count: !replace 0x1}\n")
    d = load_spec(proj.path / "board.yaml").data
    assert d["mmu"]["tlb_coherent"] is False
    assert d["kernel"]["hz"] == 250 and d["platform"]["cpus"]["count"] == 1
    # a quoted value stays a string (and is refused where a boolean belongs)
    proj.write("board.yaml", "extends: spec.yaml\nmmu:\n  tlb_coherent: !replace 'false'\n")
    r = proj.run("board.yaml")
    refused(proj, r, "board.yaml", 3, "mmu.tlb_coherent", "expected true or false, found string")


def test_replace_where_there_is_nothing_to_replace(proj):
    """!replace on a key the base does not state, or in a spec without a base, is the
    value itself."""
    from generator.spec import load_spec
    proj.write("board.yaml", "extends: spec.yaml\nabi:\n  syscall:\n    audit_convention: "
               "!replace 0x40000000\nplatform:\n  qemu: !replace {machine: m, cpu: c}\n"
               "  devices:\n    - {name: tty, interrupts: !replace [0]}\n"
               "    - {name: new, compatible: !replace [\"a,b\"], base: 0x30000000, size: 4K,"
               " stdout: !replace false}\n")
    d = load_spec(proj.path / "board.yaml").data
    assert d["abi"]["syscall"]["audit_convention"] == 0x40000000
    assert d["platform"]["qemu"]["machine"] == "m"
    assert d["platform"]["devices"][-1]["stdout"] is False
    proj.edit("  hz: 100", "  hz: !replace 250")
    assert load_spec(proj.spec).data["kernel"]["hz"] == 250


# --- extends: names a spec --------------------------------------------------------

@pytest.mark.parametrize("base,holds", [
    ("- a\n- b\n", "a list"), ("just text\n", "the value 'just text'"), ("~\n", "nothing (null)"),
])
def test_extends_a_file_that_is_not_a_spec(proj, base, holds):
    proj.write("notaspec.yaml", base)
    proj.write("board.yaml", "kernel:\n  hz: 250\nextends: notaspec.yaml\n")
    r = proj.run("board.yaml")
    err = refused(proj, r, "board.yaml", 3, "extends", "base spec 'notaspec.yaml' is not a spec",
                  holds)
    assert err.count("error: ") == 1  # one error naming the base, not eight missing keys


def test_extends_an_empty_file(proj):
    proj.write("empty.yaml", "# nothing\n")
    proj.write("board.yaml", "extends: empty.yaml\n")
    r = proj.run("board.yaml")
    assert r.rc == 2 and "empty.yaml:1: the spec is empty" in r.err


# --- quadratic checks ------------------------------------------------------------

def test_thousands_of_aliased_devices(proj):
    text = proj.spec.read_text().replace("    - name: simhelper\n",
                                         "    - &dev\n      name: simhelper\n", 1)
    text = text.replace("\nboot:\n", "\n" + "    - *dev\n" * 6000 + "\nboot:\n", 1)
    proj.spec.write_text(text)
    t = time.monotonic()
    r = proj.run()
    assert time.monotonic() - t < 10
    assert r.rc == 2 and "Traceback" not in r.err and len(r.err) < 50_000
    # each alias is one duplicate name and one overlap: linear, not one per pair
    assert "\n12000 errors in spec; nothing written." in r.err


def test_thousands_of_aliased_windows(proj):
    proj.edit("  fixmap_top: 0xFFFFF000\n", "  fixmap_top: 0xFFFFF000\n  windows:\n"
              "    - &w {name: kseg0, base: 0x80000000, size: 512M, kind: unmapped_cached}\n"
              + "    - *w\n" * 5000)
    t = time.monotonic()
    r = proj.run()
    assert time.monotonic() - t < 10
    assert r.rc == 2 and "window 'kseg0' overlaps 'kseg0'" in r.err and len(r.err) < 50_000


# --- names and bounds ------------------------------------------------------------

@pytest.mark.parametrize("name", ["mips", "x86", "x86_64", "i386", "sparc", "sparc64", "um",
                                  "riscv", "a" * 33, "a" * 200, "My-SoC", "9lives"])
def test_arch_name_rule(proj, name):
    proj.edit("  name: tsar\n", f"  name: {name}\n")
    r = proj.run()
    refused(proj, r, "spec.yaml", proj.line_of(f"  name: {name}"), "arch.name")


@pytest.mark.parametrize("name", ["mips", "x86", "x86_64", "parisc64", "a" * 200, "My-SoC"])
def test_new_refuses_what_arch_name_refuses(proj, name):
    before = sorted(p.relative_to(proj.path) for p in proj.path.rglob("*"))
    r = proj.run("--new", name, "--from", "spec.yaml")
    assert r.rc == 2 and "nothing written" in r.err and "Traceback" not in r.err
    assert sorted(p.relative_to(proj.path) for p in proj.path.rglob("*")) == before


def test_arch_name_of_32_characters_is_fine(proj):
    from generator.spec import load_spec
    proj.edit("  name: tsar\n", f"  name: {'t' * 32}\n")
    assert load_spec(proj.spec).data["arch"]["uts_machine"] == "tsar"


def test_uts_machine_fits_uname(proj):
    from generator.spec import load_spec
    proj.edit("  uts_machine: tsar", f"  uts_machine: {'m' * 64}")
    assert load_spec(proj.spec).data["arch"]["uts_machine"] == "m" * 64
    proj.edit(f"  uts_machine: {'m' * 64}", f"  uts_machine: {'m' * 65}")
    refused(proj, proj.run(), "spec.yaml", proj.line_of("  uts_machine: m"), "arch.uts_machine",
            "at most 64 characters", "found a string of 65 characters")


@pytest.mark.parametrize("key,value", [("fixmap_top", "0x100000000"),
                                       ("fixmap_top", "4294967296"),
                                       ("page_offset", "0x1C0000000")])
def test_virtual_addresses_are_32_bit(proj, key, value):
    old = {"fixmap_top": "0xFFFFF000", "page_offset": "0xC0000000"}[key]
    proj.edit(f"  {key}: {old}", f"  {key}: {value}")
    err = refused(proj, proj.run(), "spec.yaml", proj.line_of(f"  {key}: {value}"),
                  f"layout.{key}", "0..0xffffffff")
    assert err.count("error: ") == 1, err  # not also at the values derived from it


def test_derived_value_out_of_range_points_at_its_input(proj):
    proj.edit("  page_offset: 0xC0000000", "  page_offset: 0xFFFFF000")
    err = refused(proj, proj.run(), "spec.yaml", proj.line_of("page_offset: 0xFFFFF000"),
                  "layout.kernel_link_address", "0x100000000 (page_offset + kernel_phys_start "
                  "- phys_offset) is beyond the 32-bit virtual address space")
    assert "spec.yaml:1:" not in err and f"spec.yaml:{proj.line_of('layout:')}:" not in err


BIDI = ["\\u202e", "\\u2066", "\\u200b", "\\u2028", "\\u0085", "\\u061c", "\\ufeff"]


@pytest.mark.parametrize("char", BIDI)
@pytest.mark.parametrize("old,new,key", [
    ("  description: TSAR (LIP6) MIPS32-compatible many-core, CP2 hardware-walked MMU",
     '  description: "TSAR{c}fake"', "arch.description"),
    ("  model: UPMC/LIP6/SoC - TSAR monocluster (portkit)", '  model: "UPMC{c}x"', "platform.model"),
    ("  bootargs: console=ttyVTTY0 earlycon", '  bootargs: "console=x{c}"', "boot.bootargs"),
    ("    - {name: lo, user: true}", '    - {name: lo, user: true, doc: "lo{c}"}', "abi.frame[2].doc"),
    ("    present:    {bit: 31, hw: V, doc: valid}", '    present:    {bit: 31, hw: V, doc: "v{c}"}',
     "mmu.pte_bits.present.doc"),
    ("    - CONFIG_SYSVIPC=y", '    - "CONFIG_LOCALVERSION=\\"{c}\\""', "kernel.config[0]"),
])
def test_free_text_refuses_invisible_characters(proj, char, old, new, key):
    proj.edit(old, new.replace("{c}", char))
    line = proj.line_of(new.split("{c}")[0])
    refused(proj, proj.run(), "spec.yaml", line, key, "invisible formatting")


@pytest.mark.parametrize("char", BIDI[:3])
def test_layer_text_refuses_invisible_characters(proj, char):
    path = layer_yaml(proj, f'description: "layer{char}x"\n')
    refused(proj, proj.run(), "overrides/tsar/layer.yaml",
            proj.line_of('description: "layer', path), "description", "invisible formatting")


@pytest.mark.parametrize("char", BIDI[:3])
def test_string_properties_refuse_invisible_characters(proj, char):
    path = proj.path / "overrides/tsar/layer.yaml"
    path.write_text(path.read_text().replace("bindings:\n", "bindings:\n  soclib,vci_multi_tty:\n"
                                             "    properties:\n"
                                             "      label: {type: string, dts: label}\n", 1))
    proj.edit("      stdout: true", f'      stdout: true\n      properties: {{label: "a{char}b"}}')
    refused(proj, proj.run(), "spec.yaml", proj.line_of("properties: {label"),
            "platform.devices[1].properties.label", "invisible formatting")


def test_comment_text_cannot_close_the_comment(proj):
    proj.edit("    - {name: lo, user: true}", '    - {name: lo, user: true, doc: "x */ int y; /*"}')
    refused(proj, proj.run(), "spec.yaml", proj.line_of('doc: "x */'), "abi.frame[2].doc", "*/")
    proj.edit('doc: "x */ int y; /*"', 'doc: "uses $0 and \\"quotes\\""')
    assert proj.run().rc == 0


# --- messages at the right place --------------------------------------------------

@pytest.mark.parametrize("regs", ["[a0]", "[a0, a1]", "[a0, a1, a2]"])
def test_argument_register_count(proj, regs):
    proj.edit("arg_registers: [a0, a1, a2, a3]", f"arg_registers: {regs}")
    refused(proj, proj.run(), "spec.yaml", proj.line_of("arg_registers:"),
            "abi.syscall.arg_registers", "expected 4 to 6 item(s)",
            "system calls take up to 6 arguments")


def test_argument_register_count_of_the_family(proj):
    proj.edit("arg_registers: [a0, a1, a2, a3]", "arg_registers: [a0, a1, a2, a3, t0]")
    refused(proj, proj.run(), "spec.yaml", proj.line_of("arg_registers:"),
            "abi.syscall.arg_registers", "isa.family mips32 passes 4 syscall arguments in "
            "registers, found 5", "syscall_get_arguments()")


@pytest.mark.parametrize("key,value", [("defconfig", ".."), ("defconfig", "."),
                                       ("defconfig", ".hidden"), ("defconfig", "a" * 101),
                                       ("uts_machine", "..")])
def test_file_names_are_checked_in_the_spec(proj, key, value):
    old = {"defconfig": "tsar_defconfig", "uts_machine": "tsar"}[key]
    proj.edit(f"  {key}: {old}", f"  {key}: '{value}'")
    err = refused(proj, proj.run(), "spec.yaml", proj.line_of(f"  {key}: '"), f"arch.{key}")
    assert "templates/" not in err


# --- one output directory, several arches -------------------------------------------

def test_other_arch_keeps_a_killed_generations_journal(built):
    from test_gen_recovery import killed_run
    built.edit("  hz: 100", "  hz: 250")
    assert killed_run(built, 2) == -9          # journal written, one file replaced
    journal = built.outdir / ".portkit-journal.json"
    assert "tsar" in json.loads(journal.read_text())["arches"]
    other = make_project(built.path.parent / "other")
    other.edit("  name: tsar\n", "  name: tsar2\n")
    (other.path / "overrides/tsar").rename(other.path / "overrides/tsar2")
    r = other.run("spec.yaml", "-o", str(built.outdir))
    assert r.rc == 0, r.err
    assert set(json.loads(journal.read_text())["arches"]) == {"tsar"}   # kept, not dropped
    r = built.run()
    assert r.rc == 0, r.err                   # finished without --force, no drift
    assert not journal.exists()
    assert built.run("spec.yaml", "--check").rc == 0
    assert other.run("spec.yaml", "-o", str(built.outdir), "--check").rc == 0


def test_the_projects_specs_still_load():
    from gen_helpers import ROOT
    from generator.render import Project
    from generator.spec import load_spec
    specs = [ROOT / "arch-spec.yaml", *sorted((ROOT / "specs").glob("*.yaml")),
             *sorted((ROOT / "tests/specs").glob("*.yaml"))]
    for spec in specs:
        Project(ROOT, load_spec(spec))   # the layers load too


def test_generated_tree_of_the_project_is_unchanged():
    """The real spec still generates exactly the committed tree."""
    import subprocess
    import sys
    from gen_helpers import ROOT
    p = subprocess.run([sys.executable, str(ROOT / "generate.py"), "arch-spec.yaml", "--check"],
                       cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr
    assert os.path.isdir(ROOT / "generated/arch/tsar")
