package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	clusterv1 "example.test/operator/gen/cluster/v1"
)

func apply(ctx context.Context, c clusterv1.ClusterServiceClient, args []string, timeout time.Duration) error {
	if len(args) != 1 {
		return fmt.Errorf("apply: file required")
	}
	b, err := os.ReadFile(args[0])
	if err != nil {
		return err
	}
	var spec struct {
		Name         string            `json:"name"`
		Image        string            `json:"image"`
		Replicas     int32             `json:"replicas"`
		NodeSelector map[string]string `json:"nodeSelector"`
		Args         []string          `json:"args"`
		Prepull      bool              `json:"prepull"`
	}
	if err := json.Unmarshal(b, &spec); err != nil {
		return fmt.Errorf("apply: %s: %w", args[0], err)
	}
	ctx, cancel := context.WithTimeout(ctx, timeout) // OK
	defer cancel()
	w, err := c.ApplyWorkload(ctx, &clusterv1.ApplyWorkloadRequest{ // OK: deadline set
		Workload: &clusterv1.Workload{Name: spec.Name, Image: spec.Image, Replicas: spec.Replicas, NodeSelector: spec.NodeSelector, Args: spec.Args},
		Prepull:  spec.Prepull,
	})
	if err != nil {
		return err
	}
	fmt.Printf("%s applied (generation %d)\n", w.GetName(), w.GetGeneration())
	return nil
}

func getWorkload(ctx context.Context, c clusterv1.ClusterServiceClient, args []string, timeout time.Duration) error {
	if len(args) != 1 {
		return fmt.Errorf("get: name required")
	}
	ctx, cancel := context.WithTimeout(ctx, timeout) // OK
	defer cancel()
	w, err := c.GetWorkload(ctx, &clusterv1.GetWorkloadRequest{Name: args[0]}) // OK: deadline set
	if err != nil {
		return err
	}
	fmt.Printf("name:       %s\nimage:      %s\nreplicas:   %d/%d ready\ngeneration: %d\n",
		w.GetName(), w.GetImage(), w.GetReadyReplicas(), w.GetReplicas(), w.GetGeneration())
	return nil
}

func deleteWorkload(ctx context.Context, c clusterv1.ClusterServiceClient, args []string, timeout time.Duration) error {
	if len(args) == 0 {
		return fmt.Errorf("delete: name required")
	}
	purge := len(args) > 1 && args[1] == "--purge"
	if purge {
		timeout += 2 * time.Minute // replicas are stopped synchronously
	}
	ctx, cancel := context.WithTimeout(ctx, timeout) // OK
	defer cancel()
	resp, err := c.DeleteWorkload(ctx, &clusterv1.DeleteWorkloadRequest{Name: args[0], Purge: purge}) // OK: deadline set
	if err != nil {
		return err
	}
	fmt.Printf("%s deleted (generation %d)\n", resp.GetName(), resp.GetGeneration())
	return nil
}

// scale changes the replica count; -timeout=0 waits as long as it takes.
func scale(c clusterv1.ClusterServiceClient, args []string, timeout time.Duration) error {
	if len(args) != 2 {
		return fmt.Errorf("scale: usage: scale NAME REPLICAS")
	}
	n, err := strconv.Atoi(args[1])
	if err != nil {
		return fmt.Errorf("scale: replicas: %w", err)
	}
	ctx := context.Background()
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	w, err := c.ScaleWorkload(ctx, &clusterv1.ScaleWorkloadRequest{Name: args[0], Replicas: int32(n)}) // OK: the deadline is the user's -timeout flag, applied when set (precision issue)
	if err != nil {
		return err
	}
	fmt.Printf("%s scaled to %d (generation %d)\n", w.GetName(), w.GetReplicas(), w.GetGeneration())
	return nil
}

func restart(ctx context.Context, c clusterv1.ClusterServiceClient, args []string, timeout time.Duration) error {
	if len(args) == 0 {
		return fmt.Errorf("restart: name required")
	}
	wait := len(args) > 1 && args[1] == "--wait"
	ctx = metadata.NewOutgoingContext(ctx, metadata.Pairs("x-clusterctl-user", os.Getenv("USER")))
	budget := timeout
	if wait {
		budget = 30 * time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, budget) // OK
	defer cancel()
	op, err := c.RestartWorkload(ctx, &clusterv1.RestartWorkloadRequest{Name: args[0], Wait: wait}) // OK: deadline set
	if err != nil {
		return err
	}
	fmt.Printf("restart: %s (%s)\n", op.GetId(), op.GetState())
	return nil
}

// waitOperation polls an operation until it finishes or ctx is done.
func waitOperation(ctx context.Context, c clusterv1.ClusterServiceClient, id string, timeout time.Duration) error {
	for {
		pctx, cancel := context.WithTimeout(ctx, timeout)                       // OK
		op, err := c.GetOperation(pctx, &clusterv1.GetOperationRequest{Id: id}) // OK: deadline set
		cancel()
		if status.Code(err) == codes.Unavailable {
			time.Sleep(time.Second) // OK: CLI, not a request scope
			continue
		}
		if err != nil {
			return err
		}
		switch op.GetState() {
		case clusterv1.OperationState_OPERATION_STATE_SUCCEEDED:
			fmt.Printf("%s %s: succeeded\n", op.GetKind(), op.GetTarget())
			return nil
		case clusterv1.OperationState_OPERATION_STATE_FAILED, clusterv1.OperationState_OPERATION_STATE_CANCELLED:
			return errors.New(op.GetKind() + " " + op.GetTarget() + ": " + op.GetState().String() + ": " + op.GetError())
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(2 * time.Second):
		}
	}
}
