package kmsenv

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/openshift/library-go/pkg/crypto"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apiserver/pkg/authentication/user"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// EtcdTLSFiles are the PEM files of an etcd that serves its clients over TLS and asks for a client certificate,
// as OpenShift's does: what kube-apiserver's --etcd-cafile, --etcd-certfile and --etcd-keyfile name, and what
// kube-apiserver-operator keeps in the etcd-serving-ca ConfigMap and the etcd-client Secret.
type EtcdTLSFiles struct {
	// CA signed etcd's serving certificate and the client certificate.
	CA string
	// ClientCert and ClientKey are a client certificate etcd accepts.
	ClientCert, ClientKey string
}

// etcdCertLifetime outlives any test run.
const etcdCertLifetime = 24 * time.Hour

// writeEtcdTLSFiles makes a CA, etcd's serving certificate for 127.0.0.1 and a client certificate, in dir.
func writeEtcdTLSFiles(dir string) (files EtcdTLSFiles, server [2]string, err error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return files, server, err
	}
	caConfig, err := crypto.MakeSelfSignedCAConfig("kmsenv-etcd-signer", etcdCertLifetime)
	if err != nil {
		return files, server, err
	}
	ca := &crypto.CA{Config: caConfig, SerialGenerator: &crypto.RandomSerialGenerator{}}
	files = EtcdTLSFiles{CA: filepath.Join(dir, "ca.crt"), ClientCert: filepath.Join(dir, "client.crt"), ClientKey: filepath.Join(dir, "client.key")}
	server = [2]string{filepath.Join(dir, "server.crt"), filepath.Join(dir, "server.key")}
	if err := caConfig.WriteCertConfigFile(files.CA, filepath.Join(dir, "ca.key")); err != nil {
		return files, server, err
	}
	serving, err := ca.MakeServerCert(sets.New("127.0.0.1", "localhost"), etcdCertLifetime)
	if err != nil {
		return files, server, err
	}
	if err := serving.WriteCertConfigFile(server[0], server[1]); err != nil {
		return files, server, err
	}
	client, err := ca.MakeClientCertificateForDuration(&user.DefaultInfo{Name: "etcd-client"}, etcdCertLifetime)
	if err != nil {
		return files, server, err
	}
	return files, server, client.WriteCertConfigFile(files.ClientCert, files.ClientKey)
}

// configureEtcdTLS makes etcd serve its clients on an https URL that asks for a client certificate, and its
// health on a plain http metrics URL, which is where envtest's start check looks (e.URL). It returns the client
// URL.
func configureEtcdTLS(e *envtest.Etcd, dir string) (*url.URL, EtcdTLSFiles, error) {
	files, server, err := writeEtcdTLSFiles(dir)
	if err != nil {
		return nil, files, fmt.Errorf("writing etcd's certificates: %w", err)
	}
	clientPort, err := FreePort()
	if err != nil {
		return nil, files, err
	}
	metricsPort, err := FreePort()
	if err != nil {
		return nil, files, err
	}
	clientURL := &url.URL{Scheme: "https", Host: "127.0.0.1:" + clientPort}
	e.URL = &url.URL{Scheme: "http", Host: "127.0.0.1:" + metricsPort}
	e.Configure().
		Set("listen-client-urls", clientURL.String()).
		Set("advertise-client-urls", clientURL.String()).
		Set("listen-metrics-urls", e.URL.String()).
		Set("cert-file", server[0]).
		Set("key-file", server[1]).
		Set("trusted-ca-file", files.CA).
		Set("client-cert-auth", "true")
	return clientURL, files, nil
}
