package required

import "testing"

func TestOptions(t *testing.T) {
	scenarios := []struct {
		name    string
		missing map[string]bool
		want    string
	}{
		{name: "nothing missing", missing: map[string]bool{"Keys": false, "Nodes": false}},
		{name: "no options at all", missing: nil},
		{name: "one missing", missing: map[string]bool{"Keys": true, "Nodes": false}, want: "kmsstate: missing required options: Keys"},
		{name: "several, sorted", missing: map[string]bool{"Recorder": true, "Keys": true, "Nodes": true}, want: "kmsstate: missing required options: Keys, Nodes, Recorder"},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			err := Options("kmsstate", s.missing)
			switch {
			case s.want == "" && err != nil:
				t.Fatalf("unexpected error %v", err)
			case s.want != "" && (err == nil || err.Error() != s.want):
				t.Fatalf("got %v, want %q", err, s.want)
			}
		})
	}
}
