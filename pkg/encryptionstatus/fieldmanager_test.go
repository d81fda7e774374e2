package encryptionstatus

import (
	"strings"
	"testing"

	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
)

func TestReporterFieldManager(t *testing.T) {
	scenarios := []struct {
		name     string
		nodeName string
		want     string
	}{
		{
			// What library-go's reporter on node-1 uses: "kms-health-reporter-"
			// and the hex SHA-256 of the node name. A change here breaks the
			// hand-over between the two reporters.
			name:     "library-go's field manager",
			nodeName: "node-1",
			want:     "kms-health-reporter-35971be6e9bb024a895582fe0e42e04848a86da550aaef0fccbfba86f99f617d",
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			if got := ReporterFieldManager(s.nodeName); got != s.want {
				t.Errorf("ReporterFieldManager(%q) = %q, want %q", s.nodeName, got, s.want)
			}
		})
	}

	if got := ReporterFieldManager(strings.Repeat("n", 253)); len(got) > metav1validation.FieldManagerMaxLength {
		t.Errorf("the field manager of the longest node name is %d bytes, more than %d", len(got), metav1validation.FieldManagerMaxLength)
	}
}
