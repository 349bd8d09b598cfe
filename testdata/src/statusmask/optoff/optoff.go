// Package optoff is a catalog service that checks each request with check, which writes an
// audit event with its ctx — and may return the ctx's error — unless the options the call
// writes out switch events off (Quiet()). A check made quiet returns no error of the ctx:
// its code is not a mask (silent). A check that writes its event, or whose options are handed
// on from elsewhere, may fail with the request's deadline: reported.
package optoff

import (
	"context"
	"errors"

	"example.com/gen/catalogpb"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

var errNoID = errors.New("no id")

// Options are check's options.
type Options struct {
	quiet bool
	tag   string
}

// Option sets one of check's options.
type Option func(*Options)

// Quiet makes check write no event.
func Quiet() Option { return func(o *Options) { o.quiet = true } }

// Tag tags the event.
func Tag(t string) Option { return func(o *Options) { o.tag = t } }

func getOpts(opt ...Option) Options {
	var opts Options
	for _, o := range opt {
		o(&opts)
	}
	return opts
}

var events = make(chan string)

func check(ctx context.Context, id string, opt ...Option) error {
	opts := getOpts(opt...)
	if id == "" {
		return errNoID
	}
	if opts.quiet {
		return nil
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case events <- opts.tag + ":" + id:
		return nil
	}
}

// Server serves the catalog.
type Server struct {
	catalogpb.UnimplementedCatalogServer
	opts []Option
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	if err := check(ctx, req.GetId(), Quiet(), Tag("get")); err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "check: %v", err) // silent: a quiet check returns no ctx error
	}
	if err := check(ctx, req.GetId(), Tag("get")); err != nil {
		return nil, status.Errorf(codes.Internal, "audit: %v", err) // want `status\.Errorf gives code codes\.Internal to the error of optoff\.check`
	}
	if err := check(ctx, req.GetId(), s.opts...); err != nil {
		return nil, status.Errorf(codes.Internal, "audit: %v", err) // want `status\.Errorf gives code codes\.Internal to the error of optoff\.check`
	}
	return &catalogpb.Item{Id: req.GetId()}, nil
}
