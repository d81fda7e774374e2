// Package configmapdata changes the data of a ConfigMap that kmsguard keeps its own state in.
package configmapdata

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"

	"github.com/kmsguard/kmsguard/internal/conflictretry"
)

// Update applies change to the data of the ConfigMap namespace/name, creating it when it does not exist. It
// reads, changes and writes again on a conflict, so that concurrent writers of different keys never overwrite
// each other, and keys change does not touch are kept.
func Update(ctx context.Context, client corev1client.ConfigMapsGetter, namespace, name string, change func(data map[string]string)) error {
	configMaps := client.ConfigMaps(namespace)
	return conflictretry.Do(func() error {
		cm, err := configMaps.Get(ctx, name, metav1.GetOptions{})
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
