// sqlctl is the operator's command-line client of vtctld.
//
//	sqlctl [-server addr] [-timeout d] <command> [args...]
//	sqlctl [-server addr]                  (interactive shell)
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"example.test/sqlproxy/gen/adminpb"
)

var (
	server  = flag.String("server", "localhost:15991", "vtctld address")
	timeout = flag.Duration("timeout", 0, "deadline of the command; 0 waits as long as it takes")
)

// commandContext returns the ctx of one command, bounded by timeout when
// timeout is set.
func commandContext(timeout time.Duration) (context.Context, context.CancelFunc) {
	if timeout > 0 {
		return context.WithTimeout(context.Background(), timeout)
	}
	return context.WithCancel(context.Background())
}

func main() {
	flag.Parse()
	cc, err := grpc.NewClient(*server, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	client := adminpb.NewVtctldClient(cc)
	args := flag.Args()
	if len(args) == 0 {
		runShell(client, os.Stdin, os.Stdout)
		return
	}
	ctx, cancel := commandContext(*timeout)
	err = run(ctx, client, args, os.Stdout) // OK: missingdeadline — the deadline is the user's -timeout (default none), applied by commandContext from its caller's duration
	cancel()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(ctx context.Context, client adminpb.VtctldClient, args []string, w io.Writer) error {
	need := func(n int) error {
		if len(args)-1 < n {
			return fmt.Errorf("%s needs %d argument(s)", args[0], n)
		}
		return nil
	}
	switch args[0] {
	case "GetKeyspaces":
		resp, err := client.GetKeyspaces(ctx, &adminpb.GetKeyspacesRequest{}) // OK: missingdeadline — the user's -timeout decides (commandContext)
		if err != nil {
			return err
		}
		for _, ks := range resp.GetKeyspaces() {
			fmt.Fprintln(w, ks.GetName())
		}
	case "GetKeyspace":
		if err := need(1); err != nil {
			return err
		}
		resp, err := client.GetKeyspace(ctx, &adminpb.GetKeyspaceRequest{Keyspace: args[1]}) // OK: missingdeadline — the user's -timeout decides (commandContext)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%s: shards %v (cluster %s)\n", resp.GetKeyspace().GetName(), resp.GetKeyspace().GetShards(), resp.GetClusterId())
	case "ReloadSchemaKeyspace":
		if err := need(1); err != nil {
			return err
		}
		resp, err := client.ReloadSchemaKeyspace(ctx, &adminpb.ReloadSchemaKeyspaceRequest{Keyspace: args[1], Concurrency: 8}) // OK: missingdeadline — the user's -timeout decides (commandContext)
		if err != nil {
			return err
		}
		fmt.Fprintln(w, strings.Join(resp.GetEvents(), "\n"))
	case "Reshard":
		if err := need(3); err != nil {
			return err
		}
		resp, err := client.Reshard(ctx, &adminpb.ReshardRequest{ // OK: missingdeadline — the user's -timeout decides (commandContext)
			Workflow:     args[1],
			Keyspace:     args[2],
			SourceShards: strings.Split(args[3], ","),
			TargetShards: strings.Split(args[4], ","),
		})
		if err != nil {
			return err
		}
		fmt.Fprintln(w, resp.GetWorkflowId())
	case "WorkflowStatus":
		if err := need(1); err != nil {
			return err
		}
		resp, err := client.WorkflowStatus(ctx, &adminpb.WorkflowStatusRequest{WorkflowId: args[1]}) // OK: missingdeadline — the user's -timeout decides (commandContext)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%s: %d rows %s\n", resp.GetState(), resp.GetRowsCopied(), resp.GetMessage())
	case "Exec":
		stream, err := client.ExecuteVtctlCommand(ctx, &adminpb.ExecuteVtctlCommandRequest{Args: args[1:]}) // OK: missingdeadline — a streaming call
		if err != nil {
			return err
		}
		for {
			ev, err := stream.Recv()
			if errors.Is(err, io.EOF) {
				return nil
			}
			if err != nil {
				return err
			}
			fmt.Fprintln(w, ev.GetEvent())
		}
	default:
		return fmt.Errorf("unknown command %q", args[0])
	}
	return nil
}

// shellCommand is one command of the interactive shell.
type shellCommand interface {
	Do(args []string, w io.Writer) error
}

type keyspacesCmd struct{ client adminpb.VtctldClient }

func (c keyspacesCmd) Do(_ []string, w io.Writer) error {
	resp, err := c.client.GetKeyspaces(context.Background(), &adminpb.GetKeyspacesRequest{}) // OK: missingdeadline — the package's own shell interface decides no ctx arrives; only the shell loop main starts calls it
	if err != nil {
		return err
	}
	for _, ks := range resp.GetKeyspaces() {
		fmt.Fprintln(w, ks.GetName())
	}
	return nil
}

type statusCmd struct{ client adminpb.VtctldClient }

func (c statusCmd) Do(args []string, w io.Writer) error {
	if len(args) != 1 {
		return errors.New("usage: status <workflow>")
	}
	resp, err := c.client.WorkflowStatus(context.Background(), &adminpb.WorkflowStatusRequest{WorkflowId: args[0]}) // OK: missingdeadline — the package's own shell interface decides no ctx arrives
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%s: %d rows\n", resp.GetState(), resp.GetRowsCopied())
	return nil
}

func runShell(client adminpb.VtctldClient, in io.Reader, out io.Writer) {
	cmds := map[string]shellCommand{
		"keyspaces": keyspacesCmd{client: client},
		"status":    statusCmd{client: client},
	}
	sc := bufio.NewScanner(in)
	for fmt.Fprint(out, "sqlctl> "); sc.Scan(); fmt.Fprint(out, "sqlctl> ") {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		if fields[0] == "quit" {
			return
		}
		cmd, ok := cmds[fields[0]]
		if !ok {
			fmt.Fprintf(out, "unknown command %q\n", fields[0])
			continue
		}
		if err := cmd.Do(fields[1:], out); err != nil {
			fmt.Fprintln(out, "error:", err)
		}
	}
}
