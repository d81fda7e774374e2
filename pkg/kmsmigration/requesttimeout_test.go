package kmsmigration

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	"github.com/kmsguard/kmsguard/internal/apiservertest"
)

// TestAHungPUTIsRetried: an apiserver that never answers one PUT (it went away mid-request and the connection
// stayed open) must not hold the migration: the PUT times out after RequestTimeout, is retried, and the
// migration finishes. Without the timeout the migration waits for ever.
func TestAHungPUTIsRetried(t *testing.T) {
	var puts atomic.Int32
	// released ends the hung PUT's handler when the test is done, so that the server can close.
	released := make(chan struct{})
	apiserver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.Method {
		case http.MethodGet:
			_, _ = io.WriteString(w, `{"kind":"SecretList","apiVersion":"v1","metadata":{"resourceVersion":"10"},"items":[`+
				`{"kind":"Secret","apiVersion":"v1","metadata":{"name":"s","namespace":"ns","resourceVersion":"5"}}]}`)
		case http.MethodPut:
			if puts.Add(1) == 1 {
				select { // never answered: the client must give up
				case <-r.Context().Done():
				case <-released:
				}
				return
			}
			body, _ := io.ReadAll(r.Body)
			_, _ = w.Write(body)
		default:
			http.Error(w, "unexpected "+r.Method, http.StatusMethodNotAllowed)
		}
	}))
	defer apiserver.Close()
	defer close(released)
	client, err := dynamic.NewForConfig(&rest.Config{Host: apiserver.URL})
	if err != nil {
		t.Fatal(err)
	}
	m, err := New(Options{Dynamic: client, Mapper: apiservertest.Mapper(), QPS: -1, RequestTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	report, err := m.MigrateAll(ctx, []schema.GroupResource{secretsGR}, Target{WriteKey: "2"}, RunHooks{})
	if err != nil {
		t.Fatalf("MigrateAll: %v (a hung PUT held the migration)", err)
	}
	if got := report.Resources[0].Outcome; got != RunMigrated {
		t.Errorf("outcome %s, want %s", got, RunMigrated)
	}
	if n := puts.Load(); n != 2 {
		t.Errorf("%d PUTs, want 2: the hung one and its retry", n)
	}
}
