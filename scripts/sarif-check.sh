#!/usr/bin/env bash
# sarif-check.sh — validate deadlinelint's SARIF with Microsoft's SARIF Multitool, GitHub's rules
# included, as GitHub code scanning would ingest it.
#
#   scripts/sarif-check.sh
#
# Lints the examples with -format sarif and runs `sarif-multitool validate --rule-kind
# "Gh;Sarif"` on the log: any error fails. So that the check can fail, it also validates a copy
# whose first rule lost its help, and requires GitHub's GH2012 error there. The multitool comes
# from the npm registry (@microsoft/sarif-multitool, pinned), installed once into a cache
# directory; its self-contained Linux binary is run directly.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
version=5.7.0
cache="${XDG_CACHE_HOME:-$HOME/.cache}/deadlinelint/sarif-multitool-$version"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ ! -x "$cache/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool" ]; then
	mkdir -p "$cache"
	(cd "$cache" && npm install --no-audit --no-fund --silent "@microsoft/sarif-multitool@$version" >/dev/null)
	# npm no longer runs the package's install script that marks the binary executable.
	chmod u+x "$cache/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"
fi
multitool="$cache/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"

(cd "$root" && go build -o "$work/deadlinelint" ./cmd/deadlinelint)
code=0
(cd "$root/examples" && "$work/deadlinelint" -format sarif -o "$work/examples.sarif" ./...) || code=$?
if [ "$code" -ne 1 ]; then
	echo "sarif-check: deadlinelint -format sarif exited $code, want 1 (findings)" >&2
	exit 1
fi

validate() { # validate LOG: prints the multitool's findings, one per line
	"$multitool" validate --rule-kind "Gh;Sarif" "$1" 2>&1 | grep -E '\): (error|warning) ' || true
}

problems=$(validate "$work/examples.sarif")
if grep -q '): error ' <<<"$problems"; then
	echo "sarif-check: FAIL the SARIF Multitool reports errors:" >&2
	echo "$problems" >&2
	exit 1
fi
echo "sarif-check: ok   SARIF Multitool (Gh;Sarif rules) finds no error in the examples' log"
if [ -n "$problems" ]; then echo "$problems" | sed "s/^/sarif-check:   warning: /"; fi

python3 - "$work/examples.sarif" "$work/broken.sarif" <<'PY'
import json, sys
log = json.load(open(sys.argv[1]))
del log["runs"][0]["tool"]["driver"]["rules"][0]["help"]
json.dump(log, open(sys.argv[2], "w"))
PY
if ! validate "$work/broken.sarif" | grep -q 'error GH2012'; then
	echo "sarif-check: FAIL a rule without help passed the multitool: the check cannot fail" >&2
	exit 1
fi
echo "sarif-check: ok   a rule without help fails it (GH2012), as it should"
