package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	operatorfake "github.com/openshift/client-go/operator/clientset/versioned/fake"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	kubefake "k8s.io/client-go/kubernetes/fake"

	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

const kmsConfigYAML = `apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
- resources: [secrets]
  providers:
  - kms: {apiVersion: v2, name: 1_secrets, endpoint: unix:///var/run/kmsplugin/kms-1.sock}
  - identity: {}
`

func TestStatus(t *testing.T) {
	now := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
	kas := &operatorv1.KubeAPIServer{
		ObjectMeta: metav1.ObjectMeta{Name: "cluster"},
		Status: operatorv1.KubeAPIServerStatus{
			StaticPodOperatorStatus: operatorv1.StaticPodOperatorStatus{
				OperatorStatus: operatorv1.OperatorStatus{Conditions: []operatorv1.OperatorCondition{
					{Type: kmsstate.ConditionKMSPluginsDegraded, Status: operatorv1.ConditionTrue, Reason: "PluginUnreachable", Message: "node master-1 key 1"},
					{Type: "NodeInstallerDegraded", Status: operatorv1.ConditionFalse},
				}},
				NodeStatuses: []operatorv1.NodeStatus{{NodeName: "master-0"}, {NodeName: "master-1"}},
			},
			EncryptionStatus: operatorv1.KMSEncryptionStatus{HealthReports: []operatorv1.KMSPluginHealthReport{
				{NodeName: "master-0", KeyId: "1", Status: operatorv1.KMSPluginHealthStatusHealthy, KEKId: "kek-a", LastCheckedTime: metav1.NewTime(now.Add(-12 * time.Second))},
				{NodeName: "master-1", KeyId: "1", Status: operatorv1.KMSPluginHealthStatusError, KEKId: "kek-a", Detail: "connection refused", LastCheckedTime: metav1.NewTime(now.Add(-3 * time.Second))},
			}},
		},
	}
	configSecret := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Namespace: "openshift-kube-apiserver", Name: "encryption-config"},
		Data:       map[string][]byte{"encryption-config": []byte(kmsConfigYAML)},
	}
	scenarios := []struct {
		name    string
		objects []runtime.Object
		output  string
		wantErr string
		check   func(t *testing.T, out string)
	}{
		{
			name:    "table",
			objects: []runtime.Object{configSecret},
			check: func(t *testing.T, out string) {
				for _, want := range []string{
					"master-0  1    Healthy      12s ago       kek-a",
					"master-1  1    Unreachable  3s ago        -              connection refused",
					"Evaluation: degraded=true reason=PluginUnreachable",
					"KMSPluginsDegraded  True  PluginUnreachable  node master-1 key 1",
				} {
					if !strings.Contains(out, want) {
						t.Errorf("output does not contain %q:\n%s", want, out)
					}
				}
				if strings.Contains(out, "NodeInstallerDegraded") {
					t.Errorf("output lists conditions that are not about KMS:\n%s", out)
				}
			},
		},
		{
			name:    "json",
			objects: []runtime.Object{configSecret},
			output:  "json",
			check: func(t *testing.T, out string) {
				var report statusReport
				if err := json.Unmarshal([]byte(out), &report); err != nil {
					t.Fatalf("not JSON: %v\n%s", err, out)
				}
				if len(report.State.Plugins) != 2 || report.State.Plugins[1].Health != kmsstate.PluginUnreachable || len(report.Conditions) != 1 {
					t.Errorf("unexpected report: %+v", report)
				}
			},
		},
		{
			name: "no encryption config",
			check: func(t *testing.T, out string) {
				if !strings.Contains(out, "no KMS key in the encryption config") {
					t.Errorf("output:\n%s", out)
				}
			},
		},
		{
			name: "invalid encryption config",
			objects: []runtime.Object{&corev1.Secret{
				ObjectMeta: metav1.ObjectMeta{Namespace: "openshift-kube-apiserver", Name: "encryption-config"},
				Data:       map[string][]byte{"encryption-config": []byte("kind: EncryptionConfiguration\napiVersion: apiserver.config.k8s.io/v1\nresources: [{resources: [secrets], providers: [{kms: {apiVersion: v2, name: x, endpoint: tcp://1.2.3.4:5}}]}]\n")},
			}},
			wantErr: "openshift-kube-apiserver/encryption-config: invalid EncryptionConfiguration",
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			o := &statusOptions{operator: "kubeapiserver", output: outputFormat(s.output), reportInterval: 30 * time.Second}
			report, err := o.collect(context.Background(), kubefake.NewClientset(s.objects...), operatorfake.NewClientset(kas.DeepCopy()), now)
			if s.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), s.wantErr) {
					t.Fatalf("want error containing %q, got %v", s.wantErr, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := o.print(&out, report); err != nil {
				t.Fatal(err)
			}
			s.check(t, out.String())
		})
	}
}
