package main

import (
	"context"
	"time"

	"example.com/gen/catalogpb"
	"missingdeadline/sealed/apilib"
)

func main() {
	s := &apilib.Store{}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_, _ = s.C.GetItem(ctx, &catalogpb.GetItemRequest{}) // a client call: the package is checked
	_ = s.Get("x")                                       // want `Store.Get calls RPC`
}
