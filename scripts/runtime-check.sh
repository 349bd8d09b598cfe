#!/usr/bin/env bash
# runtime-check.sh — docs/runtime.md's example works in a fresh module, as a user would run it.
#
#   scripts/runtime-check.sh
#
# Writes the page's two files (each a ```go block after a `<!-- file: PATH -->` line) into a
# fresh module that depends on this checkout's runtime module, then checks:
#   1. with the planted context.Background(), go test fails, naming the hop that kept working
#      and the hop that saw no deadline, and the wasted-work counters show a wasted call with a
#      positive duration;
#   2. go vet -vettool=deadlinelint reports the planted line, as the page shows it;
#   3. with ctx in its place, go test passes and go vet is silent.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export GOWORK=off GOFLAGS=-mod=mod
fail() { echo "runtime-check: $*" >&2; exit 1; }

python3 - "$root/docs/runtime.md" "$work" <<'PY'
import os, re, sys
doc, out = open(sys.argv[1]).read(), sys.argv[2]
files = re.findall(r'<!-- file: (\S+) -->\n```go\n(.*?)```', doc, re.S)
if len(files) != 2:
    sys.exit("runtime-check: want 2 files in docs/runtime.md, found %d" % len(files))
for path, text in files:
    os.makedirs(os.path.join(out, os.path.dirname(path)), exist_ok=True)
    open(os.path.join(out, path), 'w').write(text)
PY
cd "$work"
cat >go.mod <<MOD
module example.com/relay

go 1.24.0

require github.com/deadlinelint/deadlinelint/runtime v0.0.0-00010101000000-000000000000

replace github.com/deadlinelint/deadlinelint/runtime => $root/runtime
MOD
go mod tidy >/dev/null 2>&1 || { go mod tidy; fail "go mod tidy failed"; }
(cd "$root" && go build -o "$work/deadlinelint" ./cmd/deadlinelint)

# 1. The bug: the tests fail, and say where.
if go test -count=1 ./relay >test.out 2>&1; then
	cat test.out; fail "go test passed with the planted context.Background()"
fi
for want in "hop C saw no deadline" "hop B kept working" "1 wasted call(s)"; do
	grep -qF "$want" test.out || { cat test.out; fail "go test's failure does not say: $want"; }
done
grep -qE '1 wasted call\(s\), 0\.[0-9]*[1-9][0-9]*s of work' test.out || { cat test.out; fail "no positive wasted duration"; }

# 2. deadlinelint finds it statically, where the page says.
if go vet -vettool="$work/deadlinelint" ./... >vet.out 2>&1; then
	cat vet.out; fail "go vet -vettool=deadlinelint reported nothing"
fi
want=$(grep -E '^relay/relay.go:[0-9]+:[0-9]+: .*\(ctxbackground\)$' "$root/docs/runtime.md" | sed 's/ (ctxbackground)$//')
[ -n "$want" ] || fail "docs/runtime.md shows no ctxbackground finding"
grep -qF "${want#relay/}" vet.out || { cat vet.out; fail "go vet does not report what docs/runtime.md shows: $want"; }
[ "$(grep -cE 'relay\.go:[0-9]+:[0-9]+: [^[:space:]]' vet.out)" -eq 1 ] || { cat vet.out; fail "want exactly one finding"; }

# 3. The fix: both pass.
sed -i 's/m.Next.Check(context.Background(), req)/m.Next.Check(ctx, req)/' relay/relay.go
cp test.out "${RUNTIME_CHECK_OUT:-/dev/null}"
grep -q 'm.Next.Check(ctx, req)' relay/relay.go || fail "could not apply the fix"
go test -count=1 ./relay >test.out 2>&1 || { cat test.out; fail "go test fails after the fix"; }
go vet -vettool="$work/deadlinelint" ./... >vet.out 2>&1 || { cat vet.out; fail "go vet reports the fixed code"; }
echo "runtime-check: docs/runtime.md's chain fails with the bug (lab, wasted counters, deadlinelint) and passes with the fix"
