package main

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/clock"

	operatorv1 "github.com/openshift/api/operator/v1"
	applyoperatorv1 "github.com/openshift/client-go/operator/applyconfigurations/operator/v1"
	"github.com/openshift/client-go/operator/clientset/versioned/fake"
	"github.com/openshift/library-go/pkg/operator/encryption/kms"

	"github.com/kmsguard/kmsguard/pkg/encryptionstatus"
	kmsfake "github.com/kmsguard/kmsguard/pkg/kmsplugin/fake"
	"github.com/kmsguard/kmsguard/pkg/kmsplugin/pluginprobe"
)

// testCallTimeout bounds each plugin call; the plugin is healthy, so it is a
// safety net only.
const testCallTimeout = 5 * time.Second

// TestReportOnceTakesOverLibraryGoEntries runs one cycle of the loop against
// a real fake plugin and a fake clientset that holds what library-go's
// reporter wrote before kmsguard's replaced it: the cycle must update the
// node's entry, prune the node's entry for a plugin that is gone, and leave
// the other node's entry alone.
func TestReportOnceTakesOverLibraryGoEntries(t *testing.T) {
	const node, otherNode = "master-0", "master-1"
	cs := fake.NewClientset(&operatorv1.KubeAPIServer{ObjectMeta: metav1.ObjectMeta{Name: encryptionstatus.Name}})
	provider := encryptionstatus.NewKubeAPIServer(cs.OperatorV1().KubeAPIServers())
	earlier := metav1.NewTime(time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC))
	libraryGoWrote := func(nodeName string, keyIDs ...string) {
		t.Helper()
		status := applyoperatorv1.KMSEncryptionStatus()
		for _, keyID := range keyIDs {
			status.WithHealthReports(applyoperatorv1.KMSPluginHealthReport().WithNodeName(nodeName).WithKeyID(keyID).
				WithStatus(operatorv1.KMSPluginHealthStatusHealthy).WithLastCheckedTime(earlier).WithRemoteKeyID("key-0"))
		}
		if err := provider.ApplyKMSEncryptionStatus(t.Context(), encryptionstatus.ReporterFieldManager(nodeName), status); err != nil {
			t.Fatal(err)
		}
	}
	libraryGoWrote(node, "1", "2")
	libraryGoWrote(otherNode, "1")

	kmsService := kmsfake.NewKMS()
	kmsService.Rotate()
	plugin := kmsfake.StartForTest(t, kmsService)
	target, err := pluginprobe.NewGRPCPlugin(t.Context(), "1", plugin.Endpoint(), testCallTimeout)
	if err != nil {
		t.Fatal(err)
	}
	reporter := &pluginprobe.Reporter{
		Prober:       pluginprobe.NewProber(node, []pluginprobe.Plugin{target}, testCallTimeout, clock.RealClock{}),
		Provider:     provider,
		FieldManager: encryptionstatus.ReporterFieldManager(node),
		Interval:     time.Hour,
		WriteTimeout: testCallTimeout,
	}

	reporter.ReportOnce(t.Context())

	status, err := provider.GetKMSEncryptionStatus(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	type entry struct{ node, keyID, status, kekID string }
	var got []entry
	for _, r := range status.HealthReports {
		got = append(got, entry{r.NodeName, r.KeyID, string(r.Status), r.RemoteKeyID})
		if r.NodeName == node && !r.LastCheckedTime.After(earlier.Time) {
			t.Errorf("lastCheckedTime of %s/%s was not updated: %v", r.NodeName, r.KeyID, r.LastCheckedTime)
		}
	}
	slices.SortFunc(got, func(a, b entry) int {
		return strings.Compare(a.node+"/"+a.keyID, b.node+"/"+b.keyID)
	})
	want := []entry{
		{node, "1", "Healthy", "key-2"},
		{otherNode, "1", "Healthy", "key-0"},
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(entry{})); diff != "" {
		t.Errorf("reports differ (-want +got):\n%s", diff)
	}
}

// TestRunStopsWhenContextIsDone checks the loop wiring: run reports, and
// returns once its context ends.
func TestRunStopsWhenContextIsDone(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	applied := 0
	reporter := &pluginprobe.Reporter{
		Prober: pluginprobe.NewProber("master-0", nil, testCallTimeout, clock.RealClock{}),
		Provider: applyFunc(func(context.Context, string, *applyoperatorv1.KMSEncryptionStatusApplyConfiguration) error {
			applied++
			cancel()
			return nil
		}),
		FieldManager: encryptionstatus.ReporterFieldManager("master-0"),
		Interval:     time.Hour,
		WriteTimeout: testCallTimeout,
	}

	done := make(chan struct{})
	go func() {
		reporter.Run(ctx)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("run did not return after its context ended")
	}
	if applied != 1 {
		t.Errorf("applied %d times, want 1", applied)
	}
}

// applyFunc is a kms.EncryptionStatusProvider that only applies.
type applyFunc func(ctx context.Context, fieldManager string, status *applyoperatorv1.KMSEncryptionStatusApplyConfiguration) error

var _ kms.EncryptionStatusProvider = applyFunc(nil)

func (f applyFunc) GetKMSEncryptionStatus(context.Context) (*operatorv1.KMSEncryptionStatus, error) {
	return nil, nil
}

func (f applyFunc) ApplyKMSEncryptionStatus(ctx context.Context, fieldManager string, status *applyoperatorv1.KMSEncryptionStatusApplyConfiguration) error {
	return f(ctx, fieldManager, status)
}

// UpdateKMSEncryptionStatus fails: a reporter owns its reports under its field manager, so it only applies.
func (f applyFunc) UpdateKMSEncryptionStatus(context.Context, func(*operatorv1.KMSEncryptionStatus)) error {
	return errors.New("the health reporter must not update the encryption status: it applies its reports")
}
