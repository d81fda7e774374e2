package pagedlist

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/storage"
	"k8s.io/client-go/tools/pager"

	"github.com/kmsguard/kmsguard/internal/apiservertest"
)

func TestPageFuncWalksEveryKeyOnce(t *testing.T) {
	keyRange := func(ns string, from, to int) []string {
		var keys []string
		for i := from; i < to; i++ {
			keys = append(keys, fmt.Sprintf("%s/s%04d", ns, i))
		}
		return keys
	}
	scenarios := []struct {
		name       string
		keys       []string
		unreadable []string
		expire     bool
	}{
		{name: "all readable", keys: keyRange("a", 0, 50)},
		{name: "scattered unreadable", keys: keyRange("a", 0, 50), unreadable: []string{"a/s0003", "a/s0017", "a/s0018", "a/s0049"}},
		{name: "first key unreadable", keys: keyRange("a", 0, 20), unreadable: []string{"a/s0000"}},
		{name: "everything unreadable", keys: keyRange("a", 0, 12), unreadable: keyRange("a", 0, 12)},
		{name: "more than 100 unreadable in a row", keys: keyRange("b", 0, 300), unreadable: keyRange("b", 10, 260)},
		{name: "unreadable across namespaces", keys: append(keyRange("a", 0, 30), keyRange("b", 0, 30)...), unreadable: []string{"a/s0029", "b/s0000"}},
		{name: "expired tokens and unreadable", keys: keyRange("a", 0, 60), unreadable: []string{"a/s0010", "a/s0030"}, expire: true},
	}
	for _, scenario := range scenarios {
		t.Run(scenario.name, func(t *testing.T) {
			store := apiservertest.NewSecrets()
			store.ExpireOnce = scenario.expire
			for _, key := range scenario.keys {
				ns, name, _ := strings.Cut(key, "/")
				obj := &unstructured.Unstructured{Object: map[string]interface{}{}}
				obj.SetNamespace(ns)
				obj.SetName(name)
				store.Objects[key] = obj
			}
			for _, key := range scenario.unreadable {
				store.Unreadable[key] = true
			}
			var reported []string
			expiries := 0
			p := pager.New(PageFunc(store.List, true, Observer{
				Unreadable: func(keys []string) { reported = append(reported, keys...) },
				Expired:    func() { expiries++ },
			}))
			p.PageSize = 7
			p.FullListIfExpired = false
			var listed []string
			err := p.EachListItem(context.Background(), metav1.ListOptions{}, func(obj runtime.Object) error {
				u := obj.(*unstructured.Unstructured)
				listed = append(listed, u.GetNamespace()+"/"+u.GetName())
				return nil
			})
			if err != nil {
				t.Fatalf("EachListItem: %v", err)
			}

			var wantListed, wantReported []string
			for _, key := range scenario.keys {
				if store.Unreadable[key] {
					wantReported = append(wantReported, apiservertest.EtcdPrefix+key)
				} else {
					wantListed = append(wantListed, key)
				}
			}
			if strings.Join(listed, ",") != strings.Join(wantListed, ",") {
				t.Errorf("listed %d objects %v, want %d %v", len(listed), listed, len(wantListed), wantListed)
			}
			if !sort.StringsAreSorted(reported) || strings.Join(reported, ",") != strings.Join(wantReported, ",") {
				t.Errorf("reported %d unreadable %v, want %d %v", len(reported), reported, len(wantReported), wantReported)
			}
			if scenario.expire && expiries == 0 {
				t.Errorf("no expired token was followed")
			}
			if !scenario.expire && expiries != 0 {
				t.Errorf("followed %d expired tokens, want none", expiries)
			}
		})
	}
}

func TestPageFuncReturnsOtherErrors(t *testing.T) {
	scenarios := []struct {
		name string
		err  error
	}{
		{name: "plain internal error (feature gate off)", err: apierrors.NewInternalError(fmt.Errorf("failed to decrypt DEK"))},
		{name: "410 on the first page has no token to follow", err: apierrors.NewResourceExpired("too old")},
		{name: "forbidden", err: apierrors.NewForbidden(schema.GroupResource{Resource: "secrets"}, "", fmt.Errorf("no"))},
	}
	for _, scenario := range scenarios {
		t.Run(scenario.name, func(t *testing.T) {
			calls := 0
			list := func(context.Context, metav1.ListOptions) (*unstructured.UnstructuredList, error) {
				calls++
				return nil, scenario.err
			}
			_, err := PageFunc(list, true, Observer{})(context.Background(), metav1.ListOptions{Limit: 500})
			if !errors.Is(err, scenario.err) {
				t.Fatalf("got error %v, want %v", err, scenario.err)
			}
			if calls != 1 {
				t.Errorf("listed %d times, want 1", calls)
			}
		})
	}
}

func TestContinueAfter(t *testing.T) {
	scenarios := []struct {
		key        string
		namespaced bool
		wantStart  string
		wantErr    bool
	}{
		{key: "/registry/secrets/ns/name", namespaced: true, wantStart: "/ns/name\x00"},
		{key: "/kubernetes.io/example.com/widgets/ns/w", namespaced: true, wantStart: "/ns/w\x00"},
		{key: "/registry/namespaces/default", namespaced: false, wantStart: "/default\x00"},
		{key: "name", namespaced: true, wantErr: true},
	}
	for _, scenario := range scenarios {
		t.Run(scenario.key, func(t *testing.T) {
			token, err := ContinueAfter(scenario.key, scenario.namespaced)
			if (err != nil) != scenario.wantErr {
				t.Fatalf("error = %v, want error %v", err, scenario.wantErr)
			}
			if err != nil {
				return
			}
			start, rv, err := storage.DecodeContinue(token, "/")
			if err != nil {
				t.Fatalf("the apiserver would reject the token: %v", err)
			}
			if start != scenario.wantStart || rv != -1 {
				t.Errorf("token starts at %q rv %d, want %q rv -1", start, rv, scenario.wantStart)
			}
		})
	}
}
