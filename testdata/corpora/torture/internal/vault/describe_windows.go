//go:build windows

package vault

import (
	"context"

	vaultv1 "example.test/torture/gen/vault/v1"
)

// Describe reports the server's version and storage state. Disk usage is not
// reported on Windows.
func (s *Server) Describe(_ context.Context, _ *vaultv1.DescribeRequest) (*vaultv1.DescribeResponse, error) {
	return &vaultv1.DescribeResponse{Version: buildVersion, Secrets: s.liveSecrets.Load(), DiskFree: -1}, nil
}
