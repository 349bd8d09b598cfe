// Package shell is the interactive admin shell of cpctl.
package shell

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"connectrpc.com/connect"

	cpv1 "example.test/controlplane/gen/controlplane/v1"
	"example.test/controlplane/gen/controlplane/v1/cpv1connect"
)

// Env is what commands work with.
type Env struct {
	Jobs  cpv1.JobServiceClient
	Nodes cpv1connect.NodeServiceClient
	Out   io.Writer
}

// Command is one shell command. Commands are interactive: the user interrupts
// them with ^C, which ends the shell.
type Command interface {
	Name() string
	Help() string
	Do(args []string, env *Env) error
}

// Shell reads commands and runs them.
type Shell struct {
	env  *Env
	cmds map[string]Command
}

// New returns a shell with the built-in commands.
func New(env *Env) *Shell {
	sh := &Shell{env: env, cmds: map[string]Command{}}
	for _, c := range []Command{getCmd{}, cancelCmd{}, nodesCmd{}, watchCmd{}, helpCmd{sh}} {
		sh.cmds[c.Name()] = c
	}
	return sh
}

// Run reads commands from in until EOF or "exit".
func (sh *Shell) Run(in io.Reader) error {
	sc := bufio.NewScanner(in)
	fmt.Fprint(sh.env.Out, "cp> ")
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			fmt.Fprint(sh.env.Out, "cp> ")
			continue
		}
		if fields[0] == "exit" {
			return nil
		}
		cmd, ok := sh.cmds[fields[0]]
		if !ok {
			fmt.Fprintf(sh.env.Out, "unknown command %q\n", fields[0])
		} else if err := cmd.Do(fields[1:], sh.env); err != nil {
			fmt.Fprintf(sh.env.Out, "error: %v\n", err)
		}
		fmt.Fprint(sh.env.Out, "cp> ")
	}
	return sc.Err()
}

var errUsage = errors.New("usage")

type getCmd struct{}

func (getCmd) Name() string { return "get" }
func (getCmd) Help() string { return "get JOB" }
func (getCmd) Do(args []string, env *Env) error {
	if len(args) != 1 {
		return errUsage
	}
	j, err := lookup(env, args[0])
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Out, "%s\t%s\t%s\n", j.GetId(), j.GetState(), j.GetNode())
	return nil
}

// lookup fetches one job; only commands call it.
func lookup(env *Env, id string) (*cpv1.Job, error) {
	resp, err := env.Jobs.GetJob(context.TODO(), &cpv1.GetJobRequest{Id: id}) // OK: missingdeadline look-alike — unexported helper only ctx-less shell commands call; the Command interface decides no ctx arrives (the fix is the interface's).
	if err != nil {
		return nil, err
	}
	return resp.GetJob(), nil
}

type cancelCmd struct{}

func (cancelCmd) Name() string { return "cancel" }
func (cancelCmd) Help() string { return "cancel JOB [REASON]" }
func (cancelCmd) Do(args []string, env *Env) error {
	if len(args) < 1 {
		return errUsage
	}
	j, err := lookup(env, args[0])
	if err != nil {
		return err
	}
	_, err = env.Jobs.CancelJob(context.Background(), &cpv1.CancelJobRequest{Id: j.GetId(), Reason: strings.Join(args[1:], " ")}) // OK: missingdeadline look-alike — a shell command implementing the package's ctx-less Command.Do, run only from the shell loop main calls.
	return err
}

type nodesCmd struct{}

func (nodesCmd) Name() string { return "nodes" }
func (nodesCmd) Help() string { return "nodes [STATUS]" }
func (nodesCmd) Do(args []string, env *Env) error {
	st := "ready"
	if len(args) > 0 {
		st = args[0]
	}
	resp, err := env.Nodes.ListNodes(context.Background(), connect.NewRequest(&cpv1.ListNodesRequest{Status: st})) // OK: missingdeadline look-alike — connect unary call in a ctx-less Command.Do, reached only from the shell loop.
	if err != nil {
		return err
	}
	for _, n := range resp.Msg.GetNodes() {
		fmt.Fprintf(env.Out, "%s\t%s\t%s\n", n.GetId(), n.GetAddress(), n.GetStatus())
	}
	return nil
}

type watchCmd struct{}

func (watchCmd) Name() string { return "watch" }
func (watchCmd) Help() string { return "watch NAMESPACE" }
func (watchCmd) Do(args []string, env *Env) error {
	if len(args) != 1 {
		return errUsage
	}
	stream, err := env.Jobs.WatchJobs(context.Background(), &cpv1.WatchJobsRequest{Namespace: args[0]}) // OK: missingdeadline look-alike — a server-streaming call, not unary.
	if err != nil {
		return err
	}
	for {
		ev, err := stream.Recv()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		fmt.Fprintf(env.Out, "%s %s %s\n", ev.GetType(), ev.GetJob().GetId(), ev.GetJob().GetState())
	}
}

type helpCmd struct{ sh *Shell }

func (helpCmd) Name() string { return "help" }
func (helpCmd) Help() string { return "help" }
func (h helpCmd) Do(_ []string, env *Env) error {
	names := make([]string, 0, len(h.sh.cmds))
	for n := range h.sh.cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(env.Out, "  %s\n", h.sh.cmds[n].Help())
	}
	return nil
}
