package lab

import (
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"

	ectest "github.com/kmsguard/kmsguard/internal/encryptionconfigtest"
)

var t0 = time.Date(2026, 12, 4, 12, 0, 0, 0, time.UTC)

func at(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }

func TestOneAtATime(t *testing.T) {
	scenarios := []struct {
		name         string
		starts       []APIServerStart
		wantRestarts int
		wantLongest  time.Duration
		wantErr      string
	}{
		{name: "first starts are no restarts", starts: []APIServerStart{{Node: "master-0", Up: at(1)}, {Node: "master-1", Up: at(1)}}},
		{
			name: "one node after the other",
			starts: []APIServerStart{
				{Node: "master-0", Down: at(10), Up: at(14)},
				{Node: "master-1", Down: at(20), Up: at(23)},
				{Node: "master-2", Down: at(23), Up: at(30)},
			},
			wantRestarts: 3, wantLongest: 7 * time.Second,
		},
		{
			name: "two down at once",
			starts: []APIServerStart{
				{Node: "master-0", Down: at(10), Up: at(14)},
				{Node: "master-1", Down: at(13), Up: at(16)},
			},
			wantRestarts: 2, wantLongest: 4 * time.Second, wantErr: "master-1 restarted",
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			restarts, longest, err := OneAtATime(s.starts)
			if s.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), s.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, s.wantErr)
				}
				return
			}
			if err != nil || restarts != s.wantRestarts || longest != s.wantLongest {
				t.Errorf("OneAtATime = %d, %s, %v; want %d, %s, nil", restarts, longest, err, s.wantRestarts, s.wantLongest)
			}
		})
	}
}

func TestReadKeyFirst(t *testing.T) {
	secrets := schema.GroupResource{Resource: "secrets"}
	aescbc := ectest.Secrets(ectest.AESCBC("1", ectest.AESKeyA), ectest.Identity())
	read := ectest.Secrets(ectest.AESCBC("1", ectest.AESKeyA), ectest.KMS("2"), ectest.Identity())
	write := ectest.Secrets(ectest.KMS("2"), ectest.AESCBC("1", ectest.AESKeyA), ectest.Identity())
	kms2 := ectest.Secrets(ectest.KMS("2"), ectest.AESCBC("1", ectest.AESKeyA), ectest.Identity())
	read3 := ectest.Secrets(ectest.KMS("2"), ectest.KMS("3"), ectest.Identity())
	write3 := ectest.Secrets(ectest.KMS("3"), ectest.KMS("2"), ectest.Identity())
	scenarios := []struct {
		name   string
		starts []APIServerStart
		// since is when the change was made, in seconds after t0; wantProvider is 2_secrets when empty.
		since                   int
		wantFirst, wantProvider string
		wantErr                 string
	}{
		{
			name: "from a KMS key to another: the new key read everywhere first",
			starts: []APIServerStart{
				{Node: "master-0", Up: at(1), Config: kms2}, {Node: "master-1", Up: at(1), Config: kms2},
				{Node: "master-0", Down: at(10), Up: at(14), Config: read3},
				{Node: "master-1", Down: at(20), Up: at(24), Config: read3},
				{Node: "master-1", Down: at(30), Up: at(34), Config: write3},
				{Node: "master-0", Down: at(40), Up: at(44), Config: write3},
			},
			since: 5, wantFirst: "master-1", wantProvider: "3_secrets",
		},
		{
			name: "from a KMS key to another: a node writes with the new key while another cannot read it",
			starts: []APIServerStart{
				{Node: "master-0", Up: at(1), Config: kms2}, {Node: "master-1", Up: at(1), Config: kms2},
				{Node: "master-0", Down: at(10), Up: at(14), Config: write3},
				{Node: "master-1", Down: at(20), Up: at(24), Config: read3},
			},
			since: 5, wantErr: "master-1 ran with config",
		},
		{
			name: "every node reads before the first writes",
			starts: []APIServerStart{
				{Node: "master-0", Up: at(1), Config: aescbc}, {Node: "master-1", Up: at(1), Config: aescbc},
				{Node: "master-0", Down: at(10), Up: at(14), Config: read},
				{Node: "master-1", Down: at(20), Up: at(24), Config: read},
				{Node: "master-1", Down: at(30), Up: at(34), Config: write},
				{Node: "master-0", Down: at(40), Up: at(44), Config: write},
			},
			wantFirst: "master-1",
		},
		{
			name: "a node writes while another cannot read",
			starts: []APIServerStart{
				{Node: "master-0", Up: at(1), Config: aescbc}, {Node: "master-1", Up: at(1), Config: aescbc},
				{Node: "master-0", Down: at(10), Up: at(14), Config: write},
				{Node: "master-1", Down: at(20), Up: at(24), Config: write},
			},
			wantErr: "master-1 ran with config",
		},
		{
			name: "a node that never started a config before the writer counts as unable to read",
			starts: []APIServerStart{
				{Node: "master-0", Up: at(1), Config: aescbc},
				{Node: "master-0", Down: at(10), Up: at(14), Config: write},
				{Node: "master-1", Down: at(20), Up: at(24), Config: write},
			},
			wantErr: "master-1 ran with config <none>",
		},
		{
			name:    "no writer",
			starts:  []APIServerStart{{Node: "master-0", Up: at(1), Config: read}},
			wantErr: "no apiserver started writing secrets",
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			first, provider, err := ReadKeyFirst(s.starts, secrets, at(s.since))
			if s.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), s.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, s.wantErr)
				}
				return
			}
			wantProvider := s.wantProvider
			if wantProvider == "" {
				wantProvider = "2_secrets"
			}
			if err != nil || first.Node != s.wantFirst || provider != wantProvider {
				t.Errorf("ReadKeyFirst = %s, %q, %v; want %s, %s, nil", first.Node, provider, err, s.wantFirst, wantProvider)
			}
		})
	}
}
