package main

import (
	"fmt"

	"google.golang.org/protobuf/proto"

	loyaltyv1 "example.test/legacy/gen/loyalty/v1"
)

func rawMessages(method string) (proto.Message, proto.Message, error) {
	switch method {
	case "GetMember":
		return &loyaltyv1.GetMemberRequest{}, &loyaltyv1.Member{}, nil
	case "GetBalance":
		return &loyaltyv1.GetBalanceRequest{}, &loyaltyv1.Balance{}, nil
	case "UpdateMember":
		return &loyaltyv1.UpdateMemberRequest{}, &loyaltyv1.Member{}, nil
	case "RecalculateTier":
		return &loyaltyv1.RecalculateTierRequest{}, &loyaltyv1.Member{}, nil
	case "ListTransactions":
		return &loyaltyv1.ListTransactionsRequest{}, &loyaltyv1.ListTransactionsResponse{}, nil
	case "ExpirePoints":
		return &loyaltyv1.ExpirePointsRequest{}, &loyaltyv1.ExpirePointsResponse{}, nil
	}
	return nil, nil, fmt.Errorf("method %s is not supported by raw", method)
}
