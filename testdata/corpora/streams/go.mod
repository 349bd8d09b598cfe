module example.test/streams

go 1.26.0

require (
	connectrpc.com/connect v1.19.1
	google.golang.org/grpc v1.85.0
	google.golang.org/protobuf v1.36.12
)
