# BusyBox's own testsuite (testsuite/runtest of the unpacked Debian source,
# -v: a failure's details follow its FAIL line), run from /bbtest/testsuite
# with bindir /bbtest (busybox and its .config): scripts/bbsuite.py runs it
# on TSAR and under qemu-mipsel, tests/boot/test_busybox_testsuite.py
# compares the two.
#
# Without /bbtest/applets: the whole suite (./runtest -v). With it, one
# batch of the suite: runtest -v is given the applets runtest itself would
# run (those the busybox binary implements, in its order) that the file
# names, or, if its first word is "-", all of them except those named. The
# batches of one comparison together run every applet's tests once; each
# batch runs in a system of its own (a boot of TSAR, a chroot in a new PID
# namespace), so two batches can run at the same time on the host.
cd /bbtest/testsuite || exit 1
[ -s /bbtest/applets ] || exec ./runtest -v

# runtest's own list of implemented applets
implemented=$(
	printf "busybox "
	/bbtest/busybox 2>&1 |
	while read line; do
		if [ x"$line" = x"Currently defined functions:" ]; then
			xargs | sed 's/,//g'
			break
		fi
	done
	)
set -- $(cat /bbtest/applets)
except=
if [ x"$1" = x"-" ]; then
	except=1
	shift
fi
sel=
for a in $implemented; do
	case " $* " in
	*" $a "*) named=1 ;;
	*) named= ;;
	esac
	[ x"$named" = x"$except" ] || sel="$sel $a"
done
echo "bbsuite: batch: ${except:+all but }$*"
# runtest without applets would run them all
[ -n "$sel" ] || exit 0
exec ./runtest -v $sel
