package kmsstate

import (
	"testing"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestSettledKEKID: the KEK id is known only once every node agreed on it, and follows a rotation only when it
// completes.
func TestSettledKEKID(t *testing.T) {
	scenarios := []struct {
		name  string
		steps [][]operatorv1.KMSPluginHealthReport
		// want is the settled KEK id after each step; "" means none.
		want []string
	}{
		{
			name:  "nothing healthy reported",
			steps: [][]operatorv1.KMSPluginHealthReport{{report("master-0", "1", operatorv1.KMSPluginHealthStatusError, "", 0)}},
			want:  []string{""},
		},
		{
			name:  "nodes disagree at first sight",
			steps: [][]operatorv1.KMSPluginHealthReport{{healthy("master-0", "1", "b"), healthy("master-1", "1", "a")}},
			want:  []string{""},
		},
		{
			name: "agreed, rotating, rotated",
			steps: [][]operatorv1.KMSPluginHealthReport{
				{healthy("master-0", "1", "a"), healthy("master-1", "1", "a")},
				{healthy("master-0", "1", "b"), healthy("master-1", "1", "a")},
				{healthy("master-0", "1", "b"), healthy("master-1", "1", "b")},
			},
			want: []string{"a", "a", "b"},
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			var memory Memory
			for i, reports := range s.steps {
				obs := observation()
				obs.Now = t0.Add(time.Duration(i) * time.Minute)
				for _, r := range reports {
					r.LastCheckedTime = metav1.NewTime(obs.Now.Add(-5 * time.Second))
					obs.Reports = append(obs.Reports, r)
				}
				var state State
				state, memory = Evaluate(Config{ReportInterval: interval}, memory, obs)
				got, ok := state.SettledKEKID("1")
				if got != s.want[i] || ok != (s.want[i] != "") {
					t.Errorf("step %d: SettledKEKID = %q, %v; want %q", i, got, ok, s.want[i])
				}
				if _, ok := state.SettledKEKID("2"); ok {
					t.Errorf("step %d: a KEK id for key 2, which nobody reported", i)
				}
			}
		})
	}
	var c Controller
	if kek, err := c.SettledKEKID("1"); err == nil {
		t.Errorf("a controller that never evaluated has KEK id %q", kek)
	}
}
