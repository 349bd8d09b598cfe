// Package kv is a small client for the gateway's cache sidecar, which speaks a
// memcached-compatible text protocol on a local socket.
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
	"sync"
	"time"
)

// ErrMiss is returned when a key is not in the cache.
var ErrMiss = errors.New("kv: cache miss")

// Client talks to one sidecar. It keeps a small pool of idle connections.
type Client struct {
	addr    string
	timeout time.Duration
	dialer  net.Dialer

	mu   sync.Mutex
	idle []net.Conn
}

// New returns a client for the sidecar at addr. timeout bounds every round trip
// made without a context deadline.
func New(addr string, timeout time.Duration) *Client {
	return &Client{addr: addr, timeout: timeout, dialer: net.Dialer{Timeout: timeout}}
}

// Get returns the value stored under key, using the client's default timeout.
func (c *Client) Get(key string) ([]byte, error) {
	conn := c.idleConn()
	if conn == nil {
		var err error
		if conn, err = c.dialer.Dial("tcp", c.addr); err != nil {
			return nil, err
		}
	}
	return c.get(conn, time.Now().Add(c.timeout), key)
}

// GetContext is Get bounded by ctx.
func (c *Client) GetContext(ctx context.Context, key string) ([]byte, error) {
	conn, err := c.take(ctx)
	if err != nil {
		return nil, err
	}
	return c.get(conn, c.deadline(ctx), key)
}

// MGetContext fetches several keys in one round trip. Missing keys are absent
// from the result.
func (c *Client) MGetContext(ctx context.Context, keys ...string) (map[string][]byte, error) {
	conn, err := c.take(ctx)
	if err != nil {
		return nil, err
	}
	_ = conn.SetDeadline(c.deadline(ctx))
	if _, err := fmt.Fprintf(conn, "get %s\r\n", strings.Join(keys, " ")); err != nil {
		conn.Close()
		return nil, err
	}
	out := make(map[string][]byte, len(keys))
	r := bufio.NewReader(conn)
	for {
		k, v, err := readValue(r)
		if errors.Is(err, ErrMiss) {
			break
		}
		if err != nil {
			conn.Close()
			return nil, err
		}
		out[k] = v
	}
	c.put(conn)
	return out, nil
}

// SetContext stores value under key for ttl.
func (c *Client) SetContext(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	conn, err := c.take(ctx)
	if err != nil {
		return err
	}
	_ = conn.SetDeadline(c.deadline(ctx))
	if _, err := fmt.Fprintf(conn, "set %s 0 %d %d\r\n%s\r\n", key, int(ttl.Seconds()), len(value), value); err != nil {
		conn.Close()
		return err
	}
	line, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil {
		conn.Close()
		return err
	}
	c.put(conn)
	if strings.TrimSpace(line) != "STORED" {
		return fmt.Errorf("kv: set %s: %s", key, strings.TrimSpace(line))
	}
	return nil
}

// IncrContext increments the counter under key, creating it with ttl, and
// returns the new value.
func (c *Client) IncrContext(ctx context.Context, key string, ttl time.Duration) (int64, error) {
	conn, err := c.take(ctx)
	if err != nil {
		return 0, err
	}
	_ = conn.SetDeadline(c.deadline(ctx))
	if _, err := fmt.Fprintf(conn, "incr %s 1 %d\r\n", key, int(ttl.Seconds())); err != nil {
		conn.Close()
		return 0, err
	}
	line, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil {
		conn.Close()
		return 0, err
	}
	c.put(conn)
	return strconv.ParseInt(strings.TrimSpace(line), 10, 64)
}

// DeletePrefixContext removes every key starting with prefix and returns how
// many were removed.
func (c *Client) DeletePrefixContext(ctx context.Context, prefix string) (int64, error) {
	conn, err := c.take(ctx)
	if err != nil {
		return 0, err
	}
	_ = conn.SetDeadline(c.deadline(ctx))
	if _, err := fmt.Fprintf(conn, "delprefix %s\r\n", prefix); err != nil {
		conn.Close()
		return 0, err
	}
	line, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil {
		conn.Close()
		return 0, err
	}
	c.put(conn)
	return strconv.ParseInt(strings.TrimPrefix(strings.TrimSpace(line), "DELETED "), 10, 64)
}

// Close drops the idle connections.
func (c *Client) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, conn := range c.idle {
		conn.Close()
	}
	c.idle = nil
	return nil
}

func (c *Client) deadline(ctx context.Context) time.Time {
	if d, ok := ctx.Deadline(); ok {
		return d
	}
	return time.Now().Add(c.timeout)
}

// take returns an idle connection or dials a new one bounded by ctx.
func (c *Client) take(ctx context.Context) (net.Conn, error) {
	if conn := c.idleConn(); conn != nil {
		return conn, nil
	}
	return c.dialer.DialContext(ctx, "tcp", c.addr)
}

func (c *Client) idleConn() net.Conn {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := len(c.idle)
	if n == 0 {
		return nil
	}
	conn := c.idle[n-1]
	c.idle = c.idle[:n-1]
	return conn
}

func (c *Client) put(conn net.Conn) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.idle) >= 8 {
		conn.Close()
		return
	}
	c.idle = append(c.idle, conn)
}

func (c *Client) get(conn net.Conn, deadline time.Time, key string) ([]byte, error) {
	_ = conn.SetDeadline(deadline)
	if _, err := fmt.Fprintf(conn, "get %s\r\n", key); err != nil {
		conn.Close()
		return nil, err
	}
	r := bufio.NewReader(conn)
	_, v, err := readValue(r)
	if err != nil && !errors.Is(err, ErrMiss) {
		conn.Close()
		return nil, err
	}
	if err == nil {
		if _, err := r.ReadString('\n'); err != nil { // trailing END
			conn.Close()
			return nil, err
		}
	}
	c.put(conn)
	return v, err
}

// readValue reads one "VALUE key flags len" block, or ErrMiss on END.
func readValue(r *bufio.Reader) (string, []byte, error) {
	line, err := r.ReadString('\n')
	if err != nil {
		return "", nil, err
	}
	line = strings.TrimSpace(line)
	if line == "END" {
		return "", nil, ErrMiss
	}
	f := strings.Fields(line)
	if len(f) != 4 || f[0] != "VALUE" {
		return "", nil, fmt.Errorf("kv: unexpected reply %q", line)
	}
	n, err := strconv.Atoi(f[3])
	if err != nil {
		return "", nil, fmt.Errorf("kv: bad length in %q", line)
	}
	buf := make([]byte, n+2)
	if _, err := io.ReadFull(r, buf); err != nil {
		return "", nil, err
	}
	return f[1], buf[:n], nil
}
