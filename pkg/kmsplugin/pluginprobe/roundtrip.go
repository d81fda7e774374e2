package pluginprobe

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"

	"k8s.io/apimachinery/pkg/util/uuid"
	aestransformer "k8s.io/apiserver/pkg/storage/value/encrypt/aes"
	kmsservice "k8s.io/kms/pkg/service"
)

// payloadSize is the size of the random payload sealed by each probe: the
// size of the DEK seed kube-apiserver sends to Encrypt, so the KMS sees
// exactly the request a real write makes, and no more.
const payloadSize = aestransformer.MinSeedSizeExtendedNonceGCM

// errNoEncryptResponse is wrapped when Encrypt succeeded without a response;
// see ErrNoStatus.
var errNoEncryptResponse = errors.New("kms plugin returned nil encrypt response")

// roundTrip seals a fresh random payload and opens it again, each call within
// the call timeout. It returns a *RoundTripError naming the failed step.
//
// The payload is random so that a plugin cannot answer from a cache, and it
// protects nothing, so it may travel and be compared freely.
func (p *Prober) roundTrip(ctx context.Context, service kmsservice.Service) error {
	payload := make([]byte, payloadSize)
	// crypto/rand.Read never returns an error; it crashes the process
	// instead when the system has no randomness to give.
	_, _ = rand.Read(payload)
	// uid correlates the Encrypt and Decrypt calls in the plugin's logs, the
	// way kube-apiserver passes one per request.
	uid := string(uuid.NewUUID())

	encrypted, err := p.encrypt(ctx, service, uid, payload)
	if err != nil {
		return &RoundTripError{Step: StepEncrypt, Err: err}
	}
	plaintext, err := p.decrypt(ctx, service, uid, &kmsservice.DecryptRequest{
		Ciphertext:  encrypted.Ciphertext,
		KeyID:       encrypted.KeyID,
		Annotations: encrypted.Annotations,
	})
	if err != nil {
		return &RoundTripError{Step: StepDecrypt, Err: err}
	}
	if !bytes.Equal(plaintext, payload) {
		return &RoundTripError{Step: StepDecrypt, Err: ErrPlaintextMismatch}
	}
	return nil
}

// encrypt calls Encrypt within the call timeout and checks that the answer is
// one kube-apiserver would store.
func (p *Prober) encrypt(ctx context.Context, service kmsservice.Service, uid string, payload []byte) (*kmsservice.EncryptResponse, error) {
	ctx, cancel := context.WithTimeout(ctx, p.callTimeout)
	defer cancel()
	resp, err := service.Encrypt(ctx, uid, payload)
	if err != nil {
		return nil, err
	}
	if resp == nil {
		return nil, errNoEncryptResponse
	}
	if err := validateKEKID(resp.KeyID); err != nil {
		return nil, err
	}
	return resp, nil
}

// decrypt calls Decrypt within the call timeout.
func (p *Prober) decrypt(ctx context.Context, service kmsservice.Service, uid string, req *kmsservice.DecryptRequest) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, p.callTimeout)
	defer cancel()
	return service.Decrypt(ctx, uid, req)
}
