package tied

import (
	"context"

	"example.com/gen/catalogpb"
)

type tenantKey struct{}

// withTenant carries the tenant in a ctx derived from ctx: values, no deadline.
func withTenant(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, tenantKey{}, id)
}

// Valued makes its root carry values before it makes it cancellable and ties it to the request:
// nothing is lost. A root that also goes to work untied on the way, or one tied to the server's
// lifetime, is reported.
type Valued struct {
	catalogpb.UnimplementedCatalogServer
	logs     logs
	lifetime context.Context
}

func (v *Valued) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	fctx, cancel := context.WithCancel(withTenant(context.Background(), req.GetId())) // tied to the request: silent
	defer cancel()
	stop := context.AfterFunc(ctx, cancel)
	defer stop()
	return &catalogpb.Item{Id: req.GetId()}, v.logs.Follow(fctx, req.GetId())
}

func (v *Valued) ListItems(req *catalogpb.ListItemsRequest, stream catalogpb.Catalog_ListItemsServer) error {
	fctx, cancel := context.WithCancel(context.WithValue(withTenant(context.TODO(), "t"), tenantKey{}, "all")) // two values on the way: silent
	defer cancel()
	defer context.AfterFunc(stream.Context(), cancel)()
	return v.logs.Follow(fctx, "all")
}

func (v *Valued) UploadItems(stream catalogpb.Catalog_UploadItemsServer) error {
	tctx := withTenant(context.Background(), "t") // want `context.Background\(\) in handler Valued.UploadItems drops the caller's deadline`
	_ = v.logs.Follow(tctx, "before")             // the valued root goes to work untied first
	fctx, cancel := context.WithCancel(tctx)
	defer cancel()
	defer context.AfterFunc(stream.Context(), cancel)()
	return v.logs.Follow(fctx, "after")
}

func (v *Valued) Chat(stream catalogpb.Catalog_ChatServer) error {
	fctx, cancel := context.WithCancel(withTenant(context.Background(), "t")) // want `context.Background\(\) in handler Valued.Chat drops the caller's deadline`
	defer cancel()
	defer context.AfterFunc(v.lifetime, cancel)() // the server's lifetime, not the request's
	return v.logs.Follow(fctx, "chat")
}

// followed hands its ctx to work before it adds a value: more than carrying values.
func followed(ctx context.Context, l logs, id string) context.Context {
	_ = l.Follow(ctx, id)
	return withTenant(ctx, id)
}

// Busy ties a root that a helper first hands to work, untied: reported.
type Busy struct{ Valued }

func (b *Busy) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	fctx, cancel := context.WithCancel(followed(context.Background(), b.logs, req.GetId())) // want `context.Background\(\) in handler Busy.GetItem drops the caller's deadline`
	defer cancel()
	defer context.AfterFunc(ctx, cancel)()
	return &catalogpb.Item{Id: req.GetId()}, b.logs.Follow(fctx, req.GetId())
}
