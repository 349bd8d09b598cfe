// Package legacy is the settings and command client of the v1 platform.
//
// Most of the monolith still reads feature flags and tier settings through it. New code should
// use the *Context methods; the context-free ones remain for callers that have not been migrated.
package legacy

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/lib/pq"
)

// ErrNoSetting is returned when a key is not set.
var ErrNoSetting = errors.New("legacy: setting not found")

// Client reads and writes the v1 settings table and runs v1 bus commands.
type Client struct {
	db     *sql.DB
	prefix string

	mu    sync.RWMutex
	local map[string]string
}

// New returns a client reading keys under prefix.
func New(db *sql.DB, prefix string) *Client {
	return &Client{db: db, prefix: prefix, local: map[string]string{}}
}

// Override pins a key locally (used by tests and by the -set flag of the admin tool).
func (c *Client) Override(key, value string) {
	c.mu.Lock()
	c.local[key] = value
	c.mu.Unlock()
}

// Get returns the value of key.
//
// Deprecated: use GetContext.
func (c *Client) Get(key string) (string, error) {
	return c.GetContext(context.Background(), key)
}

// GetContext returns the value of key.
func (c *Client) GetContext(ctx context.Context, key string) (string, error) {
	c.mu.RLock()
	v, ok := c.local[key]
	c.mu.RUnlock()
	if ok {
		return v, nil
	}
	err := c.db.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = $1`, c.prefix+key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", ErrNoSetting
	}
	if err != nil {
		return "", fmt.Errorf("legacy: get %s: %w", key, err)
	}
	return v, nil
}

// Set stores key.
//
// Deprecated: use SetContext.
func (c *Client) Set(key, value string) error {
	return c.SetContext(context.Background(), key, value)
}

// SetContext stores key.
func (c *Client) SetContext(ctx context.Context, key, value string) error {
	_, err := c.db.ExecContext(ctx,
		`INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
		c.prefix+key, value)
	return err
}

// Do runs a command on the v1 command bus and returns its textual result. It predates contexts:
// it is bounded only by the server-side statement_timeout.
func (c *Client) Do(cmd string, args ...string) (string, error) {
	var out string
	err := c.db.QueryRow(`SELECT legacy_command($1, $2)`, strings.ToUpper(cmd), pq.Array(args)).Scan(&out) // OK
	if err != nil {
		return "", fmt.Errorf("legacy: %s: %w", cmd, err)
	}
	return out, nil
}

// DoContext runs a command on the v1 command bus.
func (c *Client) DoContext(ctx context.Context, cmd string, args ...string) (string, error) {
	var out string
	err := c.db.QueryRowContext(ctx, `SELECT legacy_command($1, $2)`, strings.ToUpper(cmd), pq.Array(args)).Scan(&out)
	if err != nil {
		return "", fmt.Errorf("legacy: %s: %w", cmd, err)
	}
	return out, nil
}

// Ping checks that the settings table is reachable. Called once at start-up.
func (c *Client) Ping() error {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second) // OK
	defer cancel()
	return c.db.PingContext(ctx)
}

// Close is a no-op kept for interface compatibility with the v1 client.
func (c *Client) Close() error { return nil }

// Lookup resolves a service name in the v1 directory (TXT records under dir.internal).
func Lookup(name string) ([]string, error) {
	return net.LookupTXT(name + ".dir.internal") // OK
}

// LookupContext resolves a service name in the v1 directory.
func LookupContext(ctx context.Context, name string) ([]string, error) {
	return net.DefaultResolver.LookupTXT(ctx, name+".dir.internal")
}
