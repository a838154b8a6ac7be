# Guest side of bench/serve-soak: a steady multi-threaded service in a systemd-style
# cgroup under `scx_fuzz serve` at its default intensity and budget (low, 1 %), a CPU
# hog beside it in the middle third. A SAMPLE line every 10 s; ok/not ok lines at the
# end. Back-off at 60 % / 45 %, not the defaults 40 % / 20 %: in this emulator the
# service alone keeps CPU pressure near 31 % (bench/results/serve-soak-20261205-185515-stopped.log),
# so the defaults never see it calm. usage: serve-soak.sh MINUTES
. ./lib.sh
require ./scx_fuzz ./mixload
mins=${1:-30}
total=$((mins * 60)) hog_at=$((mins * 60 * 3 / 10)) calm_at=$((mins * 60 * 6 / 10))
CG=/sys/fs/cgroup/system.slice/svc.service
LOG=/tmp/serve.log M=/tmp/m.prom
mkdir -p $CG
printf '[target]\ncgroup = system.slice/svc.service\n[backoff]\ncpu_pressure = 60\nresume_below = 45\n[output]\nmetrics = %s\ninterval_s = 5\nflight_dir = /tmp/flight\n' $M >/tmp/serve.conf
metric() { sed -n "s/^scx_fuzz_$1{[^}]*} //p" "$M"; }

./scx_fuzz serve --config /tmp/serve.conf >$LOG 2>&1 &
SERVE=$!
wait_state enabled 30 && ok "soak: serve attached" || not_ok "soak: serve attached"
sh -c "echo \$\$ > $CG/cgroup.procs; exec ./mixload -t $((total - 20)) -c 2 -s 4" >/tmp/svc.out 2>&1 &
SVC=$!
t0=$(date +%s) max_share=0 detached=0 hog_line=0 calm_line=0
while :; do
	t=$(($(date +%s) - t0))
	[ $t -ge $total ] && break
	if [ $t -ge $hog_at ] && [ $hog_line = 0 ]; then
		hog_line=$(($(wc -l <$LOG) + 1))
		for i in 1 2 3 4 5 6; do sh -c 'while :; do :; done' & done
		echo "PHASE t=$t hog started"
	fi
	if [ $t -ge $calm_at ] && [ $calm_line = 0 ]; then
		calm_line=$(($(wc -l <$LOG) + 1))
		for p in $(pids_matching 'sh -c while :; do :; done*'); do kill $p; done
		echo "PHASE t=$t hog stopped"
	fi
	sleep 10
	[ -f $M ] || continue
	s=$(metric delay_share)
	echo "SAMPLE t=$t share=$s unfuzzed=$(metric unfuzzed_ratio) pressure=$(metric cpu_pressure)" \
		"attached=$(metric attached) delayed=$(metric delayed_total) throttled=$(metric throttled_total)" \
		"backed_off=$(metric backed_off_total) target_runs=$(metric target_runs_total) state=$(cat $SCX/state)"
	max_share=$(awk -v a="$max_share" -v b="${s:-0}" 'BEGIN { print (b > a ? b : a) }')
	[ "$(metric attached)" = 1 ] && [ "$(cat $SCX/state)" = enabled ] || detached=$((detached + 1))
done
wait $SVC
svc_rc=$?
sed 's/^/    | /' /tmp/svc.out
grep -v 'stats:' $LOG | sed 's/^/    | /'
[ $svc_rc = 0 ] && ok "soak: the service ran to its end, every thread progressing (exit 0)" ||
	not_ok "soak: the service ran to its end (exit $svc_rc)"
expect_cmp "$max_share" "<=" 0.01 "soak: delay share never above the 1 % budget (largest seen)"
expect_cmp "$(metric delayed_total)" ">" 100 "soak: the service was fuzzed"
expect_cmp "$detached" "==" 0 "soak: attached at every sample, never ejected"
off=$(tail -n +"$hog_line" $LOG | head -n $((calm_line - hog_line)) | grep -c 'fuzzing off')
expect_cmp "$off" ">=" 1 "soak: back-off when the hog started"
back=$(tail -n +"$calm_line" $LOG | grep -c 'fuzzing 100%')
expect_cmp "$back" ">=" 1 "soak: full fuzzing again after the hog stopped"
early=$(head -n $((hog_line - 1)) $LOG | grep -c 'fuzzing off')
echo "INFO back-off steps before the hog: $early"
kill -TERM $SERVE
wait $SERVE
RC=$?
expect_rc 0 "soak: SIGTERM detaches"
expect_state disabled "soak: detached"
ok "guest script completed"
