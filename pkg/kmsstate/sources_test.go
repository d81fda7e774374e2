package kmsstate

import (
	"reflect"
	"testing"

	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"
)

func TestKeysFromConfig(t *testing.T) {
	kms := func(name, endpoint, version string) apiserverv1.ProviderConfiguration {
		return apiserverv1.ProviderConfiguration{KMS: &apiserverv1.KMSConfiguration{APIVersion: version, Name: name, Endpoint: endpoint}}
	}
	config := &apiserverv1.EncryptionConfiguration{Resources: []apiserverv1.ResourceConfiguration{
		{Resources: []string{"secrets"}, Providers: []apiserverv1.ProviderConfiguration{
			kms("2_secrets", "unix:///var/run/kmsplugin/kms-2.sock", "v2"),
			kms("1_secrets", "unix:///var/run/kmsplugin/kms-1.sock", "v2"),
			{Identity: &apiserverv1.IdentityConfiguration{}},
		}},
		{Resources: []string{"configmaps"}, Providers: []apiserverv1.ProviderConfiguration{
			kms("2_configmaps", "unix:///var/run/kmsplugin/kms-2.sock", "v2"),
			kms("handmade", "unix:///tmp/plugin.sock", "v2"),
			kms("legacy", "unix:///var/run/kmsplugin/kms-9.sock", "v1"),
		}},
	}}
	got := KeysFromConfig(config)
	want := Keys{
		IDs:       []string{"1", "2", "handmade"},
		Providers: map[string]string{"2_secrets": "2", "1_secrets": "1", "2_configmaps": "2", "handmade": "handmade"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	if empty := KeysFromConfig(nil); len(empty.IDs) != 0 {
		t.Errorf("nil config: got %+v", empty)
	}
}

func TestKeyIDFromEndpoint(t *testing.T) {
	scenarios := []struct {
		endpoint string
		want     string
		ok       bool
	}{
		{endpoint: "unix:///var/run/kmsplugin/kms-1.sock", want: "1", ok: true},
		{endpoint: "unix:///var/run/kmsplugin/kms-42.sock", want: "42", ok: true},
		{endpoint: "unix:///var/run/kmsplugin/kms.sock"},
		{endpoint: "unix:///var/run/kmsplugin/kms-a.sock"},
		{endpoint: "unix:///elsewhere/kms-1.sock"},
	}
	for _, s := range scenarios {
		t.Run(s.endpoint, func(t *testing.T) {
			got, ok := KeyIDFromEndpoint(s.endpoint)
			if got != s.want || ok != s.ok {
				t.Errorf("got %q %v, want %q %v", got, ok, s.want, s.ok)
			}
		})
	}
}
