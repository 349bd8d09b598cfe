// Package stats is a stub of go.opencensus.io/stats: measurements recorded in memory with the
// tags their ctx carries.
package stats

import "context"

// Measurement is one value of a measure.
type Measurement struct{ v float64 }

// Int64Measure is a measure of int64 values.
type Int64Measure struct{ name string }

// M makes a measurement.
func (m *Int64Measure) M(v int64) Measurement { return Measurement{float64(v)} }

// Int64 declares a measure.
func Int64(name, desc, unit string) *Int64Measure { return &Int64Measure{name} }

// Mutator changes the tags of a recording.
type Mutator interface{ Mutate() }

// Record records measurements with the tags of ctx.
func Record(ctx context.Context, ms ...Measurement) {}

// RecordWithTags records measurements with the tags of ctx, changed by mutators.
func RecordWithTags(ctx context.Context, mutators []Mutator, ms ...Measurement) error { return nil }
