package mixedsupport

import (
	"context"

	"example.com/gen/legacypb"
)

// Echo is a fake declared in a file that does not import testing; only StartFake, which takes a
// *testing.T, registers it: test support all the same.
type Echo struct {
	legacypb.UnimplementedLegacyServer
	db db
}

func (e *Echo) Watch(req *legacypb.WatchRequest, stream legacypb.Legacy_WatchServer) error { // want Watch:"drops ctx"
	return e.db.Exec(context.Background(), "watch") // a fake: silent
}
