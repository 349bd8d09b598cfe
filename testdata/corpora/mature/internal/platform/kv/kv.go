// Package kv is a small client for the shared cache tier, which speaks a
// line-oriented protocol over TCP:
//
//	GET <key>\n                -> VALUE <n>\n<n bytes>\n | MISS\n
//	SET <key> <ttl-ms> <n>\n.. -> OK\n
package kv

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"time"
)

// ErrMiss is returned when the key is not cached.
var ErrMiss = errors.New("kv: miss")

// Client talks to one cache node. Every operation opens its own connection;
// the cache sits on the same host, so dialling is cheap.
type Client struct {
	addr    string
	timeout time.Duration
	dialer  net.Dialer
}

// New returns a client for addr. timeout bounds operations whose caller
// supplies no deadline.
func New(addr string, timeout time.Duration) *Client {
	return &Client{addr: addr, timeout: timeout}
}

// Get fetches key using the client's default timeout.
func (c *Client) Get(key string) ([]byte, error) {
	conn, err := net.DialTimeout("tcp", c.addr, c.timeout) // OK
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	if err := conn.SetDeadline(time.Now().Add(c.timeout)); err != nil {
		return nil, err
	}
	return get(conn, key)
}

// GetContext fetches key, giving up when ctx is done.
func (c *Client) GetContext(ctx context.Context, key string) ([]byte, error) {
	conn, err := c.dial(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { _ = conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	return get(conn, key)
}

// SetContext stores value under key for ttl.
func (c *Client) SetContext(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	conn, err := c.dial(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { _ = conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	if _, err := fmt.Fprintf(conn, "SET %s %d %d\n", key, ttl.Milliseconds(), len(value)); err != nil {
		return err
	}
	if _, err := conn.Write(append(value, '\n')); err != nil {
		return err
	}
	line, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil {
		return err
	}
	if strings.TrimSpace(line) != "OK" {
		return fmt.Errorf("kv: set %q: %s", key, strings.TrimSpace(line))
	}
	return nil
}

func (c *Client) dial(ctx context.Context) (net.Conn, error) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.timeout)
		defer cancel()
	}
	return c.dialer.DialContext(ctx, "tcp", c.addr)
}

func get(conn net.Conn, key string) ([]byte, error) {
	if _, err := fmt.Fprintf(conn, "GET %s\n", key); err != nil {
		return nil, err
	}
	r := bufio.NewReader(conn)
	line, err := r.ReadString('\n')
	if err != nil {
		return nil, err
	}
	line = strings.TrimSpace(line)
	if line == "MISS" {
		return nil, ErrMiss
	}
	n, err := strconv.Atoi(strings.TrimPrefix(line, "VALUE "))
	if err != nil {
		return nil, fmt.Errorf("kv: bad reply %q", line)
	}
	buf := make([]byte, n+1)
	if _, err := io.ReadFull(r, buf); err != nil {
		return nil, err
	}
	return buf[:n], nil
}
