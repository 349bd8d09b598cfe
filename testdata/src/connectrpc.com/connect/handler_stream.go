package connect

import "net/http"

// ClientStream is the handler's view of a client streaming RPC.
type ClientStream[Req any] struct {
	conn StreamingHandlerConn
	msg  *Req
	err  error
}

// Spec returns the specification for the RPC.
func (c *ClientStream[_]) Spec() Spec { return c.conn.Spec() }

// Peer describes the client for this RPC.
func (c *ClientStream[_]) Peer() Peer { return c.conn.Peer() }

// RequestHeader returns the headers received from the client.
func (c *ClientStream[Req]) RequestHeader() http.Header { return c.conn.RequestHeader() }

// Receive advances the stream to the next message.
func (c *ClientStream[Req]) Receive() bool {
	c.msg = new(Req)
	c.err = c.conn.Receive(c.msg)
	return c.err == nil
}

// Msg returns the most recent message unmarshaled by a call to Receive.
func (c *ClientStream[Req]) Msg() *Req { return c.msg }

// Err returns the first non-EOF error that was encountered by Receive.
func (c *ClientStream[Req]) Err() error { return c.err }

// Conn exposes the underlying StreamingHandlerConn.
func (c *ClientStream[Req]) Conn() StreamingHandlerConn { return c.conn }

// ServerStream is the handler's view of a server streaming RPC.
type ServerStream[Res any] struct {
	conn StreamingHandlerConn
}

// ResponseHeader returns the response headers.
func (s *ServerStream[Res]) ResponseHeader() http.Header { return s.conn.ResponseHeader() }

// ResponseTrailer returns the response trailers.
func (s *ServerStream[Res]) ResponseTrailer() http.Header { return s.conn.ResponseTrailer() }

// Send a message to the client.
func (s *ServerStream[Res]) Send(msg *Res) error { return s.conn.Send(msg) }

// Conn exposes the underlying StreamingHandlerConn.
func (s *ServerStream[Res]) Conn() StreamingHandlerConn { return s.conn }

// BidiStream is the handler's view of a bidirectional streaming RPC.
type BidiStream[Req, Res any] struct {
	conn StreamingHandlerConn
}

// Spec returns the specification for the RPC.
func (b *BidiStream[_, _]) Spec() Spec { return b.conn.Spec() }

// Peer describes the client for this RPC.
func (b *BidiStream[_, _]) Peer() Peer { return b.conn.Peer() }

// RequestHeader returns the headers received from the client.
func (b *BidiStream[Req, Res]) RequestHeader() http.Header { return b.conn.RequestHeader() }

// Receive a message.
func (b *BidiStream[Req, Res]) Receive() (*Req, error) {
	var req Req
	if err := b.conn.Receive(&req); err != nil {
		return nil, err
	}
	return &req, nil
}

// ResponseHeader returns the response headers.
func (b *BidiStream[Req, Res]) ResponseHeader() http.Header { return b.conn.ResponseHeader() }

// ResponseTrailer returns the response trailers.
func (b *BidiStream[Req, Res]) ResponseTrailer() http.Header { return b.conn.ResponseTrailer() }

// Send a message to the client.
func (b *BidiStream[Req, Res]) Send(msg *Res) error { return b.conn.Send(msg) }

// Conn exposes the underlying StreamingHandlerConn.
func (b *BidiStream[Req, Res]) Conn() StreamingHandlerConn { return b.conn }
