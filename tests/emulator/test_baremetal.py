"""Tests of the TSAR emulator (tsar-emu): bare-metal programs and the CLI.

Each program in emulator/tests/baremetal/t_*.{c,S} checks its own results and
reports through the simhelper exit status (0 = pass, N = failing check N).
The CLI tests cover bad inputs (exit 126), limits (124/125), -append,
-serial, TTY input, tracing and the GDB stub.

Run: /usr/bin/python3 -m pytest tests/emulator   (TSAR_BUILD overrides ../build)
"""
import os
import re
import shutil
import socket
import struct
import subprocess
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
EMU_DIR = REPO / "emulator"
BUILD = Path(os.environ.get("TSAR_BUILD", REPO / "build")).resolve()
EMU = BUILD / "bin" / "tsar-emu"
TESTS = BUILD / "emulator" / "tests"
SRC = EMU_DIR / "tests" / "baremetal"

RUN_TIMEOUT = 30  # seconds, per emulator run (they take milliseconds)


@pytest.fixture(scope="session", autouse=True)
def build():
    """Build the emulator and the bare-metal programs once per session."""
    for target in ([], ["tests"]):
        r = subprocess.run(["make", "-s", "-C", str(EMU_DIR), f"BUILD={BUILD}"] + target,
                           capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, f"make {target} failed:\n{r.stdout}\n{r.stderr}"
    assert EMU.exists()


def run(args, stdin=b"", timeout=RUN_TIMEOUT, **kw):
    """Run tsar-emu; returns CompletedProcess with bytes stdout/stderr."""
    return subprocess.run([str(EMU)] + [str(a) for a in args], input=stdin,
                          capture_output=True, timeout=timeout, **kw)


def elf(name):
    return TESTS / f"{name}.elf"


def make_disk(path):
    """8 blocks; byte i of block b = (b*31+i) & 0xFF; block 5 = {jr ra; li v0,0x55}."""
    data = bytearray()
    for b in range(8):
        blk = bytearray(((b * 31 + i) & 0xFF) for i in range(512))
        if b == 5:
            blk[0:8] = struct.pack("<II", 0x03E00008, 0x24020055)
        data += blk
    path.write_bytes(bytes(data))
    return path


def t_blockdev_wrote_block_3(data, original):
    assert len(data) == 8 * 512
    assert data[3 * 512:4 * 512] == bytes((i ^ 0xA5) & 0xFF for i in range(512))
    assert data[2 * 512:3 * 512] == original[2 * 512:3 * 512]


def image_unchanged(data, original):
    assert data == original


# name -> expectations.  Every t_* program must be listed here.
PROGRAMS = {
    "t_hello": dict(stdout=b"hello from tsar\n"),
    "t_cp0": {},
    "t_pmu": {},
    "t_alu": {},
    "t_branch": {},
    "t_loadstore": {},
    "t_memgroup": dict(stdout=b"memgroup checksum 0xac69ae0b\n"),
    "t_select": dict(stdout=b"select checksum 0x6a116da7 irqs 3477 in loop 3475 "
                            b"d1 599 d2 456 d3 1331 d4 745\n"),
    "t_exc": {},
    "t_user": {},
    "t_cp2": {},
    "t_mmu": {},
    "t_smc": {},
    "t_calls": {},
    "t_block": {},
    "t_irq_ds": {},
    "t_diei": {},
    "t_xicu": dict(max_wall=5.0),  # a 10 s guest-time timer: `wait` skips it
    "t_perf": dict(stdout=b"perf checksum 0x0623b422\n"),
    "t_tty_echo": dict(stdin=b"hel\rlo\nworld q", stdout=b"line: HELLO\nirq: world q\n"),
    "t_blockdev": dict(disk=t_blockdev_wrote_block_3),
    "t_blockdev_faults": dict(disk=image_unchanged,
                              args=["-disk-ro", "-disk-error", "2-3"]),
    "t_blockdev_kill": dict(own_test="test_completed_disk_write_survives_a_kill"),
    # the NIC on the default network (-net user,restrict=on); more in test_nic.py
    "t_nic": dict(stdout=b"link=1 arp and icmp echo ok\n"),
    "t_nic_flood": dict(own_test="test_nic.py: test_floods_are_bounded"),
    "t_dtb": dict(stdout_has=b"bootargs=[console=ttyVTTY0]"),
    "t_sim_retval": dict(rc=42),
    "t_sim_stop": dict(stdout=b"stopping\n"),
    "t_sim_except": dict(rc=127, stderr_has=b"EXCEPT_WITH_VAL 0x00000bad"),
    "t_hang": dict(rc=124, stderr_has=b"guest hang"),
    "t_loop": dict(rc=125, args=["-icount-limit", "200000"],
                   stderr_has=b"instruction limit reached (200000 instructions"),
    # a stub or a spin with interrupts masked ends the run at once, not at -timeout 20
    "t_stub": dict(rc=123, stdout=b"reaching a stub\n", max_wall=5,
                   stderr_re=rb"cpu0 stopped in a porting stub at 0x[0-9a-f]{8} "
                             rb"<portkit_stub_demo\+0x[0-9a-f]+> after \d+ instructions: "
                             rb"portkit stub: demo is not ported to t_stub\n"),
    "t_spin": dict(rc=124, stdout=b"spinning\n", max_wall=5,
                   stderr_re=rb"guest hang: every CPU spins with interrupts masked "
                             rb"\(cpu0 at 0x[0-9a-f]{8} <main\+0x[0-9a-f]+>"),
    "t_spin_ie": dict(rc=125, args=["-icount-limit", "300000"],
                      stderr_has=b"instruction limit reached (300000 instructions"),
}


def test_every_program_is_listed():
    # the multi-CPU programs (t_smp_*, t_mc_*) are run by test_smp.py and
    # test_multicluster.py
    names = {p.stem for p in SRC.glob("t_*.[cS]") if not p.stem.startswith(("t_smp_", "t_mc_"))}
    assert names == set(PROGRAMS), "update PROGRAMS in test_baremetal.py"


@pytest.mark.parametrize("name", sorted(n for n in PROGRAMS if "own_test" not in PROGRAMS[n]))
def test_program(name, tmp_path):
    exp = PROGRAMS[name]
    args = list(exp.get("args", [])) + ["-timeout", "20"]
    disk = None
    if exp.get("disk"):
        disk = make_disk(tmp_path / "disk.img")
        original = disk.read_bytes()
        args += ["-disk", disk]
    t0 = time.monotonic()
    r = run(args + [elf(name)], stdin=exp.get("stdin", b""))
    wall = time.monotonic() - t0
    msg = f"{name}: rc={r.returncode}\nstdout={r.stdout!r}\nstderr={r.stderr!r}"
    assert r.returncode == exp.get("rc", 0), msg
    if "stdout" in exp:
        assert r.stdout == exp["stdout"], msg
    if "stdout_has" in exp:
        assert exp["stdout_has"] in r.stdout, msg
    if "stderr_has" in exp:
        assert exp["stderr_has"] in r.stderr, msg
    if "stderr_re" in exp:
        assert re.search(exp["stderr_re"], r.stderr), msg
    if "max_wall" in exp:
        assert wall < exp["max_wall"], f"{name} took {wall:.2f} s"
    if disk is not None:
        exp["disk"](disk.read_bytes(), original)


def test_completed_disk_write_survives_a_kill(tmp_path):
    # The guest saw WRITE_SUCCESS, then the emulator dies without any
    # chance to flush: the block is in the image (written through).
    disk = make_disk(tmp_path / "disk.img")
    original = disk.read_bytes()
    p = subprocess.Popen([str(EMU), "-disk", str(disk), "-timeout", "20",
                          str(elf("t_blockdev_kill"))], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    try:
        assert p.stdout.readline() == b"written\n"
    finally:
        p.kill()
        p.wait(timeout=10)
    assert p.returncode == -9
    data = disk.read_bytes()
    assert data[512:1024] == bytes((i ^ 0x3C) & 0xFF for i in range(512))
    assert data[:512] == original[:512] and data[1024:] == original[1024:]


# --------------------------------------------------------------- CLI: bad inputs

def expect_126(r, *needles):
    err = r.stderr.decode(errors="replace")
    assert r.returncode == 126, f"rc={r.returncode} stderr={err}"
    for n in needles:
        assert str(n) in err, f"{n!r} not in {err!r}"
    assert "Segmentation" not in err and "core dumped" not in err
    assert err.count("\n") >= 1


def test_missing_elf(tmp_path):
    p = tmp_path / "nope.elf"
    expect_126(run(["-kernel", p]), p, "cannot open")


def test_not_an_elf(tmp_path):
    p = tmp_path / "text.elf"
    p.write_text("hello, world\n" * 10)
    expect_126(run([p]), p, "not an ELF")


def test_truncated_elf(tmp_path):
    p = tmp_path / "trunc.elf"
    p.write_bytes(elf("t_hello").read_bytes()[:2000])
    expect_126(run([p]), p, "truncated")
    p.write_bytes(elf("t_hello").read_bytes()[:30])
    expect_126(run([p]), p, "truncated")


def patched_elf(tmp_path, name, offset, data):
    b = bytearray(elf("t_hello").read_bytes())
    b[offset:offset + len(data)] = data
    p = tmp_path / name
    p.write_bytes(bytes(b))
    return p


def test_wrong_machine(tmp_path):
    p = patched_elf(tmp_path, "x86.elf", 18, struct.pack("<H", 3))  # EM_386
    expect_126(run([p]), p, "wrong ELF machine")


def test_wrong_class(tmp_path):
    p = patched_elf(tmp_path, "c64.elf", 4, b"\x02")
    expect_126(run([p]), p, "32-bit")
    host = Path("/bin/true").resolve()
    expect_126(run([host]), host, "32-bit")


def test_wrong_endianness(tmp_path):
    p = patched_elf(tmp_path, "be.elf", 5, b"\x02")
    expect_126(run([p]), p, "little-endian")


def test_segment_outside_ram(tmp_path):
    # move the second PT_LOAD's p_paddr (phdr 1) to 0x30000000
    b = elf("t_hello").read_bytes()
    phoff = struct.unpack_from("<I", b, 28)[0]
    p = patched_elf(tmp_path, "far.elf", phoff + 32 + 12, struct.pack("<I", 0x30000000))
    expect_126(run([p]), p, "not inside a RAM bank")


def test_bad_dtb(tmp_path):
    p = tmp_path / "junk.dtb"
    p.write_bytes(os.urandom(64))
    expect_126(run(["-dtb", p, elf("t_hello")]), p, "device tree")
    expect_126(run(["-dtb", tmp_path / "missing.dtb", elf("t_hello")]), "missing.dtb")


def compile_dts(tmp_path, text, name="p.dtb"):
    if not shutil.which("dtc"):
        pytest.skip("dtc not installed")
    src = tmp_path / (name + ".dts")
    src.write_text(text)
    out = tmp_path / name
    subprocess.run(["dtc", "-q", "-I", "dts", "-O", "dtb", "-o", str(out), str(src)],
                   check=True)
    return out


def test_truncated_dtb(tmp_path):
    good = compile_dts(tmp_path, CUSTOM_DTS)
    p = tmp_path / "cut.dtb"
    p.write_bytes(good.read_bytes()[:100])
    expect_126(run(["-dtb", p, elf("t_hello")]), p, "truncated")


def test_dtb_property_length_overflow_is_rejected_quickly(tmp_path):
    # A property length near 2^32 made libfdt 1.6.1's fdt_check_full()
    # loop forever (found by the DTB fuzzer); it must be a clean error.
    good = compile_dts(tmp_path, CUSTOM_DTS).read_bytes()
    off_struct = struct.unpack(">I", good[8:12])[0]
    blob = bytearray(good)
    i = off_struct
    while struct.unpack(">I", blob[i:i + 4])[0] != 3:      # first FDT_PROP
        i += 4
    blob[i + 4:i + 8] = struct.pack(">I", 0xFFFFFFF8)
    p = tmp_path / "overflow.dtb"
    p.write_bytes(bytes(blob))
    t0 = time.monotonic()
    expect_126(run(["-dtb", p, elf("t_hello")], timeout=20), p, "malformed")
    assert time.monotonic() - t0 < 10


def test_dtb_without_memory(tmp_path):
    p = compile_dts(tmp_path, "/dts-v1/;\n/ { #address-cells = <1>; #size-cells = <1>; };\n")
    expect_126(run(["-dtb", p, elf("t_hello")]), p, "no RAM")


def test_bad_disk(tmp_path):
    missing = tmp_path / "nodisk.img"
    expect_126(run(["-disk", missing, elf("t_hello")]), missing, "cannot open")
    short = tmp_path / "short.img"
    short.write_bytes(b"\0" * 1000)
    expect_126(run(["-disk", short, elf("t_hello")]), short, "multiple of 512")
    empty = tmp_path / "empty.img"
    empty.write_bytes(b"")
    expect_126(run(["-disk", empty, elf("t_hello")]), empty)
    d = tmp_path / "dir.img"
    d.mkdir()
    expect_126(run(["-disk", d, elf("t_hello")]), d)
    # SIZE and LBA are 32-bit block numbers: 2 TiB is one block too many
    # (a sparse file: nothing is written)
    huge = tmp_path / "huge.img"
    with open(huge, "wb") as f:
        f.truncate(512 << 32)
    expect_126(run(["-disk", huge, elf("t_hello")]), huge, "larger than the block device")


@pytest.mark.parametrize("args,needle", [
    (["-disk-ro"], "-disk-ro needs a disk image"),
    (["-disk-error", "1-2"], "-disk-error needs a disk image"),
    (["-disk", "DISK", "-disk-error", "5"], "expected a block range FIRST-LAST, got '5'"),
    (["-disk", "DISK", "-disk-error", "9-3"], "expected a block range"),
    (["-disk", "DISK", "-disk-error", "x-3"], "expected a block range"),
    (["-disk", "DISK", "ELF", "-disk-error"], "needs an argument"),
])
def test_bad_disk_options(tmp_path, args, needle):
    disk = make_disk(tmp_path / "disk.img")
    args = [disk if a == "DISK" else elf("t_hello") if a == "ELF" else a for a in args]
    if "ELF" not in [str(a) for a in args] and elf("t_hello") not in args:
        args.append(elf("t_hello"))
    expect_126(run(args), needle)


def test_disk_ro_opens_a_read_only_image(tmp_path):
    # -disk-ro needs no write permission on the file
    disk = make_disk(tmp_path / "disk.img")
    original = disk.read_bytes()
    disk.chmod(0o444)
    r = run(["-disk", disk, "-disk-ro", "-disk-error", "2-3", "-timeout", "20",
             elf("t_blockdev_faults")])
    assert r.returncode == 0, r.stderr
    assert disk.read_bytes() == original


@pytest.mark.parametrize("args,needle", [
    (["-bogus"], "unknown option"),
    (["-kernel"], "needs an argument"),
    ([], "no ELF image"),
    (["-serial", "tcp:1", "X"], "-serial"),
    (["-d", "everything", "X"], "unknown trace item"),
    (["-icount-limit", "lots", "X"], "bad instruction count"),
    (["-timeout", "-3", "X"], "bad number of seconds"),
    (["-S", "X"], "-S needs"),
])
def test_bad_options(args, needle):
    args = [str(elf("t_hello")) if a == "X" else a for a in args]
    expect_126(run(args), needle)


# --------------------------------------------------------------- CLI: limits

def test_timeout():
    t0 = time.monotonic()
    r = run(["-timeout", "0.5", elf("t_loop")])
    wall = time.monotonic() - t0
    assert r.returncode == 124, r.stderr
    assert b"timeout after 0.5 s (" in r.stderr
    assert r.stdout == b"looping\n"
    assert wall < 5


def test_icount_limit_exact():
    r = run(["-icount-limit", "12345", "-v", elf("t_loop")])
    assert r.returncode == 125
    assert b"(12345 instructions" in r.stderr


def test_verbose_summary():
    r = run(["-v", elf("t_hello")])
    assert r.returncode == 0
    assert b"guest exit status 0 after" in r.stderr and b"MIPS" in r.stderr
    assert b"platform: ram@0x0+0x10000000 xicu@0x10000000" in r.stderr
    r = run([elf("t_hello")])
    assert r.stderr == b""  # quiet on a clean guest exit without -v


def test_deterministic():
    a = run(["-v", elf("t_xicu")])
    b = run(["-v", elf("t_xicu")])
    count = lambda r: r.stderr.split(b"after ")[1].split(b" ")[0]
    assert a.returncode == b.returncode == 0
    assert count(a) == count(b)


# --------------------------------------------------------------- CLI: platform / boot

def test_append_reaches_guest():
    r = run(["-append", "root=/dev/ioc0 quiet x=\"1 2\"", elf("t_dtb")])
    assert r.returncode == 0, r.stdout
    assert b'bootargs=[root=/dev/ioc0 quiet x="1 2"]' in r.stdout


CUSTOM_DTS = """/dts-v1/;
/ {
    #address-cells = <1>;
    #size-cells = <1>;
    model = "custom board";
    chosen { bootargs = "from-dtb"; };
    cpus {
        #address-cells = <1>;
        #size-cells = <0>;
        cpu@0 { device_type = "cpu"; compatible = "soclib,mips32el"; reg = <0>;
                clocks = <&clk>; };
    };
    clk: clock { compatible = "fixed-clock"; #clock-cells = <0>;
                 clock-frequency = <50000000>; };
    memory@0 { device_type = "memory"; reg = <0x0 0x10000000>; };
    bus {
        compatible = "simple-bus";
        #address-cells = <1>;
        #size-cells = <1>;
        ranges = <0x0 0x10000000 0x10000000>;
        xicu: xicu@0 { compatible = "soclib,vci_xicu"; reg = <0x0 0x1000>;
                       interrupt-controller; #interrupt-cells = <1>; };
        tty@4000000 { compatible = "soclib,vci_multi_tty"; reg = <0x4000000 0x10>;
                      interrupts = <0>; interrupt-parent = <&xicu>; };
        sim@f000000 { compatible = "soclib,vci_simhelper"; reg = <0xf000000 0x1000>; };
        disabled@c000000 { compatible = "tsar,vci_block_device"; reg = <0xc000000 0x40>;
                           status = "disabled"; };
    };
};
"""


def test_custom_dtb(tmp_path):
    """1/1 cells, a simple-bus with a translating 'ranges', clock via phandle."""
    dtb = compile_dts(tmp_path, CUSTOM_DTS)
    r = run(["-v", "-dtb", dtb, elf("t_dtb")])
    assert r.returncode == 0, r.stdout + r.stderr
    assert b"model=[custom board]" in r.stdout
    assert b"bootargs=[from-dtb]" in r.stdout
    assert (b"platform: ram@0x0+0x10000000 xicu@0x10000000+0x1000 "
            b"tty@0x14000000+0x10/hwi0 simhelper@0x1f000000+0x1000 clock=50000000Hz") \
        in r.stderr
    r = run(["-dtb", dtb, "-append", "over", elf("t_dtb")])
    assert b"bootargs=[over]" in r.stdout
    # no block device in this platform: -disk is refused
    img = make_disk(tmp_path / "d.img")
    expect_126(run(["-dtb", dtb, "-disk", img, elf("t_dtb")]), "no block device")


def test_dtb_two_cpus(tmp_path):
    """Both CPUs run (no warning); the secondary parks in crt0, CPU 0 runs the test."""
    dts = CUSTOM_DTS.replace("""                clocks = <&clk>; };
    };""", """                clocks = <&clk>; };
        cpu@1 { device_type = "cpu"; compatible = "soclib,mips32el"; reg = <1>; };
    };""")
    dtb = compile_dts(tmp_path, dts)
    r = run(["-dtb", dtb, "-v", elf("t_hello")])
    assert r.returncode == 0 and r.stdout == b"hello from tsar\n"
    assert b"only CPU 0" not in r.stderr and b"cpus=2" in r.stderr


def test_dtb_two_cell_memory(tmp_path):
    dts = CUSTOM_DTS.replace("#address-cells = <1>;\n    #size-cells = <1>;\n    model",
                             "#address-cells = <2>;\n    #size-cells = <1>;\n    model")
    dts = dts.replace("reg = <0x0 0x10000000>; };", "reg = <0x0 0x0 0x10000000>; };")
    dts = dts.replace("ranges = <0x0 0x10000000 0x10000000>;",
                      "ranges = <0x0 0x0 0x10000000 0x10000000>;")
    dtb = compile_dts(tmp_path, dts)
    r = run(["-dtb", dtb, elf("t_hello")])
    assert r.returncode == 0 and r.stdout == b"hello from tsar\n", r.stderr


# --------------------------------------------------------------- CLI: serial, tracing

def test_serial_file(tmp_path):
    out = tmp_path / "serial.txt"
    r = run(["-serial", f"file:{out}", elf("t_hello")])
    assert r.returncode == 0
    assert r.stdout == b""
    assert out.read_bytes() == b"hello from tsar\n"


def test_serial_none():
    r = run(["-serial", "none", elf("t_hello")])
    assert r.returncode == 0 and r.stdout == b""


def test_tty_input_from_stdin():
    r = run([elf("t_tty_echo")], stdin=b"abc\nxyzq")
    assert r.returncode == 0
    assert r.stdout == b"line: ABC\nirq: xyzq\n"


def test_trace_to_file(tmp_path):
    log = tmp_path / "trace.log"
    r = run(["-d", "in_asm,exec,int,dev", "-D", log, elf("t_sim_retval")])
    assert r.returncode == 42
    text = log.read_text()
    assert "0x00010000:  ac011004  sw      at,4100(zero)" in text  # first instruction
    assert "exec: pc=0x00010000" in text
    assert "(delay slot)" in text
    assert "dev: read  simhelper" in text
    assert "dev: write simhelper" in text
    log2 = tmp_path / "exc.log"
    r = run(["-d", "int,mmu", "-D", log2, elf("t_mmu")])
    assert r.returncode == 0
    text = log2.read_text()
    assert "int: DBE (7)" in text and "DETR=0x1001" in text
    assert "int: IBE (6)" in text and "IETR=0x1010" in text
    assert "mmu: walk va=0x40000014 R -> pa=" in text
    assert "mmu: fault va=0x50000000 R DETR=0x1001" in text
    assert "int: eret ->" in text


def test_trace_off_is_quiet(tmp_path):
    r = run([elf("t_mmu")])
    assert r.returncode == 0 and r.stderr == b""


# --------------------------------------------------------------- GDB stub

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def connect(port, timeout=10):
    t0 = time.monotonic()
    while True:
        try:
            return socket.create_connection(("127.0.0.1", port), timeout=timeout)
        except OSError:
            if time.monotonic() - t0 > timeout:
                raise
            time.sleep(0.05)


class Rsp:
    """Minimal GDB remote-protocol client."""

    def __init__(self, sock):
        self.s = sock
        self.buf = b""

    def send(self, data):
        cs = sum(data.encode()) & 0xFF
        self.s.sendall(b"$" + data.encode() + b"#%02x" % cs)

    def recv(self):
        while True:
            start = self.buf.find(b"$")
            end = self.buf.find(b"#", start)
            if start >= 0 and end >= 0 and len(self.buf) >= end + 3:
                pkt = self.buf[start + 1:end]
                self.buf = self.buf[end + 3:]
                self.s.sendall(b"+")
                return pkt.decode()
            chunk = self.s.recv(4096)
            if not chunk:
                raise EOFError
            self.buf += chunk

    def cmd(self, data):
        self.send(data)
        return self.recv()


def test_gdb_protocol_attach_interrupt_kill():
    port = free_port()
    p = subprocess.Popen([str(EMU), "-gdb", f"tcp::{port}", "-timeout", "20", str(elf("t_loop"))],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        g = Rsp(connect(port))
        assert g.cmd("?") == "S05"          # attached to the running guest: it stopped
        regs = g.cmd("g")
        assert len(regs) == 72 * 8
        pc = int.from_bytes(bytes.fromhex(regs[37 * 8:38 * 8]), "little")
        assert pc == int.from_bytes(bytes.fromhex(g.cmd("p25")), "little")
        assert 0x10000 <= pc < 0x20000
        assert g.cmd("m10000,4") == "041001ac"   # sw at,4100(zero), little-endian
        g.send("c")
        time.sleep(0.3)
        g.s.sendall(b"\x03")
        assert g.recv() == "S02"
        assert g.cmd("Pa=78563412") == "OK"     # t2 := 0x12345678
        assert g.cmd("pa") == "78563412"
        assert g.cmd("M20000,4:deadbeef") == "OK"
        assert g.cmd("m20000,4") == "deadbeef"
        assert g.cmd("mf0000000,4").startswith("E")  # unmapped
        g.send("k")
        out, err = p.communicate(timeout=10)
        assert p.returncode == 0, err
        assert b"killed by the debugger" in err
        assert out == b"looping\n"
    finally:
        p.kill()
        p.wait()


@pytest.mark.skipif(not shutil.which("gdb-multiarch"), reason="gdb-multiarch not installed")
def test_gdb_multiarch_session():
    port = free_port()
    p = subprocess.Popen([str(EMU), "-gdb", f"tcp::{port}", "-S", "-timeout", "30",
                          str(elf("t_branch"))], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        time.sleep(0.3)  # let it listen (gdb retries a refused connection poorly)
        g = subprocess.run(
            ["gdb-multiarch", "-nx", "-q", "-batch", str(elf("t_branch")),
             "-ex", "set architecture mips:isa32", "-ex", "set endian little",
             "-ex", f"target remote 127.0.0.1:{port}",
             "-ex", "info registers pc sr",
             "-ex", "break main", "-ex", "continue",
             "-ex", "stepi", "-ex", "stepi", "-ex", "p/x $pc",
             "-ex", "p/x $a1", "-ex", "x/2xw 0x10000",
             "-ex", "delete", "-ex", "continue"],
            capture_output=True, text=True, timeout=60)
        out = g.stdout + g.stderr
        assert "pc: 0x10000" in out, out       # reset PC = ELF entry
        assert "sr: 0x400004" in out, out      # Status = BEV | ERL
        assert "Breakpoint 1, main ()" in out, out
        assert "$1 = 0x11008" in out, out       # main + 2 instructions
        assert "$2 = 0xffff000" in out, out     # a1 = DTB address (boot protocol)
        assert "0xac011004" in out, out
        assert "exited normally" in out, out
        p.wait(timeout=10)
        assert p.returncode == 0
    finally:
        p.kill()
        p.wait()


def test_gdb_wait_times_out():
    port = free_port()
    r = run(["-gdb", f"tcp::{port}", "-S", "-timeout", "0.3", elf("t_hello")])
    assert r.returncode == 124
    assert b"waiting for gdb" in r.stderr
    r = run(["-gdb", "tcp::notaport", elf("t_hello")])
    expect_126(r, "bad port")


def _pty_run(args, keys, timeout=10):
    """Run tsar-emu on a pseudo-terminal, type `keys` (list of (delay, bytes))."""
    import pty
    import termios
    master, slave = pty.openpty()
    before = termios.tcgetattr(slave)
    p = subprocess.Popen([str(EMU)] + [str(a) for a in args], stdin=slave, stdout=slave,
                         stderr=subprocess.PIPE)
    out = b""
    try:
        for delay, data in keys:
            time.sleep(delay)
            os.write(master, data)
        t0 = time.monotonic()
        while p.poll() is None and time.monotonic() - t0 < timeout:
            time.sleep(0.05)
        os.set_blocking(master, False)
        try:
            while True:
                chunk = os.read(master, 4096)
                if not chunk:
                    break
                out += chunk
        except (BlockingIOError, OSError):
            pass
        after = termios.tcgetattr(slave)
        err = p.stderr.read()
    finally:
        p.kill()
        p.wait()
        os.close(master)
        os.close(slave)
    return p.returncode, out, err, before, after


def test_terminal_raw_mode_and_restore():
    # Enter (\r) reaches the guest as \n (ICRNL kept); the guest's echo comes back
    rc, out, err, before, after = _pty_run([elf("t_tty_echo")],
                                           [(0.3, b"ab\r"), (0.2, b"xq")])
    assert rc == 0, (out, err)
    assert b"line: AB" in out and b"irq: xq" in out
    assert before == after  # terminal settings restored


def test_terminal_ctrl_a_x_quits():
    rc, out, err, before, after = _pty_run(["-timeout", "20", elf("t_loop")],
                                           [(0.3, b"\x01x")])
    assert rc == 0
    assert b"terminated by the user (Ctrl-A x)" in err
    assert before == after
