//go:build tools

// Package tools pins the kube-apiserver and kube-controller-manager commands for `go build` in this module.
package tools

import (
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kube-controller-manager"
)
