module github.com/deadlinelint/deadlinelint/examples

go 1.26.0

require (
	connectrpc.com/connect v1.19.1
	github.com/deadlinelint/deadlinelint v0.0.0-00010101000000-000000000000
	github.com/deadlinelint/deadlinelint/runtime v0.0.0-00010101000000-000000000000
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	golang.org/x/sync v0.25.0
	google.golang.org/grpc v1.85.0
	google.golang.org/protobuf v1.36.12
)

require (
	golang.org/x/mod v0.41.0 // indirect
	golang.org/x/net v0.61.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/text v0.43.0 // indirect
	golang.org/x/tools v0.51.0 // indirect
	google.golang.org/genproto/googleapis/rpc v0.0.0-20260817212433-ac3dfec99bb1 // indirect
)

// The examples are built and linted against the linter of this checkout. The linter's own
// module (the repository root) requires only golang.org/x/tools: gRPC, protobuf and
// connect-go, which the example services need, live here so that adding the linter to a
// module never moves that module's dependencies.
replace github.com/deadlinelint/deadlinelint => ../

// relaylab's tests use the runtime companion's lab, from this checkout too.
replace github.com/deadlinelint/deadlinelint/runtime => ../runtime
