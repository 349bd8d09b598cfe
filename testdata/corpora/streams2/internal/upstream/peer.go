package upstream

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"time"
)

var errNoDeadline = errors.New("upstream: peer calls need a deadline")

// Peer is a connection to another relay region, speaking the line-based replication protocol.
type Peer struct {
	conn            net.Conn
	r               *bufio.Reader
	requireDeadline bool
}

// DialPeer connects to a peer relay.
func DialPeer(ctx context.Context, addr string, requireDeadline bool) (*Peer, error) {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	return &Peer{conn: conn, r: bufio.NewReader(conn), requireDeadline: requireDeadline}, nil
}

// Send writes one line and waits for the peer's answer, within the caller's deadline.
func (p *Peer) Send(ctx context.Context, line string) (string, error) {
	dl, _ := ctx.Deadline()
	if err := p.conn.SetDeadline(dl); err != nil { // BUG: deadlinemath
		return "", err
	}
	if _, err := fmt.Fprintf(p.conn, "%s\n", line); err != nil {
		return "", err
	}
	return p.r.ReadString('\n')
}

// Fetch asks the peer for the records of a table after a position.
func (p *Peer) Fetch(ctx context.Context, table string, after int64) (string, error) {
	dl, ok := ctx.Deadline()
	if !ok && p.requireDeadline {
		return "", errNoDeadline
	}
	if err := p.conn.SetReadDeadline(dl); err != nil { // BUG: deadlinemath
		return "", err
	}
	if _, err := fmt.Fprintf(p.conn, "FETCH %s %d\n", table, after); err != nil {
		return "", err
	}
	return p.r.ReadString('\n')
}

// Hello introduces this region to the peer, with the deadline of the session that opened the
// connection so that the peer can drop work nobody will wait for.
func (p *Peer) Hello(ctx context.Context, region string) error {
	dl, _ := ctx.Deadline()
	_, err := fmt.Fprintf(p.conn, "HELLO %s %s\n", region, dl.Format(time.RFC3339Nano)) // OK: the time is handed elsewhere
	return err
}

// Ping checks the connection is alive.
func (p *Peer) Ping() error {
	if err := p.conn.SetReadDeadline(time.Now().Add(5)); err != nil { // BUG: deadlinemath
		return err
	}
	if _, err := p.conn.Write([]byte("PING\n")); err != nil {
		return err
	}
	_, err := p.r.ReadString('\n')
	return err
}

// Ack tells the peer how far this region has applied its records.
func (p *Peer) Ack(ctx context.Context, table string, pos int64) error {
	dl, _ := ctx.Deadline()
	if !dl.IsZero() {
		if err := p.conn.SetWriteDeadline(dl); err != nil { // OK: IsZero checked
			return err
		}
		defer p.conn.SetWriteDeadline(time.Time{}) // OK: zero time clears it on purpose
	}
	_, err := fmt.Fprintf(p.conn, "ACK %s %d\n", table, pos)
	return err
}

// Close closes the connection after telling the peer.
func (p *Peer) Close() error {
	p.conn.SetWriteDeadline(time.Now().Add(2 * time.Second)) // OK: has a unit
	fmt.Fprint(p.conn, "BYE\n")
	return p.conn.Close()
}
