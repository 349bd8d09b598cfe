package grpcsvc

import (
	"context"
	"strings"

	"example.com/gen/catalogpb"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Message recognises an error by its text: the translation on the branch where the message
// says "not found" is of that error, not of a deadline (whose text is "context deadline
// exceeded"). Past the test, a deadline is still made Internal: reported.
type Message struct{ Server }

func (s *Message) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	name, err := s.lookup(ctx, req.GetId())
	if err != nil {
		if strings.Contains(err.Error(), "not found") {
			return nil, status.Error(codes.NotFound, err.Error())
		}
		return nil, status.Errorf(codes.Internal, "lookup: %v", err) // want `status\.Errorf gives code codes\.Internal to the error of Server\.lookup`
	}
	return &catalogpb.Item{Name: name}, nil
}

// Lowered tests the lowered text, a prefix, and the whole text.
type Lowered struct{ Server }

func (s *Lowered) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	name, err := s.lookup(ctx, req.GetId())
	if err != nil {
		if strings.Contains(strings.ToLower(err.Error()), "already exists") {
			return nil, status.Errorf(codes.AlreadyExists, "lookup: %v", err)
		}
		if strings.HasPrefix(err.Error(), "pq: ") {
			return nil, status.Errorf(codes.FailedPrecondition, "lookup: %v", err)
		}
		if err.Error() == "item gone" {
			return nil, status.Errorf(codes.NotFound, "lookup: %v", err)
		}
		return nil, err
	}
	return &catalogpb.Item{Name: name}, nil
}

// DeadlineText picks out errors whose text a deadline's also has ("deadline" is in "context
// deadline exceeded"): that branch is where a deadline goes, made Unavailable: reported.
type DeadlineText struct{ Server }

func (s *DeadlineText) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	name, err := s.lookup(ctx, req.GetId())
	if err != nil {
		if strings.Contains(err.Error(), "deadline") {
			return nil, status.Error(codes.Unavailable, err.Error()) // want `status\.Error gives code codes\.Unavailable to the error of Server\.lookup`
		}
		return nil, err
	}
	return &catalogpb.Item{Name: name}, nil
}

// NotText translates on the branch where the text lacks the words: a deadline's lacks them
// too. Reported.
type NotText struct{ Server }

func (s *NotText) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	name, err := s.lookup(ctx, req.GetId())
	if err != nil {
		if !strings.Contains(err.Error(), "no rows") {
			return nil, status.Errorf(codes.Internal, "lookup: %v", err) // want `status\.Errorf gives code codes\.Internal to the error of Server\.lookup`
		}
		return nil, status.Error(codes.NotFound, "no item")
	}
	return &catalogpb.Item{Name: name}, nil
}

// Spent formats an error already known to be nil (the call succeeded; the name it gave is
// empty): no error of the call's is translated there. Silent.
type Spent struct{ Server }

func (s *Spent) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	name, err := s.lookup(ctx, req.GetId())
	if err != nil {
		return nil, err
	}
	if name == "" {
		return nil, status.Errorf(codes.Internal, "empty name for %s (error %v)", req.GetId(), err)
	}
	return &catalogpb.Item{Name: name}, nil
}

// Unchecked formats the error in a branch that does not depend on it: reported.
type Unchecked struct{ Server }

func (s *Unchecked) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	name, err := s.lookup(ctx, req.GetId())
	if name == "" {
		return nil, status.Errorf(codes.Internal, "empty name (error %v)", err) // want `status\.Errorf gives code codes\.Internal to the error of Server\.lookup`
	}
	return &catalogpb.Item{Name: name}, nil
}

// Words tests the text against words held in a field, and against "Canceled", which a
// cancellation's text has whatever the case: neither tells a deadline apart. Reported twice.
type Words struct {
	Server
	missing string
}

func (s *Words) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	name, err := s.lookup(ctx, req.GetId())
	if err != nil {
		if strings.Contains(err.Error(), s.missing) {
			return nil, status.Error(codes.NotFound, err.Error()) // want `status\.Error gives code codes\.NotFound to the error of Server\.lookup`
		}
		if strings.Contains(strings.ToUpper(err.Error()), "CANCELED") {
			return nil, status.Error(codes.Aborted, err.Error()) // want `status\.Error gives code codes\.Aborted to the error of Server\.lookup`
		}
		return nil, err
	}
	return &catalogpb.Item{Name: name}, nil
}
