package middleware

import (
	"context"

	"google.golang.org/grpc"

	"example.test/gateway/internal/metrics"
)

// serverStream lets a stream interceptor hand the handler a derived context.
type serverStream struct {
	grpc.ServerStream
	ctx context.Context
}

func (s *serverStream) Context() context.Context { return s.ctx }

// wrapServerStream returns ss with Context() replaced by ctx. Wrapping an
// already wrapped stream replaces the context instead of nesting.
func wrapServerStream(ss grpc.ServerStream, ctx context.Context) grpc.ServerStream {
	if w, ok := ss.(*serverStream); ok {
		return &serverStream{ServerStream: w.ServerStream, ctx: ctx}
	}
	return &serverStream{ServerStream: ss, ctx: ctx}
}

// meteredStream counts the messages that pass through a stream.
type meteredStream struct {
	grpc.ServerStream
	method     string
	rec        *metrics.Recorder
	recv, sent int64
}

func (m *meteredStream) RecvMsg(msg any) error {
	err := m.ServerStream.RecvMsg(msg)
	if err == nil {
		m.recv++
	}
	return err
}

func (m *meteredStream) SendMsg(msg any) error {
	err := m.ServerStream.SendMsg(msg)
	if err == nil {
		m.sent++
	}
	return err
}

func (m *meteredStream) flush() {
	m.rec.AddMessages(m.method, "recv", m.recv)
	m.rec.AddMessages(m.method, "sent", m.sent)
}
