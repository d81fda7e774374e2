package kmsmigration_test

import (
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kmsguard/kmsguard/pkg/kmsmigration"
)

// ExampleProgress reads one migration as guard.KMSMigrator.Progress() reports it while it runs, pauses and
// finishes. The migrator and its controllers are built by kmsguard.NewStaticPodControllers (see kmsguard's
// Example); this shows instead the Progress a caller gets back from it: what is counted as done, and why it waits.
func ExampleProgress() {
	started := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	// The KMS rotated the KEK behind write key 2: the migration controller migrates secrets again, to the new KEK id.
	p := kmsmigration.Progress{Resource: schema.GroupResource{Resource: "secrets"}, Total: 50000, Started: started,
		Target: kmsmigration.Target{WriteKey: "2", KEKID: "arn:kek-8"},
		// Objects written concurrently (Conflicts) are under the new key already; undecryptable ones are not done.
		Counts: kmsmigration.Counts{Listed: 41300, Rewritten: 41000, Unchanged: 150, Conflicts: 50, Undecryptable: 3}}
	fmt.Println(p.Target)
	fmt.Println(p)

	// kmsstate no longer shows key 2's plugin healthy on every node: no worker writes until it does.
	p.Paused, p.PauseDetail = kmsmigration.PausedKMSUnhealthy, "node master-1 key 2: connection refused"
	fmt.Println(p)
	fmt.Println("running:", p.Running())

	// It resumed and walked the resource to its end; the 3 undecryptable secrets stay under their old key.
	p.Paused, p.PauseDetail, p.Finished = kmsmigration.NotPaused, "", started.Add(5*time.Minute)
	p.Counts = kmsmigration.Counts{Listed: 50000, Rewritten: 49700, Unchanged: 247, Conflicts: 50, Undecryptable: 3}
	fmt.Println("running:", p.Running())
	fmt.Printf("done %d, handled %d of %d, %.0f objects/s\n", p.Counts.Done(), p.Counts.Handled(), p.Total,
		kmsmigration.Rate(p.Counts.Handled(), p.Finished.Sub(p.Started)))
	// Output:
	// write key 2 at KEK id arn:kek-8
	// secrets 41200/50000 migrated (41000 rewritten, 150 already current, 50 written concurrently, 0 deleted), 3 undecryptable
	// secrets 41200/50000 migrated (41000 rewritten, 150 already current, 50 written concurrently, 0 deleted), 3 undecryptable, paused (PausedKMSUnhealthy: node master-1 key 2: connection refused)
	// running: true
	// running: false
	// done 49997, handled 50000 of 50000, 167 objects/s
}
