//go:build !windows

package vault

import (
	"context"
	"os/exec"
	"strconv"
	"strings"

	vaultv1 "example.test/torture/gen/vault/v1"
)

// Describe reports the server's version and storage state.
func (s *Server) Describe(_ context.Context, _ *vaultv1.DescribeRequest) (*vaultv1.DescribeResponse, error) {
	resp := &vaultv1.DescribeResponse{Version: buildVersion, Secrets: s.liveSecrets.Load()}
	out, err := exec.Command("df", "-Pk", s.dataDir).Output() // BUG: ctxless
	if err != nil {
		resp.DiskFree = -1
		return resp, nil
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if fields := strings.Fields(lines[len(lines)-1]); len(fields) >= 4 {
		if kb, err := strconv.ParseInt(fields[3], 10, 64); err == nil {
			resp.DiskFree = kb * 1024
		}
	}
	return resp, nil
}
