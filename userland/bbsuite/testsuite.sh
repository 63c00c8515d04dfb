# BusyBox's own testsuite (testsuite/runtest of the unpacked Debian source,
# -v: a failure's details follow its FAIL line), run from /bbtest/testsuite
# with bindir /bbtest (busybox and its .config): scripts/bbsuite.py runs it
# on TSAR and under qemu-mipsel, tests/boot/test_busybox_testsuite.py
# compares the two.
cd /bbtest/testsuite || exit 1
./runtest -v
