package lab

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/kmsguard/kmsguard/pkg/kmsplugin/fake"
)

// TestMigrationHold: while held, a request of the held client never reaches the apiserver and ends with its
// context; released, requests go through; holding twice or releasing what is not held changes nothing and says so.
func TestMigrationHold(t *testing.T) {
	var served atomic.Int32
	apiserver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		served.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"kind":"SecretList","apiVersion":"v1","items":[]}`))
	}))
	defer apiserver.Close()
	hold := newMigrationHold()
	client := kubernetes.NewForConfigOrDie(&rest.Config{Host: apiserver.URL, RateLimiter: hold})
	list := func(ctx context.Context) error {
		_, err := client.CoreV1().Secrets("ns").List(ctx, metav1.ListOptions{})
		return err
	}

	l := &Lab{kms: fake.NewKMS(), operatorDeps: operatorDeps{hold: hold}}
	inject := func(f Fault) string {
		t.Helper()
		did, err := l.Inject(context.Background(), Injection{Fault: f})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		return did
	}

	if err := list(context.Background()); err != nil || served.Load() != 1 {
		t.Fatalf("not held: LIST = %v with %d requests served, want it served", err, served.Load())
	}
	if did := inject(FaultMigrationHold); !strings.Contains(did, "held kmsguard's migration") {
		t.Errorf("hold: %q", did)
	}
	if did := inject(FaultMigrationHold); !strings.Contains(did, "held already") {
		t.Errorf("holding again: %q, want it to say it was held already", did)
	}
	ctx, cancel := context.WithCancel(context.Background())
	errs := make(chan error, 1)
	go func() { errs <- list(ctx) }()
	cancel()
	if err := <-errs; !errors.Is(err, context.Canceled) {
		t.Errorf("held: LIST = %v, want it to wait until its context ended", err)
	}
	if hold.TryAccept() {
		t.Error("held: TryAccept let a request go")
	}
	if n := served.Load(); n != 1 {
		t.Errorf("held: %d requests reached the apiserver, want none beyond the first", n-1)
	}
	if did := inject(FaultMigrationRelease); !strings.Contains(did, "released") {
		t.Errorf("release: %q", did)
	}
	if did := inject(FaultMigrationRelease); !strings.Contains(did, "was not held") {
		t.Errorf("releasing again: %q, want it to say it was not held", did)
	}
	if err := list(context.Background()); err != nil || served.Load() != 2 {
		t.Errorf("released: LIST = %v with %d requests served, want it served", err, served.Load())
	}
}
