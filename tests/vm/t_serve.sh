#!/bin/bash
# scx_fuzz serve in a guest (tests/vm/guest/serve.sh), then its metrics file
# through Prometheus's own text-format parser (python3-prometheus-client).
. "$(dirname "$0")/testlib.sh"
kernel=${1:-newest}
vm_guest_test serve "$kernel" 0 --cpus 4 --timeout 400
log=$LOG_DIR/serve-$kernel.log
sed -n 's/^METRICS: //p' "$log" >"$LOG_DIR/serve-$kernel.prom"
/usr/bin/python3 - "$LOG_DIR/serve-$kernel.prom" "$kernel" <<'PY'
import sys
from prometheus_client.parser import text_string_to_metric_families
text = open(sys.argv[1]).read()
try:
    fams = {f.name: f for f in text_string_to_metric_families(text)}
except Exception as e:
    print(f"not ok - [serve] the metrics file parses as Prometheus text ({e})")
    sys.exit(0)
need = ["scx_fuzz_attached", "scx_fuzz_delay_share", "scx_fuzz_unfuzzed_ratio",
        "scx_fuzz_delayed", "scx_fuzz_backed_off", "scx_fuzz_ejections"]
missing = [n for n in need if n not in fams]
ok = text and not missing
print(("ok" if ok else "not ok") +
      f" - [serve {sys.argv[2]}] the metrics file parses as Prometheus text ({len(fams)} families"
      + (f"; missing {missing}" if missing else "") + ")")
PY
