#!/bin/sh
# make install into a scratch root (DESTDIR, PREFIX=/usr): every file where it
# belongs with its mode, the unit's @...@ placeholders filled in, an existing
# serve.conf left alone, and the unit clean under systemd-analyze verify (which
# must reject broken copies of it). Needs only a built binary: no root, no
# sched_ext, no rebuild. Prints "ok"/"not ok" lines; exits 1 on any "not ok".
# usage: tests/install.sh [BINARY]   (default build/scx_fuzz)
set -eu
bin=${1:-build/scx_fuzz}
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac
cd "$(dirname "$0")/.."
failed=0

ok() { echo "ok - [install] $1"; }
notok() { echo "not ok - [install] $1"; failed=1; }

if [ ! -x "$bin" ]; then
	notok "no executable at $bin (build it first: make)"
	exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root
unit=$root/usr/lib/systemd/system/scx_fuzz.service

# A build directory holding only the binary; -o: take it as it is, never rebuild it.
mkdir -p "$tmp/build"
cp "$bin" "$tmp/build/scx_fuzz"
install_it() {
	make -s -o "$tmp/build/scx_fuzz" install BUILD="$tmp/build" DESTDIR="$root" PREFIX=/usr \
		>"$tmp/make.log" 2>&1
}
if install_it; then
	ok "make install DESTDIR=... PREFIX=/usr"
else
	notok "make install failed: $(tail -n 3 "$tmp/make.log" | tr '\n' ' ')"
	exit 1
fi

# PATH MODE: each installed file
for f in usr/bin/scx_fuzz:755 usr/share/man/man1/scx_fuzz.1:644 \
	usr/lib/systemd/system/scx_fuzz.service:644 etc/scx_fuzz/serve.conf.example:644; do
	path=${f%:*} want=${f##*:}
	if [ -f "$root/$path" ] && [ "$(stat -c %a "$root/$path")" = "$want" ]; then
		ok "/$path installed, mode $want"
	elif [ -f "$root/$path" ]; then
		notok "/$path has mode $(stat -c %a "$root/$path"), want $want"
	else
		notok "/$path not installed"
	fi
done
if cmp -s "$bin" "$root/usr/bin/scx_fuzz" && cmp -s dist/serve.conf.example "$root/etc/scx_fuzz/serve.conf.example"; then
	ok "the binary and the example config are installed unchanged"
else
	notok "the installed binary or example config differs from its source"
fi
if [ -e "$root/etc/scx_fuzz/serve.conf" ]; then
	notok "make install created /etc/scx_fuzz/serve.conf (only the example is installed)"
else
	ok "no serve.conf installed, only the example"
fi

# The unit: placeholders substituted, ExecStart where the binary and config are.
if [ -f "$unit" ]; then
	left=$(grep -n '@[A-Z_]*@' "$unit" || true)
	if [ -z "$left" ]; then
		ok "the unit has no @...@ placeholder left"
	else
		notok "placeholders left in the unit: $left"
	fi
	want='ExecStart=/usr/bin/scx_fuzz serve --config /etc/scx_fuzz/serve.conf'
	if grep -qxF "$want" "$unit"; then
		ok "ExecStart runs /usr/bin/scx_fuzz serve --config /etc/scx_fuzz/serve.conf"
	else
		notok "ExecStart is '$(grep '^ExecStart=' "$unit" || true)', want '$want'"
	fi
	# systemd takes an unknown capability name silently, as an empty bounding set.
	caps=$(sed -n 's/^CapabilityBoundingSet=//p' "$unit")
	bad=
	for c in $caps; do
		systemd-analyze capability "$c" >/dev/null 2>&1 || bad="$bad $c"
	done
	if [ -n "$caps" ] && [ -z "$bad" ]; then
		ok "every capability in CapabilityBoundingSet is known ($(echo "$caps" | wc -w))"
	else
		notok "CapabilityBoundingSet: unknown or none:${bad:- none set}"
	fi
fi

# systemd-analyze verify on a copy whose ExecStart points into the scratch root
# (verify checks that it is executable), with man pages looked up there.
# Verify warns about unknown keys and bad values but still exits 0: any output fails.
verify() {  # NAME: verifies $tmp/NAME/scx_fuzz.service; output in $tmp/NAME.log
	if MANPATH=$root/usr/share/man SYSTEMD_LOG_COLOR=0 \
		systemd-analyze verify "$tmp/$1/scx_fuzz.service" >"$tmp/$1.log" 2>&1; then
		[ ! -s "$tmp/$1.log" ]
	else
		return 1
	fi
}
variant() {  # NAME SED-SCRIPT: a copy of the installed unit, rewritten
	mkdir -p "$tmp/$1"
	sed -e "s|^ExecStart=/usr/bin/|ExecStart=$root/usr/bin/|" -e "$2" "$unit" >"$tmp/$1/scx_fuzz.service"
}
if ! command -v systemd-analyze >/dev/null; then
	notok "systemd-analyze missing (apt-get install systemd)"
elif [ -f "$unit" ]; then
	variant good ''
	if verify good; then
		ok "systemd-analyze verify: the unit is clean, man:scx_fuzz(1) resolves"
	else
		notok "systemd-analyze verify: $(head -c 300 "$tmp/good.log" | tr '\n' ' ')"
	fi
	variant badkey '/^\[Service\]/a Frobnicate=yes'
	variant badexec 's|^ExecStart=[^ ]*|ExecStart=/no/such/scx_fuzz|'
	variant badvalue 's|^Restart=.*|Restart=sometimes|'
	variant badman 's|^Documentation=.*|Documentation=man:scx_fuzz_nosuchpage(1)|'
	for v in badkey badexec badvalue badman; do
		if verify $v; then
			notok "systemd-analyze verify passed a broken unit ($v)"
		else
			ok "systemd-analyze verify rejects a broken unit ($v)"
		fi
	done
fi

# The installed example is a config serve accepts: it reads it before it checks for root, so
# as nobody it gets as far as "must run as root" (exit 3); a bad key stops it first (exit 2).
# Never as root: on a sched_ext kernel that would attach.
as_nobody() {
	if [ "$(id -u)" = 0 ]; then
		setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
	else
		"$@"
	fi
}
serve_says() {  # WANT_RC REGEX WHAT CONFIG
	if out=$(as_nobody "$bin" serve --config "$4" 2>&1); then rc=0; else rc=$?; fi
	if [ "$rc" = "$1" ] && printf '%s\n' "$out" | grep -qE -- "$2"; then
		ok "$3"
	else
		notok "$3 (exit $rc, want $1: $(printf '%s' "$out" | head -c 200))"
	fi
}
if ! "$bin" serve --help 2>/dev/null | grep -q '^usage: scx_fuzz serve'; then
	ok "the example config is accepted by serve # SKIP $bin has no serve"
elif [ "$(id -u)" = 0 ] && ! command -v setpriv >/dev/null; then
	ok "the example config is accepted by serve # SKIP setpriv (util-linux) missing"
else
	chmod 755 "$tmp"
	serve_says 3 '^scx_fuzz: must run as root' "serve accepts the installed example config" \
		"$root/etc/scx_fuzz/serve.conf.example"
	sed '/^\[fuzz\]/a intensiti = low' "$root/etc/scx_fuzz/serve.conf.example" >"$tmp/bad.conf"
	serve_says 2 "unknown key 'intensiti' in \[fuzz\]" "serve refuses a misspelt key: exit 2" \
		"$tmp/bad.conf"
fi

# An operator's serve.conf survives a second make install.
echo '; mine' >"$root/etc/scx_fuzz/serve.conf"
if install_it && [ "$(cat "$root/etc/scx_fuzz/serve.conf")" = '; mine' ]; then
	ok "make install again leaves an existing serve.conf alone"
else
	notok "make install again changed or failed on an existing serve.conf"
fi
exit $failed
