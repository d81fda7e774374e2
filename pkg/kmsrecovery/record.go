package kmsrecovery

import (
	"context"
	"reflect"
	"time"

	"github.com/kmsguard/kmsguard/pkg/operatorstate"
)

// RecordStoreName names the Record's store on the operator resource: annotation
// operatorstate.AnnotationPrefix+RecordStoreName.
const RecordStoreName = "recovery"

// maxRecordConsentIDs bounds the consent ids a Record lists (the condition names them too, and a consent may
// name any id Findings.ConsentIDs has).
const maxRecordConsentIDs = 20

// Record is what the Controller keeps of its latest findings and its last deletion out of the KMS's reach, on the
// operator resource (annotation kmsguard.openshift.io/recovery, operatorstate): the ConfigMap ConfigMapName with
// the whole list is encrypted by the KMS, and may be among the objects a destroyed KEK took. It is the lasting
// record of what was lost: counts, consent ids and the last deletion, never an object's data. Once openshift/api
// has a typed field for it, this file is the one that changes.
type Record struct {
	// ChangedAt is when the findings or the deletion last changed.
	ChangedAt time.Time `json:"changedAt"`
	// Undecryptable counts the undecryptable objects the latest scan found.
	Undecryptable int `json:"undecryptable"`
	// ConsentIDs are the ids a consent may name, with the objects under each, the first maxRecordConsentIDs.
	ConsentIDs []ConsentCount `json:"consentIDs,omitempty"`
	// LastDeletion is the last deletion run.
	LastDeletion *DeletionSummary `json:"lastDeletion,omitempty"`
}

// ConsentCount is the number of undecryptable objects under one consent id.
type ConsentCount struct {
	ConsentID string `json:"consentID"`
	Count     int    `json:"count"`
}

// DeletionSummary counts the outcomes of a deletion run.
type DeletionSummary struct {
	ConsentID string    `json:"consentID"`
	DryRun    bool      `json:"dryRun,omitempty"`
	Time      time.Time `json:"time"`
	Deleted   int       `json:"deleted"`
	Skipped   int       `json:"skipped"`
	Failed    int       `json:"failed"`
}

// recordOf is the Record of findings and deletion, as of now.
func recordOf(findings *Findings, deletion *DeletionReport, now time.Time) Record {
	r := Record{ChangedAt: now, Undecryptable: findings.Count()}
	for _, id := range findings.ConsentIDs() {
		if len(r.ConsentIDs) == maxRecordConsentIDs {
			break
		}
		r.ConsentIDs = append(r.ConsentIDs, ConsentCount{ConsentID: id, Count: len(findings.Under(id))})
	}
	if deletion != nil {
		deleted, failed := deletion.Count(OutcomeDeleted)+deletion.Count(OutcomeWouldDelete), deletion.Count(OutcomeFailed)
		r.LastDeletion = &DeletionSummary{ConsentID: deletion.ConsentID, DryRun: deletion.DryRun, Time: deletion.Time,
			Deleted: deleted, Failed: failed, Skipped: len(deletion.Results) - deleted - failed}
	}
	return r
}

// sameRecord compares two Records without ChangedAt.
func sameRecord(a, b Record) bool {
	a.ChangedAt, b.ChangedAt = time.Time{}, time.Time{}
	return reflect.DeepEqual(a, b)
}

// RecordStore keeps the Record on the operator resource.
type RecordStore struct {
	store *operatorstate.Store[Record]
}

// NewRecordStore keeps the Record on resource.
func NewRecordStore(resource operatorstate.Resource) *RecordStore {
	return &RecordStore{store: operatorstate.NewStore[Record](resource, RecordStoreName)}
}

// Load returns the stored Record, and false when there is none.
func (s *RecordStore) Load(ctx context.Context) (Record, bool, error) { return s.store.Load(ctx) }

// Save stores r.
func (s *RecordStore) Save(ctx context.Context, r Record) error { return s.store.Save(ctx, r) }
