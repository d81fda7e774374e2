package kmsmigration

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/openshift/library-go/pkg/operator/encryption/controllers/migrators"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/flowcontrol"
	"k8s.io/klog/v2"

	"github.com/kmsguard/kmsguard/internal/conditions"
)

// Migrator rewrites every object of a resource in-process so that it is
// stored under the current write key. It implements library-go's
// migrators.Migrator and is a drop-in for the kube-storage-version-migrator
// one kube-apiserver-operator wires; Migrate runs one migration synchronously
// for the CLI.
type Migrator struct {
	opts    Options
	metrics *componentMetrics

	lock sync.Mutex
	runs map[schema.GroupResource]*migration
	// handlers are told of every finished migration: library-go's
	// migration controller, kmsmigration's Controller and the census
	// controller each register one.
	handlers []cache.ResourceEventHandler
}

var _ migrators.Migrator = &Migrator{}

// migration is a started migration, running or finished.
type migration struct {
	target Target
	run    *run
	cancel context.CancelFunc
	done   chan struct{}
	// Set when done.
	finished time.Time
	result   error
	// restored is the finished checkpoint a migration was restored from
	// after a restart; run is nil then.
	restored *Checkpoint
}

// New returns a Migrator. Dynamic and Mapper are required.
func New(opts Options) (*Migrator, error) {
	if opts.Dynamic == nil || opts.Mapper == nil {
		return nil, errors.New("kmsmigration: Options.Dynamic and Options.Mapper are required")
	}
	opts = opts.withDefaults()
	if opts.Checkpoints == nil {
		opts.Checkpoints = &memoryCheckpoints{}
	}
	return &Migrator{opts: opts, metrics: newComponentMetrics(opts.Component), runs: map[schema.GroupResource]*migration{}}, nil
}

// EnsureMigration implements migrators.Migrator for library-go's migration
// controller: writeKey is the key secret's id.
func (m *Migrator) EnsureMigration(gr schema.GroupResource, writeKey string) (bool, error, time.Time, error) {
	return m.Ensure(gr, Target{WriteKey: writeKey})
}

// Ensure starts a migration of gr to target unless one exists, and reports
// whether it finished, with its result and finish time. A migration to
// another target is stopped first. Without a migration in memory the
// checkpoint decides: a finished one is reported as is, an unfinished one is
// resumed where it stopped, and one that cannot be read is started over.
func (m *Migrator) Ensure(gr schema.GroupResource, target Target) (finished bool, result error, ts time.Time, err error) {
	m.lock.Lock()
	defer m.lock.Unlock()
	if mig := m.runs[gr]; mig != nil {
		if mig.target == target {
			select {
			case <-mig.done:
				return true, mig.result, mig.finished, nil
			default:
				return false, nil, time.Time{}, nil
			}
		}
		klog.V(2).Infof("kmsmigration: %s: stopping the migration to %s for one to %s", gr, mig.target, target)
		m.stopLocked(mig)
		delete(m.runs, gr)
	}

	ctx := context.Background()
	cp, err := m.opts.Checkpoints.Load(ctx, gr)
	if err != nil {
		// A checkpoint is a cache of progress, kept where the failing KMS may encrypt it (ConfigMapCheckpoints):
		// without it the migration starts over, which redoes work and misses nothing. Refusing would leave every
		// resource unmigrated, and library-go's key rotation and pruning waiting on it, until the KMS recovers.
		klog.Warningf("kmsmigration: %s: the checkpoint cannot be read, migrating from the start: %v", gr, err)
		cp = nil
	}
	if cp != nil && cp.Target == target && !cp.Finished.IsZero() {
		result := storedResult(gr, cp)
		done := make(chan struct{})
		close(done)
		m.runs[gr] = &migration{target: target, done: done, finished: cp.Finished, result: result, restored: cp}
		return true, result, cp.Finished, nil
	}
	if cp == nil || cp.Target != target {
		cp = &Checkpoint{Target: target, Started: m.opts.Clock.Now()}
	}
	r, err := m.newRun(gr, *cp)
	if err != nil {
		return false, nil, time.Time{}, err
	}
	runCtx, cancel := context.WithCancel(ctx)
	mig := &migration{target: target, run: r, cancel: cancel, done: make(chan struct{})}
	m.runs[gr] = mig
	go m.execute(runCtx, gr, mig)
	return false, nil, time.Time{}, nil
}

// Migrate runs a migration of gr to target to its end, resuming from a
// checkpoint of the same target, and returns its progress and result. It
// is for the CLI and benchmarks; controllers use Ensure.
func (m *Migrator) Migrate(ctx context.Context, gr schema.GroupResource, target Target) (Progress, error) {
	m.lock.Lock()
	if mig := m.runs[gr]; mig != nil {
		m.stopLocked(mig)
		delete(m.runs, gr)
	}
	cp, err := m.opts.Checkpoints.Load(ctx, gr)
	if err != nil {
		m.lock.Unlock()
		return Progress{}, err
	}
	if cp == nil || cp.Target != target || !cp.Finished.IsZero() {
		cp = &Checkpoint{Target: target, Started: m.opts.Clock.Now()}
	}
	r, err := m.newRun(gr, *cp)
	if err != nil {
		m.lock.Unlock()
		return Progress{}, err
	}
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	mig := &migration{target: target, run: r, cancel: cancel, done: make(chan struct{})}
	m.runs[gr] = mig
	m.lock.Unlock()

	m.execute(runCtx, gr, mig)
	m.lock.Lock()
	defer m.lock.Unlock()
	return mig.progressLocked(gr), mig.result
}

func (m *Migrator) newRun(gr schema.GroupResource, cp Checkpoint) (*run, error) {
	gvr, err := m.opts.Mapper.ResourceFor(gr.WithVersion(""))
	if err != nil {
		return nil, fmt.Errorf("kmsmigration: resolving %s: %w", gr, err)
	}
	gvk, err := m.opts.Mapper.KindFor(gvr)
	if err != nil {
		return nil, fmt.Errorf("kmsmigration: resolving the kind of %s: %w", gvr, err)
	}
	mapping, err := m.opts.Mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	if err != nil {
		return nil, fmt.Errorf("kmsmigration: resolving the scope of %s: %w", gvr, err)
	}
	namespaced := mapping.Scope.Name() == meta.RESTScopeNameNamespace
	raw, err := newRawClient(m.opts.RESTConfig, gvr, gvk, namespaced)
	if err != nil {
		return nil, fmt.Errorf("kmsmigration: a protobuf client for %s: %w", gvr, err)
	}
	rate := flowcontrol.NewFakeAlwaysRateLimiter()
	if m.opts.QPS > 0 {
		rate = flowcontrol.NewTokenBucketRateLimiter(m.opts.QPS, m.opts.Burst)
	}
	return &run{
		opts:       m.opts,
		gr:         gr,
		client:     m.opts.Dynamic.Resource(gvr),
		raw:        raw,
		namespaced: namespaced,
		latch:      newPauseLatch(m.opts.Clock, m.opts.ErrorThreshold, m.opts.ErrorWindow, m.opts.ErrorPause),
		health:     writeKeyHealth(m.opts.KMS, cp.Target.WriteKey),
		inFlight:   newLatencyLimiter(m.opts.Concurrency, m.opts.LatencyFactor),
		rate:       rate,
		metrics:    m.metrics,
		cp:         cp,
		fetched:    cp.Counts.Listed + cp.Counts.Undecryptable,
	}, nil
}

// execute runs mig to its end and records the result in mig and in the
// checkpoint store.
func (m *Migrator) execute(ctx context.Context, gr schema.GroupResource, mig *migration) {
	defer close(mig.done)
	// A panic of the run is its failed result, never the end of the
	// operator.
	result := func() (err error) {
		defer conditions.Recover(&err)
		if mig.run.cp.ListedAll {
			return resultError(gr, mig.run.cp)
		}
		return mig.run.execute(ctx)
	}()
	if ctx.Err() != nil {
		// Stopped, not finished: the checkpoint stays resumable.
		m.lock.Lock()
		mig.result = ctx.Err()
		m.lock.Unlock()
		cp, _ := mig.run.progress()
		if err := m.opts.Checkpoints.Save(context.Background(), gr, &cp); err != nil {
			klog.Warningf("kmsmigration: %s: %v", gr, err)
		}
		// Nothing runs until it is resumed: left as they were, the gauges would show a migration stalled
		// forever.
		m.metrics.finished(gr)
		return
	}
	now := m.opts.Clock.Now()
	mig.run.lock.Lock()
	mig.run.cp.Finished = now
	if result != nil {
		mig.run.cp.Result = result.Error()
	}
	mig.run.lock.Unlock()
	cp, _ := mig.run.progress()
	if err := m.opts.Checkpoints.Save(context.Background(), gr, &cp); err != nil {
		klog.Warningf("kmsmigration: %s: the finished migration was not recorded and will be repeated after a restart: %v", gr, err)
	}
	m.metrics.finished(gr)
	m.lock.Lock()
	mig.result, mig.finished = result, now
	handlers := m.handlers
	m.lock.Unlock()
	if result != nil {
		klog.Warningf("kmsmigration: migration of %s to %s finished: %v", gr, mig.target, result)
	} else {
		klog.V(2).Infof("kmsmigration: migration of %s to %s finished: %s", gr, mig.target, cp.Counts)
	}
	// Wake library-go's migration controller, as library-go's in-process
	// migrator does, and every other controller that follows the migrations.
	for _, handler := range handlers {
		handler.OnAdd(&corev1.Secret{}, false)
	}
}

// PruneMigration implements migrators.Migrator: it stops a running migration
// and forgets it, checkpoint included.
func (m *Migrator) PruneMigration(gr schema.GroupResource) error {
	m.lock.Lock()
	if mig := m.runs[gr]; mig != nil {
		m.stopLocked(mig)
		delete(m.runs, gr)
	}
	m.lock.Unlock()
	return m.opts.Checkpoints.Delete(context.Background(), gr)
}

// stopLocked cancels mig and waits for it, releasing the lock meanwhile so
// that the run can record its result.
func (m *Migrator) stopLocked(mig *migration) {
	if mig.cancel == nil {
		return
	}
	mig.cancel()
	m.lock.Unlock()
	<-mig.done
	m.lock.Lock()
}

// AddEventHandler implements factory.Informer: handler is called, with every
// handler added before it, each time a migration finishes. library-go's
// InProcessMigrator keeps only the last handler it was given; this Migrator
// is followed by several controllers, and each must be woken. Like
// InProcessMigrator it returns no registration: the handlers stay for the
// Migrator's life, and a factory controller does not use it.
func (m *Migrator) AddEventHandler(handler cache.ResourceEventHandler) (cache.ResourceEventHandlerRegistration, error) {
	m.lock.Lock()
	defer m.lock.Unlock()
	m.handlers = append(m.handlers, handler)
	return nil, nil
}

// HasSynced implements factory.Informer.
func (m *Migrator) HasSynced() bool { return true }

// Progress returns the progress of every migration this Migrator holds,
// sorted by resource.
func (m *Migrator) Progress() []Progress {
	m.lock.Lock()
	defer m.lock.Unlock()
	out := make([]Progress, 0, len(m.runs))
	for gr, mig := range m.runs {
		out = append(out, mig.progressLocked(gr))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Resource.String() < out[j].Resource.String() })
	return out
}

func (mig *migration) progressLocked(gr schema.GroupResource) Progress {
	p := Progress{Resource: gr, Target: mig.target, Finished: mig.finished, Result: mig.result}
	if cp := mig.restored; cp != nil {
		p.Counts, p.Total, p.Started = cp.Counts, cp.Total, cp.Started
		p.UndecryptableKeys, p.FailedKeys = cp.UndecryptableKeys, cp.FailedKeys
		return p
	}
	cp, live := mig.run.progress()
	p.Counts, p.Total, p.Started = live, cp.Total, cp.Started
	p.UndecryptableKeys, p.FailedKeys = cp.UndecryptableKeys, cp.FailedKeys
	p.Paused, p.PauseDetail = mig.run.latch.paused()
	p.InFlightLimit = mig.run.inFlight.current()
	return p
}
