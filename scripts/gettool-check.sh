#!/usr/bin/env bash
# gettool-check.sh — adding deadlinelint to a module must never move that module's
# dependencies or its Go version.
#
#   scripts/gettool-check.sh
#
# In a scratch module on an older gRPC (v1.77) and protobuf and an older go line (go 1.24.0,
# the first release with the tool directive), adding the linter as a tool as the README says
# (`go mod edit -tool`, then `go mod tidy`) — replaced by this checkout — may add requirements
# (the linter and what it needs: golang.org/x/tools, x/mod, x/sync) but must change no
# requirement the module had, nor its go or toolchain line. Then `go tool deadlinelint` must
# run on the module.
#
# The floor: the linter needs golang.org/x/tools v0.38.0 (the oldest that speaks the vet
# protocol of Go 1.26 and reads Go 1.26 code), whose own requirements (x/net v0.46.0, x/sys
# v0.37.0) become every module's floor, as for any go/analysis linter; a module on a gRPC older
# than v1.77 has older ones, and go get raises them.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export GOWORK=off GOFLAGS=-mod=mod GOTOOLCHAIN=local
cd "$work"

cat >go.mod <<'MOD'
module example.com/scratch

go 1.24.0
MOD
cat >main.go <<'GO'
package main

import (
	"context"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/protobuf/proto"
)

func main() {
	cc, err := grpc.NewClient("localhost:1", grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		panic(err)
	}
	resp, _ := grpc_health_v1.NewHealthClient(cc).Check(context.Background(), &grpc_health_v1.HealthCheckRequest{})
	_ = proto.Size(resp)
}
GO
go get google.golang.org/grpc@v1.77.0 google.golang.org/protobuf@v1.36.10 >/dev/null 2>&1
go mod tidy
go mod edit -json >before.json

link() { go mod edit -replace "github.com/deadlinelint/deadlinelint=$root" -require "github.com/deadlinelint/deadlinelint@v0.0.0-00010101000000-000000000000"; }
# The README's route for a module not yet published: go get -tool would ask the proxy for it
# (and for .../cmd/deadlinelint as a module path) and stop at its refusal, so the tool line is
# written with go mod edit and go mod tidy resolves the rest.
link
{ go mod edit -tool github.com/deadlinelint/deadlinelint/cmd/deadlinelint && go mod tidy; } 2>get.err || {
	echo "gettool-check: go mod edit -tool && go mod tidy failed:" >&2
	cat get.err >&2
	exit 1
}
go tool deadlinelint -version >/dev/null 2>get.err || {
	echo "gettool-check: go tool deadlinelint failed:" >&2
	cat get.err >&2
	exit 1
}
go mod edit -json >after.json

python3 - before.json after.json <<'PY'
import json, sys
before, after = (json.load(open(p)) for p in sys.argv[1:3])
bad = []
for key in ("Go", "Toolchain"):
    if before.get(key) != after.get(key):
        bad.append(f"{key.lower()} line {before.get(key)} -> {after.get(key)}")
now = {r["Path"]: r["Version"] for r in after.get("Require") or []}
for r in before.get("Require") or []:
    if now.get(r["Path"]) != r["Version"]:
        bad.append(f"{r['Path']} {r['Version']} -> {now.get(r['Path'])}")
added = sorted(set(now) - {r["Path"] for r in before.get("Require") or []})
if bad:
    print("gettool-check: FAIL go get -tool changed the module's own requirements:", *bad, sep="\n  ")
    sys.exit(1)
print("gettool-check: ok   no requirement or go line changed; added:", ", ".join(added))
PY

code=0
go tool deadlinelint ./... >lint.out 2>&1 || code=$?
if [ "$code" -ne 1 ] || ! grep -q 'missingdeadline' lint.out; then
	echo "gettool-check: FAIL go tool deadlinelint exited $code, want 1 with the scratch module's missing deadline" >&2
	cat lint.out >&2
	exit 1
fi
echo "gettool-check: ok   go tool deadlinelint runs in the module and reports its missing deadline"
