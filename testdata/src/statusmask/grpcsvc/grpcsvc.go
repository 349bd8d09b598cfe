// Package grpcsvc is a catalog service translating its downstream errors into status codes,
// with and without telling deadlines apart.
package grpcsvc

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"example.com/gen/catalogpb"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

type Server struct {
	catalogpb.UnimplementedCatalogServer
	db        *sql.DB
	inventory catalogpb.CatalogClient
	cache     cache
}

type cache interface {
	Get(ctx context.Context, id string) (*catalogpb.Item, error)
}

// GetItem masks a deadline of its downstream call as Internal.
func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	item, err := s.inventory.GetItem(ctx, req)
	if err != nil {
		return nil, status.Errorf(codes.Internal, "inventory: %v", err) // want `status\.Errorf gives code codes\.Internal to the error of CatalogClient\.GetItem, which may be the request's deadline or cancellation; return the ctx's error first when ctx\.Err\(\) != nil`
	}
	return item, nil
}

// lookup queries the database with the ctx it is given.
func (s *Server) lookup(ctx context.Context, id string) (string, error) {
	var name string
	err := s.db.QueryRowContext(ctx, "SELECT name FROM items WHERE id = $1", id).Scan(&name)
	return name, err
}

// Chat is a bidi stream: its ctx is the stream's.
func (s *Server) Chat(stream catalogpb.Catalog_ChatServer) error {
	ctx := stream.Context()
	if _, err := s.cache.Get(ctx, "greeting"); err != nil {
		return status.Error(codes.Unavailable, "cache: "+err.Error()) // want `status\.Error gives code codes\.Unavailable to the error of cache\.Get`
	}
	return nil
}

// Checked looks at the ctx first: silent.
type Checked struct{ Server }

func (s *Checked) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	item, err := s.inventory.GetItem(ctx, req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, status.FromContextError(ctx.Err()).Err()
		}
		return nil, status.Errorf(codes.Internal, "inventory: %v", err)
	}
	return item, nil
}

// Coded asks the error's code: silent.
type Coded struct{ Server }

func (s *Coded) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	item, err := s.inventory.GetItem(ctx, req)
	if status.Code(err) == codes.NotFound {
		return nil, status.Error(codes.NotFound, "no such item")
	}
	if err != nil {
		return nil, status.Errorf(codes.Internal, "inventory: %v", err)
	}
	return item, nil
}

// Is asks errors.Is: silent.
type Is struct{ Server }

func (s *Is) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	name, err := s.lookup(ctx, req.GetId())
	if errors.Is(err, context.DeadlineExceeded) {
		return nil, status.Error(codes.DeadlineExceeded, "lookup timed out")
	}
	if err != nil {
		return nil, status.New(codes.Internal, err.Error()).Err()
	}
	return &catalogpb.Item{Name: name}, nil
}

// Mapped hands the error to a mapping helper of the module: trusted, silent.
type Mapped struct{ Server }

func (s *Mapped) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	name, err := s.lookup(ctx, req.GetId())
	if err != nil {
		if c := toCode(err); c != codes.Unknown {
			return nil, status.Error(c, "lookup")
		}
		return nil, status.Errorf(codes.Internal, "lookup: %v", err)
	}
	return &catalogpb.Item{Name: name}, nil
}

func toCode(err error) codes.Code {
	if errors.Is(err, sql.ErrNoRows) {
		return codes.NotFound
	}
	return codes.Unknown
}

// Validation builds a status from an error that no ctx made: silent.
type Validation struct{ Server }

func (s *Validation) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	if err := validate(req); err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "bad request: %v", err)
	}
	return nil, nil
}

func validate(req *catalogpb.GetItemRequest) error {
	if req.GetId() == "" {
		return errors.New("no id")
	}
	return nil
}

// Kept gives the code of the error as it is: silent.
type Kept struct{ Server }

func (s *Kept) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	item, err := s.inventory.GetItem(ctx, req)
	if err != nil {
		return nil, err
	}
	return item, nil
}

// Wrapped formats the error into a Sprintf message, from a helper of the module.
type Wrapped struct{ Server }

func (s *Wrapped) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	name, err := s.lookup(ctx, req.GetId())
	if err != nil {
		msg := fmt.Sprintf("lookup %s: %v", req.GetId(), err)
		return nil, status.Error(codes.Internal, msg) // want `status\.Error gives code codes\.Internal to the error of Server\.lookup`
	}
	return &catalogpb.Item{Name: name}, nil
}

// Fresh calls with a ctx of its own: the error is not the request's deadline (ctxbackground's
// business).
type Fresh struct{ Server }

func (s *Fresh) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	item, err := s.inventory.GetItem(context.Background(), req)
	if err != nil {
		return nil, status.Errorf(codes.Internal, "inventory: %v", err)
	}
	return item, nil
}

// notAScope is no request scope.
func notAScope(ctx context.Context, c catalogpb.CatalogClient) error {
	_, err := c.GetItem(ctx, &catalogpb.GetItemRequest{})
	return status.Errorf(codes.Internal, "x: %v", err)
}

var (
	errNotReady = errors.New("not ready")
	errConflict = errors.New("conflict")
)

func isConflict(err error) bool { return err == errConflict }

// Switch recognises sentinels before translating — with a predicate, and by comparing the
// cause: those branches are silent; its default still masks a deadline. (A function of the
// module returning an error or a code from the error would be a mapping helper: trusted.)
type Switch struct{ Server }

func (s *Switch) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	name, err := s.lookup(ctx, req.GetId())
	if isConflict(err) {
		return nil, status.Error(codes.AlreadyExists, err.Error())
	}
	switch errors.Unwrap(err) { // the cause, as pkg/errors.Cause gives it
	case nil:
		return &catalogpb.Item{Name: name}, nil
	case errNotReady:
		return nil, status.Error(codes.Unavailable, err.Error())
	default:
		return nil, status.Error(codes.Internal, err.Error()) // want `status\.Error gives code codes\.Internal to the error of Server\.lookup`
	}
}

// Bounded gives its downstream call a deadline of its own. When the request's deadline is the
// earlier, that is what expires, and Unavailable masks it: reported. The fix checks the
// request's ctx, so the dependency's own time-out keeps its Unavailable.
type Bounded struct{ Server }

func (s *Bounded) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	qctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	item, err := s.inventory.GetItem(qctx, req)
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "inventory: %v", err) // want `status\.Errorf gives code codes\.Unavailable to the error of CatalogClient\.GetItem`
	}
	return item, nil
}
