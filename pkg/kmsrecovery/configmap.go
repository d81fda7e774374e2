package kmsrecovery

import (
	"encoding/json"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ConfigMapName is the ConfigMap, in Options.Namespace, that lists the undecryptable objects and the last
// deletion run.
const ConfigMapName = "kmsguard-undecryptable-objects"

// Keys of the ConfigMap.
const (
	// ConfigMapKeyObjects: JSON array of Object, every undecryptable object of the last scan.
	ConfigMapKeyObjects = "undecryptable.json"
	// ConfigMapKeyDeletion: JSON DeletionReport of the last deletion run of this controller process.
	ConfigMapKeyDeletion = "last-deletion.json"
	// ConfigMapKeySummary: the counts per resource and key, and whether a list was truncated.
	ConfigMapKeySummary = "summary"
)

// maxListBytes bounds each JSON list so that the ConfigMap stays well under the 1 MiB limit of an object in
// etcd (two lists and a summary). An entry is about 250 bytes, so about 1,600 objects fit per list; past
// that the list holds the first objects in resource and etcd key order, the summary says how many were left
// out, and `kmsguard recover` prints the full list.
const maxListBytes = 400 << 10

// reportConfigMap builds the ConfigMap. It is deterministic for the same inputs, so that applying it again
// writes nothing.
func reportConfigMap(namespace string, findings *Findings, deletion *DeletionReport) (*corev1.ConfigMap, error) {
	objects, listed, err := boundedJSON(findings.Objects())
	if err != nil {
		return nil, err
	}
	summary := fmt.Sprintf("%d undecryptable objects", findings.Count())
	if s := findings.Summary(); s != "" {
		summary += ": " + s
	}
	if listed < findings.Count() {
		summary += fmt.Sprintf("\n%s lists the first %d only (ConfigMap size limit); run `kmsguard recover` for all of them", ConfigMapKeyObjects, listed)
	}
	cm := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: ConfigMapName},
		Data:       map[string]string{ConfigMapKeyObjects: objects},
	}
	if deletion != nil {
		results, listed, err := boundedJSON(deletion.Results)
		if err != nil {
			return nil, err
		}
		// DeletionReport's own encoding, with the bounded results.
		data, err := json.Marshal(struct {
			ConsentID string          `json:"consentID"`
			DryRun    bool            `json:"dryRun"`
			Time      time.Time       `json:"time"`
			Results   json.RawMessage `json:"results"`
		}{deletion.ConsentID, deletion.DryRun, deletion.Time, json.RawMessage(results)})
		if err != nil {
			return nil, err
		}
		cm.Data[ConfigMapKeyDeletion] = string(data)
		summary += "\nlast deletion: " + deletion.String()
		if listed < len(deletion.Results) {
			summary += fmt.Sprintf("\n%s lists the first %d of %d results only (ConfigMap size limit); the events have every object", ConfigMapKeyDeletion, listed, len(deletion.Results))
		}
	}
	cm.Data[ConfigMapKeySummary] = summary + "\n"
	return cm, nil
}

// boundedJSON encodes items as a JSON array of at most maxListBytes, and returns how many it holds.
func boundedJSON[T any](items []T) (string, int, error) {
	out := []byte{'['}
	n := 0
	for _, item := range items {
		data, err := json.Marshal(item)
		if err != nil {
			return "", 0, err
		}
		if len(out)+len(data)+2 > maxListBytes {
			break
		}
		if n > 0 {
			out = append(out, ',')
		}
		out = append(out, data...)
		n++
	}
	return string(append(out, ']')), n, nil
}
