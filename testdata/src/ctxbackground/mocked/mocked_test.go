package mocked

import (
	"testing"

	"example.com/repodb/mocks"
	"go.uber.org/mock/gomock"
)

// The test variant of the package sees the generated mocks of repodb.Store.
func TestGetItem(t *testing.T) {
	_ = NewServer(&mocks.Store{}, memory{})
	_ = NewServer(mocks.NewMockStore(&gomock.Controller{}), waiting{})
}
