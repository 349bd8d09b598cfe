// Package units sets timeouts with and without a unit.
package units

import (
	"context"
	"net"
	"net/http"
	"time"

	"google.golang.org/grpc"
)

const (
	retryWait    = 250             // no unit
	fetchTimeout = 3 * time.Second // a unit
	attempts     = 3
)

const typed time.Duration = 500 // typed: deliberate nanoseconds, or not; not known

func bare(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, 500) // want `the duration of context\.WithTimeout is 500 nanoseconds: a bare number has no unit; multiply it by one, such as time\.Millisecond or time\.Second`
	defer cancel()
	<-time.After(retryWait)      // want `the duration of time\.After is 250 nanoseconds`
	t := time.NewTimer(2 * 1000) // want `the duration of time\.NewTimer is 2000 nanoseconds`
	defer t.Stop()
	time.AfterFunc(retryWait*attempts, func() {}) // want `the duration of time\.AfterFunc is 750 nanoseconds`
	_ = ctx
}

func withUnits(ctx context.Context, d time.Duration) {
	ctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
	defer cancel()
	<-time.After(fetchTimeout)
	<-time.After(retryWait * time.Millisecond)
	<-time.After(d)
	<-time.After(typed)
	<-time.After(time.Duration(500))
	<-time.After(0)
	_ = ctx
}

// heartbeat starts its timer expired, so the first beat is sent at once: 1 is the shortest
// duration, not a unit left out. A one-shot wait of 1 waits for nothing.
func heartbeat(beat func(), period time.Duration) {
	t := time.NewTimer(1) // fire at once
	defer t.Stop()
	for range t.C {
		beat()
		t.Reset(period)
	}
	time.AfterFunc(1, beat)
	<-time.After(1) // want `the duration of time\.After is 1 nanoseconds`
	t.Reset(2)      // a Reset is not checked
}

func deadlines(ctx context.Context, c net.Conn) {
	ctx, cancel := context.WithDeadline(ctx, time.Now().Add(30)) // want `the time\.Now\(\)\.Add of context\.WithDeadline is 30 nanoseconds`
	defer cancel()
	_ = c.SetReadDeadline(time.Now().Add(5)) // want `the time\.Now\(\)\.Add of Conn\.SetReadDeadline is 5 nanoseconds`
	_ = c.SetWriteDeadline(time.Now().Add(5 * time.Second))
	_ = ctx
}

func dialing() {
	cc, _ := grpc.Dial("catalog:443", grpc.WithTimeout(10)) // want `the duration of grpc\.WithTimeout is 10 nanoseconds`
	_ = cc
	_ = grpc.NewServer(grpc.ConnectionTimeout(120 * time.Second))
}

func clients() {
	_ = &http.Client{Timeout: 30}                                    // want `http\.Client's Timeout is 30 nanoseconds`
	_ = &http.Server{ReadTimeout: 5 * time.Second, WriteTimeout: 10} // want `http\.Server's WriteTimeout is 10 nanoseconds`
	_ = &http.Transport{IdleConnTimeout: 90 * time.Second, TLSHandshakeTimeout: 0}
}
