package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	accountsv1 "example.test/monolith/gen/accounts/v1"
)

func cmdAccount(cl *clients, args []string) error {
	if err := need(args, 1, "<id>"); err != nil {
		return err
	}
	ctx := context.Background()
	p, err := cl.accounts.GetProfile(ctx, &accountsv1.GetProfileRequest{AccountId: args[0]}) // BUG: missingdeadline
	if err != nil {
		return err
	}
	fmt.Printf("%s\t%s\t%s\t%s\t%s\n", p.GetAccountId(), p.GetEmail(), p.GetDisplayName(), p.GetLocale(), p.GetTier())
	return nil
}

func cmdCharge(cl *clients, args []string) error {
	if err := need(args, 4, "<id> <amount> <ccy> <key>"); err != nil {
		return err
	}
	amount, err := strconv.ParseInt(args[1], 10, 64)
	if err != nil {
		return fmt.Errorf("amount: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), cl.timeout) // OK
	defer cancel()
	res, err := cl.accounts.ChargeAccount(ctx, &accountsv1.ChargeAccountRequest{ // OK
		AccountId: args[0], AmountMinor: amount, Currency: args[2], IdempotencyKey: args[3],
	})
	if err != nil {
		return err
	}
	fmt.Printf("charge %s, balance %d\n", res.GetChargeId(), res.GetBalanceMinor())
	return nil
}

func cmdExport(cl *clients, args []string) error {
	if err := need(args, 2, "<id> <year>"); err != nil {
		return err
	}
	year, err := strconv.Atoi(args[1])
	if err != nil {
		return fmt.Errorf("year: %w", err)
	}
	stream, err := cl.accounts.ExportStatements(context.Background(), &accountsv1.ExportStatementsRequest{AccountId: args[0], Year: int32(year)}) // OK
	if err != nil {
		return err
	}
	for {
		chunk, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if _, err := os.Stdout.Write(chunk.GetData()); err != nil {
			return err
		}
	}
}
