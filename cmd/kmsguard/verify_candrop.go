package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/openshift/library-go/pkg/operator/encryption/secrets"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes"
	corev1listers "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"

	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
	"github.com/kmsguard/kmsguard/pkg/evidence"
)

const (
	// defaultKeySecretComponent is kube-apiserver-operator's component name in library-go's encryption key
	// secrets (encryption-key-openshift-kube-apiserver-<id>); openshift-apiserver-operator's is
	// openshift-apiserver, the authentication operator's openshift-oauth-apiserver.
	defaultKeySecretComponent = "openshift-kube-apiserver"
	// keySecretsNamespace is where library-go keeps the key secrets.
	keySecretsNamespace = "openshift-config-managed"
)

// canDropRequest are the parsed --can-drop keys.
type canDropRequest struct {
	keys []evidence.ReadKey
}

// dropVerdict is the pruning rule's answer for one read key and one scanned resource.
type dropVerdict struct {
	ReadKey  string `json:"readKey"`
	Resource string `json:"resource"`
	MayDrop  bool   `json:"mayDrop"`
	// MigrationFinished is when the migration away from the key finished, as far as known.
	MigrationFinished *metav1.Time `json:"migrationFinished,omitempty"`
	// Reason and Message are the evidence.PruneError when it may not be dropped.
	Reason  evidence.PruneReason `json:"reason,omitempty"`
	Message string               `json:"message,omitempty"`
}

// verifyOutput is the structured report: evidence.Report's own JSON (with "verified") plus "canDrop".
type verifyOutput struct {
	report  *evidence.Report
	canDrop []dropVerdict
}

func (v verifyOutput) MarshalJSON() ([]byte, error) {
	data, err := json.Marshal(v.report)
	if err != nil || v.canDrop == nil {
		return data, err
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return nil, err
	}
	if fields["canDrop"], err = json.Marshal(v.canDrop); err != nil {
		return nil, err
	}
	return json.Marshal(fields)
}

// parseReadKey reads the --can-drop syntax: identity, <kind>:<name>, kms-v2:<provider>[:<KEK id>].
func parseReadKey(s string) (evidence.ReadKey, error) {
	kind, rest, _ := strings.Cut(strings.TrimSpace(s), ":")
	k := evidence.ReadKey{Kind: etcdvalue.Kind(kind)}
	bad := func(why string) (evidence.ReadKey, error) {
		return evidence.ReadKey{}, fmt.Errorf("--can-drop %q: %s (want identity, <kind>:<name> or kms-v2:<provider>[:<KEK id>])", s, why)
	}
	switch k.Kind {
	case etcdvalue.KindIdentity:
		if rest != "" {
			return bad("identity takes no name")
		}
	case etcdvalue.KindKMSv2:
		k.Name, k.KEKID, _ = strings.Cut(rest, ":")
		if k.Name == "" {
			return bad("no provider name")
		}
	case etcdvalue.KindAESCBC, etcdvalue.KindAESGCM, etcdvalue.KindSecretbox, etcdvalue.KindKMSv1:
		if k.Name = rest; rest == "" {
			return bad("no name")
		}
	default:
		return bad(fmt.Sprintf("unknown kind %q", kind))
	}
	return k, nil
}

// parseCanDrop checks the --can-drop flags and the ones that go with them.
func (o *verifyOptions) parseCanDrop() (canDropRequest, error) {
	var r canDropRequest
	for _, s := range o.canDrop {
		k, err := parseReadKey(s)
		if err != nil {
			return r, err
		}
		r.keys = append(r.keys, k)
	}
	if len(r.keys) == 0 && o.migrationFinished != "" {
		return r, errors.New("--migration-finished goes with --can-drop")
	}
	if o.rollbackWindow < 0 {
		return r, errors.New("--rollback-window must not be negative")
	}
	if o.migrationFinished != "" {
		if _, err := time.Parse(time.RFC3339, o.migrationFinished); err != nil {
			return r, fmt.Errorf("--migration-finished: %w", err)
		}
	}
	return r, nil
}

// migrationFinishedFunc is --migration-finished, or library-go's record read with one LIST of the key secrets
// of --component, as the rollout gate's fallback reads it (evidence.MigratedTimestamps).
func (o *verifyOptions) migrationFinishedFunc(ctx context.Context, config *rest.Config) (evidence.MigrationFinishedFunc, error) {
	if o.migrationFinished != "" {
		t, err := time.Parse(time.RFC3339, o.migrationFinished)
		if err != nil {
			return nil, fmt.Errorf("--migration-finished: %w", err)
		}
		return func(context.Context, schema.GroupResource) (time.Time, error) { return t, nil }, nil
	}
	kube, err := kubernetes.NewForConfig(config)
	if err != nil {
		return nil, err
	}
	return keySecretMigrationFinished(ctx, kube, o.component)
}

// keySecretMigrationFinished lists the encryption key secrets of component once and reads their
// migrated-timestamps.
func keySecretMigrationFinished(ctx context.Context, kube kubernetes.Interface, component string) (evidence.MigrationFinishedFunc, error) {
	list, err := kube.CoreV1().Secrets(keySecretsNamespace).List(ctx, metav1.ListOptions{LabelSelector: secrets.EncryptionKeySecretsLabel + "=" + component})
	if err != nil {
		return nil, fmt.Errorf("listing library-go's encryption key secrets of %s in %s (or give --migration-finished): %w", component, keySecretsNamespace, err)
	}
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	for i := range list.Items {
		if err := indexer.Add(&list.Items[i]); err != nil {
			return nil, err
		}
	}
	return evidence.MigratedTimestamps(corev1listers.NewSecretLister(indexer), component), nil
}

// judgeDrops applies evidence.CanDropReadKey, the rollout gate's rule, to every --can-drop key for every
// scanned resource: the report narrowed to the resource, with the resource's migration finish.
func judgeDrops(ctx context.Context, report *evidence.Report, drops canDropRequest, finished evidence.MigrationFinishedFunc, window time.Duration, now time.Time) ([]dropVerdict, error) {
	if len(drops.keys) == 0 {
		return nil, nil
	}
	verdicts := []dropVerdict{}
	for _, key := range drops.keys {
		for _, rr := range report.Resources {
			var at time.Time
			if finished != nil {
				var err error
				if at, err = finished(ctx, schema.ParseGroupResource(rr.Resource)); err != nil {
					return nil, fmt.Errorf("reading when the migration of %s finished: %w", rr.Resource, err)
				}
			}
			narrowed := &evidence.Report{WriteKey: report.WriteKey, Started: report.Started, Resources: []evidence.ResourceReport{rr}}
			v := dropVerdict{ReadKey: key.String(), Resource: rr.Resource, MayDrop: true}
			if !at.IsZero() {
				t := metav1.NewTime(at)
				v.MigrationFinished = &t
			}
			if err := evidence.CanDropReadKey(narrowed, key, at, window, now); err != nil {
				var pe *evidence.PruneError
				if !errors.As(err, &pe) {
					return nil, err
				}
				v.MayDrop, v.Reason, v.Message = false, pe.Reason, pe.Error()
			}
			verdicts = append(verdicts, v)
		}
	}
	return verdicts, nil
}

// allMayDrop says whether every judged key may be dropped (true without --can-drop).
func allMayDrop(verdicts []dropVerdict) bool {
	for _, v := range verdicts {
		if !v.MayDrop {
			return false
		}
	}
	return true
}

func printDropVerdicts(out io.Writer, verdicts []dropVerdict) {
	if len(verdicts) == 0 {
		return
	}
	fmt.Fprintln(out)
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "READ KEY\tRESOURCE\tMAY DROP\tMIGRATION FINISHED\tWHY NOT")
	for _, v := range verdicts {
		finished, why := "-", "-"
		if v.MigrationFinished != nil {
			finished = v.MigrationFinished.UTC().Format(time.RFC3339)
		}
		if !v.MayDrop {
			why = fmt.Sprintf("%s: %s", v.Reason, v.Message)
		}
		fmt.Fprintf(w, "%s\t%s\t%v\t%s\t%s\n", v.ReadKey, v.Resource, v.MayDrop, finished, why)
	}
	_ = w.Flush()
}
