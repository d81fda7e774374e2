package kmsmigration

import (
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/util/flowcontrol"
)

// TestRawClientRateLimit: the protobuf client takes the migrator's token bucket as its rate, not client-go's
// default QPS of the config, and keeps a rate limiter its caller put in the config (an operator's throttle of
// the migration's own client, the lab's migration hold), as the dynamic client does.
func TestRawClientRateLimit(t *testing.T) {
	secrets := schema.GroupVersionResource{Version: "v1", Resource: "secrets"}
	secret := schema.GroupVersionKind{Version: "v1", Kind: "Secret"}
	callers := flowcontrol.NewFakeAlwaysRateLimiter()
	for _, s := range []struct {
		name   string
		config *rest.Config
		want   flowcontrol.RateLimiter
	}{
		{name: "QPS and Burst of the config: not used", config: &rest.Config{Host: "https://127.0.0.1:6443", QPS: 5, Burst: 10}},
		{name: "a rate limiter of the caller's: kept", config: &rest.Config{Host: "https://127.0.0.1:6443", RateLimiter: callers}, want: callers},
	} {
		t.Run(s.name, func(t *testing.T) {
			c, err := newRawClient(s.config, secrets, secret, true)
			if err != nil || c == nil {
				t.Fatalf("newRawClient: %v, %v", c, err)
			}
			if got := c.client.GetRateLimiter(); got != s.want {
				t.Errorf("rate limiter %v, want %v", got, s.want)
			}
		})
	}
	if c, err := newRawClient(&rest.Config{Host: "https://127.0.0.1:6443"}, schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"},
		schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}, true); err != nil || c != nil {
		t.Errorf("a custom resource got a protobuf client (%v, %v): it takes the dynamic client", c, err)
	}
}
