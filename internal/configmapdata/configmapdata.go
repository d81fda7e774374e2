// Package configmapdata changes the data of a ConfigMap that kmsguard keeps a cache in (migration progress, the
// published KMS verdict, the list of undecryptable objects), and deletes one the apiserver cannot read.
//
// The KMS encrypts these ConfigMaps like any other, so a destroyed KEK can leave one that no read or update can
// ever get past. It holds no user data, only what kmsguard can compute again, so kmsguard deletes it without
// anyone's consent, with KEP-3926's unsafe delete, and starts the cache over. That needs the apiserver's
// AllowUnsafeMalformedObjectDeletion feature gate (which turns the read into a StorageReadError) and the verb
// unsafe-delete-ignore-read-errors on these ConfigMaps, by name (bindata's kmsguard-caches Role). Without the
// gate the read fails with a plain internal error, which says no more than "the KMS is down": the cache is then
// done without until the KMS answers again.
package configmapdata

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"

	"github.com/openshift/library-go/pkg/operator/events"
	"k8s.io/klog/v2"
	"k8s.io/utils/ptr"

	"github.com/kmsguard/kmsguard/internal/conflictretry"
	"github.com/kmsguard/kmsguard/internal/pagedlist"
)

// Unreadable reports whether getErr, the error of a GET of the ConfigMap namespace/name, is the apiserver unable
// to read it from storage. A GET says only "internal error", whatever the cause; a LIST answers a StorageReadError
// naming the etcd key of each object it cannot read, when the apiserver has the AllowUnsafeMalformedObjectDeletion
// feature gate (and so accepts the unsafe delete). The apiserver decodes every object of the namespace before it
// filters by name, so the error must name this one. The LIST is paginated so that it is served from etcd: an
// unpaginated one waits for the watch cache, which cannot fill while an object cannot be decoded.
func Unreadable(ctx context.Context, client corev1client.ConfigMapsGetter, namespace, name string, getErr error) bool {
	if !apierrors.IsInternalError(getErr) {
		return false
	}
	// Without the gate the apiserver answers "storage is (re)initializing" (429) for as long as the watch cache
	// cannot list the namespace, and client-go retries that for minutes: a caller must not wait on it.
	ctx, cancel := context.WithTimeout(ctx, unreadableProbeTimeout)
	defer cancel()
	_, err := client.ConfigMaps(namespace).List(ctx, metav1.ListOptions{Limit: 500, FieldSelector: fields.OneTermEqualSelector("metadata.name", name).String()})
	keys, _ := pagedlist.UnreadableKeys(err)
	return slices.ContainsFunc(keys, func(key string) bool { return strings.HasSuffix(key, "/"+namespace+"/"+name) })
}

// unreadableProbeTimeout bounds Unreadable's LIST. An apiserver that can answer answers at once: with the gate, the
// LIST reaches etcd while the watch cache cannot fill.
const unreadableProbeTimeout = 3 * time.Second

// EventCacheDeleted is recorded when kmsguard deletes one of its own caches that the apiserver cannot read.
const EventCacheDeleted = "KMSGuardCacheDeleted"

// DeleteUnreadable deletes the ConfigMap namespace/name, which the apiserver could not read (readErr), with
// ignoreStoreReadErrorWithClusterBreakingPotential. Only for kmsguard's own caches: it skips finalizers and
// admission, and what the ConfigMap held is gone. recorder may be nil.
func DeleteUnreadable(ctx context.Context, client corev1client.ConfigMapsGetter, namespace, name string, recorder events.Recorder, readErr error) error {
	err := client.ConfigMaps(namespace).Delete(ctx, name, metav1.DeleteOptions{IgnoreStoreReadErrorWithClusterBreakingPotential: ptr.To(true)})
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("configmap %s/%s cannot be read (%w) nor deleted: %w", namespace, name, readErr, err)
	}
	klog.Warningf("deleted configmap %s/%s, a cache of kmsguard's that the apiserver cannot read (%v); it starts over", namespace, name, readErr)
	if recorder != nil {
		recorder.Warningf(EventCacheDeleted, "deleted configmap %s/%s, a cache of kmsguard's that the apiserver cannot read, with ignoreStoreReadErrorWithClusterBreakingPotential; it holds no user data and starts over: %v", namespace, name, readErr)
	}
	return nil
}

// DeleteIfUnreadable deletes the ConfigMap namespace/name with DeleteUnreadable when readErr, the error of reading
// it, is the apiserver unable to read it from storage (Unreadable), and says whether it did.
func DeleteIfUnreadable(ctx context.Context, client corev1client.ConfigMapsGetter, namespace, name string, recorder events.Recorder, readErr error) (bool, error) {
	if !Unreadable(ctx, client, namespace, name, readErr) {
		return false, nil
	}
	if err := DeleteUnreadable(ctx, client, namespace, name, recorder, readErr); err != nil {
		return false, err
	}
	return true, nil
}

// Update applies change to the data of the ConfigMap namespace/name, creating it when it does not exist. It
// reads, changes and writes again on a conflict, so that concurrent writers of different keys never overwrite
// each other, and keys change does not touch are kept.
//
// A ConfigMap the apiserver cannot read is deleted (DeleteIfUnreadable) and created afresh, with only
// what change writes. recorder, when not nil, records that deletion.
func Update(ctx context.Context, client corev1client.ConfigMapsGetter, namespace, name string, recorder events.Recorder, change func(data map[string]string)) error {
	configMaps := client.ConfigMaps(namespace)
	return conflictretry.Do(func() error {
		cm, err := configMaps.Get(ctx, name, metav1.GetOptions{})
		if deleted, deleteErr := DeleteIfUnreadable(ctx, client, namespace, name, recorder, err); deleteErr != nil {
			return deleteErr
		} else if deleted {
			cm, err = nil, apierrors.NewNotFound(corev1.Resource("configmaps"), name)
		}
		if apierrors.IsNotFound(err) {
			cm = &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name}, Data: map[string]string{}}
			change(cm.Data)
			_, err = configMaps.Create(ctx, cm, metav1.CreateOptions{})
			if apierrors.IsAlreadyExists(err) {
				// Lost a race with another writer: retry as an update.
				return apierrors.NewConflict(corev1.Resource("configmaps"), name, err)
			}
			return err
		}
		if err != nil {
			return err
		}
		if cm.Data == nil {
			cm.Data = map[string]string{}
		}
		change(cm.Data)
		_, err = configMaps.Update(ctx, cm, metav1.UpdateOptions{})
		return err
	})
}
