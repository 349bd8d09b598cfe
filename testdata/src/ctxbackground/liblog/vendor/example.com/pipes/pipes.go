// Package pipes is a client of a dependency module whose Client and Pipeline both implement
// Runner, each Run handing its ctx to the other's: a Pipe's Run is declared by Runner, which
// Pipe embeds, but a Pipe is only ever a Pipeline, whose Exec sends the queued commands with
// the ctx through a func field. Client.Run is work, though every Runner passes its ctx on.
package pipes

import "context"

// Runner runs queued commands.
type Runner interface {
	Run(ctx context.Context) error
}

// Pipe queues commands and runs them.
type Pipe interface {
	Runner
	Queue(cmd string)
	Exec(ctx context.Context) error
}

// Client talks to the server.
type Client struct {
	send func(ctx context.Context, cmds []string) error
}

// Pipeline queues commands for one round trip.
type Pipeline struct {
	cmds []string
	exec func(ctx context.Context, cmds []string) error
}

// NewPipe starts a pipeline on the client.
func (c *Client) NewPipe() Pipe { return &Pipeline{exec: c.send} }

// Run runs the client's pending pipeline.
func (c *Client) Run(ctx context.Context) error { return c.NewPipe().Run(ctx) }

func (p *Pipeline) Queue(cmd string) { p.cmds = append(p.cmds, cmd) }

func (p *Pipeline) Run(ctx context.Context) error { return p.Exec(ctx) }

func (p *Pipeline) Exec(ctx context.Context) error { return p.exec(ctx, p.cmds) }

// Relay passes Run on to another Runner: every Runner of the package only hands its ctx on.
type Relay struct{ next Runner }

func (r Relay) Run(ctx context.Context) error { return r.next.Run(ctx) }
