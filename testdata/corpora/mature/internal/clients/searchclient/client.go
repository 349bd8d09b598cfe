// Package searchclient is the typed client other services and tools use to
// talk to the search service.
package searchclient

import (
	"context"
	"fmt"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	searchv1 "example.test/mature/gen/search/v1"
)

// Client wraps the generated SearchService client.
type Client struct {
	api            searchv1.SearchServiceClient
	conn           *grpc.ClientConn
	reindexTimeout time.Duration
}

// Dial connects to the search service at target.
func Dial(target string) (*Client, error) {
	conn, err := grpc.NewClient(target, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return nil, fmt.Errorf("searchclient: dial %s: %w", target, err)
	}
	c := New(conn)
	c.conn = conn
	return c, nil
}

// New wraps an existing connection.
func New(cc grpc.ClientConnInterface) *Client {
	return &Client{api: searchv1.NewSearchServiceClient(cc), reindexTimeout: 10 * time.Minute}
}

// Close closes the connection if Dial opened it.
func (c *Client) Close() error {
	if c.conn == nil {
		return nil
	}
	return c.conn.Close()
}

// Query runs a search and returns its hits.
func (c *Client) Query(ctx context.Context, query, warehouse string, limit int) ([]*searchv1.SearchHit, error) {
	resp, err := c.api.Search(ctx, &searchv1.SearchRequest{Query: query, Warehouse: warehouse, Limit: int32(limit)}) // OK
	if err != nil {
		return nil, err
	}
	return resp.GetHits(), nil
}

// Index adds or replaces one document.
func (c *Client) Index(ctx context.Context, sku, name, warehouse string) error {
	_, err := c.api.IndexItem(ctx, &searchv1.IndexItemRequest{Sku: sku, Name: name, Warehouse: warehouse}) // OK
	return err
}

// Stats returns the index size and the length of the pending queue.
func (c *Client) Stats(ctx context.Context) (*searchv1.StatsResponse, error) {
	return c.api.Stats(ctx, &searchv1.StatsRequest{}) // OK
}

// Reindex rebuilds the documents of one warehouse. A rebuild of a large
// warehouse takes minutes; it is bounded here even when the caller sets no
// deadline of its own.
func (c *Client) Reindex(ctx context.Context, warehouse string, batch int) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, c.reindexTimeout)
	defer cancel()
	resp, err := c.api.Reindex(ctx, &searchv1.ReindexRequest{Warehouse: warehouse, BatchSize: int32(batch)}) // OK
	if err != nil {
		return 0, err
	}
	return int(resp.GetIndexed()), nil
}

// Suggest opens an autocomplete stream.
func (c *Client) Suggest(ctx context.Context) (searchv1.SearchService_SuggestClient, error) {
	return c.api.Suggest(ctx) // OK
}
