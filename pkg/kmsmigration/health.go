package kmsmigration

import (
	"context"
	"slices"

	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

// KMSHealthReader is the part of kmsstate.Reader the migrator reads; *kmsstate.Controller implements it.
// Current is kmsstate's latest evaluation while it is fresh, and an error (ReasonStateStale,
// ReasonStateNotEvaluated) when it is not.
type KMSHealthReader interface {
	Current() (kmsstate.State, error)
}

// healthFunc says whether a migration may write: nil, or why not.
type healthFunc func(ctx context.Context) error

// writeKeyHealth is the health a migration to writeKey (a library-go key id) pauses on: kmsstate's verdict on
// the plugin of writeKey on every node kmsstate expects. Every rewrite goes through that plugin, so while it is
// down each one would fail, or extend a cached DEK past what the KMS allows.
//
// A verdict that is stale or not evaluated yet is not known healthy: it pauses. A write key kmsstate does not
// watch has no KMS plugin (aescbc, aesgcm, secretbox, identity) and nothing to wait for. kmsstate reads its keys
// from the same encryption config library-go's migration controller takes the write key from, after every
// apiserver runs it, so a KMS write key is watched by the time its migration starts. Nil without a reader.
func writeKeyHealth(kms KMSHealthReader, writeKey string) healthFunc {
	if kms == nil {
		return nil
	}
	return func(context.Context) error {
		state, err := kms.Current()
		if err != nil {
			return err
		}
		if !slices.Contains(state.KeyIDs, writeKey) {
			return nil
		}
		return state.Healthy(state.Nodes, []string{writeKey})
	}
}
