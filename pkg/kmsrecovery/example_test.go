package kmsrecovery_test

import (
	"context"
	"errors"
	"fmt"

	operatorv1 "github.com/openshift/api/operator/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
	"github.com/kmsguard/kmsguard/pkg/kmsrecovery"
)

// ExampleCheckConsent decides an admin's consent to lose the objects of KMS key 1's old KEK "7". Lost-key recovery is
// built by kmsguard.NewStaticPodControllers (see kmsguard's Example); this shows instead CheckConsent, the one
// consent rule of its controller and of `kmsguard recover`, over what a scan found and what the KMS plugins say.
func ExampleCheckConsent() {
	ctx := context.Background()
	// A scan found two secrets kube-apiserver cannot read; etcd shows both under provider 1_secrets, KEK id 7.
	lost := func(namespace, name string) kmsrecovery.Object {
		return kmsrecovery.Object{ObjectRef: kmsrecovery.ObjectRef{Resource: schema.GroupResource{Resource: "secrets"}, Namespace: namespace, Name: name},
			EtcdKey: "/kubernetes.io/secrets/" + namespace + "/" + name, Kind: etcdvalue.KindKMSv2, Provider: "1_secrets", KEKID: "7",
			ConsentID: "1_secrets:7", OperatorManaged: kmsrecovery.ExpectRecreated(namespace)}
	}
	findings := &kmsrecovery.Findings{Resources: []kmsrecovery.ResourceFindings{{Resource: schema.GroupResource{Resource: "secrets"},
		Readable: 40, Unreadable: []kmsrecovery.Object{lost("openshift-ingress", "router-certs"), lost("team-a", "db-password")}}}}
	fmt.Println(findings.Summary())

	// kmsstate's view: key 1's plugins serve KEK "8" (the KMS rotated, then lost "7"); master-1's stopped answering.
	snapshot := kmsrecovery.KMSSnapshot{Served: map[string][]string{"8": {"node master-0 key 1"}}, Current: map[string]string{"1": "8"},
		Unhealthy: errors.New("node master-1 key 1: connection refused")}
	kms := kmsrecovery.KMSViewFunc(func(context.Context) (kmsrecovery.KMSSnapshot, error) { return snapshot, nil })

	// The admin's consent, in the operator's spec.unsupportedConfigOverrides: a bare KEK id names 1_secrets:7.
	consent, err := kmsrecovery.ConsentFromSpec(&operatorv1.OperatorSpec{
		UnsupportedConfigOverrides: runtime.RawExtension{Raw: []byte(`{"kmsguard":{"confirmDataLoss":"7"}}`)}})
	if err != nil {
		panic(err)
	}
	check := func(consent string) {
		consented, err := kmsrecovery.CheckConsent(ctx, findings, consent, kms)
		var refused *kmsrecovery.ConsentError
		if errors.As(err, &refused) {
			fmt.Printf("%q refused: %s\n", consent, refused.Reason())
			return
		}
		for _, o := range consented.Objects {
			fmt.Printf("%q deletes %s (%s), operator recreates it: %t\n", consent, o.ObjectRef, consented.ConsentID, o.OperatorManaged)
		}
	}
	check("")
	check("8")
	check(consent) // master-1's plugin is down: an outage looks like a lost key.
	snapshot.Unhealthy = nil
	check(consent)
	// Output:
	// secrets: 2 of 42 (key 1_secrets:7: 2)
	// "" refused: UndecryptableObjects
	// "8" refused: ConsentMatchesNoObject
	// "7" refused: KMSUnhealthy
	// "7" deletes secrets openshift-ingress/router-certs (1_secrets:7), operator recreates it: true
	// "7" deletes secrets team-a/db-password (1_secrets:7), operator recreates it: false
}
