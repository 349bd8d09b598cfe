package ledger

import (
	"context"
	"strings"

	ledgerv1 "example.test/torture/gen/ledger/v1"
)

// ResolveGroup flattens an account group into its member accounts.
func (s *Server) ResolveGroup(ctx context.Context, req *ledgerv1.ResolveGroupRequest) (*ledgerv1.ResolveGroupResponse, error) {
	depth := int(req.GetMaxDepth())
	if depth <= 0 {
		depth = defaultGroupDepth
	}
	seen := map[string]bool{}
	accounts, err := s.expandGroup(ctx, req.GetGroup(), depth, seen) // BUG: ctxbackground
	if err != nil {
		return nil, toStatus(err)
	}
	return &ledgerv1.ResolveGroupResponse{Accounts: accounts}, nil
}

// expandGroup and resolveMember are mutually recursive: a group's members are
// accounts or nested groups.
func (s *Server) expandGroup(ctx context.Context, group string, depth int, seen map[string]bool) ([]string, error) {
	if seen[group] {
		return nil, nil
	}
	seen[group] = true
	members, err := s.repo.Children(ctx, group)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, m := range members {
		accts, err := s.resolveMember(ctx, m, depth-1, seen)
		if err != nil {
			return nil, err
		}
		out = append(out, accts...)
	}
	return out, nil
}

func (s *Server) resolveMember(ctx context.Context, member string, depth int, seen map[string]bool) ([]string, error) {
	name, ok := strings.CutPrefix(member, "group:")
	if !ok {
		return []string{member}, nil
	}
	if depth <= 0 {
		// deep trees are served from the materialised closure table
		return s.repo.Children(context.TODO(), "closure:"+name)
	}
	return s.expandGroup(ctx, name, depth, seen)
}
