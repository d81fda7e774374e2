package fake_test

import (
	"context"
	"maps"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	kmsapi "k8s.io/kms/apis/v2"

	"github.com/kmsguard/kmsguard/pkg/kmsplugin/fake"
)

// allMethods lists every RPC a plugin serves.
var allMethods = []fake.Method{fake.MethodStatus, fake.MethodEncrypt, fake.MethodDecrypt}

func TestPluginSetUnhealthy(t *testing.T) {
	scenarios := []struct {
		name        string
		unhealthy   []bool // successive SetUnhealthy calls
		wantHealthz string
	}{
		{name: "healthy by default", wantHealthz: "ok"},
		{name: "unhealthy", unhealthy: []bool{true}, wantHealthz: "kms unreachable"},
		{name: "healthy again", unhealthy: []bool{true, false}, wantHealthz: "ok"},
	}
	for _, scenario := range scenarios {
		t.Run(scenario.name, func(t *testing.T) {
			kms := fake.NewKMS()
			p, client := startPlugin(t, kms)
			for _, u := range scenario.unhealthy {
				p.SetUnhealthy(u)
			}

			resp := mustStatus(t, client)
			if resp.Healthz != scenario.wantHealthz {
				t.Errorf("Healthz = %q, want %q", resp.Healthz, scenario.wantHealthz)
			}
			// The rest of the answer stays valid, so the apiserver's
			// reaction is driven by Healthz alone.
			if resp.Version != "v2" || resp.KeyId != kms.CurrentKEKID() {
				t.Errorf("Status = {Version: %q, KeyId: %q}, want {Version: \"v2\", KeyId: %q}", resp.Version, resp.KeyId, kms.CurrentKEKID())
			}
			// Being unhealthy is reported, not enforced.
			if _, err := decrypt(t, client, mustEncrypt(t, client, []byte("data"))); err != nil {
				t.Errorf("round trip while Healthz is %q: %v", resp.Healthz, err)
			}
		})
	}
}

func TestPluginFailWith(t *testing.T) {
	scenarios := []struct {
		name string
		code codes.Code
	}{
		{name: "KMS unavailable", code: codes.Unavailable},
		{name: "KMS timed out", code: codes.DeadlineExceeded},
		{name: "plugin lost its credentials", code: codes.PermissionDenied},
		{name: "KMS quota exhausted", code: codes.ResourceExhausted},
		{name: "plugin bug", code: codes.Internal},
	}
	for _, scenario := range scenarios {
		t.Run(scenario.name, func(t *testing.T) {
			p, client := startPlugin(t, fake.NewKMS())
			p.FailWith(scenario.code)
			for _, m := range allMethods {
				if err := invoke(rpcContext(t), client, m); status.Code(err) != scenario.code {
					t.Errorf("%s = %v, want code %v", m, err, scenario.code)
				}
			}

			p.FailWith(codes.OK)
			mustStatus(t, client)
			if _, err := decrypt(t, client, mustEncrypt(t, client, []byte("data"))); err != nil {
				t.Errorf("round trip after FailWith(OK): %v", err)
			}
		})
	}
}

func TestPluginFailMethodWith(t *testing.T) {
	type fault struct {
		method  fake.Method
		code    codes.Code
		message string
	}
	// answer is how one method must answer: codes.OK means it serves.
	type answer struct {
		code    codes.Code
		message string
	}
	scenarios := []struct {
		name   string
		faults []fault
		// clearAll calls FailWith(codes.OK) after the faults.
		clearAll bool
		want     map[fake.Method]answer
	}{
		{
			name:   "status answers key disabled, the round trip still works",
			faults: []fault{{fake.MethodStatus, codes.FailedPrecondition, "key disabled"}},
			want: map[fake.Method]answer{
				fake.MethodStatus:  {codes.FailedPrecondition, "key disabled"},
				fake.MethodEncrypt: {codes.OK, ""},
				fake.MethodDecrypt: {codes.OK, ""},
			},
		},
		{
			name:   "encrypt answers permission denied, status and decrypt still work",
			faults: []fault{{fake.MethodEncrypt, codes.PermissionDenied, "kms: caller may not encrypt"}},
			want: map[fake.Method]answer{
				fake.MethodStatus:  {codes.OK, ""},
				fake.MethodEncrypt: {codes.PermissionDenied, "kms: caller may not encrypt"},
				fake.MethodDecrypt: {codes.OK, ""},
			},
		},
		{
			name:   "decrypt answers internal with the default message",
			faults: []fault{{fake.MethodDecrypt, codes.Internal, ""}},
			want: map[fake.Method]answer{
				fake.MethodStatus:  {codes.OK, ""},
				fake.MethodEncrypt: {codes.OK, ""},
				fake.MethodDecrypt: {codes.Internal, "fake kms plugin: injected failure (Internal)"},
			},
		},
		{
			name: "the last fault of a method wins, codes.OK clears one method",
			faults: []fault{
				{fake.MethodStatus, codes.Unauthenticated, "token expired"},
				{fake.MethodEncrypt, codes.Unauthenticated, "token expired"},
				{fake.MethodStatus, codes.Unknown, "plugin bug"},
				{fake.MethodEncrypt, codes.OK, ""},
			},
			want: map[fake.Method]answer{
				fake.MethodStatus:  {codes.Unknown, "plugin bug"},
				fake.MethodEncrypt: {codes.OK, ""},
				fake.MethodDecrypt: {codes.OK, ""},
			},
		},
		{
			name: "FailWith(codes.OK) clears every method",
			faults: []fault{
				{fake.MethodStatus, codes.FailedPrecondition, "key disabled"},
				{fake.MethodDecrypt, codes.DataLoss, "ciphertext lost"},
			},
			clearAll: true,
			want: map[fake.Method]answer{
				fake.MethodStatus:  {codes.OK, ""},
				fake.MethodEncrypt: {codes.OK, ""},
				fake.MethodDecrypt: {codes.OK, ""},
			},
		},
	}
	for _, scenario := range scenarios {
		t.Run(scenario.name, func(t *testing.T) {
			p, client := startPlugin(t, fake.NewKMS())
			// Sealed before any fault, so that Decrypt can be asked to open
			// something valid.
			sealed := mustEncrypt(t, client, []byte("data"))
			for _, f := range scenario.faults {
				p.FailMethodWith(f.method, f.code, f.message)
			}
			if scenario.clearAll {
				p.FailWith(codes.OK)
			}

			for _, m := range allMethods {
				var err error
				switch m {
				case fake.MethodDecrypt:
					var plaintext []byte
					if plaintext, err = decrypt(t, client, sealed); err == nil && string(plaintext) != "data" {
						t.Errorf("Decrypt = %q, want %q", plaintext, "data")
					}
				default:
					err = invoke(rpcContext(t), client, m)
				}
				got := status.Convert(err)
				if want := scenario.want[m]; got.Code() != want.code || (want.code != codes.OK && got.Message() != want.message) {
					t.Errorf("%s = %v, want code %v message %q", m, err, want.code, want.message)
				}
			}
		})
	}
}

func TestPluginFailMethodWithPanicsOnAnUnknownMethod(t *testing.T) {
	p := newPlugin(t, fake.NewKMS())
	defer func() {
		if recover() == nil {
			t.Error("FailMethodWith of an unknown method did not panic")
		}
	}()
	p.FailMethodWith("Rotate", codes.Internal, "")
}

func TestPluginSetLatency(t *testing.T) {
	// clientDeadline is far shorter than the injected latency, standing in
	// for the apiserver's KMS timeout. Only the resulting code is asserted,
	// never how long anything took.
	const (
		latency        = time.Hour
		clientDeadline = 100 * time.Millisecond
	)
	p, client := startPlugin(t, fake.NewKMS())

	p.SetLatency(latency)
	for _, m := range allMethods {
		ctx, cancel := context.WithTimeout(t.Context(), clientDeadline)
		err := invoke(ctx, client, m)
		cancel()
		if status.Code(err) != codes.DeadlineExceeded {
			t.Errorf("%s with latency %v and deadline %v = %v, want code %v", m, latency, clientDeadline, err, codes.DeadlineExceeded)
		}
	}

	p.SetLatency(0)
	mustStatus(t, client)
}

func TestPluginCalls(t *testing.T) {
	scenarios := []struct {
		name string
		// fault is applied before the calls are made.
		fault func(p *fake.Plugin, kms *fake.KMS)
		calls []fake.Method
	}{
		{
			name:  "no calls",
			fault: func(*fake.Plugin, *fake.KMS) {},
		},
		{
			name:  "calls that succeed or fail in the KMS",
			fault: func(*fake.Plugin, *fake.KMS) {},
			// invoke's Decrypt sends a bogus ciphertext, which the KMS
			// rejects: that call still reached the plugin.
			calls: []fake.Method{fake.MethodStatus, fake.MethodEncrypt, fake.MethodEncrypt, fake.MethodDecrypt},
		},
		{
			name:  "calls failed by an injected fault",
			fault: func(p *fake.Plugin, _ *fake.KMS) { p.FailWith(codes.Unavailable) },
			calls: []fake.Method{fake.MethodStatus, fake.MethodStatus, fake.MethodDecrypt},
		},
		{
			name:  "calls failed by a disabled key",
			fault: func(_ *fake.Plugin, kms *fake.KMS) { _ = kms.Disable(kms.CurrentKEKID()) },
			calls: []fake.Method{fake.MethodEncrypt, fake.MethodDecrypt, fake.MethodDecrypt},
		},
	}
	for _, scenario := range scenarios {
		t.Run(scenario.name, func(t *testing.T) {
			kms := fake.NewKMS()
			p, client := startPlugin(t, kms)
			scenario.fault(p, kms)

			want := map[fake.Method]int64{}
			for _, m := range allMethods {
				want[m] = 0
			}
			for _, m := range scenario.calls {
				_ = invoke(rpcContext(t), client, m)
				want[m]++
			}
			if got := p.Calls(); !maps.Equal(got, want) {
				t.Errorf("Calls() = %v, want %v", got, want)
			}
		})
	}
}

func TestPluginFaultsArePerPlugin(t *testing.T) {
	kms := fake.NewKMS()
	sick, sickClient := startPlugin(t, kms)
	_, wellClient := startPlugin(t, kms)

	sick.FailWith(codes.Unavailable)
	if err := invoke(rpcContext(t), sickClient, fake.MethodStatus); status.Code(err) != codes.Unavailable {
		t.Errorf("Status of the failing plugin = %v, want code %v", err, codes.Unavailable)
	}
	if resp := mustStatus(t, wellClient); resp.Healthz != "ok" {
		t.Errorf("Healthz of the other plugin = %q, want \"ok\"", resp.Healthz)
	}
}

// TestPluginFaultsChangeWhileServing changes every fault, and rotates the
// key, while RPCs are in flight. It asserts little itself; its value is
// running under the race detector.
func TestPluginFaultsChangeWhileServing(t *testing.T) {
	const (
		callers        = 4
		callsPerCaller = 50
	)
	kms := fake.NewKMS()
	p, client := startPlugin(t, kms)

	stop := make(chan struct{})
	var chaos sync.WaitGroup
	chaos.Go(func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			p.SetUnhealthy(i%2 == 0)
			p.SetLatency(time.Duration(i%3) * time.Microsecond)
			if i%5 == 0 {
				p.FailWith(codes.Unavailable)
			} else {
				p.FailWith(codes.OK)
			}
			// The callers never call Status, so this fault changes
			// nothing they see; it races with their calls' lookups.
			p.FailMethodWith(fake.MethodStatus, codes.FailedPrecondition, "key disabled")
			if i%100 == 0 {
				kms.Rotate()
			}
			_ = p.Calls()
		}
	})

	var callersDone sync.WaitGroup
	for range callers {
		callersDone.Go(func() {
			for range callsPerCaller {
				enc, err := client.Encrypt(rpcContext(t), &kmsapi.EncryptRequest{Uid: "concurrent", Plaintext: []byte("data")})
				if err != nil {
					if status.Code(err) != codes.Unavailable {
						t.Errorf("Encrypt = %v, want success or code %v", err, codes.Unavailable)
					}
					continue
				}
				if _, err := decrypt(t, client, enc); err != nil && status.Code(err) != codes.Unavailable {
					t.Errorf("Decrypt = %v, want success or code %v", err, codes.Unavailable)
				}
			}
		})
	}
	callersDone.Wait()
	close(stop)
	chaos.Wait()

	calls := p.Calls()
	if calls[fake.MethodEncrypt] != callers*callsPerCaller {
		t.Errorf("Calls()[Encrypt] = %d, want %d", calls[fake.MethodEncrypt], callers*callsPerCaller)
	}
}
