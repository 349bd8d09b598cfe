package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/encoding/protojson"

	loyaltyv1 "example.test/legacy/gen/loyalty/v1"
	rewardsv1 "example.test/legacy/gen/rewards/v1"
	"example.test/legacy/internal/helpers"
)

func need(args []string, n int, what string) error {
	if len(args) < n {
		return fmt.Errorf("usage: %s", what)
	}
	return nil
}

func printJSON(v any) {
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
}

func cmdMember(lc loyaltyv1.LoyaltyServiceClient, args []string) error {
	if err := need(args, 1, "member <member-id>"); err != nil {
		return err
	}
	ctx := metadata.NewOutgoingContext(context.Background(), metadata.Pairs("x-internal", "admin", "x-operator", operator))
	m, err := lc.GetMember(ctx, &loyaltyv1.GetMemberRequest{MemberId: args[0]}) // BUG: missingdeadline
	if err != nil {
		return err
	}
	printJSON(m)
	return nil
}

func cmdBalance(ctx context.Context, lc loyaltyv1.LoyaltyServiceClient, args []string) error {
	if err := need(args, 1, "balance <member-id>"); err != nil {
		return err
	}
	ctx = metadata.AppendToOutgoingContext(ctx, "x-internal", "admin")
	b, err := lc.GetBalance(ctx, &loyaltyv1.GetBalanceRequest{MemberId: args[0]})
	if err != nil {
		return err
	}
	fmt.Printf("%s: %d points (%d pending, %d expiring soon), tier %s\n",
		b.GetMemberId(), b.GetPoints(), b.GetPending(), b.GetExpiringSoon(), b.GetTier())
	return nil
}

func cmdAdjust(ctx context.Context, lc loyaltyv1.LoyaltyServiceClient, args []string) error {
	if err := need(args, 3, "adjust <member-id> <+/-points> <reason...>"); err != nil {
		return err
	}
	pts, err := strconv.ParseInt(args[1], 10, 64)
	if err != nil {
		return fmt.Errorf("points: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	ctx = metadata.AppendToOutgoingContext(ctx, "x-internal", "admin")
	t, err := lc.AdjustPoints(ctx, &loyaltyv1.AdjustPointsRequest{ // OK
		MemberId: args[0],
		Points:   pts,
		Reason:   strings.Join(args[2:], " "),
		Operator: operator,
	})
	if err != nil {
		return err
	}
	printJSON(t)
	return nil
}

func cmdGrant(ctx context.Context, rc rewardsv1.RewardsServiceClient, args []string) error {
	if err := need(args, 2, "grant <member-id> <reward-id> [reason]"); err != nil {
		return err
	}
	reason := "support"
	if len(args) > 2 {
		reason = "support: " + strings.Join(args[2:], " ")
	}
	ctx = metadata.AppendToOutgoingContext(ctx, "x-internal", "admin")
	g, err := helpers.GrantWithRetry(ctx, rc, &rewardsv1.GrantRewardRequest{
		MemberId:       args[0],
		RewardId:       args[1],
		Reason:         reason,
		IdempotencyKey: "admin:" + operator + ":" + args[0] + ":" + args[1] + ":" + time.Now().Format("20060102"),
	})
	if err != nil {
		return err
	}
	printJSON(g)
	return nil
}

func cmdRevoke(rc rewardsv1.RewardsServiceClient, args []string) error {
	if err := need(args, 1, "revoke <grant-id> [reason]"); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	reason := "revoked by " + operator
	if len(args) > 1 {
		reason += ": " + strings.Join(args[1:], " ")
	}
	resp, err := rc.RevokeGrant(ctx, &rewardsv1.RevokeGrantRequest{GrantId: args[0], Reason: reason}) // BUG: missingdeadline
	if err != nil {
		return err
	}
	fmt.Println("revoked:", resp.GetRevoked())
	return nil
}

func cmdMerge(ctx context.Context, lc loyaltyv1.LoyaltyServiceClient, args []string) error {
	if err := need(args, 2, "merge <keep-member-id> <drop-member-id>"); err != nil {
		return err
	}
	// merges can hit lock timeouts on busy members; retry within one overall budget
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	var (
		m   *loyaltyv1.Member
		err error
	)
	for attempt := 1; attempt <= 3; attempt++ {
		m, err = lc.MergeMembers(ctx, &loyaltyv1.MergeMembersRequest{KeepMemberId: args[0], DropMemberId: args[1]}) // OK
		if err == nil || ctx.Err() != nil {
			break
		}
		fmt.Fprintf(os.Stderr, "merge attempt %d: %v\n", attempt, err)
		time.Sleep(time.Duration(attempt) * time.Second) // OK
	}
	if err != nil {
		return err
	}
	printJSON(m)
	return nil
}

func cmdExport(ctx context.Context, lc loyaltyv1.LoyaltyServiceClient, args []string) error {
	if err := need(args, 1, "export <member-id> [since]"); err != nil {
		return err
	}
	req := &loyaltyv1.StreamTransactionsRequest{MemberId: args[0]}
	if len(args) > 1 {
		req.Since = args[1]
	}
	stream, err := lc.StreamTransactions(ctx, req) // OK
	if err != nil {
		return err
	}
	for {
		t, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		b, _ := protojson.Marshal(t)
		fmt.Println(string(b))
	}
}

func cmdImport(ctx context.Context, lc loyaltyv1.LoyaltyServiceClient, args []string) error {
	if err := need(args, 2, "import <source> <file.csv>"); err != nil {
		return err
	}
	f, err := os.Open(args[1])
	if err != nil {
		return err
	}
	defer f.Close()
	stream, err := lc.ImportPoints(ctx) // OK
	if err != nil {
		return err
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		parts := strings.Split(sc.Text(), ",")
		if len(parts) != 3 {
			continue
		}
		pts, err := strconv.ParseInt(strings.TrimSpace(parts[1]), 10, 64)
		if err != nil {
			continue
		}
		if err := stream.Send(&loyaltyv1.ImportPointsRequest{MemberId: parts[0], Points: pts, Source: args[0], ExternalId: strings.TrimSpace(parts[2])}); err != nil {
			return err
		}
	}
	resp, err := stream.CloseAndRecv()
	if err != nil {
		return err
	}
	fmt.Printf("imported %d, skipped %d\n", resp.GetImported(), resp.GetSkipped())
	return sc.Err()
}

// cmdRaw calls any unary LoyaltyService method with a JSON request:
//
//	admin raw GetMember '{"member_id":"..."}'
func cmdRaw(conn *grpc.ClientConn, args []string) error {
	if err := need(args, 2, "raw <Method> <json>"); err != nil {
		return err
	}
	req, resp, err := rawMessages(args[0])
	if err != nil {
		return err
	}
	if err := protojson.Unmarshal([]byte(args[1]), req); err != nil {
		return fmt.Errorf("request: %w", err)
	}
	if err := conn.Invoke(context.Background(), "/loyalty.v1.LoyaltyService/"+args[0], req, resp); err != nil { // BUG: missingdeadline
		return err
	}
	b, _ := protojson.Marshal(resp)
	fmt.Println(string(b))
	return nil
}

func cmdHealth(url string) error {
	resp, err := http.Get(url) // OK
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1024))
	fmt.Printf("%s %s\n", resp.Status, strings.TrimSpace(string(b)))
	if resp.StatusCode != http.StatusOK {
		return errors.New("unhealthy")
	}
	return nil
}
