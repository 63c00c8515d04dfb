#!/bin/sh
# Fetch Debian 12's source packages portkit's userland is built from
# (apt-get source), unpacked once into build/src/<package>/ and cached.
#
# Usage: scripts/get-sources.sh BUILD_SRC_DIR PACKAGE...
#   PACKAGE: musl, busybox, gcc-12, elfutils, zlib (the last two: libelf
#   for the guest's perf tool, userland/perf-tool/), dropbear (the guest's
#   ssh server, userland/dropbear/). TSAR has no FPU (isa.fpu: none) and
#   Debian's mipsel libgcc.a is hard-float (__adddf3 is an add.d), so the
#   soft-float routines are built from gcc-12's libgcc/soft-fp: for gcc-12
#   only those files (libgcc/soft-fp, libgcc/config/mips/sfp-machine.h,
#   include/longlong.h, the licence) are taken from the gcc-12-source
#   package's tarball.
#
# The deb-src entry lives in a file of portkit's own,
# /etc/apt/sources.list.d/portkit-src.sources (the system's sources are
# never edited); it is added by scripts/install-deps.sh sources.
set -eu

[ $# -ge 2 ] || { echo "usage: $0 BUILD_SRC_DIR PACKAGE..." >&2; exit 2; }
dest=$1
shift
mkdir -p "$dest"

for pkg in "$@"; do
	case $pkg in
	musl|busybox|gcc-12|elfutils|zlib|dropbear) ;;
	*) echo "get-sources: unknown package '$pkg' (musl, busybox, gcc-12, elfutils, zlib, dropbear)" >&2; exit 2 ;;
	esac
	if [ -f "$dest/$pkg/.portkit-unpacked" ]; then
		continue
	fi
	tmp=$(mktemp -d "$dest/.get.XXXXXX")
	chmod 0755 "$tmp"
	if [ "$pkg" = gcc-12 ]; then
		echo "  SOURCE  gcc-12-source (80 MB) -> $dest/gcc-12 (libgcc soft-fp only)"
		(cd "$tmp" && apt-get download -qq gcc-12-source >log 2>&1) || {
			cat "$tmp/log" >&2; rm -rf "$tmp"
			echo "get-sources: apt-get download gcc-12-source failed" >&2; exit 1; }
		dpkg-deb --fsys-tarfile "$tmp"/gcc-12-source_*.deb |
			tar -C "$tmp" -x --wildcards './usr/src/gcc-12/gcc-*.tar.xz'
		tarball=$(ls "$tmp"/usr/src/gcc-12/gcc-*.tar.xz)
		top=$(basename "$tarball" .tar.xz)
		top=${top%-dfsg}
		tar -C "$tmp" -xJf "$tarball" --wildcards "$top/libgcc/soft-fp/*" \
			"$top/libgcc/config/mips/sfp-machine.h" "$top/include/longlong.h" \
			"$top/COPYING.RUNTIME" "$top/COPYING3"
		echo "$top" > "$tmp/$top/.portkit-version"
		rm -rf "${dest:?}/$pkg"
		mv -T "$tmp/$top" "$dest/$pkg"
		touch "$dest/$pkg/.portkit-unpacked"
		rm -rf "$tmp"
		continue
	fi
	echo "  SOURCE  apt-get source $pkg -> $dest/$pkg"
	if ! (cd "$tmp" && apt-get source -qq "$pkg" >log 2>&1); then
		cat "$tmp/log" >&2
		rm -rf "$tmp"
		echo "get-sources: apt-get source $pkg failed (is the deb-src entry there? run scripts/install-deps.sh sources)" >&2
		exit 1
	fi
	dir=$(find "$tmp" -mindepth 1 -maxdepth 1 -type d | head -n 1)
	[ -n "$dir" ] || { echo "get-sources: $pkg: nothing unpacked" >&2; exit 1; }
	basename "$dir" > "$dir/.portkit-version"
	rm -rf "${dest:?}/$pkg"
	mv -T "$dir" "$dest/$pkg"
	mkdir -p "$dest/archives"
	find "$tmp" -maxdepth 1 -type f ! -name log -exec mv {} "$dest/archives/" \;
	touch "$dest/$pkg/.portkit-unpacked"
	rm -rf "$tmp"
done
