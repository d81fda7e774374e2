package kmsrecovery

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// TestReportConfigMapStaysUnderTheLimit: past what fits, the lists hold the first objects, the summary says so,
// and the ConfigMap stays far from etcd's 1 MiB.
func TestReportConfigMapStaysUnderTheLimit(t *testing.T) {
	for _, n := range []int{3, 20000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			findings := &Findings{Resources: []ResourceFindings{{Resource: schema.GroupResource{Resource: "secrets"}}}}
			deletion := &DeletionReport{ConsentID: "7", Time: time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)}
			for i := 0; i < n; i++ {
				o := Object{ObjectRef: ObjectRef{Resource: schema.GroupResource{Resource: "secrets"}, Namespace: "some-namespace", Name: fmt.Sprintf("a-rather-long-secret-name-%06d", i)},
					EtcdKey: fmt.Sprintf("/kubernetes.io/secrets/some-namespace/a-rather-long-secret-name-%06d", i), KEKID: "7", Provider: "7_secrets"}
				findings.Resources[0].Unreadable = append(findings.Resources[0].Unreadable, o)
				deletion.Results = append(deletion.Results, Result{Object: o, Outcome: OutcomeDeleted})
			}
			cm, err := reportConfigMap("ns", findings, deletion)
			if err != nil {
				t.Fatal(err)
			}
			size := 0
			for k, v := range cm.Data {
				size += len(k) + len(v)
			}
			if size > 900<<10 {
				t.Errorf("ConfigMap data is %d bytes", size)
			}
			var objects []Object
			if err := json.Unmarshal([]byte(cm.Data[ConfigMapKeyObjects]), &objects); err != nil {
				t.Fatal(err)
			}
			var report DeletionReport
			if err := json.Unmarshal([]byte(cm.Data[ConfigMapKeyDeletion]), &report); err != nil {
				t.Fatal(err)
			}
			if report.ConsentID != "7" || !report.Time.Equal(deletion.Time) {
				t.Errorf("deletion header %+v", report)
			}
			truncated := strings.Contains(cm.Data[ConfigMapKeySummary], "lists the first")
			switch {
			case n == 3 && (len(objects) != 3 || len(report.Results) != 3 || truncated):
				t.Errorf("small report: %d objects, %d results, truncated %v", len(objects), len(report.Results), truncated)
			case n > 3 && (len(objects) == 0 || len(objects) >= n || !truncated || objects[0].Name != "a-rather-long-secret-name-000000"):
				t.Errorf("large report: %d objects listed, truncated %v; want the first ones and a note", len(objects), truncated)
			}
		})
	}
}
