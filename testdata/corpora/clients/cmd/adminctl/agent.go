package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	agentv1 "example.test/clients/gen/agent/v1"
)

func dialAgent(addr string) (*grpc.ClientConn, agentv1.AgentServiceClient, error) {
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return nil, nil, fmt.Errorf("dial agent %s: %w", addr, err)
	}
	return conn, agentv1.NewAgentServiceClient(conn), nil
}

func (a *app) agentPing(ctx context.Context, addrs []string) error {
	if len(addrs) == 0 {
		return errUsage
	}
	var down int
	for _, addr := range addrs {
		conn, ac, err := dialAgent(addr)
		if err != nil {
			return err
		}
		pctx, cancel := context.WithTimeout(ctx, a.budget(3*time.Second))
		start := time.Now()
		resp, err := ac.Ping(pctx, &agentv1.PingRequest{}) // OK
		cancel()
		conn.Close()
		if err != nil {
			fmt.Fprintf(a.out, "%s\tDOWN\t%v\n", addr, err)
			down++
			continue
		}
		fmt.Fprintf(a.out, "%s\t%s\t%s\t%s\tdns=%t\n", addr, resp.GetHostname(), resp.GetVersion(), time.Since(start).Round(time.Millisecond), resp.GetUpstreamResolvable())
	}
	if down > 0 {
		return fmt.Errorf("%d of %d agents down", down, len(addrs))
	}
	return nil
}

// agentRun runs a task on one agent and prints the agent's log while it
// runs.
func (a *app) agentRun(ctx context.Context, args []string) error {
	if len(args) < 2 {
		return errUsage
	}
	conn, ac, err := dialAgent(args[0])
	if err != nil {
		return err
	}
	defer conn.Close()

	req := &agentv1.RunTaskRequest{Kind: args[1], Args: map[string]string{}}
	for _, kv := range args[2:] {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return fmt.Errorf("bad task argument %q, want key=value", kv)
		}
		req.Args[k] = v
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	logs, err := ac.TailLogs(ctx, &agentv1.TailLogsRequest{Unit: "agent-task", Follow: true}) // OK
	if err != nil {
		return err
	}
	go func() {
		for {
			line, err := logs.Recv()
			if err != nil {
				if !errors.Is(err, io.EOF) && ctx.Err() == nil {
					fmt.Fprintln(os.Stderr, "log stream:", err)
				}
				return
			}
			fmt.Fprintln(os.Stderr, "|", line.GetText())
		}
	}()

	resp, err := ac.RunTask(ctx, req)
	if err != nil {
		return err
	}
	fmt.Fprint(a.out, resp.GetOutput())
	if resp.GetExitCode() != 0 {
		return fmt.Errorf("task exited with %d", resp.GetExitCode())
	}
	return nil
}
