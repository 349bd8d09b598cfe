module example.test/monolith

go 1.26.0

require (
	connectrpc.com/connect v1.19.1
	example.test/acme v0.0.0
	github.com/lib/pq v1.12.3
	github.com/redis/go-redis/v9 v9.23.0
	github.com/segmentio/kafka-go v0.4.51
	golang.org/x/sync v0.25.0
	google.golang.org/grpc v1.85.0
	google.golang.org/protobuf v1.36.12
)

require (
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/klauspost/compress v1.15.9 // indirect
	github.com/pierrec/lz4/v4 v4.1.15 // indirect
	go.uber.org/atomic v1.12.0 // indirect
	golang.org/x/net v0.60.0 // indirect
	golang.org/x/sys v0.48.0 // indirect
	golang.org/x/text v0.42.0 // indirect
	google.golang.org/genproto/googleapis/rpc v0.0.0-20260817212433-ac3dfec99bb1 // indirect
)

replace example.test/acme => ./third_party/acme
