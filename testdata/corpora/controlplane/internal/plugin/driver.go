// Package plugin is the task-driver plugin system: drivers run out of process
// as gRPC servers (DriverServer), and the control plane talks to them through
// the Driver interface, implemented over gRPC by GRPCDriver.
package plugin

import (
	"context"
	"os/exec"
	"strings"
	"sync"
)

// TaskStatus is what a driver knows about a task.
type TaskStatus struct {
	State    string
	ExitCode int
}

// TaskSpec describes a task to start.
type TaskSpec struct {
	ID    string
	Image string
	Args  []string
}

// Driver runs tasks. Inspect and Fingerprint are cheap, local calls on the
// driver's side and take no context (the interface predates contexts here).
type Driver interface {
	Name() string
	Fingerprint() (map[string]string, error)
	StartTask(ctx context.Context, spec TaskSpec) (handle string, err error)
	StopTask(ctx context.Context, taskID, signal string) error
	InspectTask(taskID string) (*TaskStatus, error)
}

// ExecDriver runs tasks as local processes; it is what the plugin binary serves.
type ExecDriver struct {
	mu    sync.Mutex
	procs map[string]*exec.Cmd
}

func NewExecDriver() *ExecDriver { return &ExecDriver{procs: map[string]*exec.Cmd{}} }

func (d *ExecDriver) Name() string { return "exec" }

func (d *ExecDriver) Fingerprint() (map[string]string, error) {
	out, err := exec.Command("uname", "-sr").Output()
	if err != nil {
		return nil, err
	}
	return map[string]string{"kernel": strings.TrimSpace(string(out))}, nil
}

func (d *ExecDriver) StartTask(ctx context.Context, spec TaskSpec) (string, error) {
	// The task outlives the StartTask call: it is not started with ctx.
	cmd := exec.Command(spec.Image, spec.Args...) // OK: ctxless look-alike — exec.Command in a Driver method, not a request scope, and the task must outlive the StartTask call.
	if err := cmd.Start(); err != nil {
		return "", err
	}
	d.mu.Lock()
	d.procs[spec.ID] = cmd
	d.mu.Unlock()
	return spec.ID, nil
}

func (d *ExecDriver) StopTask(ctx context.Context, taskID, signal string) error {
	d.mu.Lock()
	cmd, ok := d.procs[taskID]
	d.mu.Unlock()
	if !ok || cmd.Process == nil {
		return nil
	}
	return cmd.Process.Kill()
}

func (d *ExecDriver) InspectTask(taskID string) (*TaskStatus, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	cmd, ok := d.procs[taskID]
	if !ok {
		return &TaskStatus{State: "dead"}, nil
	}
	if cmd.ProcessState == nil {
		return &TaskStatus{State: "running"}, nil
	}
	return &TaskStatus{State: "exited", ExitCode: cmd.ProcessState.ExitCode()}, nil
}
