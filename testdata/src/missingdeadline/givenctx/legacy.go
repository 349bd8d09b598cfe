package givenctx

import (
	"context"

	netctx "golang.org/x/net/context"

	"example.com/gen/catalogpb"
)

// Legacy's ctx has the type of golang.org/x/net/context, and package context is used for the
// root alone: told to use it, but no fix (the import would be left unused).
func (w *Writer) Legacy(ctx netctx.Context, id string) error {
	_, err := w.c.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: id}) // want `use the ctx Writer\.Legacy is given$`
	return err
}
