# Hit rates of the example races per mode, with 95% intervals (bench/bugs).
# usage: gnuplot -e "data='FILE.dat'; out='FILE.png'; names='default low ...'" bench/bugs.gp
set terminal pngcairo size 900,420 font ",10" noenhanced
set output out
set title "Example races found: default scheduler vs scx_fuzz (hit rate, 95% interval)"
set ylabel "runs that hit the race (%)"
set yrange [0:105]
set style data histograms
set style histogram errorbars gap 2 lw 1
set style fill solid 0.7 border -1
set key top left
set grid ytics
# names: the measured modes, in the data file's order (its "# modes:" line)
plot for [i=1:words(names)] data using (column(3*i-1)):(column(3*i)):(column(3*i+1)):xtic(1) \
     title word(names, i)
