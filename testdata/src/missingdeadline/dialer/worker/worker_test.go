package worker

import (
	"testing"

	"missingdeadline/dialer/clientset"
	"missingdeadline/dialer/clientset/mocks"
)

// The test variant of the package sees the generated mock of clientset.Clientset.
func TestSync(t *testing.T) {
	_ = New(&mocks.Clientset{}, clientset.NewPlain("catalog:443"))
}
