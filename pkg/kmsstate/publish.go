package kmsstate

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"time"

	"github.com/openshift/library-go/pkg/operator/events"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"

	"github.com/kmsguard/kmsguard/internal/configmapdata"
)

// StatePublisher publishes the controller's evaluations, so that `kmsguard status` shows the operator's own
// verdict, the one its conditions were set from, instead of evaluating the reports again without the
// controller's memory and apiserver views (and contradicting the condition it prints beside it).
type StatePublisher interface {
	Publish(ctx context.Context, state State) error
}

// StateDataKey is the ConfigMap data key ConfigMapPublisher publishes the latest State under, as JSON.
const StateDataKey = "state.json"

// DefaultConfigMapName is the name `kmsguard status` reads the published State from, in the operator's
// namespace, unless told otherwise: give ConfigMapPublisher this name.
const DefaultConfigMapName = "kmsguard-kms-state"

// ConfigMapPublisher publishes the State as JSON in a ConfigMap (data key state.json), e.g.
// openshift-kube-apiserver-operator/kmsguard-kms-state. It holds node names, key ids, KEK ids, times and error
// details, never key material.
//
// It is a cache: the KMS encrypts it like any ConfigMap, so while the KMS is down it can be neither read nor
// written. Nothing of the Controller waits on it (a failed publish is tried again on the next sync), and
// `kmsguard status` says when it cannot read it and prints the conditions all the same.
//
// One the apiserver cannot read at all (a StorageReadError: the KEK it was written under is gone) is deleted and
// published afresh (configmapdata), with a KMSGuardCacheDeleted event when Recorder is set.
type ConfigMapPublisher struct {
	Client          corev1client.ConfigMapsGetter
	Namespace, Name string
	Recorder        events.Recorder
}

// Publish implements StatePublisher.
func (s ConfigMapPublisher) Publish(ctx context.Context, state State) error {
	raw, err := json.Marshal(state)
	if err != nil {
		return err
	}
	err = configmapdata.Update(ctx, s.Client, s.Namespace, s.Name, s.Recorder, func(data map[string]string) {
		data[StateDataKey] = string(raw)
	})
	if err != nil {
		return fmt.Errorf("publishing the KMS state to configmap %s/%s: %w", s.Namespace, s.Name, err)
	}
	return nil
}

// ReadPublished returns the State the controller published last, and false when none is published.
func (s ConfigMapPublisher) ReadPublished(ctx context.Context) (State, bool, error) {
	cm, err := s.Client.ConfigMaps(s.Namespace).Get(ctx, s.Name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return State{}, false, nil
	}
	if err != nil {
		return State{}, false, fmt.Errorf("reading configmap %s/%s: %w", s.Namespace, s.Name, err)
	}
	raw, ok := cm.Data[StateDataKey]
	if !ok {
		return State{}, false, nil
	}
	var state State
	if err := json.Unmarshal([]byte(raw), &state); err != nil {
		return State{}, false, fmt.Errorf("configmap %s/%s key %s: %w", s.Namespace, s.Name, StateDataKey, err)
	}
	return state, true, nil
}

// ReadFresh returns the State the controller published last, held to the freshness bound the Reader methods apply
// (maxAge at now, State.Fresh): an *UnhealthyError with ReasonStateNotEvaluated when none is published, or with
// ReasonStateStale when it is older. An error reading or decoding the ConfigMap is returned as ReadPublished
// returns it, never as an UnhealthyError: the KMS that encrypts the ConfigMap may be what fails.
func (s ConfigMapPublisher) ReadFresh(ctx context.Context, maxAge time.Duration, now time.Time) (State, error) {
	state, ok, err := s.ReadPublished(ctx)
	if err != nil {
		return State{}, err
	}
	if !ok {
		return State{}, &UnhealthyError{Failures: []Failure{{Reason: ReasonStateNotEvaluated, Detail: fmt.Sprintf(
			"the kmsstate controller has published no evaluation (configmap %s/%s, key %s)", s.Namespace, s.Name, StateDataKey)}}}
	}
	if err := state.Fresh(now, maxAge); err != nil {
		return State{}, err
	}
	return state, nil
}

// publishEvery is how often an unchanged State is published again, as a fraction of MaxStateAge, so that a
// reader of the published State can apply the same freshness bound as the Reader methods.
const publishEvery = 2

// publish publishes state when what it says changed, or the published one is getting old; a failed write is
// tried again on the next sync.
func (c *Controller) publish(ctx context.Context, state State) error {
	if c.options.Publisher == nil {
		return nil
	}
	c.mu.RLock()
	last := c.published
	c.mu.RUnlock()
	if last != nil && sameVerdict(*last, state) && state.EvaluatedAt.Sub(last.EvaluatedAt) < c.options.MaxStateAge/publishEvery {
		return nil
	}
	if err := c.options.Publisher.Publish(ctx, state); err != nil {
		return err
	}
	c.mu.Lock()
	c.published = &state
	c.mu.Unlock()
	return nil
}

// sameVerdict compares two States without their evaluation time and the report times and ages, which change
// with every report while nothing else does.
func sameVerdict(a, b State) bool {
	strip := func(s State) State {
		s.EvaluatedAt = time.Time{}
		s.Plugins = append([]Plugin(nil), s.Plugins...)
		for i := range s.Plugins {
			s.Plugins[i].Age, s.Plugins[i].LastChecked = 0, time.Time{}
		}
		return s
	}
	return reflect.DeepEqual(strip(a), strip(b))
}
