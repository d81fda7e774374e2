package operatorstate

import (
	"context"
	"maps"
	"testing"
)

// TestFakeResourceApplies: the fake answers as a forced server-side apply does, whatever the order of its maps:
// the last applier of an annotation owns it, and a manager's next apply replaces all it applied before.
func TestFakeResourceApplies(t *testing.T) {
	ctx := context.Background()
	steps := []struct {
		manager     string
		annotations map[string]string
		want        map[string]string
	}{
		{manager: "an admin", annotations: map[string]string{"memory": "corrupt", "note": "mine"},
			want: map[string]string{"memory": "corrupt", "note": "mine"}},
		{manager: "kmsstate", annotations: map[string]string{"memory": "good"},
			want: map[string]string{"memory": "good", "note": "mine"}},
		{manager: "kmsstate", annotations: map[string]string{"other": "x"},
			want: map[string]string{"other": "x", "note": "mine"}},
	}
	// Many rounds: a merge in map order would pass some of them.
	for round := range 50 {
		f := NewFakeResource()
		for i, s := range steps {
			if err := f.ApplyAnnotations(ctx, s.manager, s.annotations); err != nil {
				t.Fatal(err)
			}
			got, err := f.Annotations(ctx)
			if err != nil || !maps.Equal(got, s.want) {
				t.Fatalf("round %d, step %d (%s): annotations %v, %v; want %v", round, i, s.manager, got, err, s.want)
			}
		}
	}
}
