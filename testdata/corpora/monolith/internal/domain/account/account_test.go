package account_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"example.test/monolith/internal/domain/account"
	"example.test/monolith/internal/repository"
	"example.test/monolith/internal/repository/mocks"
)

func TestUpdateValidatesLocale(t *testing.T) {
	store := mocks.NewAccountStore()
	store.Accounts["a1"] = &repository.Account{ID: "a1", Locale: "en-GB", UpdatedAt: time.Now()}
	svc := account.NewServiceWithStore(store)

	_, err := svc.Update(context.Background(), "a1", "Ada", "xx-XX") // OK
	if !errors.Is(err, account.ErrInvalid) {
		t.Fatalf("Update with bad locale: got %v, want ErrInvalid", err)
	}
	a, err := svc.Update(context.Background(), "a1", "Ada", "nl-NL") // OK
	if err != nil {
		t.Fatal(err)
	}
	if a.Locale != "nl-NL" || a.DisplayName != "Ada" {
		t.Fatalf("got %+v", a)
	}
}

func TestClosedAccountIsHidden(t *testing.T) {
	store := mocks.NewAccountStore()
	store.Accounts["a2"] = &repository.Account{ID: "a2"}
	svc := account.NewServiceWithStore(store)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := svc.Close(ctx, "a2", "test"); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Get(ctx, "a2"); !errors.Is(err, account.ErrClosed) {
		t.Fatalf("Get after Close: got %v, want ErrClosed", err)
	}
}

func TestChargeExistsIgnoresEmptyKey(t *testing.T) {
	ledger := account.NewLedgerWithStore(mocks.NewLedgerStore())
	ok, err := ledger.ChargeExists("")
	if err != nil || ok {
		t.Fatalf("ChargeExists(\"\") = %v, %v", ok, err)
	}
}
