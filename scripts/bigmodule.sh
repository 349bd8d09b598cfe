#!/usr/bin/env bash
# bigmodule.sh — time and peak RSS of deadlinelint on one large module, in the process and on
# the standalone command's route (first run, unchanged re-run, one leaf file edited); checks
# that every run prints the in-process route's findings.
#
#   scripts/bigmodule.sh [--cold | --vet] DIR [LEAF_FILE]
#
# The route is the package route (docs/driver.md) on a warm build cache; with --vet, go vet's
# route (DEADLINELINT_VET=1), with go vet's own suite (first run and re-run) as the anchor.
#
# With --cold, the build cache starts empty (a temporary GOCACHE) and the command chooses its
# route as it would for a user — a first checkout, a CI runner without a restored cache: it
# runs first, unchanged, and after the leaf edit, with the in-process route's findings as the
# reference, and the command's run cache (in a directory of its own) on; go vet's suite is not
# run.
#
# DIR is a module analysed as the user's own code, e.g. a copy scripts/realcode.sh keeps in
# ${TMPDIR:-/tmp}/deadlinelint-realcode/vitess_io_vitess; LEAF_FILE (relative to DIR) is a file
# of a package nothing else imports, edited (a comment appended) before the last run. Needs GNU
# time (/usr/bin/time). The build cache is warmed first with go build ./..., which is timed too.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cold= vet=
case "${1:-}" in
--cold) cold=1 && shift ;;
--vet) vet=1 && shift ;;
esac
dir=${1:?usage: scripts/bigmodule.sh [--cold | --vet] DIR [LEAF_FILE]}
leaf=${2:-}
work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
(cd "$root" && go build -o "$work/deadlinelint" ./cmd/deadlinelint)
cd "$dir"
fmt="%e s wall, %U s user + %S s sys, peak RSS %M KB, exit %x"
timed() { # name, command...
	local name=$1
	shift
	echo "== $name"
	/usr/bin/time -f "$fmt" -o "$work/time" "$@" >"$work/$(echo "$name" | tr -c 'a-z0-9\n' '-').out" 2>"$work/err" || true
	cat "$work/time"
}
# again: the unchanged re-run, the leaf edit, and the check that every run on the route
# printed the in-process route's findings.
again() {
	timed "route re-run" "$work/deadlinelint" -test=false ./...
	if [ -n "$leaf" ]; then
		echo "// bigmodule.sh edit" >>"$leaf"
		timed "route after one leaf edit" "$work/deadlinelint" -debug -test=false ./...
		grep -h "deadlinelint: " "$work/err" || true
	fi
	for f in "$work"/route*.out; do
		if cmp -s "$work/in-the-process.out" "$f"; then echo "same findings: $(basename "$f")"; else echo "DIFFERENT findings: $(basename "$f")"; exit 1; fi
	done
}
timed "in the process" env DEADLINELINT_INPROCESS=1 "$work/deadlinelint" -test=false ./...
export DEADLINELINT_CACHE=$work/runs
if [ -n "$cold" ]; then
	export GOCACHE=$work/gocache
	timed "route first run, cold build cache" "$work/deadlinelint" -debug -test=false ./...
	grep -h "deadlinelint: " "$work/err" || true
	again
	exit 0
fi
timed "go build (warms the build cache)" go build ./...
export DEADLINELINT_BENCH_NONCE=bigmodule$$
if [ -n "$vet" ]; then
	timed "go vet suite first run" go vet ./...
	timed "go vet suite re-run" go vet ./...
	export DEADLINELINT_VET=1
else
	export DEADLINELINT_PACKAGES=1
fi
timed "route first run" "$work/deadlinelint" -debug -test=false ./...
grep -h "deadlinelint: " "$work/err" || true
again
