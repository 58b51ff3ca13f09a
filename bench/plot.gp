# SPDX-License-Identifier: LGPL-2.1-or-later
#
# plot.gp -- bench/results.dat -> bench/results.png (run by bench/run.sh):
# wall time and peak RSS against the number of revoke records, log-log, for
# jrecover (default and full table) and e2fsck, with and without csum v3.
#   gnuplot -e "datafile='results.dat'; outfile='results.png'; e2bound=600" plot.gp

if (!exists("datafile")) datafile = 'results.dat'
if (!exists("outfile")) outfile = 'results.png'
if (!exists("e2bound")) e2bound = 600

if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
	set terminal pngcairo size 1400,600 font ',10'
} else {
	set terminal png size 1400,600
}
set output outfile
set datafile missing '-'
set logscale x 2
set format x '2^{%L}'
set xlabel 'revoke records N'
set grid
set multiplot layout 1,2 title 'jrecover vs e2fsck -E journal\_only (image in page cache)'

# Columns: see the header of results.dat.  Each format is read through its
# own filter (sorted by N), so that its points join into one line.
# the bench shape's rows only (not the LU-14958 or the write-request rows)
rows(cs) = sprintf("< awk '!/^#/ && $1 != \"w\" && $2 == %d && (NF < 29 || $29 == \"bench\")' '%s' | sort -n -k1,1", cs, datafile)
v3 = rows(3)
nc = rows(0)
done(c) = (column(21) == 0) ? column(c) : NaN
over = '(column(21) == 1 ? column(16) : NaN)'

set title 'wall time'
set ylabel 'seconds'
set format y '%g'
set logscale y 10
set yrange [0.05:30000]
set key top right maxrows 5
plot \
	v3 using 1:6 with linespoints lw 2 pt 7 lc 1 title 'jrecover, csum v3', \
	nc using 1:6 with linespoints lw 2 pt 6 lc 1 dt 2 title 'jrecover, no csum', \
	v3 using 1:11 with linespoints lw 2 pt 5 lc 2 title 'jrecover full table, csum v3', \
	nc using 1:11 with linespoints lw 2 pt 4 lc 2 dt 2 title 'jrecover full table, no csum', \
	v3 using 1:(done(16)) with linespoints lw 2 pt 9 lc 7 title 'e2fsck, csum v3', \
	nc using 1:(done(16)) with linespoints lw 2 pt 8 lc 7 dt 2 title 'e2fsck, no csum', \
	v3 using 1:@over with points pt 11 ps 2 lc 7 title sprintf('e2fsck past the %g s bound', e2bound), \
	nc using 1:@over with points pt 10 ps 2 lc 7 notitle, \
	5 with lines dt 3 lc 0 title '5 s target'

set title 'peak RSS'
set ylabel 'MiB'
set logscale y 2
set yrange [*:*]
set key top left
plot \
	v3 using 1:($8 / 1024) with linespoints lw 2 pt 7 lc 1 title 'jrecover, csum v3', \
	nc using 1:($8 / 1024) with linespoints lw 2 pt 6 lc 1 dt 2 title 'jrecover, no csum', \
	v3 using 1:($13 / 1024) with linespoints lw 2 pt 5 lc 2 title 'jrecover full table, csum v3', \
	nc using 1:($13 / 1024) with linespoints lw 2 pt 4 lc 2 dt 2 title 'jrecover full table, no csum', \
	v3 using 1:(done(18) / 1024) with linespoints lw 2 pt 9 lc 7 title 'e2fsck, csum v3', \
	nc using 1:(done(18) / 1024) with linespoints lw 2 pt 8 lc 7 dt 2 title 'e2fsck, no csum', \
	v3 using 1:($1 * 16 / 1048576) with lines dt 3 lc 0 title '16 B per record'

unset multiplot
