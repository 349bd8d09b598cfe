package server

import (
	"context"
	"log"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/status"

	"github.com/deadlinelint/deadlinelint/examples/catalog/catalogv1"
)

// How often a watch polls the repository, and how many items it follows.
const (
	pollInterval = 2 * time.Second
	watchLimit   = 500
)

// WatchItems streams an event each time an item of the category changes or
// is removed, until the client goes away.
func (s *Server) WatchItems(req *catalogv1.WatchItemsRequest, stream grpc.ServerStreamingServer[catalogv1.ItemEvent]) error {
	events := make(chan *catalogv1.ItemEvent)
	go s.pollChanges(context.TODO(), req.GetCategory(), events) // planted: ctxbackground

	ctx := stream.Context()
	for {
		select {
		case <-ctx.Done():
			return status.FromContextError(ctx.Err()).Err()
		case ev := <-events:
			if err := stream.Send(ev); err != nil {
				return err
			}
		}
	}
}

// pollChanges lists the items of category every pollInterval and sends an
// event to out for each change since the previous listing, until ctx ends.
func (s *Server) pollChanges(ctx context.Context, category string, out chan<- *catalogv1.ItemEvent) {
	ticker := time.NewTicker(pollInterval)
	defer ticker.Stop()
	versions := make(map[string]int64)
	for {
		items, err := s.repo.List(ctx, category, watchLimit)
		if err != nil {
			log.Printf("catalog: watch %q: %v", category, err)
		}
		for _, ev := range changes(versions, items, err == nil) {
			select {
			case out <- ev:
			case <-ctx.Done():
				return
			}
		}
		select {
		case <-ticker.C:
		case <-ctx.Done():
			return
		}
	}
}

// changes updates versions, the last seen version of each item, from a new
// listing and returns the events that tell the difference. An incomplete
// listing (complete == false) reports no removals.
func changes(versions map[string]int64, items []*catalogv1.Item, complete bool) []*catalogv1.ItemEvent {
	var events []*catalogv1.ItemEvent
	listed := make(map[string]bool, len(items))
	for _, item := range items {
		listed[item.GetId()] = true
		if v, ok := versions[item.GetId()]; ok && v == item.GetVersion() {
			continue
		}
		versions[item.GetId()] = item.GetVersion()
		events = append(events, &catalogv1.ItemEvent{Kind: catalogv1.ItemEvent_KIND_CHANGED, Item: item})
	}
	if !complete {
		return events
	}
	for id := range versions {
		if !listed[id] {
			delete(versions, id)
			events = append(events, &catalogv1.ItemEvent{
				Kind: catalogv1.ItemEvent_KIND_REMOVED,
				Item: &catalogv1.Item{Id: id},
			})
		}
	}
	return events
}
