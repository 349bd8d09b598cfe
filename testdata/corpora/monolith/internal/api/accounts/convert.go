package accounts

import (
	"errors"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	accountsv1 "example.test/monolith/gen/accounts/v1"
	"example.test/monolith/internal/domain/account"
	"example.test/monolith/internal/repository"
)

func profileToProto(a *repository.Account) *accountsv1.Profile {
	return &accountsv1.Profile{
		AccountId:   a.ID,
		Email:       a.Email,
		DisplayName: a.DisplayName,
		Locale:      a.Locale,
		Tier:        a.Tier,
		UpdatedUnix: a.UpdatedAt.Unix(),
	}
}

func toStatus(err error) error {
	switch {
	case errors.Is(err, repository.ErrNotFound):
		return status.Error(codes.NotFound, err.Error())
	case errors.Is(err, repository.ErrConflict):
		return status.Error(codes.Aborted, err.Error())
	case errors.Is(err, account.ErrClosed):
		return status.Error(codes.FailedPrecondition, err.Error())
	case errors.Is(err, account.ErrInvalid):
		return status.Error(codes.InvalidArgument, err.Error())
	default:
		return status.FromContextError(err).Err()
	}
}

func internalCaller(md metadata.MD) bool {
	for _, c := range md.Get("x-caller") {
		if strings.HasPrefix(c, "monolith-") {
			return true
		}
	}
	return false
}
