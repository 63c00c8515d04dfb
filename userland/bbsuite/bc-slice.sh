# A bounded slice of BusyBox's bc.tests for profiling the emulator
# (scripts/prof-real.py, docs/emulator-speed.md): the pipeline of its
# "bc parsing of numbers" test, bc | bc | md5sum, over bases 2 and 3 and
# numbers up to 2000 instead of bases 2..16 and 65536 (about 16,000 lines,
# where the full test pipes 3.9 M). Same programs, same kind of work: bc's
# number parsing and printing, musl's malloc, pipe reads and writes.
set -e
echo '
for (b = 2; b <= 3; ++b) {
	obase = 10
	print "ibase = A; ibase = ", b, "\n"
	obase = b
	for (i = 0; i <= 2000; ++i) {
		i
		print "0.", i, "\n"
		print "1.", i, "\n"
		print i, ".", i, "\n"
	}
}' | bc 2>&1 | bc 2>&1 | md5sum
