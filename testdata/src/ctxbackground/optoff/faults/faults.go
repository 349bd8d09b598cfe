// Package faults builds the service's errors with functional options. E writes an error event
// with its ctx unless an option switches events off; Convert, Lookup and Deny make their errors
// on a root of their own with WithoutEvent() among options the call writes out: no event, no
// work with the root. The others may write the event: Loud turns nothing off, Undecided turns
// events off and on again, Handed passes options it is given, Maybe's option writes a value that
// is not known, Leaky's hands its *Options on, and Always writes its event whatever the options.
package faults

import (
	"context"
	"fmt"
)

// Fault is a service error.
type Fault struct {
	Code int
	Msg  string
}

func (f *Fault) Error() string { return fmt.Sprintf("%d: %s", f.Code, f.Msg) }

// Options are E's options.
type Options struct {
	withoutEvent bool
	code         int
	msg          string
	tags         []string
}

// Option sets one of E's options.
type Option func(*Options)

func defaults() Options { return Options{code: 2} }

// GetOpts applies the options in turn.
func GetOpts(opt ...Option) Options {
	opts := defaults()
	for _, o := range opt {
		o(&opts)
	}
	return opts
}

// WithoutEvent makes E write no event.
func WithoutEvent() Option {
	return func(o *Options) { o.withoutEvent = true }
}

// WithEvent makes E write its event again.
func WithEvent() Option {
	return func(o *Options) { o.withoutEvent = false }
}

// WithoutEventIf makes E write no event when skip is true.
func WithoutEventIf(skip bool) Option {
	return func(o *Options) { o.withoutEvent = skip }
}

// WithCode sets the code.
func WithCode(c int) Option {
	return func(o *Options) { o.code = c }
}

// WithMsg sets the message.
func WithMsg(m string) Option {
	return func(o *Options) { o.msg = m }
}

// WithTags adds tags, through a helper given the whole *Options.
func WithTags(tags ...string) Option {
	return func(o *Options) { addTags(o, tags) }
}

func addTags(o *Options, tags []string) { o.tags = append(o.tags, tags...) }

// quiet is an option declared as a function.
func quiet(o *Options) { o.withoutEvent = true }

var events = make(chan string)

// writeEvent sends an error event and waits for the broker to take it.
func writeEvent(ctx context.Context, f *Fault) {
	select {
	case <-ctx.Done():
	case events <- f.Error():
	}
}

// E returns a fault, and writes an event for it unless the options say not to.
func E(ctx context.Context, opt ...Option) error {
	opts := GetOpts(opt...)
	f := &Fault{Code: opts.code, Msg: opts.msg}
	if opts.withoutEvent {
		return f
	}
	writeEvent(ctx, f)
	return f
}

// Always writes its event whatever the options.
func Always(ctx context.Context, opt ...Option) error {
	opts := GetOpts(opt...)
	f := &Fault{Code: opts.code, Msg: opts.msg}
	writeEvent(ctx, f)
	if opts.withoutEvent {
		return f
	}
	return f
}

// Convert turns any error into a fault, without an event.
func Convert(err error) error {
	ctx := context.TODO()
	if err == nil {
		return nil
	}
	return E(ctx, WithoutEvent(), WithMsg(err.Error()), WithCode(13))
}

// Lookup is Convert with the option declared as a function, and a fault wrapped in another.
func Lookup(name string) error {
	ctx := context.TODO()
	return E(ctx, quiet, WithMsg(E(ctx, WithoutEvent(), WithMsg(name)).Error()))
}

// Deny turns events off in a literal written at the call.
func Deny(why string) error {
	ctx := context.TODO()
	return E(ctx, func(o *Options) { o.withoutEvent = true }, WithMsg(why))
}

// Loud turns nothing off.
func Loud(err error) error { // want Loud:"drops ctx: context.TODO\\(\\) at .*/faults.go:134"
	ctx := context.TODO()
	return E(ctx, WithMsg(err.Error()))
}

// Undecided turns events off, then on again.
func Undecided(err error) error { // want Undecided:"drops ctx: context.TODO\\(\\) at .*/faults.go:140"
	ctx := context.TODO()
	return E(ctx, WithoutEvent(), WithMsg(err.Error()), WithEvent())
}

// Handed passes the options it is given.
func Handed(err error, opt ...Option) error { // want Handed:"drops ctx: context.TODO\\(\\) at .*/faults.go:146"
	ctx := context.TODO()
	return E(ctx, opt...)
}

// Maybe's option writes a value that is not known here.
func Maybe(err error, skip bool) error { // want Maybe:"drops ctx: context.TODO\\(\\) at .*/faults.go:152"
	ctx := context.TODO()
	return E(ctx, WithoutEvent(), WithoutEventIf(skip))
}

// Leaky's option hands its *Options to a helper.
func Leaky(err error) error { // want Leaky:"drops ctx: context.TODO\\(\\) at .*/faults.go:158"
	ctx := context.TODO()
	return E(ctx, WithoutEvent(), WithTags("leak"))
}

// Written writes its event whatever the options.
func Written(err error) error { // want Written:"drops ctx: context.TODO\\(\\) at .*/faults.go:164"
	ctx := context.TODO()
	return Always(ctx, WithoutEvent())
}

// Notify writes its event under the negated option, its options applied to a local it
// keeps.
func Notify(ctx context.Context, msg string, opt ...Option) *Fault {
	opts := GetOpts(opt...)
	f := &Fault{Code: opts.code, Msg: msg}
	if !opts.withoutEvent {
		writeEvent(ctx, f)
	}
	return f
}

// Reset turns events back on itself after applying its options.
func Reset(ctx context.Context, opt ...Option) *Fault {
	opts := GetOpts(opt...)
	opts.withoutEvent = false
	f := &Fault{Msg: opts.msg}
	if opts.withoutEvent {
		return f
	}
	writeEvent(ctx, f)
	return f
}

// Hush notifies with events off: silent.
func Hush(msg string) error {
	return Notify(context.Background(), msg, WithoutEvent())
}

// Reopened's options are undone by Reset.
func Reopened(msg string) error { // want Reopened:"drops ctx: context.Background\\(\\) at .*/faults.go:198"
	return Reset(context.Background(), WithoutEvent(), WithMsg(msg))
}
