// Package relay speaks the upstream broker's line protocol over TCP. The region bridge uses it
// to copy events between data centres.
package relay

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"time"
)

const (
	defaultIOTimeout = 10 * time.Second
	minWriteBudget   = 50 * time.Millisecond
)

var errNoTime = errors.New("relay: too little time left to write")

// Conn is one connection to the broker.
type Conn struct {
	mu   sync.Mutex
	conn net.Conn
	rd   *bufio.Reader
}

// Dial connects to the broker at addr and completes the HELLO handshake.
func Dial(ctx context.Context, addr, client string) (*Conn, error) {
	d := net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}
	nc, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	// The handshake has to finish within the caller's deadline too.
	dl, _ := ctx.Deadline()
	if err := nc.SetDeadline(dl); err != nil { // BUG: deadlinemath
		nc.Close()
		return nil, err
	}
	c := &Conn{conn: nc, rd: bufio.NewReader(nc)}
	if _, err := fmt.Fprintf(nc, "HELLO %s\r\n", client); err != nil {
		nc.Close()
		return nil, err
	}
	if line, err := c.rd.ReadString('\n'); err != nil || !strings.HasPrefix(line, "+OK") {
		nc.Close()
		return nil, fmt.Errorf("relay: handshake with %s: %q %v", addr, line, err)
	}
	return c, nil
}

// Publish writes one event within ctx's deadline.
func (c *Conn) Publish(ctx context.Context, topic string, payload []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	dl, ok := ctx.Deadline()
	if ok && time.Until(dl) < minWriteBudget { // OK: guarded by ok
		return errNoTime
	}
	if err := c.conn.SetWriteDeadline(dl); err != nil { // BUG: deadlinemath
		return err
	}
	_, err := fmt.Fprintf(c.conn, "PUB %s %d\r\n%s\r\n", topic, len(payload), payload)
	return err
}

// Ack reads the broker's reply to the last command.
func (c *Conn) Ack(ctx context.Context) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if dl, ok := ctx.Deadline(); ok {
		c.conn.SetReadDeadline(dl) // OK: inside the ok branch
	} else {
		c.conn.SetReadDeadline(time.Now().Add(defaultIOTimeout))
	}
	line, err := c.rd.ReadString('\n')
	if err != nil {
		return "", err
	}
	if strings.HasPrefix(line, "-ERR") {
		return "", errors.New(strings.TrimSpace(strings.TrimPrefix(line, "-ERR")))
	}
	return strings.TrimSpace(line), nil
}

// Ping checks that the link is alive; a healthy broker answers well within a millisecond.
func (c *Conn) Ping() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.conn.SetDeadline(time.Now().Add(900)); err != nil { // BUG: deadlinemath
		return err
	}
	defer c.conn.SetDeadline(time.Time{}) // OK: the zero time clears the deadline on purpose
	if _, err := c.conn.Write([]byte("PING\r\n")); err != nil {
		return err
	}
	line, err := c.rd.ReadString('\n')
	if err != nil {
		return err
	}
	if !strings.HasPrefix(line, "+PONG") {
		return fmt.Errorf("relay: unexpected ping reply %q", line)
	}
	return nil
}

// Close closes the connection.
func (c *Conn) Close() error { return c.conn.Close() }
