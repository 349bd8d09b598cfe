#!/bin/sh
# gen.sh regenerates the Go code of the examples from their .proto files.
#
# Needs protoc (Debian: apt-get install protobuf-compiler) and Go. The protoc
# plugins are built at pinned versions into a temporary directory that is
# removed afterwards. Neither CI nor users need this: the generated code is
# committed. Run from anywhere: sh examples/gen.sh
set -eu

cd "$(dirname "$0")"
module=github.com/deadlinelint/deadlinelint/examples

command -v protoc >/dev/null 2>&1 || {
	echo "gen.sh: protoc not found (apt-get install protobuf-compiler)" >&2
	exit 1
}

bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
GOBIN=$bin go install google.golang.org/protobuf/cmd/protoc-gen-go@v1.36.12
GOBIN=$bin go install google.golang.org/grpc/cmd/protoc-gen-go-grpc@v1.6.2
GOBIN=$bin go install connectrpc.com/connect/cmd/protoc-gen-connect-go@v1.19.1
PATH=$bin:$PATH

# grpc-go services: messages plus the generic-stream service code.
for dir in relaylab catalog; do
	protoc -I "$dir/proto" \
		--go_out=. --go_opt=module=$module \
		--go-grpc_out=. --go-grpc_opt=module=$module \
		$(find "$dir/proto" -name '*.proto' | sort)
done

# connect-go service.
protoc -I greet/proto \
	--go_out=. --go_opt=module=$module \
	--connect-go_out=. --connect-go_opt=module=$module \
	$(find greet/proto -name '*.proto' | sort)
