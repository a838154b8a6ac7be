# Throughput ratio to the default scheduler per mode (bench/overhead).
# usage: gnuplot -e "data='FILE.dat'; out='FILE.png'" bench/overhead.gp
set terminal pngcairo size 1000,440 font ",10" noenhanced
set output out
set title "scx_fuzz throughput relative to the default scheduler (1 = no cost)"
set ylabel "mode / default (log scale)"
set logscale y
set yrange [0.001:10]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.7 border -1
set key outside right
set grid ytics
set xtics rotate by -30
plot data using 2:xtic(1) title "base (no target)", '' using 3 title "off", '' using 4 title "low", \
     '' using 5 title "medium", '' using 6 title "high", '' using 7 title "global queue"
