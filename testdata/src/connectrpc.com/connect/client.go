package connect

import (
	"context"
	"net/http"
)

// Client is a reusable, concurrency-safe client for a single procedure.
type Client[Req, Res any] struct {
	httpClient HTTPClient
	url        string
}

// NewClient constructs a new Client.
func NewClient[Req, Res any](httpClient HTTPClient, url string, options ...ClientOption) *Client[Req, Res] {
	return &Client[Req, Res]{httpClient: httpClient, url: url}
}

// CallUnary calls a request-response procedure.
func (c *Client[Req, Res]) CallUnary(ctx context.Context, request *Request[Req]) (*Response[Res], error) {
	return nil, ctx.Err()
}

// CallClientStream calls a client streaming procedure.
func (c *Client[Req, Res]) CallClientStream(ctx context.Context) *ClientStreamForClient[Req, Res] {
	return &ClientStreamForClient[Req, Res]{}
}

// CallServerStream calls a server streaming procedure.
func (c *Client[Req, Res]) CallServerStream(ctx context.Context, request *Request[Req]) (*ServerStreamForClient[Res], error) {
	return &ServerStreamForClient[Res]{}, ctx.Err()
}

// CallBidiStream calls a bidirectional streaming procedure.
func (c *Client[Req, Res]) CallBidiStream(ctx context.Context) *BidiStreamForClient[Req, Res] {
	return &BidiStreamForClient[Req, Res]{}
}

// ClientStreamForClient is the client's view of a client streaming RPC.
type ClientStreamForClient[Req, Res any] struct {
	conn StreamingClientConn
	err  error
}

// Spec returns the specification for the RPC.
func (c *ClientStreamForClient[_, _]) Spec() Spec { return c.conn.Spec() }

// RequestHeader returns the request headers.
func (c *ClientStreamForClient[Req, Res]) RequestHeader() http.Header { return c.conn.RequestHeader() }

// Send a message to the server.
func (c *ClientStreamForClient[Req, Res]) Send(request *Req) error {
	if c.err != nil {
		return c.err
	}
	return c.conn.Send(request)
}

// CloseAndReceive closes the send side of the stream and waits for the
// response.
func (c *ClientStreamForClient[Req, Res]) CloseAndReceive() (*Response[Res], error) {
	if c.err != nil {
		return nil, c.err
	}
	var msg Res
	if err := c.conn.Receive(&msg); err != nil {
		return nil, err
	}
	return &Response[Res]{Msg: &msg}, nil
}

// Conn exposes the underlying StreamingClientConn.
func (c *ClientStreamForClient[Req, Res]) Conn() (StreamingClientConn, error) { return c.conn, c.err }

// ServerStreamForClient is the client's view of a server streaming RPC.
type ServerStreamForClient[Res any] struct {
	conn StreamingClientConn
	msg  *Res
	err  error
}

// Receive advances the stream to the next message.
func (s *ServerStreamForClient[Res]) Receive() bool {
	if s.err != nil {
		return false
	}
	s.msg = new(Res)
	s.err = s.conn.Receive(s.msg)
	return s.err == nil
}

// Msg returns the most recent message unmarshaled by a call to Receive.
func (s *ServerStreamForClient[Res]) Msg() *Res { return s.msg }

// Err returns the first non-EOF error that was encountered by Receive.
func (s *ServerStreamForClient[Res]) Err() error { return s.err }

// ResponseHeader returns the headers received from the server.
func (s *ServerStreamForClient[Res]) ResponseHeader() http.Header { return s.conn.ResponseHeader() }

// ResponseTrailer returns the trailers received from the server.
func (s *ServerStreamForClient[Res]) ResponseTrailer() http.Header { return s.conn.ResponseTrailer() }

// Close the receive side of the stream.
func (s *ServerStreamForClient[Res]) Close() error { return s.conn.CloseResponse() }

// Conn exposes the underlying StreamingClientConn.
func (s *ServerStreamForClient[Res]) Conn() (StreamingClientConn, error) { return s.conn, s.err }

// BidiStreamForClient is the client's view of a bidirectional streaming RPC.
type BidiStreamForClient[Req, Res any] struct {
	conn StreamingClientConn
	err  error
}

// Spec returns the specification for the RPC.
func (b *BidiStreamForClient[_, _]) Spec() Spec { return b.conn.Spec() }

// RequestHeader returns the request headers.
func (b *BidiStreamForClient[Req, Res]) RequestHeader() http.Header { return b.conn.RequestHeader() }

// Send a message to the server.
func (b *BidiStreamForClient[Req, Res]) Send(msg *Req) error {
	if b.err != nil {
		return b.err
	}
	return b.conn.Send(msg)
}

// CloseRequest closes the send side of the stream.
func (b *BidiStreamForClient[Req, Res]) CloseRequest() error { return b.conn.CloseRequest() }

// Receive a message.
func (b *BidiStreamForClient[Req, Res]) Receive() (*Res, error) {
	if b.err != nil {
		return nil, b.err
	}
	var msg Res
	if err := b.conn.Receive(&msg); err != nil {
		return nil, err
	}
	return &msg, nil
}

// CloseResponse closes the receive side of the stream.
func (b *BidiStreamForClient[Req, Res]) CloseResponse() error { return b.conn.CloseResponse() }

// ResponseHeader returns the headers received from the server.
func (b *BidiStreamForClient[Req, Res]) ResponseHeader() http.Header { return b.conn.ResponseHeader() }

// ResponseTrailer returns the trailers received from the server.
func (b *BidiStreamForClient[Req, Res]) ResponseTrailer() http.Header {
	return b.conn.ResponseTrailer()
}

// Conn exposes the underlying StreamingClientConn.
func (b *BidiStreamForClient[Req, Res]) Conn() (StreamingClientConn, error) { return b.conn, b.err }
