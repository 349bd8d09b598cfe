// Package logging calls ctx-less methods of interfaces that have Context twins. A twin whose
// every implementation in sight only reads values from its ctx (a logger attaching the trace)
// loses no deadline: the ctx-less call is no finding, nor is one whose twin returns nothing
// (glog's Info and InfoContext): it cannot tell its caller the ctx cut it short. One whose
// implementation works with its ctx is; so is one of an interface no implementation of which is
// in sight.
package logging

import (
	"context"
	"net/http"

	"example.com/clog"
	"example.com/gen/catalogpb"
)

// audit is the module's own logger interface; its one implementation reads the request id.
type audit interface {
	Record(event string)
	RecordContext(ctx context.Context, event string)
}

type reqIDKey struct{}

type auditLog struct{ lines []string }

func (a *auditLog) Record(event string) { a.lines = append(a.lines, event) }

func (a *auditLog) RecordContext(ctx context.Context, event string) {
	id, _ := ctx.Value(reqIDKey{}).(string)
	a.lines = append(a.lines, id+" "+event)
}

// journal is the module's own interface whose implementation posts with its ctx.
type journal interface {
	Append(entry string) error
	AppendContext(ctx context.Context, entry string) error
}

type remoteJournal struct{ url string }

func (j remoteJournal) Append(entry string) error {
	return j.AppendContext(context.Background(), entry)
}

func (j remoteJournal) AppendContext(ctx context.Context, entry string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, j.url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// outbox has no implementation in sight: it may do anything with its ctx.
type outbox interface {
	Push(msg string) error
	PushContext(ctx context.Context, msg string) error
}

type Server struct {
	catalogpb.UnimplementedCatalogServer
	log     clog.Logger
	sink    clog.Sink
	audit   audit
	journal journal
	outbox  outbox
}

func NewServer() *Server {
	return &Server{log: clog.Multi(clog.New(), clog.Nop()), sink: clog.NewSink("http://logs"), audit: &auditLog{}, journal: remoteJournal{url: "http://journal"}}
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	s.log.Debug("get item", "id", req.GetId())          // every Logger in sight only reads its ctx: silent
	s.audit.Record("get " + req.GetId())                // so does every audit: silent
	clog.V(1).Info("get " + req.GetId())                // InfoContext returns nothing: it cannot end work anyone waits on
	if err := clog.V(1).Post(req.GetId()); err != nil { // want `Verbose\.Post in handler Server\.GetItem`
		return nil, err
	}
	if err := s.sink.Flush(); err != nil { // want `Sink\.Flush in handler Server\.GetItem`
		return nil, err
	}
	if err := s.journal.Append(req.GetId()); err != nil { // want `journal\.Append in handler Server\.GetItem`
		return nil, err
	}
	if err := s.outbox.Push(req.GetId()); err != nil { // want `outbox\.Push in handler Server\.GetItem`
		return nil, err
	}
	return &catalogpb.Item{Id: req.GetId()}, nil
}
