package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/kmsguard/kmsguard/internal/cli"

	operatorv1 "github.com/openshift/api/operator/v1"
	operatorfake "github.com/openshift/client-go/operator/clientset/versioned/fake"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kubefake "k8s.io/client-go/kubernetes/fake"

	"github.com/kmsguard/kmsguard/internal/apiservertest"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

// TestStatus: status prints the evaluation the operator's kmsstate controller published and the verdict of its
// KMSPluginsDegraded condition, and evaluates nothing itself: the operator resource's raw health reports say
// every plugin is healthy, which an evaluation by status (as it did before) would have printed next to a
// degraded condition.
func TestStatus(t *testing.T) {
	now := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
	evaluatedAt := now.Add(-10 * time.Second)
	degraded := operatorv1.OperatorCondition{Type: kmsstate.ConditionKMSPluginsDegraded, Status: operatorv1.ConditionTrue, Reason: string(kmsstate.ReasonPluginUnreachable), Message: "node master-1 key 1", LastTransitionTime: metav1.NewTime(evaluatedAt)}
	kas := func(verdict operatorv1.OperatorCondition) *operatorv1.KubeAPIServer {
		return &operatorv1.KubeAPIServer{
			ObjectMeta: metav1.ObjectMeta{Name: "cluster"},
			Status: operatorv1.KubeAPIServerStatus{
				StaticPodOperatorStatus: operatorv1.StaticPodOperatorStatus{
					OperatorStatus: operatorv1.OperatorStatus{Conditions: []operatorv1.OperatorCondition{verdict, {Type: "NodeInstallerDegraded", Status: operatorv1.ConditionFalse}}},
					NodeStatuses:   []operatorv1.NodeStatus{{NodeName: "master-0"}, {NodeName: "master-1"}},
				},
				// What the reporters wrote since: every plugin healthy. The controller's own evaluation (its
				// apiserver views, its memory) is what the condition says, and what status must print.
				EncryptionStatus: operatorv1.KMSEncryptionStatus{HealthReports: []operatorv1.KMSPluginHealthReport{
					{NodeName: "master-0", KeyID: "1", Status: operatorv1.KMSPluginHealthStatusHealthy, RemoteKeyID: "kek-a", LastCheckedTime: metav1.NewTime(now.Add(-time.Second))},
					{NodeName: "master-1", KeyID: "1", Status: operatorv1.KMSPluginHealthStatusHealthy, RemoteKeyID: "kek-a", LastCheckedTime: metav1.NewTime(now.Add(-time.Second))},
				}},
			},
		}
	}
	// evaluated is an evaluation at the given time, as the controller publishes it: master-1's plugin
	// unreachable.
	evaluated := func(at time.Time, keyIDs ...string) kmsstate.State {
		state, _ := kmsstate.Evaluate(kmsstate.Config{ReportInterval: 30 * time.Second}, kmsstate.Memory{}, kmsstate.Observation{
			Now: at, Nodes: []string{"master-0", "master-1"}, KeyIDs: keyIDs,
			Reports: []operatorv1.KMSPluginHealthReport{
				{NodeName: "master-0", KeyID: "1", Status: operatorv1.KMSPluginHealthStatusHealthy, RemoteKeyID: "kek-a", LastCheckedTime: metav1.NewTime(at.Add(-12 * time.Second))},
				{NodeName: "master-1", KeyID: "1", Status: operatorv1.KMSPluginHealthStatusError, RemoteKeyID: "kek-a", Detail: "connection refused", LastCheckedTime: metav1.NewTime(at.Add(-3 * time.Second))},
			},
		})
		return state
	}
	published := func(state kmsstate.State) *kmsstate.State { return &state }
	scenarios := []struct {
		name      string
		published *kmsstate.State
		// undecryptable: every ConfigMap fails as while the KMS that encrypts them is down.
		undecryptable bool
		verdict       operatorv1.OperatorCondition
		output        string
		wantExit      int
		want          []string
		wantNot       []string
		check         func(t *testing.T, out string)
	}{
		{
			name:      "the published evaluation and the condition's verdict",
			published: published(evaluated(evaluatedAt, "1")),
			verdict:   degraded,
			wantExit:  cli.ExitOK,
			want: []string{
				"Evaluated at 2026-12-02T11:59:50Z by the operator's kmsstate controller",
				"master-0  1    Healthy      12s before    kek-a",
				"master-1  1    Unreachable  3s before     -       connection refused",
				"Verdict (KMSPluginsDegraded): True PluginUnreachable: node master-1 key 1",
				"KMSPluginsDegraded  True  PluginUnreachable  node master-1 key 1",
			},
			// The raw reports are not evaluated again: no healthy master-1, no verdict of status's own.
			wantNot: []string{"master-1  1    Healthy", "degraded=false", "NodeInstallerDegraded", "STALE", "nothing published"},
		},
		{
			name: "a key whose revision has not reached a node is shown pending",
			published: func() *kmsstate.State {
				state, _ := kmsstate.Evaluate(kmsstate.Config{ReportInterval: 30 * time.Second}, kmsstate.Memory{}, kmsstate.Observation{
					Now: evaluatedAt, Nodes: []string{"master-0", "master-1"}, KeyIDs: []string{"1"},
					Running: map[string][]string{"master-0": {"1"}},
					Reports: []operatorv1.KMSPluginHealthReport{
						{NodeName: "master-0", KeyID: "1", Status: operatorv1.KMSPluginHealthStatusHealthy, RemoteKeyID: "kek-a", LastCheckedTime: metav1.NewTime(evaluatedAt.Add(-time.Second))},
					},
				})
				return &state
			}(),
			verdict:  operatorv1.OperatorCondition{Type: kmsstate.ConditionKMSPluginsDegraded, Status: operatorv1.ConditionFalse, Reason: kmsstate.ReasonAsExpected, LastTransitionTime: metav1.NewTime(evaluatedAt)},
			wantExit: cli.ExitOK,
			want:     []string{"master-0  1    Healthy            1s before     kek-a", "master-1  1    Missing (pending)  never"},
		},
		{
			name: "a node down on purpose: its silent plugin is marked, and why is in the detail",
			published: func() *kmsstate.State {
				state, _ := kmsstate.Evaluate(kmsstate.Config{ReportInterval: 30 * time.Second}, kmsstate.Memory{}, kmsstate.Observation{
					Now: evaluatedAt, Nodes: []string{"master-0", "master-1"}, KeyIDs: []string{"1"},
					Availability: map[string]kmsstate.NodeAvailability{"master-1": {Unavailable: "cordoned"}},
					Reports: []operatorv1.KMSPluginHealthReport{
						{NodeName: "master-0", KeyID: "1", Status: operatorv1.KMSPluginHealthStatusHealthy, RemoteKeyID: "kek-a", LastCheckedTime: metav1.NewTime(evaluatedAt.Add(-time.Second))},
						{NodeName: "master-1", KeyID: "1", Status: operatorv1.KMSPluginHealthStatusHealthy, RemoteKeyID: "kek-a", LastCheckedTime: metav1.NewTime(evaluatedAt.Add(-10 * time.Minute))},
					},
				})
				return &state
			}(),
			verdict:  operatorv1.OperatorCondition{Type: kmsstate.ConditionKMSPluginsDegraded, Status: operatorv1.ConditionFalse, Reason: kmsstate.ReasonAsExpected, LastTransitionTime: metav1.NewTime(evaluatedAt)},
			wantExit: cli.ExitOK,
			want:     []string{"master-1  1    Stale (node unavailable)  10m0s before  -       last report 10m0s ago, limit 2m0s; node unavailable: cordoned"},
		},
		{
			name:      "stale published evaluation",
			published: published(evaluated(now.Add(-5*time.Minute), "1")),
			verdict:   operatorv1.OperatorCondition{Type: kmsstate.ConditionKMSPluginsDegraded, Status: operatorv1.ConditionTrue, Reason: string(kmsstate.ReasonPluginUnreachable), LastTransitionTime: metav1.NewTime(now.Add(-6 * time.Minute))},
			wantExit:  cli.ExitIncomplete,
			want:      []string{"Evaluated at 2026-12-02T11:55:00Z", "STALE: kmsstate's latest evaluation is from 2026-12-02T11:55:00Z, 5m0s ago, older than 2m0s"},
			wantNot:   []string{"older than the KMSPluginsDegraded condition"},
		},
		{
			name:      "published evaluation older than the condition",
			published: published(evaluated(evaluatedAt, "1")),
			verdict:   operatorv1.OperatorCondition{Type: kmsstate.ConditionKMSPluginsDegraded, Status: operatorv1.ConditionFalse, Reason: kmsstate.ReasonAsExpected, LastTransitionTime: metav1.NewTime(now.Add(-time.Second))},
			wantExit:  cli.ExitIncomplete,
			want: []string{
				"STALE: the published evaluation (2026-12-02T11:59:50Z) is older than the KMSPluginsDegraded condition's last transition (2026-12-02T11:59:59Z)",
				"Verdict (KMSPluginsDegraded): False AsExpected",
			},
		},
		{
			name:     "nothing published",
			verdict:  degraded,
			wantExit: cli.ExitIncomplete,
			want: []string{
				"kubeapiserver: nothing published: the operator's kmsstate controller has published no evaluation (configmap openshift-kube-apiserver-operator/kmsguard-kms-state, key state.json)",
				"Verdict (KMSPluginsDegraded): True PluginUnreachable",
			},
			wantNot: []string{"NODE", "Evaluated at"},
		},
		{
			name:      "no KMS key",
			published: published(evaluated(evaluatedAt)),
			verdict:   operatorv1.OperatorCondition{Type: kmsstate.ConditionKMSPluginsDegraded, Status: operatorv1.ConditionFalse, Reason: kmsstate.ReasonKMSNotConfigured, LastTransitionTime: metav1.NewTime(evaluatedAt)},
			wantExit:  cli.ExitOK,
			want:      []string{"kubeapiserver: no KMS key in the encryption config"},
		},
		{
			name:      "json",
			published: published(evaluated(evaluatedAt, "1")),
			verdict:   degraded,
			output:    "json",
			wantExit:  cli.ExitOK,
			check: func(t *testing.T, out string) {
				var report statusReport
				if err := json.Unmarshal([]byte(out), &report); err != nil {
					t.Fatalf("not JSON: %v\n%s", err, out)
				}
				if !report.Published || report.State == nil || len(report.State.Plugins) != 2 || report.State.Plugins[1].Health != kmsstate.PluginUnreachable {
					t.Errorf("unexpected state: %+v", report)
				}
				if report.Verdict == nil || report.Verdict.Reason != string(kmsstate.ReasonPluginUnreachable) || len(report.Conditions) != 1 || len(report.Stale) != 0 {
					t.Errorf("unexpected verdict: %+v", report)
				}
			},
		},
		{
			name:          "the published evaluation cannot be decrypted: the conditions are printed all the same",
			undecryptable: true,
			verdict:       degraded,
			wantExit:      cli.ExitIncomplete,
			want:          []string{"the published evaluation cannot be read", "failed to decrypt DEK", "Verdict (KMSPluginsDegraded): True PluginUnreachable"},
			wantNot:       []string{"nothing published"},
		},
		{
			name:     "yaml, nothing published",
			verdict:  degraded,
			output:   "yaml",
			wantExit: cli.ExitIncomplete,
			want:     []string{"published: false", "operator: kubeapiserver", "reason: PluginUnreachable"},
			wantNot:  []string{"state:"},
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			kube := kubefake.NewClientset()
			if s.undecryptable {
				apiservertest.FailEncrypted(kube, "configmaps")
			}
			if s.published != nil {
				store := kmsstate.ConfigMapPublisher{Client: kube.CoreV1(), Namespace: "openshift-kube-apiserver-operator", Name: kmsstate.DefaultConfigMapName}
				if err := store.Publish(context.Background(), *s.published); err != nil {
					t.Fatal(err)
				}
			}
			o := &statusOptions{operator: "kubeapiserver", output: cli.OutputFormat(s.output), reportInterval: 30 * time.Second}
			report, err := o.collect(context.Background(), kube, operatorfake.NewClientset(kas(s.verdict)), now)
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := o.print(&out, report); err != nil {
				t.Fatal(err)
			}
			if got := report.exitCode(); got != s.wantExit {
				t.Errorf("exit code %d, want %d", got, s.wantExit)
			}
			for _, want := range s.want {
				if !strings.Contains(out.String(), want) {
					t.Errorf("output does not contain %q:\n%s", want, out.String())
				}
			}
			for _, not := range s.wantNot {
				if strings.Contains(out.String(), not) {
					t.Errorf("output contains %q:\n%s", not, out.String())
				}
			}
			if s.check != nil {
				s.check(t, out.String())
			}
		})
	}
}

// TestStatusUnreadablePublishedState: a published state that cannot be decoded is said so, not "nothing
// published", and the conditions are still collected.
func TestStatusUnreadablePublishedState(t *testing.T) {
	kube := kubefake.NewClientset(&corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Namespace: "openshift-kube-apiserver-operator", Name: kmsstate.DefaultConfigMapName},
		Data:       map[string]string{kmsstate.StateDataKey: "{"},
	})
	kas := &operatorv1.KubeAPIServer{ObjectMeta: metav1.ObjectMeta{Name: "cluster"}}
	o := &statusOptions{operator: "kubeapiserver", reportInterval: 30 * time.Second}
	report, err := o.collect(context.Background(), kube, operatorfake.NewClientset(kas), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(report.Unreadable, "state.json") || report.exitCode() != cli.ExitIncomplete {
		t.Fatalf("report %+v (exit %d), want it unreadable naming state.json, and incomplete", report, report.exitCode())
	}
}
