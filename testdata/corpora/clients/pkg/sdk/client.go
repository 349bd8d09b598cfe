// Package sdk is the client library the platform's tools and services use to
// talk to billing, inventory and the job queue.
package sdk

import (
	"errors"
	"fmt"
	"time"

	"google.golang.org/grpc"

	billingv1 "example.test/clients/gen/billing/v1"
	inventoryv1 "example.test/clients/gen/inventory/v1"
	jobsv1 "example.test/clients/gen/jobs/v1"
	"example.test/clients/pkg/sdk/internal/transport"
)

// Config names the endpoints and the defaults of a Client.
type Config struct {
	BillingAddr   string
	InventoryAddr string
	JobsAddr      string
	UserAgent     string
	// DefaultTimeout bounds calls made without a deadline where the SDK
	// applies one (billing calls, reservations, charges).
	DefaultTimeout time.Duration
}

// Client bundles the service clients.
type Client struct {
	billing   billingv1.BillingServiceClient
	inventory inventoryv1.InventoryServiceClient
	jobs      jobsv1.JobQueueClient

	inventoryConn  grpc.ClientConnInterface
	conns          []*grpc.ClientConn
	defaultTimeout time.Duration
	source         string
}

// New dials every service named in cfg.
func New(cfg Config) (*Client, error) {
	if cfg.DefaultTimeout <= 0 {
		cfg.DefaultTimeout = 10 * time.Second
	}
	o := transport.Options{UserAgent: cfg.UserAgent, DefaultTimeout: cfg.DefaultTimeout}

	billingConn, err := transport.DialWithDefaults(cfg.BillingAddr, o)
	if err != nil {
		return nil, err
	}
	inventoryConn, err := transport.Dial(cfg.InventoryAddr, o)
	if err != nil {
		billingConn.Close()
		return nil, err
	}
	jobsConn, err := transport.Dial(cfg.JobsAddr, o)
	if err != nil {
		billingConn.Close()
		inventoryConn.Close()
		return nil, err
	}
	c := NewFromConns(billingConn, inventoryConn, jobsConn, cfg.DefaultTimeout)
	c.conns = []*grpc.ClientConn{billingConn, inventoryConn, jobsConn}
	c.source = cfg.UserAgent
	return c, nil
}

// NewFromConns builds a Client over existing connections (tests, in-process
// fakes). The caller keeps ownership of the connections.
func NewFromConns(billing, inventory, jobs grpc.ClientConnInterface, defaultTimeout time.Duration) *Client {
	return &Client{
		billing:        billingv1.NewBillingServiceClient(billing),
		inventory:      inventoryv1.NewInventoryServiceClient(inventory),
		jobs:           jobsv1.NewJobQueueClient(jobs),
		inventoryConn:  inventory,
		defaultTimeout: defaultTimeout,
		source:         "sdk",
	}
}

// InventoryConn exposes the raw inventory connection for tools that call
// methods the SDK does not wrap yet.
func (c *Client) InventoryConn() grpc.ClientConnInterface { return c.inventoryConn }

// Close closes the connections opened by New.
func (c *Client) Close() error {
	var errs []error
	for _, cc := range c.conns {
		if err := cc.Close(); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("sdk: close: %w", errors.Join(errs...))
	}
	return nil
}
