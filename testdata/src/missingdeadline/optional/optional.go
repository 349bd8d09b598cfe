// Package optional is a CLI whose deadline is the user's to set: a -timeout flag that defaults
// to none is applied only when given. Next to it, the same shape where the condition is not
// about a duration, and a command with no deadline at all.
package optional

import (
	"context"
	"flag"
	"time"

	"example.com/gen/catalogpb"
	"missingdeadline/optional/ctxutil"
)

var timeout = flag.Duration("timeout", 0, "give up after this long (0: never)")

// Get applies the user's timeout when there is one.
func Get(c catalogpb.CatalogClient, id string) (*catalogpb.Item, error) {
	ctx := context.Background()
	if *timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *timeout)
		defer cancel()
	}
	return c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id})
}

// getUnless applies a deadline unless told to be quick: the condition is no timeout's.
func getUnless(c catalogpb.CatalogClient, id string, quick bool) (*catalogpb.Item, error) {
	ctx := context.Background()
	if !quick {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Second)
		defer cancel()
	}
	return c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id}) // want `RPC CatalogClient\.GetItem has no deadline \(ctx from context\.Background\(\)\); add one with context\.WithTimeout`
}

// getForever has no deadline on any path.
func getForever(c catalogpb.CatalogClient, id string) (*catalogpb.Item, error) {
	ctx := context.Background()
	return c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id}) // want `RPC CatalogClient\.GetItem has no deadline \(ctx from context\.Background\(\)\); add one with context\.WithTimeout`
}

// GetWithin gives the helper its caller's timeout: the deadline-less path is the caller's
// decision, as a -timeout flag that defaults to none is the user's.
func GetWithin(c catalogpb.CatalogClient, id string, d time.Duration) (*catalogpb.Item, error) {
	ctx, cancel := ctxutil.HeaderContext(d, map[string]string{"x-id": id})
	defer cancel()
	return c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id})
}

// GetWith reads the timeout from its options.
func GetWith(c catalogpb.CatalogClient, id string, opts *ctxutil.Options) (*catalogpb.Item, error) {
	ctx, cancel := ctxutil.OptionsContext(opts)
	defer cancel()
	return c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id})
}

// getQuick takes the helper's quick path: no duration decides it.
func getQuick(c catalogpb.CatalogClient, id string) (*catalogpb.Item, error) {
	ctx, cancel := ctxutil.QuickContext(true)
	defer cancel()
	return c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id}) // want `RPC CatalogClient\.GetItem has no deadline \(ctx from context\.Background\(\) at .*ctxutil\.go:42\)`
}

// poll uses a helper whose duration is its own setting.
func poll(c catalogpb.CatalogClient, id string) (*catalogpb.Item, error) {
	ctx, cancel := ctxutil.PollContext()
	defer cancel()
	return c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id}) // want `RPC CatalogClient\.GetItem has no deadline \(ctx from context\.Background\(\) at .*ctxutil\.go:55\)`
}

// getNone passes no timeout: none is its own decision.
func getNone(c catalogpb.CatalogClient, id string) (*catalogpb.Item, error) {
	ctx, cancel := ctxutil.HeaderContext(0, nil)
	defer cancel()
	return c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id}) // want `RPC CatalogClient\.GetItem has no deadline \(ctx from context\.Background\(\) at .*ctxutil\.go:25\)`
}

// withTimeout applies its caller's timeout to its caller's ctx, when there is one.
func withTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if d > 0 {
		return context.WithTimeout(ctx, d)
	}
	return ctx, func() {}
}

// GetLocal gives the package's helper its caller's timeout.
func GetLocal(c catalogpb.CatalogClient, id string, d time.Duration) (*catalogpb.Item, error) {
	ctx, cancel := withTimeout(context.Background(), d)
	defer cancel()
	return c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id})
}

// getLocalNone passes it none.
func getLocalNone(c catalogpb.CatalogClient, id string) (*catalogpb.Item, error) {
	ctx, cancel := withTimeout(context.Background(), 0)
	defer cancel()
	return c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id}) // want `RPC CatalogClient\.GetItem has no deadline \(ctx from context\.Background\(\)\)`
}

var maxTime = flag.Float64("max-time", 0, "give up after this many seconds (0: never)")

var retries = flag.Int("retries", 0, "retry this many times")

// seconds turns a number of seconds into a duration.
func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// GetMaxTime applies the user's -max-time, in seconds, when there is one.
func GetMaxTime(c catalogpb.CatalogClient, id string) (*catalogpb.Item, error) {
	ctx := context.Background()
	if *maxTime > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, seconds(*maxTime))
		defer cancel()
	}
	return c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id})
}

// getRetrying bounds the call only when it retries: the number compared is not the deadline's.
func getRetrying(c catalogpb.CatalogClient, id string) (*catalogpb.Item, error) {
	ctx := context.Background()
	if *retries > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Second)
		defer cancel()
	}
	return c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id}) // want `RPC CatalogClient\.GetItem has no deadline \(ctx from context\.Background\(\)\)`
}

// getEvery uses a helper whose compared duration is not its deadline's.
func getEvery(c catalogpb.CatalogClient, id string, every time.Duration) (*catalogpb.Item, error) {
	ctx, cancel := ctxutil.EveryContext(every)
	defer cancel()
	return c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id}) // want `RPC CatalogClient\.GetItem has no deadline \(ctx from context\.Background\(\) at .*ctxutil\.go:64\)`
}

// commandContext applies the user's -timeout flag when it is set: the helper form of Get's.
func commandContext() (context.Context, context.CancelFunc) {
	if *timeout <= 0 {
		return context.WithCancel(context.Background())
	}
	return context.WithTimeout(context.Background(), *timeout)
}

// GetCommand gives the call the command's ctx: a deadline when the user asks for one.
func GetCommand(c catalogpb.CatalogClient, id string) (*catalogpb.Item, error) {
	ctx, cancel := commandContext()
	defer cancel()
	return c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id})
}

var pause = 2 * time.Second

// pausedContext compares a package setting, not a flag: its deadline-less path is its own.
func pausedContext() (context.Context, context.CancelFunc) {
	if pause <= 0 {
		return context.WithCancel(context.Background())
	}
	return context.WithTimeout(context.Background(), pause)
}

func getPaused(c catalogpb.CatalogClient, id string) (*catalogpb.Item, error) {
	ctx, cancel := pausedContext()
	defer cancel()
	return c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id}) // want `RPC CatalogClient\.GetItem has no deadline \(ctx from context\.Background\(\)\)`
}

var _ = getPaused

// grace is a flag a command registers on its flag set, and settle a setting it loads:
// the helper comparing grace leaves the deadline to the user, the one comparing settle does not.
var grace, settle time.Duration

type command struct{}

func (command) registerFlags(fs *flag.FlagSet) {
	fs.DurationVar(&grace, "grace", 0, "give up after this long (0: never)")
	loadSetting(&settle)
}

// loadSetting reads a setting from the environment.
func loadSetting(d *time.Duration) { *d = 3 * time.Second }

func graceContext() (context.Context, context.CancelFunc) {
	if grace == 0 {
		return context.WithCancel(context.Background())
	}
	return context.WithTimeout(context.Background(), grace)
}

func settleContext() (context.Context, context.CancelFunc) {
	if settle == 0 {
		return context.WithCancel(context.Background())
	}
	return context.WithTimeout(context.Background(), settle)
}

func getGrace(c catalogpb.CatalogClient, id string) (*catalogpb.Item, error) {
	ctx, cancel := graceContext()
	defer cancel()
	return c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id})
}

func getSettled(c catalogpb.CatalogClient, id string) (*catalogpb.Item, error) {
	ctx, cancel := settleContext()
	defer cancel()
	return c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id}) // want `RPC CatalogClient\.GetItem has no deadline \(ctx from context\.Background\(\)\)`
}

var _, _, _ = command.registerFlags, getGrace, getSettled
