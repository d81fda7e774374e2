package conventionstest

import clienttesting "k8s.io/client-go/testing"

// Writes are the actions of a fake clientset that change something, as "verb resource[/subresource]" with " in
// namespace" for a namespaced one: every action but get, list and watch. A controller that must not act while
// not Managed is checked to have none.
func Writes(actions []clienttesting.Action) []string {
	var out []string
	for _, a := range actions {
		switch a.GetVerb() {
		case "get", "list", "watch":
			continue
		}
		w := a.GetVerb() + " " + a.GetResource().Resource
		if sub := a.GetSubresource(); sub != "" {
			w += "/" + sub
		}
		if ns := a.GetNamespace(); ns != "" {
			w += " in " + ns
		}
		out = append(out, w)
	}
	return out
}
