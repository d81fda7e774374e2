package kmsmigration

import (
	"context"
	"fmt"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/pager"
	"k8s.io/client-go/util/flowcontrol"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	"github.com/kmsguard/kmsguard/internal/conditions"
	"github.com/kmsguard/kmsguard/internal/pagedlist"
)

// run is one migration of one resource to one target.
type run struct {
	opts   Options
	gr     schema.GroupResource
	client dynamic.NamespaceableResourceInterface
	// raw lists and rewrites in protobuf when the resource is built in and Options.RESTConfig is set; nil
	// means client.
	raw        *rawClient
	namespaced bool
	latch      *pauseLatch
	health     healthFunc // kmsstate's verdict on the write key (writeKeyHealth); nil never pauses
	inFlight   *latencyLimiter
	rate       flowcontrol.RateLimiter
	metrics    *componentMetrics

	lock sync.Mutex
	// cp is the committed progress: what Checkpoints get.
	cp Checkpoint
	// pages are the listed pages not yet committed, oldest first; the
	// dispatcher hands out items of pages[dispatching].
	pages       []*page
	dispatching int
	// fetched counts every object listed, committed or not, for Total.
	fetched int64
	// pendingUnreadable are keys the lister stepped over while fetching the
	// next page; they belong to that page.
	pendingUnreadable []string
	// failure is the first panic recovered in one of the run's goroutines;
	// it ends the run and is its result.
	failure error
}

// fail records the first failure of a goroutine and stops the run.
func (r *run) fail(cancel context.CancelFunc) func(error) {
	return func(err error) {
		r.lock.Lock()
		if r.failure == nil {
			r.failure = fmt.Errorf("migrating %s: %w", r.gr, err)
		}
		r.lock.Unlock()
		cancel()
	}
}

func (r *run) failed() error {
	r.lock.Lock()
	defer r.lock.Unlock()
	return r.failure
}

// page is one LIST page on its way through the workers.
type page struct {
	// token fetches this page again; next fetches the one after it.
	token, next           string
	items                 int
	dispatched            int
	settled               int
	counts                Counts
	undecryptable, failed []string
}

// outcome of rewriting one object.
type outcome int

const (
	outcomeRewritten outcome = iota
	outcomeUnchanged
	outcomeConflict
	outcomeGone
	outcomeFailed
	outcomeUndecryptable
	// outcomeAborted: the migration was stopped before the object was
	// settled; its page stays uncommitted and is listed again on resume.
	outcomeAborted
)

type work struct {
	obj  object
	page *page
}

// object is a listed object: *unstructured.Unstructured from the dynamic
// client, or *rawObject from the protobuf path (raw.go).
type object interface {
	runtime.Object
	GetNamespace() string
	GetName() string
	GetResourceVersion() string
}

func (r *run) execute(parent context.Context) error {
	ctx, cancel := context.WithCancel(parent)
	// The background goroutines end before the result is read, so that no
	// periodic checkpoint can land after the final one and a panic in one
	// of them is part of the result even when the workers finished first.
	var background sync.WaitGroup
	stopBackground := func() {
		cancel()
		background.Wait()
	}
	defer stopBackground()
	// Health is read once before the first LIST, so that a migration
	// started while the KMS is down sends nothing; watchHealth reads it
	// again every interval.
	if r.health != nil {
		r.latch.setHealth(r.health(ctx))
	}
	// A panic in any goroutine of the run ends the run with it as the
	// result, instead of ending the operator (utilruntime.HandleCrash would
	// re-panic); library-go's migration controller then reports the failed
	// migration, and so does KMSMigrationDegraded.
	fail := r.fail(cancel)
	background.Add(2)
	go func() {
		defer background.Done()
		defer conditions.RecoverAs(fail)
		r.latch.watchHealth(ctx, r.health, r.opts.HealthInterval)
	}()
	go func() {
		defer background.Done()
		defer conditions.RecoverAs(fail)
		r.checkpointEvery(ctx)
	}()

	queue := make(chan work, r.opts.Concurrency)
	var workers sync.WaitGroup
	for i := 0; i < r.opts.Concurrency; i++ {
		workers.Add(1)
		go func() {
			defer workers.Done()
			defer conditions.RecoverAs(fail)
			for w := range queue {
				r.settle(w.page, w.obj, r.rewrite(ctx, w.obj))
			}
		}()
	}

	listErr := r.list(ctx, queue)
	close(queue)
	workers.Wait()
	stopBackground()
	if err := r.failed(); err != nil {
		return err
	}
	if listErr != nil {
		return listErr
	}
	if err := parent.Err(); err != nil {
		return err
	}
	r.lock.Lock()
	defer r.lock.Unlock()
	r.cp.Continue = ""
	return resultError(r.gr, r.cp)
}

// list walks the resource from the checkpoint's continue token and hands
// every object to the workers, one page listed ahead.
func (r *run) list(ctx context.Context, queue chan<- work) error {
	observer := pagedlist.Observer{
		Unreadable: func(keys []string) {
			r.lock.Lock()
			defer r.lock.Unlock()
			r.pendingUnreadable = append(r.pendingUnreadable, keys...)
		},
		Expired: func() {
			klog.V(2).Infof("kmsmigration: %s: continue token expired, resuming after the last key listed", r.gr)
		},
	}
	inner := pagedlist.PageFunc(r.listPage, r.namespaced, observer)
	if r.raw != nil {
		inner = pagedlist.PageFuncOf(r.listRawPage, r.namespaced, observer, func(next string) *rawList {
			return &rawList{ListMeta: metav1.ListMeta{Continue: next}}
		})
	}
	// The pager LISTs in a goroutine of its own that it does not wait for
	// when the migration stops. A LIST still in flight then must neither
	// add a page after the final checkpoint nor outlive execute.
	var listing sync.WaitGroup
	stopped := false
	defer func() {
		r.lock.Lock()
		stopped = true
		r.lock.Unlock()
		listing.Wait()
	}()
	p := pager.New(func(ctx context.Context, opts metav1.ListOptions) (_ runtime.Object, err error) {
		// The pager LISTs from a goroutine of its own: a panic there becomes
		// the LIST's error.
		defer conditions.Recover(&err)
		r.lock.Lock()
		if stopped {
			r.lock.Unlock()
			return nil, context.Canceled
		}
		listing.Add(1)
		r.lock.Unlock()
		defer listing.Done()
		list, err := inner(ctx, opts)
		if err != nil {
			return nil, err
		}
		listMeta, err := meta.ListAccessor(list)
		if err != nil {
			return nil, fmt.Errorf("listing %s returned %T: %w", r.gr, list, err)
		}
		r.addPage(opts.Continue, listMeta, meta.LenList(list))
		return list, nil
	})
	p.PageSize = r.opts.PageSize
	// One page ahead keeps the workers busy while the next LIST runs; more
	// would only hold more objects in memory. The pager's goroutine holds
	// the page it listed until the workers' page is dispatched, so that page
	// is the one ahead: a buffer of 1 would hold a third page (the Secrets
	// benchmark's median live heap fell from 2.7 to 2.1 MiB without it, at
	// the same objects/s).
	p.PageBufferSize = 0
	// A full relist would hold the whole resource in memory; pagedlist
	// follows the 410's continue token instead.
	p.FullListIfExpired = false

	r.lock.Lock()
	start := r.cp.Continue
	r.lock.Unlock()
	return p.EachListItem(ctx, metav1.ListOptions{Continue: start}, func(obj runtime.Object) error {
		o, ok := obj.(object)
		if !ok {
			return fmt.Errorf("listing %s returned an item of type %T", r.gr, obj)
		}
		w := work{obj: o, page: r.dispatch()}
		select {
		case queue <- w:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	})
}

// listPage lists one page, waiting while the migration is paused and
// retrying transient errors like a rewrite does, so that one failed LIST
// does not end a long migration (library-go would prune it and start over).
// 410 Expired and StorageReadError go to pagedlist, which handles them.
func (r *run) listPage(ctx context.Context, opts metav1.ListOptions) (*unstructured.UnstructuredList, error) {
	var list *unstructured.UnstructuredList
	err := r.retryList(ctx, func(ctx context.Context) (err error) {
		list, err = r.client.List(ctx, opts)
		return err
	})
	return list, err
}

// listRawPage is listPage on the protobuf path.
func (r *run) listRawPage(ctx context.Context, opts metav1.ListOptions) (*rawList, error) {
	var list *rawList
	err := r.retryList(ctx, func(ctx context.Context) (err error) {
		list, err = r.raw.list(ctx, opts)
		return err
	})
	return list, err
}

// retryList calls list until it succeeds or fails for good (see listPage).
func (r *run) retryList(ctx context.Context, list func(context.Context) error) error {
	for attempt := 0; ; {
		if err := r.latch.wait(ctx); err != nil {
			return err
		}
		err := list(ctx)
		if err == nil || ctx.Err() != nil || permanent(err) ||
			apierrors.IsResourceExpired(err) || apierrors.IsGone(err) || apierrors.IsStoreReadError(err) {
			return err
		}
		if seconds, ok := apierrors.SuggestsClientDelay(err); ok && apierrors.IsTooManyRequests(err) {
			r.latch.retryAfter(time.Duration(max(seconds, 1)) * time.Second)
			continue
		}
		if r.latch.recheckHealth(ctx, r.health) != nil {
			continue
		}
		r.latch.transientError(err)
		attempt++
		if attempt > r.opts.MaxRetries {
			return fmt.Errorf("listing %s failed %d times: %w", r.gr, attempt, err)
		}
		if err := sleep(ctx, r.opts.Clock, retryDelay(attempt)); err != nil {
			return err
		}
	}
}

func (r *run) addPage(token string, list metav1.ListInterface, items int) {
	r.lock.Lock()
	defer r.lock.Unlock()
	pg := &page{token: token, next: list.GetContinue(), items: items}
	pg.undecryptable, r.pendingUnreadable = r.pendingUnreadable, nil
	pg.counts.Undecryptable = int64(len(pg.undecryptable))
	for range pg.undecryptable {
		r.metrics.observe(r.gr, outcomeUndecryptable)
	}
	r.pages = append(r.pages, pg)
	// Objects stepped over as unreadable belong to the resource too.
	r.fetched += int64(items + len(pg.undecryptable))
	r.cp.Total = 0
	if remaining := list.GetRemainingItemCount(); remaining != nil {
		r.cp.Total = r.fetched + *remaining
	} else if pg.next == "" {
		r.cp.Total = r.fetched
	}
	// Pages without items (all unreadable) are settled as soon as listed.
	r.commitLocked()
}

// dispatch returns the page the next listed item belongs to. Items arrive
// in list order, so it is the first page with items not yet handed out.
func (r *run) dispatch() *page {
	r.lock.Lock()
	defer r.lock.Unlock()
	for r.dispatching < len(r.pages) && r.pages[r.dispatching].dispatched == r.pages[r.dispatching].items {
		r.dispatching++
	}
	pg := r.pages[r.dispatching]
	pg.dispatched++
	pg.counts.Listed++
	return pg
}

func (r *run) settle(pg *page, obj object, o outcome) {
	if o == outcomeAborted {
		return
	}
	r.metrics.observe(r.gr, o)
	r.lock.Lock()
	defer r.lock.Unlock()
	pg.settled++
	key := obj.GetNamespace() + "/" + obj.GetName()
	switch o {
	case outcomeRewritten:
		pg.counts.Rewritten++
	case outcomeUnchanged:
		pg.counts.Unchanged++
	case outcomeConflict:
		pg.counts.Conflicts++
	case outcomeGone:
		pg.counts.Gone++
	case outcomeFailed:
		pg.counts.Failed++
		pg.failed = append(pg.failed, key)
	case outcomeUndecryptable:
		pg.counts.Undecryptable++
		pg.undecryptable = append(pg.undecryptable, key)
	}
	r.commitLocked()
}

// commitLocked folds every leading page whose objects are all settled into
// the checkpoint, so that Counts and Continue always describe the same
// objects.
func (r *run) commitLocked() {
	for len(r.pages) > 0 && r.pages[0].settled == r.pages[0].items {
		pg := r.pages[0]
		r.cp.Counts.add(pg.counts)
		r.cp.Continue = pg.next
		if pg.next == "" {
			r.cp.ListedAll = true
		}
		r.cp.UndecryptableKeys = appendBounded(r.cp.UndecryptableKeys, pg.undecryptable, r.opts.MaxListedKeys)
		r.cp.FailedKeys = appendBounded(r.cp.FailedKeys, pg.failed, r.opts.MaxListedKeys)
		r.pages[0] = nil
		r.pages = r.pages[1:]
		if r.dispatching > 0 {
			r.dispatching--
		}
	}
}

func appendBounded(dst, src []string, limit int) []string {
	if room := limit - len(dst); room < len(src) {
		src = src[:max(room, 0)]
	}
	return append(dst, src...)
}

// progress returns the committed counts plus those of pages in flight.
func (r *run) progress() (Checkpoint, Counts) {
	r.lock.Lock()
	defer r.lock.Unlock()
	live := r.cp.Counts
	for _, pg := range r.pages {
		live.add(pg.counts)
	}
	cp := r.cp
	cp.UndecryptableKeys = append([]string(nil), r.cp.UndecryptableKeys...)
	cp.FailedKeys = append([]string(nil), r.cp.FailedKeys...)
	return cp, live
}

func (r *run) checkpointEvery(ctx context.Context) {
	ticker := r.opts.Clock.NewTicker(r.opts.CheckpointInterval)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C():
			cp, _ := r.progress()
			if err := r.opts.Checkpoints.Save(ctx, r.gr, &cp); err != nil && ctx.Err() == nil {
				// Only progress is at risk: a restart would redo more work.
				klog.Warningf("kmsmigration: %s: %v", r.gr, err)
			}
		}
	}
}

// rewrite stores obj again, unchanged, with its resourceVersion as
// precondition, so that a concurrent write always wins.
func (r *run) rewrite(ctx context.Context, obj object) outcome {
	for attempt := 0; ; {
		if err := r.latch.wait(ctx); err != nil {
			return outcomeAborted
		}
		if err := r.rate.Wait(ctx); err != nil {
			return outcomeAborted
		}
		if err := r.inFlight.acquire(ctx); err != nil {
			return outcomeAborted
		}
		started := r.opts.Clock.Now()
		putCtx, cancel := context.WithTimeout(ctx, r.opts.RequestTimeout)
		resourceVersion, err := r.put(putCtx, obj)
		cancel()
		latency := r.opts.Clock.Since(started)
		switch {
		case err == nil:
			r.inFlight.release(latency)
			if resourceVersion == obj.GetResourceVersion() {
				return outcomeUnchanged
			}
			return outcomeRewritten
		case apierrors.IsConflict(err):
			r.inFlight.release(latency)
			return outcomeConflict
		case apierrors.IsNotFound(err):
			r.inFlight.release(latency)
			return outcomeGone
		}
		r.inFlight.release(0)
		if ctx.Err() != nil {
			return outcomeAborted
		}
		if apierrors.IsStoreReadError(err) {
			return outcomeUndecryptable
		}
		if seconds, ok := apierrors.SuggestsClientDelay(err); ok && apierrors.IsTooManyRequests(err) {
			// Throttled, not failing: wait as asked and try again
			// without spending a retry.
			r.latch.retryAfter(time.Duration(max(seconds, 1)) * time.Second)
			continue
		}
		if permanent(err) {
			klog.Warningf("kmsmigration: %s %s/%s cannot be rewritten: %v", r.gr, obj.GetNamespace(), obj.GetName(), err)
			return outcomeFailed
		}
		if r.latch.recheckHealth(ctx, r.health) != nil {
			// The KMS is down: the error is not this object's, so it
			// costs no retry; the pause latch holds every worker until the KMS
			// is back.
			continue
		}
		r.latch.transientError(err)
		attempt++
		if attempt > r.opts.MaxRetries {
			klog.Warningf("kmsmigration: %s %s/%s failed %d times, giving up: %v", r.gr, obj.GetNamespace(), obj.GetName(), attempt, err)
			return outcomeFailed
		}
		if err := sleep(ctx, r.opts.Clock, retryDelay(attempt)); err != nil {
			return outcomeAborted
		}
	}
}

// put stores obj again, unchanged, through the client that listed it, and
// returns its resourceVersion afterwards.
func (r *run) put(ctx context.Context, obj object) (string, error) {
	switch o := obj.(type) {
	case *rawObject:
		return r.raw.put(ctx, o)
	case *unstructured.Unstructured:
		updated, err := r.client.Namespace(o.GetNamespace()).Update(ctx, o, metav1.UpdateOptions{})
		if err != nil {
			return "", err
		}
		return updated.GetResourceVersion(), nil
	}
	return "", fmt.Errorf("kmsmigration: cannot rewrite a %T", obj)
}

// permanent errors are the client's fault: retrying the same request cannot
// help.
func permanent(err error) bool {
	return apierrors.IsBadRequest(err) || apierrors.IsForbidden(err) || apierrors.IsUnauthorized(err) ||
		apierrors.IsInvalid(err) || apierrors.IsMethodNotSupported(err) || apierrors.IsNotAcceptable(err) ||
		apierrors.IsUnsupportedMediaType(err) || apierrors.IsRequestEntityTooLargeError(err)
}

// retryDelay backs off exponentially from 250ms, capped at 8s.
func retryDelay(attempt int) time.Duration {
	return min(250*time.Millisecond<<(attempt-1), 8*time.Second)
}

func sleep(ctx context.Context, c clock.Clock, d time.Duration) error {
	t := c.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C():
		return nil
	}
}
