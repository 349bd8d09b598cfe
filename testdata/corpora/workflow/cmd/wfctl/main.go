// Command wfctl is the admin CLI.
package main

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"os"

	"connectrpc.com/connect"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	adminv1 "example.test/workflow/gen/admin/v1"
	"example.test/workflow/gen/admin/v1/adminv1connect"
	frontendv1 "example.test/workflow/gen/frontend/v1"
	"example.test/workflow/sdk"
)

func main() {
	addr := flag.String("addr", "localhost:7233", "frontend address")
	adminURL := flag.String("admin", "http://localhost:7234", "admin URL")
	timeout := flag.Duration("timeout", 0, "per-command timeout (0: none)")
	flag.Parse()

	ctx := context.Background()
	if *timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *timeout)
		defer cancel()
	}
	cc, err := grpc.NewClient(*addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	wf := frontendv1.NewWorkflowServiceClient(cc)
	admin := adminv1connect.NewAdminServiceClient(http.DefaultClient, *adminURL)
	args := flag.Args()
	if len(args) < 1 {
		os.Exit(2)
	}
	switch args[0] {
	case "start":
		_, err = wf.StartWorkflow(ctx, &frontendv1.StartWorkflowRequest{WorkflowId: args[1], WorkflowType: args[2]}) // OK: missingdeadline — -timeout defaults to none: the user's decision
	case "signal":
		err = sdk.NewClient(cc).Signal(ctx, args[1], args[2], nil) // OK: missingdeadline — -timeout flag decides
	case "describe":
		var resp *frontendv1.DescribeWorkflowResponse
		resp, err = wf.DescribeWorkflow(ctx, &frontendv1.DescribeWorkflowRequest{WorkflowId: args[1]}) // OK: missingdeadline — -timeout flag decides
		fmt.Println(resp.GetStatus())
	case "cluster":
		var resp *connect.Response[adminv1.DescribeClusterResponse]
		resp, err = admin.DescribeCluster(ctx, connect.NewRequest(&adminv1.DescribeClusterRequest{})) // OK: missingdeadline — -timeout flag decides
		if err == nil {
			fmt.Println(resp.Msg.GetClusterId())
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
