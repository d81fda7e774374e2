package kmsprecondition

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/sets"
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"

	"github.com/kmsguard/kmsguard/pkg/encryptionconfig"
	"github.com/kmsguard/kmsguard/pkg/evidence"
)

// DefaultRollbackWindow is how long a read key stays in the config after the migration away from it finished:
// a day in which the previous revision, which may write with it, can still be rolled back to without making the
// values it writes unreadable, and in which a problem with the new write key (a KMS key that turns out to be
// unusable) can be met by going back to the old one.
const DefaultRollbackWindow = 24 * time.Hour

// ReadKeyEvidence is the raw etcd evidence the gate judges a dropped read key by: the latest census report of a
// resource and when the latest migration of it to its write key finished. evidence's CensusController
// implements it from its scans. A nil report or a zero time is "no evidence", and a drop is then refused.
type ReadKeyEvidence interface {
	ReadKeyEvidence(ctx context.Context, gr schema.GroupResource) (report *evidence.Report, migrationFinished time.Time, err error)
}

// MigrationEvidence is the fallback evidence of the gate where no etcd access is configured (Options.Census
// nil): what the migration controller recorded, not what etcd holds. It answers whether every object of a
// resource that may have been written under a library-go key has since been rewritten under a newer key, and
// when that migration finished. evidence.KeySecretMigrations implements it from library-go's key secrets.
type MigrationEvidence interface {
	Rewritten(ctx context.Context, resource schema.GroupResource, keyID string) (evidence.MigrationRecord, error)
}

// droppedReadKeys lists the read keys the deployed config has for a resource and the candidate has not, for every
// resource string of either config, each resolved the way kube-apiserver resolves it (its own entry, *.<group>,
// *.*, else identity). Both directions matter: a resource that the candidate lists on its own loses the keys of
// the wildcard that covered it, and a resource that was stored in plaintext loses identity when the candidate
// encrypts it without an identity provider.
func droppedReadKeys(candidate, deployed *apiserverv1.EncryptionConfiguration) []DroppedProvider {
	resources := sets.New[string]()
	for _, config := range []*apiserverv1.EncryptionConfiguration{deployed, candidate} {
		for _, r := range encryptionconfig.ReadKeys(config) {
			resources.Insert(r.Resource)
		}
	}
	var dropped []DroppedProvider
	for _, resource := range sets.List(resources) {
		gr := schema.ParseGroupResource(resource)
		had, _ := encryptionconfig.KeysFor(deployed, gr)
		want, _ := encryptionconfig.KeysFor(candidate, gr)
		seen := map[encryptionconfig.StorageKey]bool{}
		for _, k := range had.Keys {
			id := encryptionconfig.StorageKey{Kind: k.Kind, Name: k.Name}
			if want.Has(k) || seen[id] {
				continue
			}
			seen[id] = true
			dropped = append(dropped, DroppedProvider{Resource: resource, Kind: k.Kind, Name: k.Name, KeyID: k.KeyID()})
		}
	}
	sort.SliceStable(dropped, func(i, j int) bool {
		if dropped[i].Resource != dropped[j].Resource {
			return dropped[i].Resource < dropped[j].Resource
		}
		return dropped[i].readKey().String() < dropped[j].readKey().String()
	})
	return dropped
}

// checkDropped judges every dropped read key by the evidence: raw etcd evidence through the one pruning rule,
// evidence.CanDropReadKey, where Options.Census is set, else library-go's migration annotations. It returns the
// blocking errors (values still under a key or no evidence; a rollback window still open) and the keys that
// may go, each with the evidence that says so.
func (g *Gate) checkDropped(ctx context.Context, dropped []DroppedProvider, now time.Time) ([]BlockingError, []DroppedProvider, error) {
	var inUse, inWindow, allowed []DroppedProvider
	var until time.Time
	for _, d := range dropped {
		var (
			windowEnd time.Time
			refused   bool
			err       error
		)
		switch {
		case g.options.Census != nil:
			d.Evidence, windowEnd, refused, err = g.censusVerdict(ctx, &d, now)
		case g.options.Migration != nil:
			d.Evidence, windowEnd, refused, err = g.annotationVerdict(ctx, &d, now)
		default:
			d.cause, d.Evidence, refused = dropNoSource, "no evidence source is configured (Options.Census and Options.Migration are both nil)", true
		}
		if err != nil {
			return nil, nil, err
		}
		switch {
		case refused:
			inUse = append(inUse, d)
		case !windowEnd.IsZero():
			inWindow = append(inWindow, d)
			if windowEnd.After(until) {
				until = windowEnd
			}
		default:
			allowed = append(allowed, d)
		}
	}
	var blocking []BlockingError
	if len(inUse) > 0 {
		blocking = append(blocking, &ReadKeyStillInUseError{Dropped: inUse})
	}
	if len(inWindow) > 0 {
		blocking = append(blocking, &RollbackWindowError{Dropped: inWindow, Until: until})
	}
	return blocking, allowed, nil
}

// censusVerdict applies evidence.CanDropReadKey to the census report of the dropped key's resource. windowEnd is
// set when only the rollback window stands in the way.
func (g *Gate) censusVerdict(ctx context.Context, d *DroppedProvider, now time.Time) (detail string, windowEnd time.Time, refused bool, err error) {
	gr := schema.ParseGroupResource(d.Resource)
	report, finished, err := g.options.Census.ReadKeyEvidence(ctx, gr)
	if err != nil {
		return "", time.Time{}, false, fmt.Errorf("reading the etcd evidence for %s: %w", d.Resource, err)
	}
	source := "evidence: raw etcd census, no report of " + d.Resource + " yet"
	if report != nil {
		source = fmt.Sprintf("evidence: raw etcd census of %s started %s", d.Resource, report.Started.UTC().Format(time.RFC3339))
	}
	switch {
	case finished.IsZero():
		source += ", no finished migration known"
	case report != nil:
		source += ", migration to " + report.WriteKey.String() + " finished " + finished.UTC().Format(time.RFC3339)
	default:
		source += ", migration finished " + finished.UTC().Format(time.RFC3339)
	}
	if encryptionconfig.IsWildcard(d.Resource) {
		source += "; the census scans resources, not wildcards: list the resources " + d.Resource + " covers explicitly"
	}
	pruneErr := evidence.CanDropReadKey(report, d.readKey(), finished, g.options.RollbackWindow, now)
	var pe *evidence.PruneError
	if errors.As(pruneErr, &pe) {
		d.cause, d.refusal = dropCause(pe.Reason), pe
	}
	switch {
	case pruneErr == nil:
		d.cause = dropCensusPassed
		return fmt.Sprintf("no value stored under it and the rollback window of %s has passed (%s)", g.options.RollbackWindow, source), time.Time{}, false, nil
	case pe != nil && pe.Reason == evidence.PruneRollbackWindow:
		return fmt.Sprintf("no value stored under it, but the rollback window of %s lasts until %s (%s)", g.options.RollbackWindow, pe.Until.UTC().Format(time.RFC3339), source), pe.Until, false, nil
	default:
		why, _ := strings.CutPrefix(pruneErr.Error(), fmt.Sprintf("read key %s cannot be dropped: ", d.readKey()))
		return fmt.Sprintf("%s (%s)", why, source), time.Time{}, true, nil
	}
}

// annotationSource names the fallback evidence in every message that relies on it.
const annotationSource = "evidence: library-go's migrated-resources annotations, as no etcd access is configured"

// annotationVerdict is the fallback without etcd access: library-go's record that the resource was migrated to a
// newer key, and the rollback window from its migrated-timestamp. It never sees etcd, which the message says.
func (g *Gate) annotationVerdict(ctx context.Context, d *DroppedProvider, now time.Time) (detail string, windowEnd time.Time, refused bool, err error) {
	if d.KeyID == "" {
		d.cause = dropNoKeyID
		return fmt.Sprintf("library-go records no migration away from %s (%s)", d.readKey(), annotationSource), time.Time{}, true, nil
	}
	record, err := g.options.Migration.Rewritten(ctx, schema.ParseGroupResource(d.Resource), d.KeyID)
	if err != nil {
		return "", time.Time{}, false, fmt.Errorf("reading the migration evidence for %s key %s: %w", d.Resource, d.KeyID, err)
	}
	switch until := record.Finished.Add(g.options.RollbackWindow); {
	case !record.Rewritten:
		d.cause = dropNotRewritten
		return fmt.Sprintf("%s (%s)", record.Missing, annotationSource), time.Time{}, true, nil
	case record.Finished.IsZero():
		d.cause = dropNoTimestamp
		return fmt.Sprintf("the migration is recorded without a migrated-timestamp, so the rollback window cannot be measured (%s)", annotationSource), time.Time{}, true, nil
	case now.Before(until):
		d.cause = dropAnnotationsWindow
		return fmt.Sprintf("migrated %s, but the rollback window of %s lasts until %s (%s)", record.Finished.UTC().Format(time.RFC3339), g.options.RollbackWindow, until.UTC().Format(time.RFC3339), annotationSource), until, false, nil
	default:
		d.cause = dropAnnotationsPassed
		return fmt.Sprintf("migrated %s and the rollback window of %s has passed (%s)", record.Finished.UTC().Format(time.RFC3339), g.options.RollbackWindow, annotationSource), time.Time{}, false, nil
	}
}
