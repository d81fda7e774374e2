package lab

import (
	"fmt"
	"sort"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/sets"
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"

	"github.com/kmsguard/kmsguard/pkg/encryptionconfig"
	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
	"github.com/kmsguard/kmsguard/test/kmsenv"
)

// APIServerStart is one process start of a node's kube-apiserver, read from its supervisor's lifecycle and from the
// encryption config file the process was given: what the apiservers themselves ran with, not what the
// controllers intended.
type APIServerStart struct {
	Node string
	// Down is when the previous process was told to stop (zero for the node's first start); Up is when this
	// one answered /healthz.
	Down, Up   time.Time
	ConfigPath string
	// Config is the encryption config the process was started with; nil without encryption.
	Config *apiserverv1.EncryptionConfiguration
}

// APIServerStarts returns every successful apiserver start of every node, oldest first.
func (l *Lab) APIServerStarts() ([]APIServerStart, error) {
	var starts []APIServerStart
	for _, n := range l.nodes {
		var down time.Time
		for _, e := range n.APIServer().Events() {
			switch e.Kind {
			case kmsenv.EventStopping:
				down = e.Time
			case kmsenv.EventStarted:
				s := APIServerStart{Node: n.Name(), Down: down, Up: e.Time, ConfigPath: e.EncryptionConfigPath}
				if e.EncryptionConfigPath != "" {
					// The content read at the start: the pruner may have removed the revision's file since.
					var err error
					if s.Config, err = encryptionconfig.Decode(e.EncryptionConfig); err != nil {
						return nil, fmt.Errorf("%s: %s: %w", n.Name(), e.EncryptionConfigPath, err)
					}
				}
				starts = append(starts, s)
			}
		}
	}
	sort.Slice(starts, func(i, j int) bool { return starts[i].Up.Before(starts[j].Up) })
	return starts, nil
}

// OneAtATime checks that no two apiservers were down at once: every restart's window, from the old process
// being told to stop to the new one answering /healthz, must not overlap another's. It returns the number of
// restarts and the longest window.
func OneAtATime(starts []APIServerStart) (restarts int, longest time.Duration, err error) {
	var windows []APIServerStart
	for _, s := range starts {
		if !s.Down.IsZero() {
			windows = append(windows, s)
		}
	}
	sort.Slice(windows, func(i, j int) bool { return windows[i].Down.Before(windows[j].Down) })
	for i, w := range windows {
		longest = max(longest, w.Up.Sub(w.Down))
		if i > 0 && windows[i-1].Up.After(w.Down) {
			p := windows[i-1]
			return len(windows), longest, fmt.Errorf("%s restarted (%s - %s) while %s was still restarting (%s - %s)",
				w.Node, w.Down.Format(time.StampMilli), w.Up.Format(time.StampMilli), p.Node, p.Down.Format(time.StampMilli), p.Up.Format(time.StampMilli))
		}
	}
	return len(windows), longest, nil
}

// ReadKeyFirst checks library-go's rollout rule for resource: when the first apiserver that started after
// since wrote it with a KMS v2 provider that no apiserver wrote with before since came up, every other node's
// apiserver already ran with that provider as a read key. It returns that first start and the provider's name. A
// change from aescbc to KMS and one from a KMS key to another are judged alike: in the latter the apiservers keep
// writing with the old key's provider until the new one is read everywhere.
func ReadKeyFirst(starts []APIServerStart, resource schema.GroupResource, since time.Time) (APIServerStart, string, error) {
	old := sets.New[string]()
	for _, s := range starts {
		if name := kmsWriteProvider(s.Config, resource); name != "" && !s.Up.After(since) {
			old.Insert(name)
		}
	}
	var first *APIServerStart
	provider := ""
	for i := range starts {
		s := &starts[i]
		if name := kmsWriteProvider(s.Config, resource); s.Up.After(since) && name != "" && !old.Has(name) && (first == nil || s.Up.Before(first.Up)) {
			first, provider = s, name
		}
	}
	if first == nil {
		return APIServerStart{}, "", fmt.Errorf("no apiserver started writing %s with a new KMS provider after %s", resource, since.Format(time.StampMilli))
	}
	running := map[string]APIServerStart{}
	for _, s := range starts {
		if s.Node != first.Node && s.Up.Before(first.Down) {
			running[s.Node] = s
		}
	}
	for _, s := range starts {
		if _, seen := running[s.Node]; !seen && s.Node != first.Node {
			running[s.Node] = APIServerStart{Node: s.Node}
		}
	}
	for node, s := range running {
		if !readsWith(s.Config, resource, provider) {
			path := s.ConfigPath
			if path == "" {
				path = "<none>"
			}
			return *first, provider, fmt.Errorf("%s ran with config %s, without KMS provider %s, when %s started to write %s with it", node, path, provider, first.Node, resource)
		}
	}
	return *first, provider, nil
}

// kmsWriteProvider is the KMS v2 provider config writes resource with, or "".
func kmsWriteProvider(config *apiserverv1.EncryptionConfiguration, resource schema.GroupResource) string {
	if config == nil {
		return ""
	}
	keys, found := encryptionconfig.KeysFor(config, resource)
	if !found {
		return ""
	}
	if w, ok := keys.WriteKey(); ok && w.Kind == etcdvalue.KindKMSv2 {
		return w.Name
	}
	return ""
}

// readsWith says whether config can read resource's values written by KMS v2 provider name.
func readsWith(config *apiserverv1.EncryptionConfiguration, resource schema.GroupResource, name string) bool {
	if config == nil {
		return false
	}
	keys, found := encryptionconfig.KeysFor(config, resource)
	if !found {
		return false
	}
	for _, k := range keys.Keys {
		if k.Kind == etcdvalue.KindKMSv2 && k.Name == name {
			return true
		}
	}
	return false
}
