// Package runtime drives the node's container runtime through its CLI.
package runtime

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// Container is what the runtime reports about one task.
type Container struct {
	ID        string            `json:"id"`
	Image     string            `json:"image"`
	Labels    map[string]string `json:"labels"`
	Running   bool              `json:"running"`
	ExitCode  int               `json:"exit_code"`
	StartedAt time.Time         `json:"started_at"`
}

// Ctr runs the runtime CLI in one namespace.
type Ctr struct {
	Bin       string
	Namespace string
}

func (c *Ctr) command(ctx context.Context, args ...string) *exec.Cmd {
	return exec.CommandContext(ctx, c.Bin, append([]string{"-n", c.Namespace}, args...)...)
}

// Run runs a runtime subcommand and returns its output.
func (c *Ctr) Run(ctx context.Context, args ...string) ([]byte, error) {
	var stderr bytes.Buffer
	cmd := c.command(ctx, args...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return out, fmt.Errorf("%s %s: %w: %s", c.Bin, strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// List returns every task in the namespace.
func (c *Ctr) List(ctx context.Context) ([]Container, error) {
	out, err := c.Run(ctx, "tasks", "ls", "--format", "json")
	if err != nil {
		return nil, err
	}
	var cs []Container
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		var ct Container
		if err := json.Unmarshal(sc.Bytes(), &ct); err != nil {
			return nil, fmt.Errorf("parse task list: %w", err)
		}
		cs = append(cs, ct)
	}
	return cs, sc.Err()
}

// Pull pulls ref and returns its digest and size.
func (c *Ctr) Pull(ctx context.Context, ref string) (string, int64, error) {
	if _, err := c.Run(ctx, "images", "pull", ref); err != nil {
		return "", 0, err
	}
	out, err := c.Run(ctx, "images", "ls", "--format", "json", "name=="+ref)
	if err != nil {
		return "", 0, err
	}
	var img struct {
		Digest string `json:"digest"`
		Size   int64  `json:"size"`
	}
	if err := json.Unmarshal(bytes.TrimSpace(out), &img); err != nil {
		return "", 0, fmt.Errorf("parse image: %w", err)
	}
	return img.Digest, img.Size, nil
}

// Signal sends sig to the task id.
func (c *Ctr) Signal(ctx context.Context, id, sig string) error {
	_, err := c.Run(ctx, "tasks", "kill", "--signal", sig, id)
	return err
}

// Start starts the existing container id.
func (c *Ctr) Start(ctx context.Context, id string) error {
	_, err := c.Run(ctx, "tasks", "start", "--detach", id)
	return err
}

// Remove deletes the task and container id.
func (c *Ctr) Remove(ctx context.Context, id string) error {
	if _, err := c.Run(ctx, "tasks", "delete", "--force", id); err != nil {
		return err
	}
	_, err := c.Run(ctx, "containers", "delete", id)
	return err
}

// IsRunning reports whether task id is running.
func (c *Ctr) IsRunning(ctx context.Context, id string) (bool, error) {
	out, err := c.Run(ctx, "tasks", "ls", "--format", "json", "id=="+id)
	if err != nil {
		return false, err
	}
	return bytes.Contains(out, []byte(`"running":true`)), nil
}

// Inspect describes container id. It is quick and local, so it takes no ctx.
func (c *Ctr) Inspect(id string) (*Container, error) {
	out, err := exec.Command(c.Bin, "-n", c.Namespace, "containers", "info", id).Output() // OK: helper, not a handler
	if err != nil {
		return nil, fmt.Errorf("inspect %s: %w", id, err)
	}
	var ct Container
	if err := json.Unmarshal(out, &ct); err != nil {
		return nil, fmt.Errorf("parse container %s: %w", id, err)
	}
	ct.ID = id
	return &ct, nil
}

// Version returns the runtime version string.
func (c *Ctr) Version() string {
	out, err := exec.Command(c.Bin, "version").Output() // OK: helper, not a handler
	if err != nil {
		return "unknown"
	}
	return strings.TrimSpace(string(out))
}
