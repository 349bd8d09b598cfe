// Package switchedoff holds handlers with code that never runs: a feature switched off with
// `if false` or a false constant. go/ssa still builds the literals made there; nothing in them
// is reported. The same literals behind a switch that can be on are.
package switchedoff

import (
	"context"
	"time"

	"example.com/gen/catalogpb"
)

const acksEnabled = false

// Server serves the catalog.
type Server struct {
	catalogpb.UnimplementedCatalogServer
	ready   func() bool
	enabled bool
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	closed := false
	if false { // disabled: periodic acks
		go func() {
			for !closed {
				time.Sleep(10 * time.Millisecond) // never runs: silent
			}
		}()
	}
	if acksEnabled {
		go func() {
			for !s.ready() {
				time.Sleep(10 * time.Millisecond) // never runs: silent
				func() {
					for !closed {
						time.Sleep(time.Millisecond) // nested in a literal that is never made: silent
					}
				}()
			}
		}()
	}
	if !acksEnabled {
		// The way a false constant goes runs.
		for !s.ready() {
			time.Sleep(10 * time.Millisecond) // want `time.Sleep in handler Server.GetItem keeps the loop sleeping`
		}
	}
	if s.enabled {
		go func() {
			for !closed {
				time.Sleep(10 * time.Millisecond) // want `time.Sleep in handler Server.GetItem keeps the loop sleeping`
			}
		}()
	}
	return &catalogpb.Item{}, nil
}

// Unreachable's literal comes after a return: go/ssa drops the code that would make it.
//
//deadlinelint:scope
func (s *Server) Unreachable(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	return &catalogpb.Item{}, nil
	go func() {
		for !s.ready() {
			time.Sleep(10 * time.Millisecond) // never runs: silent
		}
	}()
	return nil, nil
}
