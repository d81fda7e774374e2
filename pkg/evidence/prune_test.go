package evidence_test

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
	"github.com/kmsguard/kmsguard/pkg/evidence"
)

func TestCanDropReadKey(t *testing.T) {
	finished := time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)
	window := 24 * time.Hour
	afterWindow := finished.Add(window)
	identityKey := evidence.ReadKey{Kind: etcdvalue.KindIdentity}
	oldKMSKey := evidence.ReadKey{Kind: etcdvalue.KindKMSv2, Name: "kms", KEKID: "key-1"}
	hkdf := etcdvalue.DEKSourceHKDFSeed

	// migrated is a report, started after the migration, with every object under the write key.
	migrated := func(change func(r *evidence.Report)) *evidence.Report {
		r := &evidence.Report{
			WriteKey: currentKey,
			Started:  finished.Add(time.Minute),
			Resources: []evidence.ResourceReport{
				{Resource: "secrets", Total: 2, UnderWriteKey: 2, Keys: []evidence.KeyCount{{Key: evidence.Key{Kind: etcdvalue.KindKMSv2, Name: "kms", KEKID: "key-2", DEKSourceType: hkdf}, Count: 2, WriteKey: true}}},
				{Resource: "configmaps", APICount: &evidence.APICount{Comparison: evidence.CompareExact}},
			},
		}
		r.Resources[0].APICount = &evidence.APICount{Objects: 2, Comparison: evidence.CompareExact}
		if change != nil {
			change(r)
		}
		return r
	}
	stale := func(resource int, key evidence.Key, n int64) func(r *evidence.Report) {
		return func(r *evidence.Report) {
			rr := &r.Resources[resource]
			rr.Keys = append(rr.Keys, evidence.KeyCount{Key: key, Count: n})
			rr.Total += n
			rr.NotUnderWriteKey += n
			rr.APICount.Objects += n
		}
	}

	scenarios := []struct {
		name              string
		report            *evidence.Report
		key               evidence.ReadKey
		migrationFinished time.Time
		now               time.Time
		want              *evidence.PruneError // nil: may drop
	}{
		{name: "migrated and window passed", report: migrated(nil), key: identityKey, migrationFinished: finished, now: afterWindow},
		{name: "old KMS key id of the write provider", report: migrated(nil), key: oldKMSKey, migrationFinished: finished, now: afterWindow},
		{
			name: "no report", key: identityKey, migrationFinished: finished, now: afterWindow,
			want: &evidence.PruneError{Reason: evidence.PruneNoReport, Key: identityKey},
		},
		{
			name: "the write key itself", report: migrated(nil), key: evidence.ReadKey{Kind: etcdvalue.KindKMSv2, Name: "kms", KEKID: "key-2"}, migrationFinished: finished, now: afterWindow,
			want: &evidence.PruneError{Reason: evidence.PruneIsWriteKey, Key: evidence.ReadKey{Kind: etcdvalue.KindKMSv2, Name: "kms", KEKID: "key-2"}},
		},
		{
			name: "the write key's whole provider", report: migrated(nil), key: evidence.ReadKey{Kind: etcdvalue.KindKMSv2, Name: "kms"}, migrationFinished: finished, now: afterWindow,
			want: &evidence.PruneError{Reason: evidence.PruneIsWriteKey, Key: evidence.ReadKey{Kind: etcdvalue.KindKMSv2, Name: "kms"}},
		},
		{
			name: "migration not finished", report: migrated(nil), key: identityKey, now: afterWindow,
			want: &evidence.PruneError{Reason: evidence.PruneMigrationNotFinished, Key: identityKey},
		},
		{
			name: "objects under the key before any migration finished", key: identityKey, now: afterWindow,
			report: migrated(stale(0, evidence.Key{Kind: etcdvalue.KindIdentity}, 2)),
			want:   &evidence.PruneError{Reason: evidence.PruneObjectsUnderKey, Key: identityKey, Objects: 2, Resources: []string{"secrets"}},
		},
		{
			name: "a report from before the migration finished does not count its objects", key: identityKey, migrationFinished: finished, now: afterWindow,
			report: migrated(func(r *evidence.Report) {
				r.Started = finished.Add(-time.Second)
				stale(0, evidence.Key{Kind: etcdvalue.KindIdentity}, 2)(r)
			}),
			want: &evidence.PruneError{Reason: evidence.PruneReportPredatesMigration, Key: identityKey},
		},
		{
			name: "report from before the migration finished", report: migrated(func(r *evidence.Report) { r.Started = finished.Add(-time.Second) }), key: identityKey, migrationFinished: finished, now: afterWindow,
			want: &evidence.PruneError{Reason: evidence.PruneReportPredatesMigration, Key: identityKey},
		},
		{
			name: "objects under the key in two resources", key: identityKey, migrationFinished: finished, now: afterWindow,
			report: migrated(func(r *evidence.Report) {
				stale(0, evidence.Key{Kind: etcdvalue.KindIdentity}, 3)(r)
				stale(1, evidence.Key{Kind: etcdvalue.KindIdentity}, 4)(r)
			}),
			want: &evidence.PruneError{Reason: evidence.PruneObjectsUnderKey, Key: identityKey, Objects: 7, Resources: []string{"secrets", "configmaps"}},
		},
		{
			name: "objects under another old key do not block", key: identityKey, migrationFinished: finished, now: afterWindow,
			report: migrated(stale(0, evidence.Key{Kind: etcdvalue.KindKMSv2, Name: "kms", KEKID: "key-1", DEKSourceType: hkdf}, 3)),
		},
		{
			name: "a provider read key counts every key id of the provider", key: evidence.ReadKey{Kind: etcdvalue.KindKMSv2, Name: "old-kms"}, migrationFinished: finished, now: afterWindow,
			report: migrated(func(r *evidence.Report) {
				stale(0, evidence.Key{Kind: etcdvalue.KindKMSv2, Name: "old-kms", KEKID: "a", DEKSourceType: hkdf}, 1)(r)
				stale(0, evidence.Key{Kind: etcdvalue.KindKMSv2, Name: "old-kms", KEKID: "b", DEKSourceType: hkdf}, 2)(r)
			}),
			want: &evidence.PruneError{Reason: evidence.PruneObjectsUnderKey, Key: evidence.ReadKey{Kind: etcdvalue.KindKMSv2, Name: "old-kms"}, Objects: 3, Resources: []string{"secrets"}},
		},
		{
			name: "corrupt values of the key's kind", key: identityKey, migrationFinished: finished, now: afterWindow,
			report: migrated(func(r *evidence.Report) {
				r.Resources[1].Corrupt, r.Resources[1].CorruptByKind = 1, map[string]int64{"unknown": 1}
			}),
			want: &evidence.PruneError{Reason: evidence.PruneUnparsableValues, Key: identityKey, Objects: 1, Resources: []string{"configmaps"}},
		},
		{
			name: "corrupt values of another kind do not block", key: identityKey, migrationFinished: finished, now: afterWindow,
			report: migrated(func(r *evidence.Report) {
				r.Resources[1].Corrupt, r.Resources[1].CorruptByKind = 1, map[string]int64{"aescbc": 1}
			}),
		},
		{
			name: "no API count: the scan may have looked in the wrong place", key: identityKey, migrationFinished: finished, now: afterWindow,
			report: migrated(func(r *evidence.Report) { r.Resources[0].APICount = nil }),
			want: &evidence.PruneError{Reason: evidence.PruneCountNotConfirmed, Key: identityKey, Resources: []string{"secrets"},
				Detail: "secrets: the API's object count is missing: 2 keys under  prove nothing about the objects elsewhere"},
		},
		{
			name: "no keys under the prefix while the API lists objects", key: identityKey, migrationFinished: finished, now: afterWindow,
			report: migrated(func(r *evidence.Report) {
				r.Resources[1].Prefix, r.Resources[1].APICount.Objects = "/registry/configmaps/", 7
			}),
			want: &evidence.PruneError{Reason: evidence.PruneCountNotConfirmed, Key: identityKey, Resources: []string{"configmaps"},
				Detail: "configmaps: no keys under /registry/configmaps/, but the API lists 7 objects: is the etcd prefix right?"},
		},
		{
			name: "fewer keys than the API lists objects", key: identityKey, migrationFinished: finished, now: afterWindow,
			report: migrated(func(r *evidence.Report) { r.Resources[0].APICount.Objects = 5 }),
			want: &evidence.PruneError{Reason: evidence.PruneCountNotConfirmed, Key: identityKey, Resources: []string{"secrets"},
				Detail: "secrets: etcd holds 2 keys under , the API lists 5 objects (both at revision 0)"},
		},
		{
			name: "rollback window not passed", report: migrated(nil), key: identityKey, migrationFinished: finished, now: afterWindow.Add(-time.Second),
			want: &evidence.PruneError{Reason: evidence.PruneRollbackWindow, Key: identityKey, Until: afterWindow},
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			err := evidence.CanDropReadKey(s.report, s.key, s.migrationFinished, window, s.now)
			if s.want == nil {
				if err != nil {
					t.Fatalf("got %v, want the key droppable", err)
				}
				return
			}
			var got *evidence.PruneError
			if !errors.As(err, &got) {
				t.Fatalf("got %v, want a *PruneError", err)
			}
			if diff := cmp.Diff(s.want, got); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if got.Error() == "" {
				t.Error("empty error message")
			}
		})
	}
}
