package grpcsvc

import (
	"context"
	"errors"
	"strings"

	"example.com/gen/catalogpb"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// RuledOut translates only once the text was found to hold neither a deadline's words nor a
// cancellation's: the errors a ctx gives went the other way. Silent.
type RuledOut struct{ Server }

func (s *RuledOut) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	name, err := s.lookup(ctx, req.GetId())
	if err != nil {
		if strings.Contains(err.Error(), "deadline") || strings.Contains(err.Error(), "canceled") {
			return nil, status.Error(codes.DeadlineExceeded, err.Error())
		}
		return nil, status.Errorf(codes.Internal, "lookup: %v", err)
	}
	return &catalogpb.Item{Name: name}, nil
}

// OneText rules out a deadline's text only: a cancellation is still made Internal. Reported.
type OneText struct{ Server }

func (s *OneText) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	name, err := s.lookup(ctx, req.GetId())
	if err != nil {
		if strings.Contains(err.Error(), "deadline exceeded") {
			return nil, status.Error(codes.DeadlineExceeded, err.Error())
		}
		return nil, status.Errorf(codes.Internal, "lookup: %v", err) // want `status\.Errorf gives code codes\.Internal to the error of Server\.lookup`
	}
	return &catalogpb.Item{Name: name}, nil
}

// LoweredContext rules both out with a word both texts have, in the lowered text. Silent.
type LoweredContext struct{ Server }

func (s *LoweredContext) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	name, err := s.lookup(ctx, req.GetId())
	if err != nil {
		msg := strings.ToLower(err.Error())
		if strings.Contains(msg, "context") {
			return nil, status.Error(codes.Unavailable, "try again")
		}
		return nil, status.Errorf(codes.Internal, "lookup: %v", err)
	}
	return &catalogpb.Item{Name: name}, nil
}

// UpperWords looks for capitals in the lowered text, which never holds them: nothing is ruled
// out. Reported.
type UpperWords struct{ Server }

func (s *UpperWords) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	name, err := s.lookup(ctx, req.GetId())
	if err != nil {
		if msg := strings.ToLower(err.Error()); strings.Contains(msg, "Deadline") || strings.Contains(msg, "Canceled") {
			return nil, status.Error(codes.DeadlineExceeded, msg)
		}
		return nil, status.Errorf(codes.Internal, "lookup: %v", err) // want `status\.Errorf gives code codes\.Internal to the error of Server\.lookup`
	}
	return &catalogpb.Item{Name: name}, nil
}

// Found translates on the branch where both words were found: a deadline's branch. Reported.
type Found struct{ Server }

func (s *Found) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	name, err := s.lookup(ctx, req.GetId())
	if err != nil {
		if strings.Contains(err.Error(), "deadline") || strings.Contains(err.Error(), "canceled") {
			return nil, status.Errorf(codes.Unavailable, "lookup: %v", err) // want `status\.Errorf gives code codes\.Unavailable to the error of Server\.lookup`
		}
		return nil, err
	}
	return &catalogpb.Item{Name: name}, nil
}

// Merged tests the text of another error when the id is empty: the error translated is still
// untested there. Reported.
type Merged struct{ Server }

func (s *Merged) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	name, err := s.lookup(ctx, req.GetId())
	if err != nil {
		last := errPlaceholder
		if req.GetId() != "" {
			last = err
		}
		if strings.Contains(last.Error(), "deadline") || strings.Contains(last.Error(), "canceled") {
			return nil, status.Error(codes.DeadlineExceeded, last.Error())
		}
		return nil, status.Errorf(codes.Internal, "lookup: %v", err) // want `status\.Errorf gives code codes\.Internal to the error of Server\.lookup`
	}
	return &catalogpb.Item{Name: name}, nil
}

var errPlaceholder = errors.New("none")
