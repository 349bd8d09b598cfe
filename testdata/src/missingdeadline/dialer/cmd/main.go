// Command cmd calls through connections dialed by the transport package.
package main

import (
	"context"

	"example.com/gen/catalogpb"
	"missingdeadline/dialer/transport"
)

func main() {
	ctx := context.Background()

	cc, _ := transport.Dial("catalog:443")
	_, _ = catalogpb.NewCatalogClient(cc).GetItem(ctx, &catalogpb.GetItemRequest{Id: "1"}) // the interceptor sets a deadline
	_ = cc.Invoke(ctx, "/catalog.v1.Catalog/GetItem", nil, nil)                            // the interceptor sets a deadline

	client, _ := transport.Catalog("catalog:443")
	_, _ = client.GetItem(ctx, &catalogpb.GetItemRequest{Id: "2"}) // the interceptor sets a deadline

	plain, _ := transport.Plain("catalog:443")
	_, _ = catalogpb.NewCatalogClient(plain).GetItem(ctx, &catalogpb.GetItemRequest{Id: "3"}) // want `RPC CatalogClient.GetItem has no deadline \(ctx from context.Background\(\)`

	chained, _ := transport.Chained("catalog:443")
	_ = chained.Invoke(ctx, "/catalog.v1.Catalog/GetItem", nil, nil) // clientx's interceptor sets a deadline
	bounded, _ := transport.Bounded("catalog:443")
	_ = bounded.Invoke(ctx, "/catalog.v1.Catalog/GetItem", nil, nil) // so does clientx.Bounded
	tagged, _ := transport.Tagged("catalog:443")
	_ = tagged.Invoke(context.Background(), "/catalog.v1.Catalog/GetItem", nil, nil) // want `RPC ClientConn.Invoke has no deadline`

	either, _ := transport.Either("catalog:443", ctx != nil)
	_ = either.Invoke(context.Background(), "/catalog.v1.Catalog/GetItem", nil, nil) // want `RPC ClientConn.Invoke has no deadline`
}
