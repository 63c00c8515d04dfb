#!/bin/sh
# Turn an unpacked musl 1.2.3 source tree into one with a "tsar" target.
#
# Usage: apply.sh TREE
#
# TSAR runs MIPS o32 code on the asm-generic system call ABI, so the port
# is assembled from three places:
#  - musl's own mips target for what the o32 convention and the MIPS ISA
#    decide (ll/sc atomics, start code, relocations, setjmp/longjmp,
#    sigsetjmp, fenv, crti/crtn, float.h, setjmp.h, ptrace.h, dlsym and
#    __dlsym_time64: <dlfcn.h> renames dlsym to the latter, as every
#    time64 name, and only the arch directories define it);
#  - musl's or1k target, a 32-bit asm-generic one, for the structure
#    layouts asm-generic fixes (stat, IPC structures, time64);
#  - this directory: what is TSAR's own (signal context, thread pointer,
#    clone/syscall_cp/__unmapself on asm-generic numbers, kernel
#    sigaction without a restorer) and patches/ (wait4 and fstatat
#    through waitid and statx: the ABI has neither call).
# gen-syscall.py then adds the generated files (syscall numbers from the
# UAPI headers, the system call convention from the spec).
set -eu

[ $# -eq 1 ] || { echo "usage: $0 TREE" >&2; exit 2; }
tree=$1
port=$(cd "$(dirname "$0")" && pwd)
[ -f "$tree/arch/mips/atomic_arch.h" ] && [ -f "$tree/arch/or1k/bits/stat.h" ] ||
	{ echo "apply.sh: $tree is not a musl source tree" >&2; exit 2; }
grep -qx '1.2.3' "$tree/VERSION" ||
	{ echo "apply.sh: $tree is musl $(cat "$tree/VERSION"), the port is for 1.2.3" >&2; exit 2; }

a=$tree/arch/tsar
mkdir -p "$a/bits"
for f in atomic_arch.h crt_arch.h reloc.h bits/float.h bits/setjmp.h \
	 bits/fenv.h bits/hwcap.h bits/ptrace.h; do
	cp "$tree/arch/mips/$f" "$a/$f"
done
for f in stat.h msg.h sem.h shm.h ipcstat.h; do
	cp "$tree/arch/or1k/bits/$f" "$a/bits/$f"
done
for d in src/setjmp src/signal src/fenv src/ldso crt; do
	mkdir -p "$tree/$d/tsar"
done
cp "$tree/src/setjmp/mips/setjmp.S" "$tree/src/setjmp/mips/longjmp.S" "$tree/src/setjmp/tsar/"
cp "$tree/src/signal/mips/sigsetjmp.s" "$tree/src/signal/tsar/"
cp "$tree/src/fenv/mips/fenv.S" "$tree/src/fenv/mips/fenv-sf.c" "$tree/src/fenv/tsar/"
cp "$tree/crt/mips/crti.s" "$tree/crt/mips/crtn.s" "$tree/crt/tsar/"
cp "$tree/src/ldso/mips/dlsym.s" "$tree/src/ldso/mips/dlsym_time64.S" "$tree/src/ldso/tsar/"

# TSAR's own files (over the copies above where both exist).
(cd "$port" && find arch src -type f) | while read -r f; do
	mkdir -p "$tree/$(dirname "$f")"
	cp "$port/$f" "$tree/$f"
done

for p in "$port"/patches/*.patch; do
	patch -s -p1 -d "$tree" < "$p"
done
