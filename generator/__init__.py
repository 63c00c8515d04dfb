"""portkit's generator: arch-spec.yaml + templates/ + overrides/ -> arch/<name>/.

Modules
  spec      load the YAML with line numbers, walk the schema, normalize
  schema    the declarative spec schema (types, defaults, ranges, docs)
  checks    cross-field consistency rules, one function each
  derive    every value computed from the spec: spec keys that follow from
            others (SPEC_VALUES) and the ``derived`` template variable
  filters   Jinja filters and helper functions
  headers   the "generated, do not edit" header and its placement
  render    templates + override layers -> files in memory (build files last)
  layers    layer.yaml, the spec/layer contract, responsibilities and stubs
            (the contract's data: contract.yaml)
  bindings  device properties: the layers' bindings checked against the spec
  makefrag  --make-fragment: the spec's values the Makefile uses
  hwdesc    --hwdesc: the board's hardware description for C/assembler and its
            DTB as data (the emulator's build; hook in generate.py)
  reference --spec-reference: docs/spec-reference.md
  status    --status: the porting report
  scaffold  --new: a spec delta and an empty arch layer
  output    manifest, drift detection, atomic writes, --check/--diff
  cli       the generate.py command line

Template context (Jinja globals)
  spec              the whole normalized spec (dict)
  arch isa abi mmu layout platform boot kernel   its top-level sections
  derived           computed values (see generator/derive.py)
  dts_properties(dev)  a device's device-tree property lines (its bindings)
  spec_path         the spec file, relative to the project root
  parent_template   what the next lower layer (or templates/) provides at this
                    path, for {% extends parent_template %} (None if nothing)
  arch_files has() objs() subdirs() generic_y() obj_config()   in Makefile/Kbuild only:
                    the merged file set (see generator/render.py)
  responsibility    in templates/_stubs only: the title being stubbed
  portkit_version   generator version
  output_path       this file's path, e.g. arch/<name>/include/asm/page.h
  source_path       this file's template/override, e.g. templates/Makefile.j2
  generated_header()  the header comment (without newline); a template that
                    prints it chooses its place, otherwise it is inserted
                    automatically (after a #! line and the SPDX line)
  bit() bits() mask() field_mask() align_up() align_down() log2()  as below

Filters
  hex(width=8)      0x%0*x, lowercase: {{ 4096|hex }} 0x00001000, hex(0) 0x1000
  hexu(width=8)     same, uppercase digits: 0xC0000000
  log2              exact log2; error unless a power of two
  c_ident           any string -> C identifier (non-alnum -> _)
  c_macro           c_ident, uppercased
  upper             (Jinja builtin) uppercase
  bit               1 << n
  bits              mask of a list of bit numbers: [31, 30] -> 0xc0000000
  mask(lsb=0)       width -> ((1 << width) - 1) << lsb
  field_mask        {lsb, width} mapping -> its mask
  bit_list          integer -> list of set bit numbers
  align_up(a) align_down(a)  round to a multiple of a
  human_size        4096 -> 4K, 2097152 -> 2M
  sz                268435456 -> SZ_256M (linux/sizes.h name)
  cells(n=1)        number -> n device-tree cells: "0x0 0x10000000"
  c_string          quoted, escaped C/dts string literal
  tab_to(col=24)    pad with tabs so the next text starts at column col
  kconfig_bool      true/false -> y/n
  c_bool            true/false -> 1/0
Tests
  power_of_two      {% if x is power_of_two %}

Messages (stderr) and exit codes
  2  error: SPEC:LINE: KEY.PATH: what is wrong (expected ..., found ...)
         why: / hint: / fix: continuation lines (indented)
     N errors in spec; nothing written.
  2  error: templates/x.h.j2:LINE: undefined: 'foo' is undefined
     (also "syntax error: ...", "template not found: ...", filter messages)
  3  error: files under OUTDIR/arch/NAME were changed by hand; ... one line per
     file "OUTDIR/arch/NAME/P: edited by hand; move the change into
     overrides/NAME/P" (or "added by hand (not produced by portkit)")
  1  --check / --diff: the output is out of date
"""

__version__ = "0.1.0"
