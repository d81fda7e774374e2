package main

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	operatorfake "github.com/openshift/client-go/operator/clientset/versioned/fake"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kubefake "k8s.io/client-go/kubernetes/fake"

	"github.com/kmsguard/kmsguard/internal/apiservertest"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
	"github.com/kmsguard/kmsguard/pkg/operatorstate"
)

// TestOperatorKMSView: recover's KMS view is the evaluation the operator published, not one of its own: the
// operator resource's reports say every plugin is healthy, and only the published verdict counts for health.
// Nothing published and a stale evaluation are errors (the consent is refused as KMSUnhealthy). Every report's
// KEK id still counts as served.
func TestOperatorKMSView(t *testing.T) {
	now := time.Now()
	kas := &operatorv1.KubeAPIServer{
		ObjectMeta: metav1.ObjectMeta{Name: "cluster"},
		Status: operatorv1.KubeAPIServerStatus{EncryptionStatus: operatorv1.KMSEncryptionStatus{HealthReports: []operatorv1.KMSPluginHealthReport{
			{NodeName: "master-0", KeyID: "1", Status: operatorv1.KMSPluginHealthStatusHealthy, RemoteKeyID: "kek-a", LastCheckedTime: metav1.NewTime(now)},
			{NodeName: "master-0", KeyID: "9", Status: operatorv1.KMSPluginHealthStatusHealthy, RemoteKeyID: "kek-old", LastCheckedTime: metav1.NewTime(now)},
		}}},
	}
	evaluated := func(at time.Time, status operatorv1.KMSPluginHealthStatus) *kmsstate.State {
		state, _ := kmsstate.Evaluate(kmsstate.Config{}, kmsstate.Memory{}, kmsstate.Observation{
			Now: at, Nodes: []string{"master-0"}, KeyIDs: []string{"1"},
			Reports: []operatorv1.KMSPluginHealthReport{{NodeName: "master-0", KeyID: "1", Status: status, RemoteKeyID: "kek-a", LastCheckedTime: metav1.NewTime(at)}},
		})
		return &state
	}
	scenarios := []struct {
		name          string
		published     *kmsstate.State
		wantErr       kmsstate.Reason
		wantUnhealthy bool
	}{
		{name: "fresh and healthy", published: evaluated(now.Add(-10*time.Second), operatorv1.KMSPluginHealthStatusHealthy)},
		{name: "fresh and unhealthy, whatever the reports say now", published: evaluated(now.Add(-10*time.Second), operatorv1.KMSPluginHealthStatusError), wantUnhealthy: true},
		{name: "stale", published: evaluated(now.Add(-10*time.Minute), operatorv1.KMSPluginHealthStatusHealthy), wantErr: kmsstate.ReasonStateStale},
		{name: "nothing published", wantErr: kmsstate.ReasonStateNotEvaluated},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			kube := kubefake.NewClientset()
			if s.published != nil {
				store := kmsstate.ConfigMapPublisher{Client: kube.CoreV1(), Namespace: "openshift-kube-apiserver-operator", Name: kmsstate.DefaultConfigMapName}
				if err := store.Publish(context.Background(), *s.published); err != nil {
					t.Fatal(err)
				}
			}
			snapshot, err := operatorKMSView(kube, operatorfake.NewClientset(kas), "kubeapiserver", 30*time.Second).KMSSnapshot(context.Background())
			if s.wantErr != "" {
				var unhealthy *kmsstate.UnhealthyError
				if !errors.As(err, &unhealthy) || unhealthy.Reason() != s.wantErr {
					t.Fatalf("got %v, want an UnhealthyError with reason %s", err, s.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if (snapshot.Unhealthy != nil) != s.wantUnhealthy {
				t.Errorf("Unhealthy %v, want unhealthy=%v", snapshot.Unhealthy, s.wantUnhealthy)
			}
			for _, kek := range []string{"kek-a", "kek-old"} {
				if len(snapshot.Served[kek]) == 0 {
					t.Errorf("%s is not served: %v", kek, snapshot.Served)
				}
			}
		})
	}
}

// TestOperatorKMSViewWithoutThePublishedEvaluation: the published evaluation's ConfigMap cannot be read (the KMS
// encrypts it, and a lost KEK may have taken it). recover then evaluates the operator resource's health reports
// itself, with the KEK id memory the operator keeps on the resource, and only while the operator's own
// KMSPluginsDegraded agrees: it is never refused for lack of the ConfigMap it may have to delete.
func TestOperatorKMSViewWithoutThePublishedEvaluation(t *testing.T) {
	now := time.Now()
	healthy := operatorv1.KMSPluginHealthReport{NodeName: "master-0", KeyID: "1", Status: operatorv1.KMSPluginHealthStatusHealthy, RemoteKeyID: "kek-a", LastCheckedTime: metav1.NewTime(now)}
	_, memory := kmsstate.Evaluate(kmsstate.Config{}, kmsstate.Memory{}, kmsstate.Observation{
		Now: now.Add(-time.Hour), Nodes: []string{"master-0"}, KeyIDs: []string{"1"},
		Reports: []operatorv1.KMSPluginHealthReport{{NodeName: "master-0", KeyID: "1", Status: operatorv1.KMSPluginHealthStatusHealthy, RemoteKeyID: "kek-a", LastCheckedTime: metav1.NewTime(now.Add(-time.Hour))}},
	})
	verdict := func(status operatorv1.ConditionStatus) []operatorv1.OperatorCondition {
		return []operatorv1.OperatorCondition{{Type: kmsstate.ConditionKMSPluginsDegraded, Status: status, Reason: "AsExpected"}}
	}
	scenarios := []struct {
		name          string
		reports       []operatorv1.KMSPluginHealthReport
		conditions    []operatorv1.OperatorCondition
		wantUnhealthy string
	}{
		{name: "healthy reports and the operator agrees", reports: []operatorv1.KMSPluginHealthReport{healthy}, conditions: verdict(operatorv1.ConditionFalse)},
		{name: "the operator's verdict is Degraded", reports: []operatorv1.KMSPluginHealthReport{healthy}, conditions: verdict(operatorv1.ConditionTrue), wantUnhealthy: "KMSPluginsDegraded is True"},
		{name: "the operator has no verdict", reports: []operatorv1.KMSPluginHealthReport{healthy}, wantUnhealthy: "has no KMSPluginsDegraded condition"},
		{name: "no health report", conditions: verdict(operatorv1.ConditionFalse), wantUnhealthy: "no health report to evaluate"},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			kube := kubefake.NewClientset()
			apiservertest.FailEncrypted(kube, "configmaps")
			operators := operatorfake.NewClientset(&operatorv1.KubeAPIServer{
				ObjectMeta: metav1.ObjectMeta{Name: "cluster"},
				Status: operatorv1.KubeAPIServerStatus{
					StaticPodOperatorStatus: operatorv1.StaticPodOperatorStatus{OperatorStatus: operatorv1.OperatorStatus{Conditions: s.conditions}},
					EncryptionStatus:        operatorv1.KMSEncryptionStatus{HealthReports: s.reports},
				},
			})
			if err := kmsstate.NewAnnotationMemory(operatorstate.KubeAPIServer(operators.OperatorV1().KubeAPIServers())).Save(t.Context(), memory); err != nil {
				t.Fatal(err)
			}
			snapshot, err := operatorKMSView(kube, operators, "kubeapiserver", 30*time.Second).KMSSnapshot(t.Context())
			if err != nil {
				t.Fatalf("KMSSnapshot = %v; want a view without the published evaluation", err)
			}
			switch {
			case s.wantUnhealthy == "" && snapshot.Unhealthy != nil:
				t.Errorf("Unhealthy = %v, want healthy", snapshot.Unhealthy)
			case s.wantUnhealthy != "" && (snapshot.Unhealthy == nil || !strings.Contains(snapshot.Unhealthy.Error(), s.wantUnhealthy)):
				t.Errorf("Unhealthy = %v, want it to say %q", snapshot.Unhealthy, s.wantUnhealthy)
			}
			if len(s.reports) > 0 && snapshot.Current["1"] != "kek-a" {
				t.Errorf("current KEK ids %v, want key 1 at kek-a from the operator's memory", snapshot.Current)
			}
		})
	}
}
