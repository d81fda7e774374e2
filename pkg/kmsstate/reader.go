package kmsstate

import (
	"errors"
	"fmt"
	"time"
)

// Reader is kmsstate's verdict as the other kmsguard packages read it: the rollout gate and the rollback ask
// Healthy, the census asks SettledKEKID, the migration controller LatestRotation and the migrator and lost-key
// recovery Current. *Controller implements it; the consumers declare the part they use.
//
// A verdict has a freshness bound (Options.MaxStateAge): an evaluation older than that is not healthy
// (ReasonStateStale), because the controller's syncs fail or stopped, and what it saw last says nothing about
// the plugins now. Before the first evaluation nothing is healthy either (ReasonStateNotEvaluated).
type Reader interface {
	// Healthy answers whether the plugin of every key in keyIDs is healthy, with a fresh report, on every node
	// in nodes, in a fresh evaluation: nil or an *UnhealthyError (State.Healthy).
	Healthy(nodes, keyIDs []string) error
	// SettledKEKID is the KEK id every node's plugin of keyID last agreed on, in a fresh evaluation; an error
	// when there is none (State.SettledKEKID).
	SettledKEKID(keyID string) (string, error)
	// LatestRotation is the latest completed rotation of the KEK id behind keyID this process or its Memory has
	// seen (State.LatestRotation). A stale evaluation still answers: a completed rotation stays a fact, and a
	// stale one misses a newer rotation, which only delays the migration after it.
	LatestRotation(keyID string) (Rotation, bool)
	// Current is the latest evaluation when it is fresh, else an *UnhealthyError (ReasonStateStale,
	// ReasonStateNotEvaluated).
	Current() (State, error)
}

var _ Reader = (*Controller)(nil)

// Fresh returns s when it was evaluated no longer than maxAge before now, else an *UnhealthyError with
// ReasonStateStale. It is how a Reader bounds the age of its verdict, and how `kmsguard status` judges a
// published one.
func (s *State) Fresh(now time.Time, maxAge time.Duration) error {
	if age := now.Sub(s.EvaluatedAt); age > maxAge {
		return &UnhealthyError{Failures: []Failure{{Reason: ReasonStateStale, Detail: fmt.Sprintf(
			"kmsstate's latest evaluation is from %s, %s ago, older than %s: its syncs fail or have stopped (see the operator's conditions and log)",
			s.EvaluatedAt.UTC().Format(time.RFC3339), age.Round(time.Second), maxAge)}}}
	}
	return nil
}

// Current implements Reader.
func (c *Controller) Current() (State, error) {
	state, ok := c.State()
	if !ok {
		return State{}, &UnhealthyError{Failures: []Failure{{Reason: ReasonStateNotEvaluated, Detail: "kmsstate has not evaluated any report yet"}}}
	}
	if err := state.Fresh(c.options.Clock.Now(), c.options.MaxStateAge); err != nil {
		return State{}, err
	}
	return state, nil
}

// Healthy implements Reader: State.Healthy of a fresh evaluation.
func (c *Controller) Healthy(nodes, keyIDs []string) error {
	state, err := c.Current()
	if err != nil {
		return err
	}
	return state.Healthy(nodes, keyIDs)
}

// SettledKEKID implements Reader. evidence's census reads the KMS v2 write keys' KEK ids
// through it.
func (c *Controller) SettledKEKID(keyID string) (string, error) {
	state, err := c.Current()
	if err != nil {
		return "", err
	}
	kek, ok := state.SettledKEKID(keyID)
	if !ok {
		return "", errors.New("kmsstate has not seen its plugins agree on a KEK id yet")
	}
	return kek, nil
}

// LatestRotation implements Reader. While the stored Memory cannot be read, the evaluation knows no rotation
// from before this process, and one it saw complete may be from an unknown KEK id: there is none to report until
// the memory is read.
func (c *Controller) LatestRotation(keyID string) (Rotation, bool) {
	c.mu.RLock()
	state, memoryErr := c.state, c.memoryErr
	c.mu.RUnlock()
	if state == nil || memoryErr != nil {
		return Rotation{}, false
	}
	return state.LatestRotation(keyID)
}
