package etcdclient

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/klog/v2"

	"github.com/kmsguard/kmsguard/internal/required"
)

// The names kube-apiserver-operator gives the etcd client credentials in its operand namespace
// (openshift-kube-apiserver), synced from openshift-config and revisioned, so that the installer copies them to
// /etc/kubernetes/static-pod-resources/kube-apiserver-pod-<revision>/ on every control-plane node.
const (
	// DefaultClientSecretName is the kubernetes.io/tls Secret with the client certificate (tls.crt, tls.key).
	DefaultClientSecretName = "etcd-client"
	// DefaultCABundleName is the ConfigMap with the CA bundle that signed etcd's serving certificates
	// (ca-bundle.crt).
	DefaultCABundleName = "etcd-serving-ca"
	// caBundleKey is the CA bundle's key in DefaultCABundleName.
	caBundleKey = "ca-bundle.crt"
)

// DefaultReload is how often a SecretKV that has a client reads its credentials again: a rotated certificate
// is taken within it.
const DefaultReload = time.Minute

// DefaultRetry is how soon a SecretKV that has no client asks for its credentials again. Until then every call
// fails with the same error without asking: a recovery scan reads one value per undecryptable object.
const DefaultRetry = 10 * time.Second

// SecretKVOptions say where a SecretKV finds etcd and its credentials.
type SecretKVOptions struct {
	// Secrets and ConfigMaps read the credentials with a live GET each DefaultReload, not through an informer:
	// an informer over a namespace with one undecryptable Secret never syncs, and its lister would answer "not
	// found" for a Secret the apiserver can name but not decrypt.
	Secrets    corev1client.SecretsGetter
	ConfigMaps corev1client.ConfigMapsGetter
	// Namespace holds the Secret and the ConfigMap: the operand namespace.
	Namespace string
	// SecretName and CABundleName default to DefaultClientSecretName and DefaultCABundleName.
	SecretName, CABundleName string
	// Endpoints are etcd's https client URLs. Give them, or EndpointsFrom.
	Endpoints []string
	// EndpointsFrom lists etcd's https client URLs when Endpoints is empty, at every reload of the credentials,
	// so that a member that is replaced is followed within Reload. In OpenShift: OpenShiftEndpoints.
	EndpointsFrom EndpointSource
	// Reload defaults to DefaultReload, Retry to DefaultRetry, DialTimeout to DefaultDialTimeout.
	Reload, Retry, DialTimeout time.Duration
}

// EndpointSource lists etcd's client URLs.
type EndpointSource func(ctx context.Context) ([]string, error)

// CredentialsError is what every call of a SecretKV returns while it has no client and cannot read the
// credentials to build one, for example because the KEK that encrypted the Secret was destroyed.
type CredentialsError struct {
	// Object is the Secret or ConfigMap that could not be read, as namespace/name.
	Object string
	Err    error
}

func (e *CredentialsError) Error() string {
	return fmt.Sprintf("the etcd client credentials cannot be read from %s: %v", e.Object, e.Err)
}

func (e *CredentialsError) Unwrap() error { return e.Err }

// ErrReadOnly is returned by every SecretKV call that would write to etcd: kmsguard only reads it, and writes go
// through the apiserver.
var ErrReadOnly = errors.New("kmsguard's etcd client is read-only")

// SecretKV is a read-only clientv3.KV whose client is built from the etcd client credentials an operator keeps
// in its operand namespace, read when the first request needs them and again each Reload. It is what an
// operator passes as kmsguard.EtcdOptions.KV: the operator's own pod mounts no etcd certificate.
//
// The Secret is encrypted by the KMS kmsguard watches. A SecretKV that has a client keeps it while the Secret
// cannot be read (etcd checks a certificate when it connects, and one in hand stays valid); one that has none
// answers every call with a *CredentialsError naming the Secret, which lost-key recovery reports for each object
// it could not attribute. The admin's way out is the copy of the credentials on every control-plane node (see
// docs/runbooks/UndecryptableObjects.md); once the Secret is written again, the next Reload connects.
type SecretKV struct {
	opts SecretKVOptions
	// connect builds a client from a TLS config; connectKV in production, a fake in tests.
	connect func(ctx context.Context, endpoints []string, tlsConfig *tls.Config, timeout time.Duration) (kvCloser, error)
	now     func() time.Time

	mu sync.Mutex
	// client is the current client, built from the credentials at versions and the endpoints listed with them;
	// retired is the one it replaced, closed at the next replacement so that a request in flight on it finishes.
	client, retired kvCloser
	versions        string
	// checked is when the credentials were last read, lastErr what that read (or the connect after it) failed
	// with.
	checked time.Time
	lastErr error
	// logged is the reload error last logged while a client was kept.
	logged string
}

// kvCloser is a KV that holds a connection.
type kvCloser interface {
	clientv3.KV
	Close() error
}

// NewSecretKV returns a SecretKV; it reads nothing until the first request.
func NewSecretKV(opts SecretKVOptions) (*SecretKV, error) {
	if err := required.Options("etcdclient.SecretKV", map[string]bool{
		"Secrets": opts.Secrets == nil, "ConfigMaps": opts.ConfigMaps == nil, "Namespace": opts.Namespace == "",
		"Endpoints or EndpointsFrom": len(opts.Endpoints) == 0 && opts.EndpointsFrom == nil,
	}); err != nil {
		return nil, err
	}
	if len(opts.Endpoints) > 0 {
		if opts.EndpointsFrom != nil {
			return nil, errors.New("etcdclient.SecretKV: give Endpoints or EndpointsFrom, not both")
		}
		if err := validateHTTPS(opts.Endpoints); err != nil {
			return nil, err
		}
	}
	if opts.SecretName == "" {
		opts.SecretName = DefaultClientSecretName
	}
	if opts.CABundleName == "" {
		opts.CABundleName = DefaultCABundleName
	}
	if opts.Reload <= 0 {
		opts.Reload = DefaultReload
	}
	if opts.Retry <= 0 {
		opts.Retry = DefaultRetry
	}
	return &SecretKV{opts: opts, connect: connectKV, now: time.Now}, nil
}

// validateHTTPS checks that endpoints are etcd client URLs that the credentials can be used with.
func validateHTTPS(endpoints []string) error {
	if err := (Config{Endpoints: endpoints}).Validate(); err != nil {
		return err
	}
	if u, _ := url.Parse(endpoints[0]); u.Scheme != "https" {
		return fmt.Errorf("etcd endpoint %q: client credentials need https", endpoints[0])
	}
	return nil
}

func connectKV(ctx context.Context, endpoints []string, tlsConfig *tls.Config, timeout time.Duration) (kvCloser, error) {
	return connect(ctx, endpoints, tlsConfig, timeout)
}

// kv returns the client to use, reading the credentials again when Reload (or, without a client, Retry) has
// passed.
func (k *SecretKV) kv(ctx context.Context) (clientv3.KV, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	wait := k.opts.Reload
	if k.client == nil {
		wait = k.opts.Retry
	}
	if !k.checked.IsZero() && k.now().Sub(k.checked) < wait {
		if k.client != nil {
			return k.client, nil
		}
		return nil, k.lastErr
	}
	k.checked = k.now()
	k.lastErr = k.reload(ctx)
	if k.client != nil {
		// The client in hand goes on serving; what kept it from being renewed is said once per new error, or it
		// would never be seen.
		if k.lastErr != nil && k.lastErr.Error() != k.logged {
			klog.Warningf("etcd client of %s/%s: keeping the current client: %v", k.opts.Namespace, k.opts.SecretName, k.lastErr)
		}
		k.logged = ""
		if k.lastErr != nil {
			k.logged = k.lastErr.Error()
		}
		return k.client, nil
	}
	return nil, k.lastErr
}

// reload reads the credentials, and the endpoints from EndpointsFrom, and, when either changed, connects with
// them.
func (k *SecretKV) reload(ctx context.Context) error {
	endpoints := k.opts.Endpoints
	if k.opts.EndpointsFrom != nil {
		var err error
		if endpoints, err = k.opts.EndpointsFrom(ctx); err != nil {
			return fmt.Errorf("listing etcd's endpoints: %w", err)
		}
		if err := validateHTTPS(endpoints); err != nil {
			return fmt.Errorf("listing etcd's endpoints: %w", err)
		}
	}
	secret, err := k.opts.Secrets.Secrets(k.opts.Namespace).Get(ctx, k.opts.SecretName, metav1.GetOptions{})
	if err != nil {
		return &CredentialsError{Object: k.opts.Namespace + "/" + k.opts.SecretName, Err: err}
	}
	bundle, err := k.opts.ConfigMaps.ConfigMaps(k.opts.Namespace).Get(ctx, k.opts.CABundleName, metav1.GetOptions{})
	if err != nil {
		return &CredentialsError{Object: k.opts.Namespace + "/" + k.opts.CABundleName, Err: err}
	}
	versions := string(secret.UID) + "/" + secret.ResourceVersion + "," + string(bundle.UID) + "/" + bundle.ResourceVersion + "," +
		strings.Join(endpoints, ",")
	if k.client != nil && versions == k.versions {
		return nil
	}
	cert, err := tls.X509KeyPair(secret.Data[corev1.TLSCertKey], secret.Data[corev1.TLSPrivateKeyKey])
	if err != nil {
		return &CredentialsError{Object: k.opts.Namespace + "/" + k.opts.SecretName,
			Err: fmt.Errorf("%s and %s: %w", corev1.TLSCertKey, corev1.TLSPrivateKeyKey, err)}
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM([]byte(bundle.Data[caBundleKey])) {
		return &CredentialsError{Object: k.opts.Namespace + "/" + k.opts.CABundleName, Err: fmt.Errorf("%s holds no PEM certificate", caBundleKey)}
	}
	tlsConfig := &tls.Config{MinVersion: tls.VersionTLS12, Certificates: []tls.Certificate{cert}, RootCAs: roots}
	client, err := k.connect(ctx, endpoints, tlsConfig, k.opts.DialTimeout)
	if err != nil {
		// Credentials that do not connect do not replace ones that did.
		return fmt.Errorf("connecting to etcd at %s with the credentials of %s/%s: %w", strings.Join(endpoints, ","), k.opts.Namespace, k.opts.SecretName, err)
	}
	if k.retired != nil {
		_ = k.retired.Close()
	}
	k.retired, k.client, k.versions = k.client, client, versions
	return nil
}

// Get reads from etcd with the current credentials.
func (k *SecretKV) Get(ctx context.Context, key string, opts ...clientv3.OpOption) (*clientv3.GetResponse, error) {
	kv, err := k.kv(ctx)
	if err != nil {
		return nil, err
	}
	return kv.Get(ctx, key, opts...)
}

// Do runs a Get operation; any other is refused with ErrReadOnly.
func (k *SecretKV) Do(ctx context.Context, op clientv3.Op) (clientv3.OpResponse, error) {
	if !op.IsGet() {
		return clientv3.OpResponse{}, ErrReadOnly
	}
	kv, err := k.kv(ctx)
	if err != nil {
		return clientv3.OpResponse{}, err
	}
	return kv.Do(ctx, op)
}

// Put is refused with ErrReadOnly.
func (k *SecretKV) Put(context.Context, string, string, ...clientv3.OpOption) (*clientv3.PutResponse, error) {
	return nil, ErrReadOnly
}

// Delete is refused with ErrReadOnly.
func (k *SecretKV) Delete(context.Context, string, ...clientv3.OpOption) (*clientv3.DeleteResponse, error) {
	return nil, ErrReadOnly
}

// Compact is refused with ErrReadOnly.
func (k *SecretKV) Compact(context.Context, int64, ...clientv3.CompactOption) (*clientv3.CompactResponse, error) {
	return nil, ErrReadOnly
}

// Txn returns a transaction whose Commit is refused with ErrReadOnly: a transaction may write.
func (k *SecretKV) Txn(context.Context) clientv3.Txn { return readOnlyTxn{} }

// Close closes the clients the SecretKV built.
func (k *SecretKV) Close() error {
	k.mu.Lock()
	defer k.mu.Unlock()
	var errs []error
	for _, c := range []kvCloser{k.client, k.retired} {
		if c != nil {
			errs = append(errs, c.Close())
		}
	}
	k.client, k.retired = nil, nil
	return errors.Join(errs...)
}

type readOnlyTxn struct{}

func (t readOnlyTxn) If(...clientv3.Cmp) clientv3.Txn        { return t }
func (t readOnlyTxn) Then(...clientv3.Op) clientv3.Txn       { return t }
func (t readOnlyTxn) Else(...clientv3.Op) clientv3.Txn       { return t }
func (t readOnlyTxn) Commit() (*clientv3.TxnResponse, error) { return nil, ErrReadOnly }
