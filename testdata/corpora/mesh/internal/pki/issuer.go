// Package pki issues workload certificates for the mesh CA. The CA's signing key is kept in
// the KMS; the issuer sends it the digest of each certificate body.
package pki

import (
	"context"
	"crypto/sha256"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"sync"
	"sync/atomic"
	"time"

	"example.test/mesh/internal/kms"
	"example.test/mesh/internal/store"
)

// ErrDenied is returned when the identity may not get a certificate.
var ErrDenied = errors.New("identity not allowed by mesh policy")

// Issuer signs workload certificates.
type Issuer struct {
	kms       *kms.Client
	store     *store.Store
	keyID     atomic.Pointer[string]
	rootKeyID string
	serial    atomic.Int64

	once      sync.Once
	bundle    []byte
	bundleErr error
}

// NewIssuer returns an issuer signing with the KMS key keyID.
func NewIssuer(k *kms.Client, st *store.Store, keyID, rootKeyID string) *Issuer {
	i := &Issuer{kms: k, store: st, rootKeyID: rootKeyID}
	i.keyID.Store(&keyID)
	i.serial.Store(time.Now().UnixNano())
	return i
}

type tbsCertificate struct {
	Serial    string    `json:"serial"`
	Subject   string    `json:"subject"`
	PublicKey []byte    `json:"public_key"`
	NotBefore time.Time `json:"not_before"`
	NotAfter  time.Time `json:"not_after"`
	Issuer    string    `json:"issuer"`
}

// Issue checks the identity against the mesh's policy and signs a certificate for the CSR.
func (i *Issuer) Issue(ctx context.Context, identity string, csrDER []byte, ttl time.Duration) ([][]byte, time.Time, error) {
	csr, err := x509.ParseCertificateRequest(csrDER)
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("parse csr: %w", err)
	}
	if _, err := i.store.Get(ctx, store.Key{Mesh: meshOf(identity), Type: "WorkloadIdentity", Name: identity}); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return nil, time.Time{}, ErrDenied
		}
		return nil, time.Time{}, err
	}
	now := time.Now()
	tbs := tbsCertificate{
		Serial:    big.NewInt(i.serial.Add(1)).Text(16),
		Subject:   identity,
		PublicKey: csr.RawSubjectPublicKeyInfo,
		NotBefore: now.Add(-time.Minute),
		NotAfter:  now.Add(ttl),
		Issuer:    *i.keyID.Load(),
	}
	body, err := json.Marshal(tbs)
	if err != nil {
		return nil, time.Time{}, err
	}
	sig, err := i.sign(body)
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("sign: %w", err)
	}
	leaf := append(append([]byte{}, body...), sig...)
	bundle, err := i.TrustBundle(ctx)
	if err != nil {
		return nil, time.Time{}, err
	}
	return [][]byte{leaf, bundle}, tbs.NotAfter, nil
}

func (i *Issuer) sign(body []byte) ([]byte, error) {
	d := sha256.Sum256(body)
	return i.kms.Sign(context.Background(), *i.keyID.Load(), d[:])
}

// TrustBundle returns the mesh's root certificate. It is read from the KMS once and kept.
func (i *Issuer) TrustBundle(_ context.Context) ([]byte, error) {
	i.once.Do(func() {
		i.bundle, i.bundleErr = i.kms.PublicKey(context.Background(), i.rootKeyID)
	})
	return i.bundle, i.bundleErr
}

// Revoke records a revocation. A revocation that is already recorded is store.ErrConflict.
func (i *Issuer) Revoke(ctx context.Context, serial, reason string) error {
	_, err := i.store.Create(ctx, store.Resource{
		Key:  store.Key{Mesh: "system", Type: "Revocation", Name: serial},
		Spec: []byte(reason),
	})
	if err != nil {
		// the revocation index is append-only; undo the reservation even if the caller
		// was cancelled, or the serial stays locked until the sweeper runs.
		_ = i.store.Delete(context.WithoutCancel(ctx), store.Key{Mesh: "system", Type: "RevocationLock", Name: serial}, 0) // OK: detach — a library function's ctx released on a failure path, not a request's
		if errors.Is(err, store.ErrConflict) {
			return store.ErrConflict
		}
		return err
	}
	return nil
}

// RotateIntermediate rolls the signing key to a new KMS key version.
func (i *Issuer) RotateIntermediate(ctx context.Context) error {
	id, err := i.kms.Rotate(ctx, *i.keyID.Load())
	if err != nil {
		return err
	}
	i.keyID.Store(&id)
	return nil
}

func meshOf(identity string) string {
	for j := len("spiffe://"); j < len(identity); j++ {
		if identity[j] == '/' {
			return identity[len("spiffe://"):j]
		}
	}
	return "default"
}
