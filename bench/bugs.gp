# Hit rates of the example races per mode, with 95% intervals (bench/bugs).
# usage: gnuplot -e "data='FILE.dat'; out='FILE.png'" bench/bugs.gp
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
plot data using 2:3:4:xtic(1) title "default", \
     '' using 5:6:7 title "low", \
     '' using 8:9:10 title "medium", \
     '' using 11:12:13 title "high"
