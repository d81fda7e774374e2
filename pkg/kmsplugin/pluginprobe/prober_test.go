package pluginprobe

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"k8s.io/apimachinery/pkg/util/wait"
	kmsservice "k8s.io/kms/pkg/service"
	clocktesting "k8s.io/utils/clock/testing"

	operatorv1 "github.com/openshift/api/operator/v1"
	applyoperatorv1 "github.com/openshift/client-go/operator/applyconfigurations/operator/v1"
)

func TestProbe(t *testing.T) {
	var (
		healthy   = operatorv1.KMSPluginHealthStatusHealthy
		unhealthy = operatorv1.KMSPluginHealthStatusUnhealthy
		failed    = operatorv1.KMSPluginHealthStatusError

		// Call counts: Status, Encrypt, Decrypt.
		statusOnly  = [3]int64{1, 0, 0}
		upToEncrypt = [3]int64{1, 1, 0}
		allCalls    = [3]int64{1, 1, 1}

		longKEKID = strings.Repeat("k", 1024)
	)

	scenarios := []struct {
		name      string
		service   *stubService
		want      *applyoperatorv1.KMSPluginHealthReportApplyConfiguration
		wantCalls [3]int64
	}{
		{
			name:      "healthy",
			service:   &stubService{status: okStatus(testKEKID)},
			want:      wantReport(healthy, testKEKID, ""),
			wantCalls: allCalls,
		},
		{
			name:      "status key id of the maximum size is written",
			service:   &stubService{status: okStatus(longKEKID)},
			want:      wantReport(healthy, longKEKID, ""),
			wantCalls: allCalls,
		},
		{
			name:      "status call fails",
			service:   &stubService{statusErr: status.Error(codes.Unavailable, "connection refused")},
			want:      wantReport(failed, UnknownKEKID, "rpc error: code = Unavailable desc = connection refused"),
			wantCalls: statusOnly,
		},
		{
			name:      "status call times out",
			service:   &stubService{statusHangs: true},
			want:      wantReport(failed, UnknownKEKID, "context deadline exceeded"),
			wantCalls: statusOnly,
		},
		{
			name:      "status without response",
			service:   &stubService{},
			want:      wantReport(failed, UnknownKEKID, "kms plugin returned nil status response"),
			wantCalls: statusOnly,
		},
		{
			name:      "status error longer than detail allows is cut",
			service:   &stubService{statusErr: status.Error(codes.Unavailable, strings.Repeat("x", 5000))},
			want:      wantReport(failed, UnknownKEKID, ("rpc error: code = Unavailable desc = " + strings.Repeat("x", 5000))[:1021]+"..."),
			wantCalls: statusOnly,
		},
		{
			name:      "status answer longer than detail allows is cut",
			service:   &stubService{statusErr: status.Error(codes.Internal, strings.Repeat("x", 5000))},
			want:      wantReport(unhealthy, UnknownKEKID, ("status answered with an error: rpc error: code = Internal desc = " + strings.Repeat("x", 5000))[:1021]+"..."),
			wantCalls: statusOnly,
		},
		{
			name:      "status call times out in grpc",
			service:   &stubService{statusErr: status.Error(codes.DeadlineExceeded, "context deadline exceeded")},
			want:      wantReport(failed, UnknownKEKID, "rpc error: code = DeadlineExceeded desc = context deadline exceeded"),
			wantCalls: statusOnly,
		},
		{
			name:      "status call canceled",
			service:   &stubService{statusErr: status.Error(codes.Canceled, "context canceled")},
			want:      wantReport(failed, UnknownKEKID, "rpc error: code = Canceled desc = context canceled"),
			wantCalls: statusOnly,
		},
		{
			name:      "something other than a KMS v2 plugin on the socket",
			service:   &stubService{statusErr: status.Error(codes.Unimplemented, "unknown service v2.KeyManagementService")},
			want:      wantReport(failed, UnknownKEKID, "rpc error: code = Unimplemented desc = unknown service v2.KeyManagementService"),
			wantCalls: statusOnly,
		},
		{
			name:      "status response grpc cannot decode",
			service:   &stubService{statusErr: status.Error(codes.Internal, "grpc: failed to unmarshal the received message: string field contains invalid UTF-8")},
			want:      wantReport(failed, UnknownKEKID, "rpc error: code = Internal desc = grpc: failed to unmarshal the received message: string field contains invalid UTF-8"),
			wantCalls: statusOnly,
		},
		{
			name:      "status answered key disabled",
			service:   &stubService{statusErr: status.Error(codes.FailedPrecondition, "key disabled")},
			want:      wantReport(unhealthy, UnknownKEKID, "status answered with an error: rpc error: code = FailedPrecondition desc = key disabled"),
			wantCalls: statusOnly,
		},
		{
			name:      "status answered permission denied",
			service:   &stubService{statusErr: status.Error(codes.PermissionDenied, "caller may not use the key")},
			want:      wantReport(unhealthy, UnknownKEKID, "status answered with an error: rpc error: code = PermissionDenied desc = caller may not use the key"),
			wantCalls: statusOnly,
		},
		{
			name:      "status answered unauthenticated",
			service:   &stubService{statusErr: status.Error(codes.Unauthenticated, "token expired")},
			want:      wantReport(unhealthy, UnknownKEKID, "status answered with an error: rpc error: code = Unauthenticated desc = token expired"),
			wantCalls: statusOnly,
		},
		{
			name:      "status handler returned a plain error",
			service:   &stubService{statusErr: status.Error(codes.Unknown, "failed to reach vault")},
			want:      wantReport(unhealthy, UnknownKEKID, "status answered with an error: rpc error: code = Unknown desc = failed to reach vault"),
			wantCalls: statusOnly,
		},
		{
			name:      "healthz not ok",
			service:   &stubService{status: &kmsservice.StatusResponse{Version: "v2", Healthz: "kms unreachable", KeyID: testKEKID}},
			want:      wantReport(unhealthy, testKEKID, "kms unreachable"),
			wantCalls: statusOnly,
		},
		{
			name:      "healthz empty",
			service:   &stubService{status: &kmsservice.StatusResponse{Version: "v2", KeyID: testKEKID}},
			want:      wantReport(unhealthy, testKEKID, `status healthz is empty, want "ok"`),
			wantCalls: statusOnly,
		},
		{
			name:      "healthz not ok and key id empty",
			service:   &stubService{status: &kmsservice.StatusResponse{Version: "v2", Healthz: "kms unreachable"}},
			want:      wantReport(unhealthy, UnknownKEKID, "kms unreachable"),
			wantCalls: statusOnly,
		},
		{
			name:      "status key id empty",
			service:   &stubService{status: okStatus("")},
			want:      wantReport(unhealthy, UnknownKEKID, "status returned invalid KEK id: keyID is empty"),
			wantCalls: statusOnly,
		},
		{
			name:      "status key id too long",
			service:   &stubService{status: okStatus(longKEKID + "k")},
			want:      wantReport(unhealthy, UnknownKEKID, "status returned invalid KEK id: keyID is 1025 bytes, which exceeds the max size of 1024"),
			wantCalls: statusOnly,
		},
		{
			name: "encrypt fails",
			service: &stubService{
				status: okStatus(testKEKID),
				encrypt: func(context.Context, string, []byte) (*kmsservice.EncryptResponse, error) {
					return nil, status.Error(codes.FailedPrecondition, "key is disabled")
				},
			},
			want:      wantReport(unhealthy, testKEKID, "encrypt round trip failed: rpc error: code = FailedPrecondition desc = key is disabled"),
			wantCalls: upToEncrypt,
		},
		{
			name: "encrypt times out",
			service: &stubService{
				status: okStatus(testKEKID),
				encrypt: func(ctx context.Context, _ string, _ []byte) (*kmsservice.EncryptResponse, error) {
					<-ctx.Done()
					return nil, ctx.Err()
				},
			},
			want:      wantReport(unhealthy, testKEKID, "encrypt round trip failed: context deadline exceeded"),
			wantCalls: upToEncrypt,
		},
		{
			name: "encrypt without response",
			service: &stubService{
				status:  okStatus(testKEKID),
				encrypt: func(context.Context, string, []byte) (*kmsservice.EncryptResponse, error) { return nil, nil },
			},
			want:      wantReport(unhealthy, testKEKID, "encrypt round trip failed: kms plugin returned nil encrypt response"),
			wantCalls: upToEncrypt,
		},
		{
			name: "encrypt returns an empty key id",
			service: &stubService{
				status: okStatus(testKEKID),
				encrypt: func(_ context.Context, _ string, data []byte) (*kmsservice.EncryptResponse, error) {
					return &kmsservice.EncryptResponse{Ciphertext: data}, nil
				},
			},
			want:      wantReport(unhealthy, testKEKID, "encrypt round trip failed: invalid KEK id: keyID is empty"),
			wantCalls: upToEncrypt,
		},
		{
			name: "decrypt fails",
			service: &stubService{
				status: okStatus(testKEKID),
				decrypt: func(context.Context, string, *kmsservice.DecryptRequest) ([]byte, error) {
					return nil, status.Error(codes.FailedPrecondition, "decrypt permission revoked")
				},
			},
			want:      wantReport(unhealthy, testKEKID, "decrypt round trip failed: rpc error: code = FailedPrecondition desc = decrypt permission revoked"),
			wantCalls: allCalls,
		},
		{
			name: "decrypt returns other plaintext",
			service: &stubService{
				status: okStatus(testKEKID),
				decrypt: func(context.Context, string, *kmsservice.DecryptRequest) ([]byte, error) {
					return make([]byte, payloadSize), nil
				},
			},
			want:      wantReport(unhealthy, testKEKID, "decrypt round trip failed: decrypted plaintext does not match the encrypted payload"),
			wantCalls: allCalls,
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			p := newTestProber()
			got := p.Probe(t.Context(), Plugin{KeyID: testKeyID, Service: s.service})
			if diff := cmp.Diff(s.want, got); diff != "" {
				t.Errorf("unexpected report (-want +got):\n%s", diff)
			}
			if got := s.service.calls(); got != s.wantCalls {
				t.Errorf("calls (Status, Encrypt, Decrypt) = %v, want %v", got, s.wantCalls)
			}
		})
	}
}

func TestProbeAll(t *testing.T) {
	p := newTestProber(
		Plugin{KeyID: "1", Service: &stubService{status: okStatus(testKEKID)}},
		Plugin{KeyID: "2", Service: &stubService{statusErr: status.Error(codes.Unavailable, "connection refused")}},
	)

	got := p.ProbeAll(t.Context())

	want := applyoperatorv1.KMSEncryptionStatus().WithHealthReports(
		wantReport(operatorv1.KMSPluginHealthStatusHealthy, testKEKID, "").WithKeyID("1"),
		wantReport(operatorv1.KMSPluginHealthStatusError, UnknownKEKID, "rpc error: code = Unavailable desc = connection refused").WithKeyID("2"),
	)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("unexpected status (-want +got):\n%s", diff)
	}
}

// barrierService holds every Status until all plugins' probes have called
// it, so the test only finishes if ProbeAll probes the plugins concurrently.
type barrierService struct {
	*stubService
	barrier *sync.WaitGroup
}

func (b *barrierService) Status(ctx context.Context) (*kmsservice.StatusResponse, error) {
	b.barrier.Done()
	b.barrier.Wait()
	return b.stubService.Status(ctx)
}

func TestProbeAllProbesConcurrently(t *testing.T) {
	const n = 3
	var barrier sync.WaitGroup
	barrier.Add(n)
	plugins := make([]Plugin, 0, n)
	for i := range n {
		plugins = append(plugins, Plugin{
			KeyID:   strconv.Itoa(i),
			Service: &barrierService{stubService: &stubService{status: okStatus(testKEKID)}, barrier: &barrier},
		})
	}
	// The barrier, not the call timeout, is under test: give the calls all
	// the time the test has.
	p := NewProber(testNodeName, plugins, wait.ForeverTestTimeout, clocktesting.NewFakePassiveClock(testNow))

	done := make(chan *applyoperatorv1.KMSEncryptionStatusApplyConfiguration, 1)
	go func() { done <- p.ProbeAll(context.Background()) }()

	select {
	case got := <-done:
		for i, report := range got.HealthReports {
			if *report.KeyID != strconv.Itoa(i) || *report.Status != operatorv1.KMSPluginHealthStatusHealthy {
				t.Errorf("report %d: keyID %q status %q, want keyID %q status Healthy", i, *report.KeyID, *report.Status, strconv.Itoa(i))
			}
		}
	case <-time.After(wait.ForeverTestTimeout):
		t.Fatal("ProbeAll did not return: plugins were probed one after another")
	}
}
