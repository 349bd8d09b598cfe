// Package fallback is a file system over the catalog service whose open files keep the ctx of
// the request that opened them, with context.Background() as the fallback for a file opened
// with none. The fallback replaces no caller's ctx: which deadline the calls get is decided
// where the file is opened. A root that is no fallback is reported.
package fallback

import (
	"context"

	"example.com/gen/catalogpb"
)

type File struct {
	ctx    context.Context // the request that opened the file, nil outside one
	client catalogpb.CatalogClient
	id     string
}

// Open opens a file for the request ctx.
func Open(ctx context.Context, client catalogpb.CatalogClient, id string) *File {
	return &File{ctx: ctx, client: client, id: id}
}

// requestContext is the ctx of the request that opened the file, or a bare one for a file
// opened outside a request.
func (f *File) requestContext() context.Context {
	if f.ctx != nil {
		return f.ctx
	}
	return context.Background()
}

// Stat reads the item with the opener's ctx: silent.
func (f *File) Stat() (*catalogpb.Item, error) {
	return f.client.GetItem(f.requestContext(), &catalogpb.GetItemRequest{Id: f.id})
}

// Name does the same with the fallback written inline: silent.
func (f *File) Name() (string, error) {
	ctx := f.ctx
	if ctx == nil {
		ctx = context.TODO()
	}
	item, err := f.client.GetItem(ctx, &catalogpb.GetItemRequest{Id: f.id})
	return item.GetName(), err
}

// bare is no fallback: every file gets a root.
func (f *File) bare() context.Context { return context.Background() }

// Size reads the item with a root whatever the opener gave.
func (f *File) Size() (int, error) {
	item, err := f.client.GetItem(f.bare(), &catalogpb.GetItemRequest{Id: f.id}) // want `RPC CatalogClient\.GetItem .*no deadline`
	return len(item.GetName()), err
}

// draft is a file nothing in the package ever gives a ctx: its fallback is the ctx.
type draft struct {
	ctx    context.Context
	client catalogpb.CatalogClient
}

func (d *draft) context() context.Context {
	if d.ctx != nil {
		return d.ctx
	}
	return context.Background()
}

// Save reads the item with the draft's ctx, always the root.
func Save(client catalogpb.CatalogClient, id string) error {
	d := &draft{client: client}
	_, err := d.client.GetItem(d.context(), &catalogpb.GetItemRequest{Id: id}) // want `RPC CatalogClient\.GetItem .*no deadline`
	return err
}

// Load checks a local that is never set: the fallback is the ctx.
func Load(client catalogpb.CatalogClient, id string) error {
	var ctx context.Context
	if ctx == nil {
		ctx = context.TODO()
	}
	_, err := client.GetItem(ctx, &catalogpb.GetItemRequest{Id: id}) // want `RPC CatalogClient\.GetItem .*no deadline`
	return err
}

// Host is what a plugin is run under: it hands out the ctx of the run that started it.
type Host struct {
	run context.Context
}

// Request is the ctx of the run the host serves.
func (h *Host) Request() context.Context { return h.run }

// Plugin calls the catalog for the host that loaded it, or for nobody when it was built bare.
type Plugin struct {
	host   *Host
	cache  *Cache
	client catalogpb.CatalogClient
	id     string
}

// NewPlugin makes a plugin for host.
func NewPlugin(host *Host, client catalogpb.CatalogClient, id string) *Plugin {
	return &Plugin{host: host, client: client, id: id}
}

func (p *Plugin) requestContext() context.Context {
	if p.host == nil {
		return context.Background()
	}
	return p.host.Request()
}

// Describe reads the item with the host's ctx; the root stands in only when there is no host:
// silent.
func (p *Plugin) Describe() (*catalogpb.Item, error) {
	return p.client.GetItem(p.requestContext(), &catalogpb.GetItemRequest{Id: p.id})
}

// Cache holds items; it holds no ctx.
type Cache struct {
	items map[string]*catalogpb.Item
}

// Fetch uses a root whenever the plugin has no cache: a nil cache says nothing about the ctx,
// the root is the ctx.
func (p *Plugin) Fetch() (*catalogpb.Item, error) {
	ctx := p.requestContext()
	if p.cache == nil {
		ctx = context.TODO()
	}
	return p.client.GetItem(ctx, &catalogpb.GetItemRequest{Id: p.id}) // want `RPC CatalogClient\.GetItem .*no deadline`
}
