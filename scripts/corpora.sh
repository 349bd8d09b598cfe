#!/usr/bin/env bash
# corpora.sh — run deadlinelint on the evaluation corpora and check every finding against
# their answer keys: each planted `// BUG: RULE` found, nothing reported elsewhere.
#
#   scripts/corpora.sh [--strict] [NAME...]
#
# The corpora are realistic gRPC and connect-go code bases, each its own module, written from
# the rule catalogue without looking at deadlinelint's code or tests (the modules under
# testdata/corpora: the first "blind" order service, a payments platform, a fleet-telemetry service, client-side
# CLIs and crons, a mature precision-heavy service, an SSA "torture" service, one built on real
# libraries — pgx, go-redis, kafka-go, OpenTelemetry, zap, go-grpc-middleware, nats — a
# 40-package monolith with a replaced third-party module, a middleware-heavy API edge, a
# cluster manager full of legitimate background contexts, hurried legacy code, lost
# deadlines through dynamic call shapes (five modules), and eight written for the precision issue
# (a storage service, a control plane, a SQL proxy, a vector database, a service mesh, a
# tracing backend, a workflow engine and a build cache, heavy in work not done on the
# request's behalf); see
# testdata/corpora/README.md). Their READMEs list the planted
# findings and the look-alikes. With --strict (as .ci/run runs it) any false negative, false
# positive or duplicate fails the run. The corpora's answer keys were written for the full
# detach advice (a bound and a reason both), so they run with -detach.strict, unless a FLAGS
# file at a corpus's root names the flags its key was written for. A key judges
# the rules it was written for (its RULES file, or the first five); findings of later rules
# are counted as unjudged.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
strict=
names=()
for arg in "$@"; do
	case "$arg" in
	--strict) strict=--strict ;;
	-h | --help)
		sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
		exit 0
		;;
	*) names+=("$arg") ;;
	esac
done
if [ ${#names[@]} -eq 0 ]; then
	for d in "$root"/testdata/corpora/*/; do names+=("$(basename "$d")"); done
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$root" && go build -o "$work/deadlinelint" ./cmd/deadlinelint)

failed=0
for name in "${names[@]}"; do
	dir="$root/testdata/corpora/$name"
	checker="$root/testdata/corpora/compare.py"
	# -mod=mod: the corpus modules are not part of the root module's go.sum bookkeeping.
	# The keys were written for the full detach advice (-detach.strict), unless a FLAGS file at
	# the corpus root names the flags its key was written for.
	flags=(-detach.strict)
	if [ -f "$dir/FLAGS" ]; then read -r -a flags <"$dir/FLAGS"; fi
	code=0
	(cd "$dir" && GOFLAGS=-mod=mod GOWORK=off "$work/deadlinelint" "${flags[@]}" -json ./... >"$work/$name.json" 2>"$work/$name.err") || code=$?
	if [ "$code" -ne 1 ]; then
		echo "corpora: $name: deadlinelint exited $code, want 1 (findings)"
		sed 's/^/corpora:   /' "$work/$name.err" | tail -5
		failed=$((failed + 1))
		continue
	fi
	if out=$(python3 "$checker" "$dir" "$work/$name.json" $strict 2>&1); then
		echo "corpora: ok   $name: $(echo "$out" | grep '^total' | awk '{printf "%d planted, %d found, %d false positives, %d missed", $2, $3, $4, $5}')"
		echo "$out" | grep -E '^(UNJUDGED|DISPUTED|KNOWN-MISS)' | sed 's/^/corpora:   /' || true
	else
		echo "corpora: FAIL $name"
		echo "$out" | sed 's/^/corpora:   /'
		failed=$((failed + 1))
	fi
done
if [ "$failed" -gt 0 ]; then
	echo "corpora: $failed corpus(es) failed"
	exit 1
fi
