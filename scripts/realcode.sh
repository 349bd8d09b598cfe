#!/usr/bin/env bash
# realcode.sh — run deadlinelint on real gRPC modules and check every finding against the
# verdicts read by hand.
#
#   scripts/realcode.sh [--full] [--only NAME,...] [--new FILE] [--list FILE]
#
# The modules (testdata/realcode/modules.tsv) are downloaded at pinned versions with the Go
# module proxy, copied out of the module cache and analysed as the user's own code with
# -test=false. Every finding must have a line in testdata/realcode/verdicts.tsv
# (module@version, file, line, rule, REAL / NOISE / DEBATABLE, reason); the run fails on a
# finding without one and on a REAL finding no longer reported, and prints precision =
# REAL / (REAL + NOISE) per rule. Without --full only the "ci" subset runs (as .ci/run does).
# --new FILE writes the findings without a verdict to FILE, ready to be judged.
# --list FILE writes every finding with its verdict, reason and message.
# Copies are kept in ${TMPDIR:-/tmp}/deadlinelint-realcode between runs; third-party source is
# never committed.
set -euo pipefail
cd "$(dirname "$0")/.."
set=ci args=()
while [ $# -gt 0 ]; do
	case "$1" in
	--full) set=full ;;
	--only) args+=(-only "$2"); shift ;;
	--new) args+=(-new "$2"); shift ;;
	--list) args+=(-list "$2"); shift ;;
	-h | --help)
		sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
		exit 0
		;;
	*)
		echo "realcode.sh: unknown argument $1 (try --help)" >&2
		exit 2
		;;
	esac
	shift
done
exec go run ./scripts/realcode -set "$set" "${args[@]}"
