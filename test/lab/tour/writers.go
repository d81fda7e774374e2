package tour

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// Writers keep writing Secrets through the lab's failover client while the stories run, as applications do,
// and remember what the apiservers acknowledged, so that a lost write is noticed: every acknowledged value must
// read back, unless its object is listed as lost.
type Writers struct {
	client    kubernetes.Interface
	namespace string

	mu sync.Mutex
	// acked is each Secret's last acknowledged value; unsure are the values sent after it whose request
	// failed: the apiserver may have stored one of them (a timeout after the write), so they read back too.
	acked  map[string]string
	unsure map[string][]string
	counts Counts
	// lastError is the last write error, as the apiserver (or the client) said it.
	lastError string
}

// Counts are write attempts and failures.
type Counts struct {
	Attempted int `json:"attempted"`
	Failed    int `json:"failed"`
}

// Sub is c minus an earlier snapshot.
func (c Counts) Sub(before Counts) Counts {
	return Counts{Attempted: c.Attempted - before.Attempted, Failed: c.Failed - before.Failed}
}

// NewWriters returns writers of Secrets in namespace.
func NewWriters(client kubernetes.Interface, namespace string) *Writers {
	return &Writers{client: client, namespace: namespace, acked: map[string]string{}, unsure: map[string][]string{}}
}

// Seed creates n Secrets seed-0000... and records them as acknowledged.
func (w *Writers) Seed(ctx context.Context, n int) error {
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("seed-%04d", i)
		if err := w.write(ctx, name, "seed value "+strconv.Itoa(i)); err != nil {
			return fmt.Errorf("seeding %s: %w", name, err)
		}
	}
	return nil
}

// Run starts count writers that each write one of their own Secrets every interval, until ctx is done. It
// returns when they have stopped.
func (w *Writers) Run(ctx context.Context, count int, interval time.Duration) {
	var wg sync.WaitGroup
	for i := 0; i < count; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ticker := time.NewTicker(interval)
			defer ticker.Stop()
			for seq := 0; ; seq++ {
				select {
				case <-ctx.Done():
					return
				case <-ticker.C:
				}
				// Each writer cycles through 10 Secrets of its own: creates first, updates after.
				name := fmt.Sprintf("live-%d-%d", i, seq%10)
				writeCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
				_ = w.write(writeCtx, name, fmt.Sprintf("writer %d write %d", i, seq))
				cancel()
			}
		}()
	}
	wg.Wait()
}

// write creates or updates name with value and records the outcome. The value is recorded as possibly stored
// before the request is sent, so that a Check running meanwhile accepts it.
func (w *Writers) write(ctx context.Context, name, value string) error {
	w.mu.Lock()
	w.unsure[name] = append(w.unsure[name], value)
	w.mu.Unlock()
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: w.namespace}, Data: map[string][]byte{"value": []byte(value)}}
	_, err := w.client.CoreV1().Secrets(w.namespace).Update(ctx, secret, metav1.UpdateOptions{})
	if apierrors.IsNotFound(err) {
		_, err = w.client.CoreV1().Secrets(w.namespace).Create(ctx, secret, metav1.CreateOptions{})
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if err != nil && ctx.Err() != nil && w.stopped(ctx) {
		// The tour stopped the writers: not a failure of the cluster. The value may still have been stored,
		// and stays acceptable.
		return err
	}
	w.counts.Attempted++
	if err != nil {
		w.counts.Failed++
		w.lastError = err.Error()
		return err
	}
	// Each name has one writer, which waits for each request: after this answer, an earlier value cannot be
	// stored any more.
	w.acked[name] = value
	delete(w.unsure, name)
	return nil
}

// stopped says whether ctx ended because the tour stopped the writers rather than by the write's own timeout.
func (w *Writers) stopped(ctx context.Context) bool {
	deadline, ok := ctx.Deadline()
	return !ok || time.Now().Before(deadline)
}

// Forget drops what was acknowledged for names, Secrets a story lost for good: from now on only what is written
// to them again must read back.
func (w *Writers) Forget(names []string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, name := range names {
		delete(w.acked, name)
		delete(w.unsure, name)
	}
}

// Counts returns the writes attempted and failed so far, and the last error.
func (w *Writers) Counts() (Counts, string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.counts, w.lastError
}

// Check reads every Secret with an acknowledged value back and returns the ones that hold neither it nor a
// value that may have been stored since (sent and not answered, or answered with an error); those forgotten as
// lost have no acknowledged value. Writers keep writing meanwhile: what they send until the read is done is
// acceptable too. It returns how many it checked.
func (w *Writers) Check(ctx context.Context) (checked int, problems []string, err error) {
	before := w.snapshot()
	list, err := w.client.CoreV1().Secrets(w.namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return 0, nil, fmt.Errorf("listing the written Secrets: %w", err)
	}
	after := w.snapshot()
	stored := map[string]string{}
	for _, s := range list.Items {
		stored[s.Name] = string(s.Data["value"])
	}
	names := make([]string, 0, len(before))
	for name := range before {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if before[name].acked == "" {
			continue
		}
		checked++
		got, ok := stored[name]
		switch {
		case !ok:
			problems = append(problems, fmt.Sprintf("secret %s/%s is gone; %q was acknowledged", w.namespace, name, before[name].acked))
		case !before[name].accepts(got) && !after[name].accepts(got):
			problems = append(problems, fmt.Sprintf("secret %s/%s reads %q; %q was acknowledged", w.namespace, name, got, before[name].acked))
		}
	}
	return checked, problems, nil
}

// written is what one Secret may hold: its acknowledged value, or one sent since.
type written struct {
	acked  string
	unsure []string
}

func (v written) accepts(value string) bool { return value == v.acked || contains(v.unsure, value) }

func (w *Writers) snapshot() map[string]written {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make(map[string]written, len(w.acked)+len(w.unsure))
	for name, v := range w.acked {
		out[name] = written{acked: v}
	}
	for name, values := range w.unsure {
		v := out[name]
		v.unsure = append([]string(nil), values...)
		out[name] = v
	}
	return out
}

func contains(values []string, v string) bool {
	for _, x := range values {
		if x == v {
			return true
		}
	}
	return false
}
