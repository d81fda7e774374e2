package pluginprobe

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kmsservice "k8s.io/kms/pkg/service"
	clocktesting "k8s.io/utils/clock/testing"

	operatorv1 "github.com/openshift/api/operator/v1"
	applyoperatorv1 "github.com/openshift/client-go/operator/applyconfigurations/operator/v1"
)

const (
	testNodeName = "master-0"
	testKeyID    = "7"
	// testKEKID is the key id the stub KMS seals under.
	testKEKID = "kek-1"
	// testCallTimeout only matters to the stubs that hang; every other stub
	// answers at once.
	testCallTimeout = 50 * time.Millisecond
	// sealedPrefix marks the stub's ciphertext.
	sealedPrefix = "sealed:"
	// annotationKey is an annotation the stub's Encrypt returns and its
	// Decrypt requires back, as real plugins do with their own metadata.
	annotationKey = "version.encryption.kmsguard.io"
)

var testNow = time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)

// stubService is a kmsservice.Service whose answers a test chooses. Encrypt
// and Decrypt default to a KMS that works, sealing under testKEKID.
type stubService struct {
	status    *kmsservice.StatusResponse
	statusErr error
	// statusHangs makes Status wait for its context to end.
	statusHangs bool
	encrypt     func(ctx context.Context, uid string, data []byte) (*kmsservice.EncryptResponse, error)
	decrypt     func(ctx context.Context, uid string, req *kmsservice.DecryptRequest) ([]byte, error)

	statusCalls, encryptCalls, decryptCalls atomic.Int64
	// encryptUID is the uid of the last Encrypt, which Decrypt must repeat.
	encryptUID atomic.Value
}

var _ kmsservice.Service = (*stubService)(nil)

func (s *stubService) Status(ctx context.Context) (*kmsservice.StatusResponse, error) {
	s.statusCalls.Add(1)
	if s.statusHangs {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	return s.status, s.statusErr
}

func (s *stubService) Encrypt(ctx context.Context, uid string, data []byte) (*kmsservice.EncryptResponse, error) {
	s.encryptCalls.Add(1)
	s.encryptUID.Store(uid)
	if s.encrypt != nil {
		return s.encrypt(ctx, uid, data)
	}
	if len(data) != payloadSize {
		return nil, fmt.Errorf("stub: payload is %d bytes, want %d", len(data), payloadSize)
	}
	return &kmsservice.EncryptResponse{
		Ciphertext:  append([]byte(sealedPrefix), data...),
		KeyID:       testKEKID,
		Annotations: map[string][]byte{annotationKey: []byte("1")},
	}, nil
}

func (s *stubService) Decrypt(ctx context.Context, uid string, req *kmsservice.DecryptRequest) ([]byte, error) {
	s.decryptCalls.Add(1)
	if s.decrypt != nil {
		return s.decrypt(ctx, uid, req)
	}
	switch {
	case uid != s.encryptUID.Load():
		return nil, errors.New("stub: decrypt uid differs from encrypt uid")
	case req.KeyID != testKEKID:
		return nil, fmt.Errorf("stub: decrypt key id %q, want %q", req.KeyID, testKEKID)
	case string(req.Annotations[annotationKey]) != "1":
		return nil, errors.New("stub: decrypt request lost the encrypt annotations")
	case !bytes.HasPrefix(req.Ciphertext, []byte(sealedPrefix)):
		return nil, errors.New("stub: ciphertext was not sealed by this stub")
	}
	return bytes.TrimPrefix(req.Ciphertext, []byte(sealedPrefix)), nil
}

// calls returns the number of Status, Encrypt and Decrypt calls s received.
func (s *stubService) calls() [3]int64 {
	return [3]int64{s.statusCalls.Load(), s.encryptCalls.Load(), s.decryptCalls.Load()}
}

// okStatus is the Status of a healthy plugin whose current key is kekID.
func okStatus(kekID string) *kmsservice.StatusResponse {
	return &kmsservice.StatusResponse{Version: "v2", Healthz: healthzOK, KeyID: kekID}
}

// newTestProber returns a Prober for testNodeName with a fake clock at
// testNow.
func newTestProber(plugins ...Plugin) *Prober {
	return NewProber(testNodeName, plugins, testCallTimeout, clocktesting.NewFakePassiveClock(testNow))
}

// wantReport is the report the prober builds for testKeyID; empty kekID and
// detail are left out, as the prober leaves them out.
func wantReport(status operatorv1.KMSPluginHealthStatus, kekID, detail string) *applyoperatorv1.KMSPluginHealthReportApplyConfiguration {
	r := applyoperatorv1.KMSPluginHealthReport().
		WithNodeName(testNodeName).
		WithKeyID(testKeyID).
		WithLastCheckedTime(metav1.NewTime(testNow)).
		WithStatus(status)
	if kekID != "" {
		r.WithRemoteKeyID(kekID)
	}
	if detail != "" {
		r.WithDetail(detail)
	}
	return r
}
