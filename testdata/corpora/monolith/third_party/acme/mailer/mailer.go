// Package mailer sends transactional mail through the Acme relay.
package mailer

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"strings"
	"time"
)

// Message is one outgoing mail.
type Message struct {
	To      string
	Subject string
	Body    string
}

// Mailer is a minimal SMTP-like client for the Acme relay.
type Mailer struct {
	addr string
	from string
}

// New returns a mailer for the relay at addr.
func New(addr, from string) *Mailer { return &Mailer{addr: addr, from: from} }

// Send delivers msg. The relay protocol is synchronous; Send returns once the relay accepted it.
func (m *Mailer) Send(ctx context.Context, msg Message) error {
	dctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var d net.Dialer
	conn, err := d.DialContext(dctx, "tcp", m.addr)
	if err != nil {
		return fmt.Errorf("mailer: dial %s: %w", m.addr, err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(20 * time.Second))
	w := bufio.NewWriter(conn)
	fmt.Fprintf(w, "MAIL FROM:<%s>\r\nRCPT TO:<%s>\r\nDATA\r\nSubject: %s\r\n\r\n%s\r\n.\r\n",
		m.from, msg.To, msg.Subject, strings.ReplaceAll(msg.Body, "\n.", "\n.."))
	if err := w.Flush(); err != nil {
		return err
	}
	line, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil {
		return err
	}
	if !strings.HasPrefix(line, "250") {
		return fmt.Errorf("mailer: relay refused: %s", strings.TrimSpace(line))
	}
	return nil
}
