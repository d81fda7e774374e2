package etcdclient

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
)

const testNamespace = "openshift-kube-apiserver"

// fakeKV is an etcd client that answers every Get with its name as the only key.
type fakeKV struct {
	clientv3.KV
	name   string
	closed bool
}

func (f *fakeKV) Get(context.Context, string, ...clientv3.OpOption) (*clientv3.GetResponse, error) {
	return &clientv3.GetResponse{Count: 1}, nil
}

func (f *fakeKV) Do(context.Context, clientv3.Op) (clientv3.OpResponse, error) {
	return clientv3.OpResponse{}, nil
}

func (f *fakeKV) Close() error {
	f.closed = true
	return nil
}

// secretKVFixture is a SecretKV over a fake clientset, a fake clock and a fake connect that records the
// certificates it was given.
type secretKVFixture struct {
	kv       *SecretKV
	client   *fake.Clientset
	now      time.Time
	connects []*fakeKV
	certs    [][]byte
	// endpoints are the endpoints of each connect.
	endpoints [][]string
	// connectErr, when set, fails the next connects.
	connectErr error
	// secretErr, when set, is the apiserver's answer to a GET of the Secret.
	secretErr error
}

func newSecretKVFixture(t *testing.T) *secretKVFixture {
	t.Helper()
	return newSecretKVFixtureWith(t, func(opts *SecretKVOptions) { opts.Endpoints = []string{"https://10.0.0.1:2379"} })
}

// newSecretKVFixtureWith is newSecretKVFixture with the endpoints that endpoints sets.
func newSecretKVFixtureWith(t *testing.T, endpoints func(*SecretKVOptions)) *secretKVFixture {
	t.Helper()
	f := &secretKVFixture{now: time.Unix(1_700_000_000, 0)}
	crt, key := clientCertPEM(t)
	f.client = fake.NewClientset(
		&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: testNamespace, Name: DefaultClientSecretName, UID: "s", ResourceVersion: "1"},
			Type: corev1.SecretTypeTLS, Data: map[string][]byte{corev1.TLSCertKey: crt, corev1.TLSPrivateKeyKey: key}},
		&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: testNamespace, Name: DefaultCABundleName, UID: "c", ResourceVersion: "1"},
			Data: map[string]string{caBundleKey: string(crt)}},
	)
	f.client.PrependReactor("get", "secrets", func(clienttesting.Action) (bool, runtime.Object, error) {
		if f.secretErr != nil {
			return true, nil, f.secretErr
		}
		return false, nil, nil
	})
	opts := SecretKVOptions{Secrets: f.client.CoreV1(), ConfigMaps: f.client.CoreV1(), Namespace: testNamespace}
	endpoints(&opts)
	kv, err := NewSecretKV(opts)
	if err != nil {
		t.Fatal(err)
	}
	kv.now = func() time.Time { return f.now }
	kv.connect = func(_ context.Context, endpoints []string, tlsConfig *tls.Config, _ time.Duration) (kvCloser, error) {
		if f.connectErr != nil {
			return nil, f.connectErr
		}
		c := &fakeKV{name: string(rune('a' + len(f.connects)))}
		f.connects = append(f.connects, c)
		f.endpoints = append(f.endpoints, endpoints)
		f.certs = append(f.certs, tlsConfig.Certificates[0].Certificate[0])
		return c, nil
	}
	f.kv = kv
	return f
}

// secretGets counts the GETs of the Secret so far.
func (f *secretKVFixture) secretGets() int {
	n := 0
	for _, a := range f.client.Actions() {
		if a.Matches("get", "secrets") {
			n++
		}
	}
	return n
}

// rotate writes a new certificate into the Secret.
func (f *secretKVFixture) rotate(t *testing.T) {
	t.Helper()
	crt, key := clientCertPEM(t)
	ctx := context.Background()
	secret, err := f.client.CoreV1().Secrets(testNamespace).Get(ctx, DefaultClientSecretName, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	secret.Data = map[string][]byte{corev1.TLSCertKey: crt, corev1.TLSPrivateKeyKey: key}
	// The fake clientset keeps the resourceVersion it is given; the apiserver would set a new one.
	rv, err := strconv.Atoi(secret.ResourceVersion)
	if err != nil {
		t.Fatal(err)
	}
	secret.ResourceVersion = strconv.Itoa(rv + 1)
	if _, err := f.client.CoreV1().Secrets(testNamespace).Update(ctx, secret, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// decryptError is what kube-apiserver answers for a GET of a Secret whose DEK its KMS can no longer decrypt.
var decryptError = apierrors.NewInternalError(errors.New("rpc error: code = Unknown desc = failed to decrypt DEK: key destroyed"))

func TestSecretKVWithoutReadableCredentials(t *testing.T) {
	f := newSecretKVFixture(t)
	f.secretErr = decryptError
	ctx := context.Background()

	_, err := f.kv.Get(ctx, "/registry/secrets/a/b")
	var credErr *CredentialsError
	if !errors.As(err, &credErr) || credErr.Object != testNamespace+"/"+DefaultClientSecretName || !apierrors.IsInternalError(credErr.Err) {
		t.Fatalf("Get: %v, want a CredentialsError for %s/%s wrapping the apiserver's error", err, testNamespace, DefaultClientSecretName)
	}
	if len(f.connects) != 0 {
		t.Fatalf("connected %d times without credentials", len(f.connects))
	}
	// Within Retry the error is answered without asking the apiserver again: a recovery scan reads one value per
	// undecryptable object.
	f.now = f.now.Add(DefaultRetry - time.Second)
	if _, err := f.kv.Get(ctx, "/registry/secrets/a/c"); !errors.As(err, &credErr) {
		t.Fatalf("second Get: %v, want the CredentialsError again", err)
	}
	if got := f.secretGets(); got != 1 {
		t.Fatalf("%d GETs of the Secret within Retry, want 1", got)
	}
	// The Secret is written again (after the admin deleted the lost one): the next Retry connects.
	f.secretErr = nil
	f.now = f.now.Add(2 * time.Second)
	if _, err := f.kv.Get(ctx, "/registry/secrets/a/c"); err != nil {
		t.Fatalf("Get once the Secret is readable: %v", err)
	}
	if len(f.connects) != 1 {
		t.Fatalf("connected %d times, want 1", len(f.connects))
	}
}

func TestSecretKVKeepsAndReplacesItsClient(t *testing.T) {
	f := newSecretKVFixture(t)
	ctx := context.Background()
	get := func(step string) {
		t.Helper()
		if _, err := f.kv.Get(ctx, "/registry/secrets/a/b"); err != nil {
			t.Fatalf("%s: Get: %v", step, err)
		}
	}

	get("first request")
	get("within Reload")
	if len(f.connects) != 1 || f.secretGets() != 1 {
		t.Fatalf("connects %d, Secret GETs %d after two requests within Reload, want 1 and 1", len(f.connects), f.secretGets())
	}

	// The Secret becomes unreadable: the client in hand stays.
	f.secretErr = decryptError
	f.now = f.now.Add(DefaultReload)
	get("Secret unreadable")
	if len(f.connects) != 1 || f.connects[0].closed {
		t.Fatalf("an unreadable Secret replaced or closed the client: connects %d, closed %v", len(f.connects), f.connects[0].closed)
	}

	// Unchanged credentials: no new connection.
	f.secretErr = nil
	f.now = f.now.Add(DefaultReload)
	get("Secret unchanged")
	if len(f.connects) != 1 {
		t.Fatalf("unchanged credentials connected again (%d connects)", len(f.connects))
	}

	// A rotated certificate that does not connect does not replace one that does.
	f.rotate(t)
	f.connectErr = errors.New("etcd endpoint https://10.0.0.1:2379: TLS handshake: bad certificate")
	f.now = f.now.Add(DefaultReload)
	get("rotated certificate refused")
	if len(f.connects) != 1 || f.connects[0].closed {
		t.Fatalf("a refused certificate replaced the client")
	}

	// Once it connects, it replaces the client; the old one is closed at the next replacement, not at once.
	f.connectErr = nil
	f.now = f.now.Add(DefaultReload)
	get("rotated certificate")
	if len(f.connects) != 2 || f.connects[0].closed {
		t.Fatalf("connects %d, first closed %v: want a second client and the first still open", len(f.connects), f.connects[0].closed)
	}
	if string(f.certs[0]) == string(f.certs[1]) {
		t.Fatalf("the second client was built with the first certificate")
	}
	f.rotate(t)
	f.now = f.now.Add(DefaultReload)
	get("second rotation")
	if len(f.connects) != 3 || !f.connects[0].closed || f.connects[1].closed {
		t.Fatalf("after the second rotation: connects %d, closed %v %v: want the first closed, the second retired", len(f.connects), f.connects[0].closed, f.connects[1].closed)
	}
	if err := f.kv.Close(); err != nil || !f.connects[1].closed || !f.connects[2].closed {
		t.Fatalf("Close: %v; clients closed %v %v", err, f.connects[1].closed, f.connects[2].closed)
	}
}

func TestSecretKVIsReadOnly(t *testing.T) {
	f := newSecretKVFixture(t)
	ctx := context.Background()
	for name, call := range map[string]func() error{
		"Put":     func() error { _, err := f.kv.Put(ctx, "k", "v"); return err },
		"Delete":  func() error { _, err := f.kv.Delete(ctx, "k"); return err },
		"Compact": func() error { _, err := f.kv.Compact(ctx, 1); return err },
		"Txn":     func() error { _, err := f.kv.Txn(ctx).Then(clientv3.OpPut("k", "v")).Commit(); return err },
		"Do(put)": func() error { _, err := f.kv.Do(ctx, clientv3.OpPut("k", "v")); return err },
	} {
		if err := call(); !errors.Is(err, ErrReadOnly) {
			t.Errorf("%s: %v, want ErrReadOnly", name, err)
		}
	}
	if len(f.connects) != 0 {
		t.Errorf("a refused write connected to etcd")
	}
	if _, err := f.kv.Do(ctx, clientv3.OpGet("k")); err != nil {
		t.Errorf("Do(get): %v", err)
	}
}

func TestSecretKVCredentialsThatAreNotCertificates(t *testing.T) {
	ctx := context.Background()
	for _, s := range []struct {
		name   string
		spoil  func(t *testing.T, f *secretKVFixture)
		object string
	}{
		{name: "a client key that is not a key", object: testNamespace + "/" + DefaultClientSecretName, spoil: func(t *testing.T, f *secretKVFixture) {
			secret, err := f.client.CoreV1().Secrets(testNamespace).Get(ctx, DefaultClientSecretName, metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			secret.Data[corev1.TLSPrivateKeyKey] = []byte("not a key")
			if _, err := f.client.CoreV1().Secrets(testNamespace).Update(ctx, secret, metav1.UpdateOptions{}); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "a CA bundle without a certificate", object: testNamespace + "/" + DefaultCABundleName, spoil: func(t *testing.T, f *secretKVFixture) {
			bundle, err := f.client.CoreV1().ConfigMaps(testNamespace).Get(ctx, DefaultCABundleName, metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			bundle.Data[caBundleKey] = ""
			if _, err := f.client.CoreV1().ConfigMaps(testNamespace).Update(ctx, bundle, metav1.UpdateOptions{}); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(s.name, func(t *testing.T) {
			f := newSecretKVFixture(t)
			s.spoil(t, f)
			var credErr *CredentialsError
			if _, err := f.kv.Get(ctx, "k"); !errors.As(err, &credErr) || credErr.Object != s.object {
				t.Fatalf("Get: %v, want a CredentialsError naming %s", err, s.object)
			}
			if len(f.connects) != 0 {
				t.Fatalf("connected with malformed credentials")
			}
		})
	}
}

func TestNewSecretKVNamesWhatIsMissing(t *testing.T) {
	client := fake.NewClientset()
	for _, s := range []struct {
		name string
		opts SecretKVOptions
	}{
		{"nothing", SecretKVOptions{}},
		{"no endpoints", SecretKVOptions{Secrets: client.CoreV1(), ConfigMaps: client.CoreV1(), Namespace: testNamespace}},
		{"http endpoint", SecretKVOptions{Secrets: client.CoreV1(), ConfigMaps: client.CoreV1(), Namespace: testNamespace, Endpoints: []string{"http://127.0.0.1:2379"}}},
		{"endpoints twice", SecretKVOptions{Secrets: client.CoreV1(), ConfigMaps: client.CoreV1(), Namespace: testNamespace,
			Endpoints: []string{"https://127.0.0.1:2379"}, EndpointsFrom: OpenShiftEndpoints(client.CoreV1())}},
	} {
		if _, err := NewSecretKV(s.opts); err == nil {
			t.Errorf("%s: no error", s.name)
		}
	}
}

// TestSecretKVFollowsItsEndpoints: with EndpointsFrom, the endpoints are listed at every reload; a changed list
// connects again with the same credentials, while a list that cannot be read, or is not https, keeps the client
// in hand and is said before there is one.
func TestSecretKVFollowsItsEndpoints(t *testing.T) {
	listed := []string{"https://10.0.0.1:2379", "https://10.0.0.2:2379"}
	var listErr error
	f := newSecretKVFixtureWith(t, func(opts *SecretKVOptions) {
		opts.EndpointsFrom = func(context.Context) ([]string, error) { return listed, listErr }
	})
	ctx := context.Background()

	listErr = errors.New("configmaps \"etcd-endpoints\" not found")
	if _, err := f.kv.Get(ctx, "/registry/secrets/a/b"); err == nil || err.Error() != `listing etcd's endpoints: configmaps "etcd-endpoints" not found` {
		t.Fatalf("Get without a list of endpoints: %v, want the listing's error", err)
	}
	listErr = nil
	f.now = f.now.Add(DefaultRetry)
	get := func(step string, wantConnects int, wantEndpoints []string) {
		t.Helper()
		if _, err := f.kv.Get(ctx, "/registry/secrets/a/b"); err != nil {
			t.Fatalf("%s: Get: %v", step, err)
		}
		if len(f.connects) != wantConnects {
			t.Fatalf("%s: %d connects, want %d", step, len(f.connects), wantConnects)
		}
		if got := f.endpoints[len(f.endpoints)-1]; strings.Join(got, " ") != strings.Join(wantEndpoints, " ") {
			t.Errorf("%s: connected to %v, want %v", step, got, wantEndpoints)
		}
	}
	get("listed", 1, listed)
	f.now = f.now.Add(DefaultReload)
	get("same list", 1, listed)

	// A member is replaced: the next reload connects to the new list, with the same credentials.
	listed = []string{"https://10.0.0.1:2379", "https://10.0.0.3:2379"}
	f.now = f.now.Add(DefaultReload)
	get("member replaced", 2, listed)
	if string(f.certs[0]) != string(f.certs[1]) {
		t.Error("the credentials changed with the endpoints")
	}

	// A list that cannot be read or used keeps the client.
	for _, bad := range []struct {
		list []string
		err  error
	}{{nil, errors.New("the server is currently unable to handle the request")}, {[]string{"http://10.0.0.1:2379"}, nil}, {nil, nil}} {
		listed, listErr = bad.list, bad.err
		f.now = f.now.Add(DefaultReload)
		get(fmt.Sprintf("list %v, error %v", bad.list, bad.err), 2, []string{"https://10.0.0.1:2379", "https://10.0.0.3:2379"})
	}
}

// clientCertPEM is a self-signed client certificate and its key, in PEM.
func clientCertPEM(t *testing.T) (crt, key []byte) {
	t.Helper()
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	serial, err := rand.Int(rand.Reader, big.NewInt(1<<62))
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: "etcd-client"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &priv.PublicKey, priv)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER})
}
