#!/usr/bin/env bash
# robustness.sh — run deadlinelint over large real code bases and bad input,
# and check that it never crashes.
#
#   scripts/robustness.sh [--quick] [--tests] [--keep]
#
# Corpora (tests excluded unless --tests; the third-party modules at the
# versions this module pins):
#   std          all of the standard library, from a temporary module:
#                exit 0, zero findings, no panic
#   grpc         google.golang.org/grpc/...:  no panic, exit 0 or 1
#   x/tools      golang.org/x/tools/...:      no panic, exit 0 or 1
#   protobuf     google.golang.org/protobuf/...: no panic, exit 0 or 1
# grpc, x/tools and protobuf are copied out of the module cache and analysed
# as main modules: deadlinelint stays silent in dependency modules, so only
# as the user's own code do all its rules run on every package.
#   examples     ./examples/... of this repository: no panic, exit 0 or 1
#   type error   a fixture module with a type error: exit 2, a message naming
#                the package, no stack trace
# --quick bounds this to net/http/..., grpc's top-level,
# health and reflection packages, the examples and the type-error fixture.
#
# "No panic" means none of "panic:", "goroutine N [", "internal error" or a
# runtime stack frame anywhere in the output. One summary line per corpus;
# the exit status is 1 if any check fails.
set -euo pipefail

quick=false tests=false keep=false
for arg in "$@"; do
	case "$arg" in
	--quick) quick=true ;;
	--tests) tests=true ;;
	--keep) keep=true ;;
	-h | --help)
		sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
		exit 0
		;;
	*)
		echo "robustness.sh: unknown argument $arg (try --help)" >&2
		exit 2
		;;
	esac
done

root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/deadlinelint-robustness.XXXXXX")
if $keep; then
	echo "robustness: work directory $work"
else
	trap 'rm -rf "$work"' EXIT
fi

echo "robustness: building deadlinelint"
(cd "$root" && go build -o "$work/deadlinelint" ./cmd/deadlinelint)
lint="$work/deadlinelint"
testflag=-test=false
$tests && testflag=-test=true

# The corpus module for std: a module of its own, requiring nothing.
corpus="$work/corpus"
mkdir -p "$corpus"
printf 'module deadlinelint.robustness/corpus\n\ngo 1.26.0\n' >"$corpus/go.mod"
listtests=
$tests && listtests=-test # test-only dependencies need go.sum entries too

# copy_module MOD DIR: the source of MOD at the version the examples module pins (gRPC and
# protobuf are theirs; x/tools the linter's too), copied out of the module cache into DIR, with
# its go.sum completed.
copy_module() {
	local mod=$1 dst=$2 version src
	version=$(cd "$root/examples" && go list -m -f '{{.Version}}' "$mod")
	src=$(cd "$root/examples" && go mod download -json "$mod@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
	mkdir -p "$dst"
	cp -R "$src/." "$dst"
	chmod -R u+w "$dst"
	(cd "$dst" && GOWORK=off go list -mod=mod -e -deps $listtests ./... >/dev/null)
}
owned="$work/owned"
copy_module google.golang.org/grpc "$owned/grpc"
$quick || copy_module golang.org/x/tools "$owned/tools"
$quick || copy_module google.golang.org/protobuf "$owned/protobuf"

failures=0
stack_re='panic:|goroutine [0-9]+ \[|\.go:[0-9]+ \+0x[0-9a-f]+|internal error'

# check NAME DIR EXPECT PATTERN...: run deadlinelint in DIR and check its
# result. EXPECT is "clean" (exit 0, no output), "no-panic" (exit 0 or 1)
# or "error" (exit 2 with a message naming a package, no stack trace).
check() {
	local name=$1 dir=$2 expect=$3
	shift 3
	local out="$work/$(echo "$name" | tr -c 'a-zA-Z0-9\n' '_').out"
	local errf="${out%.out}.err"
	local start=$SECONDS code=0
	(cd "$dir" && "$lint" "$testflag" "$@") >"$out" 2>"$errf" || code=$?
	local secs=$((SECONDS - start))
	local findings panics errors verdict=ok why=""
	findings=$(grep -c . "$out" || true)
	panics=$(cat "$out" "$errf" | grep -Ec "$stack_re" || true)
	errors=$(grep -c '^deadlinelint: ' "$errf" || true)
	((panics == 0)) || why+=" panic or stack trace in output;"
	case "$expect" in
	clean)
		((code == 0)) || why+=" exit $code, want 0;"
		((findings == 0)) || why+=" $findings findings, want 0;"
		((errors == 0)) || why+=" $errors errors, want 0;"
		;;
	no-panic)
		((code <= 1)) || why+=" exit $code, want 0 or 1;"
		;;
	error)
		((code == 2)) || why+=" exit $code, want 2;"
		grep -q '^deadlinelint: package [^ ]*: ' "$errf" || why+=" no error naming the package;"
		;;
	esac
	[[ -z $why ]] || verdict=FAIL
	printf 'robustness: %-4s %-10s exit %d, %5d findings, %3d errors, %d panics, %4ds  %s\n' \
		"$verdict" "$name" "$code" "$findings" "$errors" "$panics" "$secs" "$*"
	if [[ -n $why ]]; then
		failures=$((failures + 1))
		echo "robustness:      ${why%;}"
		echo "robustness:      last lines of standard error ($errf):"
		tail -n 5 "$errf" | sed 's/^/robustness:        /'
	fi
}

# The type-error fixture: one broken package next to one fine one.
bad="$work/typeerror"
cp -R "$root/internal/badinput/testdata/typeerror" "$bad"

if $quick; then
	check std "$corpus" clean net/http/...
	check grpc "$owned/grpc" no-panic . ./health/... ./reflection/...
	check examples "$root/examples" no-panic ./...
	check "type error" "$bad" error ./...
else
	check std "$corpus" clean std
	check grpc "$owned/grpc" no-panic ./...
	check x/tools "$owned/tools" no-panic ./...
	check protobuf "$owned/protobuf" no-panic ./...
	check examples "$root/examples" no-panic ./...
	check "type error" "$bad" error ./...
fi

if ((failures > 0)); then
	echo "robustness: $failures check(s) failed"
	exit 1
fi
echo "robustness: all checks passed"
