package branch

import (
	"context"
	"os/exec"

	"example.com/gen/catalogpb"
)

// loadOpt loads with a root only when ensure is set.
func loadOpt(id string, ensure bool) { // want loadOpt:"drops ctx: .* if param 1 is true"
	if !ensure {
		return
	}
	_ = exec.CommandContext(context.Background(), "load", id).Run()
}

// each runs fn on every id, always asking for the load.
func each(ids []string, fn func(string, bool)) {
	for _, id := range ids {
		fn(id, true)
	}
}

// warmAll hands loadOpt to each: the load's condition names loadOpt's parameter, not warmAll's
// quiet, so every call of warmAll reaches the root.
func warmAll(ids []string, quiet bool) { // want warmAll:"drops ctx"
	each(ids, loadOpt)
}

type Warmer struct {
	catalogpb.UnimplementedCatalogServer
}

func (w *Warmer) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	warmAll([]string{req.GetId()}, false) // want `branch\.warmAll, called in handler Warmer\.GetItem, works with context\.Background\(\)`
	return &catalogpb.Item{Id: req.GetId()}, nil
}
