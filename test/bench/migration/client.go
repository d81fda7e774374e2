package main

import (
	"context"
	"fmt"

	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"
)

// The measured clients authenticate as a service account, as kube-apiserver-operator's migrator does, not as the
// admin: an admin's client certificate has its chain verified on every request (an ECDSA verification, about a
// tenth of the apiserver's CPU per rewrite in a profile of this benchmark), where a service account's token is
// verified once and then answered from the apiserver's token cache; RBAC authorizes each request, and priority
// and fairness queues it (flow schema service-accounts, priority level workload-low), where system:masters is
// exempt. The in-tree migrator's controller manager keeps the admin's certificate (intree.go).
const (
	clientNamespace = "default"
	clientName      = "bench-migrator"
	// clientTokenSeconds outlives any benchmark run: a run at the default sizes and rounds takes about 23 minutes.
	clientTokenSeconds = 6 * 60 * 60
)

// provisionClient creates the service account, its RBAC for Secrets (what every loop needs: list, and update of
// each object; get for a retry after a conflict) and a bound token, and keeps a client config with that token.
func (b *bench) provisionClient(ctx context.Context) error {
	admin, err := kubernetes.NewForConfig(b.adminConfig())
	if err != nil {
		return err
	}
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Namespace: clientNamespace, Name: clientName}}
	if _, err := admin.CoreV1().ServiceAccounts(clientNamespace).Create(ctx, sa, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("creating the benchmark's service account: %w", err)
	}
	role := &rbacv1.ClusterRole{
		ObjectMeta: metav1.ObjectMeta{Name: clientName},
		Rules:      []rbacv1.PolicyRule{{APIGroups: []string{""}, Resources: []string{"secrets"}, Verbs: []string{"get", "list", "update"}}},
	}
	if _, err := admin.RbacV1().ClusterRoles().Create(ctx, role, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("creating the benchmark's cluster role: %w", err)
	}
	binding := &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: clientName},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: clientName},
		Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Namespace: clientNamespace, Name: clientName}},
	}
	if _, err := admin.RbacV1().ClusterRoleBindings().Create(ctx, binding, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("creating the benchmark's cluster role binding: %w", err)
	}
	token, err := admin.CoreV1().ServiceAccounts(clientNamespace).CreateToken(ctx, clientName,
		&authenticationv1.TokenRequest{Spec: authenticationv1.TokenRequestSpec{ExpirationSeconds: ptr.To[int64](clientTokenSeconds)}},
		metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("requesting a token for the benchmark's service account: %w", err)
	}
	config := rest.AnonymousClientConfig(b.adminConfig())
	config.BearerToken = token.Status.Token
	b.client = config
	return nil
}

// restConfig is the config of the measured loops: the service account's token, no client-side rate limit.
func (b *bench) restConfig() *rest.Config {
	config := rest.CopyConfig(b.client)
	// No client-side rate limit: client-go's default of 5 QPS would measure itself.
	config.QPS, config.Burst = -1, 0
	return config
}

// adminConfig is the admin's (system:masters, a client certificate): for setting up, counting, profiling and the
// in-tree migrator's controller manager.
func (b *bench) adminConfig() *rest.Config {
	config := b.cp.APIServer(0).RESTConfig()
	config.QPS, config.Burst = -1, 0
	return config
}
