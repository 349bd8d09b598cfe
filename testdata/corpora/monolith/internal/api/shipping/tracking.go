package shipping

import (
	"errors"
	"io"

	shippingv1 "example.test/monolith/gen/shipping/v1"
)

func (s *Server) TrackShipments(stream shippingv1.ShippingService_TrackShipmentsServer) error {
	ctx := stream.Context()
	for {
		req, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		events, err := s.svc.Track(trackingCtx, req.GetShipmentId()) // BUG: ctxflow
		if err != nil {
			return toStatus(err)
		}
		for i := len(events) - 1; i >= 0; i-- {
			e := events[i]
			if err := ctx.Err(); err != nil { // OK
				return err
			}
			if err := stream.Send(&shippingv1.TrackEvent{ShipmentId: e.ShipmentID, Status: e.Status, Location: e.Location, AtUnix: e.At.Unix()}); err != nil {
				return err
			}
		}
	}
}
