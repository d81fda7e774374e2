package encryptionstatus

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/utils/ptr"

	operatorv1 "github.com/openshift/api/operator/v1"
	applyoperatorv1 "github.com/openshift/client-go/operator/applyconfigurations/operator/v1"
	"github.com/openshift/client-go/operator/clientset/versioned/fake"
	"github.com/openshift/library-go/pkg/operator/encryption/kms"
)

// checkedAt is the lastCheckedTime of every test report. Whole seconds: the
// API serializes the time to the second.
var checkedAt = metav1.NewTime(time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC))

// resource is one operator resource under test.
type resource struct {
	name string
	// gvr names the resource in recorded actions.
	gvr string
	// newObject returns the resource named Name holding status.
	newObject   func(status operatorv1.KMSEncryptionStatus) runtime.Object
	newProvider func(cs *fake.Clientset) kms.EncryptionStatusProvider
	// managedFields returns the managed fields of the stored resource.
	managedFields func(t *testing.T, cs *fake.Clientset) []metav1.ManagedFieldsEntry
}

func resources() []resource {
	meta := metav1.ObjectMeta{Name: Name}
	return []resource{
		{
			name: "kubeapiserver",
			gvr:  "kubeapiservers",
			newObject: func(status operatorv1.KMSEncryptionStatus) runtime.Object {
				return &operatorv1.KubeAPIServer{ObjectMeta: meta, Status: operatorv1.KubeAPIServerStatus{EncryptionStatus: status}}
			},
			newProvider: func(cs *fake.Clientset) kms.EncryptionStatusProvider {
				return NewKubeAPIServer(cs.OperatorV1().KubeAPIServers())
			},
			managedFields: func(t *testing.T, cs *fake.Clientset) []metav1.ManagedFieldsEntry {
				obj, err := cs.OperatorV1().KubeAPIServers().Get(t.Context(), Name, metav1.GetOptions{})
				mustSucceed(t, err)
				return obj.ManagedFields
			},
		},
		{
			name: "openshiftapiserver",
			gvr:  "openshiftapiservers",
			newObject: func(status operatorv1.KMSEncryptionStatus) runtime.Object {
				return &operatorv1.OpenShiftAPIServer{ObjectMeta: meta, Status: operatorv1.OpenShiftAPIServerStatus{EncryptionStatus: status}}
			},
			newProvider: func(cs *fake.Clientset) kms.EncryptionStatusProvider {
				return NewOpenShiftAPIServer(cs.OperatorV1().OpenShiftAPIServers())
			},
			managedFields: func(t *testing.T, cs *fake.Clientset) []metav1.ManagedFieldsEntry {
				obj, err := cs.OperatorV1().OpenShiftAPIServers().Get(t.Context(), Name, metav1.GetOptions{})
				mustSucceed(t, err)
				return obj.ManagedFields
			},
		},
		{
			name: "authentication",
			gvr:  "authentications",
			newObject: func(status operatorv1.KMSEncryptionStatus) runtime.Object {
				return &operatorv1.Authentication{ObjectMeta: meta, Status: operatorv1.AuthenticationStatus{
					OAuthAPIServer: operatorv1.OAuthAPIServerStatus{EncryptionStatus: status},
				}}
			},
			newProvider: func(cs *fake.Clientset) kms.EncryptionStatusProvider {
				return NewAuthentication(cs.OperatorV1().Authentications())
			},
			managedFields: func(t *testing.T, cs *fake.Clientset) []metav1.ManagedFieldsEntry {
				obj, err := cs.OperatorV1().Authentications().Get(t.Context(), Name, metav1.GetOptions{})
				mustSucceed(t, err)
				return obj.ManagedFields
			},
		},
	}
}

func TestGetKMSEncryptionStatus(t *testing.T) {
	stored := operatorv1.KMSEncryptionStatus{HealthReports: []operatorv1.KMSPluginHealthReport{
		report("master-0", "1", operatorv1.KMSPluginHealthStatusHealthy),
		report("master-1", "1", operatorv1.KMSPluginHealthStatusError),
	}}
	for _, r := range resources() {
		t.Run(r.name, func(t *testing.T) {
			scenarios := []struct {
				name         string
				objects      []runtime.Object
				want         *operatorv1.KMSEncryptionStatus
				wantNotFound bool
			}{
				{name: "reports", objects: []runtime.Object{r.newObject(stored)}, want: &stored},
				{name: "no reports", objects: []runtime.Object{r.newObject(operatorv1.KMSEncryptionStatus{})}, want: &operatorv1.KMSEncryptionStatus{}},
				{name: "no resource", wantNotFound: true},
			}
			for _, s := range scenarios {
				t.Run(s.name, func(t *testing.T) {
					cs := fake.NewClientset(s.objects...)

					got, err := r.newProvider(cs).GetKMSEncryptionStatus(t.Context())

					if s.wantNotFound {
						if !apierrors.IsNotFound(err) {
							t.Fatalf("want a NotFound error, got %v", err)
						}
						return
					}
					mustSucceed(t, err)
					if diff := cmp.Diff(s.want, got); diff != "" {
						t.Errorf("status differs (-want +got):\n%s", diff)
					}
				})
			}
		})
	}
}

// TestApplyKMSEncryptionStatus applies the reports of two nodes' reporters
// and checks that each owns only its own entries: a reporter that stops
// reporting a plugin removes that entry, and leaves the other node's alone.
func TestApplyKMSEncryptionStatus(t *testing.T) {
	const (
		manager0 = "kms-health-reporter-master-0"
		manager1 = "kms-health-reporter-master-1"
	)
	for _, r := range resources() {
		t.Run(r.name, func(t *testing.T) {
			cs := fake.NewClientset(r.newObject(operatorv1.KMSEncryptionStatus{}))
			provider := r.newProvider(cs)

			applies := []struct {
				manager string
				reports []*applyoperatorv1.KMSPluginHealthReportApplyConfiguration
			}{
				{manager0, []*applyoperatorv1.KMSPluginHealthReportApplyConfiguration{
					applyReport("master-0", "1", operatorv1.KMSPluginHealthStatusHealthy),
					applyReport("master-0", "2", operatorv1.KMSPluginHealthStatusHealthy),
				}},
				{manager1, []*applyoperatorv1.KMSPluginHealthReportApplyConfiguration{
					applyReport("master-1", "1", operatorv1.KMSPluginHealthStatusError),
				}},
				// master-0 no longer runs the plugin of key 2.
				{manager0, []*applyoperatorv1.KMSPluginHealthReportApplyConfiguration{
					applyReport("master-0", "1", operatorv1.KMSPluginHealthStatusUnhealthy),
				}},
			}
			for _, a := range applies {
				status := applyoperatorv1.KMSEncryptionStatus().WithHealthReports(a.reports...)
				mustSucceed(t, provider.ApplyKMSEncryptionStatus(t.Context(), a.manager, status))
			}

			got, err := provider.GetKMSEncryptionStatus(t.Context())
			mustSucceed(t, err)
			want := &operatorv1.KMSEncryptionStatus{HealthReports: []operatorv1.KMSPluginHealthReport{
				report("master-0", "1", operatorv1.KMSPluginHealthStatusUnhealthy),
				report("master-1", "1", operatorv1.KMSPluginHealthStatusError),
			}}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("status differs (-want +got):\n%s", diff)
			}

			// The fake tracker leaves managedFields[].subresource empty, so
			// the status subresource is checked on the recorded actions
			// below instead.
			var gotManagers []string
			for _, entry := range r.managedFields(t, cs) {
				gotManagers = append(gotManagers, entry.Manager)
			}
			if diff := cmp.Diff([]string{manager0, manager1}, gotManagers, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
				t.Errorf("field managers differ (-want +got):\n%s", diff)
			}

			var patchManagers []string
			for _, action := range cs.Actions() {
				if action.GetVerb() != "patch" {
					continue
				}
				patch := action.(clienttesting.PatchActionImpl)
				patchManagers = append(patchManagers, patch.PatchOptions.FieldManager)
				if patch.GetResource().Resource != r.gvr || patch.GetSubresource() != "status" || patch.GetName() != Name ||
					patch.GetPatchType() != types.ApplyPatchType || !ptr.Deref(patch.PatchOptions.Force, false) {
					t.Errorf("want a forced apply of %s/%s status, got %s/%s %q %s force=%v", r.gvr, Name,
						patch.GetResource().Resource, patch.GetName(), patch.GetSubresource(), patch.GetPatchType(), patch.PatchOptions.Force)
				}
			}
			if diff := cmp.Diff([]string{manager0, manager1, manager0}, patchManagers); diff != "" {
				t.Errorf("applies' field managers differ (-want +got):\n%s", diff)
			}
		})
	}
}

// TestUpdateKMSEncryptionStatus mutates the preflight field as library-go's
// key controller does: the health reports stay, a conflict is retried on a
// fresh read, and any other failure is returned, never taken for a write.
func TestUpdateKMSEncryptionStatus(t *testing.T) {
	stored := operatorv1.KMSEncryptionStatus{HealthReports: []operatorv1.KMSPluginHealthReport{
		report("master-0", "1", operatorv1.KMSPluginHealthStatusHealthy),
	}}
	for _, r := range resources() {
		t.Run(r.name, func(t *testing.T) {
			scenarios := []struct {
				name string
				// failures are the errors of the first status updates, in turn.
				failures    []error
				wantErr     bool
				wantUpdates int
			}{
				{name: "written at once", wantUpdates: 1},
				{name: "conflict retried", failures: []error{apierrors.NewConflict(schema.GroupResource{Resource: r.gvr}, Name, errors.New("modified"))}, wantUpdates: 2},
				{name: "forbidden returned", failures: []error{apierrors.NewForbidden(schema.GroupResource{Resource: r.gvr}, Name, errors.New("no"))}, wantErr: true, wantUpdates: 1},
			}
			for _, s := range scenarios {
				t.Run(s.name, func(t *testing.T) {
					cs := fake.NewClientset(r.newObject(stored))
					updates := 0
					cs.PrependReactor("update", r.gvr, func(action clienttesting.Action) (bool, runtime.Object, error) {
						updates++
						if action.GetSubresource() != "status" {
							t.Errorf("update of subresource %q, want status", action.GetSubresource())
						}
						if updates <= len(s.failures) {
							return true, nil, s.failures[updates-1]
						}
						return false, nil, nil
					})

					err := r.newProvider(cs).UpdateKMSEncryptionStatus(t.Context(), func(status *operatorv1.KMSEncryptionStatus) {
						status.Preflight.ObservedConfigHash = "abcdefgh"
					})

					if s.wantErr != (err != nil) {
						t.Fatalf("UpdateKMSEncryptionStatus = %v, want an error: %v", err, s.wantErr)
					}
					if updates != s.wantUpdates {
						t.Errorf("%d status updates, want %d", updates, s.wantUpdates)
					}
					got, err := r.newProvider(cs).GetKMSEncryptionStatus(t.Context())
					mustSucceed(t, err)
					want := stored.DeepCopy()
					if !s.wantErr {
						want.Preflight.ObservedConfigHash = "abcdefgh"
					}
					if diff := cmp.Diff(want, got); diff != "" {
						t.Errorf("status differs (-want +got):\n%s", diff)
					}
				})
			}
		})
	}
}

func report(node, keyID string, status operatorv1.KMSPluginHealthStatus) operatorv1.KMSPluginHealthReport {
	return operatorv1.KMSPluginHealthReport{NodeName: node, KeyID: keyID, Status: status, LastCheckedTime: checkedAt, RemoteKeyID: "kek-1"}
}

func applyReport(node, keyID string, status operatorv1.KMSPluginHealthStatus) *applyoperatorv1.KMSPluginHealthReportApplyConfiguration {
	return applyoperatorv1.KMSPluginHealthReport().
		WithNodeName(node).WithKeyID(keyID).WithStatus(status).WithLastCheckedTime(checkedAt).WithRemoteKeyID("kek-1")
}

func mustSucceed(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
