package telemetry

import (
	"context"
	"fmt"

	telemetryv1 "example.test/fleet/gen/fleet/telemetry/v1"
)

// Relay asks the regional telemetry cluster about vehicles this node has not heard from.
type Relay struct {
	client telemetryv1.TelemetryServiceClient
}

// NewRelay wraps a client of the regional cluster.
func NewRelay(client telemetryv1.TelemetryServiceClient) *Relay {
	return &Relay{client: client}
}

// Status returns the last known status of a vehicle.
func (r *Relay) Status(ctx context.Context, vehicleID string) (*telemetryv1.VehicleStatus, error) {
	st, err := r.client.GetVehicleStatus(ctx, &telemetryv1.GetVehicleStatusRequest{VehicleId: vehicleID})
	if err != nil {
		return nil, fmt.Errorf("relay status %s: %w", vehicleID, err)
	}
	return st, nil
}

// Incident forwards an incident report to the regional cluster.
func (r *Relay) Incident(ctx context.Context, req *telemetryv1.ReportIncidentRequest) (string, error) {
	resp, err := r.client.ReportIncident(ctx, req)
	if err != nil {
		return "", err
	}
	return resp.GetIncidentId(), nil
}
