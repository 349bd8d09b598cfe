#!/usr/bin/env bash
# transitive-cost.sh: what following helpers through facts (ctxbackground's transitive mode)
# costs on a module of many packages. It generates a module of N packages (default 120) —
# layered repositories, services and handlers calling each other with ctx, some dropping it —
# or, with --grpc, copies google.golang.org/grpc (262 packages, at the version this module
# pins) out of the module cache as the main module, and times deadlinelint with
# -ctxbackground.transitive=false and =true, alternating, RUNS times each (default 5), and
# prints the medians of CPU time and their ratio.
#
#   scripts/transitive-cost.sh [N] [RUNS]
#   scripts/transitive-cost.sh --grpc [RUNS]
set -euo pipefail
grpc=false
if [ "${1:-}" = --grpc ]; then
	grpc=true
	shift
	set -- 0 "$@"
fi
N=${1:-120}
RUNS=${2:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

go build -o "$work/deadlinelint" "$root/cmd/deadlinelint"

mod="$work/mod"
mkdir -p "$mod"
if $grpc; then
	version=$(cd "$root" && go list -m -f '{{.Version}}' google.golang.org/grpc)
	src=$(cd "$root" && go mod download -json "google.golang.org/grpc@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
	cp -R "$src/." "$mod"
	chmod -R u+w "$mod"
	(cd "$mod" && GOWORK=off go list -mod=mod -e -deps ./... >/dev/null)
else

cat > "$mod/go.mod" <<MOD
module example.test/many

go 1.26
MOD
# Layer i calls layer i-1; every seventh layer drops the ctx it is given.
for i in $(seq 0 $((N - 1))); do
	d="$mod/l$i"
	mkdir -p "$d"
	{
		echo "package l$i"
		echo
		echo 'import ('
		echo '	"context"'
		echo '	"database/sql"'
		[ "$i" -gt 0 ] && echo "	\"example.test/many/l$((i - 1))\""
		echo ')'
		echo
		echo "// Repo is layer $i."
		echo 'type Repo struct{ db *sql.DB }'
		echo
		echo '// Load reads a row, then asks the layer below.'
		echo 'func (r *Repo) Load(ctx context.Context, id string) (string, error) {'
		if [ $((i % 7)) -eq 3 ]; then
			echo '	ctx = context.Background()'
		fi
		echo '	var name string'
		echo '	if err := r.db.QueryRowContext(ctx, "SELECT name FROM t WHERE id = $1", id).Scan(&name); err != nil {'
		echo '		return "", err'
		echo '	}'
		if [ "$i" -gt 0 ]; then
			echo "	below := &l$((i - 1)).Repo{}"
			echo '	return below.Load(ctx, name)'
		else
			echo '	return name, nil'
		fi
		echo '}'
		echo
		echo '// Count is a helper with no ctx of its own.'
		echo 'func Count(db *sql.DB) int {'
		echo '	var n int'
		echo '	_ = db.QueryRowContext(context.TODO(), "SELECT count(*) FROM t").Scan(&n)'
		echo '	return n'
		echo '}'
	} > "$d/l$i.go"
done
# A request scope on top, calling the top layer and a helper.
mkdir -p "$mod/handler"
cat > "$mod/handler/handler.go" <<GO
package handler

import (
	"context"
	"database/sql"

	"example.test/many/l$((N - 1))"
	"example.test/many/l$((N / 2))"
)

// Handle is a queue consumer.
//
//deadlinelint:scope
func Handle(ctx context.Context, db *sql.DB, id string) (string, error) {
	_ = l$((N / 2)).Count(db)
	r := &l$((N - 1)).Repo{}
	return r.Load(ctx, id)
}
GO
fi

cd "$mod"
time_one() { # prints CPU seconds (user+sys) of one run
	local TIMEFORMAT='%U %S'
	{ time "$work/deadlinelint" -test=false "$@" ./... >/dev/null 2>&1 || true; } 2>"$work/time.txt"
	tail -n 1 "$work/time.txt" | awk '{ printf "%.2f\n", $1 + $2 }'
}
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

"$work/deadlinelint" -test=false ./... >"$work/findings.txt" 2>&1 || true # warm caches
if $grpc; then
	echo "module: google.golang.org/grpc $version ($(go list ./... | wc -l) packages); findings with transitive facts: $(grep -c . "$work/findings.txt")"
	grep '(ctxbackground)' "$work/findings.txt" | sed 's/^/  /' || true
else
	echo "module: $N packages + 1 handler; findings with transitive facts:"
	sed 's/^/  /' "$work/findings.txt"
fi
off=() on=()
for _ in $(seq "$RUNS"); do
	off+=("$(time_one -ctxbackground.transitive=false)")
	on+=("$(time_one -ctxbackground.transitive=true)")
done
m_off=$(printf '%s\n' "${off[@]}" | median)
m_on=$(printf '%s\n' "${on[@]}" | median)
echo "CPU seconds, median of $RUNS alternating runs (machine: $(nproc) cores, $(go version | cut -d' ' -f3)):"
echo "  without transitive facts: $m_off   (runs: ${off[*]})"
echo "  with transitive facts:    $m_on   (runs: ${on[*]})"
awk -v a="$m_on" -v b="$m_off" 'BEGIN { printf "  ratio: %.2fx\n", a / b }'
