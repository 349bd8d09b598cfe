#!/usr/bin/env bash
# plugin-e2e.sh — end-to-end test of the golangci-lint module plugin.
#
# Builds golangci-lint v2.15.0 with deadlinelint's rules compiled in, offline,
# from the wrapper module plugin/gcl (no `golangci-lint custom`, which needs to
# git-clone golangci-lint), then runs it on the fixture module
# plugin/testdata/fixture and checks:
#   - the findings, exactly: file:line:col and rule, in text output;
#   - //nolint:<rule> suppresses, //nolint:deadlinelint does not (and warns);
#   - //deadlinelint:ignore <rule> <reason> suppresses;
#   - a rule setting in .golangci.yml takes effect, and an unknown one is an error;
#   - the exit code: 1 with findings, 0 on a clean package;
#   - SARIF: the same findings, one ruleId per rule;
#   - --fix applies the suggested fixes;
#   - the standalone command reports the same findings on the fixture.
#
# Usage: scripts/plugin-e2e.sh
# Environment:
#   PLUGIN_E2E_BIN  where to build the binary (default: a temporary directory,
#                   removed at exit); set it to keep the binary around.
# The build needs golangci-lint's modules in the module cache (or the Go module
# proxy). Measured on 2 cores: cold build cache ~5.5 CPU-minutes (3-4 minutes
# on an idle machine); warm, from a fresh clone, ~35 s for the whole script.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
fixture=$root/plugin/testdata/fixture
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin=${PLUGIN_E2E_BIN:-$work/bin}/golangci-lint

passed=0
failed=0
pass() { passed=$((passed + 1)); echo "ok   $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1" >&2; }
check() { # check NAME COMMAND...: a test that passes when COMMAND succeeds
	local name=$1
	shift
	if "$@"; then pass "$name"; else fail "$name"; fi
}
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# --- build ------------------------------------------------------------------
start=$(now)
# -buildvcs=false keeps the version "(devel)" (plugin/gcl/main.go forces it too):
# golangci-lint then keys its cache on the binary's hash, not on a version.
(cd "$root/plugin/gcl" && go build -buildvcs=false -o "$bin" .)
build_secs=$(elapsed "$start")
echo "built $bin in ${build_secs}s"

# --- run --------------------------------------------------------------------
# lint CONFIG OUT [PACKAGES...]: runs the custom binary from the fixture module
# with its own cache; sets $code and writes text, SARIF and stderr under OUT.
lint() {
	local config=$1 out=$2
	shift 2
	mkdir -p "$out"
	code=0
	(cd "$fixture" && GOPROXY=off GOLANGCI_LINT_CACHE="$work/cache" \
		"$bin" run --config "$config" \
		--output.text.path="$out/text" --output.text.print-issued-lines=false \
		--output.sarif.path="$out/sarif" --show-stats=false \
		"${@:-./...}") 2>"$out/stderr" || code=$?
}

# findings OUT: the findings of a text report as "file:line:col rule", sorted:
# every issue golangci-lint reports (the plugin gives it no related positions,
# which it would make issues of their own).
findings() {
	sed -nE 's/^([^ ]+:[0-9]+:[0-9]+): .* \(([a-z]+)\)$/\1 \2/p' "$1/text" | sort
}

start=$(now)
lint "$fixture/.golangci.yml" "$work/main"
lint_secs=$(elapsed "$start")
echo "linted the fixture in ${lint_secs}s (exit $code)"
if [[ -s $work/main/stderr ]]; then sed 's/^/  stderr: /' "$work/main/stderr"; fi

expected=$(sort <<'EOF'
cmd/reconcile/main.go:15:12 missingdeadline
orders/edges.go:19:8 ctxless
orders/edges.go:21:9 ctxflow
orders/orders.go:21:26 ctxbackground
orders/orders.go:24:17 detach
orders/orders.go:39:23 ctxbackground
EOF
)
got=$(findings "$work/main")
if [[ $got == "$expected" ]]; then
	pass "findings: exactly the expected file:line:col and rules"
else
	fail "findings differ (- expected, + got):"
	diff <(echo "$expected") <(echo "$got") | sed -n 's/^[<>]/  &/p' >&2 || true
fi

check "exit code 1 with findings" test "$code" -eq 1
check "messages say what is lost, in whose scope, and name the rule" \
	grep -qE "^orders/orders.go:21:26: context.Background\(\) in request scope Handler.Place .*deadline.* \(ctxbackground\)$" "$work/main/text"
check "related positions are no issues of their own (one issue per finding)" \
	bash -c "! grep -q 'related information' '$work/main/text' && [[ \$(grep -cE '^[^ ]+:[0-9]+:[0-9]+: ' '$work/main/text') -eq 6 ]]"
check "//nolint:ctxbackground suppresses (orders.go:32)" \
	bash -c "! grep -q '^orders/orders.go:32:' '$work/main/text'"
check "//deadlinelint:ignore suppresses (orders.go:46)" \
	bash -c "! grep -q '^orders/orders.go:46:' '$work/main/text'"
check "//nolint:deadlinelint is an unknown linter to golangci-lint (warned, not suppressed)" \
	grep -q 'Found unknown linters in //nolint directives: deadlinelint' "$work/main/stderr"

# SARIF: the same findings, each with its rule as ruleId. golangci-lint writes
# the report on one line, its fields in a fixed order.
sarif_findings() {
	{ grep -oE '"ruleId":"[a-z]+","level":"[a-z]+","message":\{"text":"([^"\\]|\\.)*"\},"locations":\[\{"physicalLocation":\{"artifactLocation":\{"uri":"[^"]*","index":[0-9]+\},"region":\{"startLine":[0-9]+,"startColumn":[0-9]+' "$1/sarif" || true; } |
		sed -E 's/^"ruleId":"([a-z]+)".*"uri":"([^"]*)".*"startLine":([0-9]+),"startColumn":([0-9]+)$/\2:\3:\4 \1/' | sort
}
got=$(sarif_findings "$work/main")
if [[ $got == "$expected" ]]; then
	pass "SARIF: the same findings, one ruleId per rule"
else
	fail "SARIF findings differ (- expected, + got):"
	diff <(echo "$expected") <(echo "$got") | sed -n 's/^[<>]/  &/p' >&2 || true
fi

# The clientapis setting is what makes inventory.Client.Reserve a client call:
# without it, main.go:15 is not reported.
sed '/clientapis/,/inventory.Client.Reserve/d' "$fixture/.golangci.yml" >"$work/nosetting.yml"
lint "$work/nosetting.yml" "$work/nosetting"
check "a setting takes effect (no missingdeadline finding without clientapis)" \
	bash -c "[[ $code -eq 1 ]] && ! grep -q 'missingdeadline' '$work/nosetting/text' && grep -q '(ctxbackground)' '$work/nosetting/text'"

sed 's/clientapis:/clientapi:/' "$fixture/.golangci.yml" >"$work/badkey.yml"
lint "$work/badkey.yml" "$work/badkey"
check "an unknown setting stops the run with an error naming the rule (exit $code)" \
	bash -c "[[ $code -ne 0 && $code -ne 1 ]] && grep -q 'missingdeadline: unknown setting \"clientapi\"' '$work/badkey/stderr'"

lint "$fixture/.golangci.yml" "$work/clean" ./inventory/...
check "exit code 0 on a clean package" bash -c "[[ $code -eq 0 && ! -s '$work/clean/text' ]]"

# --fix applies the rules' suggested fixes (the request ctx for Background and
# TODO); the fixed module builds and those findings are gone.
cp -r "$fixture" "$work/fixme"
(cd "$work/fixme" && GOPROXY=off GOLANGCI_LINT_CACHE="$work/cache" \
	"$bin" run --fix --show-stats=false --output.text.path="$work/fix.txt" ./... 2>/dev/null || true)
mkdir -p "$work/fixed"
(cd "$work/fixme" && GOPROXY=off GOLANGCI_LINT_CACHE="$work/cache" \
	"$bin" run --show-stats=false --output.text.path="$work/fixed/text" --output.text.print-issued-lines=false ./... 2>/dev/null) || true
check "--fix passes the request ctx, the result builds and the findings are gone" bash -c "
	grep -qF 'if err := h.Inv.Reserve(ctx, sku, n); err != nil {' '$work/fixme/orders/orders.go' &&
	(cd '$work/fixme' && go build ./...) &&
	! grep -qE '^orders/orders.go:(21|39):[0-9]+: context' '$work/fixed/text' &&
	grep -q '(detach)' '$work/fixed/text'"

# The standalone command reports the same findings at the same positions with
# the same rule names, given the same setting; it does not read //nolint, so
# it also reports orders.go:32.
(cd "$root" && go build -o "$work/deadlinelint" ./cmd/deadlinelint)
standalone=$(cd "$fixture" && "$work/deadlinelint" -detach.strict \
	-missingdeadline.clientapis=example.com/fixture/inventory.Client.Reserve ./... || true)
got=$(sed -nE 's#^(plugin/testdata/fixture/)?([^ ]+:[0-9]+:[0-9]+): .* \(([a-z]+)\)$#\2 \3#p' <<<"$standalone" | sort)
want=$(printf '%s\n%s\n' "$expected" "orders/orders.go:32:23 ctxbackground" | sort)
if [[ $got == "$want" ]]; then
	pass "the standalone command agrees (plus the //nolint'ed finding)"
else
	fail "the standalone command differs (- expected, + got):"
	diff <(echo "$want") <(echo "$got") | sed -n 's/^[<>]/  &/p' >&2 || true
fi

echo "timings: build ${build_secs}s, lint ${lint_secs}s"
echo "plugin-e2e: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
