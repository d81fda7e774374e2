package fake

import (
	"context"

	"k8s.io/kms/pkg/service"
)

const (
	// statusVersion is the only Version a KMS v2 plugin may report; the
	// apiserver treats anything else as unhealthy.
	statusVersion = "v2"
	// healthzOK is the Healthz value the apiserver requires of a healthy
	// plugin.
	healthzOK = "ok"
	// healthzUnreachable is what an unhealthy plugin reports. Any value but
	// healthzOK is unhealthy to the apiserver; this one reads like what a
	// real plugin says when it has lost its cloud KMS.
	healthzUnreachable = "kms unreachable"
)

// pluginService is one plugin's service.Service: it serves requests from the
// shared KMS and overlays the plugin's own health fault on Status.
//
// It is a separate type, rather than methods on Plugin, so that Plugin's
// exported API is the test-facing controls only and cannot be confused with
// the RPCs it serves.
type pluginService struct {
	kms    *KMS
	faults *faults
}

var _ service.Service = (*pluginService)(nil)

// Status reports the KMS's current key and the plugin's health. It does not
// probe the current key: like real plugins, it keeps saying "ok" when the key
// is disabled or destroyed (see KMS.Disable).
func (s *pluginService) Status(context.Context) (*service.StatusResponse, error) {
	healthz := healthzOK
	if s.faults.unhealthy.Load() {
		healthz = healthzUnreachable
	}
	return &service.StatusResponse{
		Version: statusVersion,
		Healthz: healthz,
		KeyID:   s.kms.CurrentKEKID(),
	}, nil
}

// Encrypt seals data under the KMS's current key. The uid only correlates
// apiserver and plugin logs, and this plugin does not log.
func (s *pluginService) Encrypt(_ context.Context, _ string, data []byte) (*service.EncryptResponse, error) {
	ciphertext, kekID, err := s.kms.encrypt(data)
	if err != nil {
		return nil, err
	}
	return &service.EncryptResponse{Ciphertext: ciphertext, KeyID: kekID}, nil
}

// Decrypt opens a ciphertext under the key the request names. Annotations
// are ignored because Encrypt never returns any.
func (s *pluginService) Decrypt(_ context.Context, _ string, req *service.DecryptRequest) ([]byte, error) {
	return s.kms.decrypt(req.KeyID, req.Ciphertext)
}
