package pluginprobe_test

import (
	"context"
	"errors"
	"regexp"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/utils/clock"

	operatorv1 "github.com/openshift/api/operator/v1"

	"github.com/kmsguard/kmsguard/pkg/kmsplugin/fake"
	"github.com/kmsguard/kmsguard/pkg/kmsplugin/pluginprobe"
)

// longCallTimeout is far longer than any of these probes may take: a client that waited for the plugin to come
// back, as kube-apiserver's does, would end each call with DeadlineExceeded after it, and the detail checked
// below would not match.
const longCallTimeout = 5 * time.Minute

// TestProbeOfADeadPluginFailsFast stops a plugin the probe has been talking to and checks that the next probe
// reports the connection's failure rather than waiting out its call timeout, and that the first probe after the
// plugin is back on its socket is Healthy again, however long it was gone.
func TestProbeOfADeadPluginFailsFast(t *testing.T) {
	scenarios := []struct {
		name string
		// probedBefore: the probe reached the plugin before it stopped, so the client holds a connection.
		probedBefore bool
	}{
		{name: "a plugin never reached", probedBefore: false},
		{name: "a plugin connected to, then stopped", probedBefore: true},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			plugin := fake.StartForTest(t, fake.NewKMS())
			target, err := pluginprobe.NewGRPCPlugin(t.Context(), "1", plugin.Endpoint(), longCallTimeout)
			if err != nil {
				t.Fatal(err)
			}
			prober := pluginprobe.NewProber("master-0", []pluginprobe.Plugin{target}, longCallTimeout, clock.RealClock{})
			if s.probedBefore {
				if report := prober.Probe(t.Context(), target); *report.Status != operatorv1.KMSPluginHealthStatusHealthy {
					t.Fatalf("before the stop: status %q (%q), want Healthy", *report.Status, deref(report.Detail))
				}
			}

			plugin.Stop()
			report := prober.Probe(t.Context(), target)
			if *report.Status != operatorv1.KMSPluginHealthStatusError {
				t.Errorf("stopped: status %q, want Error (detail %q)", *report.Status, deref(report.Detail))
			}
			// The dial's error when the client saw the connection close before the call, the read's error when
			// the call went out on it first; never the deadline.
			if want := "code = Unavailable desc = (.*no such file or directory|error reading from server)"; !regexp.MustCompile(want).MatchString(deref(report.Detail)) {
				t.Errorf("stopped: detail %q, want it to match %q", deref(report.Detail), want)
			}

			// Back, the plugin is reached again by a later probe: the client redials on its own within
			// seconds, not after grpc-go's default backoff of up to 2 minutes.
			if err := plugin.Start(); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
			defer cancel()
			var last operatorv1.KMSPluginHealthStatus
			err = wait.PollUntilContextCancel(ctx, 200*time.Millisecond, true, func(ctx context.Context) (bool, error) {
				last = *prober.Probe(ctx, target).Status
				return last == operatorv1.KMSPluginHealthStatusHealthy, nil
			})
			if errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("restarted: the probe still says %q a minute later", last)
			}
		})
	}
}
