package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"connectrpc.com/connect"

	"example.test/vectordb/gen/vdbpb"
	"example.test/vectordb/gen/vdbpb/vdbpbconnect"
)

// getContext returns the context admin commands run with.
func getContext() context.Context {
	return context.Background()
}

// runAdmin runs an admin sub-command against the connect admin service.
func runAdmin(baseURL string, args []string) error {
	if len(args) == 0 {
		return errors.New("usage: admin get KEY | set KEY VALUE | nodes [ROLE]")
	}
	client := vdbpbconnect.NewAdminServiceClient(http.DefaultClient, baseURL)
	switch args[0] {
	case "get":
		resp, err := client.GetConfig(getContext(), connect.NewRequest(&vdbpb.GetConfigRequest{Key: arg(args, 1)})) // BUG: missingdeadline — the deadline-less factory every admin command calls: one finding, at its first call
		if err != nil {
			return err
		}
		fmt.Println(resp.Msg.GetValue())
	case "set":
		_, err := client.SetConfig(getContext(), connect.NewRequest(&vdbpb.SetConfigRequest{Key: arg(args, 1), Value: arg(args, 2)})) // OK: missingdeadline — same factory decision, a related position of the first call
		return err
	case "nodes":
		resp, err := client.ListNodes(getContext(), connect.NewRequest(&vdbpb.ListNodesRequest{Role: arg(args, 1)})) // OK: missingdeadline — same factory decision, a related position of the first call
		if err != nil {
			return err
		}
		for _, a := range resp.Msg.GetAddrs() {
			fmt.Println(a)
		}
	default:
		return fmt.Errorf("unknown admin command %q", args[0])
	}
	return nil
}
