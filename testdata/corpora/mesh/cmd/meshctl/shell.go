package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	"connectrpc.com/connect"

	"example.test/mesh/gen/adminv1"
	"example.test/mesh/gen/resourcev1"
)

// command is one command of the interactive shell.
type command interface {
	Do(args []string, w io.Writer) error
}

type getCmd struct{ cl *clients }

func (c getCmd) Do(args []string, w io.Writer) error {
	if len(args) != 2 {
		return fmt.Errorf("get TYPE NAME")
	}
	obj, err := c.cl.res.Get(context.Background(), &resourcev1.GetRequest{Mesh: *mesh, Type: args[0], Name: args[1]}) // OK: missingdeadline — the shell's command interface takes no ctx and the loop runs from main with none: the interface's decision
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s v%d\n%s\n", obj.GetMeta().GetName(), obj.GetMeta().GetVersion(), obj.GetSpec())
	return err
}

type listCmd struct{ cl *clients }

func (c listCmd) Do(args []string, w io.Writer) error {
	if len(args) != 1 {
		return fmt.Errorf("list TYPE")
	}
	resp, err := c.cl.res.List(context.Background(), &resourcev1.ListRequest{Mesh: *mesh, Type: args[0]}) // OK: missingdeadline — a shell command: no ctx arrives through the command interface
	if err != nil {
		return err
	}
	for _, it := range resp.GetItems() {
		fmt.Fprintln(w, it.GetMeta().GetName())
	}
	return nil
}

type levelCmd struct{ cl *clients }

func (c levelCmd) Do(args []string, w io.Writer) error {
	if len(args) != 2 {
		return fmt.Errorf("level COMPONENT LEVEL")
	}
	_, err := c.cl.admin.SetLogLevel(context.Background(), connect.NewRequest(&adminv1.SetLogLevelRequest{Component: args[0], Level: args[1]})) // OK: missingdeadline — a shell command (connect client): the command interface carries no ctx
	return err
}

type helpCmd struct{ cmds map[string]command }

func (c helpCmd) Do(_ []string, w io.Writer) error {
	names := make([]string, 0, len(c.cmds))
	for n := range c.cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	_, err := fmt.Fprintln(w, strings.Join(names, " "))
	return err
}

func runShell(in io.Reader, out io.Writer, cl *clients) {
	cmds := map[string]command{
		"get":   getCmd{cl},
		"list":  listCmd{cl},
		"level": levelCmd{cl},
	}
	cmds["help"] = helpCmd{cmds}
	sc := bufio.NewScanner(in)
	fmt.Fprint(out, "mesh> ")
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) > 0 {
			if fields[0] == "exit" || fields[0] == "quit" {
				return
			}
			if cmd, ok := cmds[fields[0]]; ok {
				if err := cmd.Do(fields[1:], out); err != nil {
					fmt.Fprintln(out, "error:", err)
				}
			} else {
				fmt.Fprintln(out, "unknown command; try help")
			}
		}
		fmt.Fprint(out, "mesh> ")
	}
}
