// Package wastedtest reads the wasted-work interceptors' metrics back in tests, through the
// OpenTelemetry SDK's ManualReader:
//
//	reader := sdkmetric.NewManualReader()
//	w, err := wasted.New(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader)))
//	... // serve with w.Unary() and w.Stream(), make calls
//	for method, m := range wastedtest.Read(t, reader) {
//		if m.Wasted > 0 {
//			t.Errorf("%s: %d calls kept working %.3fs in all after their caller gave up", method, m.Wasted, m.WastedSeconds)
//		}
//	}
package wastedtest

import (
	"context"
	"testing"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/deadlinelint/deadlinelint/runtime/wasted"
)

// Method is what the interceptors recorded for one method.
type Method struct {
	Wasted        int64            // calls whose handler returned after its ctx was done
	WastedSeconds float64          // how long they kept working past that moment, in all
	Ended         map[string]int64 // calls that ended in DeadlineExceeded or Canceled, by code
}

// Read collects reader's metrics and returns the interceptors' measurements by method (the full
// method name, "/pkg.Service/Method"); a failure to collect fails t.
func Read(t testing.TB, reader *sdkmetric.ManualReader) map[string]Method {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatalf("wastedtest: collecting metrics: %v", err)
	}
	out := map[string]Method{}
	update := func(method string, f func(*Method)) {
		m := out[method]
		if m.Ended == nil {
			m.Ended = map[string]int64{}
		}
		f(&m)
		out[method] = m
	}
	for _, sm := range rm.ScopeMetrics {
		for _, metric := range sm.Metrics {
			switch data := metric.Data.(type) {
			case metricdata.Sum[int64]:
				for _, p := range data.DataPoints {
					method, _ := p.Attributes.Value("rpc.method")
					switch metric.Name {
					case wasted.WastedCalls:
						update(method.AsString(), func(m *Method) { m.Wasted += p.Value })
					case wasted.EndedCalls:
						code, _ := p.Attributes.Value("rpc.grpc.status_code")
						update(method.AsString(), func(m *Method) { m.Ended[code.AsString()] += p.Value })
					}
				}
			case metricdata.Histogram[float64]:
				if metric.Name != wasted.WastedDuration {
					continue
				}
				for _, p := range data.DataPoints {
					method, _ := p.Attributes.Value("rpc.method")
					update(method.AsString(), func(m *Method) { m.WastedSeconds += p.Sum })
				}
			}
		}
	}
	return out
}
