"""A guest's BusyBox console shell driven from the host: the emulator's
stdin and stdout are the console; commands go one at a time, each followed
by an end marker with its status. The shell echoes what is typed, so the
typed marker is "@@end-$((n+1000))" and only the output reads
"@@end-<n+1000>". Used by the network tests and scripts/bench-net.py."""
import re
import subprocess
import threading
import time


def without_kernel_messages(out):
    """The console output without the kernel's log records, which can land
    in the middle of a program's line: the program's line is whole again."""
    return re.sub(r"\[\s*\d+\.\d+\] [^\n]*\n", "", out)


class ConsoleError(Exception):
    """The guest ended, or did not print what was waited for in time; the
    message ends with the tail of its output."""


class Console:
    def __init__(self, cmd, name="guest"):
        self.name = name
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        self.out, self.err = bytearray(), bytearray()
        self.lock = threading.Lock()
        self.count = 0
        for stream, buf in ((self.proc.stdout, self.out), (self.proc.stderr, self.err)):
            threading.Thread(target=self._read, args=(stream, buf), daemon=True).start()

    def _read(self, stream, buf):
        for chunk in iter(lambda: stream.read1(4096), b""):
            with self.lock:
                buf += chunk

    def text(self, start=0):
        """The console output from byte start, CRLF folded, without the
        kernel's log records."""
        with self.lock:
            data = bytes(self.out[start:])
        return without_kernel_messages(data.decode(errors="replace").replace("\r\n", "\n"))

    def tail(self):
        err = bytes(self.err).decode(errors="replace")
        return f"{self.text()[-4000:]}\n{err[-2000:]}"

    def wait(self, pattern, timeout, start=0, must=True):
        """The match of pattern in the output after start; None after
        timeout seconds when must is false."""
        deadline = time.monotonic() + timeout
        while True:
            m = re.search(pattern, self.text(start), re.M)
            if m:
                return m
            if self.proc.poll() is not None:
                raise ConsoleError(f"{self.name}: the emulator ended (status "
                                   f"{self.proc.returncode}) before {pattern!r}:\n{self.tail()}")
            if time.monotonic() > deadline:
                if not must:
                    return None
                raise ConsoleError(f"{self.name}: no {pattern!r} after {timeout} s:\n"
                                   f"{self.tail()}")
            time.sleep(0.1)

    def run(self, command, timeout=120, must=True):
        """Type a command; (status, its output) once its end marker came
        (None after timeout seconds when must is false)."""
        self.count += 1
        start = len(self.out)
        self.proc.stdin.write(f"{command}; echo \"@@end-$(({self.count}+1000)) $?\"\n".encode())
        self.proc.stdin.flush()
        m = self.wait(rf"^@@end-{self.count + 1000} (\d+)$", timeout, start, must)
        return m and (int(m.group(1)), self.text(start))

    def ready(self, timeout=120):
        """Wait for the console shell: what is typed before it reads its
        terminal may be lost, so a probe goes again every 10 s."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.run("true", timeout=10, must=False):
                return
        raise ConsoleError(f"{self.name}: the console shell did not answer in {timeout} s:\n"
                           f"{self.tail()}")

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
