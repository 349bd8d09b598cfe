// Command meshctl is the mesh's command-line client.
package main

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"os"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"example.test/mesh/gen/adminv1/adminv1connect"
	"example.test/mesh/gen/cav1"
	"example.test/mesh/gen/resourcev1"
)

var (
	server      = flag.String("server", "localhost:5681", "control plane gRPC address")
	adminURL    = flag.String("admin", "http://localhost:5680", "control plane admin URL")
	mesh        = flag.String("mesh", "default", "mesh")
	timeout     = flag.Duration("timeout", 0, "time limit for the command (0: none)")
	interactive = flag.Bool("i", false, "interactive shell")
)

type clients struct {
	res   resourcev1.ResourceServiceClient
	ca    cav1.CertificateAuthorityClient
	admin adminv1connect.AdminServiceClient
}

func main() {
	flag.Parse()
	conn, err := grpc.NewClient(*server, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer conn.Close()
	cl := &clients{
		res:   resourcev1.NewResourceServiceClient(conn),
		ca:    cav1.NewCertificateAuthorityClient(conn),
		admin: adminv1connect.NewAdminServiceClient(http.DefaultClient, *adminURL),
	}
	if *interactive {
		runShell(os.Stdin, os.Stdout, cl)
		return
	}
	ctx := context.Background() // OK: ctxbackground — main is not a request scope
	if *timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *timeout)
		defer cancel()
	}
	if err := run(ctx, cl, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "meshctl:", err)
		os.Exit(1)
	}
}
