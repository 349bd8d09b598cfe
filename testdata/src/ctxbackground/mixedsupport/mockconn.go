package mixedsupport

import (
	"context"
	"testing"
)

// MockConn is a connection other packages' tests drive the server with.
type MockConn struct {
	t  testing.TB
	db db
}

// NewMockConn makes one for t.
func NewMockConn(t testing.TB, d db) *MockConn { return &MockConn{t: t, db: d} }

// Query runs q with no deadline: test support.
func (c *MockConn) Query(q string) { // want Query:"drops ctx"
	if err := c.db.Exec(context.Background(), q); err != nil {
		c.t.Fatal(err)
	}
}
