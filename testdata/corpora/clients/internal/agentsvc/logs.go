package agentsvc

import (
	"bufio"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	agentv1 "example.test/clients/gen/agent/v1"
	inventoryv1 "example.test/clients/gen/inventory/v1"
)

var skuPattern = regexp.MustCompile(`\bsku=([A-Z0-9-]+)`)

func (s *Server) TailLogs(req *agentv1.TailLogsRequest, stream grpc.ServerStreamingServer[agentv1.LogLine]) error {
	ctx := stream.Context()
	name := filepath.Base(req.GetUnit())
	if name == "" || name == "." {
		return status.Error(codes.InvalidArgument, "unit is required")
	}
	f, err := os.Open(filepath.Join(s.cfg.LogDir, name+".log"))
	if err != nil {
		return status.Errorf(codes.NotFound, "unit %s: %v", name, err)
	}
	defer f.Close()

	names := map[string]string{}
	r := bufio.NewReader(f)
	for {
		text, err := r.ReadString('\n')
		if errors.Is(err, io.EOF) && text == "" {
			if !req.GetFollow() {
				return nil
			}
			select {
			case <-ctx.Done():
				return status.FromContextError(ctx.Err()).Err()
			case <-time.After(500 * time.Millisecond): // OK
			}
			continue
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return status.Errorf(codes.Internal, "read %s: %v", name, err)
		}

		line := &agentv1.LogLine{Text: text}
		if m := skuPattern.FindStringSubmatch(text); m != nil {
			itemName, seen := names[m[1]]
			if !seen {
				item, err := s.inv.GetItem(s.baseCtx, &inventoryv1.GetItemRequest{Sku: m[1]}) // BUG: ctxflow
				if err == nil {
					itemName = item.GetName()
				}
				names[m[1]] = itemName
			}
			line.Sku, line.ItemName = m[1], itemName
		}
		if err := stream.Send(line); err != nil {
			return err
		}
	}
}
