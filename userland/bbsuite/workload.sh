# The shell workload of `make bench` (scripts/bench-shell.py runs
# it with scripts/bbsuite.py on TSAR and under qemu-mipsel): build a file
# tree with a shell loop, archive and compress it, unpack and check it, then
# sort/grep/sed/awk over it. Fixed: the same work and output on both sides.
# Prints "workload: <phase> <centiseconds>" per phase (from /proc/uptime:
# guest time on TSAR, host time under qemu-mipsel) and a checksum.
now() { read -r up _ < /proc/uptime; echo "${up%.*}${up#*.}"; }
phase() { t=$(now); echo "workload: $1 $((t - t0))"; t0=$t; }
set -e
rm -rf /tmp/w && mkdir -p /tmp/w/tree && cd /tmp/w
start=$(now) t0=$start
i=0
while [ $i -lt 300 ]; do
	d=tree/d$((i % 12))/s$((i % 5))
	[ -d $d ] || mkdir -p $d
	j=0
	while [ $j -lt 16 ]; do
		echo "row $i $j $((i * j % 97)) $(( (i + j) * 7919 % 1000 ))"
		j=$((j + 1))
	done > $d/f$i.txt
	i=$((i + 1))
done
phase tree
tar cf t.tar tree
gzip -9 t.tar
phase tar+gzip
mkdir x && cd x && gunzip -c ../t.tar.gz | tar xf - && cd ..
diff -r tree x/tree
phase gunzip+untar+diff
cat tree/*/*/*.txt | sort -k4,4n -k2,2n > sorted
grep -c ' 13 ' sorted > count
sed -e 's/^row/ROW/' -e 's/ \([0-9]*\)$/ <\1>/' sorted | awk '{ s += $4 } END { print NR, s }' > sums
find tree -name '*.txt' | wc -l >> count
phase sort+grep+sed+awk
echo "workload: files $(tail -n 1 count) matches $(head -n 1 count) sums $(cat sums)"
echo "workload: checksum $(cat sorted sums | md5sum | cut -d' ' -f1)"
echo "workload: total $(( $(now) - start ))"
cd / && rm -rf /tmp/w
