package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"google.golang.org/grpc"

	"example.test/vectordb/gen/vdbpb"
)

// command is one verb of the interactive shell.
type command interface {
	Do(args []string, w io.Writer) error
}

type showCmd struct{ px vdbpb.ProxyClient }

func (c showCmd) Do(args []string, w io.Writer) error {
	resp, err := c.px.ShowCollections(context.Background(), &vdbpb.ShowCollectionsRequest{Db: arg(args, 0)}) // OK: missingdeadline — the package's command interface decides no ctx arrives; the shell loop runs from main
	if err != nil {
		return err
	}
	for _, n := range resp.GetNames() {
		fmt.Fprintln(w, n)
	}
	return nil
}

type describeCmd struct{ px vdbpb.ProxyClient }

func (c describeCmd) Do(args []string, w io.Writer) error {
	resp, err := c.px.DescribeCollection(context.Background(), &vdbpb.DescribeCollectionRequest{Db: arg(args, 0), Name: arg(args, 1)}) // OK: missingdeadline — the package's command interface decides no ctx arrives
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%d dim=%d\n", resp.GetInfo().GetId(), resp.GetInfo().GetDim())
	return nil
}

type flushCmd struct{ dc vdbpb.DataCoordClient }

func (c flushCmd) Do(args []string, w io.Writer) error {
	id, _ := strconv.ParseInt(arg(args, 0), 10, 64)
	return flushAndWait(c.dc, id, arg(args, 1), w)
}

// flushAndWait is called only by flushCmd.Do.
func flushAndWait(dc vdbpb.DataCoordClient, collID int64, vchannel string, w io.Writer) error {
	ctx := context.Background() // OK: missingdeadline — an unexported helper only a ctx-less command method calls
	resp, err := dc.Flush(ctx, &vdbpb.FlushRequest{CollectionId: collID, Vchannel: vchannel})
	if err != nil {
		return err
	}
	for {
		si, err := dc.GetSegmentInfo(ctx, &vdbpb.GetSegmentInfoRequest{SegmentIds: resp.GetSegmentIds()})
		if err != nil {
			return err
		}
		done := true
		for _, s := range si.GetInfos() {
			done = done && s.GetState() == "Flushed"
		}
		if done {
			fmt.Fprintln(w, "flushed", resp.GetSegmentIds())
			return nil
		}
		time.Sleep(500 * time.Millisecond) // OK: ctxless — a CLI poll, not a request scope
	}
}

// runShell reads commands from in until EOF.
func runShell(cc grpc.ClientConnInterface, in io.Reader, out io.Writer) error {
	px := vdbpb.NewProxyClient(cc)
	cmds := map[string]command{
		"show":     showCmd{px: px},
		"describe": describeCmd{px: px},
		"flush":    flushCmd{dc: vdbpb.NewDataCoordClient(cc)},
	}
	sc := bufio.NewScanner(in)
	fmt.Fprint(out, "vdb> ")
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) > 0 {
			if c, ok := cmds[fields[0]]; ok {
				if err := c.Do(fields[1:], out); err != nil {
					fmt.Fprintln(out, "error:", err)
				}
			} else if fields[0] == "quit" {
				return nil
			} else {
				fmt.Fprintln(out, "unknown command", fields[0])
			}
		}
		fmt.Fprint(out, "vdb> ")
	}
	return sc.Err()
}
